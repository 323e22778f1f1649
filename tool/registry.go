// Package tool registers typed tools and runs them through one invocation
// pipeline.
//
// A tool is a Spec: a name, a JSON Schema (draft 2020-12) for its arguments
// and one for its result, an effect class, limits, and a Go handler with an
// optional preflight. Schemas are compiled once, at registration. Discovery
// (Registry.Schemas) returns schemas, never handlers.
//
// A Runtime invokes tools. Every call goes through, in order: lookup,
// argument decoding and schema validation, capability check, effective
// limits, preflight (confinement), authority; then for read tools the
// handler under its time limit, the result schema and the output size; for
// effectful tools the durable effect journal, the handler and the recorded
// observation. Each step that fails stops the call with a typed error and a
// trace record. Cancellation and deadlines of the caller's context are
// returned as themselves, never turned into tool errors.
package tool

import (
	"cmp"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/fault"
)

// Error kinds reported by this package (phase "tool").
const (
	KindInvalidTool      fault.Kind = "invalid_tool"             // a Spec is malformed
	KindInvalidSchema    fault.Kind = "invalid_schema"           // a schema does not compile
	KindDuplicateTool    fault.Kind = "duplicate_tool"           // the name is taken
	KindUnknownTool      fault.Kind = "unknown_tool"             // no tool has that name
	KindMalformedArgs    fault.Kind = "malformed_args"           // the argument JSON is not valid (or has duplicate keys)
	KindSchemaValidation fault.Kind = "schema_validation_failed" // arguments or a result do not match the schema
	KindPreflightFailed  fault.Kind = "preflight_failed"         // the preflight refused for a reason other than confinement
	KindPreflightTimeout fault.Kind = "preflight_timeout"        // the preflight outlived the time limit
	KindHandlerFailed    fault.Kind = "handler_failed"           // the handler returned an error
	KindHandlerPanic     fault.Kind = "handler_panic"            // the handler panicked
	KindInvalidResult    fault.Kind = "invalid_result"           // the result violates the result schema
	KindOversizedOutput  fault.Kind = "oversized_output"         // the result is larger than max output bytes
	KindBackpressure     fault.Kind = "backpressure"             // the worker pool backlog is full
	KindIndeterminate    fault.Kind = "effect_indeterminate"     // an effect was dispatched and its outcome is unknown
)

// Default limits applied when a Spec leaves them zero.
const (
	DefaultTimeLimit      = time.Second
	DefaultMaxOutputBytes = 4096
)

// Limits bound one invocation. They follow the rule of every Limits type
// (docs/budget.md, "One rule for every limit"): a zero field takes the
// default (DefaultTimeLimit, DefaultMaxOutputBytes in a Spec; the tool's
// own limit in CallOptions, which may only tighten it); a negative field
// is refused (invalid_tool in a Spec, invalid_limits in CallOptions): a
// tool call is always bounded. The JSON form is
// {"time_limit_ms","max_output_bytes"}, the time limit in whole
// milliseconds (budget.Millis).
type Limits struct {
	TimeLimit      time.Duration `json:"-"`
	MaxOutputBytes int64         `json:"max_output_bytes"`
}

type limitsJSON struct {
	TimeLimitMS    int64 `json:"time_limit_ms"`
	MaxOutputBytes int64 `json:"max_output_bytes"`
}

// MarshalJSON encodes the time limit in milliseconds.
func (l Limits) MarshalJSON() ([]byte, error) {
	return json.Marshal(limitsJSON{budget.Millis(l.TimeLimit), l.MaxOutputBytes})
}

// UnmarshalJSON decodes the form MarshalJSON writes.
func (l *Limits) UnmarshalJSON(b []byte) error {
	var j limitsJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*l = Limits{TimeLimit: budget.FromMillis(j.TimeLimitMS), MaxOutputBytes: j.MaxOutputBytes}
	return nil
}

// Request is what a handler receives.
type Request struct {
	// Tool is the tool name.
	Tool string
	// Args are the normalized, validated arguments (canonical JSON).
	Args json.RawMessage
	// Details are what the preflight resolved.
	Details map[string]any
	// IdempotencyKey identifies the effect attempt for providers; empty
	// for read tools.
	IdempotencyKey string
	// Capabilities are the caller's: the grant the call was authorized
	// under. A handler that acts for the caller (spawns a child, calls on)
	// gives it no capability outside them.
	Capabilities capability.Set
}

// Handler runs a tool. It must honour ctx. Its value is encoded as JSON
// (a json.RawMessage is used as is) and checked against the result schema.
type Handler func(ctx context.Context, req Request) (any, error)

// Preflight is a pure validator run before authority: it may normalize the
// arguments (returning nil keeps them) and returns details, such as a
// resolved path, that become part of the operation fingerprint. A
// confinement refusal should be a *fault.Error with Kind
// confinement_denied.
type Preflight func(ctx context.Context, args json.RawMessage) (normalized json.RawMessage, details map[string]any, err error)

// Spec declares a tool.
type Spec struct {
	Name        string           // protocol token: 1-64 of [A-Za-z0-9_.-]
	Description string           // shown to models
	Args        json.RawMessage  // JSON Schema of the arguments (required)
	Result      json.RawMessage  // JSON Schema of the result (required)
	Capability  capability.Cap   // optional; must be exactly tool:NAME
	Effect      authority.Effect // required
	// AuthorityCeiling, when set, is the broadest authority tier the
	// tool's effects run under, whatever the caller's tier (the stricter
	// wins; see authority.Operation.Ceiling): approve_diff, allow_session
	// or dangerous. The host sets it (an MCP server's "authority").
	AuthorityCeiling authority.Tier
	Limits           Limits    // zero fields take the defaults
	Handler          Handler   // required
	Preflight        Preflight // optional
	// Cooperative declares that the handler returns soon after its
	// context ends (at the time limit or when the call is cancelled), as
	// rlm_subagent's does: the runtime then calls it on the goroutine
	// that runs the call instead of on a goroutine of its own that it
	// abandons at the time limit. Outcomes are the same (past the time
	// limit the call fails with Kind timeout, and an effect's outcome is
	// indeterminate); the call just returns when the handler does, and a
	// waiting call holds one goroutine fewer.
	Cooperative bool

	deriveErr error // Func: a schema could not be derived
}

// Schema is the public description of a registered tool.
type Schema struct {
	Name        string           `json:"name"`
	Description string           `json:"description"`
	Capability  capability.Cap   `json:"capability"`
	Effect      authority.Effect `json:"effect"`
	// AuthorityCeiling is Spec.AuthorityCeiling (omitted when none).
	AuthorityCeiling authority.Tier  `json:"authority_ceiling,omitempty"`
	Arguments        json.RawMessage `json:"arguments"`
	Result           json.RawMessage `json:"result"`
	Limits           Limits          `json:"limits"`
}

type entry struct {
	schema    Schema
	args      *Validator
	result    *Validator
	handler   Handler
	preflight Preflight
	coop      bool // Spec.Cooperative
}

// Registry holds tools. It is safe for concurrent use.
type Registry struct {
	mu      sync.RWMutex
	tools   map[string]*entry
	version uint64 // changes with every Register and Unregister
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{tools: map[string]*entry{}} }

// ValidName reports whether name is a protocol token: 1-64 bytes of
// [A-Za-z0-9_.-].
func ValidName(name string) bool {
	if len(name) == 0 || len(name) > 64 {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-') {
			return false
		}
	}
	return true
}

func invalidTool(name, msg string) *fault.Error {
	return fault.New(fault.PhaseTool, KindInvalidTool, msg).With("tool", name)
}

// Register validates spec, compiles its schemas and adds it. Errors:
// invalid_tool (bad name, effect, capability, limits or missing handler),
// invalid_schema (a schema does not compile) and duplicate_tool.
func (r *Registry) Register(spec Spec) error {
	if spec.deriveErr != nil {
		return spec.deriveErr
	}
	if !ValidName(spec.Name) {
		return invalidTool(spec.Name, "tool name must be 1-64 of [A-Za-z0-9_.-]")
	}
	want := capability.Tool(spec.Name)
	if spec.Capability != "" && spec.Capability != want {
		return invalidTool(spec.Name, "tool capability must be exactly tool:NAME").With("capability", string(spec.Capability))
	}
	if !spec.Effect.Valid() {
		return invalidTool(spec.Name, "effect class is required and must be known").With("effect", string(spec.Effect))
	}
	if !authority.ValidCeiling(spec.AuthorityCeiling) {
		return invalidTool(spec.Name, "an authority ceiling must be approve_diff, allow_session or dangerous").
			With("authority_ceiling", string(spec.AuthorityCeiling))
	}
	if spec.Handler == nil {
		return invalidTool(spec.Name, "handler is required")
	}
	lim := spec.Limits
	if lim.TimeLimit < 0 || lim.MaxOutputBytes < 0 {
		return invalidTool(spec.Name, "limits must be positive")
	}
	lim.TimeLimit = cmp.Or(lim.TimeLimit, DefaultTimeLimit)
	lim.MaxOutputBytes = cmp.Or(lim.MaxOutputBytes, DefaultMaxOutputBytes)
	args, argsRaw, err := compileSchema(spec.Name, "arguments", spec.Args)
	if err != nil {
		return err
	}
	result, resultRaw, err := compileSchema(spec.Name, "result", spec.Result)
	if err != nil {
		return err
	}
	e := &entry{
		schema: Schema{Name: spec.Name, Description: spec.Description, Capability: want, Effect: spec.Effect,
			AuthorityCeiling: spec.AuthorityCeiling, Arguments: argsRaw, Result: resultRaw, Limits: lim},
		args: args, result: result, handler: spec.Handler, preflight: spec.Preflight, coop: spec.Cooperative,
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.tools[spec.Name]; dup {
		return fault.New(fault.PhaseTool, KindDuplicateTool, "a tool with this name is registered").With("tool", spec.Name)
	}
	r.tools[spec.Name] = e
	r.version++
	return nil
}

// Unregister removes the named tool and reports whether it was registered.
// Calls already past lookup finish with the entry they found; later calls
// fail with unknown_tool. Importers of tools whose set changes at run time
// (package mcp, on tools/list_changed) use it with Register.
func (r *Registry) Unregister(name string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, ok := r.tools[name]
	if ok {
		delete(r.tools, name)
		r.version++
	}
	return ok
}

// Version changes whenever a tool is registered or unregistered: a caller
// that compiled a catalog from the registry (rlm direct) compares it to
// know when to compile again.
func (r *Registry) Version() uint64 {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.version
}

// Schemas returns the schemas of all tools sorted by name.
func (r *Registry) Schemas() []Schema {
	r.mu.RLock()
	out := make([]Schema, 0, len(r.tools))
	for _, e := range r.tools {
		out = append(out, e.schema)
	}
	r.mu.RUnlock()
	slices.SortFunc(out, func(a, b Schema) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Lookup returns the schema of the named tool.
func (r *Registry) Lookup(name string) (Schema, bool) {
	e := r.get(name)
	if e == nil {
		return Schema{}, false
	}
	return e.schema, true
}

func (r *Registry) get(name string) *entry {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.tools[name]
}
