package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/internal/exampletest"
)

// TestQuickstartRuns builds the example and runs it as a user would: no
// network, no key, the recorded answer and its usage on stdout.
func TestQuickstartRuns(t *testing.T) {
	exampletest.Contains(t, exampletest.Run(t), "payments failed first", "2 turns, 2 model calls, 2520 tokens")
}

// TestReadmeShowsThisProgram keeps the README's Go snippet exactly this
// program, from "package main" on, so the snippet always compiles.
func TestReadmeShowsThisProgram(t *testing.T) {
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(src), "package main\n")
	if i < 0 {
		t.Fatal("main.go has no package clause")
	}
	block := "```go\n" + string(src[i:]) + "```\n"
	if !strings.Contains(string(readme), block) {
		t.Fatalf("README.md does not contain examples/quickstart/main.go (from \"package main\") as a ```go block; paste it again")
	}
}
