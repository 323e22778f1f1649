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
	"syscall"

	"github.com/spf13/cobra"

	"github.com/rlm-go/rlm/fault"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// exitError carries a process exit code through cobra without printing.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// run executes the CLI with the given arguments and streams and returns the
// process exit code. Tests call it directly.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRootCmd()
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return 0
	}
	var ee exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	printError(stderr, err)
	return 1
}

func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:           "rlm",
		Short:         "Recursive Language Model runtime",
		Long:          "rlm answers questions over inputs far larger than a context window by letting a model inspect, split and recursively query them, under runtime-owned budgets, capabilities and tracing.",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(subcommands()...)
	return root
}

// printError writes err to w; structured errors are written as
// "rlm: phase/kind: message" followed by their JSON on the next line.
func printError(w io.Writer, err error) {
	if fe := fault.As(err); fe != nil {
		b, _ := json.Marshal(fe)
		fmt.Fprintf(w, "rlm: %v\n%s\n", err, b)
		return
	}
	fmt.Fprintf(w, "rlm: %v\n", err)
}

// writeJSON writes v as indented JSON followed by a newline.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
