package tool_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/effect"
	"github.com/rlm-go/rlm/tool"
)

type lookupIn struct {
	Service string `json:"service" jsonschema:"minLength=1"`
}

type lookupOut struct {
	Owner string `json:"owner"`
}

// Declare a typed tool (its schemas come from the Go types), register it
// and invoke it through the runtime's pipeline: arguments are validated
// against the schema and the caller must hold the tool's capability.
func ExampleFunc() {
	reg := tool.NewRegistry()
	err := reg.Register(tool.Func("owner_of", "Who owns a service",
		func(ctx context.Context, in lookupIn) (lookupOut, error) {
			return lookupOut{Owner: "team-" + strings.ToLower(in.Service)}, nil
		}))
	if err != nil {
		fmt.Println(err)
		return
	}
	rt := tool.NewRuntime(reg, tool.Config{})
	ctx := context.Background()
	granted := tool.Invocation{Capabilities: capability.Of(capability.Tool("owner_of"))}

	for _, call := range []tool.Call{
		{Name: "owner_of", Args: json.RawMessage(`{"service":"API"}`), Invocation: granted},
		{Name: "owner_of", Args: json.RawMessage(`{"service":""}`), Invocation: granted},
		{Name: "owner_of", Args: json.RawMessage(`{"service":"API"}`)},
	} {
		res, err := rt.Invoke(ctx, call) // err: only the caller's context ended
		if err != nil {
			fmt.Println(err)
			return
		}
		if res.Error != nil {
			fmt.Println(res.Status, res.Error.Phase, res.Error.Kind)
			continue
		}
		fmt.Println(res.Status, string(res.Value))
	}
	// Output:
	// ok {"owner":"team-api"}
	// error tool schema_validation_failed
	// error tool capability_denied
}

// Declare a tool by hand: JSON Schemas for its arguments and result, an
// effect class, limits, an optional pure preflight that normalizes the
// arguments and resolves details, and the handler, which receives both.
func ExampleRegistry_Register() {
	reg := tool.NewRegistry()
	err := reg.Register(tool.Spec{
		Name:        "word_count",
		Description: "Count the words of a text",
		// Args and Result are JSON Schemas (draft 2020-12).
		Args:   json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"],"additionalProperties":false}`),
		Result: json.RawMessage(`{"type":"object","properties":{"words":{"type":"integer"}},"required":["words"]}`),
		Effect: authority.EffectRead, // required
		Limits: tool.Limits{TimeLimit: time.Second, MaxOutputBytes: 4096},
		// Preflight is optional and pure: normalized arguments and details.
		Preflight: func(ctx context.Context, args json.RawMessage) (json.RawMessage, map[string]any, error) {
			var in struct{ Text string }
			if err := json.Unmarshal(args, &in); err != nil {
				return nil, nil, err
			}
			fields := strings.Fields(in.Text)
			norm, err := json.Marshal(map[string]string{"text": strings.Join(fields, " ")})
			return norm, map[string]any{"words": len(fields)}, err
		},
		Handler: func(ctx context.Context, req tool.Request) (any, error) {
			return map[string]any{"words": req.Details["words"]}, nil
		},
	})
	fmt.Println(err)

	s, _ := reg.Lookup("word_count")
	fmt.Println(s.Name, s.Capability, s.Effect, s.Limits.MaxOutputBytes)

	rt := tool.NewRuntime(reg, tool.Config{})
	res, _ := rt.Invoke(context.Background(), tool.Call{Name: "word_count",
		Args:       json.RawMessage(`{"text":"  disk   full on db-1 "}`),
		Invocation: tool.Invocation{Capabilities: capability.MustSet("tool:word_count")}})
	fmt.Println(res.Status, string(res.Value))
	// Output:
	// <nil>
	// word_count tool:word_count read 4096
	// ok {"words":4}
}

// An effectful tool runs through the durable effect journal and, under the
// default authority tier (approve_diff), does not run at once: the call
// returns approval_required with an approval id and the pending operation.
// Approving it runs it once; AwaitApproval returns its result.
func ExampleRuntime_Approve() {
	dir, _ := os.MkdirTemp("", "rlm-tool-example")
	defer os.RemoveAll(dir)
	j, err := effect.OpenDir(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer j.Close()

	reg := tool.NewRegistry()
	notify := tool.Func("notify", "Page the on-call engineer",
		func(ctx context.Context, in lookupIn) (lookupOut, error) {
			return lookupOut{Owner: "paged the owner of " + in.Service}, nil
		})
	notify.Effect = authority.EffectNetworkWrite
	_ = reg.Register(notify)

	ctx := context.Background()
	rt := tool.NewRuntime(reg, tool.Config{Journal: j}) // Authority and Pool: fresh defaults
	res, err := rt.Invoke(ctx, tool.Call{Name: "notify", Args: json.RawMessage(`{"service":"billing"}`),
		Invocation: tool.Invocation{Capabilities: capability.MustSet("tool:notify"), AuthorityContext: "session:1"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Status, res.ApprovalID == res.Pending.ID, res.Pending.Tool, res.Pending.Args)

	if _, err := rt.Approve(ctx, res.ApprovalID); err != nil {
		fmt.Println(err)
		return
	}
	res, err = rt.AwaitApproval(ctx, res.ApprovalID)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Status, string(res.Value))
	// Output:
	// approval_required true notify map[service:billing]
	// ok {"owner":"paged the owner of billing"}
}
