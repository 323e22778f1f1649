package bench

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// The whole suite passes, quickly, and the text output is stable.
func TestConformanceSuitePasses(t *testing.T) {
	start := time.Now()
	rep := Conformance(context.Background(), nil)
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("suite took %v", d)
	}
	for _, c := range rep.Cases {
		if c.Status != CasePass {
			t.Errorf("%s: %s", c.Name, c.Reason)
		}
	}
	if rep.Failed != 0 || rep.Passed != len(ConformanceCaseNames()) || rep.Status != CasePass || rep.CaseCount != rep.Passed {
		t.Fatalf("report %d passed, %d failed, status %s", rep.Passed, rep.Failed, rep.Status)
	}
	var b strings.Builder
	if err := WriteConformance(&b, rep); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	if last := lines[len(lines)-1]; last != "43 passed, 0 failed" {
		t.Fatalf("last line %q", last)
	}
	checkFile(t, filepath.Join("testdata", "conformance.golden"), []byte(b.String()))
	if _, err := json.Marshal(rep); err != nil {
		t.Fatal(err)
	}
}

// The suite covers every plan step, the recursion rules, every budget
// kind, cancellation and cycles.
func TestConformanceCoverage(t *testing.T) {
	names := ConformanceCaseNames()
	for _, want := range []string{
		"step_context_peek", "step_context_slice", "step_context_search", "step_context_partition", "step_context_map", "step_context_reduce",
		"step_model", "step_rlm", "step_tool", "step_map", "step_parallel", "step_retry", "step_checkpoint", "step_final_multi_turn",
		"depth4_refused", "depth2_allowed", "cycle_rejected", "cancellation",
		"budget_iterations", "budget_model_calls", "budget_tool_calls", "budget_context_ops", "budget_tokens", "budget_cost", "budget_output_bytes", "budget_time",
	} {
		if !slices.Contains(names, want) {
			t.Errorf("no case %s", want)
		}
	}
	if got := conformanceCategories(); !slices.Equal(got, []string{"step", "validation", "recursion", "budget", "cancellation", "code"}) {
		t.Errorf("categories %v", got)
	}
}

// A case whose expectation is not met fails with a reason, and the summary
// line counts it.
func TestConformanceDetectsFailure(t *testing.T) {
	c := conformanceCases()[0]
	c.answer = "something else"
	r := runCase(context.Background(), c)
	if r.Status != CaseFail || !strings.Contains(r.Reason, "answer") {
		t.Fatalf("%+v", r)
	}
	rep := &ConformanceReport{Cases: []CaseResult{r}, Failed: 1}
	var b strings.Builder
	if err := WriteConformance(&b, rep); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(b.String(), "\n0 passed, 1 failed\n") {
		t.Fatalf("%q", b.String())
	}
	// A missing cassette fails the case too.
	c.name = "no_such_case"
	if r := runCase(context.Background(), c); r.Status != CaseFail {
		t.Fatal("missing cassette passed")
	}
}

func TestConformanceFilter(t *testing.T) {
	rep := Conformance(context.Background(), func(n string) bool { return n == "answer_direct" })
	if rep.CaseCount != 1 || rep.Passed != 1 {
		t.Fatalf("%+v", rep)
	}
}
