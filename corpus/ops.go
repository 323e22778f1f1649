package corpus

import (
	"bytes"
	"context"
	"unicode/utf8"
)

// Peek selectors.
const (
	PeekHead     = "head"
	PeekTail     = "tail"
	PeekMetadata = "metadata"
)

// Map transforms.
const (
	TransformIdentity  = "identity"
	TransformLowercase = "lowercase"
	TransformUppercase = "uppercase"
	TransformLength    = "length"
)

// Reducers.
const (
	ReducerCount     = "count"
	ReducerByteCount = "byte_count"
)

// Span is the value of head, tail and slice: Length bytes of text starting
// at byte offset Start.
type Span struct {
	Start  int64  `json:"start"`
	Length int64  `json:"length"`
	Text   string `json:"text"`
}

// MapItem is one transformed line: Index is the 1-based line number, Value
// a string (identity, lowercase, uppercase) or an int64 (length).
type MapItem struct {
	Index int64 `json:"index"`
	Value any   `json:"value"`
}

// run acquires h, builds the op and runs f (under guard: a truncated
// mapped file is context_changed).
func (s *Store) run(ctx context.Context, h Handle, lim Limits, f func(*op) (Result, error)) (Result, error) {
	e, err := s.acquire(h)
	if err != nil {
		return Result{}, err
	}
	defer s.unref(e.back)
	o, err := newOp(ctx, e, lim)
	if err != nil {
		return Result{}, err
	}
	return guard(e, func() (Result, error) { return f(o) })
}

// Head returns the first n bytes of h (fewer if the n-th byte is inside a
// character). n == 0 means as much as MaxBytes allows; n < 0 fails with Kind
// out_of_range. The result is truncated when MaxBytes cut it.
func (s *Store) Head(ctx context.Context, h Handle, n int64, lim Limits) (Result, error) {
	return s.run(ctx, h, lim, func(o *op) (Result, error) {
		if n < 0 {
			return Result{}, newErr(KindOutOfRange, "negative count").With("count", n)
		}
		data := o.e.data
		want := int64(len(data))
		if n > 0 && n < want {
			want = n
		}
		end := snapBack(data, int(want))
		text := cutText(data[:end], o.lim.MaxBytes)
		return o.span(0, text, len(text) < end), nil
	})
}

// Tail returns the last n bytes of h (fewer if the first would be inside a
// character: the start moves forward to the next character). n == 0 means as
// much as MaxBytes allows; n < 0 fails with Kind out_of_range. When MaxBytes
// cuts, the end of the text is kept and the result is truncated.
func (s *Store) Tail(ctx context.Context, h Handle, n int64, lim Limits) (Result, error) {
	return s.run(ctx, h, lim, func(o *op) (Result, error) {
		if n < 0 {
			return Result{}, newErr(KindOutOfRange, "negative count").With("count", n)
		}
		data := o.e.data
		size := int64(len(data))
		want := size
		if n > 0 && n < size {
			want = n
		}
		start := snapForward(data, int(size-want))
		truncated := false
		if size-int64(start) > int64(o.lim.MaxBytes) {
			start = snapForward(data, int(size)-o.lim.MaxBytes)
			truncated = true
		}
		return o.span(start, data[start:], truncated), nil
	})
}

// Slice returns length bytes of h starting at start; length 0 means through
// the end. Both ends snap back to the first byte of the character containing
// them. A start beyond the end, or a negative start or length, fails with
// Kind out_of_range. MaxBytes cuts the text (truncated).
func (s *Store) Slice(ctx context.Context, h Handle, start, length int64, lim Limits) (Result, error) {
	return s.run(ctx, h, lim, func(o *op) (Result, error) {
		if length == 0 {
			length = int64(len(o.e.data))
		}
		lo, hi, err := clampRange(o.e.data, start, length)
		if err != nil {
			return Result{}, err
		}
		text := cutText(o.e.data[lo:hi], o.lim.MaxBytes)
		return o.span(lo, text, len(text) < hi-lo), nil
	})
}

func (o *op) span(start int, text []byte, truncated bool) Result {
	o.acc.BytesInspected += int64(len(text))
	o.acc.ItemsInspected++
	o.acc.BytesReturned += int64(len(text))
	return o.result(Span{Start: int64(start), Length: int64(len(text)), Text: string(text)}, truncated)
}

// Peek runs Head, Tail or Metadata according to selector ("head", "tail",
// "metadata"); other selectors fail with Kind invalid_action.
func (s *Store) Peek(ctx context.Context, h Handle, selector string, n int64, lim Limits) (Result, error) {
	switch selector {
	case PeekHead:
		return s.Head(ctx, h, n, lim)
	case PeekTail:
		return s.Tail(ctx, h, n, lim)
	case PeekMetadata, "":
		return s.run(ctx, h, lim, func(o *op) (Result, error) {
			m, err := o.metadata()
			if err != nil {
				return Result{}, err
			}
			return o.result(m, false), nil
		})
	}
	return Result{}, newErr(KindInvalidAction, "unknown peek selector").With("selector", selector)
}

// Map applies transform to each line of h, in order, returning []MapItem.
// Transforms: identity, lowercase, uppercase (strings), length (bytes, as
// int64); others fail with Kind invalid_transform. MaxResults bounds the
// lines and MaxBytes the total string bytes (the last string is cut at a
// UTF-8 boundary); either makes the result truncated.
func (s *Store) Map(ctx context.Context, h Handle, transform string, lim Limits) (Result, error) {
	var f func([]byte) []byte
	switch transform {
	case TransformIdentity:
	case TransformLowercase:
		f = bytes.ToLower
	case TransformUppercase:
		f = bytes.ToUpper
	case TransformLength:
	default:
		return Result{}, newErr(KindInvalidTransform, "unknown transform").With("transform", transform)
	}
	return s.run(ctx, h, lim, func(o *op) (Result, error) {
		data := o.e.data
		items := []MapItem{}
		budget := o.lim.MaxBytes
		truncated := false
		for pos, line := 0, int64(1); pos < len(data); line++ {
			if err := o.progress(pos); err != nil {
				return Result{}, err
			}
			end := len(data)
			if i := bytes.IndexByte(data[pos:], '\n'); i >= 0 {
				end = pos + i
			}
			if len(items) == o.lim.MaxResults {
				truncated = true
				break
			}
			o.acc.ItemsInspected++
			o.acc.BytesInspected += int64(end + 1 - pos)
			text := data[pos:end]
			pos = end + 1
			if transform == TransformLength {
				items = append(items, MapItem{Index: line, Value: int64(len(text))})
				continue
			}
			if f != nil {
				// A case mapping turns a character of at most 4 bytes into
				// one of at least 1, so 4*budget input bytes fill the budget;
				// cutting first keeps a huge line from being copied whole.
				if in := 4*budget + utf8.UTFMax; len(text) > in {
					text = cutText(text, in)
					truncated = true
				}
				text = f(text)
			}
			if len(text) > budget {
				text = cutText(text, budget)
				truncated = true
			}
			budget -= len(text)
			o.acc.BytesReturned += int64(len(text))
			items = append(items, MapItem{Index: line, Value: string(text)})
			if truncated {
				break
			}
		}
		o.acc.BytesInspected = min(o.acc.BytesInspected, int64(len(data)))
		return o.result(items, truncated), nil
	})
}

// Reduce folds h with reducer: count (lines) or byte_count (bytes), both as
// int64; others fail with Kind invalid_reducer.
func (s *Store) Reduce(ctx context.Context, h Handle, reducer string, lim Limits) (Result, error) {
	switch reducer {
	case ReducerCount, ReducerByteCount:
	default:
		return Result{}, newErr(KindInvalidReducer, "unknown reducer").With("reducer", reducer)
	}
	return s.run(ctx, h, lim, func(o *op) (Result, error) {
		if reducer == ReducerByteCount {
			return o.result(int64(len(o.e.data)), false), nil
		}
		n, err := o.lineCount()
		if err != nil {
			return Result{}, err
		}
		o.acc.ItemsInspected = n
		return o.result(n, false), nil
	})
}
