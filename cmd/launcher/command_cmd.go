package launcher

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/rlm-go/rlm"
	"github.com/rlm-go/rlm/command"
	"github.com/rlm-go/rlm/console"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/subagent"
)

// commandOutput is the --json output of "rlm command": rlm.CommandResult
// and the output error.
type commandOutput struct {
	*rlm.CommandResult
	OutputError *fault.Error `json:"output_error,omitempty"`
}

// commandFlags are the flags of executing a prompt command: the run flags,
// the parent's grant, the child's context and workspace, and the host's
// delegation options.
type commandFlags struct {
	pf        providerFlags
	bf        budgetFlags
	df        delegationFlags
	allow     []string
	ctxFile   []string
	workspace string
	stateDir  string
	asJSON    bool
}

func (f *commandFlags) register(l *launcher, cmd *cobra.Command) {
	f.pf.register(l, cmd)
	f.bf.register(cmd)
	f.df.register(cmd)
	fl := cmd.Flags()
	fl.StringSliceVar(&f.allow, "allow", nil, "capabilities of the parent agent (default tool:rlm_subagent and context:peek,slice,search,partition,map,reduce)")
	fl.StringArrayVar(&f.ctxFile, "context", nil, "context file, directory, or - for stdin, the child answers over; repeat for several files; required")
	fl.StringVar(&f.workspace, "workspace", ".", "directory the child's workspace tools (--child-allow tool:fs_read,...) are confined to")
	fl.StringVar(&f.stateDir, "state-dir", "", "directory of the durable effect journal of the child's effectful tools")
	fl.BoolVar(&f.asJSON, "json", false, `print {"status","command","envelope","parent_received","error"}`)
	_ = cmd.MarkFlagRequired("context")
}

func (l *launcher) newCommandCmd() *cobra.Command {
	var (
		f       commandFlags
		kbFile  string
		trigger string
	)
	cmd := &cobra.Command{
		Use:   "command --kb FILE --trigger T --context FILE [flags]",
		Short: "Compile a prompt command from a knowledge base and execute it through rlm_subagent",
		Long: `Compile the prompt bound to --trigger in the knowledge base and execute it through the
canonical tool runtime: the registered rlm_subagent tool spawns a child agent that runs a full
completion over --context with the parent's capabilities minus tools (or --child-allow). The parent
holds the capabilities of --allow (default: tool:rlm_subagent and the context read capabilities)
and receives the child's envelope as a child_result message. "rlm command compile" writes the
compiled command; "rlm command exec --compiled FILE" executes one.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return f.run(cmd, func() (command.Command, error) { return command.CompileFile(kbFile, trigger) })
		},
	}
	f.register(l, cmd)
	fl := cmd.Flags()
	fl.StringVar(&kbFile, "kb", "", `knowledge base JSON: {"prompts":[{"id","text","role"?,"skills"?,"forbidden_skills"?}],"triggers":[{"id","trigger"}],"actions":[{"id","action"}]}`)
	fl.StringVar(&trigger, "trigger", "", "trigger to compile, e.g. unknown")
	_ = cmd.MarkFlagRequired("kb")
	_ = cmd.MarkFlagRequired("trigger")
	cmd.AddCommand(l.newCommandCompileCmd(), l.newCommandExecCmd())
	return cmd
}

func (l *launcher) newCommandCompileCmd() *cobra.Command {
	var kbFile, trigger string
	cmd := &cobra.Command{
		Use:   "compile --kb FILE --trigger T",
		Short: "Compile the prompt bound to a trigger and print the compiled command as JSON",
		Long: `Print the compiled command {prompt_id, text, trigger, adapter, target, payload, provenance,
delegation_policy?, fingerprint} (see docs/commands.md). Compiling changes no state and calls nothing.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := command.CompileFile(kbFile, trigger)
			if err != nil {
				return err
			}
			return writeJSON(cmd.OutOrStdout(), c)
		},
	}
	cmd.Flags().StringVar(&kbFile, "kb", "", "knowledge base JSON")
	cmd.Flags().StringVar(&trigger, "trigger", "", "trigger to compile")
	_ = cmd.MarkFlagRequired("kb")
	_ = cmd.MarkFlagRequired("trigger")
	addJSONErrorsFlag(cmd, false)
	return cmd
}

func (l *launcher) newCommandExecCmd() *cobra.Command {
	var (
		f        commandFlags
		compiled string
	)
	cmd := &cobra.Command{
		Use:   "exec --compiled FILE --context FILE [flags]",
		Short: "Execute a compiled command through the canonical tool runtime",
		Long: `Verify the compiled command (adapter, target, payload rule, policy, fingerprint) before
anything runs, then execute it as "rlm command" does. A forged or tampered command fails with its
typed error, makes no tool call and creates no child.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return f.run(cmd, func() (command.Command, error) { return command.LoadCommand(compiled) })
		},
	}
	f.register(l, cmd)
	cmd.Flags().StringVar(&compiled, "compiled", "", "compiled command JSON, as written by rlm command compile")
	_ = cmd.MarkFlagRequired("compiled")
	return cmd
}

// spec is the run the flags describe: --allow given (even empty)
// replaces rlm.DefaultCommandCapabilities.
func (f *commandFlags) spec(cmd *cobra.Command) rlm.Spec {
	sp := rlm.Spec{Context: f.ctxFile, Workspace: f.workspace, StateDir: f.stateDir, Delegation: f.df.spec(cmd)}
	f.pf.spec(&sp)
	f.bf.spec(&sp)
	if cmd.Flags().Changed("allow") {
		sp.Allow = append([]string{}, f.allow...)
	}
	return sp
}

// run checks the depth, obtains the compiled command, runs it
// (rlm.RunCommand) and prints the outcome; the usage line once the child
// could start (rlm.RunCommand returned a result).
func (f *commandFlags) run(cmd *cobra.Command, compile func() (command.Command, error)) error {
	st := console.NewStatus(cmd.ErrOrStderr(), !f.asJSON && console.IsTerminal(cmd.ErrOrStderr()))
	res, err := &rlm.CommandResult{Status: subagent.EnvelopeFailed}, f.bf.checkDepth()
	var c command.Command
	if err == nil {
		c, err = compile()
	}
	started := false
	if err == nil {
		res.Command = &c
		opts := append(statusOptions(st), rlm.WithStdin(cmd.InOrStdin()), rlm.WithSubagentCancel(onParentCancel))
		opts = append(opts, f.pf.l.options()...)
		var run *rlm.CommandResult
		if run, err = rlm.RunCommand(cmd.Context(), f.spec(cmd), c, opts...); run != nil {
			res, started = run, true
		}
	}
	st.Stop()
	return f.print(cmd, st, started, res, err)
}

// print writes the outcome: the JSON document, or the answer and (once
// the child could start) the usage line; the error is returned once.
func (f *commandFlags) print(cmd *cobra.Command, st *console.Status, started bool, res *rlm.CommandResult, err error) error {
	stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
	outErr := res.OutputError
	if err != nil {
		res.Error = asFault(err) // with the CLI's hint
	}
	if fault.KindOf(res.Error) == fault.KindCancelled {
		res.Status = subagent.EnvelopeCancelled
	}
	if f.asJSON {
		doc := commandOutput{CommandResult: res}
		if outErr != nil {
			doc.OutputError = asFault(outErr)
		}
		if werr := writeJSON(stdout, doc); werr != nil || res.Status == subagent.EnvelopeCompleted && outErr == nil {
			return werr
		}
		return exitError{code: 1}
	}
	if res.Error == nil && res.Envelope != nil {
		fmt.Fprintln(stdout, answerOut(cmd, stdout, answerText(res.Answer())))
	}
	if started {
		fmt.Fprintln(stderr, st.Summary(res.Status, -1, nil))
	}
	if res.Error != nil {
		return afterResult(stdout, stderr, res.Error, outErr)
	}
	return outErr
}
