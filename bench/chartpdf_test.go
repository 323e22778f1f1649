package bench

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/internal/pdfgen"
	"github.com/rlm-go/rlm/internal/pdftest"
	"github.com/rlm-go/rlm/model"
)

// pdfStores returns a NewStore whose stores read PDFs with one engine
// the test owns (closed at cleanup). The only place this file makes a
// PDF engine.
func pdfStores(t *testing.T) func() *corpus.Store {
	t.Helper()
	e := pdftest.Engine(t)
	return func() *corpus.Store {
		s := corpus.NewStore()
		s.SetPDFReader(e)
		return s
	}
}

// readBars is the scripted vision model's eye: the value of each bar of
// a chart page rendered to im (an A4 page at any resolution), measured
// from its blue pixels; nil when the image holds no chart.
func readBars(im image.Image, n int) []int {
	w := im.Bounds().Dx()
	px := func(mm float64) int { return int(math.Round(mm * float64(w) / 210)) }
	var out []int
	for i := range n {
		x := px(pdfgen.ChartLeft + float64(i)*pdfgen.ChartStep + pdfgen.ChartBarWidth/2)
		blue := 0
		for y := px(pdfgen.ChartBaseline - pdfgen.ChartHeight - 5); y < px(pdfgen.ChartBaseline); y++ {
			r, g, b, _ := im.At(x, y).RGBA()
			if b > 0x9000 && r < 0x4000 && g < 0x6000 {
				blue++
			}
		}
		if blue == 0 {
			return nil
		}
		out = append(out, int(math.Round(float64(blue)/float64(px(pdfgen.ChartHeight))*pdfgen.ChartMax)))
	}
	return out
}

var (
	managerRe = regexp.MustCompile(`region led by ([A-Z][a-z]+ [A-Z][a-z]+) sell`)
	barsRe    = regexp.MustCompile(`labelled ([A-Za-z, ]+) from left to right\. What value does the bar labelled ([A-Za-z]+) show`)
)

// chartCell is the root's code for a chart-pdf question about manager:
// find the manager's region and the chart's page in the text, order the
// chart's labels as the page writes them (after the page's text), render
// the page and ask a vision sub-call for the region's bar.
func chartCell(manager string) string {
	return pyCell(
		`import re`,
		`pages = context.pages`,
		`regions = []`,
		`region = None`,
		`chart = None`,
		`for i, p in enumerate(pages):`,
		`    regions += re.findall(r"The (\w+) region is led by", p)`,
		`    m = re.search(r"The (\w+) region is led by `+manager+`", p)`,
		`    if m:`,
		`        region = m.group(1)`,
		`    if "Units sold per region" in pages[i]:`,
		`        chart = i`,
		`page = pages[chart]`,
		`labels = sorted([r for r in regions if r in page], key=lambda r: page.rfind(r))`,
		`img = page.image(dpi=150)`,
		`ans = llm_query("The bars of this chart are labelled " + ", ".join(labels) + " from left to right. What value does the bar labelled " + region + " show? Answer with the number.", images=[img])`,
		`print("region", region, "page", chart + 1, "answer", ans)`)
}

// chartModel plays both sides of a chart-pdf trial. The code-mode root
// writes chartCell, then answers the sub-call's reply. A sub-call with a
// page image reads the asked bar off the image (readBars); without an
// image, or on a page with no chart, it cannot. The direct method's call
// (text only) names the region and no value: the text holds none.
func chartModel(log *requestLog) model.Provider {
	return model.ProviderFunc(func(_ context.Context, req model.Request) (*model.Response, error) {
		log.add(req)
		last := req.Messages[len(req.Messages)-1]
		var text string
		switch {
		case req.Messages[0].Role == model.RoleSystem && strings.Contains(req.Messages[0].Content, "Python 3.12 REPL"):
			if req.Messages[len(req.Messages)-2].Role != model.RoleAssistant { // the first turn
				m := managerRe.FindStringSubmatch(last.Content)
				if m == nil {
					return nil, fmt.Errorf("no manager in %q", last.Content)
				}
				text = chartCell(m[1])
			} else {
				text = pyCell(`FINAL(ans)`)
			}
		case len(last.Images) > 0:
			text = "I see no bar chart."
			m := barsRe.FindStringSubmatch(last.Content)
			im, err := png.Decode(bytes.NewReader(last.Images[0].Data))
			if m != nil && err == nil {
				labels := strings.Split(m[1], ", ")
				if vals := readBars(im, len(labels)); vals != nil {
					for i, l := range labels {
						if l == m[2] {
							text = fmt.Sprint(vals[i])
						}
					}
				}
			}
		case req.Messages[0].Content == directSystem:
			text = "The region is named in the text, but the text gives no units sold for it."
		default:
			text = "I cannot see the chart."
		}
		u := scriptedUsage()
		u.CostUSD, u.CostKnown = 0.0005, true
		return &model.Response{Text: text, Usage: u}, nil
	})
}

// The chart-pdf task is answered right by rlm-code, whose root renders
// the chart's page and sends it to a (scripted) vision sub-model, and
// wrongly by the text-only direct method; the recorded run replays to the
// same scores.
func TestChartPDFVisionVersusText(t *testing.T) {
	stores := pdfStores(t)
	log := &requestLog{}
	dir := t.TempDir()
	if os.Getenv("UPDATE_GOLDEN") != "" {
		// The recorded run rlm bench replay's binary test replays.
		dir = chartRecord
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
	}
	cfg := Config{Task: KindChartPDF, Size: 6000, Runs: 2, Seed: 3, Provider: chartModel(log), Model: "gpt-4o", SubModel: "gpt-4o-mini",
		Methods: []Method{MethodRLMCode, MethodDirect}, NewStore: stores, Record: dir}
	rep, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range rep.Trials {
		want := 1.0
		if tr.Method == MethodDirect {
			want = 0
		}
		if tr.Status != StatusOK || tr.Score != want {
			t.Errorf("%s run %d: %s score %v (answer %q, expected %s, error %v); want score %v", tr.Method, tr.Run, tr.Status, tr.Score, tr.Answer, tr.Expected, tr.Error, want)
		}
	}
	images := 0
	for _, req := range log.all() {
		images += model.CountImages(req)
	}
	if images != cfg.Runs {
		t.Errorf("%d images sent, want one chart page per rlm-code trial (%d)", images, cfg.Runs)
	}
	again, err := Replay(context.Background(), dir, ReplayOptions{NewStore: stores})
	if err != nil {
		t.Fatal(err)
	}
	if a, b := comparable(t, rep), comparable(t, again); a != b {
		t.Fatalf("replay differs:\nrecorded %s\nreplayed %s", a, b)
	}
	// The committed record (UPDATE_GOLDEN=1 writes it) still replays.
	committed, err := Replay(context.Background(), chartRecord, ReplayOptions{NewStore: stores})
	if err != nil {
		t.Fatal(err)
	}
	if a, b := comparable(t, rep), comparable(t, committed); a != b {
		t.Fatalf("the committed record %s replays to another report:\nnow %s\ncommitted %s", chartRecord, a, b)
	}
}

// chartRecord is a recorded chart-pdf run (TestChartPDFVisionVersusText's).
var chartRecord = filepath.Join("testdata", "chart-pdf-record")

// A chart-pdf task's text layer (Context, what text-only methods read)
// names every region's manager and the chart's labels but none of the
// bars' values; the answer is the asked manager's region's bar.
func TestGenerateChartPDF(t *testing.T) {
	for _, size := range []int{MinSize, 6000, 40_000} {
		task, err := Generate(KindChartPDF, size, 11)
		if err != nil {
			t.Fatal(err)
		}
		c := task.chart
		if want := max(ChartMinPages, (size+ChartPageBytes-1)/ChartPageBytes); task.Pages != want {
			t.Errorf("size %d: %d pages, want %d", size, task.Pages, want)
		}
		again, _ := Generate(KindChartPDF, size, 11)
		if !bytes.Equal(again.PDF, task.PDF) || again.Query != task.Query || again.Context != task.Context {
			t.Errorf("size %d: the same seed gave another task", size)
		}
		m := managerRe.FindStringSubmatch(task.Query)
		if m == nil {
			t.Fatalf("query %q names no manager", task.Query)
		}
		region := regexp.MustCompile(`The (\w+) region is led by ` + m[1]).FindStringSubmatch(task.Context)
		if region == nil {
			t.Fatalf("the text does not say which region %s leads", m[1])
		}
		for _, b := range c.bars {
			if !strings.Contains(task.Context, b.Label) || regexp.MustCompile(`\b`+fmt.Sprint(b.Value)+`\b`).MatchString(task.Context) {
				t.Errorf("text layer: want label %s, not value %d", b.Label, b.Value)
			}
			if b.Label == region[1] && task.Expected.Count != b.Value {
				t.Errorf("expected %d, want %s's bar %d", task.Expected.Count, b.Label, b.Value)
			}
		}
	}
	if _, err := Generate(KindChartPDF, ChartMaxPages*ChartPageBytes+1, 1); err == nil {
		t.Error("a chart-pdf over ChartMaxPages was accepted")
	}
	if k, err := ParseKind("chart-pdf"); err != nil || k != KindChartPDF {
		t.Errorf("ParseKind(chart-pdf) = %q, %v", k, err)
	}
}

// BenchmarkGenerateChartPDF measures writing a chart-pdf task of the
// default --size (100k: 67 pages); docs/bench.md has the figures.
func BenchmarkGenerateChartPDF(b *testing.B) {
	var n int
	for i := range b.N {
		task, err := Generate(KindChartPDF, 100_000, uint64(i))
		if err != nil {
			b.Fatal(err)
		}
		n = len(task.PDF)
	}
	b.ReportMetric(float64(n), "pdf-bytes")
}
