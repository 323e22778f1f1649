package rlm

import (
	"context"
	"testing"

	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/tool"
)

// WithTools adds tools after Spec.Tools: both are granted to a code-mode
// run, a Spec is not changed by it, and a name given twice is refused at
// Open, before any model call.
func TestWithTools(t *testing.T) {
	named := func(name, reply string) tool.Spec {
		return tool.Func(name, name, func(context.Context, struct{}) (string, error) { return reply, nil })
	}
	cell := "FINAL(call_tool(\"from_spec\") + \"|\" + call_tool(\"from_option\"))"
	for _, c := range []struct {
		name   string
		option tool.Spec
		want   string
		kind   fault.Kind
	}{
		{"both granted", named("from_option", "b"), "a|b", ""},
		{"name given twice", named("from_spec", "b"), "", tool.KindDuplicateTool},
	} {
		t.Run(c.name, func(t *testing.T) {
			calls := 0
			p := model.ProviderFunc(func(context.Context, model.Request) (*model.Response, error) {
				calls++
				return &model.Response{Text: "```python\n" + cell + "\n```"}, nil
			})
			spec := Spec{Tools: []tool.Spec{named("from_spec", "a")}, StateDir: t.TempDir(), Cache: CacheSpec{Off: true}}
			s, err := Open(context.Background(), spec, WithProvider(p), WithTools(c.option))
			if fault.KindOf(err) != c.kind {
				t.Fatalf("Open: %v, want kind %q", err, c.kind)
			}
			if len(spec.Tools) != 1 {
				t.Fatalf("the Spec changed: %d tools", len(spec.Tools))
			}
			if err != nil {
				return
			}
			defer s.Close()
			store := corpus.NewStore()
			defer store.Close()
			h, err := store.AddString("ctx", "some text")
			if err != nil {
				t.Fatal(err)
			}
			res, err := s.RunOn(context.Background(), On{Store: store, Context: h, Query: "q", Mode: engine.ModeCode})
			if err != nil || res.Answer != c.want || calls != 1 {
				t.Fatalf("answer %q, err %v, %d calls; want %q", res.Answer, err, calls, c.want)
			}
		})
	}
}
