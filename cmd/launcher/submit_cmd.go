package launcher

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/rlm-go/rlm"
	"github.com/rlm-go/rlm/console"
	"github.com/rlm-go/rlm/durable"
)

// newSubmitCmd is rlm run's command line, enqueued: the run is checked and
// fingerprinted here (its flags, its --context files read), and any rlm
// worker serving the queue runs it.
func (l *launcher) newSubmitCmd() *cobra.Command {
	cmd := l.runOrSubmitCmd(true)
	cmd.Use = "submit --db URL [--queue NAME] [run flags] QUERY"
	cmd.Short = "Enqueue a durable run for the rlm worker processes and print its id"
	cmd.Long = `Enqueue the run rlm run would make with these flags as a durable run on the queue NAME
(default rlm): any rlm worker --db URL --queue NAME runs it (the root loop included), its
sub-model calls go through the same queue, and if that worker dies another worker continues
it from its checkpoints. Prints the run id (with --json {"run_id","status"}); follow it with
rlm status and rlm result. The run's specification (rlm.Spec) is stored with it.

Workers read the --context paths themselves: they are recorded as absolute paths, which must
name the same files on every worker (shared storage); stdin and mcp:// contexts are refused
(context_not_shared). A worker that cannot read them fails the run with context_unreadable,
one that reads other content with context_mismatch.`
	_ = cmd.MarkFlagRequired("db")
	return cmd
}

// submit enqueues the run (rlm submit) and prints its id.
func (f *runFlags) submit(cmd *cobra.Command, query string) error {
	st := console.NewStatus(cmd.ErrOrStderr(), false)
	sess, err := f.pf.l.open(cmd.Context(), f.spec(), append(statusOptions(st), rlm.WithStdin(cmd.InOrStdin()))...)
	if err != nil {
		return err
	}
	defer sess.Close()
	id, err := sess.Submit(cmd.Context(), query)
	if err != nil {
		return err
	}
	if f.asJSON {
		return writeJSON(cmd.OutOrStdout(), map[string]string{"run_id": id, "status": "queued"})
	}
	queue := f.df.queue
	if queue == "" {
		queue = durable.DefaultQueue
	}
	fmt.Fprintln(cmd.OutOrStdout(), id)
	fmt.Fprintf(cmd.ErrOrStderr(), "rlm: submitted durable run %s to queue %s (rlm status --db URL %s)\n", id, queue, id)
	return nil
}
