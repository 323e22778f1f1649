package corpus

import (
	"context"
	"os"
	"sync"
	"testing"

	"github.com/rlm-go/rlm/corpus/internal/textgen"
)

// benchSize is the size of the generated benchmark text.
const benchSize = 256 << 20

var bench struct {
	once sync.Once
	path string
	err  error
}

// benchFile generates the benchmark text into a temp file once per process
// and returns its path. TestMain removes it.
func benchFile(b *testing.B) string {
	bench.once.Do(func() {
		f, err := os.CreateTemp("", "corpus-bench-*.txt")
		if err != nil {
			bench.err = err
			return
		}
		bench.path = f.Name()
		bench.err = textgen.Generate(f, benchSize, 1)
		if err := f.Close(); bench.err == nil {
			bench.err = err
		}
	})
	if bench.err != nil {
		b.Fatal(bench.err)
	}
	return bench.path
}

func removeBenchFile() {
	if bench.path != "" {
		os.Remove(bench.path)
	}
}

// benchStore maps the benchmark file into a new store.
func benchStore(b *testing.B) (*Store, Handle) {
	s := NewStore()
	b.Cleanup(func() { s.Close() })
	h, err := s.AddFile(context.Background(), benchFile(b))
	if err != nil {
		b.Fatal(err)
	}
	return s, h
}

func BenchmarkSearchLiteral(b *testing.B) {
	s, h := benchStore(b)
	ctx := context.Background()
	lim := Limits{MaxResults: MaxMaxResults, MaxBytes: MaxMaxBytes, TimeLimit: MaxTimeLimit}
	b.SetBytes(benchSize)
	for b.Loop() {
		r, err := s.Search(ctx, h, textgen.Needle, SearchOptions{}, lim)
		if err != nil || r.Truncated {
			b.Fatal(err, r.Truncated)
		}
	}
}

func BenchmarkSearchCount(b *testing.B) {
	s, h := benchStore(b)
	ctx := context.Background()
	b.SetBytes(benchSize)
	for b.Loop() {
		if _, err := s.Search(ctx, h, textgen.Needle, SearchOptions{CountOnly: true}, Limits{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSearchCountFrequent(b *testing.B) {
	s, h := benchStore(b)
	ctx := context.Background()
	b.SetBytes(benchSize)
	for b.Loop() {
		if _, err := s.Search(ctx, h, "context", SearchOptions{CountOnly: true}, Limits{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPartitionBytes(b *testing.B) {
	s, h := benchStore(b)
	ctx := context.Background()
	opt := PartitionOptions{Strategy: StrategyBytes, Size: 64 << 10}
	b.SetBytes(benchSize)
	for b.Loop() {
		r, err := s.Partition(ctx, h, opt, Limits{MaxResults: MaxMaxResults})
		if err != nil || r.Truncated {
			b.Fatal(err, r.Truncated)
		}
	}
}

func BenchmarkPartitionLines(b *testing.B) {
	s, h := benchStore(b)
	ctx := context.Background()
	opt := PartitionOptions{Strategy: StrategyLines, Size: 1000}
	b.SetBytes(benchSize)
	for b.Loop() {
		r, err := s.Partition(ctx, h, opt, Limits{MaxResults: MaxMaxResults})
		if err != nil || r.Truncated {
			b.Fatal(err, r.Truncated)
		}
	}
}

// regexShapes are the regex shapes of issue 19, on the generated text:
// a required literal, an alternation without one, character classes, and
// case-insensitive forms.
var regexShapes = []struct{ name, pattern string }{
	{"literal", `zyzzyva [a-z]+`},
	{"alternation", `(model|window) [a-z]+e `},
	{"classes", `[a-z]{8} [a-z]{8}`},
	{"fold", `(?i)ZYZZYVA`},
	{"fold-alternation", `(?i)(MODEL|WINDOW) [a-z]+E `},
}

func BenchmarkSearchRegexCount(b *testing.B) {
	s, h := benchStore(b)
	ctx := context.Background()
	for _, sh := range regexShapes {
		b.Run(sh.name, func(b *testing.B) {
			b.SetBytes(benchSize)
			for b.Loop() {
				if _, err := s.Search(ctx, h, sh.pattern, SearchOptions{Regex: true, CountOnly: true}, Limits{TimeLimit: MaxTimeLimit}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
