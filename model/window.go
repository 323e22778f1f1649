package model

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/tokens"
)

// KindPromptTooLarge reports a prompt that cannot be sent as is: a model
// call whose prompt plus its reserved output does not fit the model's
// context window (Windows.Check; detail model, window, prompt_tokens,
// reserved_output, source), or, in the engine, a root prompt that
// compaction is off for or cannot bring under the root window (detail
// model, window, prompt_tokens, max_tokens, size) and the text of a
// handle above the per-prompt byte limit.
const KindPromptTooLarge fault.Kind = "prompt_too_large"

// DefaultContextWindow is the context window, in tokens, assumed for a
// model the table does not know: 128,000, the window of gpt-4o and
// gpt-4o-mini (the default model), and the smallest of the table's
// OpenAI families. A host that knows better says so (rlm.Spec.ContextWindow
// and ModelWindows, --context-window and --model-window).
const DefaultContextWindow = 128_000

// DefaultOutputReserve is the output reserved for a call that sets no
// max_tokens when the table gives no smaller max output.
const DefaultOutputReserve = 4096

// Info is what the model table knows of one model family.
type Info struct {
	// Prefix is the model name prefix the entry matches (longest wins;
	// a provider prefix such as openrouter's "openai/" is ignored).
	Prefix string `json:"prefix"`
	// Window is the context window in tokens, input and output together.
	Window int `json:"window"`
	// MaxOutput is the most output tokens one call may ask for (0:
	// unknown, no bound beyond the window).
	MaxOutput int `json:"max_output,omitempty"`
	// Tokenizer is the tokenizer family: an OpenAI encoding (o200k_base,
	// cl100k_base, counted exactly when package bpe is linked) or the
	// vendor's name for one rlm counts with its estimate ("claude",
	// "gemini", "llama3").
	Tokenizer string `json:"tokenizer,omitempty"`
	// Vision reports a model that takes image input (CheckVision refuses
	// images for a known model without it). A host entry inherits it from
	// the shipped entry its prefix matches.
	Vision bool `json:"vision,omitempty"`
}

// table is the shipped model table: context window, max output and
// tokenizer family by name prefix, as the vendors publish them. The
// figures were taken from the vendors' model pages as last read by the
// project; this build could not re-check them offline, so a host that
// knows its server's limits better says so (--model-window), and a
// server's context-length error corrects a window for the rest of a run.
//
//   - gpt-4o, gpt-4o-mini: 128,000 / 16,384, o200k_base
//     (platform.openai.com/docs/models/gpt-4o, /gpt-4o-mini)
//   - gpt-4.1, -mini, -nano: 1,047,576 / 32,768, o200k_base
//     (platform.openai.com/docs/models/gpt-4.1)
//   - gpt-5, -mini, -nano: 400,000 / 128,000, o200k_base
//     (platform.openai.com/docs/models/gpt-5)
//   - o1: 200,000 / 100,000; o3, o4-mini: 200,000 / 100,000, o200k_base
//     (platform.openai.com/docs/models/o3, /o4-mini)
//   - gpt-4-turbo: 128,000 / 4,096; gpt-4: 8,192 / 8,192;
//     gpt-3.5-turbo: 16,385 / 4,096, cl100k_base
//     (platform.openai.com/docs/models/gpt-4-turbo, /gpt-3.5-turbo)
//   - claude-*: 200,000 (docs.anthropic.com/en/docs/about-claude/models/overview);
//     max output claude-3-haiku and claude-3-opus 4,096, claude-3-5-*
//     8,192, claude-3-7-sonnet and claude-sonnet-4 64,000,
//     claude-opus-4 32,000 (same page)
//   - gemini-1.5-pro: 2,097,152 / 8,192; gemini-1.5-flash and
//     gemini-2.0-flash: 1,048,576 / 8,192; gemini-2.5-pro and
//     gemini-2.5-flash: 1,048,576 / 65,536
//     (ai.google.dev/gemini-api/docs/models)
//   - llama-3.1-*, llama-3.3-*: 131,072 (the Llama 3.1 model card,
//     github.com/meta-llama/llama-models, models/llama3_1/MODEL_CARD.md)
//
// Vision (image input): the OpenAI families from gpt-4-turbo on, the
// claude-3 and later families and the Gemini families take images
// (the same pages); gpt-4, gpt-3.5-turbo and the Llama 3.1/3.3 text
// models do not.
var table = []Info{
	{"gpt-4o", 128_000, 16_384, tokens.O200kBase, true},
	{"chatgpt-4o", 128_000, 16_384, tokens.O200kBase, true},
	{"gpt-4.1", 1_047_576, 32_768, tokens.O200kBase, true},
	{"gpt-5", 400_000, 128_000, tokens.O200kBase, true},
	{"o1", 200_000, 100_000, tokens.O200kBase, true},
	{"o3", 200_000, 100_000, tokens.O200kBase, true},
	{"o4-mini", 200_000, 100_000, tokens.O200kBase, true},
	{"gpt-4-turbo", 128_000, 4_096, tokens.Cl100kBase, true},
	{"gpt-4", 8_192, 8_192, tokens.Cl100kBase, false},
	{"gpt-3.5-turbo", 16_385, 4_096, tokens.Cl100kBase, false},
	{"claude-", 200_000, 4_096, "claude", true},
	{"claude-3-5-", 200_000, 8_192, "claude", true},
	{"claude-3-7-sonnet", 200_000, 64_000, "claude", true},
	{"claude-sonnet-4", 200_000, 64_000, "claude", true},
	{"claude-opus-4", 200_000, 32_000, "claude", true},
	{"gemini-1.5-pro", 2_097_152, 8_192, "gemini", true},
	{"gemini-1.5-flash", 1_048_576, 8_192, "gemini", true},
	{"gemini-2.0-flash", 1_048_576, 8_192, "gemini", true},
	{"gemini-2.5-pro", 1_048_576, 65_536, "gemini", true},
	{"gemini-2.5-flash", 1_048_576, 65_536, "gemini", true},
	{"llama-3.1-", 131_072, 0, "llama3", false},
	{"llama-3.3-", 131_072, 0, "llama3", false},
}

// Table returns a copy of the shipped model table.
func Table() []Info { return append([]Info(nil), table...) }

// bareName drops a provider prefix ("openai/gpt-4o" is "gpt-4o").
func bareName(name string) string {
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		return name[i+1:]
	}
	return name
}

// lookup returns the entry of entries whose prefix is the longest prefix
// of name.
func lookup(entries []Info, name string) (Info, bool) {
	name = bareName(name)
	best := -1
	for i, w := range entries {
		// The longest prefix wins; of equal ones, the later entry.
		if strings.HasPrefix(name, w.Prefix) && (best < 0 || len(w.Prefix) >= len(entries[best].Prefix)) {
			best = i
		}
	}
	if best < 0 {
		return Info{}, false
	}
	return entries[best], true
}

// ContextWindow returns the context window of the model name in tokens
// in the shipped table and whether the table knows it (else
// DefaultContextWindow). A provider prefix (openrouter's "openai/gpt-4o")
// is ignored; the longest matching name prefix wins.
func ContextWindow(name string) (window int, known bool) {
	if w, ok := lookup(table, name); ok {
		return w.Window, true
	}
	return DefaultContextWindow, false
}

// TextTokens counts text's tokens with modelName's tokenizer, as
// PromptTokens counts a message's content (exact for the OpenAI encodings
// when the program links package bpe, the estimate otherwise; pieces of
// at most 64 KiB): never below what a provider counts for the same text.
func TextTokens(text, modelName string) int64 {
	return int64(countLong(tokens.ForModel(modelName), text))
}

// Where a model's window came from (Window.Source, the detail "source"
// of a prompt_too_large error).
const (
	SourceLearned = "learned" // a server's context-length error this run
	SourceHost    = "host"    // the host's entry (Spec.ModelWindows, --model-window, --context-window)
	SourceTable   = "table"   // the shipped table
	SourceDefault = "default" // DefaultContextWindow: a model nobody knows
)

// Window is the window a run uses for one model.
type Window struct {
	Info
	// Source is where the window came from (SourceLearned, SourceHost,
	// SourceTable or SourceDefault).
	Source string
}

// Windows is one run's model table: the host's entries over the shipped
// table, and the windows learned from servers during the run (by exact
// model name, above both). It is safe for concurrent use. A nil
// *Windows is the shipped table alone, which learns nothing.
type Windows struct {
	host []Info

	mu      sync.Mutex
	learned map[string]int
}

// NewWindows returns a run's table with the host's entries (each a
// prefix; an entry's zero MaxOutput or Tokenizer is taken from the
// shipped entry the prefix matches, if any).
func NewWindows(host ...Info) *Windows {
	w := &Windows{learned: map[string]int{}}
	for _, h := range host {
		h.Prefix = bareName(h.Prefix) // names are looked up without their provider prefix
		if base, ok := lookup(table, h.Prefix); ok {
			if h.MaxOutput == 0 {
				h.MaxOutput = base.MaxOutput
			}
			if h.Tokenizer == "" {
				h.Tokenizer = base.Tokenizer
			}
			h.Vision = h.Vision || base.Vision
		}
		w.host = append(w.host, h)
	}
	return w
}

// Lookup returns the window of the model name: learned this run, else
// the host's entry, else the shipped table's, else DefaultContextWindow.
func (w *Windows) Lookup(name string) Window {
	var out Window
	if w != nil {
		if h, ok := lookup(w.host, name); ok {
			out = Window{Info: h, Source: SourceHost}
		}
	}
	if out.Source == "" {
		if t, ok := lookup(table, name); ok {
			out = Window{Info: t, Source: SourceTable}
		} else {
			out = Window{Info: Info{Window: DefaultContextWindow, Tokenizer: tokens.EncodingFor(name)}, Source: SourceDefault}
		}
	}
	if w != nil {
		w.mu.Lock()
		n, ok := w.learned[name]
		w.mu.Unlock()
		if ok && n < out.Window {
			out.Window, out.Source = n, SourceLearned
		}
	}
	return out
}

// Learn lowers the window of the model name to tokens for the rest of the
// run and returns the window before. A window is never raised.
func (w *Windows) Learn(name string, tokens int) (before int) {
	before = w.Lookup(name).Window
	if w == nil || tokens <= 0 || tokens >= before {
		return before
	}
	w.mu.Lock()
	w.learned[name] = tokens
	w.mu.Unlock()
	return before
}

// OutputReserve is the output a call reserves in the window: its
// max_tokens (DefaultOutputReserve when unset), at most the model's max
// output and at most a quarter of the window, so a prompt of three
// quarters of the window is always admitted with a shrunk max_tokens.
func (w Window) OutputReserve(maxTokens int) int {
	r := maxTokens
	if r <= 0 {
		r = DefaultOutputReserve
	}
	if w.MaxOutput > 0 {
		r = min(r, w.MaxOutput)
	}
	return max(min(r, w.Window/4), 1)
}

// Fit is the window admission of one request.
type Fit struct {
	Window
	// Model is the request's model.
	Model string
	// PromptTokens is the request's worst-case prompt (PromptTokens).
	PromptTokens int64
	// Reserve is the output reserved (Window.OutputReserve).
	Reserve int
	// MaxTokens is the max_tokens to send: the request's, shrunk to what
	// the window leaves (0 when the request set none and the window
	// leaves room for the reserve).
	MaxTokens int
}

// Fits reports whether the prompt plus the reserved output fit the window.
// A model nobody knows (SourceDefault) fits whatever its prompt: its
// window is not known, so nothing is refused or re-split before the
// server says (a context-length error teaches the window, Learn, and the
// run's later calls are admitted against it).
func (f Fit) Fits() bool {
	return f.Source == SourceDefault || f.PromptTokens+int64(f.Reserve) <= int64(f.Window.Window)
}

// Room is how many prompt tokens the window leaves beside the reserve.
func (f Fit) Room() int64 { return int64(f.Window.Window) - int64(f.Reserve) }

// Check measures req against the window of its model. The prompt is
// counted as PromptTokens counts it (a worst case).
func (w *Windows) Check(req Request) Fit { return w.CheckCounted(req, PromptTokens(req, req.Model)) }

// CheckCounted is Check of a request whose prompt its caller has counted
// already: prompt must be PromptTokens(req, req.Model) (the engine counts
// each root turn's prompt to fit its conversation to the window, and the
// meter admits the turn with that count instead of counting it again).
func (w *Windows) CheckCounted(req Request, prompt int64) Fit {
	win := w.Lookup(req.Model)
	f := Fit{Window: win, Model: req.Model, PromptTokens: prompt, Reserve: win.OutputReserve(req.MaxTokens), MaxTokens: req.MaxTokens}
	if f.Fits() && req.MaxTokens > 0 && win.Source != SourceDefault {
		f.MaxTokens = int(min(int64(req.MaxTokens), int64(win.Window)-f.PromptTokens))
	}
	return f
}

// Err is the prompt_too_large error of a request that does not fit: it
// names the model, the window and its source, and the size.
func (f Fit) Err() *fault.Error {
	return fault.New(fault.PhaseExecute, KindPromptTooLarge,
		fmt.Sprintf("the prompt (%d tokens) and the reserved output (%d tokens) do not fit the %d-token window of model %s", f.PromptTokens, f.Reserve, f.Window.Window, f.Model)).
		With("model", f.Model).With("window", f.Window.Window).With("source", f.Source).
		With("prompt_tokens", f.PromptTokens).With("reserved_output", f.Reserve).
		WithHint("give the model's real window (--model-window " + bareName(f.Model) + "=TOKENS, rlm.Spec.ModelWindows), send smaller pieces, or leave automatic re-splitting on (no --no-auto-split)")
}

// IsContextLength reports a server's refusal of a prompt longer than the
// model's context: HTTP 400 or 413 with an error code or type naming it
// (OpenAI's context_length_exceeded, llama.cpp's
// exceed_context_size_error).
func IsContextLength(err error) bool {
	fe := fault.As(err)
	if fe == nil || fe.Kind != KindHTTPStatus {
		return false
	}
	status := statusOf(fe.Detail["status"])
	code, _ := fe.Detail["error_code"].(string)
	typ, _ := fe.Detail["error_type"].(string)
	return (status == 400 || status == 413) && (contextLengthCodes[code] || contextLengthCodes[typ])
}

// contextLimit finds the limit a context-length message states: OpenAI's
// "maximum context length is N tokens", vLLM's "maximum context length
// is N tokens" too, llama.cpp's "context size (N tokens)" /
// "n_ctx = N" / "n_ctx: N".
var contextLimit = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:maximum context length is|context size \(|n_ctx\s*[=:]\s*|context window of)\s*([0-9][0-9,]*)`)
})

// StatedLimit returns the context limit a server's context-length error
// states in its message, if it states one.
func StatedLimit(err error) (int, bool) {
	fe := fault.As(err)
	if fe == nil {
		return 0, false
	}
	msg, _ := fe.Detail["error_message"].(string)
	if msg == "" {
		msg = fe.Message
	}
	m := contextLimit().FindStringSubmatch(msg)
	if m == nil {
		return 0, false
	}
	n, err2 := strconv.Atoi(strings.ReplaceAll(m[1], ",", ""))
	if err2 != nil || n <= 0 {
		return 0, false
	}
	return n, true
}

// ShrinkFactor is how a window is corrected after a server's
// context-length error that states no limit (or states one no smaller
// than the window): to three quarters of the window before.
const ShrinkFactor = 0.75
