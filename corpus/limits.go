package corpus

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/fault"
)

// Defaults and hard caps of Limits. A zero field takes the default; a
// negative field, or one above its cap, fails with Kind invalid_limit: an
// operation's limits cannot be lifted (docs/budget.md, "One rule for every
// limit").
const (
	DefaultMaxResults = 100
	DefaultMaxBytes   = 64 << 10
	DefaultTimeLimit  = 10 * time.Second

	MaxMaxResults = 100_000
	MaxMaxBytes   = 16 << 20
	MaxTimeLimit  = 5 * time.Minute

	// LineCap bounds the text of one search match: longer lines are cut to
	// an excerpt of at most LineCap bytes and marked truncated.
	LineCap = 512
)

// Limits bounds one operation. Its JSON form is
// {"max_results","max_bytes","time_limit_ms"}, the time limit in whole
// milliseconds (budget.Millis).
type Limits struct {
	// MaxResults bounds the number of items in a list value (matches,
	// chunks, mapped lines). Default 100, cap 100000.
	MaxResults int
	// MaxBytes bounds the total text returned by the operation (lines,
	// slices, chunk texts), cut at a UTF-8 boundary. Default 64 KiB, cap
	// 16 MiB.
	MaxBytes int
	// TimeLimit bounds the operation's wall time. Default 10s, cap 5m.
	TimeLimit time.Duration
}

type limitsJSON struct {
	MaxResults  int   `json:"max_results,omitempty"`
	MaxBytes    int   `json:"max_bytes,omitempty"`
	TimeLimitMS int64 `json:"time_limit_ms,omitempty"`
}

// MarshalJSON encodes l as {"max_results","max_bytes","time_limit_ms"}.
func (l Limits) MarshalJSON() ([]byte, error) {
	return json.Marshal(limitsJSON{l.MaxResults, l.MaxBytes, budget.Millis(l.TimeLimit)})
}

// UnmarshalJSON decodes the form written by MarshalJSON.
func (l *Limits) UnmarshalJSON(b []byte) error {
	var j limitsJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*l = Limits{j.MaxResults, j.MaxBytes, budget.FromMillis(j.TimeLimitMS)}
	return nil
}

// Resolve returns l with defaults filled in, or an invalid_limit error.
func (l Limits) Resolve() (Limits, error) {
	// unit scales the value and the cap in the error's detail to the
	// limit's JSON unit (milliseconds for time_limit_ms).
	check := func(name string, v, def, max, unit int64) (int64, error) {
		switch {
		case v < 0:
			return 0, newErr(KindInvalidLimit, "negative limit").With("limit", name).With("value", v/unit)
		case v > max:
			return 0, newErr(KindInvalidLimit, "limit above hard cap").With("limit", name).With("value", v/unit).With("max", max/unit)
		case v == 0:
			return def, nil
		}
		return v, nil
	}
	r, err := check("max_results", int64(l.MaxResults), DefaultMaxResults, MaxMaxResults, 1)
	if err != nil {
		return Limits{}, err
	}
	b, err := check("max_bytes", int64(l.MaxBytes), DefaultMaxBytes, MaxMaxBytes, 1)
	if err != nil {
		return Limits{}, err
	}
	t, err := check("time_limit_ms", int64(l.TimeLimit), int64(DefaultTimeLimit), int64(MaxTimeLimit), int64(time.Millisecond))
	if err != nil {
		return Limits{}, err
	}
	return Limits{MaxResults: int(r), MaxBytes: int(b), TimeLimit: time.Duration(t)}, nil
}

// Result is the outcome of one operation.
type Result struct {
	// Value is the operation's value; its type depends on the operation
	// (Span, Metadata, []Match, []Chunk, []MapItem or int64).
	Value any `json:"value"`
	// Truncated reports that a limit cut the value short.
	Truncated bool `json:"truncated"`
	// Accounting reports the work done.
	Accounting Accounting `json:"accounting"`
}

// Accounting reports the work one operation did.
type Accounting struct {
	// BytesInspected counts bytes of the text the operation read.
	BytesInspected int64 `json:"bytes_inspected"`
	// ItemsInspected counts the units the operation examined: matching
	// lines for search, chunks for partition, lines for map and count.
	ItemsInspected int64 `json:"items_inspected"`
	// BytesReturned counts the text bytes in Value (what MaxBytes bounds).
	BytesReturned int64 `json:"bytes_returned"`
	// ElapsedMS is the wall time in whole milliseconds.
	ElapsedMS int64 `json:"elapsed_ms"`
	// Elapsed is the wall time at full precision. It is not serialized.
	Elapsed time.Duration `json:"-"`
}

// scanWindow is how many bytes a scan processes between checks of the
// context, the time limit and page eviction.
const scanWindow = 8 << 20

// op carries the state shared by one running operation.
type op struct {
	ctx       context.Context
	lim       Limits
	begin     time.Time
	deadline  time.Time
	acc       Accounting
	e         *entry
	nextCheck int // scan position of the next check
	evicted   int // scan position up to which pages were released
}

func newOp(ctx context.Context, e *entry, lim Limits) (*op, error) {
	l, err := lim.Resolve()
	if err != nil {
		return nil, err
	}
	now := time.Now()
	o := &op{ctx: ctx, lim: l, begin: now, deadline: now.Add(l.TimeLimit), e: e, nextCheck: scanWindow}
	if err := o.check(); err != nil {
		return nil, err
	}
	return o, nil
}

// check reports cancellation or an exceeded time limit.
func (o *op) check() error {
	if err := o.ctx.Err(); err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return fault.Wrap(err, fault.PhaseContext, budget.KindTimeLimit, "context deadline exceeded").
				With("bytes_inspected", o.acc.BytesInspected)
		}
		return fault.Wrap(err, fault.PhaseContext, fault.KindCancelled, "cancelled").
			With("bytes_inspected", o.acc.BytesInspected)
	}
	if time.Now().After(o.deadline) {
		return newErr(budget.KindTimeLimit, "time limit exceeded").
			With("time_limit_ms", budget.Millis(o.lim.TimeLimit)).
			With("bytes_inspected", o.acc.BytesInspected)
	}
	return nil
}

// progress is called by scans with their current position in the entry's
// data. Every scanWindow bytes it checks the context and time limit and lets
// the backing release pages already scanned.
func (o *op) progress(pos int) error {
	if pos < o.nextCheck {
		return nil
	}
	o.nextCheck = pos + scanWindow
	o.e.back.release(o.e.data[o.evicted:pos])
	o.evicted = pos
	return o.check()
}

// result finishes the operation.
func (o *op) result(v any, truncated bool) Result {
	o.acc.Elapsed = time.Since(o.begin)
	o.acc.ElapsedMS = o.acc.Elapsed.Milliseconds()
	return Result{Value: v, Truncated: truncated, Accounting: o.acc}
}
