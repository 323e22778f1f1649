package pdfgen_test

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"math"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/internal/pdfgen"
	"github.com/rlm-go/rlm/internal/pdftest"
)

// A chart page's values are in its pixels, not its text: the text layer
// holds the labels and title only, and the bars' heights measured on the
// rendered page give back the values.
func TestChartPages(t *testing.T) {
	bars := []pdfgen.Bar{{"North", 73}, {"South", 41}, {"East", 88}, {"West", 17}}
	doc, err := pdfgen.ChartPages(3, 2, func(p int) []string { return []string{fmt.Sprintf("Page %d of the report", p)} },
		"Units sold per region (scale 0 to 100)", bars)
	if err != nil {
		t.Fatal(err)
	}
	e := pdftest.Engine(t)
	d, err := e.Extract(context.Background(), "chart.pdf", doc)
	if err != nil {
		t.Fatal(err)
	}
	text := d.Pages[1].Text
	for _, b := range bars {
		if !strings.Contains(text, b.Label) || strings.Contains(text, fmt.Sprint(b.Value)) {
			t.Errorf("text layer %q: want label %s, not value %d", text, b.Label, b.Value)
		}
	}
	const dpi = 100
	im, err := d.RenderPage(context.Background(), 2, dpi)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(im.PNG))
	if err != nil {
		t.Fatal(err)
	}
	px := func(mm float64) int { return int(math.Round(mm / 25.4 * dpi)) }
	for i, b := range bars {
		x := px(pdfgen.ChartLeft + float64(i)*pdfgen.ChartStep + pdfgen.ChartBarWidth/2)
		n := 0 // blue pixels in the bar's column
		for y := px(pdfgen.ChartBaseline - pdfgen.ChartHeight - 5); y < px(pdfgen.ChartBaseline); y++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if bl > 0x9000 && r < 0x4000 && g < 0x6000 {
				n++
			}
		}
		got := float64(n) / float64(px(pdfgen.ChartHeight)) * pdfgen.ChartMax
		if math.Abs(got-float64(b.Value)) > 2 {
			t.Errorf("bar %s: measured %.1f, want %d", b.Label, got, b.Value)
		}
	}
	if _, err := pdfgen.ChartPages(2, 3, func(int) []string { return nil }, "t", bars); err == nil {
		t.Error("a chart page outside the document was accepted")
	}
}
