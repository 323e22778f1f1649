package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/durable"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/fingerprint"
	"github.com/rlm-go/rlm/tool"
	"github.com/rlm-go/rlm/trace"
)

// durableFlags make rlm run a durable run (package durable): --db URL, with
// the run's --resume RUN_ID naming the durable run to continue. The same
// command serves rlm submit (a submitRequest in the context: the run is
// enqueued, not run) and the runs a worker takes (a workerRun in the
// context: the run is executed with the worker's executor).
type durableFlags struct {
	url        string
	queue      string
	resume     string
	runID      string
	out        *durable.Outcome
	submitting bool // rlm submit: the run is enqueued, not run; nothing more to print
}

func (d *durableFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&d.queue, "queue", "", "with --db: send the sub-model calls through this DBOS queue to the rlm worker processes serving it")
	cmd.Flags().StringVar(&d.url, "db", "", "run durably on PostgreSQL (postgres://...): each model and tool call is checkpointed; continue a run whose process died with --resume RUN_ID (see docs/distributed.md)")
}

// take moves --resume from the tool flags to the durable run: with --db it
// names the durable run (whose tool run has the same id).
func (d *durableFlags) take(tf *toolFlags) {
	if d.url == "" {
		return
	}
	d.resume, tf.resume = tf.resume, ""
}

// run runs the engine configured by cfg as a durable run over h.
func (d *durableFlags) run(ctx context.Context, stderr io.Writer, cfg engine.Config, h corpus.Handle, query string, rec *trace.Recorder, ts *toolSession) (*engine.Result, error) {
	spec, content, err := runSpec(cfg, h, query)
	if err != nil {
		return nil, err
	}
	runID := d.resume
	if runID == "" && ts != nil {
		// The durable run and its tool run share one id.
		runID = ts.runID()
	}
	body := func(ctx context.Context, x *durable.Executor) (*engine.Result, error) {
		if ts != nil {
			if err := ts.adopt(ctx, runID); err != nil {
				return nil, err
			}
			ctx = ts.WithRun(ctx)
		}
		c := cfg
		c.Executor = x
		c.SubProvider = x.SubProvider(c.SubProvider)
		eng, err := engine.New(c)
		if err != nil {
			return nil, err
		}
		return eng.Run(trace.WithRecorder(ctx, rec), query, h)
	}
	if sr, ok := ctx.Value(submitKey{}).(*submitRequest); ok {
		d.submitting = true
		return nil, d.submit(ctx, stderr, sr, spec, content)
	}
	if wr, ok := ctx.Value(workerRunKey{}).(*workerRun); ok {
		runID = wr.sub.RunID
		var res *engine.Result
		err := wr.sub.CheckSpec(content, spec)
		if err == nil {
			res, err = body(ctx, wr.x)
		}
		if res == nil {
			res = &engine.Result{Status: engine.StatusFailed}
		}
		if res.Error == nil && err != nil {
			res.Error = fault.As(err)
		}
		wr.res = res
		return res, err
	}
	dc := durable.Config{DatabaseURL: d.url, Queue: d.queue, RunID: runID, Resume: d.resume != "", Spec: spec, Query: query,
		OnStart: func(id string) {
			d.runID = id
			fmt.Fprintf(stderr, "rlm: durable run %s (continue it with --db URL --resume %s)\n", id, id)
		}}
	out, err := durable.Run(ctx, dc, body)
	d.out = out
	if out == nil || out.Result == nil {
		if err == nil {
			err = fault.New(fault.PhaseExecute, fault.KindInternal, "the durable run returned no result")
		}
		return &engine.Result{Status: engine.StatusFailed, Error: fault.As(err)}, err
	}
	if err == nil && out.Result.Error != nil {
		err = out.Result.Error
	}
	return out.Result, err
}

// report prints how the durable run's calls were carried out.
func (d *durableFlags) report(w io.Writer) {
	if d.out == nil {
		return
	}
	if d.out.Finished {
		fmt.Fprintf(w, "rlm: durable run %s had finished: its recorded result is shown\n", d.out.RunID)
		return
	}
	fmt.Fprintf(w, "rlm: durable run %s: %d call(s) answered from checkpoints, %d sent and recorded\n", d.out.RunID, d.out.Replayed, d.out.Recorded)
}

// runSpec fingerprints what a run computes: the query, the root context's
// content and the configuration a resume must repeat; content is the
// fingerprint of the context's content alone.
func runSpec(cfg engine.Config, h corpus.Handle, query string) (spec, content string, err error) {
	// View, not Bytes: a context file truncated since it was mapped is
	// context_changed, not a SIGBUS.
	if err := cfg.Store.View(h, func(b []byte) error { content = fingerprint.Bytes(b); return nil }); err != nil {
		return "", "", err
	}
	spec, err = fingerprint.Of(map[string]any{
		"query": query, "context": content, "model": cfg.Model, "sub_model": cfg.SubModel, "mode": cfg.Mode,
		"limits": specLimits(cfg.Limits), "capabilities": cfg.Capabilities.Strings(), "deep": cfg.ExperimentalDeepRecursion,
	})
	return spec, content, err
}

// specLimits is budget.Limits in the form run specs fingerprint: the JSON
// budget.Limits had when durable runs were introduced (time_limit in
// nanoseconds; budget.Limits now writes time_limit_ms), so that a run
// recorded then still resumes.
func specLimits(l budget.Limits) any {
	type fields budget.Limits // no JSON methods; TimeLimit is json:"-"
	return struct {
		fields
		TimeLimit int64 `json:"time_limit"`
	}{fields(l), int64(l.TimeLimit)}
}

// adopt makes id the session's tool run (a durable run's own id): on a
// resume, the effects the journal recorded for it are replayed.
func (s *toolSession) adopt(ctx context.Context, id string) error {
	if s.Run != nil && s.Run.ID() == id {
		return nil
	}
	if s.journal != nil {
		if _, err := s.journal.RunEffects(ctx, id); err != nil {
			if err := s.journal.StartRun(ctx, id); err != nil {
				return err
			}
		}
	}
	s.Run = tool.ResumeRun(id)
	return nil
}

func newStatusCmd() *cobra.Command {
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

func newResultCmd() *cobra.Command {
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
			pst := newStatus(cmd.ErrOrStderr(), false)
			return printRun(cmd, pst, res, runErr, nil, asJSON, runIdentity{id: args[0]})
		},
	}
	cmd.Flags().StringVar(&url, "db", "", "PostgreSQL URL of the durable runs (postgres://...)")
	cmd.Flags().BoolVar(&asJSON, "json", false, `print the result as JSON, as rlm run --json does`)
	_ = cmd.MarkFlagRequired("db")
	return cmd
}

func newWorkerCmd() *cobra.Command {
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
			st := newStatus(cmd.ErrOrStderr(), false)
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
			wc.Run = runSubmitted(url)
			if wc.Queue == "" {
				wc.Queue = durable.DefaultQueue
			}
			err = durable.Work(cmd.Context(), wc)
			// --record: the sub-model calls this worker sent.
			if rerr := sess.finish(pf.record); err == nil {
				err = rerr
			}
			return err
		},
	}
	pf.register(cmd)
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
