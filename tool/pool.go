package tool

import (
	"context"
	"sync"

	"github.com/rlm-go/rlm/fault"
)

// Default pool sizes.
const (
	DefaultWorkers = 8
	DefaultBacklog = 64
)

// Pool runs functions on at most a fixed number of goroutines with a
// bounded backlog. Submitting never blocks: a full backlog fails at once
// with Kind backpressure. Idle pools hold no goroutines, so a Pool needs no
// Close. It is safe for concurrent use.
type Pool struct {
	mu      sync.Mutex
	workers int
	backlog int
	running int
	queue   []func()
}

// NewPool returns a pool of workers goroutines and a backlog of backlog
// queued tasks; values <= 0 take the defaults (8 and 64).
func NewPool(workers, backlog int) *Pool {
	if workers <= 0 {
		workers = DefaultWorkers
	}
	if backlog <= 0 {
		backlog = DefaultBacklog
	}
	return &Pool{workers: workers, backlog: backlog}
}

// PoolStatus is a snapshot of a pool.
type PoolStatus struct {
	Workers int `json:"workers"`
	Backlog int `json:"backlog"`
	Running int `json:"running"`
	Queued  int `json:"queued"`
}

// Status returns the pool's current counters.
func (p *Pool) Status() PoolStatus {
	p.mu.Lock()
	defer p.mu.Unlock()
	return PoolStatus{Workers: p.workers, Backlog: p.backlog, Running: p.running, Queued: len(p.queue)}
}

// Go schedules fn. It fails with Kind backpressure when all workers are
// busy and the backlog is full.
func (p *Pool) Go(fn func()) error {
	p.mu.Lock()
	if p.running < p.workers {
		p.running++
		p.mu.Unlock()
		go p.loop(fn)
		return nil
	}
	if len(p.queue) >= p.backlog {
		p.mu.Unlock()
		return fault.New(fault.PhaseTool, KindBackpressure, "the worker pool backlog is full").With("backlog", p.backlog)
	}
	p.queue = append(p.queue, fn)
	p.mu.Unlock()
	return nil
}

// acquire takes a worker slot for the caller's own goroutine if one is
// free. A successful acquire must be followed by release.
func (p *Pool) acquire() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.running < p.workers {
		p.running++
		return true
	}
	return false
}

// release gives up a slot taken by acquire: to a queued task, which
// continues on a new worker goroutine, or back to the pool.
func (p *Pool) release() {
	if next, ok := p.next(); ok {
		go p.loop(next)
	}
}

func (p *Pool) loop(fn func()) {
	for ok := true; ok; fn, ok = p.next() {
		fn()
	}
}

// next hands the caller's slot to the oldest queued task, or gives the
// slot back to the pool (ok false) when the queue is empty.
func (p *Pool) next() (fn func(), ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.queue) == 0 {
		p.running--
		return nil, false
	}
	fn = p.queue[0]
	p.queue[0] = nil
	p.queue = p.queue[1:]
	return fn, true
}

// Future is the eventual outcome of an asynchronous invocation.
type Future struct {
	done   chan struct{}
	cancel context.CancelFunc
	res    Result
	err    error
}

func newFuture(cancel context.CancelFunc) *Future {
	return &Future{done: make(chan struct{}), cancel: cancel}
}

// closed is the Done channel of every resolved Future.
var closed = func() chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}()

// resolved returns a Future that is already complete.
func resolved(res Result, err error) *Future {
	return &Future{done: closed, cancel: func() {}, res: res, err: err}
}

func (f *Future) complete(res Result, err error) {
	f.res, f.err = res, err
	close(f.done)
}

// Done is closed when the outcome is available.
func (f *Future) Done() <-chan struct{} { return f.done }

// Await waits for the outcome. If ctx ends first, Await returns ctx.Err()
// and the work goes on: an await timeout does not cancel it (Cancel does).
func (f *Future) Await(ctx context.Context) (Result, error) {
	// A result that is already there wins over a cancellation: a call
	// that ended (a pending approval created, an effect made) is reported
	// as it ended, not hidden behind ctx.Err().
	select {
	case <-f.done:
		return f.res, f.err
	default:
	}
	select {
	case <-f.done:
		return f.res, f.err
	case <-ctx.Done():
		return Result{}, ctx.Err()
	}
}

// Cancel cancels the work's context. A queued invocation then finishes
// without running its handler; a running handler sees its context
// cancelled.
func (f *Future) Cancel() { f.cancel() }

// poolMark records, in a handler's context, the pools whose slots the
// handler's call chain holds.
type poolMark struct {
	pool *Pool
	next *poolMark
}

type poolMarkKey struct{}

// withPool marks ctx as running a handler that holds a slot of p.
func withPool(ctx context.Context, p *Pool) context.Context {
	next, _ := ctx.Value(poolMarkKey{}).(*poolMark)
	if onMark(next, p) {
		return ctx
	}
	return context.WithValue(ctx, poolMarkKey{}, &poolMark{pool: p, next: next})
}

// onPool reports whether ctx belongs to a handler holding a slot of p.
func onPool(ctx context.Context, p *Pool) bool {
	m, _ := ctx.Value(poolMarkKey{}).(*poolMark)
	return onMark(m, p)
}

func onMark(m *poolMark, p *Pool) bool {
	for ; m != nil; m = m.next {
		if m.pool == p {
			return true
		}
	}
	return false
}
