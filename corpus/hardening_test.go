package corpus

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/fault"
)

// TestMapHugeLineDoesNotCopyIt checks that lowercasing or uppercasing a
// line far longer than MaxBytes allocates about MaxBytes, not the line.
func TestMapHugeLineDoesNotCopyIt(t *testing.T) {
	const lineSize = 32 << 20
	s, h := newTestStore(t, strings.Repeat("A", lineSize)+"\nB\n")
	for _, tr := range []string{TransformLowercase, TransformUppercase} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		r, err := s.Map(context.Background(), h, tr, Limits{MaxBytes: 16})
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		items := r.Value.([]MapItem)
		if len(items) != 1 || len(items[0].Value.(string)) != 16 || !r.Truncated {
			t.Fatalf("%s: items %v truncated %v", tr, items, r.Truncated)
		}
		if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
			t.Errorf("%s allocated %d bytes for a 16-byte budget", tr, got)
		}
	}
}

// TestMapCaseChangesLength checks the cut before a case mapping against
// characters whose mapping changes byte length: the result still fills the
// budget exactly when it can.
func TestMapCaseChangesLength(t *testing.T) {
	// U+212A KELVIN SIGN (3 bytes) lowercases to "k" (1 byte).
	s, h := newTestStore(t, strings.Repeat("\u212a", 100))
	r, err := s.Map(context.Background(), h, TransformLowercase, Limits{MaxBytes: 10})
	if err != nil {
		t.Fatal(err)
	}
	items := r.Value.([]MapItem)
	if len(items) != 1 || items[0].Value != strings.Repeat("k", 10) || !r.Truncated {
		t.Fatalf("got %v truncated %v", items, r.Truncated)
	}
}

// TestRegisterDeadlineKind checks that registrations report an expired
// context deadline with the same kind as operations do
// (time_limit_exceeded), and cancellation as cancelled.
func TestRegisterDeadlineKind(t *testing.T) {
	s, h := newTestStore(t, "abc\n")
	path := writeTemp(t, "abc\n")
	expired, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	cancelled, cancel2 := context.WithCancel(context.Background())
	cancel2()
	for _, c := range []struct {
		ctx  context.Context
		kind string
	}{{expired, string(budget.KindTimeLimit)}, {cancelled, string(fault.KindCancelled)}} {
		_, err := s.AddReader(c.ctx, "r", strings.NewReader("x"))
		wantKind(t, err, faultKind(c.kind))
		_, err = s.AddFile(c.ctx, path)
		wantKind(t, err, faultKind(c.kind))
		_, err = s.Sub(c.ctx, h, 0, 1)
		wantKind(t, err, faultKind(c.kind))
		_, err = s.Search(c.ctx, h, "a", SearchOptions{}, Limits{})
		wantKind(t, err, faultKind(c.kind))
	}
}
