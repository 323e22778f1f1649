package main

import (
	"errors"
	"time"

	"github.com/spf13/cobra"

	"github.com/rlm-go/rlm"
	"github.com/rlm-go/rlm/console"
	"github.com/rlm-go/rlm/direct"
	"github.com/rlm-go/rlm/prompt"
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
			sp := rlm.Spec{Context: ctxPaths, Trace: traceFile, Delegation: df.spec(cmd),
				Direct: rlm.DirectSpec{Projection: mode, MaxTokens: maxTokens, SynthesisReserve: synthesize}}
			// The provider bounds a response's tool calls by the same cap.
			pf.maxToolCalls = maxBatch
			pf.spec(&sp)
			bf.spec(&sp)
			tf.spec(&sp)
			of.spec(&sp)
			stderr := cmd.ErrOrStderr()
			st := console.NewStatus(stderr, !asJSON && console.IsTerminal(stderr))
			opts := append(statusOptions(st), rlm.WithStdin(cmd.InOrStdin()), rlm.WithSubagentCancel(onParentCancel))
			sess, err := rlm.Open(cmd.Context(), sp, opts...)
			if err != nil {
				return err
			}
			defer sess.Close()
			res, runErr := sess.Direct(cmd.Context(), args[0])
			st.Stop()
			if res == nil {
				return runErr // refused before the run began
			}
			outErr := errors.Join(res.OutputError, sess.Close())
			if !asJSON {
				sess.Tools().Report(stderr)
			}
			return printDirect(cmd, st, res.Result, runErr, outErr, asJSON, runIdentity{res.RunID, res.Replayed})
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
	fl.StringVar(&mode, "projection", string(prompt.ModeCompiled), "tool schema projection: compiled (relevant tools) or all_tools (stable prefix)")
	// --mode was this flag's first name; on rlm run it means plan|code.
	fl.StringVar(&mode, "mode", string(prompt.ModeCompiled), "deprecated alias of --projection")
	_ = fl.MarkDeprecated("mode", "use --projection (on rlm run, --mode means plan or code)")
	fl.IntVar(&maxBatch, "max-native-calls-per-batch", direct.DefaultMaxNativeCallsPerBatch, "max tool calls in one model response (-1: unlimited)")
	fl.IntVar(&maxTokens, "max-tokens", direct.DefaultMaxTokens, "completion token cap of each request")
	fl.DurationVar(&synthesize, "synthesis-reserve", 0, "when this much of --time-limit is left, ask for the final answer without tools (0: off)")
	return cmd
}
