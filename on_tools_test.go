package rlm

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/tool"
)

// callTool is a call's own tool: it answers "echo:" and its query.
type callTool struct{ name string }

func (c callTool) Schemas() []model.Tool {
	return []model.Tool{{Name: c.name, Parameters: json.RawMessage(`{"type":"object"}`)}}
}

func (c callTool) Call(_ context.Context, _ capability.Set, _ string, args json.RawMessage) (json.RawMessage, error) {
	return json.Marshal("echo:" + string(args))
}

// On.Tools joins the session's tools for one call: both are offered and
// granted to the root loop, each call reaches its own tool, and a name
// the session's tools have is invalid_config before any model call.
// On.NoRecursion refuses rlm_query and keeps llm_query.
func TestRunOnCallTools(t *testing.T) {
	lookup := tool.Func("lookup", "lookup", func(context.Context, struct{}) (string, error) { return "looked up", nil })
	cells := map[string]string{
		"tools":     "a = call_tool(\"lookup\")\nb = call_tool(\"retrieve\", q=\"x\")\nFINAL(a + \"|\" + b)",
		"recursion": "x = rlm_query(\"q\", \"abc\")\nFINAL(x)",
		"llm":       "x = llm_query(\"q\")\nFINAL(x)",
	}
	for _, c := range []struct {
		name, cell string
		extra      string // the call tool's name
		noRec      bool
		want       string
		kind       fault.Kind
		sys        []string
	}{
		{"joined", cells["tools"], "retrieve", false, `looked up|echo:{"q":"x"}`, "", []string{"tool:lookup", "tool:retrieve"}},
		{"name clash", cells["tools"], "lookup", false, "", fault.KindInvalidConfig, nil},
		{"no recursion refuses rlm_query", cells["recursion"], "retrieve", true, "", capability.KindDenied, nil},
		{"no recursion keeps llm_query", cells["llm"], "retrieve", true, "sub", "", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			var mu sync.Mutex
			var systems []string
			p := model.ProviderFunc(func(_ context.Context, req model.Request) (*model.Response, error) {
				mu.Lock()
				defer mu.Unlock()
				if strings.Contains(req.Messages[0].Content, "Python 3.12 REPL") {
					systems = append(systems, req.Messages[0].Content)
					return &model.Response{Text: "```python\n" + c.cell + "\n```"}, nil
				}
				return &model.Response{Text: "sub"}, nil
			})
			s, err := Open(context.Background(), Spec{Tools: []tool.Spec{lookup}, StateDir: t.TempDir(), Cache: CacheSpec{Off: true}}, WithProvider(p))
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			store := corpus.NewStore()
			defer store.Close()
			h, err := store.AddString("ctx", "some text")
			if err != nil {
				t.Fatal(err)
			}
			res, err := s.RunOn(context.Background(), On{Store: store, Context: h, Query: "q", Mode: engine.ModeCode, Tools: callTool{c.extra}, NoRecursion: c.noRec})
			if fault.KindOf(err) != c.kind {
				t.Fatalf("error %v, want kind %q", err, c.kind)
			}
			if c.kind == fault.KindInvalidConfig && len(systems) != 0 {
				t.Fatalf("%d model calls before the configuration error", len(systems))
			}
			if c.kind == "" && res.Answer != c.want {
				t.Fatalf("answer %v, want %q", res.Answer, c.want)
			}
			for _, w := range c.sys {
				if !strings.Contains(systems[0], w) {
					t.Fatalf("system prompt lacks %s", w)
				}
			}
		})
	}
}
