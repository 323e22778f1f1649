package engine

import (
	"context"
	"encoding/json"

	"github.com/rlm-go/rlm/model"
)

// Executor is the seam through which a run executes its sub-calls: every
// model request (root and child turns, model steps, llm_query and the items
// of map steps and llm_query_batched), every tool call and every recursive
// child loop. The engine does everything around a call first (capability
// check, depth gate, budget admission, the concurrency slot, tracing) and
// charges the response afterwards, so budgets, capabilities and the effect
// journal keep their contracts whatever the executor does; the executor
// only decides how the call itself is carried out.
//
// InProcess, the default, runs each call directly in the calling
// goroutine. A durable executor (package durable) records each completed
// call under its place in the run tree and answers a resumed run's calls
// from those records. Every method may be called concurrently.
type Executor interface {
	// Model carries out one admitted model request; p is the engine's own
	// transport (the configured provider, traced).
	Model(ctx context.Context, c Call, req model.Request, p model.Provider) (*model.Response, error)
	// Tool carries out one admitted tool call; call runs it through the
	// configured tool runtime.
	Tool(ctx context.Context, c Call, name string, args json.RawMessage, call func(context.Context) (json.RawMessage, error)) (json.RawMessage, error)
	// Child runs one recursive child loop; run is the loop, started with
	// the context Child passes it (an executor may add its own values,
	// such as the child's place in the run tree).
	Child(ctx context.Context, c Call, run func(context.Context) (any, error)) (any, error)
}

// Call kinds.
const (
	CallTurn  = "turn"  // a loop's own model request (root or child)
	CallModel = "model" // a sub-model request (model step, llm_query)
	CallTool  = "tool"  // a tool call
	CallChild = "child" // a recursive child loop
)

// Call tells an Executor where in the run tree a sub-call happens. Within
// a loop, Kind, Turn and the call's own content (the request, the tool
// name and arguments, the child's Fingerprint) identify it in the same way
// on every execution of the same run, whatever order a fan-out's calls
// start in; the loop itself is identified by the contexts Child hands
// down.
type Call struct {
	Kind string
	// Depth is the depth the call is accounted at.
	Depth int
	// Turn is the calling loop's turn, from 1.
	Turn int
	// Fingerprint is a child's (query, context) fingerprint (CallChild).
	Fingerprint string
}

// InProcess is the default Executor: each call runs directly, in the
// calling goroutine, with no record.
type InProcess struct{}

var _ Executor = InProcess{}

// Model sends req through p.
func (InProcess) Model(ctx context.Context, _ Call, req model.Request, p model.Provider) (*model.Response, error) {
	return p.Complete(ctx, req)
}

// Tool runs call.
func (InProcess) Tool(ctx context.Context, _ Call, _ string, _ json.RawMessage, call func(context.Context) (json.RawMessage, error)) (json.RawMessage, error) {
	return call(ctx)
}

// Child runs run.
func (InProcess) Child(ctx context.Context, _ Call, run func(context.Context) (any, error)) (any, error) {
	return run(ctx)
}

// turnKey carries the calling loop's turn number in the context of a turn.
type turnKey struct{}

func withTurn(ctx context.Context, turn int) context.Context {
	return context.WithValue(ctx, turnKey{}, turn)
}

func turnOf(ctx context.Context) int {
	t, _ := ctx.Value(turnKey{}).(int)
	return t
}

// send carries out one admitted model request through the run's executor.
// The default executor calls the traced provider directly, exactly as the
// engine did before the seam (the traced wrapper then stays on the stack).
func (r *run) send(ctx context.Context, depth int, p model.Provider, req model.Request) (*model.Response, error) {
	if r.e.cfg.TraceContent {
		// The model_call span keeps thumbnails of the images sent.
		ctx = model.WithThumbnails(ctx, r.thumbs.Of)
	}
	if _, ok := r.exec.(InProcess); ok {
		return model.Traced(p, req.Model).Complete(ctx, req)
	}
	kind := CallModel
	if req.Messages[0].Role == model.RoleSystem {
		kind = CallTurn
	}
	return r.exec.Model(ctx, Call{Kind: kind, Depth: depth, Turn: turnOf(ctx)}, req, model.Traced(p, req.Model))
}
