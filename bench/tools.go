package bench

import (
	"context"
	"strings"

	"github.com/rlm-go/rlm/tool"
)

// WordCountTool is the one tool the conformance suite registers: it counts
// the whitespace-separated words of {"content": "..."} and returns
// {"words": N}. (The argument is not named "text": an object whose only
// key is "text" is the plan language's text expression.)
const WordCountTool = "word_count"

type wordCountIn struct {
	Content string `json:"content"`
}

type wordCountOut struct {
	Words int `json:"words"`
}

// wordTools registers word_count in a fresh registry and returns it behind
// the real tool runtime, so the conformance suite runs the canonical
// pipeline (schema, capability, limits, authority, tracing).
func wordTools() (*tool.ModelTools, error) {
	reg := tool.NewRegistry()
	err := reg.Register(tool.Func(WordCountTool, "Count the whitespace-separated words of a text.",
		func(ctx context.Context, in wordCountIn) (wordCountOut, error) {
			return wordCountOut{Words: len(strings.Fields(in.Content))}, nil
		}))
	if err != nil {
		return nil, err
	}
	return &tool.ModelTools{Registry: reg, Invoker: tool.NewRuntime(reg, tool.Config{})}, nil
}
