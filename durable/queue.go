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
	// CallWorkflowName is the DBOS workflow a worker runs for a batch of
	// model requests of one run and one model (see MaxBatch).
	CallWorkflowName = "rlm.calls"
	// CallsVersion is the application version of call workflows: runs
	// enqueue them with it and workers run them with it.
	CallsVersion = "rlm-calls-2"
	// DefaultQueue is the queue of rlm worker without --queue.
	DefaultQueue = "rlm"
	// CallTimeout bounds how long a run waits for one queued batch before
	// it cancels the batch and enqueues it again (a worker may have died
	// with it).
	CallTimeout = 2 * time.Minute
	// MaxBatch bounds the requests one call workflow carries. A queued
	// call costs PostgreSQL four to five commits whatever it carries, so a
	// run puts the requests of one model that are waiting to be enqueued
	// together into one workflow. A queue with a rate limit or a global
	// concurrency limit gets one request per workflow: DBOS counts both in
	// workflows, and they must count requests.
	MaxBatch = 8
	// linger is how long a run waits for more requests of a model before
	// it enqueues a batch that is not full: the callers of a finished
	// batch send their next requests within microseconds of each other.
	linger = 2 * time.Millisecond
	// callAttempts bounds how often one batch is enqueued.
	callAttempts = 3
)

// Polling. DBOS workers find queued workflows, and runs their results, by
// polling PostgreSQL (each poll a query); faster polling trades PostgreSQL
// CPU for latency (docs/distributed.md, "What limits throughput").
const (
	// resultPoll is how often a run polls the result of a queued batch:
	// few batches are in flight, so polls are cheap.
	resultPoll = 10 * time.Millisecond
	// callsPoll is how often a worker polls the call queue.
	callsPoll = 20 * time.Millisecond
	// runsPoll is how often a worker polls the runs queue: a submitted run
	// waits at most this long more to start, and every worker polls all
	// the time, so it is slower than callsPoll.
	runsPoll = 500 * time.Millisecond
	// abandonPoll is how often a run checks whether every caller of a
	// queued batch left.
	abandonPoll = 50 * time.Millisecond
)

// KindQueueNotFound: a run names a queue no worker has registered.
const KindQueueNotFound fault.Kind = "queue_not_found"

type callInput struct {
	Requests []model.Request `json:"requests"`
}

// callOutput carries a worker's response to one request, or its typed
// error as data (a workflow error would lose its phase and kind).
type callOutput struct {
	Response *model.Response `json:"response,omitempty"`
	Error    *fault.Error    `json:"error,omitempty"`
}

type batchOutput struct {
	Results []callOutput `json:"results"`
}

// queueProvider is a model.Provider that sends each request through a DBOS
// queue: some worker connected to the same database runs it with its own
// provider, within the queue's global concurrency and per-model rate
// limit. Requests of one model waiting to be enqueued at the same time go
// out as one call workflow of at most batch requests.
type queueProvider struct {
	client  dbos.Client
	queue   string
	run     string
	timeout time.Duration
	batch   int // requests per call workflow (1 on a limited queue)

	mu      sync.Mutex
	pending map[string][]*waiter // by model, not yet enqueued
	active  map[string]bool      // a flusher is enqueueing this model's requests
	// inflight holds the enqueued batches by workflow id, each with the
	// channel poll closes when the workflow has ended; polling says
	// whether poll runs.
	inflight map[string]chan struct{}
	polling  bool
}

// waiter is one Complete waiting for its request's result.
type waiter struct {
	ctx  context.Context
	req  model.Request
	done chan callResult // buffered: the batch never blocks on a caller that left
}

type callResult struct {
	resp *model.Response
	err  error
}

// newQueueProvider returns the queue's provider for run, one request per
// call workflow when the queue's stored configuration has a rate limit or
// a global concurrency limit, else up to MaxBatch.
func newQueueProvider(client dbos.Client, queue, run string) *queueProvider {
	batch := MaxBatch
	if q, err := dbos.RetrieveQueue(client, queue); err != nil || q.GetRateLimit() != nil || q.GetPartitionRateLimit() != nil ||
		q.GetGlobalConcurrency() != nil || q.GetPartitionConcurrency() != nil {
		batch = 1
	}
	return &queueProvider{client: client, queue: queue, run: run, timeout: CallTimeout, batch: batch,
		pending: map[string][]*waiter{}, active: map[string]bool{}, inflight: map[string]chan struct{}{}}
}

// Complete adds req to its model's pending requests and waits for the
// result of the call workflow that carries it. The workflow is
// partitioned by model, so the rate limit is per model; a batch not
// answered within the timeout is cancelled and enqueued again, at most
// callAttempts times.
func (p *queueProvider) Complete(ctx context.Context, req model.Request) (*model.Response, error) {
	req.OnDelta, req.Stream = nil, false
	part := req.Model
	if part == "" {
		part = "default"
	}
	w := &waiter{ctx: ctx, req: req, done: make(chan callResult, 1)}
	p.mu.Lock()
	p.pending[part] = append(p.pending[part], w)
	if !p.active[part] {
		p.active[part] = true
		go p.flush(part)
	}
	p.mu.Unlock()
	select {
	case r := <-w.done:
		return r.resp, r.err
	case <-ctx.Done():
		return nil, fault.FromContext(fault.PhaseProvider, context.Cause(ctx))
	}
}

// flush enqueues part's pending requests, batch at a time, until none is
// left; requests that arrive while one is enqueued join the next.
func (p *queueProvider) flush(part string) {
	for {
		p.mu.Lock()
		if len(p.pending[part]) < p.batch {
			p.mu.Unlock()
			time.Sleep(linger)
			p.mu.Lock()
		}
		ws := p.pending[part]
		if len(ws) == 0 {
			delete(p.active, part)
			p.mu.Unlock()
			return
		}
		n := min(len(ws), p.batch)
		b := ws[:n:n]
		p.pending[part] = ws[n:]
		p.mu.Unlock()
		h, err := p.enqueue(part, b)
		if err != nil {
			fail(b, err)
			continue
		}
		go p.await(part, b, h)
	}
}

// enqueue starts one call workflow for the requests of b still waited for.
func (p *queueProvider) enqueue(part string, b []*waiter) (dbos.WorkflowHandle[batchOutput], error) {
	in := callInput{Requests: make([]model.Request, len(b))}
	for i, w := range b {
		in.Requests[i] = w.req
	}
	h, err := dbos.Enqueue[batchOutput](p.client, p.queue, CallWorkflowName, in,
		dbos.WithEnqueueWorkflowID(p.run+"/call/"+uuid.NewString()), dbos.WithEnqueueApplicationVersion(CallsVersion),
		dbos.WithEnqueueQueuePartitionKey(part))
	if err != nil {
		// A batch serves several callers, under no one context of theirs.
		return nil, unavailable(context.Background(), err)
	}
	return h, nil
}

// await waits for the batch's workflow and hands each waiter its result.
// A batch whose worker died (a live worker cancelled it) or that timed out
// is enqueued again with the requests still waited for, at most
// callAttempts times in all; one whose callers all stopped waiting is
// cancelled.
func (p *queueProvider) await(part string, b []*waiter, h dbos.WorkflowHandle[batchOutput]) {
	for attempt := 1; ; attempt++ {
		err := p.wait(b, h)
		if err == nil {
			return
		}
		if b = waiting(b); len(b) == 0 {
			return
		}
		if attempt == callAttempts {
			fail(b, err)
			return
		}
		if h, err = p.enqueue(part, b); err != nil {
			fail(b, err)
			return
		}
	}
}

// wait waits for one enqueued batch. It hands every waiter its result (or
// the batch's error) and returns nil, or returns the error for which the
// batch is to be enqueued again: its worker died, or no worker answered
// within the timeout.
func (p *queueProvider) wait(b []*waiter, h dbos.WorkflowHandle[batchOutput]) error {
	id := h.GetWorkflowID()
	ended := p.watch(id)
	defer p.unwatch(id)
	deadline := time.Now().Add(p.timeout)
	timer := time.NewTimer(p.timeout)
	defer timer.Stop()
	abandon := time.NewTicker(abandonPoll) // checks whether every caller left
	defer abandon.Stop()
	for {
		select {
		case <-ended:
			// The workflow has ended, so this reads its outcome at once
			// (unless poll woke every wait on an error of its own).
			out, err := h.GetResult(dbos.WithHandlePollingInterval(resultPoll), dbos.WithHandleTimeout(time.Until(deadline)))
			switch {
			case err != nil && cancelled(err):
				// The worker holding the batch died and a live worker
				// cancelled its calls (see Work), or every caller left.
				return fault.Wrap(err, fault.PhaseProvider, fault.KindTimeout, "the worker of a queued call died").With("queue", p.queue)
			case err != nil && !time.Now().Before(deadline):
				return p.timedOut(id)
			case err != nil:
				fail(b, unavailable(context.Background(), err))
			case len(out.Results) != len(b):
				fail(b, fault.New(fault.PhaseProvider, fault.KindInternal, "a worker returned a batch of another size").
					With("want", len(b)).With("got", len(out.Results)))
			default:
				for i, w := range b {
					w.done <- out.Results[i].result()
				}
			}
			return nil
		case <-abandon.C:
			if len(waiting(b)) == 0 {
				_ = p.client.CancelWorkflow(p.client, id)
			}
		case <-timer.C:
			return p.timedOut(id)
		}
	}
}

// timedOut cancels the call workflow id, which no worker answered within
// the timeout, and returns the error for which it is enqueued again.
func (p *queueProvider) timedOut(id string) error {
	_ = p.client.CancelWorkflow(p.client, id)
	return fault.New(fault.PhaseProvider, fault.KindTimeout, "no worker answered the queued call in time").
		With("queue", p.queue).With("timeout", p.timeout.String())
}

// watch adds the call workflow id to the batches poll watches and returns
// the channel closed when it has ended.
func (p *queueProvider) watch(id string) <-chan struct{} {
	ended := make(chan struct{})
	p.mu.Lock()
	defer p.mu.Unlock()
	p.inflight[id] = ended
	if !p.polling {
		p.polling = true
		go p.poll()
	}
	return ended
}

// unwatch removes id from the batches poll watches.
func (p *queueProvider) unwatch(id string) {
	p.mu.Lock()
	delete(p.inflight, id)
	p.mu.Unlock()
}

// endedStates lists the workflow states in which a call workflow has ended.
var endedStates = []dbos.WorkflowStatusType{dbos.WorkflowStatusSuccess, dbos.WorkflowStatusError,
	dbos.WorkflowStatusCancelled, dbos.WorkflowStatusMaxRecoveryAttemptsExceeded}

// poll finds, every resultPoll, which of the batches in flight have ended,
// with one query for all of them (a poll per batch would cost PostgreSQL a
// query per batch in flight every resultPoll, however long its calls
// take), and wakes their waits. It stops when no batch is in flight.
func (p *queueProvider) poll() {
	tick := time.NewTicker(resultPoll)
	defer tick.Stop()
	for range tick.C {
		p.mu.Lock()
		if len(p.inflight) == 0 {
			p.polling = false
			p.mu.Unlock()
			return
		}
		ids := make([]string, 0, len(p.inflight))
		for id := range p.inflight {
			ids = append(ids, id)
		}
		p.mu.Unlock()
		done, err := dbos.ListWorkflows(p.client, dbos.WithFilterWorkflowIDs(ids...), dbos.WithFilterStatus(endedStates...),
			dbos.WithFilterLoadInput(false), dbos.WithFilterLoadOutput(false))
		p.mu.Lock()
		if err != nil {
			// DBOS retries transient errors itself: wake every wait, whose
			// own result read reports this error or waits out the outage.
			done = nil
			for _, id := range ids {
				done = append(done, dbos.WorkflowStatus{ID: id})
			}
		}
		for _, st := range done {
			if ch, ok := p.inflight[st.ID]; ok {
				close(ch)
				delete(p.inflight, st.ID)
			}
		}
		p.mu.Unlock()
	}
}

// result is what the caller of o's request gets.
func (o callOutput) result() callResult {
	switch {
	case o.Error != nil:
		return callResult{o.Response, o.Error}
	case o.Response == nil:
		return callResult{nil, fault.New(fault.PhaseProvider, fault.KindInternal, "a worker returned no response")}
	}
	return callResult{o.Response, nil}
}

// waiting returns the waiters of b whose callers still wait.
func waiting(b []*waiter) []*waiter {
	var out []*waiter
	for _, w := range b {
		if w.ctx.Err() == nil {
			out = append(out, w)
		}
	}
	return out
}

// fail hands every waiter of b the error err.
func fail(b []*waiter, err error) {
	for _, w := range b {
		w.done <- callResult{nil, err}
	}
}

// cancelled reports a DBOS error for a cancelled workflow.
func cancelled(err error) bool {
	var de *dbos.Error
	return errors.As(err, &de) && (de.Code == dbos.ErrorCodeWorkflowCancelled || de.Code == dbos.ErrorCodeAwaitedWorkflowCancelled)
}

func quiet() *slog.Logger { return slog.New(slog.DiscardHandler) }
