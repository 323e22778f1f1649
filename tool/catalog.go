package tool

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/jsonstrict"
	"github.com/rlm-go/rlm/tool/internal/jsonschema"
)

// Inventory is what callers other than the runtime need of a registry:
// what may be called (Schemas, Lookup) and whether arguments would pass the
// argument step of an invocation (Validate), without invoking anything.
// *Registry implements it; the direct loop, the prompt importer and the
// engine's tool adapter use it. (The module has one Catalog, the prompt
// compiler's prompt.Catalog of units.)
type Inventory interface {
	// Schemas returns the public schemas of all tools sorted by name.
	Schemas() []Schema
	// Lookup returns the schema of the named tool.
	Lookup(name string) (Schema, bool)
	// Validate checks raw arguments for the named tool exactly as step 2
	// of an invocation does. It returns nil or a *fault.Error of phase
	// tool: unknown_tool, malformed_args or schema_validation_failed.
	Validate(name string, raw json.RawMessage) error
}

// Catalog is the former name of Inventory.
//
// Deprecated: use Inventory.
type Catalog = Inventory

var _ Inventory = (*Registry)(nil)

// Validate checks raw arguments for the named tool exactly as invocation
// would (strict decoding, then the argument schema), with no side effect:
// no capability check, preflight, authority or handler. Empty raw means {}.
func (r *Registry) Validate(name string, raw json.RawMessage) error {
	e := r.get(name)
	if e == nil {
		return stepErr(KindUnknownTool, "no tool with this name").With("tool", name)
	}
	return e.args.Validate(raw)
}

// Validator is a compiled JSON Schema (draft 2020-12, no external
// references), compiled exactly as Register compiles a tool's schemas. It
// lets callers that hold schemas outside a registry (the direct loop's
// context tools) validate with the same settings and the same error
// mapping.
type Validator struct {
	sch *jsonschema.Schema
}

// NewValidator compiles the argument schema of a tool named name. Errors
// are invalid_schema.
func NewValidator(name string, schema json.RawMessage) (*Validator, error) {
	v, _, err := compileSchema(name, "arguments", schema) // v is nil on error
	return v, err
}

// Validate decodes raw strictly (empty means {}) and checks the decoded
// value: malformed_args or schema_validation_failed.
func (v *Validator) Validate(raw json.RawMessage) error {
	if _, fe := v.decode(raw); fe != nil {
		return fe
	}
	return nil
}

// ValidateValue checks an already decoded value (as jsonstrict decodes it):
// schema_validation_failed.
func (v *Validator) ValidateValue(value any) error {
	if fe := v.check(value, KindSchemaValidation); fe != nil {
		return fe
	}
	return nil
}

// decode is step 2 of an invocation: strict decoding, then the schema.
func (v *Validator) decode(raw json.RawMessage) (any, *fault.Error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = json.RawMessage("{}")
	}
	val, err := jsonstrict.Decode(raw)
	if err != nil {
		fe := stepErr(KindMalformedArgs, "arguments are not valid JSON")
		if pe := fault.As(err); pe != nil {
			fe.With("reason", string(pe.Kind))
			if p, ok := pe.Detail["pointer"]; ok {
				fe.With("pointer", p)
			}
		}
		return nil, fe
	}
	if fe := v.check(val, KindSchemaValidation); fe != nil {
		return nil, fe
	}
	return val, nil
}

func (v *Validator) check(value any, k fault.Kind) *fault.Error {
	if leaves := v.sch.Validate(value); leaves != nil {
		return validationError(leaves, k, "")
	}
	return nil
}

func compileSchema(tool, which string, raw json.RawMessage) (*Validator, json.RawMessage, error) {
	bad := func(err error, msg string) *fault.Error {
		return fault.Wrap(err, fault.PhaseTool, KindInvalidSchema, msg).With("tool", tool).With("schema", which)
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, nil, bad(nil, "schema is required")
	}
	url := "https://rlm.invalid/tools/" + tool + "/" + which + ".json"
	sch, err := jsonschema.Compile(raw, url)
	if err != nil {
		fe := bad(err, "schema does not compile")
		var ce *jsonschema.CompileError
		if errors.As(err, &ce) {
			fe.With("location", ce.Pointer)
			if ce.Keyword != "" {
				fe.With("keyword", ce.Keyword)
			}
			if ce.Refused {
				fe.Hint = "rlm's validator supports JSON Schema draft 2020-12, and 2019-09 and 07 in their own meaning, without external or dynamic references (docs/tools.md, \"The schema validator\")"
			}
		}
		return nil, nil, fe
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return nil, nil, bad(err, "schema is not JSON")
	}
	return &Validator{sch: sch}, buf.Bytes(), nil
}

// validationError maps a schema failure to Kind schema_validation_failed
// (or invalid_result for results) with the JSON pointer of the failing
// value and the failing keyword of its first leaf; never the validator's
// message.
func validationError(leaves []jsonschema.Leaf, k fault.Kind, root string) *fault.Error {
	fe := fault.New(fault.PhaseTool, k, "value does not match the schema")
	leaf := leaves[0]
	fe.With("pointer", root+leaf.Pointer())
	if leaf.Keyword != "" {
		fe.With("keyword", leaf.Keyword)
	}
	switch {
	case leaf.Missing != nil:
		fe.With("missing", slices.Sorted(slices.Values(leaf.Missing)))
	case leaf.Unexpected != nil:
		fe.With("unexpected", slices.Sorted(slices.Values(leaf.Unexpected)))
	}
	return fe
}
