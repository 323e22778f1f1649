package tool

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/capability"
)

func TestRegistryView(t *testing.T) {
	reg := NewRegistry()
	for _, name := range []string{"a", "b", "c"} {
		if err := reg.Register(Spec{Name: name, Effect: authority.EffectRead, Args: json.RawMessage(`{"type":"object"}`), Result: json.RawMessage(`{}`),
			Handler: func(ctx context.Context, req Request) (any, error) { return 1, nil }}); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		caps []string
		want []string
	}{
		{nil, nil},
		{[]string{"tool:b", "context:peek"}, []string{"b"}},
		{[]string{"tool:*"}, []string{"a", "b", "c"}},
	} {
		v := reg.View(capability.MustSet(c.caps...))
		got := v.Schemas()
		if len(got) != len(c.want) {
			t.Fatalf("%v: got %d tools", c.caps, len(got))
		}
		for i, s := range got {
			if s.Name != c.want[i] {
				t.Fatalf("%v: got %s", c.caps, s.Name)
			}
		}
		if _, ok := v.Lookup("a"); ok != (len(c.want) == 3) {
			t.Fatalf("%v: lookup a = %v", c.caps, ok)
		}
	}
	// A call through a view runs the shared handler.
	v := reg.View(capability.MustSet("tool:a"))
	res, err := NewRuntime(v, Config{}).Invoke(context.Background(), Call{Name: "a", Args: json.RawMessage(`{}`),
		Invocation: Invocation{Capabilities: capability.MustSet("tool:a")}})
	if err != nil || res.Status != StatusOK {
		t.Fatalf("%v %+v", err, res)
	}
	res, _ = NewRuntime(v, Config{}).Invoke(context.Background(), Call{Name: "b", Args: json.RawMessage(`{}`),
		Invocation: Invocation{Capabilities: capability.MustSet("tool:*")}})
	if res.Status == StatusOK {
		t.Fatal("a tool outside the view ran")
	}
}
