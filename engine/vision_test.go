package engine

import (
	"context"
	"encoding/base64"
	"fmt"
	"image/color"
	"strconv"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/replay"
	"github.com/rlm-go/rlm/trace"
	"github.com/rlm-go/rlm/vision"
	"github.com/rlm-go/rlm/vision/visiontest"
)

func testImage(t *testing.T, c color.NRGBA, w, h int) model.Image {
	t.Helper()
	im, err := vision.Prepare(visiontest.Solid(vision.PNG, w, h, c), vision.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return im
}

// imageReply answers requests that contain match and send the images.
func imageReply(match, content string, images ...model.Image) replay.Interaction {
	in := reply(match, content)
	for _, im := range images {
		in.Match.Images = append(in.Match.Images, im.SHA256)
	}
	return in
}

// llm_query(prompt, images=[...]) and llm_query_batched(prompts,
// images=[[...], ...]) send each prompt's images (the cassette matches
// them by hash, so an image not sent finds no answer).
func TestCodeVisionSubCalls(t *testing.T) {
	chart := testImage(t, color.NRGBA{R: 200, A: 255}, 64, 32)
	table := testImage(t, color.NRGBA{B: 200, A: 255}, 32, 64)
	images := vision.NewSet(map[string]model.Image{"chart.png": chart, "table.png": table})
	t.Run("llm_query", func(t *testing.T) {
		f := newFixture(t, haystack, Config{Mode: ModeCode, Images: images},
			reply("Query: q", py(
				`c = load_image("chart.png")`,
				`print(c["width"], c["height"], c["media_type"])`,
				`r = llm_query("What does the chart show?", images=[c])`,
				`print("sub:", r)`)),
			imageReply("What does the chart show?", "revenue doubles", chart),
			reply("sub: revenue doubles", py(`FINAL(r)`)),
		)
		res, err := f.run(t, "q")
		if err != nil || res.Answer != "revenue doubles" {
			t.Fatalf("%v %+v", err, res)
		}
	})
	t.Run("llm_query_batched", func(t *testing.T) {
		f := newFixture(t, haystack, Config{Mode: ModeCode, Images: images},
			reply("Query: q", py(
				`out = llm_query_batched(["Read image A.", "Read image B.", "No image."], images=[[load_image("chart.png")], ["table.png"], []])`,
				`print("got:", out)`)),
			imageReply("Read image B.", "a table", table),
			imageReply("Read image A.", "a chart", chart),
			reply("No image.", "nothing"),
			reply("got: ", py(`FINAL(out)`)),
		)
		res, err := f.run(t, "q")
		if err != nil || len(res.Answer.([]any)) != 3 || res.Answer.([]any)[0] != "a chart" || res.Answer.([]any)[1] != "a table" {
			t.Fatalf("%v %+v", err, res)
		}
	})
	t.Run("not an image", func(t *testing.T) {
		f := newFixture(t, haystack, Config{Mode: ModeCode, Images: images},
			reply("Query: q", py(`llm_query("x", images=["sha256:00"])`)),
			reply("is not an image", py(`FINAL("refused")`)),
		)
		res, err := f.run(t, "q")
		if err != nil || res.Answer != "refused" {
			t.Fatalf("%v %+v", err, res)
		}
	})
}

// Image tokens are charged before sending: a sub-call whose images take
// it over max_total_tokens is refused, and never reaches the server; a
// model without vision is no_vision, also unsent.
func TestCodeVisionBudget(t *testing.T) {
	big := testImage(t, color.NRGBA{G: 200, A: 255}, 1024, 1024) // 765 tokens each by OpenAI's rule
	images := vision.NewSet(map[string]model.Image{"page.png": big})
	t.Run("tokens", func(t *testing.T) {
		f := newFixture(t, haystack, Config{Mode: ModeCode, Images: images, MaxTokens: 100, Limits: budget.Limits{MaxTotalTokens: 12_000}},
			reply("Query: q", py(`r = llm_query("Read the pages.", images=[load_image("page.png")] * 20)`)),
			reply("Read the pages.", "never sent"),
		)
		_, err := f.run(t, "q")
		if fault.KindOf(err) != budget.KindMaxTotalTokens {
			t.Fatalf("err %v", err)
		}
		if st := f.srv.Stats(); st.Requests != 1 {
			t.Fatalf("%d requests reached the server, want 1 (the root turn)", st.Requests)
		}
	})
	t.Run("no vision", func(t *testing.T) {
		f := newFixture(t, haystack, Config{Mode: ModeCode, Images: images, SubModel: "gpt-3.5-turbo"},
			reply("Query: q", py(`r = llm_query("Read the page.", images=[load_image("page.png")])`)),
			reply("no_vision", py(`FINAL("no vision")`)),
		)
		res, err := f.run(t, "q")
		if err != nil || res.Answer != "no vision" {
			t.Fatalf("%v %+v", err, res)
		}
		if st := f.srv.Stats(); st.Requests != 2 {
			t.Fatalf("%d requests reached the server, want 2 (root turns only)", st.Requests)
		}
	})
}

// A plan's map fans out over image names; each item's model step sends
// its image ("images"), matched by hash at the server.
func TestPlanMapVision(t *testing.T) {
	chart := testImage(t, color.NRGBA{R: 200, A: 255}, 64, 32)
	table := testImage(t, color.NRGBA{B: 200, A: 255}, 32, 64)
	images := vision.NewSet(map[string]model.Image{"chart.png": chart, "table.png": table})
	p := steps(
		map[string]any{"op": "map", "over": []any{"chart.png", "table.png"}, "as": "im", "bind": "out", "plan": map[string]any{"steps": []any{
			map[string]any{"op": "model", "prompt": "Read the image.", "images": []any{ref("im")}, "bind": "r"},
			map[string]any{"op": "final", "value": ref("r")},
		}}},
		map[string]any{"op": "final", "value": ref("out")},
	)
	f := newFixture(t, haystack, Config{Images: images},
		reply("Query: q", p),
		imageReply("Read the image.", "a table", table),
		imageReply("Read the image.", "a chart", chart),
	)
	res, err := f.run(t, "q")
	got, _ := res.Answer.([]any)
	if err != nil || len(got) != 2 || got[0] != "a chart" || got[1] != "a table" {
		t.Fatalf("%v %+v", err, res)
	}
	// A name that is no image of the run is the step's error, unsent.
	bad := steps(
		map[string]any{"op": "model", "prompt": "Read the image.", "images": []any{"nope.png"}, "bind": "r"},
		map[string]any{"op": "final", "value": ref("r")},
	)
	f = newFixture(t, haystack, Config{Images: images},
		reply("Query: q", bad),
		reply("execute/type_error at steps[0]", steps(map[string]any{"op": "final", "value": "refused"})),
	)
	res, err = f.run(t, "q")
	if err != nil || res.Answer != "refused" || f.srv.Stats().Requests != 2 {
		t.Fatalf("err %v, answer %v, %d requests (want the two root turns)", err, res.Answer, f.srv.Stats().Requests)
	}
}

// Under TraceContent the model_call span of a vision sub-call keeps a
// bounded thumbnail of each image it sent (at most
// model.MaxTracedThumbnails, the rest counted); without it, only the
// images' hashes and dimensions.
func TestVisionTraceThumbnails(t *testing.T) {
	ims := map[string]model.Image{}
	var list []string
	for i := range model.MaxTracedThumbnails + 2 {
		name := fmt.Sprintf("im%d.png", i)
		ims[name] = testImage(t, color.NRGBA{R: uint8(20 * i), G: 100, A: 255}, 300+i, 150)
		list = append(list, strconv.Quote(name))
	}
	images := vision.NewSet(ims)
	var sent []model.Image
	for i := range model.MaxTracedThumbnails + 2 {
		sent = append(sent, ims[fmt.Sprintf("im%d.png", i)])
	}
	for _, c := range []struct {
		name    string
		content bool
	}{{"trace-content", true}, {"no-content", false}} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t, haystack, Config{Mode: ModeCode, Images: images, TraceContent: c.content},
				reply("Query: q", py(`r = llm_query("Read them.", images=[`+strings.Join(list, ", ")+`])`, `print("sub:", r)`)),
				imageReply("Read them.", "ten images", sent...),
				reply("sub: ten images", py(`FINAL(r)`)),
			)
			rec := trace.NewRecorder()
			if res, err := f.eng.Run(trace.WithRecorder(context.Background(), rec), "q", f.h); err != nil {
				t.Fatalf("%v %+v", err, res)
			}
			var call *trace.Event
			for _, ev := range rec.Events() {
				if ev.Kind == trace.KindModelCall && ev.Attrs["images"] != nil {
					call = &ev
				}
			}
			if call == nil {
				t.Fatal("no model_call span with images")
			}
			if got := len(call.Attrs["images"].([]string)); got != len(sent) {
				t.Fatalf("%d images named, want %d", got, len(sent))
			}
			thumbs, ok := call.Attrs["thumbnails"].([]string)
			if !c.content {
				if ok || call.Attrs["thumbnails_more"] != nil {
					t.Fatalf("thumbnails recorded without TraceContent: %v", call.Attrs)
				}
				return
			}
			if len(thumbs) != model.MaxTracedThumbnails || call.Attrs["thumbnails_more"] != 2 {
				t.Fatalf("%d thumbnails, %v more; want %d and 2", len(thumbs), call.Attrs["thumbnails_more"], model.MaxTracedThumbnails)
			}
			for i, s := range thumbs {
				b, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(strings.TrimPrefix(s, "data:image/png;base64,"), "data:image/jpeg;base64,"))
				if err != nil || !strings.HasPrefix(s, "data:image/") || len(b) > vision.ThumbMaxBytes {
					t.Fatalf("thumbnail %d: %.60q (%v)", i, s, err)
				}
				info, err := vision.Inspect(b)
				if err != nil || info.Width != vision.ThumbEdge || info.Height != 150*vision.ThumbEdge/(300+i) {
					t.Fatalf("thumbnail %d: %+v %v", i, info, err)
				}
			}
		})
	}
}
