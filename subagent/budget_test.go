package subagent

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/engine"

	"github.com/rlm-go/rlm/model/openai"
	"github.com/rlm-go/rlm/tool"
)

// A child spends from the budget of the run that called rlm_subagent: its
// calls and tokens are charged to the caller, and a caller with nothing
// left refuses the child's calls. Before, each child had the host's full
// limits and the caller was charged nothing, so N calls spent N budgets.
func TestChildSpendsFromCallersBudget(t *testing.T) {
	delegate := steps(
		map[string]any{"op": "tool", "name": Name, "args": map[string]any{"query": "child question"}, "bind": "r"},
		map[string]any{"op": "final", "value": map[string]any{"ref": "var", "name": "r"}},
	)
	run := func(t *testing.T, limits budget.Limits) (*engine.Result, *fixture) {
		f := newFixture(t, nil, reply("Query: parent question", delegate, 0), reply("Query: child question", `{"answer":"from the child"}`, 0))
		prov, err := openai.New(openai.Config{BaseURL: f.srv.BaseURL(), Model: "test-model", MaxRetries: -1})
		if err != nil {
			t.Fatal(err)
		}
		eng, err := engine.New(engine.Config{Provider: prov, Model: "test-model", Store: f.store, Limits: limits,
			Capabilities: f.parentCaps.Union(capability.MustSet("tool:" + Name)),
			Tools:        &tool.ModelTools{Registry: f.reg, Invoker: f.tools}})
		if err != nil {
			t.Fatal(err)
		}
		res, _ := eng.Run(context.Background(), "parent question", f.h)
		return res, f
	}

	t.Run("charged to the caller", func(t *testing.T) {
		res, _ := run(t, budget.Limits{})
		if res.Status != engine.StatusCompleted {
			t.Fatalf("run %s: %v", res.Status, res.Error)
		}
		// The parent's turn and the child's, 110 tokens each.
		if res.Counters.ModelCalls != 2 || res.Usage.Calls != 2 || res.Usage.TotalTokens != 220 || res.UsageByDepth[1].TotalTokens != 110 {
			t.Fatalf("caller charged %+v, %+v by depth %+v: want both calls", res.Counters, res.Usage, res.UsageByDepth)
		}
	})

	t.Run("refused when the caller has nothing left", func(t *testing.T) {
		res, f := run(t, budget.Limits{MaxModelCalls: 1})
		env, err := Decode(mustAnswerJSON(t, res))
		if err != nil {
			t.Fatal(err)
		}
		if env.Status != EnvelopeFailed || env.Error == nil || env.Error.Kind != budget.KindMaxModelCalls || env.Error.Detail["budget"] != "caller" {
			t.Fatalf("child envelope %+v: want failed with the caller's max_model_calls", env)
		}
		if n := f.srv.Stats().Requests; n != 1 {
			t.Fatalf("%d requests sent; want the parent's only", n)
		}
		if res.Counters.ModelCalls != 1 {
			t.Fatalf("caller counted %d model calls", res.Counters.ModelCalls)
		}
	})
}

func mustAnswerJSON(t *testing.T, res *engine.Result) []byte {
	t.Helper()
	if res.Status != engine.StatusCompleted {
		t.Fatalf("run %s: %v", res.Status, res.Error)
	}
	b, err := json.Marshal(res.Answer)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
