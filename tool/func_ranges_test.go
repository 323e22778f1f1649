package tool

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/rlm-go/rlm/capability"
)

type numRanges struct {
	Small int8    `json:"small"`
	Count int     `json:"count"`
	Ratio float32 `json:"ratio"`
}

// TestFuncValidateAgreesWithInvoke: for a tool.Func, arguments that
// Registry.Validate accepts (step 2) must reach the handler: Invoke must
// not fail them with malformed_args afterwards.
func TestFuncValidateAgreesWithInvoke(t *testing.T) {
	reg := NewRegistry()
	ran := 0
	mustRegister(t, reg, Func("nums", "", func(ctx context.Context, in numRanges) (map[string]any, error) {
		ran++
		return map[string]any{}, nil
	}))
	rt := NewRuntime(reg, Config{})
	inv := Invocation{Capabilities: capability.MustSet("tool:nums")}
	for _, args := range []string{
		`{"small":300,"count":1,"ratio":1}`,
		`{"small":1,"count":1e19,"ratio":1}`,
		`{"small":1,"count":1,"ratio":1e39}`,
		`{"small":1,"count":1.0,"ratio":1}`,
	} {
		verr := reg.Validate("nums", json.RawMessage(args))
		res, err := rt.Invoke(context.Background(), Call{Name: "nums", Args: json.RawMessage(args), Invocation: inv})
		if err != nil {
			t.Fatal(err)
		}
		if verr == nil && res.Status != StatusOK {
			t.Errorf("%s: Validate accepted, Invoke = %s %v (trace status %s)", args, res.Status, res.Error, res.Trace.Status)
		}
	}
}
