package corpus

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/fault"
)

// hugeLine is one 2 MiB line (no '\n') holding an invalid byte, so that
// the regex runs on Go regexp.
var hugeLine = "\xff" + strings.Repeat("abcdefghivy", 200_000)

// TestRegexHugeLineHonoursTimeLimit: a regex search over one huge line
// runs the engine over the whole line in one call (reader.lines returns the
// whole line when a window holds no '\n') and never checks the time limit:
// a list search runs far past TimeLimit and succeeds.
func TestRegexHugeLineHonoursTimeLimit(t *testing.T) {
	s, h := newTestStore(t, hugeLine)
	lim := Limits{TimeLimit: time.Millisecond}
	start := time.Now()
	r, err := s.Search(context.Background(), h, `[a-q][^u-z]{13}[xy]`, SearchOptions{Regex: true}, lim)
	el := time.Since(start)
	if fault.KindOf(err) != budget.KindTimeLimit {
		t.Fatalf("search ran %v under a %v time limit and returned %d matches, err %v; want time_limit_exceeded",
			el, lim.TimeLimit, len(r.Value.([]Match)), err)
	}
}

// TestRegexHugeLineHonoursCancel: cancelling ctx does not stop it either.
func TestRegexHugeLineHonoursCancel(t *testing.T) {
	s, h := newTestStore(t, hugeLine)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(time.Millisecond, cancel)
	start := time.Now()
	_, err := s.Search(ctx, h, `[a-q][^u-z]{13}[xy]`, SearchOptions{Regex: true}, Limits{})
	el := time.Since(start)
	if fault.KindOf(err) != fault.KindCancelled {
		t.Fatalf("search cancelled after 50ms ran %v and returned err %v; want cancelled", el, err)
	}
}
