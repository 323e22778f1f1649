package tool

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/jsonstrict"
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
	if err := v.sch.Validate(value); err != nil {
		return validationError(err, k, "")
	}
	return nil
}

// noLoader refuses every external schema reference: schemas are
// self-contained.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("external schema references are not allowed")
}

func compileSchema(tool, which string, raw json.RawMessage) (*Validator, json.RawMessage, error) {
	bad := func(err error, msg string) error {
		return fault.Wrap(err, fault.PhaseTool, KindInvalidSchema, msg).With("tool", tool).With("schema", which)
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, nil, bad(nil, "schema is required")
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, nil, bad(err, "schema is not JSON")
	}
	url := "https://rlm.invalid/tools/" + tool + "/" + which + ".json"
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(noLoader{})
	if err := c.AddResource(url, doc); err != nil {
		return nil, nil, bad(err, "schema cannot be added")
	}
	sch, err := c.Compile(url)
	if err != nil {
		return nil, nil, bad(err, "schema does not compile")
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return nil, nil, bad(err, "schema is not JSON")
	}
	return &Validator{sch: sch}, buf.Bytes(), nil
}

// validationError maps a schema failure to Kind schema_validation_failed
// (or invalid_result for results) with the JSON pointer of the failing
// value and the failing keyword; never the library's message.
func validationError(err error, k fault.Kind, root string) *fault.Error {
	fe := fault.New(fault.PhaseTool, k, "value does not match the schema")
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return fe.With("pointer", root)
	}
	leaf := ve
	for len(leaf.Causes) > 0 {
		leaf = leaf.Causes[0]
	}
	ptr := root
	for _, tok := range leaf.InstanceLocation {
		ptr += "/" + strings.ReplaceAll(strings.ReplaceAll(tok, "~", "~0"), "/", "~1")
	}
	fe.With("pointer", ptr)
	if kw := leaf.ErrorKind.KeywordPath(); len(kw) > 0 {
		fe.With("keyword", kw[len(kw)-1])
	}
	switch ek := leaf.ErrorKind.(type) {
	case *kind.Required:
		fe.With("missing", slices.Sorted(slices.Values(ek.Missing)))
	case *kind.AdditionalProperties:
		fe.With("unexpected", slices.Sorted(slices.Values(ek.Properties)))
	}
	return fe
}
