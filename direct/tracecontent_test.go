package direct

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"image/color"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/tool"
	"github.com/rlm-go/rlm/trace"
	"github.com/rlm-go/rlm/vision"
	"github.com/rlm-go/rlm/vision/visiontest"
)

// traceContentRun runs a two-turn direct session with TraceContent set as
// given: the first reply calls an image tool, a context search and a
// call refused before it ran; the second answers. It returns the
// recorded events.
func traceContentRun(t *testing.T, content bool) []trace.Event {
	t.Helper()
	png := visiontest.Solid(vision.PNG, 40, 30, color.NRGBA{R: 200, A: 255})
	caps := append(append([]string(nil), allCaps...), "tool:snap")
	f := newFixture(t, fixOpts{caps: caps, edit: func(cfg *Config) {
		must(t, cfg.Registry.Register(tool.Spec{Name: "snap", Description: "A screenshot.", Effect: authority.EffectRead,
			Args: json.RawMessage(`{"type":"object"}`), Result: json.RawMessage(`{"type":"object"}`),
			Handler: func(ctx context.Context, req tool.Request) (any, error) {
				return map[string]any{"content": []any{
					map[string]any{"type": "text", "text": "the screen"},
					map[string]any{"type": "image", "data": base64.StdEncoding.EncodeToString(png), "mimeType": "image/png"},
				}}, nil
			}}))
		cfg.Capabilities = capability.MustSet(caps...)
		cfg.TraceContent = content
	}}, completion("Let me look. token sk-abcdefghijklmnopqrstuv",
		call("c1", "snap", `{}`),
		call("c2", "context_search", `{"pattern":"NEEDLE"}`),
		call("c3", "probe_read", `{"q":""}`)),
		final("The screen is red."))
	rec := trace.NewRecorder()
	res, err := f.runCtx(t, trace.WithRecorder(context.Background(), rec), "What is on the screen?")
	if err != nil || res.Answer != "The screen is red." {
		t.Fatalf("%v %+v", err, res)
	}
	return rec.Events()
}

// Under TraceContent the direct loop records what the engine records, by
// the same names: the question and answer on the run span, each reply on
// its turn, thumbnails of the images a call sent on its model_call span;
// and each call of a batch (one refused before it ran too) as a note
// trace.NoteToolContent with its arguments and observation. Without it,
// none of them.
func TestTraceContent(t *testing.T) {
	for _, content := range []bool{true, false} {
		t.Run(map[bool]string{true: "content", false: "no content"}[content], func(t *testing.T) {
			evs := traceContentRun(t, content)
			var run, turn1 *trace.Event
			var calls []trace.Event
			notes := map[string]trace.Event{}
			ids := map[string]string{} // span kind/name → call_id
			for i := range evs {
				ev := &evs[i]
				switch {
				case ev.Kind == trace.KindRun:
					run = ev
				case ev.Kind == trace.KindTurn && ev.Name == "turn 1":
					turn1 = ev
				case ev.Kind == trace.KindModelCall:
					calls = append(calls, *ev)
				case ev.Kind == trace.KindNote && ev.Name == trace.NoteToolContent:
					notes[ev.Attrs["call_id"].(string)] = *ev
				case ev.Kind == trace.KindToolCall || ev.Kind == trace.KindContextOp:
					id, _ := ev.Attrs["call_id"].(string)
					ids[string(ev.Kind)+"/"+ev.Name] = id
				}
			}
			if run == nil || turn1 == nil || len(calls) != 2 {
				t.Fatalf("run %v, turn 1 %v, %d model calls", run != nil, turn1 != nil, len(calls))
			}
			// The calls' spans name the model's id, content or not.
			if ids["tool_call/snap"] != "c1" || ids["context_op/context_search"] != "c2" {
				t.Fatalf("call ids on spans: %v", ids)
			}
			images, _ := calls[1].Attrs["images"].([]string)
			if len(images) != 1 {
				t.Fatalf("second request's images: %v", calls[1].Attrs["images"])
			}
			thumbs, _ := calls[1].Attrs["thumbnails"].([]string)
			if !content {
				for _, k := range []string{"query", "answer"} {
					if _, ok := run.Attrs[k]; ok {
						t.Errorf("run keeps %s without content", k)
					}
				}
				if _, ok := turn1.Attrs["reply"]; ok || len(notes) != 0 || thumbs != nil {
					t.Fatalf("content kept without TraceContent: reply %v, %d notes, thumbnails %v", turn1.Attrs["reply"], len(notes), thumbs)
				}
				return
			}
			if run.Attrs["query"] != "What is on the screen?" || run.Attrs["answer"] != "The screen is red." {
				t.Fatalf("run query %q, answer %q", run.Attrs["query"], run.Attrs["answer"])
			}
			reply, _ := turn1.Attrs["reply"].(string)
			if !strings.HasPrefix(reply, "Let me look.") || strings.Contains(reply, "sk-abcdefghijklmnop") {
				t.Fatalf("turn 1 reply %q: want the text with the key redacted", reply)
			}
			if len(thumbs) != 1 || !strings.HasPrefix(thumbs[0], "data:image/png;base64,") {
				t.Fatalf("thumbnails %.80v", thumbs)
			}
			for _, w := range []struct{ id, name, status, args, obs string }{
				{"c1", "snap", ObsOK, `{}`, `"image":"sha256:`},
				{"c2", "context_search", ObsOK, `{"pattern":"NEEDLE"}`, `NEEDLE-42`},
				{"c3", "probe_read", ObsRejected, `{"q":""}`, `"status":"rejected"`},
			} {
				n, ok := notes[w.id]
				if !ok {
					t.Fatalf("no note for %s (notes %v)", w.id, notes)
				}
				a := n.Attrs
				if a["name"] != w.name || a["status"] != w.status || a["arguments"] != w.args || !strings.Contains(a["observation"].(string), w.obs) {
					t.Errorf("%s: note %v; want name %s, status %s, arguments %s, observation holding %s", w.id, a, w.name, w.status, w.args, w.obs)
				}
			}
		})
	}
}
