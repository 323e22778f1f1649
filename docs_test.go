package rlm_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDocsShowExamples keeps every Go snippet of docs/ that names its
// source ("// from ExampleX in PKG/example_test.go" on its first line) an
// exact excerpt of that compiled, tested example (dedented one tab), so
// the docs' code always compiles and runs.
func TestDocsShowExamples(t *testing.T) {
	docs, err := filepath.Glob("docs/*.md")
	if err != nil || len(docs) == 0 {
		t.Fatalf("no docs: %v", err)
	}
	found := 0
	for _, doc := range docs {
		md, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, block := range strings.Split(string(md), "```go\n")[1:] {
			block, _, _ = strings.Cut(block, "```")
			first, rest, _ := strings.Cut(block, "\n")
			name, file, ok := strings.Cut(strings.TrimPrefix(first, "// from "), " in ")
			if !ok || !strings.HasPrefix(first, "// from Example") {
				continue
			}
			found++
			src, err := os.ReadFile(file)
			if err != nil {
				t.Errorf("%s: the snippet names %s: %v", doc, file, err)
				continue
			}
			code := strings.ReplaceAll(string(src), "\n\t", "\n")
			if !strings.Contains(string(src), "\nfunc "+name+"() {\n") || !strings.Contains(code, "\n"+rest) {
				t.Errorf("%s: the snippet from %s in %s is not an excerpt of it; paste it again:\n%s", doc, name, file, rest)
			}
		}
	}
	if found < 7 {
		t.Errorf("docs/ shows %d snippets from examples, want at least 7", found)
	}
}
