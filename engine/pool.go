package engine

import (
	"context"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/fanout"
)

// forEach runs item(ctx, i) for every i in [0, n), at most conc at once
// (at least one) on reused workers (internal/fanout), and returns the
// first error an item returned, preferring a cause over the cancellations
// it provoked: after an error no item starts and the running ones see
// their context cancelled. It returns when every started item has.
func forEach(ctx context.Context, n, conc int, item func(ctx context.Context, i int) error) error {
	return fanout.Pool{Prefer: causeOverCancel}.Run(ctx, n, conc, item)
}

// causeOverCancel prefers err to chosen when chosen is a cancellation and
// err is not.
func causeOverCancel(err, chosen error) bool {
	return fault.KindOf(chosen) == fault.KindCancelled && fault.KindOf(err) != fault.KindCancelled
}
