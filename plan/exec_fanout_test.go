package plan

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/trace"
)

// TestFanoutSpans checks the spans of map and parallel branches: one
// "branch i" span per item started, numbered in index order, under the
// step's span, each holding its item's steps, and none started after a
// fail_fast error.
func TestFanoutSpans(t *testing.T) {
	branches := make([]string, 5)
	for i := range branches {
		branches[i] = fmt.Sprintf(`{"steps":[{"op":"model","prompt":"%d","bind":"r"}]}`, i)
	}
	parallel := `{"steps":[{"op":"parallel","plans":[` + strings.Join(branches, ",") + `],"bind":"p"}]}`
	failAt2 := func(ctx context.Context, call ModelCall) (string, error) {
		if call.Prompt == "2" {
			return "", fault.New(fault.PhaseProvider, "http_status", "bad")
		}
		return "ok", nil
	}
	tests := []struct {
		name    string
		plan    string
		modelFn func(ctx context.Context, call ModelCall) (string, error)
		step    string // the fanning step's op
		want    int    // branches started
		failed  int    // the failing branch, or -1
		wantErr fault.Kind
	}{
		{name: "map", plan: mapPlan(40, 6, false, `{"ref":"var","name":"i"}`), step: "map", want: 40, failed: -1},
		{name: "map at concurrency 1", plan: mapPlan(10, 1, false, `{"ref":"var","name":"i"}`), step: "map", want: 10, failed: -1},
		{name: "parallel", plan: parallel, step: "parallel", want: 5, failed: -1},
		{name: "map, an item fails", plan: mapPlan(6, 2, false, `{"ref":"var","name":"i"}`), modelFn: failAt2, step: "map", want: 6, failed: 2},
		{name: "map fail_fast stops the starts", plan: mapPlan(6, 1, true, `{"ref":"var","name":"i"}`), modelFn: failAt2, step: "map", want: 3, failed: 2, wantErr: "http_status"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			env := &fakeEnv{modelFn: tc.modelFn}
			rec := trace.NewRecorder()
			p := mustPlan(t, tc.plan)
			_, err := Execute(trace.WithRecorder(context.Background(), rec), p, env, newSession())
			if fault.KindOf(err) != tc.wantErr {
				t.Fatalf("error %v, want kind %q", err, tc.wantErr)
			}
			var stepID string
			var got []trace.Event
			children := map[string]int{}
			for _, ev := range rec.Events() {
				switch {
				case ev.Name == tc.step:
					stepID = ev.ID
				case strings.HasPrefix(ev.Name, "branch "):
					got = append(got, ev)
				default:
					children[ev.Parent]++
				}
			}
			if len(got) != tc.want {
				t.Fatalf("%d branch spans, want %d", len(got), tc.want)
			}
			// Sorted by start order (Seq), the branches are in index order.
			slices.SortFunc(got, func(a, b trace.Event) int { return cmp.Compare(a.Seq, b.Seq) })
			for i, ev := range got {
				if ev.Name != fmt.Sprintf("branch %d", i) || ev.Attrs["branch"] != i {
					t.Errorf("branch started %d is %q %v", i, ev.Name, ev.Attrs)
				}
				if ev.Parent != stepID || ev.Kind != trace.KindPlanStep {
					t.Errorf("%s: parent %q kind %s, want under the %s step %q", ev.Name, ev.Parent, ev.Kind, tc.step, stepID)
				}
				if children[ev.ID] != 1 {
					t.Errorf("%s holds %d spans, want its item's step", ev.Name, children[ev.ID])
				}
				if wantStatus := trace.StatusOK; i == tc.failed {
					if ev.Status != trace.StatusError {
						t.Errorf("%s: status %s, want error", ev.Name, ev.Status)
					}
				} else if ev.Status != wantStatus {
					t.Errorf("%s: status %s, want %s", ev.Name, ev.Status, wantStatus)
				}
			}
		})
	}
}
