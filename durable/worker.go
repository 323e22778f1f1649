package durable

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dbos-inc/dbos-transact-golang/dbos"
	"github.com/google/uuid"

	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
)

// DefaultDeadAfter is how long a worker may miss its heartbeat before the
// live workers take over its runs and calls.
const DefaultDeadAfter = 10 * time.Second

// WorkerConfig configures a worker.
type WorkerConfig struct {
	DatabaseURL string
	// Queue is the queue to serve (default DefaultQueue); the worker also
	// serves its runs queue (RunsQueue), where rlm submit enqueues runs.
	Queue string
	// Concurrency bounds the calls this worker runs at once (default 8),
	// and, separately, the submitted runs it runs at once.
	Concurrency int
	// GlobalConcurrency, when positive, bounds the calls in flight on the
	// queue across all workers.
	GlobalConcurrency int
	// RateLimit, when positive, bounds the calls started per model in any
	// RatePeriod (default one minute) across all workers.
	RateLimit  int
	RatePeriod time.Duration
	// Provider sends the calls.
	Provider model.Provider
	// Run runs a submitted run with x as its engine's Executor (the CLI
	// runs sub.Args as rlm run does). Without it the worker serves calls
	// only: a submitted run it takes fails.
	Run func(ctx context.Context, sub Submission, x *Executor) (*engine.Result, error)
	// DeadAfter is how long this worker's heartbeat may be missing before
	// the live workers treat it as dead (default DefaultDeadAfter): they
	// cancel its calls, whose runs enqueue them again, and enqueue its runs
	// again, which continue from their checkpoints.
	DeadAfter time.Duration
	// Grace bounds how long a stopping worker waits for its calls and runs
	// in flight (default 30 s).
	Grace  time.Duration
	Logger *slog.Logger
	// OnReady, when set, is called once the worker serves the queue;
	// OnRun when it starts (or continues) a submitted run.
	OnReady func(executorID string)
	OnRun   func(runID string)
}

// Work serves the queue and its runs queue until ctx is done, then stops
// taking calls and runs, waits up to Grace for those in flight to finish
// (a call cut off there is cancelled, and its run enqueues it again) and
// shuts down.
func Work(ctx context.Context, cfg WorkerConfig) error {
	if cfg.Queue == "" {
		cfg.Queue = DefaultQueue
	}
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = 8
	}
	if cfg.RatePeriod <= 0 {
		cfg.RatePeriod = time.Minute
	}
	if cfg.Grace <= 0 {
		cfg.Grace = 30 * time.Second
	}
	if cfg.DeadAfter <= 0 {
		cfg.DeadAfter = DefaultDeadAfter
	}
	if cfg.Logger == nil {
		cfg.Logger = quiet()
	}
	store, err := Open(ctx, cfg.DatabaseURL) // migrations
	if err != nil {
		return err
	}
	defer store.Close()
	exec := "rlm-worker-" + uuid.NewString()
	dctx, err := store.newDBOS(ctx, dbos.Config{AppName: AppName, DatabaseURL: cfg.DatabaseURL,
		ExecutorID: exec, ApplicationVersion: CallsVersion, Logger: cfg.Logger, SystemDBStartupTimeout: 30 * time.Second})
	if err != nil {
		return unavailable(ctx, err)
	}
	var inflight sync.WaitGroup
	// slots bounds the requests this worker sends at once, whatever the
	// batches they come in.
	slots := make(chan struct{}, cfg.Concurrency)
	call := func(wctx dbos.Context, in callInput) (batchOutput, error) {
		inflight.Add(1)
		defer inflight.Done()
		out := batchOutput{Results: make([]callOutput, len(in.Requests))}
		var wg sync.WaitGroup
		for i, req := range in.Requests {
			wg.Go(func() { out.Results[i] = send(wctx, slots, cfg.Provider, req) })
		}
		wg.Wait()
		return out, nil
	}
	dbos.RegisterWorkflow(dctx, call, dbos.WithWorkflowName(CallWorkflowName))
	var stopping atomic.Bool
	var handedBack atomic.Int32 // runs cut off by the shutdown, left pending
	exiting := make(chan struct{})
	run := func(wctx dbos.Context, sub Submission) (*engine.Result, error) {
		inflight.Add(1)
		if cfg.OnRun != nil {
			cfg.OnRun(sub.RunID)
		}
		execute := func() *engine.Result {
			return runWorkflow(context.Background(), wctx, store, dctx, sub.RunID, sub.Queue, func(rctx context.Context, x *Executor) (*engine.Result, error) {
				if cfg.Run == nil {
					return nil, fault.New(fault.PhaseConfig, fault.KindInternal, "this worker does not run submitted runs")
				}
				return cfg.Run(rctx, sub, x)
			})
		}
		res := execute()
		// An execution that ended because the database could not be
		// reached is not the run's outcome: once the database answers
		// again the run continues from its checkpoints, as a resume would.
		for lostDatabase(res) && ctx.Err() == nil {
			cfg.Logger.Warn("rlm worker: the database could not be reached; the run continues when it can", "run_id", sub.RunID)
			if store.reachable(ctx) != nil {
				break // the worker is stopping: handed back below
			}
			res = execute()
		}
		if (stopping.Load() || ctx.Err() != nil) && (res.Status == engine.StatusCancelled || lostDatabase(res)) {
			// Cut off by this worker's shutdown (cancelled, or waiting
			// for the database): hand the run back instead of recording
			// that. It stays pending until the worker is gone, and a live
			// worker takes it over.
			inflight.Done()
			handedBack.Add(1)
			<-exiting
			return nil, errors.New("the worker stopped")
		}
		defer inflight.Done() // the shutdown waits for the trajectory's record too
		return store.detachTrajectory(context.Background(), sub.RunID, res), nil
	}
	dbos.RegisterWorkflow(dctx, run, dbos.WithWorkflowName(WorkflowName))
	// DBOS counts workflows: on a queue without limits a workflow carries
	// up to MaxBatch requests (see newQueueProvider), and a fan-out's
	// batches are seldom full (6 requests on average in the benchmark of
	// docs/distributed.md), so the worker takes up to twice the batches
	// that would fill its slots when full; slots still bound the requests
	// it sends at once. Taking more lets one worker hoard batches whose
	// requests wait for its slots while other workers idle; taking fewer
	// leaves slots empty. On a limited queue, one request each.
	batches := cfg.Concurrency
	if cfg.GlobalConcurrency <= 0 && cfg.RateLimit <= 0 {
		batches = max(1, cfg.Concurrency/(MaxBatch/2))
	}
	opts := []dbos.QueueOption{dbos.WithWorkerConcurrency(batches), dbos.WithQueueBasePollingInterval(callsPoll),
		dbos.WithQueueOnConflict(dbos.QueueConflictAlwaysUpdate)}
	if cfg.GlobalConcurrency > 0 {
		opts = append(opts, dbos.WithGlobalConcurrency(cfg.GlobalConcurrency))
	}
	if cfg.RateLimit > 0 {
		opts = append(opts, dbos.WithPartitionRateLimiter(&dbos.RateLimiter{Limit: cfg.RateLimit, Period: cfg.RatePeriod}))
	}
	if _, err := dbos.RegisterQueue(dctx, cfg.Queue, opts...); err != nil {
		return unavailable(ctx, err)
	}
	if _, err := dbos.RegisterQueue(dctx, RunsQueue(cfg.Queue), dbos.WithWorkerConcurrency(cfg.Concurrency),
		dbos.WithQueueBasePollingInterval(runsPoll), dbos.WithQueueOnConflict(dbos.QueueConflictAlwaysUpdate)); err != nil {
		return unavailable(ctx, err)
	}
	dctx.ListenQueues(dctx, cfg.Queue, RunsQueue(cfg.Queue))
	if err := store.beat(ctx, exec, cfg.Queue, cfg.DeadAfter); err != nil {
		return err
	}
	if err := dctx.Launch(); err != nil {
		return unavailable(ctx, err)
	}
	beats, stopBeats := context.WithCancel(context.WithoutCancel(ctx))
	beating := make(chan struct{})
	go func() {
		defer close(beating)
		heartbeat(beats, store, dctx, exec, cfg)
	}()
	if cfg.OnReady != nil {
		cfg.OnReady(exec)
	}
	<-ctx.Done()
	stopping.Store(true)
	defer close(exiting)
	// Take no more calls or runs; let those in flight finish within the
	// grace.
	dctx.ListenQueues(dctx, "rlm-stopped-"+exec)
	finished := make(chan struct{})
	go func() { inflight.Wait(); close(finished) }()
	cutOff := false
	select {
	case <-finished:
	case <-time.After(cfg.Grace):
		cutOff = true
	}
	err = dctx.Shutdown(dctx, cfg.Grace)
	if err != nil && (cutOff || handedBack.Load() > 0) {
		// DBOS's shutdown waits for every workflow; a run handed back
		// waits for this function to return, so that it stays pending
		// for the next worker, and a call cut off is cancelled: neither
		// is a failure of the shutdown.
		cfg.Logger.Info("rlm worker: stopped with work handed back", "error", err)
		err = nil
	}
	<-finished
	stopBeats()
	<-beating
	// Whatever this worker leaves pending is taken over by the next live
	// worker's heartbeat.
	store.leave(context.WithoutCancel(ctx), exec)
	if err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return unavailable(ctx, err)
	}
	return nil
}

// send sends one request of a batch once one of slots is free, and
// returns the response, or the error as data.
func send(ctx context.Context, slots chan struct{}, p model.Provider, req model.Request) callOutput {
	select {
	case slots <- struct{}{}:
		defer func() { <-slots }()
	case <-ctx.Done():
		return failedCall(fault.FromContext(fault.PhaseProvider, context.Cause(ctx)))
	}
	resp, err := p.Complete(ctx, req)
	if err != nil {
		out := failedCall(err)
		out.Response = resp
		return out
	}
	return callOutput{Response: resp}
}

// failedCall carries err as a typed error (phase and kind kept).
func failedCall(err error) callOutput {
	fe := fault.As(err)
	if fe == nil {
		fe = fault.Wrap(err, fault.PhaseProvider, fault.KindInternal, "the model call failed")
	}
	return callOutput{Error: fe}
}

// recoverer is the DBOS runtime's recovery of another executor's pending
// workflows.
type recoverer interface {
	RecoverPendingWorkflows(executorIDs []string) ([]dbos.WorkflowHandle[any], error)
}

// heartbeat records the worker as live every quarter of DeadAfter and takes
// over the work of dead workers: their calls are cancelled (a live run
// waiting on one enqueues it again at once; a call whose run died with the
// worker is not sent for no one) and their runs are enqueued again, to
// continue from their checkpoints on any worker.
func heartbeat(ctx context.Context, store *Store, dctx dbos.Context, exec string, cfg WorkerConfig) {
	t := time.NewTicker(max(cfg.DeadAfter/4, 100*time.Millisecond))
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if err := store.beat(ctx, exec, cfg.Queue, cfg.DeadAfter); err != nil {
			cfg.Logger.Warn("rlm worker heartbeat", "error", err)
			continue
		}
		dead, err := store.claimDead(ctx, exec)
		if err != nil {
			cfg.Logger.Warn("rlm worker: claiming dead workers", "error", err)
			continue
		}
		if len(dead) == 0 {
			continue
		}
		if err := takeOver(dctx, dead); err != nil {
			// The claims stay: the next heartbeat takes over again.
			cfg.Logger.Warn("rlm worker: taking over a dead worker's work", "error", err)
			continue
		}
		if err := store.release(ctx, exec, dead); err != nil {
			cfg.Logger.Warn("rlm worker: releasing dead workers", "error", err)
		}
	}
}

// takeOver takes over the work of the dead workers: their calls are
// cancelled and their runs recovered here. Each step may run again with
// the effect of once, so a take-over that failed part way is done again
// whole by the next heartbeat.
func takeOver(dctx dbos.Context, dead []string) error {
	// The queued calls of the dead worker's runs would be sent for no
	// one: the runs' next executions enqueue their own.
	runs, err := dctx.ListWorkflows(dctx, dbos.WithFilterExecutorIDs(dead...), dbos.WithFilterName(WorkflowName),
		dbos.WithFilterStatus(dbos.WorkflowStatusPending), dbos.WithFilterLoadInput(false))
	if err != nil {
		return fmt.Errorf("listing their runs: %w", err)
	}
	if len(runs) > 0 {
		prefixes := make([]string, len(runs))
		for i, r := range runs {
			prefixes[i] = r.ID + "/call/"
		}
		if err := cancelCalls(dctx, dbos.WithFilterWorkflowIDPrefix(prefixes...), dbos.WithFilterStatus(dbos.WorkflowStatusEnqueued)); err != nil {
			return fmt.Errorf("cancelling their runs' queued calls: %w", err)
		}
	}
	if err := cancelCalls(dctx, dbos.WithFilterExecutorIDs(dead...), dbos.WithFilterStatus(dbos.WorkflowStatusPending)); err != nil {
		return fmt.Errorf("cancelling their calls: %w", err)
	}
	if r, ok := dctx.(recoverer); ok {
		if _, err := r.RecoverPendingWorkflows(dead); err != nil {
			return fmt.Errorf("recovering their runs: %w", err)
		}
	}
	return nil
}

// beat records that the worker exec is live.
func (s *Store) beat(ctx context.Context, exec, queue string, deadAfter time.Duration) error {
	return retryIdempotent(ctx, func(ctx context.Context) error {
		_, err := s.pool.Exec(ctx, `INSERT INTO rlm.workers (executor_id, queue, dead_after) VALUES ($1, $2, $3)
			ON CONFLICT (executor_id) DO UPDATE SET seen_at = now(), dead_after = EXCLUDED.dead_after,
				claimed_by = NULL, claimed_at = NULL`, exec, queue, deadAfter)
		return err
	})
}

// claimDead claims for the worker exec the workers whose heartbeat is
// older than their dead_after, and returns them, sorted: exec takes over
// their work, then releases them. A claim is not a deletion, so claiming
// again returns the same workers (the statement may run twice, as when
// its answer is lost with the connection), and a take-over that failed
// is tried again by the next heartbeat instead of being lost with the
// rows. A claim older than the dead worker's dead_after (its claimer died
// too) may be taken by another worker.
func (s *Store) claimDead(ctx context.Context, exec string) ([]string, error) {
	var dead []string
	err := retryIdempotent(ctx, func(ctx context.Context) error {
		dead = dead[:0]
		rows, err := s.pool.Query(ctx, `UPDATE rlm.workers SET claimed_by = $1, claimed_at = now()
			WHERE executor_id <> $1 AND seen_at < now() - dead_after
				AND (claimed_by IS NULL OR claimed_by = $1 OR claimed_at < now() - dead_after)
			RETURNING executor_id`, exec)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				return err
			}
			dead = append(dead, id)
		}
		return rows.Err()
	})
	slices.Sort(dead)
	return dead, err
}

// release deletes the dead workers exec claimed and took over. One that
// beat again meanwhile is inserted again by its next heartbeat.
func (s *Store) release(ctx context.Context, exec string, dead []string) error {
	return retryIdempotent(ctx, func(ctx context.Context) error {
		_, err := s.pool.Exec(ctx, `DELETE FROM rlm.workers WHERE claimed_by = $1 AND executor_id = ANY($2)`, exec, dead)
		return err
	})
}

// leave marks a stopped worker as dead at once, so that whatever it left
// pending is taken over by the next heartbeat of a live worker.
func (s *Store) leave(ctx context.Context, exec string) {
	_, _ = s.pool.Exec(ctx, `UPDATE rlm.workers SET seen_at = '-infinity' WHERE executor_id = $1`, exec)
}
