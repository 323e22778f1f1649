package launcher

import (
	"errors"
	"time"

	"github.com/spf13/cobra"

	"github.com/rlm-go/rlm"
	"github.com/rlm-go/rlm/console"
	"github.com/rlm-go/rlm/direct"
	"github.com/rlm-go/rlm/prompt"
)

// directFlags are rlm direct's flags.
type directFlags struct {
	pf         providerFlags
	bf         budgetFlags
	tf         toolFlags
	df         delegationFlags
	of         otlpFlags
	af         answerFlags
	ctxPaths   []string
	asJSON     bool
	traceFile  string
	content    bool
	mode       string
	maxBatch   int
	maxTokens  int
	synthesize time.Duration
}

func (l *launcher) newDirectCmd() *cobra.Command {
	var f directFlags
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
		RunE: f.run,
	}
	f.pf.register(l, cmd)
	f.bf.register(cmd)
	f.tf.register(l, cmd, true)
	f.df.register(cmd)
	f.of.register(cmd)
	f.af.register(cmd, true)
	fl := cmd.Flags()
	fl.StringArrayVar(&f.ctxPaths, "context", nil, "context file, directory, or - for stdin, read by the context tools; repeat for several files; optional")
	fl.BoolVar(&f.asJSON, "json", false, `print {"status","answer","turns","tool_calls","context_calls","usage","error","run_id","replayed","events"}`)
	fl.StringVar(&f.traceFile, "trace", "", "write the trace to FILE (.jsonl for JSON lines, else one JSON envelope)")
	addTraceContentFlag(fl, &f.content)
	fl.StringVar(&f.mode, "projection", string(prompt.ModeCompiled), "tool schema projection: compiled (relevant tools) or all_tools (stable prefix)")
	// --mode was this flag's first name; on rlm run it means plan|code.
	fl.StringVar(&f.mode, "mode", string(prompt.ModeCompiled), "deprecated alias of --projection")
	deprecateFlag(fl, "mode", "use --projection (on rlm run, --mode means plan or code)")
	fl.IntVar(&f.maxBatch, "max-native-calls-per-batch", direct.DefaultMaxNativeCallsPerBatch, "max tool calls in one model response (-1: unlimited)")
	fl.IntVar(&f.maxTokens, "max-tokens", direct.DefaultMaxTokens, "completion token cap of each request")
	fl.DurationVar(&f.synthesize, "synthesis-reserve", 0, "when this much of --time-limit is left, ask for the final answer without tools (0: off)")
	return cmd
}

// spec is the run the flags describe.
func (f *directFlags) spec(cmd *cobra.Command) rlm.Spec {
	sp := rlm.Spec{Context: f.ctxPaths, Trace: f.traceFile, TraceContent: f.content, Delegation: f.df.spec(cmd),
		Direct: rlm.DirectSpec{Projection: f.mode, MaxTokens: f.maxTokens, SynthesisReserve: f.synthesize}}
	// The provider bounds a response's tool calls by the same cap.
	f.pf.maxToolCalls = f.maxBatch
	f.pf.spec(&sp)
	f.bf.spec(&sp)
	f.tf.spec(&sp)
	f.of.spec(&sp)
	f.af.spec(&sp)
	return sp
}

// run opens the session and runs the direct loop on the query.
func (f *directFlags) run(cmd *cobra.Command, args []string) error {
	stderr := cmd.ErrOrStderr()
	st := console.NewStatus(stderr, !f.asJSON && console.IsTerminal(stderr))
	opts := append(statusOptions(st), rlm.WithStdin(cmd.InOrStdin()), rlm.WithSubagentCancel(onParentCancel))
	sess, err := f.pf.l.open(cmd.Context(), f.spec(cmd), opts...)
	if err != nil {
		return err
	}
	defer sess.Close()
	res, runErr := sess.Direct(cmd.Context(), args[0])
	st.Stop()
	if res == nil {
		return runErr // refused before the run began
	}
	res.OutputError = errors.Join(res.OutputError, sess.Close())
	if !f.asJSON {
		sess.Tools().Report(stderr)
	}
	return printDirect(cmd, st, res, runErr, f.asJSON)
}
