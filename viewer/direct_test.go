package viewer

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"image/color"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/direct"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/tool"
	"github.com/rlm-go/rlm/trace"
	"github.com/rlm-go/rlm/vision"
	"github.com/rlm-go/rlm/vision/visiontest"
)

// directRunTrace runs a two-turn direct session (TraceContent as given)
// and returns its trace written as JSONL: the first reply calls an image
// tool (snap), a context search and a context search refused before it
// ran (an unknown argument); the second reply answers, its request
// carrying the tool's image.
func directRunTrace(t testing.TB, dir string, content bool) string {
	t.Helper()
	png := visiontest.Solid(vision.PNG, 40, 30, color.NRGBA{R: 200, A: 255})
	reg := tool.NewRegistry()
	if err := reg.Register(tool.Spec{Name: "snap", Description: "A screenshot.", Effect: authority.EffectRead,
		Args: json.RawMessage(`{"type":"object"}`), Result: json.RawMessage(`{"type":"object"}`),
		Handler: func(ctx context.Context, req tool.Request) (any, error) {
			return map[string]any{"content": []any{
				map[string]any{"type": "image", "data": base64.StdEncoding.EncodeToString(png), "mimeType": "image/png"},
			}}, nil
		}}); err != nil {
		t.Fatal(err)
	}
	auth := authority.NewStore()
	if err := auth.Set("test", authority.Dangerous); err != nil {
		t.Fatal(err)
	}
	pool := tool.NewPool(1, 4)
	store := corpus.NewStore()
	t.Cleanup(func() { store.Close() })
	h, err := store.AddString("input", "alpha line\nbeta line\n")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	turn := 0
	prov := model.ProviderFunc(func(ctx context.Context, req model.Request) (*model.Response, error) {
		mu.Lock()
		defer mu.Unlock()
		turn++
		if turn == 1 {
			return &model.Response{Text: "Looking.", ToolCalls: []model.ToolCall{
				{ID: "c1", Type: "function", Name: "snap", Arguments: `{}`},
				{ID: "c2", Type: "function", Name: "context_search", Arguments: `{"pattern":"beta"}`},
				{ID: "c3", Type: "function", Name: "context_search", Arguments: `{"bogus":1}`},
			}}, nil
		}
		return &model.Response{Text: "The screen is red."}, nil
	})
	r, err := direct.New(direct.Config{Provider: prov, Model: "root-model", Registry: reg,
		Tools:        tool.NewRuntime(reg, tool.Config{Authority: auth, Pool: pool}),
		Capabilities: capability.MustSet("tool:snap", "context:search"), AuthorityContext: "test",
		AlwaysVisibleTools: []string{"snap"}, Store: store, Input: h, TraceContent: content})
	if err != nil {
		t.Fatal(err)
	}
	rec := trace.NewRecorder()
	if res, err := r.Run(trace.WithRecorder(context.Background(), rec), "What is on the screen?"); err != nil {
		t.Fatalf("%v %+v", err, res)
	}
	return writeTrace(t, dir, "direct-run.jsonl", rec.Events())
}

// The run view of a direct run recorded under --trace-content shows the
// question and answer, each turn's reply, each call with its arguments
// and observation (a call refused before it ran as a failed cell of its
// own), and the thumbnail of the image the second request carried.
// Without content the same calls are there, with nothing recorded.
func TestAPIDirectRun(t *testing.T) {
	for _, content := range []bool{true, false} {
		t.Run(map[bool]string{true: "content", false: "no content"}[content], func(t *testing.T) {
			srv := serve(t, Options{}, directRunTrace(t, t.TempDir(), content))
			var runs Runs
			if code := get(t, srv.URL+"/api/runs?file=0", &runs); code != 200 || len(runs.Runs) != 1 || len(runs.Runs[0].Iterations) != 2 {
				t.Fatalf("status %d, runs %+v", code, runs)
			}
			rv := runs.Runs[0]
			one := iterationOf(t, srv.URL, rv.Iterations[0].Pos)
			two := iterationOf(t, srv.URL, rv.Iterations[1].Pos)
			if two.Call == nil || len(two.Call.Images) != 1 {
				t.Fatalf("second turn's call %+v", two.Call)
			}
			var cells []string
			for _, c := range one.Cells {
				cells = append(cells, string(c.Kind)+" "+c.Name+" "+c.CallID)
			}
			if !content {
				if rv.Question != "" || rv.Answer != "" || one.Reply != "" || one.Recorded || two.Call.Images[0].Thumbnail != "" {
					t.Fatalf("content shown without --trace-content: %+v %+v", rv, one)
				}
				if got := strings.Join(cells, ", "); got != "tool_call snap c1, context_op context_search c2" {
					t.Fatalf("cells %s", got)
				}
				return
			}
			if rv.Name != "direct" || rv.Question != "What is on the screen?" || rv.Answer != "The screen is red." {
				t.Fatalf("run %q: question %q, answer %q", rv.Name, rv.Question, rv.Answer)
			}
			if one.Reply != "Looking." || !one.Recorded || two.Reply != "The screen is red." {
				t.Fatalf("replies %q, %q (recorded %v)", one.Reply, two.Reply, one.Recorded)
			}
			if !strings.HasPrefix(two.Call.Images[0].Thumbnail, "data:image/png;base64,") {
				t.Fatalf("thumbnail %.60q", two.Call.Images[0].Thumbnail)
			}
			if got := strings.Join(cells, ", "); got != "tool_call snap c1, context_op context_search c2, note context_search c3" {
				t.Fatalf("cells %s", got)
			}
			for i, w := range []struct {
				args, obs string
				failed    bool
			}{
				{`{}`, `"image":"sha256:`, false},
				{`{"pattern":"beta"}`, `beta line`, false},
				{`{"bogus":1}`, `"status":"rejected"`, true},
			} {
				c := one.Cells[i]
				if c.Arguments != w.args || !strings.Contains(c.Observation, w.obs) || c.Failed != w.failed {
					t.Errorf("cell %d: arguments %q, observation %q, failed %v; want %q, …%s…, %v", i, c.Arguments, c.Observation, c.Failed, w.args, w.obs, w.failed)
				}
			}
		})
	}
}

// TestBrowserDirectRun: the iteration view of a direct run draws each
// call's arguments and observation and the thumbnail of the image the
// loop's own call sent.
func TestBrowserDirectRun(t *testing.T) {
	ctx := browser(t)
	srv := serve(t, Options{}, directRunTrace(t, t.TempDir(), true))
	run(t, ctx, chromedp.EmulateViewport(1000, 700), chromedp.Navigate(srv.URL+"/"))
	if err := poll(ctx, `document.querySelectorAll("#runview .iter .cell").length === 3`); err != nil {
		t.Fatal(err)
	}
	q := func(js string) string { return attr(t, ctx, js) }
	if got := q(`[...document.querySelectorAll("#runview .iter .cell pre.code")].map(e => e.textContent).join("|")`); got != `{}|{"pattern":"beta"}|{"bogus":1}` {
		t.Fatalf("arguments drawn %q", got)
	}
	if got := q(`[...document.querySelectorAll("#runview .iter .cell b")].map(e => e.textContent).join("|")`); got != "tool_call snap|context_op context_search|call context_search" {
		t.Fatalf("cell titles %q", got)
	}
	if got := q(`String(document.querySelectorAll("#runview .iter .cell pre.out").length)`); got != "3" {
		t.Fatalf("%s observations drawn, want 3", got)
	}
	// The second iteration's own call sent the tool's image.
	q(`(() => { document.querySelectorAll("#runview .strip .chip")[1].click(); return ""; })()`)
	if err := poll(ctx, `document.querySelectorAll("#runview .iter h3 .thumb img").length === 1`); err != nil {
		t.Fatal(err)
	}
}
