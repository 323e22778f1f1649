package engine

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/rlm-go/rlm/fault"
)

// TestForEachPrefersCause checks forEach's choice of error: a cause over
// the cancellations it provoked, whichever returned first, else the first
// error; and that items run under a cancelled parent see it.
func TestForEachPrefersCause(t *testing.T) {
	cause := fault.New(fault.PhaseProvider, "http_status", "bad")
	cancelled := func(i int) error {
		return fault.New(fault.PhaseExecute, fault.KindCancelled, "cancelled").With("item", i)
	}
	tests := []struct {
		name string
		// item runs item i; began is closed when item 1 has begun.
		item      func(ctx context.Context, i int, began <-chan struct{}) error
		cancelled bool // the parent is cancelled before forEach
		wantKind  fault.Kind
		wantItem  any // the detail "item" of a cancellation returned
		wantRan   int32
	}{
		{
			name:     "no error",
			item:     func(ctx context.Context, i int, began <-chan struct{}) error { return nil },
			wantKind: "", wantRan: 6,
		},
		{
			name: "the cause returned after the cancellation",
			item: func(ctx context.Context, i int, began <-chan struct{}) error {
				if i == 0 {
					<-began
					return cancelled(0)
				}
				<-ctx.Done()
				return cause
			},
			wantKind: "http_status", wantRan: 2,
		},
		{
			name: "the cause returned first",
			item: func(ctx context.Context, i int, began <-chan struct{}) error {
				if i == 0 {
					<-began
					return cause
				}
				<-ctx.Done()
				return cancelled(1)
			},
			wantKind: "http_status", wantRan: 2,
		},
		{
			name: "cancellations only: the first",
			item: func(ctx context.Context, i int, began <-chan struct{}) error {
				if i == 0 {
					<-began
					return cancelled(0)
				}
				<-ctx.Done()
				return cancelled(1)
			},
			wantKind: fault.KindCancelled, wantItem: 0, wantRan: 2,
		},
		{
			name:      "the parent cancelled before: the items see it",
			cancelled: true,
			item: func(ctx context.Context, i int, began <-chan struct{}) error {
				if i == 0 {
					return fault.FromContext(fault.PhaseExecute, ctx.Err())
				}
				t.Errorf("item %d started after an error", i)
				return nil
			},
			wantKind: fault.KindCancelled, wantRan: 1,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tc.cancelled {
				cancel()
			}
			began := make(chan struct{})
			var ran atomic.Int32
			conc := 2
			if tc.cancelled {
				conc = 1
			}
			err := forEach(ctx, 6, conc, func(ctx context.Context, i int) error {
				ran.Add(1)
				if i == 1 {
					close(began)
				}
				return tc.item(ctx, i, began)
			})
			if fault.KindOf(err) != tc.wantKind {
				t.Fatalf("error %v, want kind %q", err, tc.wantKind)
			}
			if tc.wantItem != nil && fault.As(err).Detail["item"] != tc.wantItem {
				t.Errorf("error %v, want item %v's", err, tc.wantItem)
			}
			if r := ran.Load(); r != tc.wantRan {
				t.Errorf("%d items ran, want %d", r, tc.wantRan)
			}
		})
	}
}
