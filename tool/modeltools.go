package tool

import (
	"context"
	"encoding/json"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/effect"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
)

// ModelTools offers the tools of an Inventory to a model-driven loop (it
// implements engine.Tools) and runs them through an Invoker, normally the
// *Runtime over the same registry, so schema, capability, confinement,
// authority, the effect journal and tracing are the runtime's own. Each call
// is authorized against the capabilities the loop passes (a child's narrowed
// set for a child). It lives here, not in engine, so that the engine links
// no JSON Schema library and no journal.
type ModelTools struct {
	// Registry lists the tools offered to the model.
	Registry Inventory
	// Invoker runs calls.
	Invoker Invoker
	// AuthorityContext names the owner whose authority tier applies.
	AuthorityContext string
}

// Schemas returns the tools as model tool schemas, sorted by name.
func (t *ModelTools) Schemas() []model.Tool {
	schemas := t.Registry.Schemas()
	out := make([]model.Tool, len(schemas))
	for i, s := range schemas {
		out[i] = model.Tool{Name: s.Name, Description: s.Description, Parameters: s.Arguments}
	}
	return out
}

// Call invokes one tool. A result with status error returns its typed
// error; approval_required returns an error of Kind approval_required
// (phase tool) with the approval id in detail: the loop never waits for an
// approval, so the run ends.
func (t *ModelTools) Call(ctx context.Context, caps capability.Set, name string, args json.RawMessage) (json.RawMessage, error) {
	res, err := t.Invoker.Invoke(ctx, Call{Name: name, Args: args, Invocation: Invocation{Capabilities: caps, AuthorityContext: t.AuthorityContext}})
	if err != nil {
		return nil, fault.FromContext(fault.PhaseTool, err)
	}
	switch res.Status {
	case StatusOK:
		return res.Value, nil
	case StatusApprovalRequired:
		return nil, fault.New(fault.PhaseTool, authority.KindApprovalRequired, "the tool call needs an approval; the run does not wait for one").
			With("tool", name).With("approval_id", res.ApprovalID)
	}
	if res.Error != nil {
		return nil, res.Error
	}
	return nil, fault.New(fault.PhaseTool, fault.KindInternal, "tool call failed without an error").With("tool", name)
}

// Check refuses a configuration in which a tool caps grant has effects
// but the invoker cannot record them (a Runtime without a journal):
// effect_store_required at configuration time, instead of a failure when
// the model calls the tool.
func (t *ModelTools) Check(caps capability.Set) error {
	rt, ok := t.Invoker.(*Runtime)
	if !ok || rt.journal != nil {
		return nil
	}
	for _, s := range t.Registry.Schemas() {
		if s.Effect != authority.EffectRead && caps.Has(capability.Tool(s.Name)) {
			return fault.New(fault.PhaseConfig, effect.KindStoreRequired, "an effectful tool is granted but the tool runtime has no effect journal").
				With("tool", s.Name).With("effect", string(s.Effect)).
				WithHint("open a journal (effect.OpenDir) and pass it in tool.Config.Journal, or do not grant the tool")
		}
	}
	return nil
}
