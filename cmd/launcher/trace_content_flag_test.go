package launcher

import (
	"slices"
	"testing"

	"github.com/spf13/cobra"
)

// --trace-content means one thing (rlm.Spec.TraceContent) on every
// command that takes it, and says so in one help text.
func TestTraceContentFlagOneHelp(t *testing.T) {
	var cmds []string
	walkTree((&launcher{}).newRootCmd(nil), func(c *cobra.Command) {
		f := c.Flags().Lookup("trace-content")
		if f == nil {
			return
		}
		cmds = append(cmds, c.CommandPath())
		if f.Usage != traceContentHelp || f.DefValue != "false" {
			t.Errorf("%s --trace-content: default %s, help %q", c.CommandPath(), f.DefValue, f.Usage)
		}
	})
	want := []string{"rlm chat", "rlm direct", "rlm run", "rlm submit"}
	slices.Sort(cmds)
	if !slices.Equal(cmds, want) {
		t.Fatalf("--trace-content on %v, want %v", cmds, want)
	}
}
