package launcher

import (
	"bufio"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/termsafe"
	"github.com/rlm-go/rlm/trace"
	"github.com/rlm-go/rlm/trace/rlmlog"
)

func (l *launcher) newTraceCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "trace", Short: "Inspect trace files"}
	addJSONErrorsFlag(cmd, true)
	cmd.AddCommand(&cobra.Command{
		Use:   "view FILE",
		Short: "Print a trace (JSON or JSONL) as a readable tree",
		Long: `Print a trace (JSON or JSONL, or a log of the official RLM) as a readable tree.
With --json print {"status","error","trace"} instead: the envelope of every
--json result (docs/cli.md) and the trace's events, as rlm run --json's
"trace" holds them.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			evs, err := readAnyTrace(args[0])
			if err != nil {
				return err
			}
			if jsonFlag(cmd, nil) {
				if evs == nil {
					evs = []trace.Event{}
				}
				return writeJSON(cmd.OutOrStdout(), traceViewJSON{envelope: newEnvelope(nil, nil, ""), Trace: evs})
			}
			// The tree quotes model, tool and server text: neutralized
			// for the terminal, a pipe or a file alike.
			var tree strings.Builder
			if err := trace.WriteTree(&tree, evs); err != nil {
				return err
			}
			_, err = io.WriteString(cmd.OutOrStdout(), termsafe.Text(tree.String()))
			return err
		},
	})
	cmd.AddCommand(l.newTraceServeCmd(), l.newTraceImportCmd(), l.newTraceExportCmd())
	return cmd
}

// traceViewJSON is the --json output of rlm trace view.
type traceViewJSON struct {
	envelope
	Trace []trace.Event `json:"trace"`
}

// readAnyTrace reads a trace file of rlm's, or a log of the official RLM
// (converted, as rlm trace serve shows it).
func readAnyTrace(path string) ([]trace.Event, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fault.Wrap(err, fault.PhaseTrace, fault.KindIO, "cannot open trace file")
	}
	defer f.Close()
	br := bufio.NewReader(f) // peeked, not seeked: the file may be a pipe
	head, _ := br.Peek(64)
	if rlmlog.IsLog(head) {
		return rlmlog.Import(br)
	}
	return trace.Read(br)
}
