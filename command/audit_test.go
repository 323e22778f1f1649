package command

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/model/replay"
)

func rlmPlan(query string) string {
	b, _ := json.Marshal(map[string]any{"steps": []map[string]any{
		{"op": "rlm", "query": query, "context": map[string]any{"ref": "input", "name": "context"}, "bind": "child"},
		{"op": "final", "value": map[string]any{"ref": "var", "name": "child"}},
	}})
	return string(b)
}

// A child that runs out of recursion depth exhausted a budget
// (max_depth_exceeded, whichever phase reports it): the resume fails with
// child_budget_exhausted, not the generic child_failed.
func TestResumeDepthExhaustedChildIsBudgetExhausted(t *testing.T) {
	rlmCaps := capability.MustSet(append([]string{"rlm"}, contextCaps...)...)
	h := newHost(t, defaultParentCaps().Union(rlmCaps),
		[]replay.Interaction{reply("Query: Answer", rlmPlan("level1"), 0), reply("Query: level1", rlmPlan("level2"), 0)}...)
	h.base.ChildCapabilities = rlmCaps
	calls := 0
	_, err := Resume(context.Background(), loadKB(t), "unknown", Host{Runtime: h.rt, Parent: h.parent, Subagent: h.base},
		func(ctx context.Context, in ResumeInput) (json.RawMessage, error) { calls++; return nil, nil })
	if !errors.Is(err, budget.KindMaxDepth) {
		t.Fatalf("want a child that ran out of depth, got %v", err)
	}
	if !errors.Is(err, KindChildBudgetExhausted) || calls != 0 {
		t.Fatalf("want child_budget_exhausted, got %v (continuation calls %d)", err, calls)
	}
}
