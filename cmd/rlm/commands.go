package main

import "github.com/spf13/cobra"

// subcommands lists every top-level command, in help order.
func subcommands() []*cobra.Command {
	return []*cobra.Command{
		newApproveCmd(),
		newBenchCmd(),
		newChatCmd(),
		newCommandCmd(),
		newCompileCmd(),
		newContextCmd(),
		newDemoCmd(),
		newDirectCmd(),
		newExplainCmd(),
		newMCPCmd(),
		newResultCmd(),
		newRunCmd(),
		newSearchCmd(),
		newServeCassetteCmd(),
		newStatusCmd(),
		newSubmitCmd(),
		newToolsCmd(),
		newTraceCmd(),
		newWorkerCmd(),
	}
}
