package launcher

import "github.com/spf13/cobra"

// topCommand is a top-level command: its name (the first word of its
// Use) and its constructor.
type topCommand struct {
	name  string
	build func() *cobra.Command
}

// topCommands lists every top-level command, in help order
// (TestTopCommandNames checks each name against its command).
func (l *launcher) topCommands() []topCommand {
	return []topCommand{
		{"approve", l.newApproveCmd},
		{"bench", l.newBenchCmd},
		{"chat", l.newChatCmd},
		{"command", l.newCommandCmd},
		{"compile", l.newCompileCmd},
		{"context", l.newContextCmd},
		{"demo", l.newDemoCmd},
		{"direct", l.newDirectCmd},
		{"explain", l.newExplainCmd},
		{"mcp", l.newMCPCmd},
		{"result", l.newResultCmd},
		{"run", l.newRunCmd},
		{"search", l.newSearchCmd},
		{"serve-cassette", l.newServeCassetteCmd},
		{"status", l.newStatusCmd},
		{"submit", l.newSubmitCmd},
		{"tools", l.newToolsCmd},
		{"trace", l.newTraceCmd},
		{"worker", l.newWorkerCmd},
	}
}

// subcommands builds the top-level commands the command line args needs:
// only the one whose name is args[0], none for a bare --version, and
// every one otherwise (args nil, no command, help, completion, an
// unknown word: cobra lists them or suggests one). A command line pays
// at start only for the command it runs (issue 35 item 5);
// TestLazyTreeSameHelp checks that each command's help is the same
// either way.
func (l *launcher) subcommands(args []string) []*cobra.Command {
	all := l.topCommands()
	if len(args) == 1 && args[0] == "--version" {
		return nil
	}
	if len(args) > 0 {
		for _, c := range all {
			if c.name == args[0] {
				return []*cobra.Command{c.build()}
			}
		}
	}
	cmds := make([]*cobra.Command, len(all))
	for i, c := range all {
		cmds[i] = c.build()
	}
	return cmds
}
