package launcher

import (
	"github.com/spf13/cobra"

	"github.com/rlm-go/rlm"
	"github.com/rlm-go/rlm/agent"
	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/console"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/subagent"
	"github.com/rlm-go/rlm/tool"
)

// delegationFlags are the host's delegation options (rlm.DelegationSpec:
// the child's role, skills, model and capabilities; never the model's or
// the KB's to widen) and the subagent runtime's limits.
type delegationFlags struct {
	d     rlm.DelegationSpec
	allow []string
}

func (f *delegationFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.DurationVar(&f.d.Timeout.Default, "subagent-timeout", subagent.DefaultTimeout, "the child's time limit when none is requested (replaces --time-limit for the child)")
	fl.DurationVar(&f.d.Timeout.Max, "subagent-timeout-max", subagent.DefaultMaxTimeout, "largest time limit a caller may request with timeout_seconds (above it the call is refused)")
	fl.DurationVar(&f.d.Timeout.Grace, "subagent-grace", subagent.DefaultGrace, "grace added to the child's time limit for the supervised call")
	fl.StringVar(&f.d.Role, "child-role", "", "the child's role (a name of [a-z0-9-]); must agree with a role the knowledge base sets")
	fl.StringArrayVar(&f.d.Skills, "child-skill", nil, "a skill of --skills given to the child; repeatable")
	fl.StringSliceVar(&f.allow, "child-allow", nil, "the child's capabilities, a subset of the parent's (default: the parent's without tools)")
	fl.StringVar(&f.d.Model, "child-model", "", "the child's model (default: --model)")
	fl.StringVar(&f.d.SkillsFile, "skills", "", `skill catalog: {"units": [{"unit": "skill:NAME", "content": BODY, ...}]}, compiled by the prompt compiler for each child`)
	fl.IntVar(&f.d.MaxAgents, "max-agents", agent.DefaultMaxAgents, "live agents at once, the parent included (1 allows no child)")
}

// spec is the delegation the flags describe: --child-allow given (even
// empty) replaces the default child grant.
func (f *delegationFlags) spec(cmd *cobra.Command) rlm.DelegationSpec {
	d := f.d
	if cmd.Flags().Changed("child-allow") {
		d.Allow = append([]string{}, f.allow...)
	}
	return d
}

// registerSubagent registers rlm_subagent with the flags' options into reg
// for a caller granted caps (rlm.RegisterSubagent); SIGUSR1 cancels its
// parent agent.
func registerSubagent(cmd *cobra.Command, df *delegationFlags, reg *tool.Registry, caps capability.Set, auth *authority.Store,
	open rlm.ChildEngine) (*rlm.SubagentHost, error) {
	return rlm.RegisterSubagent(df.spec(cmd), reg, caps, auth, open, onParentCancel)
}

// noChildEngine is the engine of a registration that is only listed.
func noChildEngine() (*subagent.EngineCompleter, func() error, error) {
	return nil, nil, fault.New(fault.PhaseConfig, fault.KindInvalid, "rlm tools list runs no subagent")
}

// openChildEngine opens the child's engine from the same model and budget
// flags as rlm run, over --context (or an empty context), its tool calls
// through ts narrowed to the child's capabilities.
func openChildEngine(cmd *cobra.Command, pf *providerFlags, bf *budgetFlags, ctxPaths []string, ts *toolSession) rlm.ChildEngine {
	sp := rlm.Spec{Context: ctxPaths}
	pf.spec(&sp)
	bf.spec(&sp)
	return rlm.ChildEngineFor(sp, ts, cmd.InOrStdin(), statusOptions(console.NewStatus(cmd.ErrOrStderr(), false))...)
}
