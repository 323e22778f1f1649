package direct

import (
	"cmp"
	"context"
	"encoding/json"
	"math"
	"slices"
	"sync"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/prompt"
	"github.com/rlm-go/rlm/tool"
)

// Names of the built-in context tools (corpus.ContextTools declares them).
const (
	ToolContextSearch = corpus.ToolContextSearch
	ToolContextSlice  = corpus.ToolContextSlice
	ToolContextPeek   = corpus.ToolContextPeek
)

// contextTool is one built-in context tool: the corpus declaration, the
// parameter schema shown to the model (tool.SchemaOf of its Args) and the
// schema its arguments are validated against (the same, with the
// deprecated aliases the tool still accepts).
type contextTool struct {
	corpus.ContextTool
	params, accepts json.RawMessage
}

// Deprecated argument aliases of the context tools: context_search took its
// text as query before it was named pattern everywhere. The alias is
// accepted, never offered; a call gives exactly one of the two.
var argAliases = map[string]struct{ alias, name string }{
	ToolContextSearch: {"query", "pattern"},
}

// contextTools is derived on first use (sync.OnceValue), not at init.
var contextTools = sync.OnceValue(deriveContextTools)

// deriveContextTools derives the direct loop's context tools from the
// corpus declarations with the one schema deriver, tool.SchemaOf.
func deriveContextTools() []contextTool {
	var out []contextTool
	for _, ct := range corpus.ContextTools() {
		params, err := tool.SchemaOf(ct.Args)
		if err != nil {
			panic(err) // the declarations are fixed; tests derive them
		}
		accepts := params
		if a, ok := argAliases[ct.Name]; ok {
			if accepts, err = withAlias(params, a.alias, a.name); err != nil {
				panic(err)
			}
		}
		out = append(out, contextTool{ContextTool: ct, params: params, accepts: accepts})
	}
	return out
}

// withAlias returns an object schema that also accepts property alias with
// the schema of property name, neither of them required (the caller checks
// that exactly one is given: checkAlias).
func withAlias(schema json.RawMessage, alias, name string) (json.RawMessage, error) {
	var s map[string]any
	if err := json.Unmarshal(schema, &s); err != nil {
		return nil, err
	}
	props, _ := s["properties"].(map[string]any)
	if props == nil || props[name] == nil {
		return nil, fault.New(PhaseSetup, fault.KindInvalidConfig, "an argument alias names no property").With("property", name)
	}
	props[alias] = props[name]
	req, _ := s["required"].([]any)
	s["required"] = slices.DeleteFunc(req, func(v any) bool { return v == name })
	return json.Marshal(s)
}

// checkAlias reports a call that gives both or neither of a property and
// its deprecated alias, as the schema would: schema/malformed_arguments
// with keyword required and missing [name] for neither, keyword oneOf and
// unexpected [alias] for both.
func checkAlias(name string, args map[string]any) *fault.Error {
	a, ok := argAliases[name]
	if !ok {
		return nil
	}
	_, hasName := args[a.name]
	_, hasAlias := args[a.alias]
	switch {
	case hasName && hasAlias:
		return fault.New(PhaseSchema, KindMalformedArguments, "arguments do not match the parameter schema").
			With("pointer", "").With("keyword", "oneOf").With("unexpected", []string{a.alias})
	case !hasName && !hasAlias:
		return fault.New(PhaseSchema, KindMalformedArguments, "arguments do not match the parameter schema").
			With("pointer", "").With("keyword", "required").With("missing", []string{a.name})
	}
	return nil
}

// searchCall is what context_search decodes: the declared arguments and
// the deprecated alias.
type searchCall struct {
	corpus.SearchArgs
	Query string `json:"query"`
}

// sliceCall is what context_slice decodes: start as a JSON number, which
// may exceed int64 (the schema has no maximum).
type sliceCall struct {
	corpus.SliceArgs
	Start json.Number `json:"start"`
}

// contextAction decodes a context tool's validated arguments into its
// corpus action.
func contextAction(op string, args json.RawMessage) (corpus.Action, error) {
	bad := func(err error) (corpus.Action, error) {
		return corpus.Action{}, fault.Wrap(err, fault.PhaseExecute, fault.KindInternal, "validated context arguments do not decode")
	}
	switch op {
	case corpus.ActionSearch:
		var a searchCall
		if err := json.Unmarshal(args, &a); err != nil {
			return bad(err)
		}
		if a.Pattern == "" {
			a.Pattern = a.Query // checkAlias admitted exactly one
		}
		return a.SearchArgs.Action(), nil
	case corpus.ActionSlice:
		var a sliceCall
		if err := json.Unmarshal(args, &a); err != nil {
			return bad(err)
		}
		start, err := sliceStart(a.Start)
		if err != nil {
			return bad(err)
		}
		a.SliceArgs.Start = start
		return a.SliceArgs.Action(), nil
	}
	var a corpus.PeekArgs
	if err := json.Unmarshal(args, &a); err != nil {
		return bad(err)
	}
	return a.Action(), nil
}

// sliceStart returns a validated slice start (a non-negative integer). A
// start beyond int64 is past the end of any input: it becomes the largest
// int64, which the store reports as out of range like any other start past
// the end, instead of failing the run.
func sliceStart(n json.Number) (int64, error) {
	v, err := n.Int64()
	if err == nil {
		return v, nil
	}
	if f, ferr := n.Float64(); ferr == nil && f >= math.MaxInt64 {
		return math.MaxInt64, nil
	}
	return 0, err
}

// session is the trusted catalog of one run: the bindings, the
// provider-visible tools in a fixed order computed once, and what
// validates each binding's arguments: the registry (tool.Inventory.Validate,
// the runtime's own argument step) for registry tools, and a
// tool.Validator compiled with the registry's settings for the context
// tools.
type session struct {
	bindings   map[string]Binding
	registry   tool.Inventory
	validators map[string]*tool.Validator // context tools
	tools      []model.Tool
	hasContext bool
	version    uint64 // the registry's Version the tools were compiled from
}

var _ Resolver = (*session)(nil)

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
	if fe := schemaFault(err); fe != nil || b.Kind != BindContext {
		return fe
	}
	obj, _ := c.value.(map[string]any)
	if obj == nil && json.Unmarshal(args, &obj) != nil {
		return nil // the validator accepted it: an object
	}
	return checkAlias(b.Name, obj)
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
	// accepts is the schema a context tool's arguments are validated
	// against (the offered one with its deprecated aliases).
	add := func(b Binding, t model.Tool, accepts json.RawMessage) error {
		if _, dup := s.bindings[b.Name]; dup {
			return fault.New(PhaseSetup, KindDuplicateToolName, "two tools render the same function name").With("tool", b.Name)
		}
		if b.Kind == BindContext {
			v, err := tool.NewValidator(b.Name, accepts)
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
		for _, ct := range contextTools() {
			if !cfg.Capabilities.Has(capability.Context(ct.Op)) {
				continue
			}
			s.hasContext = true
			if err := add(Binding{Name: ct.Name, Kind: BindContext, Op: ct.Op, Effect: authority.EffectRead},
				model.Tool{Name: ct.Name, Description: ct.Description, Parameters: ct.params}, ct.accepts); err != nil {
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
		if err := add(b, t, nil); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// snapshot is a registry's catalog with its schemas as read once.
type snapshot struct {
	tool.Inventory
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
