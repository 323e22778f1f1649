package meter_test

import (
	"context"
	"testing"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/meter"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/trace"
)

// Images are charged by their provider's token rule before sending: a
// budget their tokens exceed refuses the call unsent; a model known to
// take no images, or a server refusing them, is no_vision.
func TestModelImages(t *testing.T) {
	big := model.Image{MediaType: "image/png", SHA256: "00", Width: 2048, Height: 2048, Data: []byte{1}}
	imgTokens := int64(model.ImageTokens(big, "gpt-4o")) // 85 + 170*4 = 765 after the 768-px resize
	text := model.Request{Model: "gpt-4o", MaxTokens: 10, Messages: []model.Message{{Role: model.RoleUser, Content: "what is drawn?"}}}
	withImg := text
	withImg.Messages = []model.Message{{Role: model.RoleUser, Content: "what is drawn?", Images: []model.Image{big}}}
	textWorst := model.PromptTokens(text, "gpt-4o") + 10
	if got := model.PromptTokens(withImg, "gpt-4o") - model.PromptTokens(text, "gpt-4o"); got != imgTokens || imgTokens != 765 {
		t.Fatalf("the image adds %d prompt tokens, want %d (765)", got, imgTokens)
	}
	refusal := fault.New(fault.PhaseProvider, model.KindHTTPStatus, "HTTP 400").With("status", 400).
		With("error_message", "Invalid content type. image_url is only supported by certain models.")
	ok := &model.Response{Text: "a square", Usage: usage(800)}
	for _, c := range []struct {
		name   string
		req    model.Request
		limits budget.Limits
		prov   *fakeProvider
		kind   fault.Kind
		sent   int64
	}{
		{"text fits the budget", text, budget.Limits{MaxTotalTokens: textWorst + 100}, &fakeProvider{resp: &model.Response{Text: "x", Usage: usage(20)}}, "", 1},
		{"its image does not: refused unsent", withImg, budget.Limits{MaxTotalTokens: textWorst + 100}, &fakeProvider{resp: ok}, budget.KindMaxTotalTokens, 0},
		{"the image fits a larger budget", withImg, budget.Limits{MaxTotalTokens: textWorst + imgTokens + 10_000}, &fakeProvider{resp: ok}, "", 1},
		{"cost: refused unsent", withImg, budget.Limits{MaxCostUSD: 0.0005}, &fakeProvider{resp: ok}, budget.KindMaxCost, 0},
		{"a model without vision", func() model.Request { r := withImg; r.Model = "gpt-3.5-turbo"; return r }(), budget.Limits{}, &fakeProvider{resp: ok}, model.KindNoVision, 0},
		{"a server refusing images", func() model.Request { r := withImg; r.Model = "my-local-model"; return r }(), budget.Limits{}, &fakeProvider{err: refusal}, model.KindNoVision, 1},
		{"the same refusal without images", func() model.Request { r := text; r.Model = "my-local-model"; return r }(), budget.Limits{}, &fakeProvider{err: refusal}, model.KindHTTPStatus, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := budget.NewTracker(limits(t, c.limits))
			_, err := meter.New(tr).Model(trace.WithRecorder(context.Background(), trace.NewRecorder()), meter.ModelCall{Provider: c.prov, Request: c.req})
			if fault.KindOf(err) != c.kind {
				t.Fatalf("err %v, want kind %q", err, c.kind)
			}
			if got := c.prov.calls.Load(); got != c.sent {
				t.Fatalf("%d requests sent, want %d", got, c.sent)
			}
			if c.kind == model.KindNoVision && fault.As(err).Hint == "" {
				t.Fatal("no_vision without a hint")
			}
		})
	}
}
