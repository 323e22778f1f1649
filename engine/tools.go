package engine

import (
	"context"
	"encoding/json"

	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/tool"
)

// KindApprovalRequired is reported when a plan's tool call needs a human
// approval: the loop never waits for one, so the run ends.
const KindApprovalRequired fault.Kind = "approval_required"

// RuntimeTools offers the tools of a tool.Registry to plans and runs them
// through the canonical tool runtime, so schema, capability, confinement,
// authority, the effect journal and tracing are the runtime's own. Each call
// is authorized against the capabilities of the calling loop (a child's
// narrowed set for a child).
type RuntimeTools struct {
	// Registry lists the tools offered to the model.
	Registry *tool.Registry
	// Invoker runs calls, normally the *tool.Runtime over Registry.
	Invoker tool.Invoker
	// AuthorityContext names the owner whose authority tier applies.
	AuthorityContext string
}

var _ Tools = (*RuntimeTools)(nil)

// Schemas returns the registered tools as model tool schemas, sorted by
// name.
func (t *RuntimeTools) Schemas() []model.Tool {
	schemas := t.Registry.Schemas()
	out := make([]model.Tool, len(schemas))
	for i, s := range schemas {
		out[i] = model.Tool{Name: s.Name, Description: s.Description, Parameters: s.Arguments}
	}
	return out
}

// Call invokes one tool. A result with status error returns its typed
// error; approval_required returns an error of Kind approval_required with
// the approval id in detail.
func (t *RuntimeTools) Call(ctx context.Context, caps capability.Set, name string, args json.RawMessage) (json.RawMessage, error) {
	res, err := t.Invoker.Invoke(ctx, tool.Call{Name: name, Args: args, Invocation: tool.Invocation{Capabilities: caps, AuthorityContext: t.AuthorityContext}})
	if err != nil {
		return nil, fault.FromContext(fault.PhaseTool, err)
	}
	switch res.Status {
	case tool.StatusOK:
		return res.Value, nil
	case tool.StatusApprovalRequired:
		return nil, fault.New(fault.PhaseTool, KindApprovalRequired, "the tool call needs an approval; the run does not wait for one").
			With("tool", name).With("approval_id", res.ApprovalID)
	}
	if res.Error != nil {
		return nil, res.Error
	}
	return nil, fault.New(fault.PhaseTool, fault.KindInternal, "tool call failed without an error").With("tool", name)
}
