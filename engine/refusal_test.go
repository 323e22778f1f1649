package engine

import (
	"testing"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/replay"
)

// TestRefusalEndsRun: a root reply that is a refusal ends the run with
// Kind refused and the text, instead of a repair turn and
// missing_final_output.
func TestRefusalEndsRun(t *testing.T) {
	in := replay.Reply("", model.Response{Refusal: "I won't do that.", Meta: model.Meta{Model: "gpt-4o"}})
	f := newFixture(t, "some context", Config{}, in)
	_, err := f.run(t, "do it")
	fe := fault.As(err)
	if fe == nil || fe.Kind != model.KindRefused || fe.Detail["refusal"] != "I won't do that." {
		t.Fatalf("err %v", err)
	}
}
