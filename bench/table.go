package bench

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// WriteTable writes the human-readable report: a header, the replay
// notice when the figures come from replayed responses, one row per
// method, and notes on skipped trials and estimated costs.
func WriteTable(w io.Writer, r *Report) error {
	var b strings.Builder
	seeds := fmt.Sprintf("seed %d", r.Seed)
	if r.Runs > 1 {
		seeds = fmt.Sprintf("seeds %d-%d", r.Seed, r.Seed+uint64(r.Runs)-1)
	}
	if r.Suite != "" {
		subset := ""
		if r.Subset != "" {
			subset = ", subset " + r.Subset
		}
		fmt.Fprintf(&b, "rlm bench: suite %s (%s%s), %d task(s), model %s, sub-model %s\n", r.Suite, r.Data, subset, r.Runs, r.Model, r.SubModel)
	} else {
		fmt.Fprintf(&b, "rlm bench: task %s, size %d bytes, %d run(s) (%s), model %s, sub-model %s\n", r.Task, r.Size, r.Runs, seeds, r.Model, r.SubModel)
	}
	if r.Replayed {
		fmt.Fprintf(&b, "NOTE: %s\n", ReplayNotice)
	}
	b.WriteString("\n")
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "method\ttrials\tok\tfailed\tskipped\taccuracy\tcost mean\tcost p25/p50/p75\ttokens mean\ttokens p25/p50/p75\tlatency ms mean\tlatency ms p25/p50/p75")
	for _, s := range r.Summaries {
		acc := "n/a"
		cost, costQ, tok, tokQ, lat, latQ := "n/a", "n/a", "n/a", "n/a", "n/a", "n/a"
		if s.Accuracy != nil {
			acc = fmt.Sprintf("%.3f", *s.Accuracy)
			cost = dollars(s.CostUSD.Mean)
			costQ = dollars(s.CostUSD.P25) + "/" + dollars(s.CostUSD.P50) + "/" + dollars(s.CostUSD.P75)
			tok = fmt.Sprintf("%.0f", s.Tokens.Mean)
			tokQ = fmt.Sprintf("%.0f/%.0f/%.0f", s.Tokens.P25, s.Tokens.P50, s.Tokens.P75)
			lat = fmt.Sprintf("%.1f", s.LatencyMS.Mean)
			latQ = fmt.Sprintf("%.1f/%.1f/%.1f", s.LatencyMS.P25, s.LatencyMS.P50, s.LatencyMS.P75)
			if !s.CostKnown && !s.CostEstimated {
				cost, costQ = "unknown", "unknown"
			}
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", s.Method, s.Trials, s.OK, s.Failed, s.Skipped, acc, cost, costQ, tok, tokQ, lat, latQ)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	var notes []string
	for _, s := range r.Summaries {
		if s.Skipped > 0 && s.Method == MethodDirect {
			notes = append(notes, fmt.Sprintf("direct: %d of %d trial(s) skipped: the context exceeds --direct-max-bytes (%d); skipped trials are not scored", s.Skipped, s.Trials, r.DirectMaxBytes))
		}
		if s.Failed > 0 {
			notes = append(notes, fmt.Sprintf("%s: %d trial(s) failed and score 0 (see --json for errors)", s.Method, s.Failed))
		}
		if s.CostEstimated {
			notes = append(notes, fmt.Sprintf("%s: cost estimated from the price table", s.Method))
		}
	}
	if len(notes) > 0 {
		b.WriteString("\n")
		for _, n := range notes {
			b.WriteString(n + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func dollars(x float64) string { return fmt.Sprintf("$%.6f", x) }
