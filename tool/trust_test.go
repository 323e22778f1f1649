package tool

import (
	"context"
	"testing"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/fault"
)

// A call that names the effect class its caller classified the tool with
// (Call.Effect) runs only the tool of that class: a tool registered under
// the name with another class now is unknown_tool, and its handler never
// runs, whatever the caller's tier.
func TestCallEffectMustMatchRegisteredTool(t *testing.T) {
	f := newFixture(t, true)
	f.rt.Authority().Set("session:t", authority.Dangerous)
	cases := []struct {
		name, tool, args string
		effect           authority.Effect
		wantKind         fault.Kind
	}{
		{"write_called_as_read", "write", `{"key":"k"}`, authority.EffectRead, KindUnknownTool},
		{"read_called_as_write", "echo", `{"value":1}`, authority.EffectWrite, KindUnknownTool},
		{"write_as_process", "write", `{"key":"k"}`, authority.EffectProcess, KindUnknownTool},
		{"write_as_write", "write", `{"key":"k"}`, authority.EffectWrite, ""},
		{"read_as_read", "echo", `{"value":1}`, authority.EffectRead, ""},
		{"no_expectation", "echo", `{"value":1}`, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := f.n(c.tool)
			call := mkCall(c.tool, c.args)
			call.Effect = c.effect
			res, err := f.rt.Invoke(WithCallID(context.Background(), c.name), call)
			if err != nil {
				t.Fatal(err)
			}
			ran := f.n(c.tool) - before
			if c.wantKind == "" {
				if res.Status != StatusOK || ran != 1 {
					t.Fatalf("%+v ran=%d", res, ran)
				}
				return
			}
			if res.Status != StatusError || fault.KindOf(res.Error) != c.wantKind || ran != 0 {
				t.Fatalf("got %+v (kind %s) ran=%d, want %s and no run", res, fault.KindOf(res.Error), ran, c.wantKind)
			}
		})
	}
}
