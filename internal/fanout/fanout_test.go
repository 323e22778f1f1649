package fanout

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

var (
	errCause     = errors.New("cause")
	errCancelled = errors.New("cancelled")
)

// probe records what a Run did: the items started (in the order their
// Start hook ran), the items that ran, the most in flight at once.
type probe struct {
	mu       sync.Mutex
	starts   []int
	declined int // Start calls that returned false
	ran      []int
	inFlight atomic.Int32
	most     atomic.Int32
	done     atomic.Int32
	second   chan struct{}  // closed when item 1 has begun
	hookGo   chan struct{}  // closed when the parent may be cancelled
	workers  map[int64]bool // the goroutines that ran items
}

// goid returns the id of the calling goroutine, from its stack trace's
// first line ("goroutine 123 [running]:").
func goid() int64 {
	var buf [64]byte
	line := string(buf[:runtime.Stack(buf[:], false)])
	line = strings.TrimPrefix(line, "goroutine ")
	id, err := strconv.ParseInt(line[:strings.IndexByte(line, ' ')], 10, 64)
	if err != nil {
		panic(err)
	}
	return id
}

type idxKey struct{}

// itemFunc is an item's behaviour in a case of TestRun.
type itemFunc func(p *probe, ctx context.Context, i int) error

func TestRun(t *testing.T) {
	// yield runs a short item that gives other goroutines a chance.
	yield := func(p *probe, ctx context.Context, i int) error {
		runtime.Gosched()
		return nil
	}
	tests := []struct {
		name string
		n    int
		conc int
		// start sets a Start hook; stopWhenDone makes it start no item
		// once the context is done.
		start, stopWhenDone bool
		// preferCause prefers any error over errCancelled.
		preferCause bool
		// cancel: "before" Run, or "running" once p.hookGo is closed.
		cancel  string
		item    itemFunc
		wantErr error
		// wantRan is the items that ran, in index order; nil: all n.
		wantRan []int
		// wantWorkers is the most goroutines that may run items.
		wantWorkers int
	}{
		{name: "no items", n: 0, conc: 4, start: true, item: yield, wantRan: []int{}, wantWorkers: 0},
		{name: "conc above n", n: 3, conc: 10, start: true, item: yield, wantWorkers: 3},
		{name: "conc 0 means 1", n: 20, conc: 0, start: true, item: yield, wantWorkers: 1},
		{name: "conc below 0 means 1", n: 20, conc: -3, item: yield, wantWorkers: 1},
		{name: "1000 items on 8 workers", n: 1000, conc: 8, start: true, item: yield, wantWorkers: 8},
		{name: "1000 items on 64 workers", n: 1000, conc: 64, item: yield, wantWorkers: 64},
		{
			name: "an error stops the starts", n: 10, conc: 1, start: true,
			item: func(p *probe, ctx context.Context, i int) error {
				if i == 3 {
					return errCause
				}
				return nil
			},
			wantErr: errCause, wantRan: []int{0, 1, 2, 3}, wantWorkers: 1,
		},
		{
			// Item 0 fails first with a cancellation; item 1, cancelled
			// by it, returns its own error after.
			name: "first error wins", n: 2, conc: 2, start: true,
			item: causeAfterCancel, wantErr: errCancelled, wantWorkers: 2,
		},
		{
			name: "Prefer chooses a cause over a cancellation", n: 2, conc: 2, preferCause: true,
			item: causeAfterCancel, wantErr: errCause, wantWorkers: 2,
		},
		{
			name: "Prefer keeps a cause", n: 2, conc: 2, preferCause: true,
			item: func(p *probe, ctx context.Context, i int) error {
				if i == 0 {
					<-p.second
					return errCause
				}
				<-ctx.Done()
				return errCancelled
			},
			wantErr: errCause, wantWorkers: 2,
		},
		{
			// Without a Start hook that looks at it, items start under
			// the cancelled context and the first one's error stops the
			// others.
			name: "parent cancelled before Run", n: 5, conc: 1, cancel: "before",
			item: ctxErr, wantErr: context.Canceled, wantRan: []int{0}, wantWorkers: 1,
		},
		{
			name: "parent cancelled before Run, Start stops", n: 5, conc: 2, cancel: "before", start: true, stopWhenDone: true,
			item: ctxErr, wantErr: nil, wantRan: []int{}, wantWorkers: 0,
		},
		{
			// Items 0 and 1 run until cancelled; their errors stop the
			// starts.
			name: "parent cancelled while running", n: 10, conc: 2, cancel: "running", start: true,
			item: waitCancel, wantErr: context.Canceled, wantRan: []int{0, 1}, wantWorkers: 2,
		},
		{
			name: "parent cancelled while running, Start stops", n: 10, conc: 2, cancel: "running", start: true, stopWhenDone: true,
			item: waitCancel, wantErr: context.Canceled, wantRan: []int{0, 1}, wantWorkers: 2,
		},
		{
			// Items that ignore the cancellation finish; the Start hook
			// starts no more.
			name: "parent cancelled, items ignore it, Start stops", n: 10, conc: 2, cancel: "running", start: true, stopWhenDone: true,
			item: func(p *probe, ctx context.Context, i int) error {
				if i < 2 {
					<-ctx.Done()
				}
				return nil
			},
			wantErr: nil, wantRan: []int{0, 1}, wantWorkers: 2,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &probe{second: make(chan struct{}), hookGo: make(chan struct{}), workers: map[int64]bool{}}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tc.cancel == "before" {
				cancel()
			}
			var pool Pool
			if tc.start || tc.stopWhenDone {
				pool.Start = func(ctx context.Context, i int) (context.Context, bool) {
					if tc.stopWhenDone && ctx.Err() != nil {
						p.mu.Lock()
						p.declined++
						p.mu.Unlock()
						return nil, false
					}
					p.mu.Lock()
					p.starts = append(p.starts, i)
					p.mu.Unlock()
					return context.WithValue(ctx, idxKey{}, i), true
				}
			}
			if tc.preferCause {
				pool.Prefer = func(err, chosen error) bool {
					return chosen == errCancelled && err != errCancelled
				}
			}
			if tc.cancel == "running" {
				go func() {
					<-p.hookGo
					cancel()
				}()
			}
			item := func(ctx context.Context, i int) error {
				if tc.start {
					if got, _ := ctx.Value(idxKey{}).(int); got != i {
						t.Errorf("item %d runs under the context Start gave item %d", i, got)
					}
				}
				in := p.inFlight.Add(1)
				for m := p.most.Load(); in > m && !p.most.CompareAndSwap(m, in); m = p.most.Load() {
				}
				p.mu.Lock()
				p.workers[goid()] = true
				p.ran = append(p.ran, i)
				if len(p.ran) == 2 {
					close(p.hookGo)
				}
				p.mu.Unlock()
				if i == 1 {
					close(p.second)
				}
				err := tc.item(p, ctx, i)
				p.inFlight.Add(-1)
				p.done.Add(1)
				return err
			}
			err := pool.Run(ctx, tc.n, tc.conc, item)
			if err != tc.wantErr {
				t.Errorf("error %v, want %v", err, tc.wantErr)
			}
			if w := len(p.workers); w > tc.wantWorkers {
				t.Errorf("items ran on %d goroutines, want at most %d", w, tc.wantWorkers)
			}
			if m := int(p.most.Load()); m > max(tc.conc, 1) {
				t.Errorf("%d items in flight at once, conc %d", m, tc.conc)
			}
			if d := int(p.done.Load()); d != len(p.ran) {
				t.Errorf("Run returned with %d of %d items started returned", d, len(p.ran))
			}
			want := tc.wantRan
			if want == nil {
				want = make([]int, tc.n)
				for i := range want {
					want[i] = i
				}
			}
			ran := slices.Sorted(slices.Values(p.ran))
			if !slices.Equal(ran, want) {
				t.Errorf("items run %v, want %v", ran, want)
			}
			if p.declined > 1 {
				t.Errorf("Start called %d times after it returned false", p.declined-1)
			}
			if tc.start && !slices.Equal(p.starts, want) {
				t.Errorf("Start called for %v, want %v in that order", p.starts, want)
			}
		})
	}
}

// causeAfterCancel: item 0 returns errCancelled once item 1 has begun;
// item 1 waits for the cancellation, then returns errCause.
func causeAfterCancel(p *probe, ctx context.Context, i int) error {
	if i == 0 {
		<-p.second
		return errCancelled
	}
	<-ctx.Done()
	return errCause
}

// ctxErr returns its context's error.
func ctxErr(p *probe, ctx context.Context, i int) error { return ctx.Err() }

// waitCancel waits for its context to be cancelled and returns its error.
func waitCancel(p *probe, ctx context.Context, i int) error {
	<-ctx.Done()
	return ctx.Err()
}

// TestStartOrder checks that Start is called in index order, never
// concurrently with another Start, before its item runs and on the
// goroutine that runs it.
func TestStartOrder(t *testing.T) {
	const n = 200
	var (
		inStart atomic.Bool
		next    int // the index Start expects; only Start touches it
		began   [n]atomic.Bool
		on      [n]int64 // the goroutine Start(i) ran on
	)
	pool := Pool{Start: func(ctx context.Context, i int) (context.Context, bool) {
		if inStart.Swap(true) {
			t.Error("two Starts at once")
		}
		defer inStart.Store(false)
		if i != next {
			t.Errorf("Start(%d), want Start(%d)", i, next)
		}
		next++
		runtime.Gosched() // a Start that is not alone would show here
		if began[i].Load() {
			t.Errorf("item %d began before its Start", i)
		}
		on[i] = goid()
		return ctx, true
	}}
	err := pool.Run(context.Background(), n, 7, func(ctx context.Context, i int) error {
		began[i].Store(true)
		if g := goid(); g != on[i] {
			t.Errorf("item %d runs on goroutine %d, its Start ran on %d", i, g, on[i])
		}
		runtime.Gosched()
		return nil
	})
	if err != nil || next != n {
		t.Fatalf("err %v, %d starts", err, next)
	}
}

// TestRunReturnsAfterItems checks that Run returns only once every item it
// started has returned, also when one fails while others run on.
func TestRunReturnsAfterItems(t *testing.T) {
	for _, conc := range []int{1, 4, 64} {
		var running atomic.Int32
		release := make(chan struct{})
		err := Pool{}.Run(context.Background(), 100, conc, func(ctx context.Context, i int) error {
			running.Add(1)
			defer running.Add(-1)
			if i == 0 {
				close(release)
				return errCause
			}
			<-release
			// Ignore the cancellation for a while.
			for range 100 {
				runtime.Gosched()
			}
			return nil
		})
		if err != errCause {
			t.Fatalf("conc %d: error %v", conc, err)
		}
		if r := running.Load(); r != 0 {
			t.Fatalf("conc %d: Run returned with %d items running", conc, r)
		}
	}
}
