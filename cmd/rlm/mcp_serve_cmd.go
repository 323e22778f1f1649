package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/rlm-go/rlm"
	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/console"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/mcp"
	"github.com/rlm-go/rlm/trace"
)

func newMCPCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve rlm to MCP clients (rlm mcp serve)",
	}
	addJSONErrorsFlag(cmd, true)
	cmd.AddCommand(newMCPServeCmd())
	return cmd
}

func newMCPServeCmd() *cobra.Command {
	var (
		pf       providerFlags
		mf       modeFlag
		bf       budgetFlags
		tf       toolFlags
		roots    []string
		httpAddr string
		tokenEnv string
		traceDir string
	)
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve rlm_run, context_metadata, context_search, context_slice (and rlm_direct with --allow) over MCP",
		Long: `Serve rlm as an MCP server: over stdio (the default), or streamable HTTP with
--http 127.0.0.1:PORT (loopback unless a bearer token is set: --bearer-token-env VAR).
Tools: rlm_run (query + context_path under a --root, or context_text; returns answer,
usage and trace_id), context_metadata, context_search, context_slice, and rlm_direct
when tools are granted with --allow. The budget flags are per-call ceilings a caller
can only lower. The model endpoint and key come from this process's flags and
environment; they never appear in an MCP message. Over stdio a line that is not
a valid JSON-RPC message is answered with a JSON-RPC error (-32700, -32600) and
the session goes on until stdin ends; context_text is bounded by its decoded
size (16 MiB, mcp/inline_too_large). See docs/mcp.md.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			var sp rlm.Spec
			pf.spec(&sp)
			bf.spec(&sp)
			mf.spec(&sp)
			tf.spec(&sp)
			sess, err := rlm.Open(ctx, sp, statusOptions(console.NewStatus(cmd.ErrOrStderr(), false))...)
			if err != nil {
				return err
			}
			defer sess.Close()
			if traceDir != "" {
				if err := os.MkdirAll(traceDir, 0o755); err != nil {
					return fault.Wrap(err, fault.PhaseConfig, fault.KindInvalid, "cannot create --trace-dir").With("path", traceDir)
				}
			}
			cfg := mcp.ServeConfig{Roots: roots, Limits: bf.lim, Version: rlm.Version()}
			cfg.Run = func(ctx context.Context, req mcp.RunRequest) (*mcp.RunResult, error) {
				res, err := sess.RunOn(ctx, mcpCall(req))
				if res == nil {
					return nil, err
				}
				return mcpResult(traceDir, res.Result.Trajectory, res.TraceDropped, res.Status, res.Answer, res.Usage, res.Error), nil
			}
			if sess.Tools() != nil {
				cfg.Direct = func(ctx context.Context, req mcp.RunRequest) (*mcp.RunResult, error) {
					res, err := sess.DirectOn(ctx, mcpCall(req))
					if res == nil {
						return nil, err
					}
					return mcpResult(traceDir, res.Trace, res.TraceDropped, res.Status, res.Answer, res.Usage, res.Error), nil
				}
			}
			srv, err := mcp.NewServer(cfg)
			if err != nil {
				return err
			}
			if httpAddr == "" {
				// Stopped by a signal: a normal stop, as over --http.
				if err = srv.ServeStdio(ctx); ctx.Err() != nil && errors.Is(err, ctx.Err()) {
					err = nil
				}
			} else {
				err = serveMCPHTTP(ctx, cmd.ErrOrStderr(), srv, httpAddr, tokenEnv)
			}
			srv.Close()
			// --record: the model interactions of the calls served.
			if rerr := sess.Close(); err == nil {
				err = rerr
			}
			return err
		},
	}
	pf.register(cmd)
	mf.register(cmd)
	bf.register(cmd)
	tf.register(cmd, true)
	fl := cmd.Flags()
	fl.StringArrayVar(&roots, "root", nil, "directory whose files callers may name as contexts (repeat; relative paths resolve against the first)")
	fl.StringVar(&httpAddr, "http", "", "serve streamable HTTP on this address (host:port; an empty host means 127.0.0.1) instead of stdio")
	fl.StringVar(&tokenEnv, "bearer-token-env", "", "environment variable holding the bearer token HTTP clients must send (required for a non-loopback --http)")
	fl.StringVar(&traceDir, "trace-dir", "", "write each call's trace to DIR/<trace_id>.json")
	return cmd
}

// serveMCPHTTP listens on addr (loopback unless a bearer token is set)
// until ctx ends.
func serveMCPHTTP(ctx context.Context, stderr io.Writer, srv *mcp.Server, addr, tokenEnv string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fault.Wrap(err, fault.PhaseConfig, fault.KindInvalid, "--http must be host:port").With("http", addr)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	token := ""
	if tokenEnv != "" {
		if token = os.Getenv(tokenEnv); token == "" {
			return fault.New(fault.PhaseConfig, fault.KindInvalid, "the bearer token variable is empty").With("variable", tokenEnv).
				WithHint("export the token in that variable, or drop --bearer-token-env")
		}
	}
	if ip := net.ParseIP(host); (ip == nil && host != "localhost") || (ip != nil && !ip.IsLoopback()) {
		if token == "" {
			return fault.New(fault.PhaseConfig, fault.KindInvalid, "a non-loopback --http address needs a bearer token").With("http", addr).
				WithHint("bind 127.0.0.1, or set --bearer-token-env VAR")
		}
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(host, port))
	if err != nil {
		return fault.Wrap(err, fault.PhaseConfig, fault.KindInvalid, "cannot listen on --http").With("http", addr)
	}
	hs := &http.Server{Handler: srv.HTTPHandler(token), ReadHeaderTimeout: 10 * time.Second}
	// The bound address goes to stderr so a caller can use port 0.
	fmt.Fprintf(stderr, "rlm: mcp: serving streamable HTTP on http://%s/\n", ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = hs.Shutdown(sctx)
		return nil
	case err := <-errc:
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return err
	}
}

// mcpCall is the session call of an MCP request; its progress reports
// each finished step.
func mcpCall(req mcp.RunRequest) rlm.On {
	return rlm.On{Store: req.Store, Context: req.Context, Query: req.Query, Limits: req.Limits,
		Observer: func(ev trace.Event) { req.Progress(string(ev.Kind) + " " + ev.Name + " " + string(ev.Status)) }}
}

// mcpResult is the MCP result of a finished call; its trace is saved under
// --trace-dir as TRACE_ID.json.
func mcpResult(traceDir string, events []trace.Event, dropped int, status string, answer any, usage budget.Usage, e *fault.Error) *mcp.RunResult {
	id := mcp.NewTraceID()
	if traceDir != "" {
		_ = trace.WriteFile(filepath.Join(traceDir, id+".json"), "rlm mcp serve", events, dropped)
	}
	return &mcp.RunResult{Status: status, Answer: answer, Usage: usage, Error: withHint(e), TraceID: id}
}
