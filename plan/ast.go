package plan

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/fault"
)

// Op names a step operation. The vocabulary is closed.
type Op string

// The operations of the plan language.
const (
	OpContext    Op = "context"    // one context-store operation on a handle
	OpModel      Op = "model"      // one sub-model call (llm_query)
	OpRLM        Op = "rlm"        // a recursive child RLM over a sub-context
	OpTool       Op = "tool"       // a registered tool
	OpMap        Op = "map"        // a sub-plan per list element
	OpParallel   Op = "parallel"   // a fixed list of sub-plans, concurrently
	OpRetry      Op = "retry"      // a sub-plan re-run on error
	OpCheckpoint Op = "checkpoint" // a labelled checkpoint of the variables
	OpFinal      Op = "final"      // the plan's result
)

// Ops returns the operations of the language in a fixed order.
func Ops() []Op {
	return []Op{OpContext, OpModel, OpRLM, OpTool, OpMap, OpParallel, OpRetry, OpCheckpoint, OpFinal}
}

// Document is what a root model's turn parses into: a direct answer or a
// plan. Exactly one of IsAnswer and Plan != nil holds.
type Document struct {
	// IsAnswer reports a direct answer {"answer": V}.
	IsAnswer bool
	// Answer is the answer's value as plain JSON (never evaluated: an
	// object with a "ref" key is just an object). Numbers are int64 or
	// float64.
	Answer Value
	// Meta holds the other keys of an answer object
	// ({"answer": V, "confidence": 0.9} gives Meta {"confidence": 0.9}), as
	// plain JSON: kept for the host, never evaluated. Nil when there are
	// none, and always nil for a plan.
	Meta map[string]Value
	// Plan is the plan {"steps": [...]}, or nil for an answer.
	Plan *Plan
}

// MarshalJSON encodes the document in its canonical wire form.
func (d Document) MarshalJSON() ([]byte, error) {
	if d.IsAnswer {
		if len(d.Meta) > 0 {
			obj := make(map[string]any, len(d.Meta)+1)
			for k, v := range d.Meta {
				obj[k] = v
			}
			obj["answer"] = d.Answer
			s, err := EncodeJSON(obj)
			if err != nil {
				return nil, err
			}
			return []byte(s), nil
		}
		s, err := EncodeJSON(d.Answer)
		if err != nil {
			return nil, err
		}
		return []byte(`{"answer":` + s + `}`), nil
	}
	return json.Marshal(d.Plan)
}

// Plan is a sequence of steps run in order. Its JSON form is
// {"steps":[...]}.
type Plan struct {
	// Steps are the plan's steps, at least one.
	Steps []Step `json:"steps"`
}

// Step is one operation. Op selects which of the other fields apply; the
// rest must be zero (Validate reports a set field that does not apply as
// unknown_field). The JSON field names are the struct tags.
type Step struct {
	// Op is the operation.
	Op Op `json:"op"`

	// Handle (context) evaluates to the corpus.Handle to operate on.
	Handle *Expr `json:"handle,omitempty"`
	// Action (context) is the literal context-store action.
	Action *corpus.Action `json:"action,omitempty"`

	// Prompt (model) evaluates to the prompt text; non-strings are sent as
	// their canonical JSON.
	Prompt *Expr `json:"prompt,omitempty"`
	// Model (model) names the model; empty means the configured default.
	Model string `json:"model,omitempty"`
	// Options (model) are literal request options passed to the Env.
	Options map[string]any `json:"options,omitempty"`
	// Images (model) evaluates to a list of images sent with the prompt
	// (a vision sub-call): each an image name or value the Env resolves
	// (ModelCall.ImageRefs).
	Images *Expr `json:"images,omitempty"`

	// Query (rlm) evaluates to the child's query; non-strings are sent as
	// their canonical JSON.
	Query *Expr `json:"query,omitempty"`
	// Context (rlm) evaluates to the child's context: a handle or a string.
	Context *Expr `json:"context,omitempty"`

	// Name (tool) is the registered tool's name.
	Name string `json:"name,omitempty"`
	// Args (tool) evaluates to the tool's arguments; nil means {}.
	Args *Expr `json:"args,omitempty"`

	// Over (map) evaluates to the list to map over.
	Over *Expr `json:"over,omitempty"`
	// As (map) is the variable bound to each element in the sub-plan.
	As string `json:"as,omitempty"`
	// Concurrency (map) bounds the items in flight; 0 means
	// DefaultConcurrency.
	Concurrency int `json:"concurrency,omitempty"`
	// FailFast (map) makes the first item failure cancel the others and
	// fail the step, instead of binding an error value for the item.
	FailFast bool `json:"fail_fast,omitempty"`

	// Attempts (retry) is the maximum number of runs, 1..MaxAttempts.
	Attempts int `json:"attempts,omitempty"`

	// Plan (map, retry) is the sub-plan.
	Plan *Plan `json:"plan,omitempty"`
	// Plans (parallel) are the sub-plans run concurrently.
	Plans []Plan `json:"plans,omitempty"`

	// Label (checkpoint) names the checkpoint.
	Label string `json:"label,omitempty"`

	// Value (final) evaluates to the plan's result.
	Value *Expr `json:"value,omitempty"`

	// Bind names the variable the step's result is bound to. Required for
	// context, model, rlm, tool, map, parallel and retry; absent for
	// checkpoint and final.
	Bind string `json:"bind,omitempty"`
}

// ExprKind is the shape of an expression.
type ExprKind uint8

// Expression kinds.
const (
	// ExprLiteral is a literal value: a JSON scalar written directly, or
	// any JSON value quoted as {"literal": V}.
	ExprLiteral ExprKind = iota + 1
	// ExprInput is {"ref":"input","name":N}.
	ExprInput
	// ExprVar is {"ref":"var","name":N}.
	ExprVar
	// ExprField is {"ref":"field","value":E,"key":K}.
	ExprField
	// ExprIndex is {"ref":"index","value":E,"index":I}.
	ExprIndex
	// ExprJoin is {"join":[E...]}.
	ExprJoin
	// ExprJSON is {"json":E}.
	ExprJSON
	// ExprText is {"text":E}.
	ExprText
	// ExprList is a JSON array of expressions.
	ExprList
	// ExprObject is a JSON object of expressions (one that is not any of
	// the shapes above).
	ExprObject
)

var exprKindNames = map[ExprKind]string{
	ExprLiteral: "literal", ExprInput: "input", ExprVar: "var", ExprField: "field",
	ExprIndex: "index", ExprJoin: "join", ExprJSON: "json", ExprText: "text",
	ExprList: "list", ExprObject: "object",
}

// String returns the kind's name.
func (k ExprKind) String() string {
	if s, ok := exprKindNames[k]; ok {
		return s
	}
	return "invalid"
}

// Expr is an expression. Kind selects which fields apply.
type Expr struct {
	// Kind is the expression's shape.
	Kind ExprKind
	// Literal is the value of an ExprLiteral (a Value).
	Literal Value
	// Name is the input or variable name of ExprInput and ExprVar.
	Name string
	// Key is the object key of ExprField.
	Key string
	// Index is the list index of ExprIndex; negative counts from the end.
	Index int64
	// Operand is the inner expression of ExprField, ExprIndex, ExprJSON and
	// ExprText.
	Operand *Expr
	// Items are the elements of ExprList and the parts of ExprJoin.
	Items []*Expr
	// Fields are the members of ExprObject.
	Fields map[string]*Expr
}

// Lit returns a literal expression.
func Lit(v Value) *Expr { return &Expr{Kind: ExprLiteral, Literal: v} }

// Input returns {"ref":"input","name":name}.
func Input(name string) *Expr { return &Expr{Kind: ExprInput, Name: name} }

// Var returns {"ref":"var","name":name}.
func Var(name string) *Expr { return &Expr{Kind: ExprVar, Name: name} }

// Field returns {"ref":"field","value":e,"key":key}.
func Field(e *Expr, key string) *Expr { return &Expr{Kind: ExprField, Operand: e, Key: key} }

// Index returns {"ref":"index","value":e,"index":i}.
func Index(e *Expr, i int64) *Expr { return &Expr{Kind: ExprIndex, Operand: e, Index: i} }

// Join returns {"join":[parts...]}.
func Join(parts ...*Expr) *Expr { return &Expr{Kind: ExprJoin, Items: parts} }

// JSON returns {"json":e}.
func JSON(e *Expr) *Expr { return &Expr{Kind: ExprJSON, Operand: e} }

// Text returns {"text":e}.
func Text(e *Expr) *Expr { return &Expr{Kind: ExprText, Operand: e} }

// List returns a list expression.
func List(items ...*Expr) *Expr { return &Expr{Kind: ExprList, Items: items} }

// Object returns an object expression.
func Object(fields map[string]*Expr) *Expr { return &Expr{Kind: ExprObject, Fields: fields} }

// reservedKeys are the object keys that make an object an expression
// rather than a literal object, in the order they are recognized.
var reservedKeys = []string{"ref", "join", "json", "text", "literal"}

// MarshalJSON encodes the expression in its canonical wire form. A literal
// scalar is written directly; a literal list or object is written as
// {"literal": V} so that it reads back as the same literal.
func (e *Expr) MarshalJSON() ([]byte, error) {
	var b strings.Builder
	if err := e.encode(&b); err != nil {
		return nil, err
	}
	return []byte(b.String()), nil
}

func (e *Expr) encode(b *strings.Builder) error {
	if e == nil {
		b.WriteString("null")
		return nil
	}
	switch e.Kind {
	case ExprLiteral:
		s, err := EncodeJSON(e.Literal)
		if err != nil {
			return err
		}
		switch e.Literal.(type) {
		case []any, map[string]any, corpus.Handle:
			b.WriteString(`{"literal":` + s + `}`)
		default:
			b.WriteString(s)
		}
	case ExprInput, ExprVar:
		b.WriteString(`{"ref":"` + e.Kind.String() + `","name":`)
		writeString(b, e.Name)
		b.WriteByte('}')
	case ExprField:
		b.WriteString(`{"ref":"field","value":`)
		if err := e.Operand.encode(b); err != nil {
			return err
		}
		b.WriteString(`,"key":`)
		writeString(b, e.Key)
		b.WriteByte('}')
	case ExprIndex:
		b.WriteString(`{"ref":"index","value":`)
		if err := e.Operand.encode(b); err != nil {
			return err
		}
		b.WriteString(`,"index":`)
		s, _ := EncodeJSON(e.Index)
		b.WriteString(s)
		b.WriteByte('}')
	case ExprJoin:
		b.WriteString(`{"join":`)
		if err := encodeItems(b, e.Items); err != nil {
			return err
		}
		b.WriteByte('}')
	case ExprJSON, ExprText:
		b.WriteString(`{"` + e.Kind.String() + `":`)
		if err := e.Operand.encode(b); err != nil {
			return err
		}
		b.WriteByte('}')
	case ExprList:
		return encodeItems(b, e.Items)
	case ExprObject:
		b.WriteByte('{')
		for i, k := range slices.Sorted(maps.Keys(e.Fields)) {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, k)
			b.WriteByte(':')
			if err := e.Fields[k].encode(b); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	default:
		return fault.New(fault.PhaseValidate, KindInvalidArgument, "invalid expression kind").With("field", "kind")
	}
	return nil
}

func encodeItems(b *strings.Builder, items []*Expr) error {
	b.WriteByte('[')
	for i, it := range items {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := it.encode(b); err != nil {
			return err
		}
	}
	b.WriteByte(']')
	return nil
}
