package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/pdfgen"
)

// KindChartPDF is a long PDF whose answer is partly in its text and
// partly in a bar chart drawn on one page: the text says which region a
// manager leads, the chart (its values drawn, never written) says how many
// units each region sold. Text-only methods see the labels but not the
// values; a method that renders the chart's page and sends it to a vision
// model can read them.
const KindChartPDF Kind = "chart-pdf"

// ChartPageBytes is the text of one page of a chart-pdf document: the
// document has ceil(size/ChartPageBytes) pages, at least ChartMinPages.
const (
	ChartPageBytes = 1500
	ChartMinPages  = 3
	ChartMaxPages  = 2000
)

// chartTitle is the chart's title: the search a method runs to find the
// chart's page.
const chartTitle = "Units sold per region (bar chart, scale 0 to 100)"

// Regions and managers of chart-pdf: words absent from fillerWords, no
// digits, Latin-1.
var (
	chartRegions  = []string{"North", "South", "East", "West", "Central", "Coast"}
	chartManagers = []string{"Ilse Varga", "Tomas Reyes", "Anouk Smit", "Priya Nair", "Jonas Berg", "Mei Tanaka", "Rafael Costa", "Helen Okafor"}
)

// chartDoc is what a chart-pdf task holds beside its text: the PDF, its
// chart's page and bars (for tests).
type chartDoc struct {
	pdf       []byte
	chartPage int
	bars      []pdfgen.Bar
}

// genChartPDF builds a chart-pdf task: pages of filler text, one line per
// region naming its manager on random pages, and the chart on a random
// page. The question names a manager; the answer is the value of that
// manager's region's bar (FormCount). Context is the document's text
// layer, page after page (what the text-only methods read); Task.PDF is
// the document.
func genChartPDF(rng *rand.Rand, size int) (*Task, error) {
	pages := max(ChartMinPages, (size+ChartPageBytes-1)/ChartPageBytes)
	nbars := 4 + rng.IntN(3)
	regions := append([]string(nil), chartRegions...)
	rng.Shuffle(len(regions), func(i, j int) { regions[i], regions[j] = regions[j], regions[i] })
	managers := append([]string(nil), chartManagers...)
	rng.Shuffle(len(managers), func(i, j int) { managers[i], managers[j] = managers[j], managers[i] })
	bars := make([]pdfgen.Bar, nbars)
	used := map[int]bool{}
	for i := range bars {
		v := 10 + rng.IntN(86)
		for used[v] {
			v = 10 + rng.IntN(86)
		}
		used[v] = true
		bars[i] = pdfgen.Bar{Label: regions[i], Value: v}
	}
	chartPage := 1 + rng.IntN(pages)
	facts := map[int][]string{} // page -> fact lines
	for i := range bars {
		p := 1 + rng.IntN(pages)
		facts[p] = append(facts[p], fmt.Sprintf("The %s region is led by %s.", regions[i], managers[i]))
	}
	target := rng.IntN(nbars)
	text := make([][]string, pages+1)
	for p := 1; p <= pages; p++ {
		lines := 24 // about ChartPageBytes of filler
		if p == chartPage {
			lines = 10 // the chart takes the lower part of the page
		}
		for range lines {
			text[p] = append(text[p], sentence(rng, 8, 12))
		}
		for _, f := range facts[p] {
			at := rng.IntN(len(text[p]) + 1)
			text[p] = append(text[p][:at], append([]string{f}, text[p][at:]...)...)
		}
	}
	doc, err := pdfgen.ChartPages(pages, chartPage, func(p int) []string { return text[p] }, chartTitle, bars)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	for p := 1; p <= pages; p++ {
		for _, l := range text[p] {
			b.WriteString(l + "\n")
		}
		if p == chartPage {
			b.WriteString(chartTitle + "\n" + strings.Join(regionsOf(bars), " ") + "\n")
		}
	}
	return &Task{
		Context: b.String(),
		Query: fmt.Sprintf("The report holds a bar chart of the units sold per region. How many units did the region led by %s sell, "+
			"as the chart shows? Answer with the number.", managers[target]),
		Expected: Expected{Form: FormCount, Count: bars[target].Value},
		PDF:      doc,
		Pages:    pages,
		chart:    &chartDoc{pdf: doc, chartPage: chartPage, bars: bars},
	}, nil
}

func regionsOf(bars []pdfgen.Bar) []string {
	out := make([]string, len(bars))
	for i, b := range bars {
		out[i] = b.Label
	}
	return out
}

// newStore is a trial's store: cfg.NewStore's, else corpus.NewStore.
func (cfg *Config) newStore() *corpus.Store {
	if cfg.NewStore != nil {
		return cfg.NewStore()
	}
	return corpus.NewStore()
}

// add registers the task's context in store: its text, or its PDF (a
// context of pages, read by the store's PDF engine) written to a
// temporary file, which done removes (the store renders pages from the
// file: call done after the trial).
func (task *instance) add(ctx context.Context, store *corpus.Store) (h corpus.Handle, done func(), err error) {
	if task.pdf == nil {
		h, err = store.AddString("bench-"+task.label, task.context)
		return h, func() {}, err
	}
	dir, err := os.MkdirTemp("", "rlm-bench-")
	if err != nil {
		return h, nil, fault.Wrap(err, fault.PhaseExecute, fault.KindIO, "cannot write the task's PDF")
	}
	done = func() { os.RemoveAll(dir) }
	path := filepath.Join(dir, fmt.Sprintf("%s-%d.pdf", task.label, task.seed))
	if err := os.WriteFile(path, task.pdf, 0o600); err != nil {
		done()
		return h, nil, fault.Wrap(err, fault.PhaseExecute, fault.KindIO, "cannot write the task's PDF").With("file", path)
	}
	if h, err = store.AddFile(ctx, path); err != nil {
		done()
		return h, nil, err
	}
	return h, done, nil
}
