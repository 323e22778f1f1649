package model

import (
	"strings"
	"testing"

	"github.com/rlm-go/rlm/fault"
)

func TestWindowsLookup(t *testing.T) {
	ws := NewWindows(Info{Prefix: "llama3.1", Window: 8192, MaxOutput: 2048}, Info{Prefix: "gpt-4o-mini", Window: 32_000}, Info{Prefix: "llama3.1", Window: 4096})
	for _, c := range []struct {
		name, model string
		window, out int
		source      string
	}{
		{"shipped", "gpt-4o", 128_000, 16_384, SourceTable},
		{"shipped, dated", "gpt-4o-2024-08-06", 128_000, 16_384, SourceTable},
		{"provider prefix", "openai/gpt-4.1-mini", 1_047_576, 32_768, SourceTable},
		{"longest prefix", "claude-3-5-haiku-latest", 200_000, 8_192, SourceTable},
		{"host over shipped, max output kept", "gpt-4o-mini", 32_000, 16_384, SourceHost},
		{"host, the later entry wins", "llama3.1:8b", 4096, 0, SourceHost},
		{"unknown", "qwen2.5", DefaultContextWindow, 0, SourceDefault},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := ws.Lookup(c.model)
			if w.Window != c.window || w.MaxOutput != c.out || w.Source != c.source {
				t.Errorf("Lookup(%q) = %+v, want window %d, max output %d, source %s", c.model, w, c.window, c.out, c.source)
			}
		})
	}
	// ContextWindow is the shipped table's, host entries aside.
	if w, ok := ContextWindow("gpt-4o-mini"); w != 128_000 || !ok {
		t.Errorf("ContextWindow = %d, %v", w, ok)
	}
}

func TestWindowsLearn(t *testing.T) {
	ws := NewWindows()
	if before := ws.Learn("gpt-4o", 100_000); before != 128_000 {
		t.Fatalf("before %d", before)
	}
	if w := ws.Lookup("gpt-4o"); w.Window != 100_000 || w.Source != SourceLearned {
		t.Fatalf("%+v", w)
	}
	ws.Learn("gpt-4o", 120_000) // never raised
	if w := ws.Lookup("gpt-4o"); w.Window != 100_000 {
		t.Fatalf("raised to %d", w.Window)
	}
	if w := ws.Lookup("gpt-4o-mini"); w.Window != 128_000 {
		t.Fatalf("another model changed: %+v", w)
	}
	var none *Windows // the shipped table, which learns nothing
	none.Learn("gpt-4o", 10)
	if w := none.Lookup("gpt-4o"); w.Window != 128_000 {
		t.Fatalf("%+v", w)
	}
}

func TestOutputReserve(t *testing.T) {
	for _, c := range []struct {
		w         Window
		maxTokens int
		want      int
	}{
		{Window{Info: Info{Window: 128_000, MaxOutput: 16_384}}, 4096, 4096},
		{Window{Info: Info{Window: 128_000, MaxOutput: 2048}}, 4096, 2048},
		{Window{Info: Info{Window: 1000}}, 4096, 250},
		{Window{Info: Info{Window: 128_000}}, 0, DefaultOutputReserve},
	} {
		if got := c.w.OutputReserve(c.maxTokens); got != c.want {
			t.Errorf("%+v.OutputReserve(%d) = %d, want %d", c.w, c.maxTokens, got, c.want)
		}
	}
}

func TestContextLengthErrors(t *testing.T) {
	for _, c := range []struct {
		name    string
		err     error
		is      bool
		limit   int
		limitOK bool
	}{
		{"openai", fault.New(fault.PhaseProvider, KindHTTPStatus, "400").With("status", 400).With("error_code", "context_length_exceeded").
			With("error_message", "This model's maximum context length is 8,192 tokens. However, you requested 9000 tokens."), true, 8192, true},
		{"llama.cpp", fault.New(fault.PhaseProvider, KindHTTPStatus, "400").With("status", 400).With("error_type", "exceed_context_size_error").
			With("error_message", "the request exceeds the available context size (4096 tokens)"), true, 4096, true},
		{"vllm, n_ctx", fault.New(fault.PhaseProvider, KindHTTPStatus, "400").With("status", 400).With("error_code", "context_length_exceeded").
			With("error_message", "prompt too long, n_ctx = 2048"), true, 2048, true},
		{"no limit stated", fault.New(fault.PhaseProvider, KindHTTPStatus, "413").With("status", 413).With("error_code", "context_length_exceeded"), true, 0, false},
		{"another 400", fault.New(fault.PhaseProvider, KindHTTPStatus, "400").With("status", 400).With("error_code", "invalid_value"), false, 0, false},
		{"a 500", fault.New(fault.PhaseProvider, KindHTTPStatus, "500").With("status", 500).With("error_code", "context_length_exceeded"), false, 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := IsContextLength(c.err); got != c.is {
				t.Errorf("IsContextLength = %v", got)
			}
			if n, ok := StatedLimit(c.err); n != c.limit || ok != c.limitOK {
				t.Errorf("StatedLimit = %d, %v", n, ok)
			}
		})
	}
}

// A model nobody knows is admitted whatever its prompt (its window may be
// larger than the default) and its max_tokens is left as asked, until a
// server's context-length error teaches the run its window; a host entry
// given with a provider prefix applies to the bare name.
func TestUnknownWindowAdmitsUntilLearned(t *testing.T) {
	ws := NewWindows(Info{Prefix: "openrouter/qwen3-small", Window: 1000})
	big := Request{Model: "qwen3-coder", MaxTokens: 500, Messages: []Message{{Role: RoleUser, Content: strings.Repeat("many words here ", 100_000)}}}
	f := ws.Check(big)
	if f.Source != SourceDefault || !f.Fits() || f.MaxTokens != 500 || f.PromptTokens <= DefaultContextWindow {
		t.Fatalf("unknown model: %+v", f)
	}
	ws.Learn("qwen3-coder", 32_000)
	if f := ws.Check(big); f.Source != SourceLearned || f.Fits() {
		t.Fatalf("after learning: %+v", f)
	}
	small := Request{Model: "qwen3-small-instruct", Messages: []Message{{Role: RoleUser, Content: strings.Repeat("word ", 2000)}}}
	if f := ws.Check(small); f.Source != SourceHost || f.Window.Window != 1000 || f.Fits() {
		t.Fatalf("host entry with a provider prefix: %+v", f)
	}
}
