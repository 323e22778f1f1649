package meter_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/meter"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/trace"
)

// windowRequest is a request for the model "small" whose prompt counts n
// tokens.
func windowRequest() (req model.Request, n int64) {
	prompt := strings.Repeat("alpha beta gamma delta ", 50)
	req = model.Request{Model: "small", MaxTokens: 4096, Messages: []model.Message{{Role: model.RoleUser, Content: prompt}}}
	return req, model.PromptTokens(req, "small")
}

// windowCase is a window for windowRequest's request: one that fits its
// prompt and max_tokens, one that fits only maxTokens of its output, one
// that cannot fit its prompt and reserve (maxTokens 0: nothing is sent).
type windowCase struct {
	name      string
	window    int
	kind      fault.Kind
	maxTokens int
}

func windowCases(n int64) []windowCase {
	return []windowCase{
		{"fits", int(n) + 4096, "", 4096},
		{"output shrunk", int(n) + 1000, "", 1000},
		{"refused", int(n) + 10, model.KindPromptTooLarge, 0},
	}
}

// admission is what a model call's window admission decided, as seen
// from outside the meter.
type admission struct {
	kind      fault.Kind
	detail    string // the refusal's details
	sent      int64  // requests sent
	maxTokens int    // the last request's max_tokens
	notes     string // the trace notes and their attributes
	usage     budget.Usage
}

func admit(t *testing.T, req model.Request, window int, counted int64) admission {
	t.Helper()
	tr := budget.NewTracker(limits(t, budget.Limits{}))
	rec := trace.NewRecorder()
	p := &fakeProvider{resp: &model.Response{Text: "hi", Usage: usage(10)}}
	ws := model.NewWindows(model.Info{Prefix: "small", Window: window})
	_, err := meter.New(tr).Model(trace.WithRecorder(context.Background(), rec),
		meter.ModelCall{Provider: p, Request: req, Windows: ws, PromptTokens: counted})
	a := admission{kind: fault.KindOf(err), sent: p.calls.Load(), maxTokens: p.last.MaxTokens, notes: fmt.Sprint(notes(rec)), usage: tr.Usage()}
	if fe := fault.As(err); fe != nil {
		a.detail = fmt.Sprint(fe.Detail)
	}
	return a
}

// A caller that counted the prompt already (the engine's root turns)
// passes the count, and the meter admits the call with it: the same
// decision as when the meter counts the prompt itself, whether the call
// fits, has its max_tokens shrunk or is refused, and the count given is
// the one used (a count that differs from the prompt's shows it was not
// counted again).
func TestModelCountedPrompt(t *testing.T) {
	req, n := windowRequest()
	for _, c := range windowCases(n) {
		t.Run(c.name, func(t *testing.T) {
			counted, uncounted := admit(t, req, c.window, n), admit(t, req, c.window, 0)
			if counted != uncounted {
				t.Fatalf("with the count given:\n%+v\nwith the meter's own:\n%+v", counted, uncounted)
			}
		})
	}
	t.Run("the count given is used", func(t *testing.T) {
		// The window leaves 1000 tokens beside the real prompt; a count
		// 600 above it leaves 400.
		a := admit(t, req, int(n)+1000, n+600)
		if a.kind != "" || a.maxTokens != 400 || !strings.Contains(a.notes, fmt.Sprintf("prompt_tokens:%d", n+600)) {
			t.Fatalf("%+v", a)
		}
		// A count the window cannot hold refuses a prompt that fits.
		a = admit(t, req, int(n)+4096, n+4096)
		if a.kind != model.KindPromptTooLarge || a.sent != 0 || !strings.Contains(a.detail, fmt.Sprintf("prompt_tokens:%d", n+4096)) {
			t.Fatalf("%+v", a)
		}
	})
}
