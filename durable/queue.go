package durable

import (
	"context"
	"errors"
	"log/slog"
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
				if cancelled(r.err) && ctx.Err() == nil {
					// The worker holding the call died and a live worker
					// cancelled its calls (see Work): enqueue it again.
					last = fault.Wrap(r.err, fault.PhaseProvider, fault.KindTimeout, "the worker of a queued call died").With("queue", p.queue)
					continue
				}
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

// cancelled reports a DBOS error for a cancelled workflow.
func cancelled(err error) bool {
	var de *dbos.Error
	return errors.As(err, &de) && (de.Code == dbos.ErrorCodeWorkflowCancelled || de.Code == dbos.ErrorCodeAwaitedWorkflowCancelled)
}

func quiet() *slog.Logger { return slog.New(slog.DiscardHandler) }
