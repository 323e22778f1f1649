package corpus

import (
	"bytes"
	"os"
	"regexp"
	"testing"

	"github.com/coregx/coregex"
	re2 "github.com/wasilibs/go-re2"
)

// engineSize is how much of the benchmark text the engine comparison
// searches (Go regexp needs seconds per shape on more).
const engineSize = 32 << 20

type findAller interface {
	FindAllIndex(b []byte, n int) [][]int
}

// countEngine counts the lines of text holding a match of re, the way
// Search runs an engine: FindAllIndex over 1 MiB windows of whole lines.
func countEngine(re findAller, text []byte) int {
	n := 0
	for pos := 0; pos < len(text); {
		we := min(len(text), pos+regexWindow)
		if we < len(text) {
			we = pos + bytes.LastIndexByte(text[pos:we], '\n') + 1
		}
		w := text[pos:we]
		next := 0
		for _, loc := range re.FindAllIndex(w, -1) {
			if loc[0] < next || loc[0] == len(w) {
				continue
			}
			next = len(w)
			if j := bytes.IndexByte(w[loc[0]:], '\n'); j >= 0 {
				next = loc[0] + j + 1
			}
			n++
		}
		pos = we
	}
	return n
}

// BenchmarkRegexEngines compares the candidate engines on the regex shapes
// (docs/corpus.md has the table): Go regexp, go-re2 and coregex.
func BenchmarkRegexEngines(b *testing.B) {
	data, err := os.ReadFile(benchFile(b))
	if err != nil {
		b.Fatal(err)
	}
	text := data[:engineSize]
	engines := []struct {
		name    string
		compile func(string) (findAller, error)
	}{
		{"go", func(p string) (findAller, error) { return regexp.Compile(p) }},
		{"re2", func(p string) (findAller, error) { return re2.Compile(p) }},
		{"coregex", func(p string) (findAller, error) { return coregex.Compile(p) }},
	}
	for _, sh := range regexShapes {
		for _, en := range engines {
			b.Run(sh.name+"/"+en.name, func(b *testing.B) {
				re, err := en.compile("(?m)" + sh.pattern)
				if err != nil {
					b.Fatal(err)
				}
				b.SetBytes(engineSize)
				var n int
				for b.Loop() {
					n = countEngine(re, text)
				}
				b.ReportMetric(float64(n), "lines")
			})
		}
	}
}
