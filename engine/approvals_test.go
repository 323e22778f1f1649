package engine

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/effect"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/tool"
)

// putTools offers one effectful tool, put, under the default tier
// approve_diff: every call needs a human approval. It returns the runtime
// too, so a test can read the pending records.
func putTools(t *testing.T, runs *atomic.Int64) (*tool.ModelTools, *tool.Runtime) {
	t.Helper()
	return putToolsWith(t, tool.Limits{}, func(ctx context.Context, req tool.Request) (any, error) {
		runs.Add(1)
		return map[string]any{}, nil
	})
}

// putToolsWith is putTools with the tool's limits and handler.
func putToolsWith(t *testing.T, limits tool.Limits, handler tool.Handler) (*tool.ModelTools, *tool.Runtime) {
	t.Helper()
	reg := tool.NewRegistry()
	err := reg.Register(tool.Spec{
		Name: "put", Description: "store a value", Effect: authority.EffectWrite,
		Args:    json.RawMessage(`{"type":"object","properties":{"v":{"type":"string"}},"required":["v"],"additionalProperties":false}`),
		Result:  json.RawMessage(`{"type":"object"}`),
		Limits:  limits,
		Handler: handler,
	})
	if err != nil {
		t.Fatal(err)
	}
	j, err := effect.Open(filepath.Join(t.TempDir(), "effects.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	rt := tool.NewRuntime(reg, tool.Config{Journal: j})
	return &tool.ModelTools{Registry: reg, Invoker: rt, AuthorityContext: "session:approvals"}, rt
}

// Issue 18 item 5: approval_required ends the run wherever it arises — a
// plain step, inside a 50-way map (over distinct and over equal items),
// inside a retry of 10 attempts, in a code cell — with the pending
// operation ids in the result, one pending record per operation, and the
// handler never run.
func TestApprovalsEndTheRunWhereverTheyArise(t *testing.T) {
	put := func(v any) map[string]any {
		return map[string]any{"op": "tool", "name": "put", "args": map[string]any{"v": v}, "bind": "r"}
	}
	distinct, equal := make([]any, 50), make([]any, 50)
	for i := range distinct {
		distinct[i], equal[i] = "v"+strconv.Itoa(i), "same"
	}
	mapOver := func(items []any) string {
		return steps(
			map[string]any{"op": "map", "over": items, "as": "x", "bind": "out", "concurrency": 4, "plan": map[string]any{"steps": []any{put(ref("x"))}}},
			map[string]any{"op": "final", "value": ref("out")},
		)
	}
	caps := DefaultCapabilities("test-model", "test-model").Union(capability.MustSet("tool:put", "code"))
	for _, tc := range []struct {
		name       string
		cfg        Config
		reply      string
		maxPending int // distinct operations that may have been asked for before the run ended
	}{
		{"step", Config{}, steps(put("a"), map[string]any{"op": "final", "value": "done"}), 1},
		{"map distinct", Config{}, mapOver(distinct), 4},
		{"map equal", Config{}, mapOver(equal), 1},
		{"retry", Config{}, steps(map[string]any{"op": "retry", "attempts": 10, "bind": "r", "plan": map[string]any{"steps": []any{put("a")}}},
			map[string]any{"op": "final", "value": "done"}), 1},
		{"code", Config{Mode: ModeCode}, py(`try:`, `    call_tool("put", v="a")`, `except Exception as e:`, `    print("ignored", e)`, `FINAL("done")`), 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var runs atomic.Int64
			tools, rt := putTools(t, &runs)
			cfg := tc.cfg
			cfg.Tools, cfg.Capabilities = tools, caps
			f := newFixture(t, haystack, cfg, reply("Query:", tc.reply), reply("", `{"answer":"must not be asked"}`))
			res, err := f.run(t, "store it")
			if fault.KindOf(err) != authority.KindApprovalRequired || res.Status != StatusFailed || res.Error == nil || res.Error.Kind != authority.KindApprovalRequired {
				t.Fatalf("want the run to end with approval_required, got %v (status %s, answer %v)", err, res.Status, res.Answer)
			}
			if res.Turns != 1 || runs.Load() != 0 {
				t.Fatalf("turns %d, handler runs %d: the run must end on the turn that asked, running nothing", res.Turns, runs.Load())
			}
			records := rt.Authority().List("session:approvals")
			if len(records) == 0 || len(records) > tc.maxPending {
				t.Fatalf("%d pending records, want 1..%d", len(records), tc.maxPending)
			}
			if len(res.PendingApprovals) != len(records) {
				t.Fatalf("result lists %v, the store holds %d records", res.PendingApprovals, len(records))
			}
			for i, r := range records {
				if r.State != "pending" || res.PendingApprovals[i] != r.ID {
					t.Fatalf("record %d: %s %s, result lists %v", i, r.ID, r.State, res.PendingApprovals)
				}
			}
		})
	}
}
