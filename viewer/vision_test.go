package viewer

import (
	"context"
	"image/color"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/trace"
	"github.com/rlm-go/rlm/vision"
	"github.com/rlm-go/rlm/vision/visiontest"
)

// visionRunTrace runs a code-mode engine whose first cell sends two
// images (a chart and a table) with llm_query, with TraceContent when
// content is set, and returns its trace written as JSONL and the images
// sent. edit, when not nil, changes the events before they are written.
func visionRunTrace(t testing.TB, dir string, content bool, edit func([]trace.Event)) (string, []model.Image) {
	t.Helper()
	replies := []string{
		"```python\nr = llm_query(\"What do they show?\", images=[load_image(\"chart.png\"), \"table.png\"])\nprint(r)\n```",
		"revenue doubles",
		"```python\nFINAL(\"revenue doubles\")\n```",
	}
	prov := scripted(budget.Usage{}, replies...)
	var ims []model.Image
	for _, c := range []struct {
		c    color.NRGBA
		w, h int
	}{{color.NRGBA{R: 220, A: 255}, 400, 200}, {color.NRGBA{B: 220, A: 255}, 150, 300}} {
		im, err := vision.Prepare(visiontest.Solid(vision.PNG, c.w, c.h, c.c), vision.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		ims = append(ims, im)
	}
	store := corpus.NewStore()
	t.Cleanup(func() { store.Close() })
	h, err := store.AddString("input", "a report\n")
	if err != nil {
		t.Fatal(err)
	}
	eng, err := engine.New(engine.Config{Provider: prov, Model: "root-model", SubModel: "vision-model", Store: store, Mode: engine.ModeCode,
		TraceContent: content, Images: vision.NewSet(map[string]model.Image{"chart.png": ims[0], "table.png": ims[1]})})
	if err != nil {
		t.Fatal(err)
	}
	rec := trace.NewRecorder()
	if res, err := eng.Run(trace.WithRecorder(context.Background(), rec), "What does the chart show?", h); err != nil {
		t.Fatalf("%v %+v", err, res)
	}
	evs := rec.Events()
	if edit != nil {
		edit(evs)
	}
	return writeTrace(t, dir, "vision-run.jsonl", evs), ims
}

// visionCall returns the sub-call of the first iteration's cell.
func visionCall(t *testing.T, path string) Call {
	t.Helper()
	srv := serve(t, Options{}, path)
	var runs Runs
	if code := get(t, srv.URL+"/api/runs?file=0", &runs); code != 200 || len(runs.Runs) != 1 || len(runs.Runs[0].Iterations) == 0 {
		t.Fatalf("status %d, runs %+v", code, runs)
	}
	it := iterationOf(t, srv.URL, runs.Runs[0].Iterations[0].Pos)
	if len(it.Cells) != 1 || len(it.Cells[0].Calls) != 1 {
		t.Fatalf("iteration %+v", it)
	}
	return it.Cells[0].Calls[0]
}

// The iteration API gives a vision sub-call its images: each named by
// hash, dimensions and media type, with its thumbnail (a PNG or JPEG
// data URL) when the trace kept one (--trace-content), never a data URL
// of another type nor something else.
func TestAPICallImages(t *testing.T) {
	for _, c := range []struct {
		name    string
		content bool
		edit    func([]trace.Event)
		thumbs  []bool // a thumbnail per image
	}{
		{"trace-content", true, nil, []bool{true, true}},
		{"no-content", false, nil, []bool{false, false}},
		{"hostile", true, func(evs []trace.Event) {
			for i := range evs {
				if evs[i].Kind == trace.KindModelCall && evs[i].Attrs["thumbnails"] != nil {
					th := evs[i].Attrs["thumbnails"].([]string)
					evs[i].Attrs["thumbnails"] = []string{`data:image/svg+xml;base64,PHN2Zy8+`, th[1] + `"><script>`}
				}
			}
		}, []bool{false, false}},
		{"javascript", true, func(evs []trace.Event) {
			for i := range evs {
				if evs[i].Kind == trace.KindModelCall && evs[i].Attrs["thumbnails"] != nil {
					th := evs[i].Attrs["thumbnails"].([]string)
					evs[i].Attrs["thumbnails"] = []string{"javascript:alert(1)", th[1]}
				}
			}
		}, []bool{false, true}},
	} {
		t.Run(c.name, func(t *testing.T) {
			path, ims := visionRunTrace(t, t.TempDir(), c.content, c.edit)
			call := visionCall(t, path)
			if call.Model != "vision-model" || len(call.Images) != len(ims) || call.MoreImages != 0 {
				t.Fatalf("call %+v", call)
			}
			for i, im := range call.Images {
				want := "sha256:" + ims[i].SHA256
				if !strings.HasPrefix(im.Image, want) || !strings.Contains(im.Image, " image/png") {
					t.Fatalf("image %d named %q, want %s…", i, im.Image, want)
				}
				if got := im.Thumbnail != ""; got != c.thumbs[i] {
					t.Fatalf("image %d thumbnail %.60q, want one: %v", i, im.Thumbnail, c.thumbs[i])
				}
				if im.Thumbnail != "" && !strings.HasPrefix(im.Thumbnail, "data:image/png;base64,") && !strings.HasPrefix(im.Thumbnail, "data:image/jpeg;base64,") {
					t.Fatalf("image %d thumbnail %.60q", i, im.Thumbnail)
				}
			}
		})
	}
}

// TestBrowserCallThumbnails: the iteration view draws a vision sub-call's
// thumbnails beside it, captioned with each image's hash prefix and
// dimensions; a trace without content shows the captions only.
func TestBrowserCallThumbnails(t *testing.T) {
	ctx := browser(t)
	for _, c := range []struct {
		name    string
		content bool
		imgs    string
	}{{"trace-content", true, "2"}, {"no-content", false, "0"}} {
		t.Run(c.name, func(t *testing.T) {
			path, ims := visionRunTrace(t, t.TempDir(), c.content, nil)
			srv := serve(t, Options{}, path)
			run(t, ctx, chromedp.EmulateViewport(1000, 700), chromedp.Navigate(srv.URL+"/"))
			if err := poll(ctx, `document.querySelectorAll("#runview .iter .call .thumb").length === 2`); err != nil {
				t.Fatal(err)
			}
			q := func(js string) string { return attr(t, ctx, js) }
			if got := q(`[...document.querySelectorAll("#runview .iter .call .thumb .cap")].map(e => e.textContent).join("|")`); got !=
				"sha256:"+ims[0].SHA256[:12]+" 400x200|sha256:"+ims[1].SHA256[:12]+" 150x300" {
				t.Fatalf("captions %q", got)
			}
			if got := q(`String(document.querySelectorAll("#runview .iter .call .thumb img").length)`); got != c.imgs {
				t.Fatalf("%s thumbnails drawn, want %s", got, c.imgs)
			}
			if !c.content {
				return
			}
			// Drawn: decoded, at the thumbnail's size (128 px long edge).
			if err := poll(ctx, `[...document.querySelectorAll("#runview .iter .call .thumb img")].every(i => i.complete && i.naturalWidth > 0)`); err != nil {
				t.Fatal(err)
			}
			if got := q(`[...document.querySelectorAll("#runview .iter .call .thumb img")].map(i => i.naturalWidth + "x" + i.naturalHeight).join(",")`); got != "128x64,64x128" {
				t.Fatalf("thumbnails %q", got)
			}
			docScreenshot(t, ctx, "#runview .iter .call", "trace-call-thumbnails.png")
		})
	}
}
