package main

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/rlm-go/rlm"
	"github.com/rlm-go/rlm/agent"
	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/command"
	"github.com/rlm-go/rlm/console"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/subagent"
	"github.com/rlm-go/rlm/tool"
)

// commandOutput is the --json output of "rlm command".
type commandOutput struct {
	Status         string             `json:"status"`
	Command        *command.Command   `json:"command"`
	Envelope       *subagent.Envelope `json:"envelope"`
	ParentReceived *agent.Reply       `json:"parent_received"`
	Error          *fault.Error       `json:"error"`
	OutputError    *fault.Error       `json:"output_error,omitempty"`
}

// defaultCommandCaps is the parent's default capability set: the subagent
// tool and the context read operations.
func defaultCommandCaps() []string {
	caps := []string{string(subagent.Capability)}
	for _, op := range []string{"peek", "slice", "search", "partition", "map", "reduce"} {
		caps = append(caps, string(capability.Context(op)))
	}
	return caps
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

func (f *commandFlags) register(cmd *cobra.Command) {
	f.pf.register(cmd)
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

func newCommandCmd() *cobra.Command {
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
			return f.run(cmd, func() (command.Command, error) {
				kb, err := command.LoadKB(kbFile)
				if err != nil {
					return command.Command{}, err
				}
				return command.Compile(kb, trigger)
			})
		},
	}
	f.register(cmd)
	fl := cmd.Flags()
	fl.StringVar(&kbFile, "kb", "", `knowledge base JSON: {"prompts":[{"id","text","role"?,"skills"?,"forbidden_skills"?}],"triggers":[{"id","trigger"}],"actions":[{"id","action"}]}`)
	fl.StringVar(&trigger, "trigger", "", "trigger to compile, e.g. unknown")
	_ = cmd.MarkFlagRequired("kb")
	_ = cmd.MarkFlagRequired("trigger")
	cmd.AddCommand(newCommandCompileCmd(), newCommandExecCmd())
	return cmd
}

func newCommandCompileCmd() *cobra.Command {
	var kbFile, trigger string
	cmd := &cobra.Command{
		Use:   "compile --kb FILE --trigger T",
		Short: "Compile the prompt bound to a trigger and print the compiled command as JSON",
		Long: `Print the compiled command {prompt_id, text, trigger, adapter, target, payload, provenance,
delegation_policy?, fingerprint} (see docs/commands.md). Compiling changes no state and calls nothing.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			kb, err := command.LoadKB(kbFile)
			if err != nil {
				return err
			}
			c, err := command.Compile(kb, trigger)
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

func newCommandExecCmd() *cobra.Command {
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
	f.register(cmd)
	cmd.Flags().StringVar(&compiled, "compiled", "", "compiled command JSON, as written by rlm command compile")
	_ = cmd.MarkFlagRequired("compiled")
	return cmd
}

// run obtains the compiled command and executes it.
func (f *commandFlags) run(cmd *cobra.Command, compile func() (command.Command, error)) error {
	out := commandOutput{Status: subagent.EnvelopeFailed}
	stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
	var st *console.Status
	// finish prints the outcome; the usage line (text mode) once
	// model calls may have been made (st set).
	finish := func(err, outErr error) error {
		if err != nil {
			out.Error = asFault(err)
		}
		if outErr != nil {
			out.OutputError = asFault(outErr)
		}
		if out.Status == subagent.EnvelopeCancelled || fault.KindOf(out.Error) == fault.KindCancelled {
			out.Status = subagent.EnvelopeCancelled
		}
		if f.asJSON {
			if werr := writeJSON(stdout, out); werr != nil {
				return werr
			}
			if out.Status != subagent.EnvelopeCompleted || outErr != nil {
				return exitError{code: 1}
			}
			return nil
		}
		if out.Error == nil && out.Envelope != nil {
			var v any
			_ = json.Unmarshal(out.Envelope.Value, &v)
			fmt.Fprintln(stdout, answerOut(cmd, stdout, answerText(v)))
		}
		if st != nil {
			fmt.Fprintln(stderr, st.Summary(out.Status, -1, nil))
		}
		if out.Error != nil {
			return afterResult(stdout, stderr, out.Error, outErr)
		}
		return outErr
	}
	if err := f.bf.checkDepth(); err != nil {
		return finish(err, nil)
	}
	compiled, err := compile()
	if err != nil {
		return finish(err, nil)
	}
	out.Command = &compiled
	caps := f.allow
	if !cmd.Flags().Changed("allow") {
		caps = defaultCommandCaps()
	}
	parentCaps, err := capability.NewSet(splitCaps(caps)...)
	if err != nil {
		return finish(err, nil)
	}
	// The host's options are checked against the parent's grant and the
	// command's policy before anything runs.
	d, err := f.df.resolve(cmd, parentCaps)
	if err != nil {
		return finish(err, nil)
	}
	if _, err := command.Delegate(compiled, subagent.Config{}, d.Host); err != nil {
		return finish(err, nil)
	}
	// Configuration first: outputs, key, base URL and the child
	// engine's limits are checked before the input is read.
	status := console.NewStatus(stderr, !f.asJSON && console.IsTerminal(stderr))
	sess, err := f.pf.open(status)
	if err != nil {
		return finish(err, nil)
	}
	defer sess.Close()
	ctx := cmd.Context()
	store := corpus.NewStore()
	defer store.Close()
	ecfg := engine.Config{Provider: sess.provider, Model: f.pf.model, SubModel: f.pf.subModel, Store: store,
		Limits: f.bf.lim, ExperimentalDeepRecursion: f.bf.deep}
	if _, err := engine.New(ecfg); err != nil {
		return finish(err, nil)
	}
	h, err := rlm.AddContexts(ctx, store, f.ctxFile, cmd.InOrStdin())
	if err != nil {
		return finish(err, nil)
	}
	comp := &subagent.EngineCompleter{Config: ecfg, Context: h}
	host, err := rlm.NewSubagentHost(parentCaps, f.df.d.MaxAgents, nil, onParentCancel)
	if err != nil {
		return finish(err, nil)
	}
	defer func() { _ = host.Close() }()
	if rlm.GrantsTools(d.ChildCaps) {
		// The child's workspace tools: the built-in registry, shown to
		// the child narrowed to its capabilities, run by a runtime that
		// shares the agent runtime's authority store.
		tf := toolFlags{workspace: f.workspace, stateDir: f.stateDir, allow: d.ChildCaps.Strings(), authority: string(authority.DefaultTier)}
		ts, err := tf.openWith(cmd.Context(), host.Runtime.Authority())
		if err != nil {
			return finish(err, nil)
		}
		defer ts.Close()
		ctx = ts.WithRun(ctx)
		comp.Registry, comp.Invoker = ts.Registry, ts.Runtime
	}
	st = status
	env, received, err := runCommand(ctx, host, compiled, d, f.df.d.Timeout, comp)
	st.Stop()
	outErr := sess.Close()
	out.Envelope, out.ParentReceived = env, received
	if env != nil {
		out.Status = env.Status
		if err == nil && env.Error != nil {
			err = env.Error
		}
	}
	return finish(err, outErr)
}

// runCommand registers rlm_subagent for the compiled command under the
// host's parent, executes it with the parent's capabilities and handles the
// parent's mailbox for the child_result.
func runCommand(ctx context.Context, host *rlm.SubagentHost, c command.Command, d rlm.Delegation, policy subagent.TimeoutPolicy, comp subagent.Completer) (*subagent.Envelope, *agent.Reply, error) {
	rt, parent := host.Runtime, host.Parent
	cfg, err := command.Delegate(c, host.Config(d, policy, comp), d.Host)
	if err != nil {
		return nil, nil, err
	}
	reg := tool.NewRegistry()
	if err := subagent.Register(reg, cfg); err != nil {
		return nil, nil, err
	}
	info, err := rt.Status(parent)
	if err != nil {
		return nil, nil, err
	}
	ex, err := command.Execute(ctx, c, tool.NewRuntime(reg, tool.Config{Authority: rt.Authority()}), info.Capabilities,
		command.Options{AuthorityContext: info.AuthorityContext})
	if err != nil {
		if kids, _ := rt.Children(parent); fault.KindOf(err) == fault.KindCancelled && len(kids) > 0 {
			// Interrupted: the child stops, and its envelope (status
			// cancelled, with what it spent) reaches the parent as its
			// child_result. Wait for it past the cancelled context, for
			// at most twice the supervision grace.
			env, reply := awaitChildResult(context.WithoutCancel(ctx), rt, parent, 2*max(policy.Grace, subagent.DefaultGrace))
			return env, reply, err
		}
		return ex.Envelope, nil, err
	}
	if ex.Envelope.Correlation.Child == nil {
		return ex.Envelope, nil, nil
	}
	// The child_result is already in the parent's mailbox (or was recorded
	// as backpressure); HandleNext consumes at most one message per call.
	for range 64 {
		pr, err := rt.HandleNext(ctx, parent, 50*time.Millisecond)
		if err != nil {
			return ex.Envelope, nil, err
		}
		if pr.Status == agent.HandledNothing {
			break
		}
		if pr.Reply != nil && pr.Reply.Kind == agent.ReplyChildResult {
			return ex.Envelope, pr.Reply, nil
		}
	}
	return ex.Envelope, nil, nil
}

// awaitChildResult handles parent's messages until a child_result arrives or wait
// passes, and returns the child's envelope with the reply.
func awaitChildResult(ctx context.Context, rt *agent.Runtime, parent agent.ID, wait time.Duration) (*subagent.Envelope, *agent.Reply) {
	deadline := time.Now().Add(wait)
	for {
		left := time.Until(deadline)
		if left <= 0 {
			return nil, nil
		}
		pr, err := rt.HandleNext(ctx, parent, left)
		if err != nil {
			return nil, nil
		}
		if pr.Reply != nil && pr.Reply.Kind == agent.ReplyChildResult {
			env, derr := subagent.Decode(pr.Reply.Value)
			if derr != nil {
				return nil, pr.Reply
			}
			return env, pr.Reply
		}
	}
}
