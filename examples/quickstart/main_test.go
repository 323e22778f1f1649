package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestQuickstartRuns builds the example and runs it as a user would: no
// network, no key, the recorded answer and its usage on stdout.
func TestQuickstartRuns(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "quickstart")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "OPENAI_API_KEY=") // the cassette needs no key
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("quickstart: %v\n%s", err, out)
	}
	for _, want := range []string{"payments failed first", "2 turns, 2 model calls, 2520 tokens"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
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
