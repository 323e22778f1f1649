package plan

import (
	"context"
	"sync/atomic"

	"github.com/rlm-go/rlm/corpus"
)

// DefaultMaxValueBytes is the largest value a plan may build when the
// Session sets no max_value_bytes (SessionOptions.MaxValueBytes): 64 MiB,
// measured as the length of a string or, for other values, roughly the
// length of their canonical JSON.
const DefaultMaxValueBytes = 64 << 20

// sizeCheckEvery is how many nodes sizeOf visits between context checks.
const sizeCheckEvery = 1024

// tooLarge is the error of a value over the limit.
func tooLarge(path string, size, limit int) error {
	return execErr(KindValueTooLarge, path, "value exceeds max_value_bytes").
		With("size_at_least", size).With("max_value_bytes", limit).
		WithHint("work on handles and slices of the context (peek, partition, search) instead of building one huge value")
}

// sizeOf returns the approximate encoded size of v (strings count their
// bytes plus quotes, containers their brackets and separators), stopping
// as soon as it exceeds limit: its cost is O(min(nodes, limit)). It checks
// ctx every sizeCheckEvery nodes and counts the nodes visited in work.
func sizeOf(ctx context.Context, v Value, limit int, work *atomic.Int64) (int, error) {
	s := sizer{ctx: ctx, limit: limit}
	err := s.walk(v)
	if work != nil {
		work.Add(int64(s.nodes))
	}
	return s.size, err
}

type sizer struct {
	ctx   context.Context
	limit int
	size  int
	nodes int
}

var errSizeOver = tooLarge("", 0, 0)

func (s *sizer) walk(v Value) error {
	s.nodes++
	if s.nodes%sizeCheckEvery == 0 {
		if err := s.ctx.Err(); err != nil {
			return err
		}
	}
	switch x := v.(type) {
	case nil:
		s.size += 4
	case bool:
		s.size += 5
	case string:
		s.size += len(x) + 2
	case int64, float64:
		s.size += 8
	case corpus.Handle:
		s.size += 24
	case []any:
		s.size += 1 + len(x)
		for _, e := range x {
			if s.size > s.limit {
				return errSizeOver
			}
			if err := s.walk(e); err != nil {
				return err
			}
		}
	case map[string]any:
		s.size += 1 + len(x)
		for k, e := range x {
			s.size += len(k) + 3
			if s.size > s.limit {
				return errSizeOver
			}
			if err := s.walk(e); err != nil {
				return err
			}
		}
	default:
		s.size += 8
	}
	if s.size > s.limit {
		return errSizeOver
	}
	return nil
}

// checkSize fails with Kind value_too_large (detail "path") when v is
// larger than the runner's limit, or with the context's error.
func (r *runner) checkSize(ctx context.Context, v Value, path string) error {
	if s, ok := v.(string); ok && len(s) <= r.maxValue {
		return nil // a string counts its bytes, not the quotes of its JSON (as a model's text does)
	}
	n, err := sizeOf(ctx, v, r.maxValue, &r.work)
	if err == errSizeOver {
		return tooLarge(path, n, r.maxValue)
	}
	if err != nil {
		return annotate(err, "path", path)
	}
	return nil
}
