package launcher

import "github.com/spf13/cobra"

// subcommands lists every top-level command, in help order.
func (l *launcher) subcommands() []*cobra.Command {
	return []*cobra.Command{
		l.newApproveCmd(),
		l.newBenchCmd(),
		l.newChatCmd(),
		l.newCommandCmd(),
		l.newCompileCmd(),
		l.newContextCmd(),
		l.newDemoCmd(),
		l.newDirectCmd(),
		l.newExplainCmd(),
		l.newMCPCmd(),
		l.newResultCmd(),
		l.newRunCmd(),
		l.newSearchCmd(),
		l.newServeCassetteCmd(),
		l.newStatusCmd(),
		l.newSubmitCmd(),
		l.newToolsCmd(),
		l.newTraceCmd(),
		l.newWorkerCmd(),
	}
}
