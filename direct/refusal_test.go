package direct

import (
	"encoding/json"
	"testing"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
)

// TestRefusalIsTypedOutcome: a reply that refuses (content null, a
// "refusal" text) ends the run with Kind refused carrying the text, not
// missing_final_output; its usage is charged.
func TestRefusalIsTypedOutcome(t *testing.T) {
	refusal := json.RawMessage(`{"id":"r1","object":"chat.completion","model":"gpt-4o","choices":[{"index":0,
		"message":{"role":"assistant","content":null,"refusal":"I can't help with that."},"finish_reason":"stop"}],
		"usage":{"prompt_tokens":100,"completion_tokens":10,"total_tokens":110}}`)
	f := newFixture(t, fixOpts{}, refusal)
	_, err := f.run(t, "hello")
	de := wantFault(t, err, "provider", model.KindRefused)
	if fe := fault.As(err); fe.Detail["refusal"] != "I can't help with that." || de.Usage.TotalTokens != 110 {
		t.Errorf("error %v detail %v usage %+v", de, fe.Detail, de.Usage)
	}
}

// TestEmptyCallIDIsRepaired: a tool call sent with "id": "" (Gemini's
// OpenAI-compatible endpoint) gets the provider's deterministic id and is
// run, not refused.
func TestEmptyCallIDIsRepaired(t *testing.T) {
	f := newFixture(t, fixOpts{}, completion("", call("", "probe_read", validRead)), final("done"))
	res, err := f.run(t, "probe")
	if err != nil || res.Answer != "done" || f.reads.Load() != 1 {
		t.Fatalf("res=%+v err=%v", res, err)
	}
	if m := f.srv.requests(t)[1].Messages[3]; m.Role != "tool" || m.ToolCallID == "" {
		t.Errorf("tool message %+v", m)
	}
}
