package launcher

import (
	"bytes"
	"os"

	"github.com/spf13/cobra"

	"github.com/rlm-go/rlm/bench"
	"github.com/rlm-go/rlm/fault"
)

// benchReportFlags are the flags of rlm bench report.
type benchReportFlags struct {
	asJSON, csv, markdown bool
	svg                   string
}

func (l *launcher) newBenchReportCmd() *cobra.Command {
	var f benchReportFlags
	cmd := &cobra.Command{
		Use:   "report RESULTS.json... [--json|--csv|--markdown] [--svg FILE]",
		Short: "Set bench results beside the RLM paper's published figures",
		Long: `Read the reports rlm bench run --json wrote and print, per benchmark, setting
and method: the score (mean over attempted trials, in percent), the RLM paper's
figure for the same benchmark, setting and method (arXiv 2512.24601, Table 1,
shipped with the binary and cited; "—" where the paper has none), the
difference, the cost per task (mean ± sd, p25/p50/p75/p95), tokens, latency,
model calls per task and recursion depth. Trials of several files are pooled
when their benchmark, setting, method and models agree.

--json, --csv and --markdown choose the format (default: a text table);
--svg FILE also writes a plot of the cost distribution per row (per-trial
costs over a box plot) as SVG. A file that is not a bench report is an error
naming it (bench_report_invalid). See docs/bench.md.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return f.run(cmd, args) },
	}
	fl := cmd.Flags()
	fl.BoolVar(&f.asJSON, "json", false, "print the comparison as JSON")
	fl.BoolVar(&f.csv, "csv", false, "print the comparison as CSV")
	fl.BoolVar(&f.markdown, "markdown", false, "print the comparison as a Markdown table")
	fl.StringVar(&f.svg, "svg", "", "also write the cost distribution per row as an SVG plot to FILE")
	cmd.MarkFlagsMutuallyExclusive("json", "csv", "markdown")
	return cmd
}

// run reads every results file (all before printing anything), compares
// them with the published figures and prints the comparison.
func (f *benchReportFlags) run(cmd *cobra.Command, files []string) error {
	if err := checkOutputs([2]string{"svg", f.svg}); err != nil {
		return err
	}
	reports := make([]*bench.Report, 0, len(files))
	for _, path := range files {
		rep, err := bench.ReadReport(path)
		if err != nil {
			return err
		}
		reports = append(reports, rep)
	}
	c := bench.Compare(reports, bench.PublishedTable())
	out := cmd.OutOrStdout()
	var err error
	switch {
	case f.asJSON:
		err = writeJSON(out, c)
	case f.csv:
		err = bench.WriteComparisonCSV(out, c)
	case f.markdown:
		err = bench.WriteComparisonMarkdown(out, c)
	default:
		err = bench.WriteComparison(out, c)
	}
	if err != nil {
		return err
	}
	if f.svg != "" {
		var b bytes.Buffer
		if err := bench.WriteCostSVG(&b, c); err != nil {
			return err
		}
		if err := os.WriteFile(f.svg, b.Bytes(), 0o644); err != nil {
			return fault.Wrap(err, fault.PhaseConfig, fault.KindIO, "cannot write the SVG plot").With("path", f.svg)
		}
	}
	return nil
}
