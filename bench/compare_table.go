package bench

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"
)

// none is the cell of a figure that does not exist (no published figure,
// no attempted trial).
const none = "—"

// comparisonHeader is the first line of the text and Markdown tables.
func comparisonHeader(c Comparison) string {
	return fmt.Sprintf("rlm bench report: %d report(s), %d row(s); published figures: %s", c.Reports, len(c.Rows), paperSource)
}

// rowCells are the cells of a row shared by the text and Markdown tables.
func rowCells(r Row) []string {
	score, pub, pubCost, diff := none, none, none, none
	cost, costQ, tok, lat, calls := none, none, none, none, none
	if r.Score != nil {
		score = fmt.Sprintf("%.1f", *r.Score)
		tok = fmt.Sprintf("%.0f", r.Tokens.Mean)
		lat = fmt.Sprintf("%.1f", r.LatencyMS.Mean)
		calls = fmt.Sprintf("%.1f", r.CallsPerTask)
		cost, costQ = "unknown", "unknown"
		if r.CostKnown {
			cost = usd(r.CostUSD.Mean) + " ± " + strconv.FormatFloat(r.CostUSD.SD, 'f', decimals3(r.CostUSD.Mean), 64)
			costQ = usd(r.CostUSD.P25) + " / " + usd(r.CostUSD.P50) + " / " + usd(r.CostUSD.P75) + " / " + usd(r.CostUSD.P95)
		}
	}
	if p := r.Published; p != nil {
		pub = strconv.FormatFloat(p.Score, 'f', -1, 64)
		if !strings.Contains(pub, ".") {
			pub += ".0"
		}
		if p.ContextLimited {
			pub += "*"
		}
		pub += " (" + p.Model + ")"
		if p.CostMean != nil && p.CostSD != nil {
			pubCost = fmt.Sprintf("$%.2f ± %.2f", *p.CostMean, *p.CostSD)
		}
	}
	if r.Diff != nil {
		diff = fmt.Sprintf("%+.1f", *r.Diff)
	}
	return []string{r.Benchmark, r.Setting, string(r.Method), models(r), fmt.Sprintf("%d/%d", r.Attempted, r.Trials),
		score, r.Unit, pub, diff, cost, costQ, pubCost, tok, lat, calls, strconv.Itoa(r.MaxDepth)}
}

// comparisonColumns name the cells of rowCells.
var comparisonColumns = []string{"benchmark", "setting", "method", "model", "attempted", "score", "unit", "published",
	"diff", "cost mean ± sd", "cost p25 / p50 / p75 / p95", "published cost", "tokens mean", "latency ms mean", "calls/task", "max depth"}

func models(r Row) string {
	if r.SubModel == "" || r.SubModel == r.Model {
		return r.Model
	}
	return r.Model + " / " + r.SubModel
}

// usd formats a cost in dollars: three significant digits, at least two
// decimals ($0.00256, $0.550, $12.30).
func usd(x float64) string { return "$" + sig3(x) }

// sig3 formats x with three significant digits and at least two decimals.
func sig3(x float64) string { return strconv.FormatFloat(x, 'f', decimals3(x), 64) }

// decimals3 is the number of decimals that shows x with three significant
// digits, at least two.
func decimals3(x float64) int {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return 2
	}
	return max(2, 2-int(math.Floor(math.Log10(math.Abs(x)))))
}

// comparisonNotes are the lines under a table: what the columns mean,
// the asterisk, and the source of each published figure shown.
func comparisonNotes(c Comparison) []string {
	notes := []string{
		"score: mean over attempted trials, in percent; published: the paper's figure for the same benchmark, setting and method (its model in parentheses; " + none + ": none); diff: score − published, in points",
		"cost: per task in USD, mean ± sample sd and quartiles over attempted trials; calls/task: model calls per attempted trial; max depth: deepest recursion",
	}
	var star bool
	seen := map[string]bool{}
	var sources []string
	for _, r := range c.Rows {
		if r.Published == nil {
			continue
		}
		star = star || r.Published.ContextLimited
		if !seen[r.Published.Source] {
			seen[r.Published.Source] = true
			sources = append(sources, r.Published.Source)
		}
		if !namesModel(r.Model, r.Published.Model) {
			n := fmt.Sprintf("%s %s %s: run with %s, published with %s: the models differ", r.Benchmark, r.Setting, r.Method, r.Model, r.Published.Model)
			if !seen[n] {
				seen[n] = true
				notes = append(notes, n)
			}
		}
	}
	if star {
		notes = append(notes, "*: in the paper this method (sometimes) ran into the model's input context limit")
	}
	for _, s := range sources {
		notes = append(notes, "source: "+s)
	}
	return notes
}

// WriteComparison writes the human-readable comparison: a header, the
// replay notice, one row per benchmark setting and method, and notes
// (the columns, the sources of the published figures).
func WriteComparison(w io.Writer, c Comparison) error {
	var b strings.Builder
	b.WriteString(comparisonHeader(c) + "\n")
	if c.Replayed {
		fmt.Fprintf(&b, "NOTE: %s\n", ReplayNotice)
	}
	b.WriteString("\n")
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(comparisonColumns, "\t"))
	for _, r := range c.Rows {
		fmt.Fprintln(tw, strings.Join(rowCells(r), "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	b.WriteString("\n")
	for _, n := range comparisonNotes(c) {
		b.WriteString(n + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteComparisonMarkdown writes the comparison as a Markdown table, with
// the header line, the replay notice and the notes as paragraphs.
func WriteComparisonMarkdown(w io.Writer, c Comparison) error {
	var b strings.Builder
	b.WriteString(comparisonHeader(c) + "\n\n")
	if c.Replayed {
		fmt.Fprintf(&b, "**NOTE: %s**\n\n", ReplayNotice)
	}
	cell := func(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
	b.WriteString("| " + strings.Join(comparisonColumns, " | ") + " |\n")
	b.WriteString("|" + strings.Repeat("---|", len(comparisonColumns)) + "\n")
	for _, r := range c.Rows {
		cells := rowCells(r)
		for i := range cells {
			cells[i] = cell(cells[i])
		}
		b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
	}
	b.WriteString("\n")
	for _, n := range comparisonNotes(c) {
		b.WriteString("- " + strings.ReplaceAll(n, "*:", `\*:`) + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// csvColumns are the columns of WriteComparisonCSV.
var csvColumns = []string{"benchmark", "setting", "method", "model", "sub_model", "trials", "attempted", "ok", "failed", "skipped",
	"score", "unit", "published_score", "published_model", "published_context_limited", "published_cost_mean_usd", "published_cost_sd_usd", "diff",
	"cost_mean_usd", "cost_sd_usd", "cost_p25_usd", "cost_p50_usd", "cost_p75_usd", "cost_p95_usd", "cost_known", "cost_estimated",
	"tokens_mean", "tokens_p50", "latency_ms_mean", "latency_ms_p50", "calls_per_task", "max_depth", "replayed", "published_source"}

// WriteComparisonCSV writes the comparison as CSV (RFC 4180), one line per
// row under a header line; a figure that does not exist is an empty
// field; numbers have up to twelve significant digits.
func WriteComparisonCSV(w io.Writer, c Comparison) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(csvColumns); err != nil {
		return err
	}
	// Twelve significant digits: the last bits of a float, which may differ
	// between platforms (fused multiply-add), are not figures.
	num := func(x float64) string { return strconv.FormatFloat(x, 'g', 12, 64) }
	opt := func(x *float64) string {
		if x == nil {
			return ""
		}
		return num(*x)
	}
	for _, r := range c.Rows {
		rec := []string{r.Benchmark, r.Setting, string(r.Method), r.Model, r.SubModel,
			strconv.Itoa(r.Trials), strconv.Itoa(r.Attempted), strconv.Itoa(r.OK), strconv.Itoa(r.Failed), strconv.Itoa(r.Skipped),
			opt(r.Score), r.Unit}
		if p := r.Published; p != nil {
			rec = append(rec, num(p.Score), p.Model, strconv.FormatBool(p.ContextLimited), opt(p.CostMean), opt(p.CostSD))
		} else {
			rec = append(rec, "", "", "", "", "")
		}
		rec = append(rec, opt(r.Diff))
		if r.Score != nil && r.CostKnown {
			d := r.CostUSD
			rec = append(rec, num(d.Mean), num(d.SD), num(d.P25), num(d.P50), num(d.P75), num(d.P95))
		} else {
			rec = append(rec, "", "", "", "", "", "")
		}
		rec = append(rec, strconv.FormatBool(r.CostKnown), strconv.FormatBool(r.CostEstimated))
		if r.Score != nil {
			rec = append(rec, num(r.Tokens.Mean), num(r.Tokens.P50), num(r.LatencyMS.Mean), num(r.LatencyMS.P50), num(r.CallsPerTask))
		} else {
			rec = append(rec, "", "", "", "", "")
		}
		src := ""
		if r.Published != nil {
			src = r.Published.Source
		}
		rec = append(rec, strconv.Itoa(r.MaxDepth), strconv.FormatBool(r.Replayed), src)
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
