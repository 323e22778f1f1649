package launcher

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/rlm-go/rlm/bench"
)

func benchCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var o, e bytes.Buffer
	code = run(context.Background(), args, strings.NewReader(""), &o, &e)
	return code, o.String(), e.String()
}

func TestBenchConformanceCmd(t *testing.T) {
	defer goleak.VerifyNone(t)
	n := len(bench.ConformanceCaseNames())
	code, out, errOut := benchCLI(t, "bench", "conformance")
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if code != 0 || len(lines) != n+1 || lines[n] != fmt.Sprintf("%d passed, 0 failed", n) {
		t.Fatalf("exit %d, stderr %s, stdout:\n%s", code, errOut, out)
	}

	report := filepath.Join(t.TempDir(), "report.json")
	code, out, errOut = benchCLI(t, "bench", "conformance", "--json", "--report", report, "--case", "answer_direct,budget_time")
	var rep bench.ConformanceReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 0 {
		t.Fatalf("exit %d, %v: %s", code, err, out)
	}
	if rep.Status != "pass" || rep.CaseCount != 2 || rep.Passed != 2 || !strings.HasSuffix(errOut, "\n2 passed, 0 failed\n") {
		t.Fatalf("%+v; stderr %s", rep, errOut)
	}
	raw, err := os.ReadFile(report)
	if err != nil || !json.Valid(raw) || !bytes.Equal(raw, []byte(out)) {
		t.Fatalf("report file %v: %s", err, raw)
	}

	code, out, errOut = benchCLI(t, "bench", "conformance", "--case", "no_such_case", "--json")
	if code != 1 || jsonErrorKind([]byte(out)) != "invalid_task" {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
}

func TestBenchRunCmd(t *testing.T) {
	defer goleak.VerifyNone(t)
	cassette := filepath.Join("..", "..", "bench", "testdata", "bench_niah.json")
	code, out, errOut := benchCLI(t, "bench", "run", "--replay", cassette, "--task", "niah", "--size", "3000", "--runs", "2", "--seed", "2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"NOTE: " + bench.ReplayNotice, "task niah, size 3000 bytes, 2 run(s)", "\nrlm ", "\ndirect "} {
		if !strings.Contains(out, want) {
			t.Fatalf("output lacks %q:\n%s", want, out)
		}
	}

	code, out, errOut = benchCLI(t, "bench", "run", "--replay", cassette, "--task", "niah", "--size", "3000", "--runs", "2", "--seed", "2", "--json", "--direct-max-bytes", "100")
	var rep bench.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 0 {
		t.Fatalf("exit %d, %v: %s %s", code, err, out, errOut)
	}
	if !rep.Replayed || rep.Notice != bench.ReplayNotice || len(rep.Summaries) != 2 || *rep.Summaries[0].Accuracy != 1 || rep.Summaries[1].Skipped != 2 {
		t.Fatalf("%+v", rep)
	}

	for _, args := range [][]string{
		{"--task", "haystack"},
		{"--task", "niah", "--size", "tiny"},
		{"--task", "niah", "--methods", "oracle"},
	} {
		code, out, errOut = benchCLI(t, append([]string{"bench", "run", "--replay", cassette, "--json"}, args...)...)
		if code != 1 || jsonErrorKind([]byte(out)) != "invalid_task" {
			t.Fatalf("%v: exit %d: %s %s", args, code, out, errOut)
		}
	}
}

func TestBenchCodeCorpusCmd(t *testing.T) {
	defer goleak.VerifyNone(t)
	corpus := filepath.Join("..", "..", "bench", "testdata", "codecorpus.json")
	code, out, errOut := benchCLI(t, "bench", "code-corpus", corpus, "--no-python")
	if code != 0 || !strings.Contains(out, "no CPython baseline: code mode runs 3 of 6 cells") || !strings.Contains(out, "failures by cause:") {
		t.Fatalf("exit %d, stderr %s, stdout:\n%s", code, errOut, out)
	}
	code, out, errOut = benchCLI(t, "bench", "code-corpus", corpus, "--no-python", "--json", "--cells")
	var rep bench.CodeCorpusReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 0 || rep.Cells != 6 || len(rep.Results) != 6 || rep.Baseline != "none" {
		t.Fatalf("exit %d, %v, stderr %s: %s", code, err, errOut, out)
	}
	code, _, errOut = benchCLI(t, "bench", "code-corpus", filepath.Join(t.TempDir(), "missing.json"))
	if code == 0 || !strings.Contains(errOut, "invalid_corpus") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
}
