package tokens

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// calls is a counter that reports how often it counted: its count is the
// byte length, so a memoized count can be told right from wrong.
type calls struct {
	enc    string
	method string
	n      atomic.Int64
}

func (c *calls) Count(s string) int { c.n.Add(1); return len(s) }
func (c *calls) Method() string     { return c.method }
func (c *calls) Encoding() string   { return c.enc }

func count(c Counter, s string) int { return c.Count(s) }

func TestMemo(t *testing.T) {
	long := strings.Repeat("x", MemoMinBytes)
	longer := long + "y"
	short := long[:MemoMinBytes-1]
	tests := []struct {
		name      string
		method    string
		texts     []string
		wantCalls int64
	}{
		{"a text counted again is remembered", MethodExact, []string{long, long, long}, 1},
		{"different texts of one length are told apart", MethodExact, []string{long, strings.Repeat("z", MemoMinBytes), long}, 2},
		{"a grown text is counted", MethodExact, []string{long, longer, long, longer}, 2},
		{"short texts are counted each time", MethodExact, []string{short, short}, 2},
		{"estimates are not memoized", MethodEstimated, []string{long, long}, 2},
	}
	for i, tt := range tests {
		c := &calls{enc: fmt.Sprintf("memo-test-%d", i), method: tt.method}
		for _, s := range tt.texts {
			if got := Memo(c, s, count); got != len(s) {
				t.Errorf("%s: Memo = %d, want %d", tt.name, got, len(s))
			}
		}
		if got := c.n.Load(); got != tt.wantCalls {
			t.Errorf("%s: counted %d times, want %d", tt.name, got, tt.wantCalls)
		}
	}
	// The encoding is part of the key.
	a, b := &calls{enc: "memo-a", method: MethodExact}, &calls{enc: "memo-b", method: MethodExact}
	Memo(a, long, count)
	Memo(b, long, count)
	if a.n.Load() != 1 || b.n.Load() != 1 {
		t.Errorf("two encodings shared a count: %d, %d calls", a.n.Load(), b.n.Load())
	}
}

func TestMemoIsBounded(t *testing.T) {
	c := &calls{enc: "memo-bound", method: MethodExact}
	pad := strings.Repeat("p", MemoMinBytes)
	for i := range 3 * memoShards * memoShardEntries {
		Memo(c, fmt.Sprintf("%s%d", pad, i), count)
	}
	if n, limit := memoLen(), 2*memoShards*memoShardEntries; n > limit {
		t.Errorf("memo holds %d counts, limit %d", n, limit)
	}
	// The most recent texts are still remembered.
	before := c.n.Load()
	Memo(c, fmt.Sprintf("%s%d", pad, 3*memoShards*memoShardEntries-1), count)
	if c.n.Load() != before {
		t.Error("the last text counted was forgotten")
	}
}

func TestMemoConcurrent(t *testing.T) {
	c := &calls{enc: "memo-race", method: MethodExact}
	pad := strings.Repeat("r", MemoMinBytes)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 500 {
				s := fmt.Sprintf("%s%d", pad, (i*7+g)%300)
				if got := Memo(c, s, count); got != len(s) {
					t.Errorf("Memo(%d) = %d, want %d", i, got, len(s))
				}
			}
		})
	}
	wg.Wait()
}
