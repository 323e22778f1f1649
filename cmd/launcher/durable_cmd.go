package launcher

import (
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/rlm-go/rlm"
	"github.com/rlm-go/rlm/console"
	"github.com/rlm-go/rlm/durable"
	"github.com/rlm-go/rlm/fault"
)

// durableFlags make rlm run a durable run (package durable): --db URL, with
// the run's --resume RUN_ID naming the durable run to continue.
type durableFlags struct {
	url   string
	queue string
}

func (d *durableFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&d.queue, "queue", "", "with --db: send the sub-model calls through this DBOS queue to the rlm worker processes serving it")
	cmd.Flags().StringVar(&d.url, "db", "", "run durably on PostgreSQL (postgres://...): each model and tool call is checkpointed; continue a run whose process died with --resume RUN_ID (see docs/distributed.md)")
}

// spec sets the durable fields of sp.
func (d *durableFlags) spec(sp *rlm.Spec) {
	sp.Durable = rlm.DurableSpec{Database: d.url, Queue: d.queue}
}

// options print the durable run's id when it starts.
func (d *durableFlags) options(stderr io.Writer) []rlm.Option {
	return []rlm.Option{rlm.WithDurableStart(func(id string) {
		fmt.Fprintf(stderr, "rlm: durable run %s (continue it with --db URL --resume %s)\n", id, id)
	})}
}

// reportDurable prints how a durable run's calls were carried out.
func reportDurable(w io.Writer, out *durable.Outcome) {
	if out == nil {
		return
	}
	if out.Finished {
		fmt.Fprintf(w, "rlm: durable run %s had finished: its recorded result is shown\n", out.RunID)
		return
	}
	fmt.Fprintf(w, "rlm: durable run %s: %d call(s) answered from checkpoints, %d sent and recorded\n", out.RunID, out.Replayed, out.Recorded)
}

func (l *launcher) newStatusCmd() *cobra.Command {
	var url string
	cmd := &cobra.Command{
		Use:   "status --db URL RUN_ID",
		Short: "Show the status of a durable run",
		Long: `Print {"run_id","status","steps","created_at","updated_at"} for the durable run RUN_ID:
status is pending (running, or interrupted: continue it with rlm run --db URL --resume RUN_ID),
queued, or the finished run's completed, failed or cancelled; steps counts its checkpoints.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := durable.State(cmd.Context(), url, args[0])
			if err != nil {
				return err
			}
			return writeJSON(cmd.OutOrStdout(), st)
		},
	}
	cmd.Flags().StringVar(&url, "db", "", "PostgreSQL URL of the durable runs (postgres://...)")
	addJSONErrorsFlag(cmd, false) // the status is JSON: so is a failure, with --json
	_ = cmd.MarkFlagRequired("db")
	return cmd
}

func (l *launcher) newResultCmd() *cobra.Command {
	var (
		url    string
		asJSON bool
	)
	cmd := &cobra.Command{
		Use:   "result --db URL RUN_ID",
		Short: "Print the result of a finished durable run",
		Long: `Print the recorded result of the durable run RUN_ID as rlm run prints it (the answer, or with
--json the result document). A run that has not finished is Kind run_not_finished.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, res, err := durable.Status(cmd.Context(), url, args[0])
			if err != nil {
				return err
			}
			if res == nil {
				return fault.New(fault.PhaseExecute, durable.KindRunNotFinished, "the run has not finished").
					With("run_id", args[0]).With("status", st.Status).
					WithHint("wait for it, or continue an interrupted run with rlm run --db URL --resume RUN_ID")
			}
			var runErr error
			if res.Error != nil {
				runErr = res.Error
			}
			pst := console.NewStatus(cmd.ErrOrStderr(), false)
			return printRun(cmd, pst, &rlm.Result{Result: res, RunID: args[0]}, runErr, asJSON)
		},
	}
	cmd.Flags().StringVar(&url, "db", "", "PostgreSQL URL of the durable runs (postgres://...)")
	cmd.Flags().BoolVar(&asJSON, "json", false, `print the result as JSON, as rlm run --json does`)
	_ = cmd.MarkFlagRequired("db")
	return cmd
}

func (l *launcher) newWorkerCmd() *cobra.Command {
	var (
		pf  providerFlags
		wc  durable.WorkerConfig
		url string
	)
	cmd := &cobra.Command{
		Use:   "worker --db URL [--queue NAME] [--concurrency N]",
		Short: "Serve durable runs and their sub-model calls from a DBOS queue",
		Long: `Serve the queue NAME (default rlm): the runs rlm submit --db URL --queue NAME enqueued (run as
rlm run would run their recorded command line, with this worker's API key) and the sub-model calls
of every durable run using NAME, sent by whichever workers are live, with this worker's provider
flags (--base-url, the API key). A worker whose heartbeat is missing for --dead-after is dead: a
live worker cancels its calls (their runs enqueue them again) and enqueues its runs again, which
continue from their checkpoints. --concurrency bounds this worker's calls in flight; --global-concurrency and --rate-limit
(requests per --rate-period, default one minute, per model) bound the queue across all workers,
stored in the database (the last worker started sets them). SIGTERM or Ctrl-C stops taking calls,
lets those in flight finish (up to --grace), and exits 0. With --record FILE the calls this worker
sent are written to the cassette FILE when it stops.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			st := console.NewStatus(cmd.ErrOrStderr(), false)
			sess, err := pf.open(st)
			if err != nil {
				return err
			}
			wc.DatabaseURL, wc.Provider = url, sess.provider
			wc.OnReady = func(id string) {
				fmt.Fprintf(cmd.ErrOrStderr(), "rlm: worker %s serving queue %s\n", id, wc.Queue)
			}
			wc.OnRun = func(id string) {
				fmt.Fprintf(cmd.ErrOrStderr(), "rlm: worker running durable run %s\n", id)
			}
			wc.Run = rlm.RunSubmitted(url, l.options()...)
			if wc.Queue == "" {
				wc.Queue = durable.DefaultQueue
			}
			err = durable.Work(cmd.Context(), wc)
			// --record: the sub-model calls this worker sent.
			if rerr := sess.Close(); err == nil {
				err = rerr
			}
			return err
		},
	}
	pf.register(l, cmd)
	fl := cmd.Flags()
	fl.StringVar(&url, "db", "", "PostgreSQL URL of the durable runs (postgres://...)")
	fl.StringVar(&wc.Queue, "queue", durable.DefaultQueue, "queue to serve")
	fl.IntVar(&wc.Concurrency, "concurrency", 8, "calls this worker runs at once")
	fl.IntVar(&wc.GlobalConcurrency, "global-concurrency", 0, "calls in flight on the queue across all workers (0: no limit)")
	fl.IntVar(&wc.RateLimit, "rate-limit", 0, "calls started per model per --rate-period across all workers (0: no limit)")
	fl.DurationVar(&wc.RatePeriod, "rate-period", time.Minute, "period of --rate-limit")
	fl.DurationVar(&wc.DeadAfter, "dead-after", durable.DefaultDeadAfter, "a worker whose heartbeat is missing this long is dead: the live workers continue its runs and calls")
	fl.DurationVar(&wc.Grace, "grace", 30*time.Second, "how long a stopping worker lets its calls in flight finish")
	_ = cmd.MarkFlagRequired("db")
	return cmd
}
