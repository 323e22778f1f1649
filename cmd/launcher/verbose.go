package launcher

import (
	"io"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/rlm-go/rlm"
	"github.com/rlm-go/rlm/console"
	"github.com/rlm-go/rlm/engine"
)

// verboseFlags are the flags of rlm run and rlm chat about seeing what the
// model said and how replies are taken: -v/--verbose, --stream, --raw,
// --trace-content and --max-repairs.
type verboseFlags struct {
	verbose      int
	stream       bool
	raw          bool
	traceContent bool
	maxRepairs   int
}

func (f *verboseFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.CountVarP(&f.verbose, "verbose", "v", "print each turn's model reply, its validation/repair outcome and the observation to stderr (-vv adds children and sub-calls)")
	fl.BoolVar(&f.stream, "stream", false, "stream root replies: progress (or -v) shows the text as it arrives")
	fl.BoolVar(&f.raw, rawFlag, false, "print the model's text byte for byte in -v output and in the answer on a terminal (by default control characters are shown inert: ESC as ␛; an answer on a pipe or file is always exact)")
	addTraceContentFlag(fl, &f.traceContent)
	fl.IntVar(&f.maxRepairs, "max-repairs", engine.DefaultMaxRepairs, "rejected replies in a row answered with a repair message before the run fails, and final answers --answer-schema refuses in a run (0: none)")
}

// traceContentHelp is the help of --trace-content, on every command that
// takes it (rlm run, submit and chat, by verboseFlags, and rlm direct):
// what rlm.Spec.TraceContent records, for the engine (replies, plan
// observations, code and its output) and the direct loop (replies, tool
// call arguments and results) alike.
const traceContentHelp = "record the question, the answer, model replies (tool call arguments included), what the model got back " +
	"(observations, code output, tool results) and thumbnails of the images sent in the trace, each bounded and credentials redacted; off by default"

// addTraceContentFlag declares --trace-content (rlm.Spec.TraceContent).
func addTraceContentFlag(fl *pflag.FlagSet, v *bool) {
	fl.BoolVar(v, "trace-content", false, traceContentHelp)
}

// spec sets the fields of sp the flags describe: --stream,
// --trace-content, --max-repairs (0: none).
func (f *verboseFlags) spec(sp *rlm.Spec) {
	sp.Stream, sp.TraceContent, sp.MaxRepairs = f.stream, f.traceContent, f.maxRepairs
	if f.maxRepairs <= 0 {
		sp.MaxRepairs = -1
	}
}

// options are the session options of -v and --stream: the turn printer.
func (f *verboseFlags) options(stderr io.Writer, live bool) []rlm.Option {
	if p := f.printer(stderr, live); p != nil {
		return []rlm.Option{rlm.WithLiveObserver(p.Observe)}
	}
	return nil
}

// printer is the turn printer of -v (or --stream on a terminal), or nil.
func (f *verboseFlags) printer(stderr io.Writer, live bool) *console.Verbose {
	if f.verbose > 0 || (f.stream && live) {
		return console.NewVerbose(stderr, console.VerboseOptions{Level: f.verbose, Stream: f.stream, Live: live, Raw: f.raw})
	}
	return nil
}
