package sre

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// genLog builds a deterministic log of about size bytes: timestamped lines
// of several levels, user ids, durations, a little non-ASCII text.
func genLog(size int) string {
	r := rand.New(rand.NewPCG(1, 2))
	levels := []string{"INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR"}
	msgs := []string{
		"GET /api/v1/items?id=%d 200 %dms",
		"POST /api/v1/orders 201 %dms user_%d",
		"cache miss key=item:%d took %dms",
		"connection timeout after %ds to 10.0.%d.1",
		"Timeout waiting for lock %d (%dms)",
		"café order %d delivered in %ds",
		"retry %d of 5 for job %d",
		"日本語 message %d ok %d",
	}
	var b strings.Builder
	b.Grow(size + 200)
	for b.Len() < size {
		fmt.Fprintf(&b, "2024-%02d-%02d %02d:%02d:%02d.%03d %s [worker-%d] ",
			1+r.IntN(12), 1+r.IntN(28), r.IntN(24), r.IntN(60), r.IntN(60), r.IntN(1000),
			levels[r.IntN(len(levels))], r.IntN(16))
		fmt.Fprintf(&b, msgs[r.IntN(len(msgs))], r.IntN(100000), r.IntN(1000))
		fmt.Fprintf(&b, " user_%d\n", r.IntN(5000))
	}
	return b.String()
}

var (
	benchLogOnce sync.Once
	benchLog     string
)

func logText() string {
	benchLogOnce.Do(func() { benchLog = genLog(50 << 20) })
	return benchLog
}

// benchPatterns pairs each Python pattern with the Go regexp syntax that
// finds the same matches on the generated log.
var benchPatterns = []struct{ name, py, goRE string }{
	{"literal", `ERROR`, `ERROR`},
	{"date", `\d{4}-\d\d-\d\d`, `\d{4}-\d\d-\d\d`},
	{"ignorecase", `(?i)timeout`, `(?i)timeout`},
	{"user_id", `user_(\d+)`, `user_(\d+)`},
	{"line_start", `(?m)^\S+ (\w+)`, `(?m)^\S+ (\w+)`},
	{"alternation", `ERROR|WARN|DEBUG`, `ERROR|WARN|DEBUG`},
	{"duration", `(\d+)ms`, `(\d+)ms`},
	{"level_word", `\b(ERROR|WARN)\b`, `\b(ERROR|WARN)\b`},
	{"ip", `\d+\.\d+\.\d+\.\d+`, `\d+\.\d+\.\d+\.\d+`},
	{"not_found", `fatal error`, `fatal error`},
}

func BenchmarkFindAll(b *testing.B) {
	text := logText()
	for _, bp := range benchPatterns {
		p, err := Compile(bp.py, 0)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("sre/"+bp.name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				n := 0
				err := p.FindAll(context.Background(), Str(text), 0, len(text), Limits{}, func(*Match) error {
					n++
					return nil
				})
				if err != nil {
					b.Fatal(err)
				}
			}
		})
		re := regexp.MustCompile(bp.goRE)
		b.Run("goregexp/"+bp.name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				_ = re.FindAllStringSubmatchIndex(text, -1)
			}
		})
	}
}

// TestBenchPatternsAgree checks, on a slice of the benchmark log, that
// each benchmark pattern finds what its Go regexp counterpart finds, so
// the comparison measures the same work.
func TestBenchPatternsAgree(t *testing.T) {
	text := genLog(1 << 18)
	for _, bp := range benchPatterns {
		p, err := Compile(bp.py, 0)
		if err != nil {
			t.Fatal(err)
		}
		var got [][]int
		err = p.FindAll(context.Background(), Str(text), 0, len(text), Limits{}, func(m *Match) error {
			got = append(got, append([]int(nil), m.Spans...))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		want := regexp.MustCompile(bp.goRE).FindAllStringSubmatchIndex(text, -1)
		if len(got) != len(want) {
			t.Errorf("%s: %d matches, Go regexp %d", bp.name, len(got), len(want))
			continue
		}
		for i := range got {
			if fmt.Sprint(got[i]) != fmt.Sprint(want[i]) {
				t.Errorf("%s: match %d = %v, Go regexp %v", bp.name, i, got[i], want[i])
				break
			}
		}
	}
}

func BenchmarkCompile(b *testing.B) {
	for b.Loop() {
		if _, err := Compile(`(?P<date>\d{4}-\d\d-\d\d) (?P<time>[\d:.]+) (?P<level>[A-Z]+) \[(\w+-\d+)\] (.*)`, 0); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSub(b *testing.B) {
	text := logText()[:8<<20]
	p, _ := Compile(`user_(\d+)`, 0)
	tmpl, _ := p.ParseTemplate(`u<\1>`)
	b.SetBytes(int64(len(text)))
	var dst []byte
	for b.Loop() {
		var err error
		dst, _, err = p.Sub(context.Background(), dst[:0], Str(text), tmpl, 0, Limits{})
		if err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkBacktrack(b *testing.B) {
	p, _ := Compile(`(a|b|ab)*c`, 0)
	text := strings.Repeat("ab", 5000)
	for b.Loop() {
		if _, err := p.Search(context.Background(), Str(text), 0, len(text), Limits{}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestThroughput prints MB/s per CPU second for the benchmark patterns,
// ours and Go regexp's, over the generated 50 MB log. It measures process
// CPU time, so a loaded machine disturbs it less than wall time. It runs
// only with SRE_THROUGHPUT=1:
//
//	SRE_THROUGHPUT=1 go test -run TestThroughput -v ./repl/internal/python/sre/
func TestThroughput(t *testing.T) {
	if os.Getenv("SRE_THROUGHPUT") == "" {
		t.Skip("set SRE_THROUGHPUT=1 to measure")
	}
	text := logText()
	mb := float64(len(text)) / (1 << 20)
	only := os.Getenv("SRE_THROUGHPUT_ONLY")
	t.Logf("%-12s %10s %10s %8s %8s", "pattern", "sre MB/s", "Go MB/s", "ratio", "matches")
	for _, bp := range benchPatterns {
		if only != "" && only != bp.name {
			continue
		}
		p, _ := Compile(bp.py, 0)
		n := 0
		ours := cpuTime(func() {
			n = 0
			_ = p.FindAll(context.Background(), Str(text), 0, len(text), Limits{}, func(*Match) error { n++; return nil })
		})
		re := regexp.MustCompile(bp.goRE)
		theirs := 0.0
		if os.Getenv("SRE_THROUGHPUT_NOGO") == "" {
			theirs = cpuTime(func() { _ = re.FindAllStringSubmatchIndex(text, -1) })
		}
		t.Logf("%-12s %10.1f %10.1f %8.1f %8d", bp.name, mb/ours, mb/theirs, theirs/ours, n)
	}
}

func cpuTime(f func()) float64 {
	runtime.GC()
	var a, b syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &a)
	f()
	syscall.Getrusage(syscall.RUSAGE_SELF, &b)
	tv := func(x syscall.Timeval) float64 { return float64(x.Sec) + float64(x.Usec)/1e6 }
	return tv(b.Utime) - tv(a.Utime) + tv(b.Stime) - tv(a.Stime)
}
