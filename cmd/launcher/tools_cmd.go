package launcher

import (
	"encoding/json"

	"github.com/spf13/cobra"

	"github.com/rlm-go/rlm"
	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/console"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/mcp"
	"github.com/rlm-go/rlm/tool"
)

// toolFlags are the flags of every command that runs tools.
type toolFlags struct {
	l         *launcher // the command line's Config (its tools and options), set by register
	workspace string
	allow     []string
	authority string
	stateDir  string
	resume    string
	mcp       string // --mcp FILE: MCP servers whose tools join the registry (mcp_cmd.go)
	host      *mcp.Host
}

// register binds the flags to cmd (with running, those of a command that
// calls tools), and the command line's Config, whose tools every runtime
// the flags open has (toolSpec), to the flags.
func (f *toolFlags) register(l *launcher, cmd *cobra.Command, running bool) {
	f.l = l
	cmd.Flags().StringVar(&f.workspace, "workspace", ".", "directory the workspace tools are confined to")
	cmd.Flags().StringVar(&f.mcp, "mcp", "", `MCP servers file {"mcpServers": {...}}: their tools join the catalog as mcp.<server>.<tool> (docs/mcp.md)`)
	if !running {
		return
	}
	cmd.Flags().StringSliceVar(&f.allow, "allow", nil, "capabilities granted to the call, e.g. tool:fs_read,tool:fs_write (none by default)")
	cmd.Flags().StringVar(&f.authority, "authority", string(authority.DefaultTier), "authority tier: approve_diff, allow_once, allow_session or dangerous")
	cmd.Flags().StringVar(&f.stateDir, "state-dir", "", "directory of the durable effect journal (default $XDG_STATE_HOME/rlm or ~/.local/state/rlm)")
	cmd.Flags().StringVar(&f.resume, "resume", "", "continue the run RUN_ID: effects it recorded are replayed (marked replayed), never executed again")
}

// cliAuthorityContext is the authority context of calls made from the CLI.
const cliAuthorityContext = rlm.AuthorityContext

func (l *launcher) newToolsCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "tools",
		Short: "List and call the built-in tools",
	}
	addJSONErrorsFlag(cmd, true)
	cmd.AddCommand(l.newToolsListCmd(), l.newToolsCallCmd())
	return cmd
}

func (l *launcher) newToolsListCmd() *cobra.Command {
	var f toolFlags
	var df delegationFlags
	var text bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "Print the registered tool schemas as JSON, sorted by name",
		Long: "Print the registered tool schemas {name, description, capability, effect, authority_ceiling?, arguments, result, limits, mcp?} as JSON, " +
			"sorted by name: the built-in workspace tools, rlm_subagent, whose limits follow the --subagent-* flags, and the --mcp servers' tools; " +
			"an MCP tool's \"mcp\" is {server, tool, server_hints}: its annotations as the server declared them, hints that decide nothing " +
			"(the effect and authority ceiling are the host's, from the --mcp file). --text prints a table instead.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			reg, ws, err := f.toolSpec().OpenRegistry()
			if err != nil {
				return err
			}
			defer ws.Close()
			defer f.closeMCP()
			if err := f.importMCP(cmd.Context(), reg, cmd.ErrOrStderr()); err != nil {
				return err
			}
			host, err := registerSubagent(cmd, &df, reg, capability.Set{}, authority.NewStore(), noChildEngine)
			if err != nil {
				return err
			}
			defer func() { _ = host.Close() }()
			listed := rlm.ListTools(reg.Schemas(), f.host)
			if text && !jsonFlag(cmd, nil) {
				return console.WriteTools(cmd.OutOrStdout(), listed)
			}
			return writeJSON(cmd.OutOrStdout(), listed)
		},
	}
	f.register(l, cmd, false)
	df.register(cmd)
	cmd.Flags().BoolVar(&text, "text", false, "print one line per tool (name, effect, authority ceiling, capability) and an MCP tool's server hints, instead of JSON")
	return cmd
}

// toolCallOutput is the JSON printed by "rlm tools call": the envelope
// (status completed, failed or approval_required, the last with the
// approval id in approvals) and the call's value, run (for --resume),
// Replayed (a recorded outcome returned instead of running the tool) and
// trace.
type toolCallOutput struct {
	envelope
	Value    json.RawMessage `json:"value"`
	RunID    string          `json:"run_id"`
	Replayed bool            `json:"replayed"`
	Trace    tool.Trace      `json:"trace"`
}

// toolCallError is the error of a tool result: its own, or for an
// approval_required result (which has none) the approval stop naming the
// pending operation.
func toolCallError(name string, res tool.Result) *fault.Error {
	if res.Status != tool.StatusApprovalRequired {
		return res.Error
	}
	return fault.New(fault.PhaseTool, authority.KindApprovalRequired, "the tool call waits for an approval").
		With("tool", name).With("approval_id", res.ApprovalID)
}

func (l *launcher) newToolsCallCmd() *cobra.Command {
	var (
		f        toolFlags
		pf       providerFlags
		bf       budgetFlags
		df       delegationFlags
		ctxPaths []string
		argsJSON string
	)
	cmd := &cobra.Command{
		Use:   "call NAME",
		Short: "Run one tool invocation through the full pipeline and print its result as JSON",
		Long: "Run one tool invocation through the full pipeline (schema, capability, limits, confinement, authority, effect journal) " +
			"and print {\"status\", \"error\", \"approvals\"?, \"value\", \"run_id\", \"replayed\", \"trace\"} (docs/cli.md). The exit code is 0 for status completed " +
			"(1 for failed, 3 for approval_required). Every call is a new run; --resume RUN_ID repeats a call of that run, " +
			"replaying its recorded outcome instead of running it again.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ts, err := f.open(cmd.Context())
			if err != nil {
				return err
			}
			defer ts.Close()
			host, err := registerSubagent(cmd, &df, ts.Registry, ts.Caps, ts.Runtime.Authority(), openChildEngine(cmd, &pf, &bf, ctxPaths, ts))
			if err != nil {
				return err
			}
			res, err := ts.Runtime.Invoke(ts.WithRun(cmd.Context()), tool.Call{
				Name: args[0], Args: json.RawMessage(argsJSON),
				Invocation: tool.Invocation{Capabilities: ts.Caps, AuthorityContext: cliAuthorityContext},
			})
			outErr := host.Close()
			if err != nil {
				return fault.FromContext(fault.PhaseTool, err)
			}
			if outErr != nil {
				return outErr
			}
			out := toolCallOutput{envelope: newEnvelope(toolCallError(args[0], res), nil, ts.RunID()), Value: res.Value,
				RunID: ts.RunID(), Replayed: res.Replayed, Trace: res.Trace}
			addApprovalDetails(cmd, &out.envelope, ts.RunID())
			if err := writeJSON(cmd.OutOrStdout(), out); err != nil {
				return err
			}
			return exitFor(out.envelope)
		},
	}
	f.register(l, cmd, true)
	pf.register(l, cmd)
	bf.register(cmd)
	df.register(cmd)
	cmd.Flags().StringVar(&argsJSON, "args", "{}", "tool arguments as a JSON object")
	cmd.Flags().StringArrayVar(&ctxPaths, "context", nil, "context file, directory, or - for stdin, an rlm_subagent child answers over (default: an empty context)")
	return cmd
}

// splitCaps splits comma-separated --allow values (capability.SplitList).
func splitCaps(in []string) []string { return capability.SplitList(in) }
