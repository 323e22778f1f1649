// Package fanout runs the items of a fan-out, at most conc at a time, on
// reused workers: a plan's map and parallel steps (plan), and code mode's
// llm_query_batched and rlm_query_batched and the re-split of a prompt too
// large for its window (engine).
//
// Items start in index order. Each of at most conc goroutines takes the
// next item when done with one, so a fan-out of 1,000 items at 64 at a
// time starts 64 goroutines, each of which grows its stack once to the
// depth of an item (a goroutine per item grew 1,000 stacks: 11% of the CPU
// of a 1,000-call map was runtime.morestack). Workers take items
// themselves rather than being handed them by a launching goroutine: the
// hand-off cost two goroutine switches per item, 10% of the CPU of a
// 1,000-prompt llm_query_batched (BenchmarkCodeBatched1000).
package fanout

import (
	"context"
	"sync"
)

// Pool says how Run runs a fan-out. The zero Pool starts every item with
// Run's context and returns the first error an item returned.
type Pool struct {
	// Start, when set, is called for each item before it runs, in index
	// order and one call at a time (the next item is not taken until it
	// has returned), on the goroutine that then runs the item. It returns
	// the item's context, which must derive from ctx (a trace span started
	// there, say), or false to start no more items. It must not block:
	// while it runs no other item can start. Run itself does not look at
	// ctx before starting an item: without a Start that does, items start
	// under a done context, see it and return its error.
	Start func(ctx context.Context, i int) (context.Context, bool)
	// Prefer reports whether err, returned by an item after chosen, is to
	// be returned instead of chosen. Nil: the first error is returned.
	Prefer func(err, chosen error) bool
}

// Run runs item(ctx, i) for every i in [0, n), at most conc at once (conc
// below 1 means 1), on min(conc, n) goroutines, each of which takes the
// next item when done with one. When an item returns an error no further
// item starts and the context of the running ones is cancelled; Run
// returns the error chosen among the items' errors (see Pool.Prefer), or
// nil when none failed. Run returns when every item started has returned.
func (p Pool) Run(ctx context.Context, n, conc int, item func(ctx context.Context, i int) error) error {
	if n <= 0 {
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		// mu guards next, done and chosen, and serializes Start.
		mu     sync.Mutex
		next   int
		done   bool // no more items start
		chosen error
		wg     sync.WaitGroup
	)
	// take returns the next item to run and its context, or false.
	take := func() (context.Context, int, bool) {
		mu.Lock()
		defer mu.Unlock()
		if done || chosen != nil || next >= n {
			return nil, 0, false
		}
		i := next
		next++
		if p.Start == nil {
			return ctx, i, true
		}
		ictx, ok := p.Start(ctx, i)
		done = !ok
		return ictx, i, ok
	}
	for range min(max(conc, 1), n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				ictx, i, ok := take()
				if !ok {
					return
				}
				if err := item(ictx, i); err != nil {
					mu.Lock()
					if chosen == nil || p.Prefer != nil && p.Prefer(err, chosen) {
						chosen = err
					}
					mu.Unlock()
					cancel()
				}
			}
		}()
	}
	wg.Wait()
	return chosen
}
