package corpus

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// genReader yields exactly size bytes of log-like lines without holding
// them: line i is "line <i> ..." and every 1000th line holds the needle.
type genReader struct {
	size, done int64
	i          int64
	line       []byte // the current line
	off        int    // bytes of line already read
}

const genNeedle = "needle-in-the-stream"

func (g *genReader) Read(p []byte) (int, error) {
	if g.done >= g.size {
		return 0, io.EOF
	}
	n := 0
	for n < len(p) && g.done < g.size {
		if g.off == len(g.line) {
			g.i++
			g.line = strconv.AppendInt(g.line[:0], g.i, 10)
			g.line = append(g.line, " 2026-12-02T12:00:00Z INFO served request in 12 ms"...)
			if g.i%1000 == 0 {
				g.line = append(g.line, ' ')
				g.line = append(g.line, genNeedle...)
			}
			g.line = append(g.line, '\n')
			g.off = 0
		}
		k := copy(p[n:], g.line[g.off:])
		k = int(min(int64(k), g.size-g.done))
		g.off += k
		n += k
		g.done += int64(k)
	}
	return n, nil
}

// resetPeakRSS resets the peak resident set size to the current one
// (Linux: /proc/self/clear_refs "5"); false where that is not available.
func resetPeakRSS() bool {
	return os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
}

// peakRSS returns VmHWM in bytes (Linux).
func peakRSS() (int64, bool) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			var kb int64
			if _, err := fmt.Sscan(strings.TrimSuffix(strings.TrimSpace(v), " kB"), &kb); err == nil {
				return kb << 10, true
			}
		}
	}
	return 0, false
}

// TestStdinSpoolMemoryBounded (issue 18 item 8): a large input on stdin
// (--context -, Store.AddStream) is spooled to disk and mapped, so neither
// registering it nor scanning it all (search, tail) makes the heap or the
// peak resident set grow with its size. The default input is 96 MiB (over
// the 64 MiB from which scanned pages are released); RLM_BIG_TESTS=1 uses
// 2 GiB, the size of the report.
func TestStdinSpoolMemoryBounded(t *testing.T) {
	size := int64(96<<20) + 12345
	if os.Getenv("RLM_BIG_TESTS") == "1" {
		size = 2 << 30
	}
	const heapBound, rssBound = 16 << 20, 48 << 20
	s := NewStore()
	defer s.Close()
	ctx := context.Background()

	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	hwm := resetPeakRSS()
	rss0, _ := peakRSS()

	gen := &genReader{size: size}
	h, err := s.AddStream(ctx, "stdin", t.TempDir(), gen)
	if err != nil {
		t.Fatal(err)
	}
	md, err := s.Metadata(ctx, h)
	if err != nil {
		t.Fatal(err)
	}
	if md.Bytes != size {
		t.Fatalf("registered %d bytes, want %d", md.Bytes, size)
	}
	r, err := s.Search(ctx, h, genNeedle, SearchOptions{CountOnly: true}, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	// The last line may have been cut before its needle.
	if got, lo, hi := r.Value.(int64), (gen.i-1)/1000, gen.i/1000; got < lo || got > hi {
		t.Errorf("needle count %d, want %d..%d", got, lo, hi)
	}
	tail, err := s.Tail(ctx, h, 200, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if txt := tail.Value.(Span).Text; !bytes.Contains([]byte(txt), []byte("INFO served")) {
		t.Errorf("tail %q", txt)
	}
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > heapBound {
		t.Errorf("allocated %d MiB for a %d MiB input (bound %d MiB)", got>>20, size>>20, heapBound>>20)
	}
	if rss1, ok := peakRSS(); hwm && ok {
		t.Logf("input %d MiB: heap allocated %d KiB, peak RSS grew %d KiB", size>>20, (after.TotalAlloc-before.TotalAlloc)>>10, (rss1-rss0)>>10)
		if rss1-rss0 > rssBound {
			t.Errorf("peak RSS grew by %d MiB for a %d MiB input (bound %d MiB)", (rss1-rss0)>>20, size>>20, rssBound>>20)
		}
	}
}
