package main

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/rlm-go/rlm/agent"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/command"
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

func newCommandCmd() *cobra.Command {
	var (
		pf      providerFlags
		bf      budgetFlags
		kbFile  string
		trigger string
		allow   []string
		ctxFile []string
		asJSON  bool
		policy  subagent.TimeoutPolicy
	)
	cmd := &cobra.Command{
		Use:   "command --kb FILE --trigger T --context FILE [flags]",
		Short: "Compile a prompt command from a knowledge base and execute it through rlm_subagent",
		Long: `Compile the prompt bound to --trigger in the knowledge base and execute it through the
canonical tool runtime: the registered rlm_subagent tool spawns a child agent that runs a full
completion over --context with the parent's capabilities minus tools. The parent holds the
capabilities of --allow (default: tool:rlm_subagent and the context read capabilities) and
receives the child's envelope as a child_result message.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			out := commandOutput{Status: subagent.EnvelopeFailed}
			stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
			var st *status
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
				if asJSON {
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
					fmt.Fprintln(stdout, answerText(v))
				}
				if st != nil {
					fmt.Fprintln(stderr, st.summary(out.Status, -1, nil))
				}
				if out.Error != nil {
					return afterResult(stdout, stderr, out.Error, outErr)
				}
				return outErr
			}
			if err := bf.checkDepth(); err != nil {
				return finish(err, nil)
			}
			kb, err := command.LoadKB(kbFile)
			if err != nil {
				return finish(err, nil)
			}
			compiled, err := command.Compile(kb, trigger)
			if err != nil {
				return finish(err, nil)
			}
			out.Command = &compiled
			caps := allow
			if !cmd.Flags().Changed("allow") {
				caps = defaultCommandCaps()
			}
			parentCaps, err := capability.NewSet(splitCaps(caps)...)
			if err != nil {
				return finish(err, nil)
			}
			// Configuration first: outputs, key, base URL and the child
			// engine's limits are checked before the input is read.
			status := newStatus(stderr, !asJSON && isTerminal(stderr))
			sess, err := pf.open(status)
			if err != nil {
				return finish(err, nil)
			}
			defer sess.close()
			ctx := cmd.Context()
			store := corpus.NewStore()
			defer store.Close()
			ecfg := engine.Config{Provider: sess.provider, Model: pf.model, SubModel: pf.subModel, Store: store,
				Limits: bf.lim, ExperimentalDeepRecursion: bf.deep}
			if _, err := engine.New(ecfg); err != nil {
				return finish(err, nil)
			}
			h, err := addContexts(ctx, store, ctxFile, cmd.InOrStdin())
			if err != nil {
				return finish(err, nil)
			}
			st = status
			env, received, err := runCommand(ctx, compiled, parentCaps, policy, &subagent.EngineCompleter{Config: ecfg, Context: h})
			st.stop()
			outErr := sess.finish(pf.record)
			out.Envelope, out.ParentReceived = env, received
			if env != nil {
				out.Status = env.Status
				if err == nil && env.Error != nil {
					err = env.Error
				}
			}
			return finish(err, outErr)
		},
	}
	pf.register(cmd)
	bf.register(cmd)
	fl := cmd.Flags()
	fl.StringVar(&kbFile, "kb", "", `knowledge base JSON: {"prompts":[{"id","text","role"?,"skills"?}],"triggers":[{"id","trigger"}],"actions":[{"id","action"}]}`)
	fl.StringVar(&trigger, "trigger", "", "trigger to compile, e.g. unknown")
	fl.StringSliceVar(&allow, "allow", nil, "capabilities of the parent agent (default tool:rlm_subagent and context:peek,slice,search,partition,map,reduce)")
	fl.StringArrayVar(&ctxFile, "context", nil, "context file, directory, or - for stdin, the child answers over; repeat for several files; required")
	fl.BoolVar(&asJSON, "json", false, `print {"status","command","envelope","parent_received","error"}`)
	fl.DurationVar(&policy.Default, "subagent-timeout", subagent.DefaultTimeout, "the child's time limit (replaces --time-limit for the child)")
	fl.DurationVar(&policy.Max, "subagent-timeout-max", subagent.DefaultMaxTimeout, "largest time limit a model may request")
	fl.DurationVar(&policy.Grace, "subagent-grace", subagent.DefaultGrace, "grace added to the child's time limit for the supervised call")
	_ = cmd.MarkFlagRequired("kb")
	_ = cmd.MarkFlagRequired("trigger")
	_ = cmd.MarkFlagRequired("context")
	return cmd
}

// runCommand builds the agent runtime and the parent, registers
// rlm_subagent for the compiled command, executes it with the parent's
// capabilities and pumps the parent's mailbox for the child_result.
func runCommand(ctx context.Context, c command.Command, parentCaps capability.Set, policy subagent.TimeoutPolicy, comp subagent.Completer) (*subagent.Envelope, *agent.Reply, error) {
	rt, err := agent.New(agent.Options{RootCapabilities: parentCaps})
	if err != nil {
		return nil, nil, err
	}
	defer rt.Close()
	parent, err := rt.Spawn("", agent.Spec{Name: "cli"}, parentCaps)
	if err != nil {
		return nil, nil, err
	}
	var childCaps []capability.Cap
	for _, cp := range parentCaps.List() {
		if cp.Prefix() != capability.PrefixTool {
			childCaps = append(childCaps, cp)
		}
	}
	cfg, err := command.SubagentConfig(c, subagent.Config{
		Runtime: rt, Parent: parent, ChildCapabilities: capability.Of(childCaps...), Completer: comp, Timeout: policy,
	})
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
	// as backpressure); Pump consumes at most one message per call.
	for range 64 {
		pr, err := rt.Pump(ctx, parent, 50*time.Millisecond)
		if err != nil {
			return ex.Envelope, nil, err
		}
		if pr.Status == agent.PumpIdle {
			break
		}
		if pr.Reply != nil && pr.Reply.Kind == agent.ReplyChildResult {
			return ex.Envelope, pr.Reply, nil
		}
	}
	return ex.Envelope, nil, nil
}

// awaitChildResult pumps parent until a child_result arrives or wait
// passes, and returns the child's envelope with the reply.
func awaitChildResult(ctx context.Context, rt *agent.Runtime, parent agent.ID, wait time.Duration) (*subagent.Envelope, *agent.Reply) {
	deadline := time.Now().Add(wait)
	for {
		left := time.Until(deadline)
		if left <= 0 {
			return nil, nil
		}
		pr, err := rt.Pump(ctx, parent, left)
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
