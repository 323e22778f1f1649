package bench

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
)

// WordCountTool is the one tool the conformance suite registers: it counts
// the whitespace-separated words of {"content": "..."} and returns
// {"words": N}. (The argument is not named "text": an object whose only
// key is "text" is the plan language's text expression.)
const WordCountTool = "word_count"

// wordTools is a minimal deterministic engine.Tools for the conformance
// suite; it stands in until a tool runtime is wired.
type wordTools struct{}

var _ engine.Tools = wordTools{}

// Schemas implements engine.Tools.
func (wordTools) Schemas() []model.Tool {
	return []model.Tool{{
		Name:        WordCountTool,
		Description: "Count the whitespace-separated words of a text.",
		Parameters:  json.RawMessage(`{"type":"object","properties":{"content":{"type":"string"}},"required":["content"],"additionalProperties":false}`),
	}}
}

// Call implements engine.Tools.
func (wordTools) Call(ctx context.Context, caps capability.Set, name string, args json.RawMessage) (json.RawMessage, error) {
	if name != WordCountTool {
		return nil, fault.New(fault.PhaseTool, engine.KindToolUnavailable, "unknown tool").With("tool", name)
	}
	if !caps.Has(capability.Tool(name)) {
		return nil, fault.New(fault.PhaseTool, "capability_denied", "the tool is not granted").With("tool", name)
	}
	if err := ctx.Err(); err != nil {
		return nil, fault.FromContext(fault.PhaseTool, err)
	}
	var in struct {
		Content string `json:"content"`
	}
	if err := json.Unmarshal(args, &in); err != nil {
		return nil, fault.Wrap(err, fault.PhaseTool, "invalid_arguments", "arguments must be {\"content\": string}")
	}
	return json.Marshal(map[string]int{"words": len(strings.Fields(in.Content))})
}
