package tool

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/fault"
)

// TestValidateAgreesWithInvoke: Registry.Validate reports exactly the
// argument verdict (kind and detail) of step 2 of Invoke, runs nothing, and
// accepts what Invoke accepts.
func TestValidateAgreesWithInvoke(t *testing.T) {
	cases := []struct{ name, tool, args string }{
		{"ok", "echo", `{"value":3}`},
		{"empty means {}", "echo", ``},
		{"unknown tool", "nope", `{}`},
		{"malformed json", "echo", `{"value":`},
		{"duplicate key", "echo", `{"value":1,"value":2}`},
		{"maximum", "echo", `{"value":33}`},
		{"extra field", "echo", `{"value":1,"x":2}`},
		{"effectful tool", "write", `{"key":1}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t, false)
			f.rt.Authority().Set("session:t", authority.Dangerous)
			verr := f.reg.Validate(c.tool, json.RawMessage(c.args))
			for name := range f.calls {
				if f.n(name) != 0 {
					t.Fatalf("Validate ran handler %s", name)
				}
			}
			res, err := f.rt.Invoke(context.Background(), mkCall(c.tool, c.args))
			if err != nil {
				t.Fatal(err)
			}
			argStep := res.Error != nil && (res.Error.Kind == KindUnknownTool || res.Error.Kind == KindMalformedArgs || res.Error.Kind == KindSchemaValidation)
			if !argStep {
				if verr != nil {
					t.Fatalf("Validate = %v, Invoke passed the argument step (%s)", verr, res.Status)
				}
				return
			}
			ve := fault.As(verr)
			if ve == nil || ve.Kind != res.Error.Kind || ve.Phase != fault.PhaseTool ||
				ve.Detail["pointer"] != res.Error.Detail["pointer"] || ve.Detail["keyword"] != res.Error.Detail["keyword"] {
				t.Fatalf("Validate = %v, Invoke = %v", verr, res.Error)
			}
		})
	}
}

func TestValidator(t *testing.T) {
	v, err := NewValidator("probe", json.RawMessage(echoArgs))
	if err != nil {
		t.Fatal(err)
	}
	if err := v.Validate(json.RawMessage(`{"value":2}`)); err != nil {
		t.Fatal(err)
	}
	if k := fault.KindOf(v.Validate(json.RawMessage(`{"value":2`))); k != KindMalformedArgs {
		t.Fatalf("kind %s", k)
	}
	if k := fault.KindOf(v.ValidateValue(map[string]any{"value": "x"})); k != KindSchemaValidation {
		t.Fatalf("kind %s", k)
	}
	if _, err := NewValidator("probe", json.RawMessage(`{"$ref":"https://example.com/x.json"}`)); fault.KindOf(err) != KindInvalidSchema {
		t.Fatalf("external ref: %v", err)
	}
}
