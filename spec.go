package rlm

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/tool"
)

// Spec is everything a run needs, as data: the contexts, the mode, the
// models and the server that answers them, the limits, the capabilities
// and tools, the outputs and durability. It round-trips through JSON (a
// durable run stores it; rlm submit sends it to the workers), except the
// Go values a program adds (Tools). The zero value of every field is its
// default; Validate checks a Spec, and Open checks it again.
type Spec struct {
	// Context names the input: files, directories (their text files),
	// "-" (stdin, spooled to disk) or mcp://SERVER/URI resources of the
	// MCP servers file MCP. Several paths make one context listing them.
	Context []string `json:"context,omitempty"`
	// Mode is how the root model works: "plan" (default: validated JSON
	// plans), "code" (Python in the sandboxed, budgeted interpreter) or
	// "auto" (ModeAuto: one direct call when the context and query fit
	// in AutoShare of the root model's window, else code).
	Mode string `json:"mode,omitempty"`
	// AutoShare is the share of the root model's window (0 < share <= 1)
	// a ModeAuto run's direct prompt may take (0: DefaultAutoShare).
	AutoShare float64 `json:"auto_share,omitempty"`
	// ContextWindow is the root model's context window in tokens (0: the
	// run's model table's, ModelWindows over model.Table). When set it is
	// the host's entry for Model, above ModelWindows: ModeAuto decides
	// with it, the root loop's prompt must fit it (compaction keeps it
	// there), and every call to Model is admitted against it.
	ContextWindow int `json:"context_window,omitempty"`
	// CompactAt is the share of ContextWindow (above 0, at most 1) the
	// root conversation reaches before its older turns are replaced by a
	// summary (0: engine.DefaultCompactAt; docs/engine.md, "Compaction").
	CompactAt float64 `json:"compact_at,omitempty"`
	// NoCompaction turns compaction off: a root prompt that cannot fit
	// ContextWindow then fails before it is sent (prompt_too_large).
	NoCompaction bool `json:"no_compaction,omitempty"`
	// ModelWindows extend and override the shipped model table
	// (model.Table): context window, max output and tokenizer of the
	// models whose names start with each entry's prefix (the longest
	// prefix wins, a provider prefix is ignored). Every model call is
	// admitted against its model's window; a server's context-length
	// error lowers a window for the rest of the run. ContextWindow, when
	// set, is the root model's entry above these. (--model-window
	// NAME=TOKENS[:MAXOUT])
	ModelWindows []model.Info `json:"model_windows,omitempty"`
	// NoAutoSplit turns off the automatic re-split of sub-calls
	// (llm_query, llm_query_batched, plan model steps and map items,
	// rlm_query) whose prompt does not fit the sub-model's window: they
	// fail with prompt_too_large instead (--no-auto-split).
	NoAutoSplit bool `json:"no_auto_split,omitempty"`
	// Python is code mode's interpreter: "embedded" (default) or "pyodide".
	Python string `json:"python,omitempty"`

	// Provider is the API the model server speaks: "openai" (default: any
	// OpenAI-compatible server) or "anthropic".
	Provider string `json:"provider,omitempty"`
	// BaseURL is the server (default: the provider's public API).
	BaseURL string `json:"base_url,omitempty"`
	// Model is the root model (default "gpt-4o-mini"); SubModel answers
	// sub-calls and children (default: Model).
	Model    string `json:"model,omitempty"`
	SubModel string `json:"sub_model,omitempty"`
	// FallbackModels, on the same server, answer a call its model could
	// not (a server error or rate limit past the retries, a failed
	// connection, a prompt longer than its context), in order; each
	// switch is a trace note, and usage is priced by the model that
	// answered (model.Fallback). WithFallbacks adds models on other
	// providers.
	FallbackModels []string `json:"fallback_models,omitempty"`
	// APIKeyEnv is the environment variable holding the API key (default:
	// OPENAI_API_KEY, OPENROUTER_API_KEY for openrouter.ai,
	// ANTHROPIC_API_KEY for anthropic). The key itself is never in a Spec.
	APIKeyEnv string `json:"api_key_env,omitempty"`
	// RequestTimeout bounds each HTTP request (0: the provider's default;
	// negative: none). JSON: request_timeout_ms.
	RequestTimeout time.Duration `json:"-"`
	// Replay answers model calls from this cassette (no network); Record
	// writes every model interaction to a cassette when the session closes.
	Replay string `json:"replay,omitempty"`
	Record string `json:"record,omitempty"`
	// StrictCost refuses a model without a price (its cost, and so
	// Limits.MaxCostUSD, cannot be accounted).
	StrictCost bool `json:"strict_cost,omitempty"`
	// Cache configures the response cache.
	Cache CacheSpec `json:"cache,omitzero"`

	// Limits are the tree-wide budgets (zero fields take defaults).
	Limits budget.Limits `json:"limits,omitzero"`
	// DeepRecursion (JSON experimental_deep_recursion, as before) is
	// deprecated, accepted and ignored: Limits.MaxDepth up to
	// engine.MaxSupportedDepth needs no opt-in, and above it a run is
	// refused with or without this field.
	DeepRecursion bool `json:"experimental_deep_recursion,omitempty"`
	// Stream streams root replies (Observer sees the deltas).
	Stream bool `json:"stream,omitempty"`
	// MaxRepairs is how many rejected replies in a row are answered with a
	// repair message before the run fails (0: the default; negative: none).
	MaxRepairs int `json:"max_repairs,omitempty"`
	// AnswerSchema types the final answer (JSON Schema draft 2020-12,
	// self-contained): the answer must match it, an answer that does not
	// gets a repair message (MaxRepairs of them in a run), and the
	// result carries the value as JSON (Result.AnswerJSON, answer_json).
	// AnswerSchemaFile names a file holding it instead (--answer-schema
	// FILE); give one or the other. It is compiled when the session
	// opens: answer_schema_invalid (docs/engine.md, "Typed answers").
	AnswerSchema     json.RawMessage `json:"answer_schema,omitempty"`
	AnswerSchemaFile string          `json:"answer_schema_file,omitempty"`

	// Allow are the capabilities granted beyond the defaults, e.g.
	// "tool:fs_read" (comma-separated lists are split). Tools added by a
	// program (Tools) are granted without being listed here.
	Allow []string `json:"allow,omitempty"`
	// Authority is the authority tier of tool calls (default approve_diff).
	Authority string `json:"authority,omitempty"`
	// Workspace is the directory the built-in workspace tools are confined
	// to (default ".").
	Workspace string `json:"workspace,omitempty"`
	// StateDir holds the durable effect journal (default
	// $XDG_STATE_HOME/rlm or ~/.local/state/rlm), opened when an effectful
	// tool is granted.
	StateDir string `json:"state_dir,omitempty"`
	// Resume continues the run RUN_ID: the effects it recorded are
	// replayed, never executed again (with Durable.Database: the durable
	// run to continue).
	Resume string `json:"resume,omitempty"`
	// MCP is an MCP servers file ({"mcpServers": {...}}): the tools of the
	// servers Allow grants join the catalog as mcp.SERVER.TOOL, and
	// Context may name their resources.
	MCP string `json:"mcp,omitempty"`
	// Tools are tools a Go program adds (tool.Func builds one). They are
	// granted to the root; an effectful one opens the effect journal.
	Tools []tool.Spec `json:"-"`

	// Trace writes the run's trace to this file (.jsonl: JSON lines that
	// grow while the run goes on; else one JSON document).
	Trace string `json:"trace,omitempty"`
	// TraceContent records model replies (bounded, credentials redacted)
	// in the trace: engine.Config.TraceContent for Run,
	// direct.Config.TraceContent for Direct (replies, the calls' arguments
	// and observations, thumbnails of the images sent).
	TraceContent bool `json:"trace_content,omitempty"`
	// OTLP exports the run's spans over OTLP/HTTP.
	OTLP OTLPSpec `json:"otlp,omitzero"`

	// Durable makes Run a durable run on PostgreSQL.
	Durable DurableSpec `json:"durable,omitzero"`
	// Direct configures Session.Direct, the native tool-calling loop.
	Direct DirectSpec `json:"direct,omitzero"`
	// Delegation configures the children rlm_subagent spawns (capability
	// subagent in Allow).
	Delegation DelegationSpec `json:"delegation,omitzero"`
}

// CacheSpec configures the response cache (docs/model.md, "Response
// cache"). Identical deterministic requests of one session are answered
// once unless Off.
type CacheSpec struct {
	// Dir keeps responses across sessions.
	Dir string `json:"dir,omitempty"`
	// AnyTemperature also shares requests whose temperature is not 0.
	AnyTemperature bool `json:"any_temperature,omitempty"`
	// Temperature, when set, is sent with every request that has none.
	Temperature *float64 `json:"temperature,omitempty"`
	// Off makes every request, even identical deterministic ones.
	Off bool `json:"off,omitempty"`
}

// OTLPSpec configures the OpenTelemetry export.
type OTLPSpec struct {
	// Endpoint is the OTLP/HTTP endpoint (the standard OTEL_EXPORTER_OTLP_*
	// variables also enable and configure the export).
	Endpoint string `json:"endpoint,omitempty"`
	// Content also exports recorded content.
	Content bool `json:"content,omitempty"`
}

// DurableSpec makes a run durable (package durable, docs/distributed.md).
type DurableSpec struct {
	// Database is the PostgreSQL URL of the durable runs.
	Database string `json:"database,omitempty"`
	// Queue sends the sub-model calls through this DBOS queue to the rlm
	// worker processes serving it.
	Queue string `json:"queue,omitempty"`
}

// DirectSpec configures the direct runtime (Session.Direct).
type DirectSpec struct {
	// Projection is the tool schema projection: "compiled" (default) or
	// "all_tools".
	Projection string `json:"projection,omitempty"`
	// MaxNativeCallsPerBatch caps the tool calls of one model response
	// (0: the default; -1: unlimited).
	MaxNativeCallsPerBatch int `json:"max_native_calls_per_batch,omitempty"`
	// MaxTokens caps each request's completion (0: the default).
	MaxTokens int `json:"max_tokens,omitempty"`
	// SynthesisReserve asks for the final answer without tools when this
	// much of the time limit is left (0: off). JSON: synthesis_reserve_ms.
	SynthesisReserve time.Duration `json:"-"`
}

// specJSON adds the durations' JSON forms (milliseconds).
type specJSON struct {
	plainSpec
	RequestTimeoutMS int64 `json:"request_timeout_ms,omitempty"`
}

type plainSpec Spec

// MarshalJSON writes the Spec with RequestTimeout as request_timeout_ms.
func (s Spec) MarshalJSON() ([]byte, error) {
	return json.Marshal(specJSON{plainSpec(s), budget.Millis(s.RequestTimeout)})
}

// UnmarshalJSON reads what MarshalJSON writes; unknown fields are refused
// (a misspelled field would silently take its default).
func (s *Spec) UnmarshalJSON(b []byte) error {
	var w specJSON
	if err := decodeStrict(b, &w); err != nil {
		return fault.Wrap(err, fault.PhaseConfig, KindInvalidSpec, "the run spec is not valid JSON for rlm.Spec").
			WithHint("see the fields of rlm.Spec (docs/launch.md)")
	}
	*s = Spec(w.plainSpec)
	s.RequestTimeout = time.Duration(w.RequestTimeoutMS) * time.Millisecond
	return nil
}

// MarshalJSON writes SynthesisReserve as synthesis_reserve_ms.
func (d DirectSpec) MarshalJSON() ([]byte, error) {
	type plain DirectSpec
	return json.Marshal(struct {
		plain
		SynthesisReserveMS int64 `json:"synthesis_reserve_ms,omitempty"`
	}{plain(d), budget.Millis(d.SynthesisReserve)})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (d *DirectSpec) UnmarshalJSON(b []byte) error {
	type plain DirectSpec
	var w struct {
		plain
		SynthesisReserveMS int64 `json:"synthesis_reserve_ms,omitempty"`
	}
	if err := decodeStrict(b, &w); err != nil {
		return err
	}
	*d = DirectSpec(w.plain)
	d.SynthesisReserve = time.Duration(w.SynthesisReserveMS) * time.Millisecond
	return nil
}

// Error kinds of a launch.
const (
	// KindInvalidSpec reports JSON that is not an rlm.Spec, or a run spec
	// a submitted run lacks.
	KindInvalidSpec fault.Kind = "invalid_spec"
	// KindUnwritableOutput reports an output path (Trace, Record) that
	// cannot be written, found before any model call.
	KindUnwritableOutput fault.Kind = "unwritable_output"
	// KindUnpricedModel reports a model without a price under StrictCost.
	KindUnpricedModel fault.Kind = "unpriced_model"
	// KindInvalidUsage reports a command line or Spec combination that
	// cannot work together (the CLI: a command line cobra rejected, an
	// unknown --provider, --record with --cache DIR).
	KindInvalidUsage fault.Kind = "invalid_usage"
)

// Validate checks the Spec without opening anything: every enumerated
// field has a known value, the capabilities parse, and Limits.MaxDepth is
// at most engine.MaxSupportedDepth. Errors are *fault.Error of phase config or validate.
func (s Spec) Validate() error {
	for _, f := range []struct {
		field, value, hint string
		kind               fault.Kind
		known              []string
	}{
		{"mode", s.Mode, "use plan, code or auto", fault.KindInvalidConfig, []string{engine.ModePlan, engine.ModeCode, ModeAuto}},
		{"python", s.Python, "use embedded or pyodide", fault.KindInvalidConfig, []string{engine.PythonEmbedded, engine.PythonPyodide}},
		{"provider", s.Provider, "use openai (any OpenAI-compatible server) or anthropic", KindInvalidUsage, []string{"openai", "anthropic"}},
		{"direct.projection", s.Direct.Projection, "use compiled or all_tools", fault.KindInvalidConfig, []string{"compiled", "all_tools"}},
	} {
		if f.value != "" && !slices.Contains(f.known, f.value) {
			return fault.New(fault.PhaseConfig, f.kind, "unknown "+f.field+" "+strconv.Quote(f.value)).
				With("field", f.field).WithHint(f.hint)
		}
	}
	if s.Authority != "" {
		if _, err := authority.ParseTier(s.Authority); err != nil {
			return err
		}
	}
	if _, err := capability.NewSet(capability.SplitList(s.Allow)...); err != nil {
		return err
	}
	for _, m := range s.FallbackModels {
		if strings.TrimSpace(m) == "" {
			return fault.New(fault.PhaseConfig, KindInvalidUsage, "an empty fallback model").With("field", "fallback_models").
				WithHint("name each fallback model (--fallback-model MODEL)")
		}
	}
	if math.IsNaN(s.AutoShare) || s.AutoShare < 0 || s.AutoShare > 1 {
		return fault.New(fault.PhaseConfig, fault.KindInvalidConfig, "auto share out of range").With("field", "auto_share").With("value", s.AutoShare).
			WithHint("give a share of the window above 0 and at most 1 (--auto-share 0.5)")
	}
	if s.ContextWindow < 0 {
		return fault.New(fault.PhaseConfig, fault.KindInvalidConfig, "negative context window").With("field", "context_window").With("value", s.ContextWindow).
			WithHint("give the root model's window in tokens (--context-window 128000), or 0 for the model table's")
	}
	if math.IsNaN(s.CompactAt) || s.CompactAt < 0 || s.CompactAt > 1 {
		return fault.New(fault.PhaseConfig, fault.KindInvalidConfig, "compaction threshold out of range").With("field", "compact_at").With("value", s.CompactAt).
			WithHint("give a share of the window above 0 and at most 1 (--compact-at 0.8)")
	}
	if s.NoCompaction && s.CompactAt != 0 {
		return fault.New(fault.PhaseConfig, fault.KindInvalidConfig, "a compaction threshold with compaction off").With("field", "compact_at").With("value", s.CompactAt).
			WithHint("give either --compact-at or --no-compaction, not both")
	}
	for _, w := range s.ModelWindows {
		if strings.TrimSpace(w.Prefix) == "" || w.Window <= 0 || w.MaxOutput < 0 || w.MaxOutput > w.Window {
			return fault.New(fault.PhaseConfig, fault.KindInvalidConfig, "invalid model window").With("field", "model_windows").
				With("model", w.Prefix).With("window", w.Window).With("max_output", w.MaxOutput).
				WithHint("give a model name prefix, a positive window and a max output no larger than it (--model-window gpt-4o-mini=128000:16384)")
		}
	}
	if len(s.AnswerSchema) > 0 && s.AnswerSchemaFile != "" {
		return fault.New(fault.PhaseConfig, KindInvalidUsage, "both an answer schema and an answer schema file").With("field", "answer_schema").
			WithHint("give the schema inline (answer_schema) or as a file (answer_schema_file, --answer-schema FILE), not both")
	}
	if err := engine.CheckDepth(s.Limits.MaxDepth); err != nil {
		return err
	}
	for _, t := range s.Tools {
		if !tool.ValidName(t.Name) {
			return fault.New(fault.PhaseConfig, tool.KindInvalidTool, "invalid tool name").With("tool", t.Name)
		}
	}
	return nil
}

// withDefaults returns the Spec with its defaults filled in.
func (s Spec) withDefaults() Spec {
	if s.Model == "" {
		s.Model = DefaultModel
	}
	if s.Mode == "" {
		s.Mode = engine.ModePlan
	}
	if s.Python == "" {
		s.Python = engine.PythonEmbedded
	}
	if s.Provider == "" {
		s.Provider = "openai"
	}
	if s.Authority == "" {
		s.Authority = string(authority.DefaultTier)
	}
	if s.Workspace == "" {
		s.Workspace = "."
	}
	return s
}

// DefaultModel is the root model of a Spec that names none.
const DefaultModel = "gpt-4o-mini"

// compaction is the engine's compaction configuration of the Spec.
func (s Spec) compaction() engine.Compaction {
	return engine.Compaction{Off: s.NoCompaction, At: s.CompactAt}
}
