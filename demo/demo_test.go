package demo

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/trace"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestCorpusDeterministicWithOneIncident(t *testing.T) {
	a, b := Corpus(200_000), Corpus(200_000)
	if a != b {
		t.Fatal("corpus is not deterministic")
	}
	if strings.Count(a, IncidentCause) != 1 || strings.Count(a, "connection pool exhausted") != 3 {
		t.Fatal("the incident must appear exactly once")
	}
	if len(a) < 200_000 || len(a) > 210_000 {
		t.Fatalf("size %d", len(a))
	}
	// Timestamps never go backwards.
	prev := ""
	for _, line := range strings.Split(strings.TrimSpace(a), "\n") {
		ts := line[:24]
		if ts < prev {
			t.Fatalf("timestamp %s after %s", ts, prev)
		}
		prev = ts
	}
}

func TestRunShowsEveryStage(t *testing.T) {
	rec := trace.NewRecorder()
	out, err := Run(trace.WithRecorder(context.Background(), rec))
	if err != nil {
		t.Fatal(err)
	}
	r := out.Result
	if r.Status != engine.StatusCompleted || out.Replayed.Remaining != 0 {
		t.Fatalf("status %s, %d interactions left", r.Status, out.Replayed.Remaining)
	}
	ans, _ := r.Answer.(string)
	for _, fact := range []string{IncidentCause, IncidentStart, IncidentDeploy} {
		if !strings.Contains(ans, fact) {
			t.Errorf("answer lacks %q", fact)
		}
	}
	// Overlap of the fan-out's sub-calls depends on scheduling (the engine
	// tests prove concurrency with delayed replies); here only the bound.
	if r.Recursion.RecursiveCalls != 1 || r.UsageByDepth[1].Calls != 6 || r.Counters.MaxInFlight < 1 || r.Counters.MaxInFlight > 4 {
		t.Fatalf("recursion %+v, depth-1 usage %+v, max in flight %d", r.Recursion, r.UsageByDepth[1], r.Counters.MaxInFlight)
	}
	var buf bytes.Buffer
	Report(&buf, out)
	for _, want := range []string{"inspect the context (partition)", "map over 4 partitions", "recurse: a child RLM", "budget:", "answer:", "trajectory:"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("report lacks %q", want)
		}
	}
}

// The code-mode demo: inspection, a batched fan-out from a loop, a
// recursive child and the answer, all from code the model wrote.
func TestRunCodeModeShowsEveryStage(t *testing.T) {
	out, err := RunMode(context.Background(), engine.ModeCode)
	if err != nil {
		t.Fatal(err)
	}
	r := out.Result
	if r.Status != engine.StatusCompleted || out.Replayed.Remaining != 0 || r.Turns != 4 {
		t.Fatalf("status %s, %d interactions left, %d turns", r.Status, out.Replayed.Remaining, r.Turns)
	}
	ans, _ := r.Answer.(string)
	for _, fact := range []string{IncidentCause, IncidentStart, IncidentDeploy} {
		if !strings.Contains(ans, fact) {
			t.Errorf("answer lacks %q", fact)
		}
	}
	if r.Recursion.RecursiveCalls != 1 || r.UsageByDepth[1].Calls != 6 || r.Counters.MaxInFlight > 4 {
		t.Fatalf("recursion %+v, depth-1 usage %+v", r.Recursion, r.UsageByDepth[1])
	}
	var buf bytes.Buffer
	Report(&buf, out)
	for _, want := range []string{"llm_query_batched from a loop: 4 sub-model calls", "recurse: rlm_query", "FINAL answer from code", "code inspects the context (slice, search)"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, buf.String())
		}
	}
	if _, err := RunMode(context.Background(), "lisp"); err == nil {
		t.Fatal("unknown mode accepted")
	}
}

// The demo is a Spec over its scripted provider: each mode's Spec is
// valid, and the outcome reports the limits with their defaults filled
// in (the report prints every one).
func TestSpecPerMode(t *testing.T) {
	for _, mode := range []string{engine.ModePlan, engine.ModeCode} {
		sp := Spec(mode)
		if err := sp.Validate(); err != nil || sp.Mode != mode || sp.Model != RootModel || sp.SubModel != SubModel || !sp.Cache.Off {
			t.Fatalf("%s: %+v %v", mode, sp, err)
		}
	}
	out, err := Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if out.Limits.MaxContextOps == 0 || out.Limits.MaxIterations != 12 || out.TraceDropped != 0 || len(out.Result.Trajectory) == 0 {
		t.Fatalf("limits %+v, dropped %d, %d events", out.Limits, out.TraceDropped, len(out.Result.Trajectory))
	}
}
