package corpus

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/fault"
)

func TestHeadTailSlice(t *testing.T) {
	ctx := context.Background()
	text := "añb€c\nxyz" // ñ: 2 bytes at 1; €: 3 bytes at 4; len 12
	type call func(s *Store, h Handle, lim Limits) (Result, error)
	head := func(n int64) call {
		return func(s *Store, h Handle, lim Limits) (Result, error) { return s.Head(ctx, h, n, lim) }
	}
	tail := func(n int64) call {
		return func(s *Store, h Handle, lim Limits) (Result, error) { return s.Tail(ctx, h, n, lim) }
	}
	slice := func(start, length int64) call {
		return func(s *Store, h Handle, lim Limits) (Result, error) { return s.Slice(ctx, h, start, length, lim) }
	}
	tests := []struct {
		name      string
		f         call
		lim       Limits
		want      Span
		truncated bool
		kind      string
	}{
		{"head all", head(0), Limits{}, Span{0, 12, text}, false, ""},
		{"head 2 drops partial ñ", head(2), Limits{}, Span{0, 1, "a"}, false, ""},
		{"head 3", head(3), Limits{}, Span{0, 3, "añ"}, false, ""},
		{"head beyond", head(100), Limits{}, Span{0, 12, text}, false, ""},
		{"head cut by max_bytes", head(100), Limits{MaxBytes: 5}, Span{0, 4, "añb"}, true, ""},
		{"head negative", head(-1), Limits{}, Span{}, false, string(KindOutOfRange)},
		{"tail 3", tail(3), Limits{}, Span{9, 3, "xyz"}, false, ""},
		{"tail 8", tail(8), Limits{}, Span{4, 8, "€c\nxyz"}, false, ""},
		{"tail 7 drops partial €", tail(7), Limits{}, Span{7, 5, "c\nxyz"}, false, ""},
		{"tail cut by max_bytes", tail(0), Limits{MaxBytes: 6}, Span{7, 5, "c\nxyz"}, true, ""},
		{"tail negative", tail(-2), Limits{}, Span{}, false, string(KindOutOfRange)},
		{"slice inside € snaps back", slice(5, 2), Limits{}, Span{4, 3, "€"}, false, ""},
		{"slice to end", slice(7, 0), Limits{}, Span{7, 5, "c\nxyz"}, false, ""},
		{"slice clipped", slice(10, 99), Limits{}, Span{10, 2, "yz"}, false, ""},
		{"slice empty at end", slice(12, 5), Limits{}, Span{12, 0, ""}, false, ""},
		{"slice past end", slice(13, 1), Limits{}, Span{}, false, string(KindOutOfRange)},
		{"slice negative", slice(-1, 1), Limits{}, Span{}, false, string(KindOutOfRange)},
		{"slice cut by max_bytes", slice(0, 12), Limits{MaxBytes: 6}, Span{0, 4, "añb"}, true, ""},
		{"invalid limit", slice(0, 1), Limits{MaxBytes: -1}, Span{}, false, string(KindInvalidLimit)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, h := newTestStore(t, text)
			r, err := tt.f(s, h, tt.lim)
			if tt.kind != "" {
				wantKind(t, err, faultKind(tt.kind))
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := r.Value.(Span)
			if got != tt.want || r.Truncated != tt.truncated {
				t.Fatalf("got %+v truncated=%v, want %+v truncated=%v", got, r.Truncated, tt.want, tt.truncated)
			}
			if text[got.Start:got.Start+got.Length] != got.Text {
				t.Fatalf("span does not locate its text")
			}
			if r.Accounting.BytesReturned != got.Length {
				t.Fatalf("bytes_returned = %d", r.Accounting.BytesReturned)
			}
		})
	}
}

func TestPeek(t *testing.T) {
	ctx := context.Background()
	s, h := newTestStore(t, "a\nb\n")
	r, err := s.Peek(ctx, h, PeekMetadata, 0, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if m := r.Value.(Metadata); m.Lines != 2 || m.Bytes != 4 || m.Handle != h {
		t.Fatalf("metadata = %+v", m)
	}
	if r.Accounting.BytesInspected != 4 {
		t.Fatalf("bytes_inspected = %d", r.Accounting.BytesInspected)
	}
	r, err = s.Peek(ctx, h, PeekHead, 1, Limits{})
	if err != nil || r.Value.(Span).Text != "a" {
		t.Fatalf("head = %+v, %v", r, err)
	}
	_, err = s.Peek(ctx, h, "middle", 1, Limits{})
	wantKind(t, err, KindInvalidAction)
}

func TestLimits(t *testing.T) {
	tests := []struct {
		in   Limits
		want Limits
		bad  bool
	}{
		{Limits{}, Limits{DefaultMaxResults, DefaultMaxBytes, DefaultTimeLimit}, false},
		{Limits{1, 2, time.Second}, Limits{1, 2, time.Second}, false},
		{Limits{MaxMaxResults, MaxMaxBytes, MaxTimeLimit}, Limits{MaxMaxResults, MaxMaxBytes, MaxTimeLimit}, false},
		{Limits{MaxResults: -1}, Limits{}, true},
		{Limits{MaxBytes: -1}, Limits{}, true},
		{Limits{TimeLimit: -1}, Limits{}, true},
		{Limits{MaxResults: MaxMaxResults + 1}, Limits{}, true},
		{Limits{MaxBytes: MaxMaxBytes + 1}, Limits{}, true},
		{Limits{TimeLimit: MaxTimeLimit + 1}, Limits{}, true},
	}
	for _, tt := range tests {
		got, err := tt.in.Resolve()
		if tt.bad {
			wantKind(t, err, KindInvalidLimit)
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("Resolve(%+v) = %+v, %v", tt.in, got, err)
		}
	}
}

func TestMap(t *testing.T) {
	ctx := context.Background()
	text := "Hello\nWÖRLD\n\nçà"
	tests := []struct {
		transform string
		lim       Limits
		want      []MapItem
		truncated bool
		kind      string
	}{
		{TransformIdentity, Limits{}, []MapItem{{1, "Hello"}, {2, "WÖRLD"}, {3, ""}, {4, "çà"}}, false, ""},
		{TransformLowercase, Limits{}, []MapItem{{1, "hello"}, {2, "wörld"}, {3, ""}, {4, "çà"}}, false, ""},
		{TransformUppercase, Limits{}, []MapItem{{1, "HELLO"}, {2, "WÖRLD"}, {3, ""}, {4, "ÇÀ"}}, false, ""},
		{TransformLength, Limits{}, []MapItem{{1, int64(5)}, {2, int64(6)}, {3, int64(0)}, {4, int64(4)}}, false, ""},
		{TransformIdentity, Limits{MaxResults: 2}, []MapItem{{1, "Hello"}, {2, "WÖRLD"}}, true, ""},
		{TransformIdentity, Limits{MaxBytes: 8}, []MapItem{{1, "Hello"}, {2, "WÖ"}}, true, ""},
		{"reverse", Limits{}, nil, false, string(KindInvalidTransform)},
	}
	for _, tt := range tests {
		t.Run(tt.transform, func(t *testing.T) {
			s, h := newTestStore(t, text)
			r, err := s.Map(ctx, h, tt.transform, tt.lim)
			if tt.kind != "" {
				wantKind(t, err, faultKind(tt.kind))
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := r.Value.([]MapItem)
			if len(got) != len(tt.want) || r.Truncated != tt.truncated {
				t.Fatalf("got %v truncated=%v, want %v", got, r.Truncated, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Fatalf("item %d = %v, want %v", i, got[i], tt.want[i])
				}
			}
		})
	}
}

func TestReduce(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		text, reducer string
		want          int64
		kind          string
	}{
		{"a\nb\nc", ReducerCount, 3, ""},
		{"a\nb\n", ReducerCount, 2, ""},
		{"", ReducerCount, 0, ""},
		{"añ\n", ReducerByteCount, 4, ""},
		{"x", "sum", 0, string(KindInvalidReducer)},
	}
	for _, tt := range tests {
		s, h := newTestStore(t, tt.text)
		r, err := s.Reduce(ctx, h, tt.reducer, Limits{})
		if tt.kind != "" {
			wantKind(t, err, faultKind(tt.kind))
			continue
		}
		if err != nil || r.Value.(int64) != tt.want {
			t.Errorf("Reduce(%q, %s) = %v, %v; want %d", tt.text, tt.reducer, r.Value, err, tt.want)
		}
	}
}

// bigText is several scan windows long, so scans check their context and
// time limit part way.
func bigText() string {
	return strings.Repeat("some words on a line\n", 3*scanWindow/21)
}

func TestCancellation(t *testing.T) {
	text := bigText()
	s, h := newTestStore(t, text)
	ops := map[string]func(ctx context.Context, lim Limits) error{
		"search": func(ctx context.Context, lim Limits) error {
			_, err := s.Search(ctx, h, "absent", SearchOptions{}, lim)
			return err
		},
		"search count": func(ctx context.Context, lim Limits) error {
			_, err := s.Search(ctx, h, "words", SearchOptions{CountOnly: true}, lim)
			return err
		},
		"regex": func(ctx context.Context, lim Limits) error {
			_, err := s.Search(ctx, h, "abs+ent", SearchOptions{Regex: true}, lim)
			return err
		},
		"regex count": func(ctx context.Context, lim Limits) error { // in parallel segments
			_, err := s.Search(ctx, h, "abs+ent", SearchOptions{Regex: true, CountOnly: true}, lim)
			return err
		},
		"partition lines": func(ctx context.Context, lim Limits) error {
			_, err := s.Partition(ctx, h, PartitionOptions{Strategy: StrategyLines, Size: 1 << 30}, lim)
			return err
		},
		"reduce": func(ctx context.Context, lim Limits) error {
			_, err := s.Reduce(ctx, h, ReducerCount, lim)
			return err
		},
	}
	for name, f := range ops {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			wantKind(t, f(ctx, Limits{}), fault.KindCancelled)
			// Cancelled part way: the first check passes.
			wantKind(t, f(&errCtx{Context: context.Background(), ok: 1, err: context.Canceled}, Limits{}), fault.KindCancelled)
			wantKind(t, f(&errCtx{Context: context.Background(), ok: 1, err: context.DeadlineExceeded}, Limits{}), budget.KindTimeLimit)
		})
	}
	cctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := s.Map(cctx, h, TransformLength, Limits{})
	wantKind(t, err, fault.KindCancelled)
	// The time limit is checked part way through a scan.
	_, err = s.Search(context.Background(), h, "absent", SearchOptions{}, Limits{TimeLimit: time.Nanosecond})
	wantKind(t, err, budget.KindTimeLimit)
	_, err = s.Search(context.Background(), h, "abs+ent", SearchOptions{Regex: true, CountOnly: true}, Limits{TimeLimit: time.Nanosecond})
	wantKind(t, err, budget.KindTimeLimit)
}
