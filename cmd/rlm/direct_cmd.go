package main

import (
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/direct"
	"github.com/rlm-go/rlm/prompt"
	"github.com/rlm-go/rlm/subagent"
	"github.com/rlm-go/rlm/tool"
	"github.com/rlm-go/rlm/trace"
)

func newDirectCmd() *cobra.Command {
	var (
		pf         providerFlags
		bf         budgetFlags
		tf         toolFlags
		df         delegationFlags
		of         otlpFlags
		ctxPaths   []string
		asJSON     bool
		traceFile  string
		mode       string
		maxBatch   int
		maxTokens  int
		synthesize time.Duration
	)
	cmd := &cobra.Command{
		Use:   "direct [flags] QUERY",
		Short: "Answer QUERY with a native tool-calling loop (direct mode)",
		Long: `Run the direct runtime: the model sees native function schemas for the granted
tools (--allow tool:NAME, context:search|slice|peek), calls them, reads bounded
observations and answers. Every batch of tool calls is normalized and classified
before anything runs; an effectful call must be alone in its batch.
--json prints {"status","answer","turns","tool_calls","context_calls","usage","error","run_id","replayed","events"}
(run_id when tools are granted). --resume RUN_ID continues a run: the effects it recorded are
replayed, never executed again.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			cfg := direct.Config{Model: pf.model, MaxTokens: maxTokens, Mode: prompt.Mode(mode),
				Limits: direct.Limits{Limits: bf.lim, MaxNativeCallsPerBatch: maxBatch}, AuthorityContext: cliAuthorityContext}
			if err := bf.checkDepth(); err != nil { // as rlm run and rlm command
				return err
			}
			// Zero is the default time limit, negative none: no deadline.
			if lim, err := bf.lim.Resolve(); err == nil && synthesize > 0 && lim.TimeLimit > 0 {
				cfg.Deadline, cfg.SynthesisReserve = time.Now().Add(lim.TimeLimit), synthesize
			}
			caps, err := capability.NewSet(splitCaps(tf.allow)...)
			if err != nil {
				return err
			}
			cfg.Capabilities = caps
			// Configuration first: outputs, key, base URL, tools and the
			// runtime's own checks come before the input is read.
			st := newStatus(cmd.ErrOrStderr(), !asJSON && isTerminal(cmd.ErrOrStderr()))
			// The provider bounds a response's tool calls by the same cap.
			pf.maxToolCalls = maxBatch
			sess, err := pf.open(st, [2]string{"trace", traceFile})
			if err != nil {
				return err
			}
			defer sess.close()
			cfg.Provider = sess.provider
			var ts *toolSession
			var childCtx sharedContext // set once --context is read; children answer over it
			if hasToolCap(caps) || tf.resume != "" {
				if ts, err = tf.open(cmd.Context()); err != nil {
					return err
				}
				defer ts.Close()
				if caps.Has(subagent.Capability) {
					// rlm_subagent, with the same model and budget flags;
					// its children answer over --context.
					host, err := registerSubagent(cmd, &df, ts.Registry, caps, ts.Runtime.Authority(), openChildEngine(cmd, &pf, &bf, ctxPaths, ts, sess, &childCtx))
					if err != nil {
						return err
					}
					defer func() { _ = host.close() }()
				}
				cfg.Registry, cfg.Tools = ts.Registry, ts.Runtime
				cfg.AlwaysVisibleTools = grantedByName(caps, ts.Registry)
				ctx = ts.WithRun(ctx) // effect identity: this run (or the resumed one)
			}
			r, err := direct.New(cfg)
			if err != nil {
				return err
			}
			// The OTLP endpoint is configuration too: refused before the
			// input is read.
			ot, err := of.start(ctx, cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			defer ot.finish(cmd.ErrOrStderr()) // early returns; the run's own finish comes first
			if len(ctxPaths) > 0 {
				store := corpus.NewStore()
				defer store.Close()
				paths, done, err := tf.mcpContexts(ctx, ctxPaths) // mcp://<server>/<uri> resources
				defer done()
				if err != nil {
					return err
				}
				h, err := addContexts(ctx, store, paths, cmd.InOrStdin())
				if err != nil {
					return err
				}
				cfg.Store, cfg.Input = store, h
				childCtx = sharedContext{store: store, h: h}
				if r, err = direct.New(cfg); err != nil {
					return err
				}
			}
			rec := trace.NewRecorder(ot.option())
			res, runErr := r.Run(trace.WithRecorder(ctx, rec), args[0])
			st.stop()
			ot.finish(cmd.ErrOrStderr())
			outErr := sess.finish(pf.record)
			if traceFile != "" {
				if err := trace.WriteFile(traceFile, "rlm direct", rec.Events(), rec.Dropped()); err != nil {
					outErr = errors.Join(outErr, err)
				}
			}
			if !asJSON {
				ts.report(cmd.ErrOrStderr())
			}
			return printDirect(cmd, st, res, runErr, outErr, asJSON, runIdentity{ts.runID(), ts.replayed()})
		},
	}
	pf.register(cmd)
	bf.register(cmd)
	tf.register(cmd, true)
	df.register(cmd)
	of.register(cmd)
	fl := cmd.Flags()
	fl.StringArrayVar(&ctxPaths, "context", nil, "context file, directory, or - for stdin, read by the context tools; repeat for several files; optional")
	fl.BoolVar(&asJSON, "json", false, `print {"status","answer","turns","tool_calls","context_calls","usage","error","run_id","replayed","events"}`)
	fl.StringVar(&traceFile, "trace", "", "write the trace to FILE (.jsonl for JSON lines, else one JSON envelope)")
	fl.StringVar(&mode, "mode", string(prompt.ModeCompiled), "tool schema projection: compiled (relevant tools) or all_tools (stable prefix)")
	fl.IntVar(&maxBatch, "max-native-calls-per-batch", direct.DefaultMaxNativeCallsPerBatch, "max tool calls in one model response (-1: unlimited)")
	fl.IntVar(&maxTokens, "max-tokens", direct.DefaultMaxTokens, "completion token cap of each request")
	fl.DurationVar(&synthesize, "synthesis-reserve", 0, "when this much of --time-limit is left, ask for the final answer without tools (0: off)")
	return cmd
}

// grantedByName returns the registered tools granted by exact name
// (tool:NAME, not tool:*), sorted: the user declared them as the run's
// interface, so they are shown to the model in every mode
// (docs/direct-runtime.md). Wildcard grants go through compiled selection.
func grantedByName(caps capability.Set, reg *tool.Registry) []string {
	var names []string
	for _, c := range caps.List() {
		if c.Prefix() != capability.PrefixTool || strings.Contains(c.Name(), "*") {
			continue
		}
		if _, ok := reg.Lookup(c.Name()); ok {
			names = append(names, c.Name())
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// hasToolCap reports whether caps grant any registered tool.
func hasToolCap(caps capability.Set) bool {
	for _, c := range caps.List() {
		if c.Prefix() == capability.PrefixTool {
			return true
		}
	}
	return false
}
