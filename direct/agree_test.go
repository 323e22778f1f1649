package direct

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/tool"
)

// TestValidationAgreesWithToolRuntime: the loop validates exactly the
// arguments the tool runtime receives, with a validator compiled the same
// way (draft 2020-12, no loader, the registry's base URL), so a call the
// loop accepts is one the runtime accepts and vice versa.
func TestValidationAgreesWithToolRuntime(t *testing.T) {
	cases := []struct {
		name, schema, args string
		wantRan            bool
	}{
		// A 20-digit integer is exact as text; a canonical re-encoding
		// would round it through float64 and fall below the minimum.
		{"big_integer_kept_exact", `{"type":"object","properties":{"n":{"type":"integer","minimum":12345678901234567891}},"required":["n"]}`,
			`{"n":12345678901234567891}`, true},
		{"big_integer_below_minimum", `{"type":"object","properties":{"n":{"type":"integer","minimum":12345678901234567891}},"required":["n"]}`,
			`{"n":12345678901234567890}`, false},
		// A relative self-reference resolves against the registry's base
		// URL; a validator compiled at another URL would not compile.
		{"relative_self_ref", `{"$defs":{"q":{"type":"string","minLength":2}},"type":"object","properties":{"q":{"$ref":"arguments.json#/$defs/q"}},"required":["q"]}`,
			`{"q":"ok"}`, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var ran int
			f := newFixture(t, fixOpts{caps: []string{"tool:agree"}, edit: func(cfg *Config) {
				must(t, cfg.Registry.Register(tool.Spec{Name: "agree", Description: "Agreement probe.", Effect: authority.EffectRead,
					Args: json.RawMessage(c.schema), Result: json.RawMessage(`{"type":"object"}`),
					Handler: func(ctx context.Context, req tool.Request) (any, error) {
						ran++
						return map[string]any{"ok": true}, nil
					}}))
			}}, completion("", call("a", "agree", c.args)), final("done"))
			res, err := f.run(t, "agree")
			if err != nil {
				t.Fatal(err)
			}
			obs := f.srv.toolMessages(t)["a"]
			if c.wantRan {
				if ran != 1 || res.ToolCalls != 1 || !strings.Contains(obs, `"status":"ok"`) {
					t.Fatalf("ran=%d observation %s", ran, obs)
				}
				return
			}
			if ran != 0 || res.ToolCalls != 0 || !strings.Contains(obs, `"status":"rejected"`) || !strings.Contains(obs, `"phase":"schema"`) {
				t.Fatalf("ran=%d observation %s", ran, obs)
			}
		})
	}
}
