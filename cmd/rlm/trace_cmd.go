package main

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

func newTraceCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "trace", Short: "Inspect trace files"}
	addJSONErrorsFlag(cmd, true)
	cmd.AddCommand(&cobra.Command{
		Use:   "view FILE",
		Short: "Print a trace (JSON or JSONL) as a readable tree",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			evs, err := readAnyTrace(args[0])
			if err != nil {
				return err
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
	cmd.AddCommand(newTraceServeCmd(), newTraceImportCmd(), newTraceExportCmd())
	return cmd
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
