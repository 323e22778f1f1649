package direct

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/jsonstrict"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/prompt"
)

// Names of the built-in context tools.
const (
	ToolContextSearch = "context_search"
	ToolContextSlice  = "context_slice"
	ToolContextPeek   = "context_peek"
)

// contextTool is one built-in context tool: its capability, operation and
// parameter schema (the single source for the schema shown to the model
// and the validator).
type contextTool struct {
	name, op, description, params string
}

var contextTools = []contextTool{
	{ToolContextSearch, "search", "Search the input context line by line; returns matching lines with their 1-based line numbers. query is a literal unless regex is true.",
		`{"type":"object","properties":{"query":{"type":"string","minLength":1,"maxLength":512},"regex":{"type":"boolean"}},"required":["query"],"additionalProperties":false}`},
	{ToolContextSlice, "slice", "Read length bytes of the input context starting at byte offset start.",
		`{"type":"object","properties":{"start":{"type":"integer","minimum":0},"length":{"type":"integer","minimum":1,"maximum":65536}},"required":["start","length"],"additionalProperties":false}`},
	{ToolContextPeek, "peek", "Peek at the input context: its metadata, or count bytes of its head or tail.",
		`{"type":"object","properties":{"selector":{"type":"string","enum":["metadata","head","tail"]},"count":{"type":"integer","minimum":1,"maximum":65536}},"required":["selector"],"additionalProperties":false}`},
}

// session is the trusted catalog of one run: the bindings, their compiled
// validators and the provider-visible tools, in a fixed order computed
// once.
type session struct {
	bindings   map[string]Binding
	validators map[string]*jsonschema.Schema
	tools      []model.Tool
	hasContext bool
}

var _ Catalog = (*session)(nil)

// Resolve returns the binding of name.
func (s *session) Resolve(name string) (Binding, bool) {
	b, ok := s.bindings[name]
	return b, ok
}

// Validate checks a call's arguments against the binding's schema. It
// validates the value decoded from the argument text with the strict
// decoder the tool runtime uses (numbers kept exact), so both agree.
func (s *session) Validate(b Binding, c Call) *fault.Error {
	sch := s.validators[b.Name]
	if sch == nil {
		return fault.New(PhaseSchema, KindMalformedArguments, "the tool has no parameter schema")
	}
	v := c.value
	if v == nil {
		src := []byte(c.Raw)
		if len(src) == 0 {
			src = c.Args
		}
		var err error
		if v, err = jsonstrict.Decode(src); err != nil {
			return fault.New(PhaseSchema, KindMalformedArguments, "arguments are not JSON").With("reason", "malformed_json")
		}
	}
	if err := sch.Validate(v); err != nil {
		return schemaFault(err)
	}
	return nil
}

// schemaFault maps a validation error to schema/malformed_arguments with
// the JSON pointer and keyword of the first failing leaf and the missing
// or unexpected property names; never the library's message.
func schemaFault(err error) *fault.Error {
	fe := fault.New(PhaseSchema, KindMalformedArguments, "arguments do not match the parameter schema")
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return fe.With("pointer", "")
	}
	leaf := ve
	for len(leaf.Causes) > 0 {
		leaf = leaf.Causes[0]
	}
	var ptr strings.Builder
	for _, tok := range leaf.InstanceLocation {
		ptr.WriteByte('/')
		ptr.WriteString(strings.ReplaceAll(strings.ReplaceAll(tok, "~", "~0"), "/", "~1"))
	}
	fe.With("pointer", ptr.String())
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

// noLoader refuses external schema references.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("external schema references are not allowed")
}

// compileParams compiles a parameter schema exactly as the tool registry
// compiles argument schemas (tool.Registry.Register): draft 2020-12 by
// default, no loader for external references, and for registry tools the
// registry's resource URL, so relative references resolve the same way.
// The registry exposes no side-effect-free validate method, so the loop
// keeps its own validators; these settings keep its verdict identical to
// the runtime's, which re-validates the same argument text anyway.
func compileParams(url string, raw []byte) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(noLoader{})
	if err := c.AddResource(url, doc); err != nil {
		return nil, err
	}
	return c.Compile(url)
}

// newSession builds the catalog once: the context tools whose context:*
// capability is granted (when an input context exists), then the
// registry tools the prompt compiler projects for the query, in the
// compiler's order.
func newSession(ctx context.Context, cfg *Config, query string) (*session, error) {
	s := &session{bindings: map[string]Binding{}, validators: map[string]*jsonschema.Schema{}}
	setupErr := func(err error, msg string) error {
		return fault.Wrap(err, PhaseSetup, KindInvalidConfig, msg)
	}
	add := func(b Binding, t model.Tool, params []byte) error {
		if _, dup := s.bindings[b.Name]; dup {
			return fault.New(PhaseSetup, KindDuplicateToolName, "two tools render the same function name").With("tool", b.Name)
		}
		url := "https://rlm.invalid/direct/" + b.Name + ".json"
		if b.Kind == BindTool {
			url = registryArgsURL(b.Name)
		}
		sch, err := compileParams(url, params)
		if err != nil {
			return setupErr(err, "a tool parameter schema does not compile")
		}
		s.bindings[b.Name] = b
		s.validators[b.Name] = sch
		s.tools = append(s.tools, t)
		return nil
	}
	if cfg.Store != nil && !cfg.Input.IsZero() {
		for _, ct := range contextTools {
			if !cfg.Capabilities.Has(capability.Context(ct.op)) {
				continue
			}
			s.hasContext = true
			if err := add(Binding{Name: ct.name, Kind: BindContext, Op: ct.op, Effect: EffectRead},
				model.Tool{Name: ct.name, Description: ct.description, Parameters: json.RawMessage(ct.params)}, []byte(ct.params)); err != nil {
				return nil, err
			}
		}
	}
	if cfg.Registry == nil {
		return s, nil
	}
	schemas := cfg.Registry.Schemas()
	if len(schemas) == 0 {
		return s, nil
	}
	imports := make([]prompt.ToolSchema, 0, len(schemas))
	for _, sc := range schemas {
		imports = append(imports, prompt.ToolSchema{Name: sc.Name, Description: sc.Description, Parameters: sc.Arguments,
			Capability: string(sc.Capability), Effect: string(sc.Effect)})
	}
	specs, err := prompt.ImportTools(imports, prompt.ImportOptions{AlwaysVisibleTools: cfg.AlwaysVisibleTools})
	if err != nil {
		return nil, err
	}
	cat, err := prompt.NewCatalog(specs)
	if err != nil {
		return nil, err
	}
	mode := cfg.Mode
	if mode == "" {
		mode = prompt.ModeCompiled
	}
	res, err := cat.Compile(ctx, prompt.Input{Text: truncateRunes(query, prompt.MaxInputText)},
		prompt.Options{Capabilities: cfg.Capabilities.Strings(), Mode: mode, Model: cfg.Model})
	if err != nil {
		return nil, err
	}
	for _, ft := range res.ToolSchemas {
		sc, ok := cfg.Registry.Lookup(ft.Function.Name)
		if !ok {
			continue // the catalog projected a unit that is not a registered tool
		}
		b := Binding{Name: sc.Name, Kind: BindTool, Effect: string(sc.Effect)}
		t := model.Tool{Name: ft.Function.Name, Description: ft.Function.Description, Parameters: ft.Function.Parameters}
		if err := add(b, t, sc.Arguments); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// registryArgsURL is the resource URL under which tool.Registry compiles
// a tool's argument schema.
func registryArgsURL(name string) string {
	return "https://rlm.invalid/tools/" + name + "/arguments.json"
}

func truncateRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n])
}
