package launcher

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/rlm-go/rlm"
	"github.com/rlm-go/rlm/console"
	"github.com/rlm-go/rlm/internal/termsafe"
)

// rawFlag is the flag that keeps model and server text byte for byte on a
// terminal (rlm run and rlm chat; see verboseFlags).
const rawFlag = "raw"

// rawOutput reports whether cmd has a --raw flag that is set.
func rawOutput(cmd *cobra.Command) bool {
	f := cmd.Flags().Lookup(rawFlag)
	return f != nil && f.Value.String() == "true"
}

// answerOut is how a command prints model-controlled text (an answer) on
// w: neutralized (termsafe.Text: no control sequence reaches the
// terminal) when w is a terminal, unless --raw; byte for byte otherwise,
// so that a pipe or a file gets the exact answer.
func answerOut(cmd *cobra.Command, w io.Writer, s string) string {
	if rawOutput(cmd) || !console.IsTerminal(w) {
		return s
	}
	return termsafe.Text(s)
}

// checkOutputs is rlm.CheckOutputs over (flag, path) pairs.
func checkOutputs(paths ...[2]string) error {
	outs := make([]rlm.Output, len(paths))
	for i, p := range paths {
		outs[i] = rlm.Output{Flag: p[0], Path: p[1]}
	}
	return rlm.CheckOutputs(outs...)
}
