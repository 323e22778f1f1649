package direct

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"image/color"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/tool"
	"github.com/rlm-go/rlm/vision"
	"github.com/rlm-go/rlm/vision/visiontest"
)

// A tool result holding MCP image content sends the image with the tool
// message (for chat completions, as an image_url part of the user
// message after the tool messages); the observation names it by hash.
// An image over the pixel bound is the call's error, never sent.
func TestToolResultImages(t *testing.T) {
	png := visiontest.Solid(vision.PNG, 40, 30, color.NRGBA{G: 180, A: 255})
	huge := visiontest.PNGHeader(20_000, 20_000)
	for _, c := range []struct {
		name    string
		data    []byte
		sent    bool
		obsKind string
	}{
		{"sent", png, true, ""},
		{"over the pixel bound", huge, false, "image_too_large"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t, fixOpts{caps: append(append([]string(nil), allCaps...), "tool:snap"), edit: func(cfg *Config) {
				must(t, cfg.Registry.Register(tool.Spec{Name: "snap", Description: "A screenshot.", Effect: authority.EffectRead,
					Args: json.RawMessage(`{"type":"object"}`), Result: json.RawMessage(`{"type":"object"}`),
					Handler: func(ctx context.Context, req tool.Request) (any, error) {
						return map[string]any{"content": []any{
							map[string]any{"type": "text", "text": "the screen"},
							map[string]any{"type": "image", "data": base64.StdEncoding.EncodeToString(c.data), "mimeType": "image/png"},
						}}, nil
					}}))
				cfg.Capabilities = capability.MustSet(append(append([]string(nil), allCaps...), "tool:snap")...)
			}}, completion("", call("c1", "snap", `{}`)), final("done"))
			res, err := f.run(t, "what is on the screen?")
			if err != nil || res.Answer != "done" {
				t.Fatalf("%v %+v", err, res)
			}
			f.srv.mu.Lock()
			last := f.srv.bodies[len(f.srv.bodies)-1]
			f.srv.mu.Unlock()
			url := "data:image/png;base64," + base64.StdEncoding.EncodeToString(c.data)
			if got := bytes.Contains(last, []byte(url)); got != c.sent {
				t.Fatalf("image sent %v, want %v:\n%.600s", got, c.sent, last)
			}
			var body struct {
				Messages []struct {
					Role       string          `json:"role"`
					Content    json.RawMessage `json:"content"`
					ToolCallID string          `json:"tool_call_id"`
				} `json:"messages"`
			}
			must(t, json.Unmarshal(last, &body))
			var obs string
			for _, m := range body.Messages {
				if m.Role == "tool" && m.ToolCallID == "c1" {
					must(t, json.Unmarshal(m.Content, &obs))
				}
			}
			if strings.Contains(obs, base64.StdEncoding.EncodeToString(c.data)[:40]) {
				t.Fatalf("the observation inlines the image: %.300s", obs)
			}
			if c.sent && !strings.Contains(obs, `"image":"sha256:`) {
				t.Fatalf("the observation does not name the image: %s", obs)
			}
			if c.obsKind != "" && !strings.Contains(obs, c.obsKind) {
				t.Fatalf("observation %s, want kind %s", obs, c.obsKind)
			}
		})
	}
}
