package model

import (
	"strings"

	"github.com/rlm-go/rlm/internal/tokens"
)

// DefaultContextWindow is the context window, in tokens, assumed for a
// model ContextWindow does not know: 128,000, the window of gpt-4o and
// gpt-4o-mini (the default model), and the smallest of the table's
// families. A host that knows better says so (rlm.Spec.ContextWindow,
// --context-window).
const DefaultContextWindow = 128_000

// windows are the context windows (input and output together, in tokens)
// of a few model families, by name prefix, as their vendors publish them:
//   - gpt-4o, gpt-4o-mini: 128,000 (platform.openai.com/docs/models/gpt-4o)
//   - gpt-4.1, -mini, -nano: 1,047,576 (platform.openai.com/docs/models/gpt-4.1)
//   - gpt-5, -mini, -nano: 400,000 (platform.openai.com/docs/models/gpt-5)
//   - o3, o4-mini: 200,000 (platform.openai.com/docs/models/o3)
//   - claude-*: 200,000 (docs.anthropic.com/en/docs/about-claude/models/overview)
//
// It is the smallest honest table (issue 31 item 5); the model table of
// item 1 (max output, tokenizer, windows learned from servers) replaces it.
var windows = []struct {
	prefix string
	tokens int
}{
	{"gpt-4o", 128_000},
	{"gpt-4.1", 1_047_576},
	{"gpt-5", 400_000},
	{"o3", 200_000},
	{"o4-mini", 200_000},
	{"claude-", 200_000},
}

// ContextWindow returns the context window of the model name in tokens
// and whether the table knows it (else DefaultContextWindow). A provider
// prefix (openrouter's "openai/gpt-4o") is ignored; the longest matching
// name prefix wins.
func ContextWindow(name string) (window int, known bool) {
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	best := -1
	for i, w := range windows {
		if strings.HasPrefix(name, w.prefix) && (best < 0 || len(w.prefix) > len(windows[best].prefix)) {
			best = i
		}
	}
	if best < 0 {
		return DefaultContextWindow, false
	}
	return windows[best].tokens, true
}

// TextTokens counts text's tokens with modelName's tokenizer, as
// PromptTokens counts a message's content (exact for the OpenAI encodings
// when the program links package bpe, the estimate otherwise; pieces of
// at most 64 KiB): never below what a provider counts for the same text.
func TextTokens(text, modelName string) int64 {
	return int64(countLong(tokens.ForModel(modelName), text))
}
