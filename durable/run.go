package durable

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/dbos-inc/dbos-transact-golang/dbos"
	"github.com/google/uuid"

	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
)

// WorkflowName is the DBOS workflow of a durable run.
const WorkflowName = "rlm.run"

// AppName is the DBOS application name of rlm's workflows.
const AppName = "rlm"

// Config configures one durable run.
type Config struct {
	// DatabaseURL is the PostgreSQL URL (postgres://...).
	DatabaseURL string
	// RunID names the run: empty for a new run (a fresh id), or the run
	// to continue when Resume is set.
	RunID  string
	Resume bool
	// Spec identifies what the run computes (the fingerprint of its query,
	// contexts and configuration); a resume must have the recorded one.
	Spec string
	// Query is recorded with the run, for people reading the database.
	Query string
	// Logger receives DBOS's log (default: discarded).
	Logger *slog.Logger
	// Queue, when set, sends the run's sub-model calls through this DBOS
	// queue to the workers serving it (rlm worker), within the queue's
	// limits; the run's process still makes its own loops' turns.
	Queue string
	// OnStart, when set, is called with the run id once the run is
	// registered, before any model call (the CLI prints it).
	OnStart func(runID string)
}

// RunFunc runs the engine with x as its Executor under ctx. It is called
// once per execution of the run: on the first start, and again for each
// resume of a run that did not finish.
type RunFunc func(ctx context.Context, x *Executor) (*engine.Result, error)

// Outcome is what a durable run ended with.
type Outcome struct {
	RunID  string
	Result *engine.Result
	// Replayed counts the calls this execution answered from checkpoints;
	// Recorded the calls it completed and recorded.
	Replayed int64 `json:"replayed"`
	Recorded int64 `json:"recorded"`
	// Finished is set when a resumed run had already finished: Result is
	// the recorded one and nothing ran.
	Finished bool
	// HandedBack is set when this execution ended because the database
	// could not be reached (Result's error is db_unavailable) or because
	// the caller interrupted it (Result's status is cancelled: Ctrl-C,
	// SIGTERM): the run is left pending, not recorded, and a resume
	// continues it.
	HandedBack bool
}

// Run starts a durable run, or continues the run cfg.RunID with
// cfg.Resume, as a DBOS workflow, and waits for its result.
//
// The workflow's executor id and application version are the run's own
// ("rlm-run-" + id), so this process recovers exactly this run and no
// other process's queue runner takes it.
func Run(ctx context.Context, cfg Config, fn RunFunc) (*Outcome, error) {
	store, err := Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return nil, err
	}
	defer store.Close()
	if cfg.RunID == "" {
		if cfg.Resume {
			return nil, fault.New(fault.PhaseConfig, fault.KindInvalid, "resume needs a run id")
		}
		cfg.RunID = uuid.NewString()
	}
	if err := store.register(ctx, cfg.RunID, cfg.Spec, cfg.Query, cfg.Resume); err != nil {
		return nil, err
	}
	logger := cfg.Logger
	if logger == nil {
		logger = quiet()
	}
	// The run's exclusive claim, held until this execution is over (the
	// deferred release runs after DBOS's shutdown, deferred below): a
	// second execution of the run is refused here, before DBOS launches
	// (a launch recovers the pending run and executes it). A claim lost
	// while held and taken by another execution ends this one, as an
	// interruption: the run is handed back to the other.
	ctx, endRun := context.WithCancelCause(ctx)
	defer endRun(nil)
	claim, err := store.claimRun(ctx, cfg.RunID, endRun)
	if err != nil {
		return nil, err
	}
	defer claim.release()
	version := "rlm-run-" + cfg.RunID
	if cfg.Resume {
		// A submitted run whose worker is gone becomes this process's.
		if err := store.takeOver(ctx, cfg.RunID, version); err != nil {
			return nil, err
		}
	}
	dctx, err := store.newDBOS(ctx, dbos.Config{
		AppName: AppName, DatabaseURL: cfg.DatabaseURL, ExecutorID: version, ApplicationVersion: version,
		Logger: logger, SystemDBStartupTimeout: 30 * time.Second,
	})
	if err != nil {
		return nil, unavailable(ctx, err)
	}
	out := &Outcome{RunID: cfg.RunID}
	var (
		mu   sync.Mutex
		last *Executor
		full *engine.Result // the result this process ran, trajectory included
	)
	// An execution that ended because the database could not be reached,
	// or that its caller interrupted, is handed back, not recorded: the
	// workflow stays pending, as after a crash, so --resume continues it
	// from its checkpoints (a recorded failure would be final, and the
	// calls it paid for lost).
	handedBack := make(chan struct{})
	var handBack sync.Once
	exiting := make(chan struct{})
	wf := func(wctx dbos.Context, in Submission) (*engine.Result, error) {
		res := runWorkflow(ctx, wctx, store, dctx, in.RunID, cfg.Queue, func(rctx context.Context, x *Executor) (*engine.Result, error) {
			mu.Lock()
			last = x
			mu.Unlock()
			return fn(rctx, x)
		})
		mu.Lock()
		full = res
		mu.Unlock()
		if lostDatabase(res) || interrupted(ctx, res) {
			handBack.Do(func() { close(handedBack) })
			// Return after the shutdown: DBOS records no outcome for a
			// workflow that returns once its context was cancelled by
			// the shutdown.
			<-exiting
			return nil, errors.New("the run was handed back")
		}
		return store.detachTrajectory(context.WithoutCancel(ctx), in.RunID, res), nil
	}
	dbos.RegisterWorkflow(dctx, wf, dbos.WithWorkflowName(WorkflowName))
	if err := dctx.Launch(); err != nil {
		return nil, unavailable(ctx, err)
	}
	shutdown := 10 * time.Second
	defer func() {
		dctx.Shutdown(dctx, shutdown)
		close(exiting)
	}()
	if cfg.Queue != "" {
		if _, err := dctx.RetrieveQueue(dctx, cfg.Queue); err != nil {
			if errors.Is(err, dbos.ErrQueueNotFound) {
				return nil, fault.New(fault.PhaseConfig, KindQueueNotFound, "no worker has registered the queue").With("queue", cfg.Queue).
					WithHint("start rlm worker --db URL --queue " + cfg.Queue + " first")
			}
			return nil, unavailable(ctx, err)
		}
	}
	if cfg.OnStart != nil {
		cfg.OnStart(cfg.RunID)
	}
	var h dbos.WorkflowHandle[*engine.Result]
	if cfg.Resume {
		h, err = dbos.RetrieveWorkflow[*engine.Result](dctx, cfg.RunID)
	} else {
		h, err = dbos.RunWorkflow(dctx, wf, Submission{RunID: cfg.RunID, Spec: cfg.Spec}, dbos.WithWorkflowID(cfg.RunID))
	}
	if err != nil {
		return nil, dbosError(ctx, err, cfg.RunID)
	}
	type result struct {
		res *engine.Result
		err error
	}
	got := make(chan result, 1) // GetResult returns at the latest when the shutdown cancels dctx
	go func() {
		res, err := h.GetResult()
		got <- result{res, err}
	}()
	var res *engine.Result
	select {
	case r := <-got:
		res, err = r.res, r.err
	case <-handedBack:
		// The workflow waits for the shutdown; a short one, since it
		// only waits for the workflow, which returns after it.
		shutdown = 100 * time.Millisecond
		mu.Lock()
		res, err = full, nil
		mu.Unlock()
		if cause := fault.As(context.Cause(ctx)); cause != nil && cause.Kind == KindRunInProgress {
			res.Error = cause
		} else if lostDatabase(res) {
			res.Error.WithHint("the run is left pending: once PostgreSQL can be reached, continue it with rlm run --db URL --resume " + cfg.RunID)
		} else if res.Error != nil {
			res.Error.WithHint("the run is left pending: continue it with rlm run --db URL --resume " + cfg.RunID + " (its recorded calls are not sent again)")
		}
		out.HandedBack = true
	}
	mu.Lock()
	x, ran := last, full
	mu.Unlock()
	// Finished: the workflow's body never ran here (a resume of a run that
	// had finished). A body that ended before the run function (handed
	// back, or failed cancelling a previous execution's calls) ran.
	out.Finished = ran == nil
	if x != nil {
		out.Replayed, out.Recorded = x.Replayed(), x.Recorded()
	}
	if ran != nil && err == nil {
		res = ran
	} else if aerr := store.attachTrajectory(ctx, cfg.RunID, res); aerr != nil && err == nil {
		err = aerr
	}
	out.Result = res
	if err != nil && res == nil {
		return out, dbosError(ctx, err, cfg.RunID)
	}
	return out, err
}

// runWorkflow is the body of a run workflow, in the process of rlm run
// --db or in a worker: it cancels the queued calls a previous execution
// left behind (their results would go to no one; this execution enqueues
// its own), runs fn with the run's executor under a context that caller's
// cancellation reaches, and returns the result, a failure included, as the
// workflow's output (a workflow error would keep only its text; the
// caller stores the trajectory apart, see detachTrajectory).
func runWorkflow(caller context.Context, wctx dbos.Context, store *Store, client dbos.Client, run, queue string, fn RunFunc) *engine.Result {
	rctx, cancel := context.WithCancelCause(wctx)
	defer cancel(nil)
	stop := context.AfterFunc(caller, func() { cancel(context.Cause(caller)) })
	defer stop()
	x := NewExecutor(store, run, cancel)
	var err error
	if queue != "" {
		x.remote = newQueueProvider(client, queue, run)
		err = cancelCalls(client, dbos.WithFilterWorkflowIDPrefix(run+"/call/"),
			dbos.WithFilterStatus(dbos.WorkflowStatusEnqueued, dbos.WorkflowStatusPending))
	}
	var res *engine.Result
	if err == nil {
		res, err = fn(rctx, x)
	}
	if res == nil {
		res = noResult(rctx, err)
	}
	return res
}

// noResult is the result of a run function that returned none: its error,
// or, when the run was cut off before the engine returned, what cut it
// off. The executor's lost database keeps its typed cause (the run is
// handed back for it); any other interruption (the caller, a worker
// stopping) is a cancellation, handed back as one the engine reports.
// Before, it was recorded as the run's final outcome, failed.
func noResult(rctx context.Context, err error) *engine.Result {
	fe := fault.As(err)
	if fe == nil && err != nil {
		fe = fault.Wrap(err, fault.PhaseExecute, fault.KindInternal, err.Error())
	}
	if rctx.Err() != nil {
		if cause := fault.As(context.Cause(rctx)); cause != nil && cause.Kind == KindDBUnavailable {
			return &engine.Result{Status: engine.StatusFailed, Error: cause}
		}
		switch {
		case fe == nil:
			fe = fault.New(fault.PhaseExecute, fault.KindCancelled, "the run was cancelled")
		case fe.Kind != fault.KindCancelled:
			fe = fault.Wrap(fe, fault.PhaseExecute, fault.KindCancelled, "the run was cancelled")
		}
		return &engine.Result{Status: engine.StatusCancelled, Error: fe}
	}
	if fe == nil {
		fe = fault.New(fault.PhaseExecute, fault.KindInternal, "the run function returned neither a result nor an error")
	}
	return &engine.Result{Status: engine.StatusFailed, Error: fe}
}

// cancelCalls cancels the call workflows the filters select.
func cancelCalls(client dbos.Client, filters ...dbos.ListWorkflowsOption) error {
	filters = append(filters, dbos.WithFilterName(CallWorkflowName))
	ws, err := client.ListWorkflows(client, filters...)
	if err != nil || len(ws) == 0 {
		return unavailableOrNil(err)
	}
	ids := make([]string, len(ws))
	for i, w := range ws {
		ids[i] = w.ID
	}
	return unavailableOrNil(client.CancelWorkflows(client, ids))
}

// unavailableOrNil is unavailable for a DBOS call made without a caller's
// context: its failure is the database's.
func unavailableOrNil(err error) error {
	if err == nil {
		return nil
	}
	return unavailable(context.Background(), err)
}

// dbosError maps a DBOS error of a call made under ctx to a typed one.
func dbosError(ctx context.Context, err error, run string) error {
	if fault.As(err) != nil {
		return err
	}
	var de *dbos.Error
	if errors.As(err, &de) && de.Code == dbos.ErrorCodeNonExistentWorkflow {
		return notFound(run)
	}
	return unavailable(ctx, err)
}

func notFound(run string) error {
	return fault.New(fault.PhaseConfig, KindRunNotFound, "no durable run has this id in the database").With("run_id", run).
		WithHint("use a run id printed by rlm run --db against the same database")
}

// lostDatabase reports an execution that ended because the database could
// not be reached: it is handed back (rlm run --db) or continued once the
// database answers (a worker), never recorded as the run's outcome.
func lostDatabase(res *engine.Result) bool {
	return res != nil && res.Error != nil && res.Error.Kind == KindDBUnavailable
}

// interrupted reports an execution that its caller cancelled (Ctrl-C or
// SIGTERM of rlm run --db): like a crash, it leaves the run pending, so
// the calls it paid for are not lost; a resume continues it.
func interrupted(caller context.Context, res *engine.Result) bool {
	return caller.Err() != nil && res != nil && res.Status == engine.StatusCancelled
}
