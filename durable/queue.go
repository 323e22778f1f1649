package durable

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/dbos-inc/dbos-transact-golang/dbos"
	"github.com/google/uuid"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
)

// Names and defaults of the sub-call queue.
const (
	// CallWorkflowName is the DBOS workflow a worker runs for one model
	// request.
	CallWorkflowName = "rlm.call"
	// CallsVersion is the application version of call workflows: runs
	// enqueue them with it and workers run them with it.
	CallsVersion = "rlm-calls-1"
	// DefaultQueue is the queue of rlm worker without --queue.
	DefaultQueue = "rlm"
	// CallTimeout bounds how long a run waits for one queued call before
	// it cancels the call and enqueues it again (a worker may have died
	// with it).
	CallTimeout = 2 * time.Minute
	// callAttempts bounds how often one call is enqueued.
	callAttempts = 3
	// pollInterval is how often queues and call results are polled.
	pollInterval = 50 * time.Millisecond
)

// KindQueueNotFound: a run names a queue no worker has registered.
const KindQueueNotFound fault.Kind = "queue_not_found"

type callInput struct {
	Request model.Request `json:"request"`
}

// callOutput carries the worker's response, or its typed error as data (a
// workflow error would lose its phase and kind).
type callOutput struct {
	Response *model.Response `json:"response,omitempty"`
	Error    *fault.Error    `json:"error,omitempty"`
}

// queueProvider is a model.Provider that sends each request through a DBOS
// queue: some worker connected to the same database runs it with its own
// provider, within the queue's global concurrency and per-model rate
// limit.
type queueProvider struct {
	client  dbos.Client
	queue   string
	run     string
	timeout time.Duration
}

// Complete enqueues req as a call workflow (partitioned by model, so the
// rate limit is per model) and waits for its result. A call not answered
// within the timeout is cancelled and enqueued again, at most
// callAttempts times.
func (p *queueProvider) Complete(ctx context.Context, req model.Request) (*model.Response, error) {
	req.OnDelta, req.Stream = nil, false
	part := req.Model
	if part == "" {
		part = "default"
	}
	var last error
	for range callAttempts {
		id := p.run + "/call/" + uuid.NewString()
		h, err := dbos.Enqueue[callOutput](p.client, p.queue, CallWorkflowName, callInput{Request: req},
			dbos.WithEnqueueWorkflowID(id), dbos.WithEnqueueApplicationVersion(CallsVersion), dbos.WithEnqueueQueuePartitionKey(part))
		if err != nil {
			return nil, unavailable(err)
		}
		type res struct {
			out callOutput
			err error
		}
		done := make(chan res, 1)
		go func() {
			out, err := h.GetResult(dbos.WithHandlePollingInterval(pollInterval))
			done <- res{out, err}
		}()
		timer := time.NewTimer(p.timeout)
		select {
		case r := <-done:
			timer.Stop()
			if r.err != nil {
				return nil, unavailable(r.err)
			}
			if r.out.Error != nil {
				return r.out.Response, r.out.Error
			}
			if r.out.Response == nil {
				return nil, fault.New(fault.PhaseProvider, fault.KindInternal, "a worker returned no response")
			}
			return r.out.Response, nil
		case <-ctx.Done():
			timer.Stop()
			_ = p.client.CancelWorkflow(p.client, id)
			<-done
			return nil, fault.FromContext(fault.PhaseProvider, context.Cause(ctx))
		case <-timer.C:
			_ = p.client.CancelWorkflow(p.client, id)
			<-done
			last = fault.New(fault.PhaseProvider, fault.KindTimeout, "no worker answered the queued call in time").
				With("queue", p.queue).With("timeout", p.timeout.String())
		}
	}
	return nil, last
}

// WorkerConfig configures a worker.
type WorkerConfig struct {
	DatabaseURL string
	// Queue is the queue to serve (default DefaultQueue).
	Queue string
	// Concurrency bounds the calls this worker runs at once (default 8).
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
	// Grace bounds how long a stopping worker waits for its calls in
	// flight (default 30 s).
	Grace  time.Duration
	Logger *slog.Logger
	// OnReady, when set, is called once the worker serves the queue.
	OnReady func(executorID string)
}

// Work serves the queue until ctx is done, then stops taking calls, waits
// up to Grace for the calls in flight to finish (a call cut off there is
// cancelled, and its run enqueues it again) and shuts down.
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
	if cfg.Logger == nil {
		cfg.Logger = quiet()
	}
	store, err := Open(ctx, cfg.DatabaseURL) // migrations
	if err != nil {
		return err
	}
	store.Close()
	exec := "rlm-worker-" + uuid.NewString()
	dctx, err := dbos.NewContext(context.WithoutCancel(ctx), dbos.Config{AppName: AppName, DatabaseURL: cfg.DatabaseURL,
		ExecutorID: exec, ApplicationVersion: CallsVersion, Logger: cfg.Logger, SystemDBStartupTimeout: 30 * time.Second})
	if err != nil {
		return unavailable(err)
	}
	var (
		inflight sync.WaitGroup
	)
	call := func(wctx dbos.Context, in callInput) (callOutput, error) {
		inflight.Add(1)
		defer inflight.Done()
		resp, err := cfg.Provider.Complete(wctx, in.Request)
		out := callOutput{Response: resp}
		if err != nil {
			out.Error = fault.As(err)
			if out.Error == nil {
				out.Error = fault.Wrap(err, fault.PhaseProvider, fault.KindInternal, "the model call failed")
			}
		}
		return out, nil
	}
	dbos.RegisterWorkflow(dctx, call, dbos.WithWorkflowName(CallWorkflowName))
	opts := []dbos.QueueOption{dbos.WithWorkerConcurrency(cfg.Concurrency), dbos.WithQueueBasePollingInterval(pollInterval),
		dbos.WithQueueOnConflict(dbos.QueueConflictAlwaysUpdate)}
	if cfg.GlobalConcurrency > 0 {
		opts = append(opts, dbos.WithGlobalConcurrency(cfg.GlobalConcurrency))
	}
	if cfg.RateLimit > 0 {
		opts = append(opts, dbos.WithPartitionRateLimiter(&dbos.RateLimiter{Limit: cfg.RateLimit, Period: cfg.RatePeriod}))
	}
	if _, err := dbos.RegisterQueue(dctx, cfg.Queue, opts...); err != nil {
		return unavailable(err)
	}
	dctx.ListenQueues(dctx, cfg.Queue)
	if err := dctx.Launch(); err != nil {
		return unavailable(err)
	}
	if cfg.OnReady != nil {
		cfg.OnReady(exec)
	}
	<-ctx.Done()
	// Take no more calls; let those in flight finish within the grace.
	dctx.ListenQueues(dctx, "rlm-stopped-"+exec)
	finished := make(chan struct{})
	go func() { inflight.Wait(); close(finished) }()
	select {
	case <-finished:
	case <-time.After(cfg.Grace):
	}
	if err := dctx.Shutdown(dctx, cfg.Grace); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return unavailable(err)
	}
	<-finished
	return nil
}

func quiet() *slog.Logger { return slog.New(slog.DiscardHandler) }
