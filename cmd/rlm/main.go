// Command rlm is the command-line interface of the rlm runtime: a thin
// adapter that parses flags, builds library objects, calls one function and
// encodes the result.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	// Exact token counts for OpenAI's encodings (budget admission, usage a
	// server did not report, the prompt compiler's packing).
	_ "github.com/rlm-go/rlm/bpe"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	// After the first Ctrl-C the command cancels and reports what it did;
	// a second one kills the process as usual.
	go func() { <-ctx.Done(); stop() }()
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// exitInterrupted is the exit status of a command interrupted by a signal
// (128 + SIGINT).
const exitInterrupted = 130

// exitError carries a process exit code through cobra without printing.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// run executes the CLI with the given arguments and streams and returns the
// process exit code. Tests call it directly. A failure is printed once, by
// reportError (JSON on stdout when the command's --json is set, text on
// stderr otherwise); a command cancelled by ctx (Ctrl-C) exits 130.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRootCmd()
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	cmd, err := root.ExecuteContextC(ctx)
	code := 0
	if err != nil {
		var ee exitError
		if errors.As(err, &ee) {
			code = ee.code
		} else {
			asJSON := jsonFlag(cmd, args)
			if !asJSON || !jsonLines(cmd) || writeJSONLine(stdout, failureJSON(err)) != nil {
				reportError(stdout, stderr, err, asJSON)
			}
			code = 1
		}
	}
	if code != 0 && ctx.Err() != nil {
		return exitInterrupted
	}
	return code
}

func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:           "rlm",
		Short:         "Recursive Language Model runtime",
		Long:          "rlm answers questions over inputs far larger than a context window by letting a model inspect, split and recursively query them, under runtime-owned budgets, capabilities and tracing.",
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       version(),
	}
	root.SetVersionTemplate("rlm {{.Version}}\n")
	root.AddCommand(subcommands()...)
	return root
}

// version describes the build: the module version and the VCS revision
// from the binary's build information, e.g.
// "version v0.3.0 (revision 912f769a1b2c, 2026-12-02T17:00:00Z, modified)".
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "version unknown (no build information)"
	}
	v := "version " + bi.Main.Version
	var rev, at, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = "modified"
			}
		}
	}
	if rev == "" {
		return v + " (no VCS revision), " + bi.GoVersion
	}
	parts := []string{"revision " + rev}
	for _, p := range []string{at, modified, bi.GoVersion} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	return v + " (" + strings.Join(parts, ", ") + ")"
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
