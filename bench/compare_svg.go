package bench

import (
	"fmt"
	"html"
	"io"
	"math"
	"strconv"
	"strings"
)

// Layout of the cost plot, in SVG user units.
const (
	svgWidth   = 1000
	svgLabelW  = 400 // the row labels, left of the plot
	svgRight   = 30
	svgTop     = 56
	svgRowH    = 30
	svgBottom  = 48
	svgTicks   = 4
	svgDotR    = 2.5
	svgBoxHalf = 8
)

// WriteCostSVG writes the cost distribution per row of c as an SVG
// document: per-trial costs as dots over a box plot (box p25–p75, a
// line at the median, whiskers to the least and greatest cost, a cross at
// p95), on one linear dollar axis from 0. Rows without a known cost say
// so. The plot is self-contained text, fully determined by c.
func WriteCostSVG(w io.Writer, c Comparison) error {
	var b strings.Builder
	height := svgTop + svgRowH*max(len(c.Rows), 1) + svgBottom
	x0, x1 := float64(svgLabelW), float64(svgWidth-svgRight)
	hi := 0.0
	for _, r := range c.Rows {
		if r.Score != nil && r.CostKnown {
			for _, x := range r.Costs {
				hi = max(hi, x)
			}
		}
	}
	top, step, decimals := costAxis(hi)
	xOf := func(v float64) float64 { return x0 + (x1-x0)*v/top }
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n",
		svgWidth, height, svgWidth, height)
	b.WriteString(`<rect width="100%" height="100%" fill="white"/>` + "\n")
	fmt.Fprintf(&b, `<text x="10" y="20" font-size="14" font-weight="bold">%s</text>`+"\n", esc("Cost per task (USD) by benchmark, setting and method"))
	sub := "dots: trials; box: p25–p75; line: median; whiskers: min–max; ×: p95"
	if c.Replayed {
		sub = "NOTE: " + ReplayNotice
	}
	fmt.Fprintf(&b, `<text x="10" y="38" fill="#555">%s</text>`+"\n", esc(sub))
	// The axis: grid lines and labels.
	axisY := svgTop + svgRowH*max(len(c.Rows), 1)
	for i := 0; i <= svgTicks; i++ {
		v := step * float64(i)
		x := num1(xOf(v))
		fmt.Fprintf(&b, `<line x1="%s" y1="%d" x2="%s" y2="%d" stroke="#ddd"/>`+"\n", x, svgTop, x, axisY)
		fmt.Fprintf(&b, `<text x="%s" y="%d" text-anchor="middle">$%s</text>`+"\n", x, axisY+16, strconv.FormatFloat(v, 'f', decimals, 64))
	}
	fmt.Fprintf(&b, `<line x1="%s" y1="%d" x2="%s" y2="%d" stroke="#333"/>`+"\n", num1(x0), axisY, num1(x1), axisY)
	fmt.Fprintf(&b, `<text x="%s" y="%d" text-anchor="middle">cost per task (USD)</text>`+"\n", num1((x0+x1)/2), axisY+36)
	for i, r := range c.Rows {
		y := float64(svgTop + svgRowH*i + svgRowH/2)
		label := r.Benchmark + " · " + r.Setting + " · " + string(r.Method)
		fmt.Fprintf(&b, `<text x="%d" y="%s" text-anchor="end" dominant-baseline="middle">%s</text>`+"\n", svgLabelW-10, num1(y), esc(label))
		if r.Score == nil || !r.CostKnown || len(r.Costs) == 0 {
			fmt.Fprintf(&b, `<text x="%s" y="%s" dominant-baseline="middle" fill="#888">no known cost</text>`+"\n", num1(x0+6), num1(y))
			continue
		}
		d := r.CostUSD
		lo, hiRow := d.P25, d.P75
		minC, maxC := r.Costs[0], r.Costs[0]
		for _, x := range r.Costs {
			minC, maxC = min(minC, x), max(maxC, x)
		}
		fmt.Fprintf(&b, `<g><title>%s</title>`+"\n", esc(fmt.Sprintf("%s: n=%d, mean %s ± %s, p25 %s, p50 %s, p75 %s, p95 %s",
			label, d.N, usd(d.Mean), strconv.FormatFloat(d.SD, 'f', decimals3(d.Mean), 64), usd(d.P25), usd(d.P50), usd(d.P75), usd(d.P95))))
		fmt.Fprintf(&b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#333"/>`+"\n", num1(xOf(minC)), num1(y), num1(xOf(maxC)), num1(y))
		fmt.Fprintf(&b, `<rect x="%s" y="%s" width="%s" height="%d" fill="#cfe0f3" stroke="#2b5d8c"/>`+"\n",
			num1(xOf(lo)), num1(y-svgBoxHalf), num1(xOf(hiRow)-xOf(lo)), 2*svgBoxHalf)
		fmt.Fprintf(&b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#2b5d8c" stroke-width="2"/>`+"\n",
			num1(xOf(d.P50)), num1(y-svgBoxHalf), num1(xOf(d.P50)), num1(y+svgBoxHalf))
		fmt.Fprintf(&b, `<text x="%s" y="%s" text-anchor="middle" dominant-baseline="middle" fill="#b03030">×</text>`+"\n", num1(xOf(d.P95)), num1(y))
		for _, x := range r.Costs {
			fmt.Fprintf(&b, `<circle cx="%s" cy="%s" r="%s" fill="#d0662b" fill-opacity="0.6"/>`+"\n", num1(xOf(x)), num1(y), num1(svgDotR))
		}
		b.WriteString("</g>\n")
	}
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// costAxis returns the end of an axis from 0 that holds hi, its tick
// step (the end is svgTicks steps), and the decimals a tick label needs.
// The step is 1, 2 or 5 times a power of ten.
func costAxis(hi float64) (top, step float64, decimals int) {
	if hi <= 0 || math.IsNaN(hi) || math.IsInf(hi, 0) {
		return 1, 1.0 / svgTicks, 2
	}
	raw := hi / svgTicks
	exp := math.Floor(math.Log10(raw))
	pow := math.Pow(10, exp)
	for _, m := range []float64{1, 2, 5, 10} {
		if m*pow*svgTicks >= hi {
			step = m * pow
			break
		}
	}
	decimals = max(0, -int(math.Floor(math.Log10(step))))
	// Round the step to its decimals so that the labels are exact.
	step, _ = strconv.ParseFloat(strconv.FormatFloat(step, 'f', decimals, 64), 64)
	return step * svgTicks, step, decimals
}

// num1 formats an SVG coordinate with one decimal.
func num1(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) }

// esc escapes text for SVG (XML) content and attributes.
func esc(s string) string { return html.EscapeString(s) }
