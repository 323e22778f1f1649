package pdfgen

import (
	"bytes"
	"fmt"

	"codeberg.org/go-pdf/fpdf"
)

// Bar is one bar of a chart: its label (written as text under the bar)
// and its value (drawn only: its number is in no text of the page).
type Bar struct {
	Label string
	Value int
}

// Chart geometry on an A4 page, in millimetres: the baseline of the bars,
// the height of a bar of ChartMax, each bar's width and the left edge of
// bar i (ChartLeft + i*ChartStep).
const (
	ChartBaseline = 200.0
	ChartHeight   = 100.0
	ChartMax      = 100
	ChartBarWidth = 12.0
	ChartLeft     = 30.0
	ChartStep     = 20.0
)

// ChartPages returns a PDF of n A4 pages like Pages, whose page chartPage
// (1-based) also holds a bar chart of bars below its text: filled
// rectangles of height Value/ChartMax*ChartHeight mm standing on
// ChartBaseline, labels under them, and a title. Values must be in
// 0..ChartMax. The values are drawn, never written: a reader of the text
// layer sees the labels and the title but not the numbers.
func ChartPages(n, chartPage int, text func(page int) []string, title string, bars []Bar) ([]byte, error) {
	if chartPage < 1 || chartPage > n {
		return nil, fmt.Errorf("pdfgen: chart page %d outside 1..%d", chartPage, n)
	}
	for _, b := range bars {
		if b.Value < 0 || b.Value > ChartMax {
			return nil, fmt.Errorf("pdfgen: bar %q value %d outside 0..%d", b.Label, b.Value, ChartMax)
		}
	}
	f := fpdf.New("P", "mm", "A4", "")
	f.SetCompression(false)
	f.SetCreationDate(fixedDate)
	f.SetModificationDate(fixedDate)
	f.SetFont("Helvetica", "", 11)
	for p := 1; p <= n; p++ {
		f.AddPage()
		for _, line := range text(p) {
			f.CellFormat(0, 6, line, "", 1, "L", false, 0, "")
		}
		if p != chartPage {
			continue
		}
		f.SetXY(ChartLeft, ChartBaseline-ChartHeight-15)
		f.CellFormat(0, 6, title, "", 1, "L", false, 0, "")
		f.SetDrawColor(0, 0, 0)
		f.SetLineWidth(0.3)
		right := ChartLeft + float64(len(bars))*ChartStep
		f.Line(ChartLeft-4, ChartBaseline, right, ChartBaseline)
		f.Line(ChartLeft-4, ChartBaseline, ChartLeft-4, ChartBaseline-ChartHeight)
		f.SetFillColor(30, 60, 200)
		for i, b := range bars {
			x := ChartLeft + float64(i)*ChartStep
			h := float64(b.Value) / ChartMax * ChartHeight
			if h > 0 {
				f.Rect(x, ChartBaseline-h, ChartBarWidth, h, "F")
			}
			f.SetXY(x-2, ChartBaseline+2)
			f.CellFormat(ChartBarWidth+4, 6, b.Label, "", 0, "C", false, 0, "")
		}
	}
	var buf bytes.Buffer
	if err := f.Output(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
