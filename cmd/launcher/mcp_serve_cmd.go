package launcher

import (
	"context"
	"errors"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/rlm-go/rlm"
	"github.com/rlm-go/rlm/console"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/mcp"
)

func (l *launcher) newMCPCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve rlm to MCP clients (rlm mcp serve)",
	}
	addJSONErrorsFlag(cmd, true)
	cmd.AddCommand(l.newMCPServeCmd())
	return cmd
}

// mcpServeFlags are rlm mcp serve's flags.
type mcpServeFlags struct {
	pf       providerFlags
	mf       modeFlag
	bf       budgetFlags
	tf       toolFlags
	roots    []string
	httpAddr string
	tokenEnv string
	traceDir string
}

func (l *launcher) newMCPServeCmd() *cobra.Command {
	var f mcpServeFlags
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve rlm_run, context_metadata, context_search, context_slice (and rlm_direct with --allow) over MCP",
		Long: `Serve rlm as an MCP server: over stdio (the default), or streamable HTTP with
--http 127.0.0.1:PORT (loopback unless a bearer token is set: --bearer-token-env VAR).
Tools: rlm_run (query + context_path under a --root, or context_text; returns answer,
usage and trace_id), context_metadata, context_search, context_slice, and rlm_direct
when tools are granted with --allow. Prompts: answer_question, summarize_context
and find_occurrences, each a message that steers the client's model to those tools.
Over HTTP, streams are resumable (event ids, Last-Event-ID) and open with a priming
event and a retry field for 2025-11-25 clients. The budget flags are per-call ceilings a caller
can only lower. The model endpoint and key come from this process's flags and
environment; they never appear in an MCP message. Over stdio a line that is not
a valid JSON-RPC message is answered with a JSON-RPC error (-32700, -32600) and
the session goes on until stdin ends; context_text is bounded by its decoded
size (16 MiB, mcp/inline_too_large). See docs/mcp.md.`,
		Args: cobra.NoArgs,
		RunE: f.run,
	}
	f.pf.register(l, cmd)
	f.mf.register(cmd)
	f.bf.register(cmd)
	f.tf.register(l, cmd, true)
	fl := cmd.Flags()
	fl.StringArrayVar(&f.roots, "root", nil, "directory whose files callers may name as contexts (repeat; relative paths resolve against the first)")
	fl.StringVar(&f.httpAddr, "http", "", "serve streamable HTTP on this address (host:port; an empty host means 127.0.0.1) instead of stdio")
	fl.StringVar(&f.tokenEnv, "bearer-token-env", "", "environment variable holding the bearer token HTTP clients must send (required for a non-loopback --http)")
	fl.StringVar(&f.traceDir, "trace-dir", "", "write each call's trace to DIR/<trace_id>.json")
	return cmd
}

// run opens the session and serves it until stdin ends or ctx is done.
func (f *mcpServeFlags) run(cmd *cobra.Command, _ []string) error {
	ctx := cmd.Context()
	var sp rlm.Spec
	f.pf.spec(&sp)
	f.bf.spec(&sp)
	f.mf.spec(&sp)
	f.tf.spec(&sp)
	sess, err := f.pf.l.open(ctx, sp, statusOptions(console.NewStatus(cmd.ErrOrStderr(), false))...)
	if err != nil {
		return err
	}
	defer sess.Close()
	srv, err := sess.MCPServer(rlm.MCPServe{Roots: f.roots, TraceDir: f.traceDir, Error: withHint})
	if err != nil {
		return err
	}
	if f.httpAddr == "" {
		// Stopped by a signal: a normal stop, as over --http.
		if err = srv.ServeStdio(ctx); ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			err = nil
		}
	} else {
		err = serveMCPHTTP(ctx, cmd.ErrOrStderr(), srv, f.httpAddr, f.tokenEnv)
	}
	srv.Close()
	// --record: the model interactions of the calls served.
	if rerr := sess.Close(); err == nil {
		err = rerr
	}
	return err
}

// serveMCPHTTP serves srv on addr, with the bearer token of the variable
// tokenEnv, until ctx ends.
func serveMCPHTTP(ctx context.Context, stderr io.Writer, srv *mcp.Server, addr, tokenEnv string) error {
	token := ""
	if tokenEnv != "" {
		if token = os.Getenv(tokenEnv); token == "" {
			return fault.New(fault.PhaseConfig, fault.KindInvalid, "the bearer token variable is empty").With("variable", tokenEnv).
				WithHint("export the token in that variable, or drop --bearer-token-env")
		}
	}
	return srv.ListenAndServe(ctx, addr, token, stderr)
}
