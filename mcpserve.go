package rlm

import (
	"context"
	"os"
	"path/filepath"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/mcp"
	"github.com/rlm-go/rlm/trace"
)

// MCPServe configures the MCP server of a session (rlm mcp serve).
type MCPServe struct {
	// Roots are the directories whose files callers may name as contexts
	// (relative paths resolve against the first); none: inline text only.
	Roots []string
	// TraceDir, when set, receives each call's trace as TRACE_ID.json
	// (created if missing).
	TraceDir string
	// Error, when set, rewrites the error of a call's result (the CLI adds
	// its hints).
	Error func(*fault.Error) *fault.Error
}

// MCPServer is an MCP server over the session: rlm_run runs the engine on
// the caller's context (Session.RunOn), rlm_direct (when the session has
// tools) the direct loop (Session.DirectOn), context_metadata,
// context_search and context_slice inspect a context under the roots. The
// Spec's limits are per-call ceilings a caller can only lower; its model
// endpoint and key never appear in an MCP message. Serve it with
// ServeStdio or ListenAndServe; Close it before the session.
func (s *Session) MCPServer(o MCPServe) (*mcp.Server, error) {
	if o.TraceDir != "" {
		if err := os.MkdirAll(o.TraceDir, 0o755); err != nil {
			return nil, fault.Wrap(err, fault.PhaseConfig, fault.KindInvalid, "cannot create the trace directory").With("path", o.TraceDir)
		}
	}
	cfg := mcp.ServeConfig{Roots: o.Roots, Limits: s.spec.Limits, Version: Version()}
	cfg.Run = func(ctx context.Context, req mcp.RunRequest) (*mcp.RunResult, error) {
		res, err := s.RunOn(ctx, mcpCall(req))
		if res == nil {
			return nil, err
		}
		return o.result(res.Result.Trajectory, res.TraceDropped, StatusOf(res.Error), res.Answer, res.Usage, res.Error), nil
	}
	if s.Tools() != nil {
		cfg.Direct = func(ctx context.Context, req mcp.RunRequest) (*mcp.RunResult, error) {
			res, err := s.DirectOn(ctx, mcpCall(req))
			if res == nil {
				return nil, err
			}
			return o.result(res.Trace, res.TraceDropped, StatusOf(res.Error), res.Answer, res.Usage, res.Error), nil
		}
	}
	return mcp.NewServer(cfg)
}

// mcpCall is the session call of an MCP request; its progress reports
// each finished step.
func mcpCall(req mcp.RunRequest) On {
	return On{Store: req.Store, Context: req.Context, Query: req.Query, Limits: req.Limits,
		Observer: func(ev trace.Event) { req.Progress(string(ev.Kind) + " " + ev.Name + " " + string(ev.Status)) }}
}

// result is the MCP result of a finished call; its trace is saved under
// TraceDir as TRACE_ID.json.
func (o MCPServe) result(events []trace.Event, dropped int, status string, answer any, usage budget.Usage, e *fault.Error) *mcp.RunResult {
	id := mcp.NewTraceID()
	if o.TraceDir != "" {
		_ = trace.WriteFile(filepath.Join(o.TraceDir, id+".json"), "rlm mcp serve", events, dropped)
	}
	if o.Error != nil && e != nil {
		e = o.Error(e)
	}
	return &mcp.RunResult{Status: status, Answer: answer, Usage: usage, Error: e, TraceID: id}
}
