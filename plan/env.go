package plan

import (
	"context"

	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/model"
)

// Env is what a plan runs against. The engine implements it with budgets,
// tracing and capabilities; tests use fakes. Every method may be called
// concurrently by map and parallel branches. Errors should be
// *fault.Error values: they reach the Outcome with their Phase and Kind
// (plus detail "path"); a plain error becomes Kind env_error and a context
// error Kind cancelled or timeout. Values returned are normalized (see
// Normalize) and must not be modified afterwards.
type Env interface {
	// ContextOp runs one context-store action on h.
	ContextOp(ctx context.Context, h corpus.Handle, a corpus.Action) (Value, error)
	// Text returns the text of h, bounded by the per-prompt byte limit;
	// the engine fails with a typed error beyond it.
	Text(ctx context.Context, h corpus.Handle) (string, error)
	// Model makes one sub-model call and returns the response text.
	Model(ctx context.Context, call ModelCall) (string, error)
	// RLM runs a recursive child over context (a corpus.Handle or a
	// string) and returns the child's answer.
	RLM(ctx context.Context, query string, context Value) (Value, error)
	// Tool calls the registered tool name with args.
	Tool(ctx context.Context, name string, args Value) (Value, error)
	// Checkpoint records label with a snapshot of the visible variables.
	Checkpoint(ctx context.Context, label string, vars map[string]Value) error
	// Admit is called before a map step fans out, with the sub-plan's
	// static estimate multiplied by the number of items; an error (for
	// example a budget error) fails the step before any item runs.
	Admit(ctx context.Context, est Estimate) error
}

// RunEnder is implemented by an Env whose runtime ends the whole run on
// some errors of its own (an operation that waits for a human approval, a
// denied capability): map does not isolate such an error as an item's
// error value but cancels its other items and returns it, and retry does
// not try again. The plan package keeps its own rule (IsFatal) for errors
// it knows; EndsRun adds the runtime's.
type RunEnder interface {
	EndsRun(err error) bool
}

// ModelCall is one sub-model call of a model step.
type ModelCall struct {
	// Prompt is the user prompt.
	Prompt string
	// Model is the step's model name, or "" for the configured default.
	Model string
	// Options are the step's literal request options (nil when absent).
	// They are a copy the Env may keep.
	Options map[string]any
	// Images are sent with the prompt (a vision sub-call); each is
	// charged by its provider's token rule before sending, and a model
	// without vision refuses them (model.KindNoVision).
	Images []model.Image
	// ImageRefs are a model step's "images" values, for the Env to
	// resolve into Images: image names ("chart.png"), or image values
	// ({"image": "sha256:..."}) of images the run holds.
	ImageRefs []Value
}
