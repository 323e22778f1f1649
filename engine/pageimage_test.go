package engine

import (
	"context"
	"fmt"
	"testing"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/pdftest"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/anthropic"
	"github.com/rlm-go/rlm/model/openai"
	"github.com/rlm-go/rlm/model/replay"
	"github.com/rlm-go/rlm/pdf"
	"github.com/rlm-go/rlm/vision"
)

// wires are the two wire formats page images are sent in.
var wires = []string{"openai", "anthropic"}

// pdfFixture is newFixture over the 3-page PDF of pdfContext, with a
// provider speaking wire to the replay server (which reads the images of
// both formats and matches them by hash).
func pdfFixture(t *testing.T, wire string, cfg Config, interactions ...replay.Interaction) *fixture {
	t.Helper()
	return pdfFixturePx(t, wire, 0, cfg, interactions...)
}

// pdfFixturePx is pdfFixture with a PDF engine bounding rendered pages to
// maxPixels (0: the default).
func pdfFixturePx(t *testing.T, wire string, maxPixels int64, cfg Config, interactions ...replay.Interaction) *fixture {
	t.Helper()
	srv := replay.NewServer(&replay.Cassette{Version: replay.Version, Interactions: interactions})
	t.Cleanup(srv.Close)
	var prov model.Provider
	var err error
	if wire == "anthropic" {
		prov, err = anthropic.New(anthropic.Config{BaseURL: srv.BaseURL(), APIKey: "sk-ant-test", Model: "test-model", MaxRetries: -1})
	} else {
		prov, err = openai.New(openai.Config{BaseURL: srv.BaseURL(), Model: "test-model", MaxRetries: -1})
	}
	if err != nil {
		t.Fatal(err)
	}
	store := corpus.NewStore()
	t.Cleanup(func() { store.Close() })
	h := pdfContext(t, store)
	if maxPixels > 0 {
		c := pdftest.Config(t.TempDir())
		c.MaxPixels = maxPixels
		e := pdf.NewEngine(c)
		t.Cleanup(func() { e.Close() })
		store.SetPDFReader(e)
	}
	cfg.Provider, cfg.Store, cfg.Model = prov, store, "test-model"
	eng, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{srv: srv, store: store, h: h, eng: eng}
}

// pageImages renders the pages of the fixture's PDF at dpi as they are
// sent (for the cassette to match by hash).
func pageImages(t *testing.T, f *fixture, dpi int) []model.Image {
	t.Helper()
	meta, err := f.store.Metadata(context.Background(), f.h)
	if err != nil {
		t.Fatal(err)
	}
	var out []model.Image
	for _, p := range meta.Pages {
		pi, _, err := f.store.PageImage(context.Background(), p.Handle, dpi, vision.DefaultMaxEdge)
		if err != nil {
			t.Fatal(err)
		}
		im, err := vision.Prepare(pi.PNG, vision.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, im)
	}
	return out
}

// Code mode fans out over page images: context.pages[i].image() sent with
// llm_query_batched, in both wire formats; each page's image reaches
// the server (matched by hash).
func TestCodePageImages(t *testing.T) {
	for _, wire := range wires {
		t.Run(wire, func(t *testing.T) {
			t.Parallel() // a fixture (server, store, PDF engine) of its own
			var ims []model.Image
			code := py(
				`imgs = [p.image() for p in context.pages]`,
				`print(imgs[0]["width"], imgs[0]["media_type"])`,
				`out = llm_query_batched(["Read page " + str(i + 1) + "." for i in range(3)], images=[[im] for im in imgs])`,
				`print("got:", out)`)
			f := pdfFixture(t, wire, Config{Mode: ModeCode}, reply("Query: q", code))
			ims = pageImages(t, f, 100)
			if ims[0].Width != 827 || ims[0].SHA256 == ims[1].SHA256 {
				t.Fatalf("page images %dx%d, distinct %v", ims[0].Width, ims[0].Height, ims[0].SHA256 != ims[1].SHA256)
			}
			f = pdfFixture(t, wire, Config{Mode: ModeCode},
				reply("Query: q", code),
				imageReply("Read page 1.", "one", ims[0]),
				imageReply("Read page 2.", "two", ims[1]),
				imageReply("Read page 3.", "three", ims[2]),
				reply("got: ", py(`FINAL(out)`)),
			)
			res, err := f.run(t, "q")
			got, _ := res.Answer.([]any)
			if err != nil || fmt.Sprint(got) != "[one two three]" {
				t.Fatalf("%v %+v", err, res)
			}
			if st := f.srv.Stats(); st.Requests != 5 {
				t.Fatalf("%d requests, want 5", st.Requests)
			}
		})
	}
}

// A page image's dpi is bounded; an image of a text that is no page is
// not_a_page; a page over the PDF engine's pixel bound is
// pdf_image_too_large with its hint: each an exception code can catch.
func TestCodePageImageErrors(t *testing.T) {
	for _, tc := range []struct{ code, want string }{
		{`context.pages[0].image(dpi=1000)`, "dpi must be between 30 and 300"},
		{`context.pages[0].image(dpi=300)`, "pdf_image_too_large"},
		{`context.partition(pages=2)[0].image()`, "has no attribute"},
	} {
		f := pdfFixturePx(t, "openai", 500_000, Config{Mode: ModeCode},
			reply("Query: q", py(tc.code)),
			reply(tc.want, py(`FINAL("refused")`)),
		)
		res, err := f.run(t, "q")
		if err != nil || res.Answer != "refused" {
			t.Errorf("%s: %v %+v", tc.code, err, res)
		}
	}
}

// The page images' tokens are charged before sending: a sub-call whose
// images take the run over max_total_tokens is refused and never
// reaches the server, in both wire formats.
func TestCodePageImageBudget(t *testing.T) {
	for _, wire := range wires {
		t.Run(wire, func(t *testing.T) {
			t.Parallel() // a fixture (server, store, PDF engine) of its own
			f := pdfFixture(t, wire, Config{Mode: ModeCode, MaxTokens: 100, Limits: budget.Limits{MaxTotalTokens: 12_000}},
				reply("Query: q", py(`r = llm_query("Read the pages.", images=[p.image(dpi=300) for p in context.pages] * 6)`)),
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
	}
}

// A plan fans out over the pages: partition by pages of size 1, an image
// action per chunk, a model step sending it; in both wire formats.
func TestPlanPageImages(t *testing.T) {
	p := steps(
		map[string]any{"op": "context", "handle": input("context"), "action": map[string]any{"type": "partition", "strategy": "pages", "size": 1}, "bind": "pages"},
		map[string]any{"op": "map", "over": ref("pages"), "as": "pg", "bind": "out", "plan": map[string]any{"steps": []any{
			map[string]any{"op": "context", "handle": map[string]any{"ref": "field", "value": ref("pg"), "key": "handle"}, "action": map[string]any{"type": "image", "dpi": 100}, "bind": "im"},
			map[string]any{"op": "model", "prompt": "Read the page.", "images": []any{ref("im")}, "bind": "r"},
			map[string]any{"op": "final", "value": ref("r")},
		}}},
		map[string]any{"op": "final", "value": ref("out")},
	)
	for _, wire := range wires {
		t.Run(wire, func(t *testing.T) {
			t.Parallel() // a fixture (server, store, PDF engine) of its own
			ims := pageImages(t, pdfFixture(t, wire, Config{}), 100)
			f := pdfFixture(t, wire, Config{},
				reply("Query: q", p),
				imageReply("Read the page.", "three", ims[2]),
				imageReply("Read the page.", "two", ims[1]),
				imageReply("Read the page.", "one", ims[0]),
			)
			res, err := f.run(t, "q")
			got, _ := res.Answer.([]any)
			if err != nil || fmt.Sprint(got) != "[one two three]" {
				t.Fatalf("%v %+v", err, res)
			}
		})
	}
}

// Plan validation refuses an image action's bad dpi; a handle that is no
// page is not_a_page at run time; an image action's images over the
// token budget are refused before sending.
func TestPlanPageImageErrors(t *testing.T) {
	img := func(h any, dpi int) map[string]any {
		return map[string]any{"op": "context", "handle": h, "action": map[string]any{"type": "image", "dpi": dpi}, "bind": "im"}
	}
	final := map[string]any{"op": "final", "value": ref("im")}
	for _, tc := range []struct {
		name, plan, want string
	}{
		{"dpi", steps(img(input("context"), 5), final), "kind=invalid_argument, at steps[0].action.dpi"},
		{"not a page", steps(img(input("context"), 100), final), "not_a_page"},
	} {
		f := pdfFixture(t, "openai", Config{},
			reply("Query: q", tc.plan),
			reply(tc.want, steps(map[string]any{"op": "final", "value": "refused"})),
		)
		res, err := f.run(t, "q")
		if err != nil || res.Answer != "refused" || f.srv.Stats().Requests != 2 {
			t.Errorf("%s: err %v, answer %v", tc.name, err, res.Answer)
		}
	}
	t.Run("budget", func(t *testing.T) {
		im := map[string]any{"ref": "var", "name": "im"}
		p := steps(
			map[string]any{"op": "context", "handle": input("context"), "action": map[string]any{"type": "partition", "strategy": "pages", "size": 1}, "bind": "pages"},
			img(map[string]any{"ref": "field", "value": map[string]any{"ref": "index", "value": ref("pages"), "index": 0}, "key": "handle"}, 300),
			map[string]any{"op": "model", "prompt": "Read the pages.", "images": []any{im, im, im, im, im, im, im, im, im, im, im, im, im, im, im, im, im, im}, "bind": "r"},
			map[string]any{"op": "final", "value": ref("r")},
		)
		f := pdfFixture(t, "anthropic", Config{MaxTokens: 100, Limits: budget.Limits{MaxTotalTokens: 12_000}},
			reply("Query: q", p),
			reply("Read the pages.", "never sent"),
		)
		_, err := f.run(t, "q")
		if fault.KindOf(err) != budget.KindMaxTotalTokens || f.srv.Stats().Requests != 1 {
			t.Fatalf("err %v, %d requests (want 1, the root turn)", err, f.srv.Stats().Requests)
		}
	})
}
