package replay_test

import (
	"context"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/anthropic"
	"github.com/rlm-go/rlm/model/openai"
	"github.com/rlm-go/rlm/model/replay"
	"github.com/rlm-go/rlm/vision"
	"github.com/rlm-go/rlm/vision/visiontest"
)

// An image request is recorded with its images named by hash, not
// inlined (the cassette stays small), and replays through both providers
// only to a request sending the same images.
func TestImageCassette(t *testing.T) {
	chart, err := vision.Prepare(visiontest.Solid(vision.PNG, 400, 300, color.NRGBA{R: 9, G: 99, B: 199, A: 255}), vision.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	other, err := vision.Prepare(visiontest.Solid(vision.PNG, 400, 300, color.NRGBA{R: 1, A: 255}), vision.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	ask := func(im model.Image) model.Request {
		return model.Request{Messages: []model.Message{{Role: model.RoleUser, Content: "What does the chart show?", Images: []model.Image{im}}}}
	}
	rec := replay.NewRecorder(model.ProviderFunc(func(_ context.Context, req model.Request) (*model.Response, error) {
		return &model.Response{Text: "revenue doubles", FinishReason: "stop", Meta: model.Meta{Model: "gpt-4o"}}, nil
	}))
	if _, err := rec.Complete(context.Background(), ask(chart)); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "vision.cassette.json")
	if err := rec.Save(path); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), chart.SHA256) || len(b) > 2048 || len(b) > len(chart.Data) {
		t.Fatalf("cassette (%d bytes, image %d bytes):\n%s", len(b), len(chart.Data), b)
	}
	c, err := replay.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, dialect := range []string{"openai", "anthropic"} {
		t.Run(dialect, func(t *testing.T) {
			srv := replay.NewServer(c)
			defer srv.Close()
			var p model.Provider
			if dialect == "openai" {
				p, err = openai.New(openai.Config{BaseURL: srv.BaseURL(), APIKey: "k", Model: "gpt-4o", MaxRetries: -1})
			} else {
				p, err = anthropic.New(anthropic.Config{BaseURL: srv.BaseURL(), APIKey: "k", Model: "claude-sonnet-4-5", MaxRetries: -1})
			}
			if err != nil {
				t.Fatal(err)
			}
			// Another image with the same text: no interaction matches.
			if _, err := p.Complete(context.Background(), ask(other)); fault.KindOf(err) != model.KindHTTPStatus {
				t.Fatalf("a different image: %v", err)
			}
			resp, err := p.Complete(context.Background(), ask(chart))
			if err != nil || resp.Text != "revenue doubles" {
				t.Fatalf("the recorded image: %v %v", resp, err)
			}
		})
	}
}
