// Package launcher is the rlm command line as a library: the command tree
// of the rlm binary, its flags mapped onto an rlm.Spec and its results
// printed, which a Go program runs as is (cmd/rlm is one call to Main) or
// with Go tools and session options of its own, in the manner of adk-go's
// cmd/launcher. A program that builds its own rlm this way keeps every
// command, flag, envelope and exit code of docs/cli.md and adds its tools
// to every session the commands open: rlm run, chat, direct, submit and
// worker, mcp serve, bench and tools call and list.
package launcher

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/rlm-go/rlm"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/heapfloor"
	"github.com/rlm-go/rlm/tool"

	// Exact token counts for OpenAI's encodings (budget admission, usage a
	// server did not report, the prompt compiler's packing).
	_ "github.com/rlm-go/rlm/bpe"
)

// Config is what a program adds to the command line. The zero value is
// the rlm binary.
type Config struct {
	// Tools are Go tools (tool.Func builds one) every session and tool
	// runtime the commands open offers, granted as rlm.Spec.Tools are.
	// A durable worker must be built with the same tools as the process
	// that submitted the run: a Spec carries tools by name only.
	Tools []tool.Spec
	// Options are appended to the options of every session the commands
	// open (rlm.Open), after the command's own.
	Options []rlm.Option
}

// launcher is the command tree's view of its Config.
type launcher struct{ cfg Config }

// Main runs the command line of the process (os.Args) on its standard
// streams and returns the exit status for os.Exit (docs/cli.md, "Exit
// codes"). The first SIGINT or SIGTERM cancels the command, which reports
// what it did and exits 130; a second one kills the process as usual.
// Unless GOGC or GOMEMLIMIT is set, the garbage collector does not collect
// before the heap has grown by heapFloor bytes (package heapfloor).
func Main(cfg Config) int {
	if printedVersion(os.Args[1:], os.Stdout) {
		return exitCode(statusCompleted)
	}
	if keepsHeapFloor(os.LookupEnv) {
		defer heapfloor.Keep(heapFloor)()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() { <-ctx.Done(); stop() }()
	defer stop()
	return Run(ctx, cfg, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
}

// heapFloor is how much Main lets the heap grow past what the garbage
// collector last found live before it collects again (heapfloor.Launcher).
const heapFloor = heapfloor.Launcher

// keepsHeapFloor reports whether Main keeps heapFloor: not when the
// environment sets GOGC or GOMEMLIMIT, which then rule as usual.
func keepsHeapFloor(lookup func(string) (string, bool)) bool {
	for _, v := range []string{"GOGC", "GOMEMLIMIT"} {
		if _, ok := lookup(v); ok {
			return false
		}
	}
	return true
}

// printedVersion answers the command line "--version" alone: it writes
// the line cobra's version flag would (versionTemplate) to stdout and
// reports true, without building the command tree or setting up signals
// (issue 35 item 5, rlm --version's start-up). Any other command line,
// or a write that fails, it leaves to the command tree (which reports the
// failure).
func printedVersion(args []string, stdout io.Writer) bool {
	if len(args) != 1 || args[0] != "--version" {
		return false
	}
	_, err := io.WriteString(stdout, versionLine())
	return err == nil
}

// versionTemplate is the root command's version template: "rlm " and
// rlm.Version(), read when the line is printed (versionLine).
const versionTemplate = "rlm {{" + versionFunc + "}}\n"

// versionFunc is the name of the template function that returns
// rlm.Version() (the build information is read only when printed).
const versionFunc = "rlmVersion"

// addVersionFunc registers versionFunc with cobra, once for the process
// (cobra's template functions are one map: see groupFlags).
var addVersionFunc sync.Once

// versionLine is the line rlm --version prints.
func versionLine() string { return "rlm " + rlm.Version() + "\n" }

// options are the Config's tools and options, for rlm.Open and the
// library's functions that open sessions.
func (l *launcher) options() []rlm.Option {
	return append([]rlm.Option{rlm.WithTools(l.cfg.Tools...)}, l.cfg.Options...)
}

// open is rlm.Open with the Config's tools and options added.
func (l *launcher) open(ctx context.Context, spec rlm.Spec, opts ...rlm.Option) (*rlm.Session, error) {
	return rlm.Open(ctx, spec, append(opts, l.options()...)...)
}

// Outcomes of a command that are not statuses of a result: a command line
// rejected before the command ran, and a command interrupted by a signal.
const (
	outcomeUsage       = "usage_error"
	outcomeInterrupted = "interrupted"
)

// exitCodes is the table of exit statuses, one per outcome, as docs/cli.md
// shows it (TestExitCodeTable checks that the two agree and that the built
// binary keeps each row).
var exitCodes = []struct {
	Code    int
	Outcome string // a status of the --json envelope, or outcomeUsage, outcomeInterrupted
	Meaning string
}{
	{0, statusCompleted, "the command completed"},
	{1, statusFailed, "the command failed, or it printed its result but an output (--trace, --record, --save) could not be written"},
	{2, outcomeUsage, "the command line was rejected: unknown command or flag, bad flag value, missing argument or required flag, or flags the command cannot combine (error kind invalid_usage)"},
	{3, statusApprovalRequired, "an operation waits for an approval; the result lists its ids in approvals"},
	{130, outcomeInterrupted, "interrupted by SIGINT (Ctrl-C) or SIGTERM; the result printed is cancelled"},
}

// exitCode is the exit status of an outcome; a status not in the table
// (cancelled without an interruption of the process) exits as failed.
func exitCode(outcome string) int {
	for _, e := range exitCodes {
		if e.Outcome == outcome {
			return e.Code
		}
	}
	return exitCode(statusFailed)
}

// exitInterrupted is the exit status of a command interrupted by a signal
// (128 + SIGINT).
var exitInterrupted = exitCode(outcomeInterrupted)

// exitError carries a process exit code through cobra without printing.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// Run executes the command line args (without the program's name) with
// the given streams and returns the exit status (docs/cli.md, "Exit
// codes"). A failure is printed once (JSON on stdout when the command's
// --json is set, text on stderr otherwise); a command cancelled by ctx
// exits 130.
func Run(ctx context.Context, cfg Config, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if printedVersion(args, stdout) {
		return exitCode(statusCompleted)
	}
	l := &launcher{cfg: cfg}
	root := l.newRootCmd(args)
	if len(args) > 0 && (args[0] == cobra.ShellCompRequestCmd || args[0] == cobra.ShellCompNoDescRequestCmd) {
		addCompletions(root) // only a shell asking for completions needs them
	}
	ran := trackRuns(root)
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	cmd, err := root.ExecuteContextC(ctx)
	code := exitCode(statusCompleted)
	if err != nil {
		var ee exitError
		if errors.As(err, &ee) {
			code = ee.code
		} else {
			err = commandError(err, *ran)
			asJSON := jsonFlag(cmd, args)
			if !asJSON || !jsonLines(cmd) || writeJSONLine(stdout, failureJSON(err)) != nil {
				reportError(stdout, stderr, err, asJSON)
			}
			code = exitCode(errorOutcome(err))
		}
	}
	if code != 0 && ctx.Err() != nil {
		return exitInterrupted
	}
	return code
}

// trackRuns makes every command of the tree note when its RunE starts: an
// error returned before (cobra's own checks of the command line: flags,
// arguments, required flags, an unknown command) is a usage error.
func trackRuns(root *cobra.Command) *bool {
	ran := new(bool)
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if runE := c.RunE; runE != nil {
			c.RunE = func(cmd *cobra.Command, args []string) error {
				*ran = true
				warnDeprecated(cmd)
				return runE(cmd, args)
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	return ran
}

// deprecatedAnnotation holds a deprecated flag's notice (deprecateFlag).
const deprecatedAnnotation = "rlm.deprecated"

// deprecateFlag hides the flag name of fl from the help and makes its use
// print msg as a notice on stderr. (pflag's MarkDeprecated prints its
// notice where cobra prints help, stdout: into a --json document.)
func deprecateFlag(fl *pflag.FlagSet, name, msg string) {
	_ = fl.MarkHidden(name)
	_ = fl.SetAnnotation(name, deprecatedAnnotation, []string{msg})
}

// warnDeprecated prints on stderr the notice of each deprecated flag the
// command line set.
func warnDeprecated(cmd *cobra.Command) {
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if msg := f.Annotations[deprecatedAnnotation]; len(msg) == 1 {
			fmt.Fprintf(cmd.ErrOrStderr(), "Flag --%s has been deprecated, %s\n", f.Name, msg[0])
		}
	})
}

// commandError is err as a *fault.Error: an error cobra returned before the
// command ran is Kind invalid_usage (asFault), one the command returned
// without a fault is Kind internal.
func commandError(err error, ran bool) error {
	if fault.As(err) != nil || !ran {
		return err
	}
	return fault.Wrap(err, fault.PhaseExecute, fault.KindInternal, err.Error())
}

// errorOutcome is the outcome of a command that returned err: a usage
// error, an approval stop, or a failure.
func errorOutcome(err error) string {
	fe := asFault(err)
	if fe.Kind == kindUsage {
		return outcomeUsage
	}
	if s := rlm.StatusOf(fe); s == statusApprovalRequired {
		return s
	}
	return statusFailed
}

// newRootCmd builds the command tree the command line args needs
// (subcommands; nil: the whole tree).
func (l *launcher) newRootCmd(args []string) *cobra.Command {
	root := &cobra.Command{
		Use:           "rlm",
		Short:         "Recursive Language Model runtime",
		Long:          "rlm answers questions over inputs far larger than a context window by letting a model inspect, split and recursively query them, under runtime-owned budgets, capabilities and tracing.",
		SilenceUsage:  true,
		SilenceErrors: true,
		// Not empty, so that cobra adds --version; the template prints
		// rlm.Version() (versionFunc), not this.
		Version: "rlm",
	}
	addVersionFunc.Do(func() { cobra.AddTemplateFunc(versionFunc, rlm.Version) })
	root.SetVersionTemplate(versionTemplate)
	root.AddCommand(l.subcommands(args)...)
	addExamples(root)
	groupFlags(root)
	return root
}

// writeJSON writes v as indented JSON followed by a newline.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// jsonLinesAnnotation marks a command whose --json output is JSON lines
// (one document per line: rlm chat), its failures included.
const jsonLinesAnnotation = "rlm.json-lines"

// jsonLines reports whether cmd prints JSON lines with --json.
func jsonLines(cmd *cobra.Command) bool {
	return cmd != nil && cmd.Annotations[jsonLinesAnnotation] == "true"
}

// writeJSONLine writes v as JSON on one line (JSON lines: rlm chat --json).
func writeJSONLine(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
