package direct

import (
	"context"
	"testing"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/meter"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/trace"
)

// The direct loop's turns are admitted by package meter, as the engine's
// calls are: what the meter adds over the loop's former copy of the steps
// is the same for both (a provider answering neither a response nor an
// error is a typed failure, not a crash; the trace says when max_tokens
// was shrunk; a failed call counts in the tracker's usage).
func TestTurnsGoThroughTheMeter(t *testing.T) {
	answer := &model.Response{Text: "done", Usage: budget.Usage{PromptTokens: 50, CompletionTokens: 5, TotalTokens: 55, TokensKnown: true}}
	tests := []struct {
		name   string
		limits budget.Limits
		resp   *model.Response
		err    error
		// want
		phase     fault.Phase
		kind      fault.Kind
		note      string // a trace note
		calls     int64  // the tracker's usage.calls
		turns     int    // Result.Turns
		sentToken int    // max_tokens sent (0: not checked)
	}{
		{name: "neither response nor error", phase: fault.PhaseProvider, kind: model.KindMalformedResponse, calls: 1},
		{name: "failed without a response", err: fault.New(fault.PhaseProvider, "http_error", "boom"),
			phase: fault.PhaseProvider, kind: "http_error", calls: 1},
		{name: "max_tokens shrunk", limits: budget.Limits{MaxTotalTokens: 800}, resp: answer,
			note: meter.NoteShrunk, calls: 1, turns: 1},
		{name: "admitted as asked", resp: answer, calls: 1, turns: 1, sentToken: DefaultMaxTokens},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var sent model.Request
			p := model.ProviderFunc(func(_ context.Context, req model.Request) (*model.Response, error) {
				sent = req
				if tt.resp == nil {
					return nil, tt.err
				}
				r := *tt.resp
				return &r, tt.err
			})
			l, err := tt.limits.Resolve()
			if err != nil {
				t.Fatal(err)
			}
			tr := budget.NewTracker(l)
			r, err := New(Config{Provider: p, Model: "test-model", Tracker: tr})
			if err != nil {
				t.Fatal(err)
			}
			rec := trace.NewRecorder()
			res, err := r.Run(trace.WithRecorder(context.Background(), rec), "q")
			if tt.kind != "" {
				wantFault(t, err, tt.phase, tt.kind)
			} else if err != nil {
				t.Fatal(err)
			}
			if got := tr.Usage().Calls; got != tt.calls {
				t.Fatalf("tracker usage.calls = %d, want %d", got, tt.calls)
			}
			if res.Turns != tt.turns || res.Usage.Calls != int64(tt.turns) {
				t.Fatalf("result turns %d, usage.calls %d, want %d", res.Turns, res.Usage.Calls, tt.turns)
			}
			if tt.sentToken != 0 && sent.MaxTokens != tt.sentToken {
				t.Fatalf("sent max_tokens %d, want %d", sent.MaxTokens, tt.sentToken)
			}
			noted := false
			for _, ev := range rec.Events() {
				if ev.Kind == trace.KindNote {
					if ev.Name != tt.note {
						t.Fatalf("unexpected note %q", ev.Name)
					}
					noted = true
				}
			}
			if noted != (tt.note != "") {
				t.Fatalf("note %q recorded: %v", tt.note, noted)
			}
		})
	}
}
