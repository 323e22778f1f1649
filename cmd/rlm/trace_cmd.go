package main

import (
	"github.com/spf13/cobra"

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
			evs, err := trace.ReadFile(args[0])
			if err != nil {
				return err
			}
			return trace.WriteTree(cmd.OutOrStdout(), evs)
		},
	})
	cmd.AddCommand(newTraceServeCmd(), newTraceImportCmd(), newTraceExportCmd())
	return cmd
}
