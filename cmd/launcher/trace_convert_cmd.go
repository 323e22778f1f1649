package launcher

import (
	"bytes"
	"os"

	"github.com/spf13/cobra"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/trace"
	"github.com/rlm-go/rlm/trace/rlmlog"
)

// formatRLMJSONL is the official Python RLM's log format.
const formatRLMJSONL = "rlm-jsonl"

func (l *launcher) newTraceImportCmd() *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "import FILE.jsonl -o OUT",
		Short: "Convert a log of the official Python RLM (rlm-jsonl) into an rlm trace",
		Long: `import reads a log written by the official RLM's logger (a metadata line, then
one line per iteration) and writes it as an rlm trace (OUT.jsonl for JSON
lines, else one JSON envelope), for rlm trace view and rlm trace serve.
docs/trace.md lists what maps and what does not.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f, err := os.Open(args[0])
			if err != nil {
				return fault.Wrap(err, fault.PhaseTrace, fault.KindIO, "cannot open the log").With("file", args[0])
			}
			defer f.Close()
			evs, err := rlmlog.Import(f)
			if err != nil {
				return err
			}
			return trace.WriteFile(out, "rlm trace import", evs, 0)
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "trace file to write (required)")
	_ = cmd.MarkFlagRequired("output")
	return cmd
}

func (l *launcher) newTraceExportCmd() *cobra.Command {
	var out, format string
	cmd := &cobra.Command{
		Use:   "export --format rlm-jsonl FILE [-o OUT]",
		Short: "Write an rlm trace in the official Python RLM's log format",
		Long: `export writes a trace (JSON or JSONL) as a log of the official RLM's logger,
so its visualizer reads it: one metadata line, then one iteration per turn
of the root loop. Replies, code and output appear only when the trace
recorded them (rlm run --trace-content). Without -o it writes to stdout.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != formatRLMJSONL {
				return fault.New(fault.PhaseConfig, kindUsage, "unknown export format").With("format", format).
					WithHint("use --format " + formatRLMJSONL)
			}
			evs, err := trace.ReadFile(args[0])
			if err != nil {
				return err
			}
			if out == "" {
				return rlmlog.Export(cmd.OutOrStdout(), evs)
			}
			// Converted in memory (the events already are) before OUT is
			// opened: a trace that cannot be exported leaves no OUT
			// behind and an existing one as it was.
			var b bytes.Buffer
			if err := rlmlog.Export(&b, evs); err != nil {
				return err
			}
			if err := os.WriteFile(out, b.Bytes(), 0o666); err != nil {
				return fault.Wrap(err, fault.PhaseTrace, fault.KindIO, "cannot write the output").With("file", out)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", formatRLMJSONL, "output format: rlm-jsonl (the official RLM's log)")
	cmd.Flags().StringVarP(&out, "output", "o", "", "file to write (default stdout)")
	return cmd
}
