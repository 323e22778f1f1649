package translate

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/internal/golden"
)

// txtar files: "-- name --" lines start sections.
func parseTxtar(b []byte) map[string]string {
	out := map[string]string{}
	name := ""
	var cur strings.Builder
	for _, line := range strings.SplitAfter(string(b), "\n") {
		t := strings.TrimRight(line, "\n")
		if strings.HasPrefix(t, "-- ") && strings.HasSuffix(t, " --") && len(t) > 6 {
			if name != "" {
				out[name] = cur.String()
			}
			name = t[3 : len(t)-3]
			cur.Reset()
			continue
		}
		if name != "" {
			cur.WriteString(line)
		}
	}
	if name != "" {
		out[name] = cur.String()
	}
	return out
}

func formatTxtar(input string, res Result, err error) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "-- input.py --\n%s", input)
	if err != nil {
		fmt.Fprintf(&b, "-- error --\n%v\n", err)
		return b.Bytes()
	}
	fmt.Fprintf(&b, "-- output.star --\n%s", res.Source)
	if !strings.HasSuffix(res.Source, "\n") {
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "-- changed --\n%v\n-- linemap --\n", res.Changed)
	for i, l := range res.LineMap {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprint(&b, l)
	}
	b.WriteString("\n")
	return b.Bytes()
}

// TestGolden translates testdata/*.txtar inputs and compares the output,
// Changed flag and line map (UPDATE_GOLDEN=1 rewrites them).
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.txtar")
	if len(files) == 0 {
		t.Fatal("no golden files")
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".txtar")
		t.Run(name, func(t *testing.T) {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			in := parseTxtar(b)["input.py"]
			res, terr := Translate(in)
			got := formatTxtar(in, res, terr)
			if golden.Update() {
				if err := os.WriteFile(f, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if !bytes.Equal(got, b) {
				t.Errorf("%s differs (UPDATE_GOLDEN=1 to rewrite):\n%s", f, got)
			}
			if terr == nil {
				checkResult(t, in, res)
			}
		})
	}
}

// checkResult asserts the invariants of a successful translation.
func checkResult(t *testing.T, in string, res Result) {
	t.Helper()
	if _, err := FileOptions().Parse("out.star", res.Source, 0); err != nil {
		t.Fatalf("output does not parse: %v\n%s", err, res.Source)
	}
	if !res.Changed && res.Source != in {
		t.Fatalf("Changed=false but source differs")
	}
	outLines := strings.Count(res.Source, "\n") + 1
	if strings.HasSuffix(res.Source, "\n") {
		outLines--
	}
	inLines := strings.Count(in, "\n") + 1
	if len(res.LineMap) < outLines {
		t.Fatalf("LineMap has %d entries for %d output lines", len(res.LineMap), outLines)
	}
	prev := 0
	for i, l := range res.LineMap {
		if l < 1 || l > inLines {
			t.Fatalf("LineMap[%d] = %d out of 1..%d", i, l, inLines)
		}
		_ = prev
		prev = l
	}
}
