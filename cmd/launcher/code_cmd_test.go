package launcher

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func pyBlock(code string) string { return "```python\n" + code + "\n```" }

func TestRunModeCode(t *testing.T) {
	dir := t.TempDir()
	ctxFile := filepath.Join(dir, "in.txt")
	os.WriteFile(ctxFile, []byte("one\ntwo needle\nthree\n"), 0o644)
	cas := writeCassette(t, dir,
		"Let me search.\n"+pyBlock(`hits = context.search("needle")`+"\n"+`print(hits[0]["line"])`),
		pyBlock(`FINAL("line %d" % hits[0]["line"])`))
	out, errOut, code := runCLI(t, "", "run", "--mode", "code", "--context", ctxFile, "--replay", cas, "where is the needle?")
	if code != 0 || strings.TrimSpace(out) != "line 2" {
		t.Fatalf("exit %d: %q %s", code, out, errOut)
	}
	_, errOut, code = runCLI(t, "", "run", "--mode", "lisp", "--context", ctxFile, "--replay", cas, "q")
	if code != 1 || !strings.Contains(errOut, "invalid_config") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
}

func TestChatSessionSaveResume(t *testing.T) {
	dir := t.TempDir()
	ctxFile := filepath.Join(dir, "in.txt")
	os.WriteFile(ctxFile, []byte("a\nb\nc\n"), 0o644)
	cas := writeCassette(t, dir,
		pyBlock(`n = len(context.splitlines())`+"\n"+`FINAL(n)`),
		pyBlock(`FINAL(n * 10 + len(history))`))
	saved := filepath.Join(dir, "session.json")
	out, errOut, code := runCLI(t, "how many lines?\n\nand times ten?\n", "chat", "--context", ctxFile, "--replay", cas, "--save", saved)
	if code != 0 || out != "3\n31\n" {
		t.Fatalf("exit %d: %q %s", code, out, errOut)
	}
	cas2 := writeCassette(t, t.TempDir(), pyBlock(`FINAL([n, len(history)])`))
	out, errOut, code = runCLI(t, "still there?\n", "chat", "--context", ctxFile, "--replay", cas2, "--resume", saved)
	if code != 0 || strings.Join(strings.Fields(out), "") != "[3,2]" {
		t.Fatalf("exit %d: %q %s", code, out, errOut)
	}
}

func TestDemoModeCode(t *testing.T) {
	out, errOut, code := runCLI(t, "", "demo", "--mode", "code")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"llm_query_batched from a loop", "rlm_child", "plan_step cell", "max_connections=5", "status: completed"} {
		if !strings.Contains(out, want) {
			t.Errorf("demo --mode code output lacks %q", want)
		}
	}
}

func TestBenchRunMethodRLMCode(t *testing.T) {
	cassette := filepath.Join("..", "..", "bench", "testdata", "bench_code_pairs_1mb.json")
	out, errOut, code := runCLI(t, "", "bench", "run", "--task", "pairs", "--size", "1m", "--runs", "2", "--seed", "2",
		"--model", "gpt-4o-mini", "--methods", "rlm-code", "--replay", cassette)
	if code != 0 || !strings.Contains(out, "rlm-code  2       2   0       0        1.000") || !strings.Contains(out, "prove the harness") {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
	_, errOut, code = runCLI(t, "", "bench", "run", "--task", "pairs", "--methods", "rlm-lisp", "--replay", cassette)
	if code == 0 || !strings.Contains(errOut, "rlm-code") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
}

func TestRunPythonPyodideUnavailable(t *testing.T) {
	dir := t.TempDir()
	ctxFile := filepath.Join(dir, "in.txt")
	os.WriteFile(ctxFile, []byte("x\n"), 0o644)
	cas := writeCassette(t, dir, pyBlock(`FINAL(1)`))
	t.Setenv("RLM_PYODIDE_DIR", filepath.Join(dir, "no-pyodide"))
	_, errOut, code := runCLI(t, "", "run", "--mode", "code", "--python", "pyodide", "--context", ctxFile, "--replay", cas, "q")
	if code != 1 || !strings.Contains(errOut, "pyodide_unavailable") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
}
