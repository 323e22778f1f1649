// Package fanout runs the items of a fan-out, at most conc at a time, on
// reused workers: a plan's map and parallel steps (plan), and code mode's
// llm_query_batched and rlm_query_batched and the re-split of a prompt too
// large for its window (engine).
//
// Items start in index order. A worker done with one item takes the next
// one started while it waits, so a fan-out of 1,000 items at 64 at a time
// starts at most 64 goroutines, each of which grows its stack once to the
// depth of an item (a goroutine per item grew 1,000 stacks: 11% of the CPU
// of a 1,000-call map was runtime.morestack).
package fanout

import (
	"context"
	"sync"
)

// Pool says how Run runs a fan-out. The zero Pool starts every item with
// Run's context and returns the first error an item returned.
type Pool struct {
	// Start, when set, runs in Run's goroutine, in index order, once item
	// i has a free slot and before the item is handed to a worker. It
	// returns the item's context, which must derive from ctx (a trace span
	// started there, say), or false to start no more items. Run itself does
	// not look at ctx before starting an item: without a Start that does,
	// items start under a done context, see it and return its error.
	Start func(ctx context.Context, i int) (context.Context, bool)
	// Prefer reports whether err, returned by an item after chosen, is to
	// be returned instead of chosen. Nil: the first error is returned.
	Prefer func(err, chosen error) bool
}

// Run runs item(ctx, i) for every i in [0, n), at most conc at once (conc
// below 1 means 1), on at most min(conc, n) goroutines. When an item
// returns an error no further item starts and the context of the running
// ones is cancelled; Run returns the error chosen among the items' errors
// (see Pool.Prefer), or nil when none failed. Run returns when every item
// started has returned.
func (p Pool) Run(ctx context.Context, n, conc int, item func(ctx context.Context, i int) error) error {
	_, err := p.run(ctx, n, conc, item)
	return err
}

// job is an item handed to a worker.
type job struct {
	ctx context.Context
	i   int
}

// run is Run that also returns the number of goroutines it started.
func (p Pool) run(ctx context.Context, n, conc int, item func(ctx context.Context, i int) error) (int, error) {
	if n <= 0 {
		return 0, nil
	}
	conc = min(max(conc, 1), n)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu     sync.Mutex
		chosen error
		wg     sync.WaitGroup
	)
	// A slot is taken before an item starts and given back by its worker
	// once it has returned (and its error is recorded).
	slots := make(chan struct{}, conc)
	jobs := make(chan job)
	worker := func(j job) {
		defer wg.Done()
		for ok := true; ok; j, ok = <-jobs {
			if err := item(j.ctx, j.i); err != nil {
				mu.Lock()
				if chosen == nil || p.Prefer != nil && p.Prefer(err, chosen) {
					chosen = err
				}
				mu.Unlock()
				cancel()
			}
			<-slots
		}
	}
	workers := 0
	for i := range n {
		slots <- struct{}{}
		mu.Lock()
		stop := chosen != nil
		mu.Unlock()
		if stop {
			break
		}
		ictx := ctx
		if p.Start != nil {
			var ok bool
			if ictx, ok = p.Start(ctx, i); !ok {
				break
			}
		}
		j := job{ictx, i}
		if workers == conc {
			// A slot was free, so a worker is between items: it takes j.
			jobs <- j
			continue
		}
		select {
		case jobs <- j: // a waiting worker takes it
		default:
			workers++
			wg.Add(1)
			go worker(j)
		}
	}
	close(jobs)
	wg.Wait()
	return workers, chosen
}
