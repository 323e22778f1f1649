package engine

import (
	"context"
	"sync"

	"github.com/rlm-go/rlm/fault"
)

// forEach runs item(ctx, i) for every i in [0, n), at most conc at once
// (at least one), and returns the first error an item returned,
// preferring a cause over the cancellations it provoked: after an error
// no item starts and the running ones see their context cancelled. It
// returns when every started item has.
func forEach(ctx context.Context, n, conc int, item func(ctx context.Context, i int) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu    sync.Mutex
		first error
		next  int
		wg    sync.WaitGroup
	)
	for range min(max(conc, 1), n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := next
				next++
				stop := first != nil
				mu.Unlock()
				if i >= n || stop {
					return
				}
				if err := item(ctx, i); err != nil {
					mu.Lock()
					if first == nil || fault.KindOf(first) == fault.KindCancelled && fault.KindOf(err) != fault.KindCancelled {
						first = err
					}
					mu.Unlock()
					cancel()
					return
				}
			}
		}()
	}
	wg.Wait()
	return first
}
