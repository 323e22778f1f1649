package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/rlm-go/rlm/durable"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
)

// submitKey carries a *submitRequest: the run command enqueues the run
// instead of running it (rlm submit).
type submitKey struct{}

type submitRequest struct {
	sub    durable.Submission
	asJSON bool
	stdout io.Writer
}

// workerRunKey carries a *workerRun: the run command runs a submitted run
// in a worker, with the worker's executor.
type workerRunKey struct{}

type workerRun struct {
	sub durable.Submission
	x   *durable.Executor
	res *engine.Result
}

// newSubmitCmd is rlm run's command line, enqueued: the run is checked and
// fingerprinted here (its flags, its --context files read), and any rlm
// worker serving the queue runs it.
func newSubmitCmd() *cobra.Command {
	cmd := newRunCmd()
	cmd.Use = "submit --db URL [--queue NAME] [run flags] QUERY"
	cmd.Short = "Enqueue a durable run for the rlm worker processes and print its id"
	cmd.Long = `Enqueue the run rlm run would make with these flags as a durable run on the queue NAME
(default rlm): any rlm worker --db URL --queue NAME runs it (the root loop included), its
sub-model calls go through the same queue, and if that worker dies another worker continues
it from its checkpoints. Prints the run id (with --json {"run_id","status"}); follow it with
rlm status and rlm result.

Workers read the --context paths themselves: they are recorded as absolute paths, which must
name the same files on every worker (shared storage); stdin and mcp:// contexts are refused
(context_not_shared). A worker that cannot read them fails the run with context_unreadable,
one that reads other content with context_mismatch.`
	runE := cmd.RunE
	cmd.RunE = func(c *cobra.Command, args []string) error {
		sr, err := submission(c.Flags(), args[0])
		if err != nil {
			return err
		}
		sr.stdout = c.OutOrStdout()
		// Read the contexts at the absolute paths the workers will read,
		// so that the content fingerprinted here is the content a worker
		// computes (files of a composite context are ordered by name).
		if f := c.Flags().Lookup("context"); f != nil && f.Changed {
			if err := f.Value.(pflag.SliceValue).Replace(sr.sub.Contexts); err != nil {
				return err
			}
		}
		c.SetContext(context.WithValue(c.Context(), submitKey{}, sr))
		return runE(c, args)
	}
	_ = cmd.MarkFlagRequired("db")
	return cmd
}

// submission records the command line of rlm submit as the run's Args
// (every flag set, but --db, --queue and --json), with the --context
// paths made absolute.
func submission(fl *pflag.FlagSet, query string) (*submitRequest, error) {
	sr := &submitRequest{sub: durable.Submission{Query: query}}
	var err error
	fl.Visit(func(f *pflag.Flag) {
		if err != nil {
			return
		}
		switch f.Name {
		case "db":
			return
		case "queue":
			sr.sub.Queue = f.Value.String()
			return
		case "json":
			sr.asJSON = f.Value.String() == "true"
			return
		case "resume", "trace":
			err = fault.New(fault.PhaseConfig, fault.KindInvalid, "rlm submit does not take --"+f.Name).With("flag", f.Name).
				WithHint("a submitted run is continued by the workers; use rlm run --db URL for --resume and --trace")
			return
		}
		vals := []string{f.Value.String()}
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			vals = sv.GetSlice()
		}
		for _, v := range vals {
			if f.Name == "context" {
				if v, err = sharedPath(v); err != nil {
					return
				}
				sr.sub.Contexts = append(sr.sub.Contexts, v)
			}
			sr.sub.Args = append(sr.sub.Args, "--"+f.Name+"="+v)
		}
	})
	sr.sub.Args = append(sr.sub.Args, "--", query)
	return sr, err
}

// sharedPath returns the absolute form of a --context path, refusing the
// inputs a worker cannot read.
func sharedPath(p string) (string, error) {
	if p == "-" || strings.Contains(p, "://") {
		return "", fault.New(fault.PhaseConfig, durable.KindContextNotShared, "a submitted run's context must be a file or directory every worker can read").
			With("context", p).
			WithHint("save it to a file on storage every worker mounts at the same path and pass that path to --context")
	}
	return filepath.Abs(p)
}

// submit enqueues the run (rlm submit) and prints its id.
func (d *durableFlags) submit(ctx context.Context, stderr io.Writer, sr *submitRequest, spec, content string) error {
	sr.sub.Spec, sr.sub.Content = spec, content
	if sr.sub.Queue == "" {
		sr.sub.Queue = durable.DefaultQueue
	}
	id, err := durable.Submit(ctx, d.url, sr.sub)
	if err != nil {
		return err
	}
	stdout := sr.stdout
	if sr.asJSON {
		return writeJSON(stdout, map[string]string{"run_id": id, "status": "queued"})
	}
	fmt.Fprintln(stdout, id)
	fmt.Fprintf(stderr, "rlm: submitted durable run %s to queue %s (rlm status --db URL %s)\n", id, sr.sub.Queue, id)
	return nil
}

// runSubmitted runs a submitted run in a worker: its recorded command line
// is rlm run's, executed in this process with the worker's executor.
func runSubmitted(url string) func(ctx context.Context, sub durable.Submission, x *durable.Executor) (*engine.Result, error) {
	return func(ctx context.Context, sub durable.Submission, x *durable.Executor) (*engine.Result, error) {
		if err := sub.CheckContexts(); err != nil {
			return nil, err
		}
		wr := &workerRun{sub: sub, x: x}
		cmd := newRunCmd()
		cmd.SetArgs(append([]string{"--db", url}, sub.Args...))
		cmd.SetOut(io.Discard)
		cmd.SetErr(io.Discard)
		cmd.SetIn(strings.NewReader(""))
		cmd.SilenceErrors, cmd.SilenceUsage = true, true
		err := cmd.ExecuteContext(context.WithValue(ctx, workerRunKey{}, wr))
		if wr.res != nil {
			return wr.res, nil
		}
		return nil, err
	}
}
