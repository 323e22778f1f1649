package direct

import (
	"cmp"
	"context"
	"encoding/json"
	"slices"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/prompt"
	"github.com/rlm-go/rlm/tool"
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

// session is the trusted catalog of one run: the bindings, the
// provider-visible tools in a fixed order computed once, and what
// validates each binding's arguments: the registry (tool.Catalog.Validate,
// the runtime's own argument step) for registry tools, and a
// tool.Validator compiled with the registry's settings for the context
// tools.
type session struct {
	bindings   map[string]Binding
	registry   tool.Catalog
	validators map[string]*tool.Validator // context tools
	tools      []model.Tool
	hasContext bool
	version    uint64 // the registry's Version the tools were compiled from
}

var _ Catalog = (*session)(nil)

// Resolve returns the binding of name.
func (s *session) Resolve(name string) (Binding, bool) {
	b, ok := s.bindings[name]
	return b, ok
}

// Validate checks a call's normalized arguments against the binding's
// schema with the tool runtime's validator, so both agree, and reports a
// failure as schema/malformed_arguments with the runtime's detail
// (pointer, keyword, missing, unexpected).
func (s *session) Validate(b Binding, c Call) *fault.Error {
	args := json.RawMessage(c.Raw) // what the runtime receives
	if len(args) == 0 {
		args = c.Args
	}
	var err error
	switch v := s.validators[b.Name]; {
	case b.Kind == BindTool && s.registry != nil:
		err = s.registry.Validate(b.Name, args)
	case v == nil:
		return fault.New(PhaseSchema, KindMalformedArguments, "the tool has no parameter schema")
	case c.value != nil:
		err = v.ValidateValue(c.value)
	default:
		err = v.Validate(args)
	}
	return schemaFault(err)
}

// schemaFault maps the runtime's argument verdict to schema/
// malformed_arguments, keeping its detail; never a library message.
func schemaFault(err error) *fault.Error {
	fe := fault.As(err)
	if err == nil || fe == nil {
		return nil
	}
	switch fe.Kind {
	case tool.KindSchemaValidation:
		out := fault.New(PhaseSchema, KindMalformedArguments, "arguments do not match the parameter schema")
		for _, k := range []string{"pointer", "keyword", "missing", "unexpected"} {
			if v, ok := fe.Detail[k]; ok {
				out.With(k, v)
			}
		}
		return out
	case tool.KindMalformedArgs:
		return fault.New(PhaseSchema, KindMalformedArguments, "arguments are not JSON").With("reason", "malformed_json")
	case tool.KindUnknownTool: // it left the registry since the catalog was compiled
		return fault.New(PhaseCatalog, KindUnavailableToolSchema, "no tool with this name is available")
	}
	return fault.New(PhaseSchema, KindMalformedArguments, "the tool has no parameter schema").With("reason", string(fe.Kind))
}

// newSession builds the catalog once: the context tools whose context:*
// capability is granted (when an input context exists), then the
// registry tools the prompt compiler projects for the query, in the
// compiler's order.
func newSession(ctx context.Context, cfg *Config, query string) (*session, error) {
	return buildSession(ctx, cfg, query, false)
}

// buildSession is newSession; again marks a recompile during the run: an
// always-visible tool that has left the registry since is then no longer
// offered, where at setup it is a configuration error (unknown_tool).
func buildSession(ctx context.Context, cfg *Config, query string, again bool) (*session, error) {
	s := &session{bindings: map[string]Binding{}, validators: map[string]*tool.Validator{}}
	var schemas []tool.Schema
	if cfg.Registry != nil {
		s.registry = cfg.Registry
		s.version = cfg.Registry.Version() // before reading it: a change during the compile shows next turn
		schemas = cfg.Registry.Schemas()   // one snapshot: what the model is shown is what is bound
	}
	add := func(b Binding, t model.Tool) error {
		if _, dup := s.bindings[b.Name]; dup {
			return fault.New(PhaseSetup, KindDuplicateToolName, "two tools render the same function name").With("tool", b.Name)
		}
		if b.Kind == BindContext {
			v, err := tool.NewValidator(b.Name, t.Parameters)
			if err != nil {
				return fault.Wrap(err, PhaseSetup, fault.KindInvalidConfig, "a tool parameter schema does not compile")
			}
			s.validators[b.Name] = v
		}
		s.bindings[b.Name] = b
		s.tools = append(s.tools, t)
		return nil
	}
	if cfg.Store != nil && !cfg.Input.IsZero() {
		for _, ct := range contextTools {
			if !cfg.Capabilities.Has(capability.Context(ct.op)) {
				continue
			}
			s.hasContext = true
			if err := add(Binding{Name: ct.name, Kind: BindContext, Op: ct.op, Effect: authority.EffectRead},
				model.Tool{Name: ct.name, Description: ct.description, Parameters: json.RawMessage(ct.params)}); err != nil {
				return nil, err
			}
		}
	}
	if len(schemas) == 0 {
		return s, nil
	}
	byName := make(map[string]tool.Schema, len(schemas))
	for _, sc := range schemas {
		byName[sc.Name] = sc
	}
	always := cfg.AlwaysVisibleTools
	if again {
		always = slices.DeleteFunc(slices.Clone(always), func(n string) bool { _, ok := byName[n]; return !ok })
	}
	specs, err := prompt.ImportCatalog(snapshot{cfg.Registry, schemas}, prompt.ImportOptions{AlwaysVisibleTools: always})
	if err != nil {
		return nil, err
	}
	cat, err := prompt.NewCatalog(specs)
	if err != nil {
		return nil, err
	}
	res, err := cat.Compile(ctx, prompt.Input{Text: truncateRunes(query, prompt.MaxInputText)},
		prompt.Options{Capabilities: cfg.Capabilities, Mode: cmp.Or(cfg.Mode, prompt.ModeCompiled), Model: cfg.Model})
	if err != nil {
		return nil, err
	}
	for _, ft := range res.ToolSchemas {
		sc, ok := byName[ft.Function.Name]
		if !ok {
			continue // the catalog projected a unit that is not a registered tool
		}
		b := Binding{Name: sc.Name, Kind: BindTool, Effect: sc.Effect}
		t := model.Tool{Name: ft.Function.Name, Description: ft.Function.Description, Parameters: ft.Function.Parameters}
		if err := add(b, t); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// snapshot is a registry's catalog with its schemas as read once.
type snapshot struct {
	tool.Catalog
	schemas []tool.Schema
}

func (s snapshot) Schemas() []tool.Schema { return s.schemas }

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
