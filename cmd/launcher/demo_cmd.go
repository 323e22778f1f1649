package launcher

import (
	"github.com/spf13/cobra"

	"github.com/rlm-go/rlm/demo"
	"github.com/rlm-go/rlm/trace"
)

func (l *launcher) newDemoCmd() *cobra.Command {
	var asJSON bool
	var traceFile string
	var mode string
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Run a credential-free RLM walkthrough over a generated 4 MB server log",
		Long: `Run the real engine through the real HTTP provider against an embedded cassette
served by an in-process replay server: context inspection, a map fan-out of
sub-calls over partitions, a recursive child, budget accounting, the answer,
and the trajectory tree. No network, no credentials. --mode code shows the
same run with the model writing Python in the sandboxed REPL.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkOutputs([2]string{"trace", traceFile}); err != nil {
				return err
			}
			out, runErr := demo.RunMode(cmd.Context(), mode)
			if out == nil {
				return runErr
			}
			// The result is printed before an output error is reported.
			var outErr error
			if traceFile != "" {
				outErr = trace.WriteFile(traceFile, "rlm demo", out.Result.Trajectory, out.TraceDropped)
			}
			if asJSON {
				res := runResultJSON(out.Result)
				if outErr != nil {
					res.OutputError = asFault(outErr)
				}
				if err := writeJSON(cmd.OutOrStdout(), res); err != nil {
					return err
				}
				if runErr != nil || outErr != nil {
					return exitError{code: 1}
				}
				return nil
			}
			demo.Report(cmd.OutOrStdout(), out)
			if outErr != nil {
				return outErr
			}
			if runErr != nil {
				return exitError{code: 1}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON")
	cmd.Flags().StringVar(&traceFile, "trace", "", "write the trace to FILE (.jsonl or .json)")
	cmd.Flags().StringVar(&mode, "mode", "plan", "plan (the model writes JSON plans) or code (the model writes Python in the sandboxed REPL)")
	return cmd
}
