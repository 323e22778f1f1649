package bench

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/rlm-go/rlm"
	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
)

// A benchmark runs over a session the caller opened from a Spec (rlm
// bench run's path) exactly as over a bare provider: the Spec names the
// models and the cassette, trials run under Config.Limits, or the Spec's
// when those are zero.
func TestRunOverSession(t *testing.T) {
	want, err := Run(context.Background(), Config{Task: KindNIAH, Size: benchSize, Runs: benchRuns, Seed: benchSeed,
		Provider: replayProvider(t, benchCassettePath(KindNIAH)), Model: benchModel, Replayed: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		spec      rlm.Spec
		limits    budget.Limits
		wantKinds []fault.Kind // of the rlm trials
	}{
		{"spec models", rlm.Spec{}, budget.Limits{}, []fault.Kind{"", ""}},
		{"config limits", rlm.Spec{}, budget.Limits{MaxModelCalls: 1}, []fault.Kind{"", ""}},
		{"spec limits", rlm.Spec{Limits: budget.Limits{MaxDepth: -1}}, budget.Limits{}, []fault.Kind{budget.KindInvalidLimits, budget.KindInvalidLimits}},
		{"config limits win", rlm.Spec{Limits: budget.Limits{MaxDepth: -1}}, budget.Limits{MaxModelCalls: 5}, []fault.Kind{"", ""}},
	} {
		t.Run(c.name, func(t *testing.T) {
			sp := c.spec
			sp.Model, sp.Replay, sp.Cache = benchModel, benchCassettePath(KindNIAH), rlm.CacheSpec{Off: true}
			sess, err := rlm.Open(context.Background(), sp)
			if err != nil {
				t.Fatal(err)
			}
			defer sess.Close()
			rep, err := Run(context.Background(), Config{Session: sess, Task: KindNIAH, Size: benchSize, Runs: benchRuns, Seed: benchSeed,
				Limits: c.limits, Replayed: true})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Model != benchModel || rep.SubModel != benchModel || len(rep.Trials) != len(want.Trials) {
				t.Fatalf("report %+v", rep)
			}
			var kinds []fault.Kind
			for i, tr := range rep.Trials {
				if tr.Method == MethodRLM {
					kinds = append(kinds, fault.KindOf(tr.Error))
				}
				if tr.Error == nil && (tr.Status != want.Trials[i].Status || tr.Answer != want.Trials[i].Answer || tr.Usage.TotalTokens != want.Trials[i].Usage.TotalTokens) {
					t.Errorf("trial %d: %+v, want %+v", i, tr, want.Trials[i])
				}
			}
			if !slices.Equal(kinds, c.wantKinds) {
				t.Fatalf("rlm trial kinds %v, want %v", kinds, c.wantKinds)
			}
		})
	}
}

// Over a bare provider, the session Run opens keeps a MaxDepth above
// engine.MaxSupportedDepth a trial failure, as it was (for depth 2
// without the opt-in, before issue 31) when Run built engines.
func TestRunDeepRecursionIsATrialFailure(t *testing.T) {
	rep, err := Run(context.Background(), Config{Task: KindNIAH, Size: benchSize, Runs: 1, Seed: benchSeed, Methods: []Method{MethodRLM},
		Provider: replayProvider(t, benchCassettePath(KindNIAH)), Model: benchModel, Limits: budget.Limits{MaxDepth: engine.MaxSupportedDepth + 1}})
	if err != nil {
		t.Fatal(err)
	}
	if k := fault.KindOf(rep.Trials[0].Error); k != engine.KindDeepRecursionRequired {
		t.Fatalf("kind %q", k)
	}
}

// AllFailed names the first failure only when every attempted trial
// failed.
func TestReportAllFailed(t *testing.T) {
	for _, c := range []struct {
		name     string
		statuses []string
		want     int // index of the first failure, -1 none
	}{
		{"none", nil, -1},
		{"all skipped", []string{StatusSkipped, StatusSkipped}, -1},
		{"one ok", []string{StatusFailed, StatusOK}, -1},
		{"all failed", []string{StatusSkipped, StatusFailed, StatusFailed}, 1},
	} {
		rep := &Report{}
		for i, s := range c.statuses {
			rep.Trials = append(rep.Trials, Trial{Run: i, Status: s})
		}
		got := rep.AllFailed()
		if (got == nil) != (c.want < 0) || got != nil && got.Run != c.want {
			t.Errorf("%s: %+v, want %d", c.name, got, c.want)
		}
	}
}

// ConformanceCases refuses an unknown case before running any; WriteFile
// writes the JSON report.
func TestConformanceCases(t *testing.T) {
	if _, err := ConformanceCases(context.Background(), []string{"no_such_case"}); fault.KindOf(err) != KindInvalidTask {
		t.Fatalf("unknown case: %v", err)
	}
	name := ConformanceCaseNames()[0]
	rep, err := ConformanceCases(context.Background(), []string{name})
	if err != nil || rep.CaseCount != 1 || rep.Cases[0].Name != name {
		t.Fatalf("%+v %v", rep, err)
	}
	path := filepath.Join(t.TempDir(), "report.json")
	if err := rep.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	var back ConformanceReport
	if b, err := os.ReadFile(path); err != nil || json.Unmarshal(b, &back) != nil || back.CaseCount != 1 {
		t.Fatalf("report file: %v", err)
	}
	if err := rep.WriteFile(filepath.Join(path, "x")); fault.KindOf(err) != fault.KindIO {
		t.Fatalf("unwritable report: %v", err)
	}
}

func TestBaselinePython(t *testing.T) {
	for _, c := range []struct {
		python string
		skip   bool
		want   string
	}{
		{"/opt/py", false, "/opt/py"},
		{"/opt/py", true, ""},
		{"", true, ""},
	} {
		if got := BaselinePython(c.python, c.skip); got != c.want {
			t.Errorf("BaselinePython(%q, %v) = %q, want %q", c.python, c.skip, got, c.want)
		}
	}
}
