package main

import (
	"os"

	"github.com/spf13/cobra"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/trace"
)

func newTraceCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "trace", Short: "Inspect trace files"}
	addJSONErrorsFlag(cmd, true)
	cmd.AddCommand(&cobra.Command{
		Use:   "view FILE",
		Short: "Print a trace (JSON or JSONL) as a readable tree",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f, err := os.Open(args[0])
			if err != nil {
				return fault.Wrap(err, fault.PhaseTrace, trace.KindIO, "cannot open trace file")
			}
			defer f.Close()
			evs, err := trace.Read(f)
			if err != nil {
				return err
			}
			return trace.WriteTree(cmd.OutOrStdout(), evs)
		},
	})
	cmd.AddCommand(newTraceServeCmd(), newTraceImportCmd(), newTraceExportCmd())
	return cmd
}
