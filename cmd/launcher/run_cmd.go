package launcher

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/rlm-go/rlm"
	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/console"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/anthropic"
	"github.com/rlm-go/rlm/model/openai"
)

// providerFlags are the flags of every command that calls a model.
type providerFlags struct {
	l         *launcher // the command line's Config (its tools and options), set by register
	provider  string    // "openai" (any OpenAI-compatible server) or "anthropic"
	baseURL   string
	model     string
	subModel  string
	fallbacks []string
	apiKeyEnv string
	timeout   time.Duration
	replay    string
	record    string
	// strictCost refuses models without a price (their cost, and so
	// --max-cost, cannot be accounted).
	strictCost bool
	// maxToolCalls is the provider's cap on tool calls per response (set
	// by rlm direct from --max-native-calls-per-batch; 0: the default).
	maxToolCalls int
	// windows (--model-window) extend the model table; noAutoSplit
	// (--no-auto-split) refuses oversized sub-calls instead of re-splitting.
	windows     modelWindowFlag
	noAutoSplit bool
	cacheFlags
}

// register binds the flags to cmd, and the command line's Config, which
// every session the flags open gets (l.open), to the flags: a command has
// its provider flags from here, so none can open a session without it.
func (f *providerFlags) register(l *launcher, cmd *cobra.Command) {
	f.l = l
	fl := cmd.Flags()
	fl.StringVar(&f.provider, "provider", envOr("RLM_PROVIDER", "openai"), "API the model server speaks: openai (any OpenAI-compatible server) or anthropic (the Messages API, key from ANTHROPIC_API_KEY; env RLM_PROVIDER)")
	fl.StringVar(&f.baseURL, "base-url", openai.BaseURLFromEnv(), "API base URL (env RLM_BASE_URL, else OPENAI_BASE_URL; with --provider anthropic the default is "+anthropic.DefaultBaseURL+", and OPENAI_BASE_URL does not apply)")
	fl.StringVar(&f.model, "model", envOr("RLM_MODEL", "gpt-4o-mini"), "root model (env RLM_MODEL)")
	fl.StringVar(&f.subModel, "sub-model", os.Getenv("RLM_SUB_MODEL"), "model for sub-calls and children (default: --model; env RLM_SUB_MODEL)")
	fl.StringArrayVar(&f.fallbacks, "fallback-model", nil, "model on the same server that answers a call --model or --sub-model could not (a server error or rate limit past the retries, a failed connection, a prompt over its context); repeat for a chain")
	fl.StringVar(&f.apiKeyEnv, "api-key-env", "", "environment variable holding the API key (default OPENAI_API_KEY, or OPENROUTER_API_KEY for openrouter.ai)")
	fl.DurationVar(&f.timeout, "request-timeout", 0, fmt.Sprintf("timeout of each HTTP request, including reading the whole reply (0: the default %s; negative: none)", openai.DefaultTimeout))
	fl.StringVar(&f.replay, "replay", "", "answer model calls from this cassette through an in-process replay server (no network)")
	fl.StringVar(&f.record, "record", "", "write every model interaction of this run to a cassette file")
	fl.BoolVar(&f.strictCost, "strict-cost", false, "refuse a --model or --sub-model that has no price in the price table (its cost and --max-cost cannot be accounted)")
	fl.Var(&f.windows, "model-window", "a model's context window (and max output) in tokens, for the models whose names start with NAME; every model call is admitted against its model's window; \",vision\" says the models take images (repeat for several models; docs/model.md)")
	fl.BoolVar(&f.noAutoSplit, "no-auto-split", false, "refuse a sub-call whose prompt does not fit the sub-model's window (prompt_too_large) instead of re-splitting it into pieces merged by one more call (docs/engine.md)")
	f.cacheFlags.register(fl)
}

func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

// spec sets the provider fields of sp from the flags.
func (f *providerFlags) spec(sp *rlm.Spec) {
	sp.Provider, sp.BaseURL, sp.Model, sp.SubModel, sp.APIKeyEnv = f.provider, f.baseURL, f.model, f.subModel, f.apiKeyEnv
	sp.FallbackModels = f.fallbacks
	sp.ModelWindows, sp.NoAutoSplit = f.windows, f.noAutoSplit
	if url, env := openai.BaseURLEnv(); f.baseURL == openai.DefaultBaseURL ||
		f.provider == "anthropic" && env == openai.OpenAIBaseURLEnv && f.baseURL == url {
		// The provider's own default (Anthropic's with --provider
		// anthropic: OPENAI_BASE_URL names an OpenAI-compatible server).
		sp.BaseURL = ""
	}
	sp.RequestTimeout, sp.Replay, sp.Record, sp.StrictCost = f.timeout, f.replay, f.record, f.strictCost
	sp.Direct.MaxNativeCallsPerBatch = f.maxToolCalls
	sp.Cache = rlm.CacheSpec{Dir: f.cacheDir, AnyTemperature: f.cacheAnyTemp, Off: f.cacheDisabled}
	if t, ok := f.temperature.get(); ok {
		sp.Cache.Temperature = &t
	}
}

// session is a provider opened from providerFlags (an rlm.Session
// without tools) for the commands that assemble their own loops.
type session struct {
	*rlm.Session
	provider model.Provider
}

// open checks the configuration (prices under --strict-cost, every output
// path: --record and the command's own outputs, the cassette, the base URL
// and the API key) and builds the provider, counted and shown by st. It
// reads no input and calls no model, so a configuration error comes first.
func (f *providerFlags) open(st *console.Status, outputs ...[2]string) (*session, error) {
	var sp rlm.Spec
	f.spec(&sp)
	s, err := f.l.open(context.Background(), sp, statusOptions(st)...)
	if err != nil {
		return nil, err
	}
	if err := checkOutputs(append([][2]string{{"record", f.record}}, outputs...)...); err != nil {
		s.Close()
		return nil, err
	}
	return &session{Session: s, provider: s.Provider()}, nil
}

// spec sets the budget fields of sp.
func (b *budgetFlags) spec(sp *rlm.Spec) { sp.Limits, sp.DeepRecursion = b.lim, b.deep }

// checkDepth refuses --max-depth above engine.MaxSupportedDepth, before
// any input is read (rlm.Spec.Validate's check; the engine checks it again).
func (b *budgetFlags) checkDepth() error {
	var sp rlm.Spec
	b.spec(&sp)
	return sp.Validate()
}

// budgetFlags are the tree-wide budget flags.
type budgetFlags struct {
	lim  budget.Limits
	deep bool
}

func (b *budgetFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	d := budget.DefaultLimits
	fl.IntVar(&b.lim.MaxIterations, "max-iterations", d.MaxIterations, "max completion-loop turns, summed over the run tree")
	fl.IntVar(&b.lim.MaxModelCalls, "max-model-calls", d.MaxModelCalls, "max model requests")
	fl.IntVar(&b.lim.MaxToolCalls, "max-tool-calls", d.MaxToolCalls, "max tool invocations")
	fl.IntVar(&b.lim.MaxContextOps, "max-context-ops", d.MaxContextOps, "max context-store operations")
	fl.Int64Var(&b.lim.MaxTotalTokens, "max-total-tokens", d.MaxTotalTokens, "max prompt+completion tokens")
	fl.Float64Var(&b.lim.MaxCostUSD, "max-cost", d.MaxCostUSD, "max cost in USD (reported or estimated)")
	fl.IntVar(&b.lim.MaxOutputBytes, "max-output-bytes", d.MaxOutputBytes, "max bytes of the final answer")
	fl.IntVar(&b.lim.MaxConcurrency, "max-concurrency", d.MaxConcurrency, "max concurrent sub-calls")
	fl.DurationVar(&b.lim.TimeLimit, "time-limit", d.TimeLimit, "wall-clock limit of the whole run")
	fl.IntVar(&b.lim.MaxDepth, "max-depth", d.MaxDepth, fmt.Sprintf("max recursion depth: rlm children of children, up to %d (every budget is shared by the whole tree)", engine.MaxSupportedDepth))
	fl.BoolVar(&b.deep, "experimental-deep-recursion", false, "deprecated, accepted and ignored: --max-depth up to the maximum needs no opt-in")
}

func (l *launcher) newRunCmd() *cobra.Command { return l.runOrSubmitCmd(false) }

// runFlags are the flags of rlm run and rlm submit.
type runFlags struct {
	pf        providerFlags
	mf        modeFlag
	bf        budgetFlags
	tf        toolFlags
	vf        verboseFlags
	af        answerFlags
	df        durableFlags
	of        otlpFlags
	ctxPaths  []string
	asJSON    bool
	traceFile string
}

// spec is the run the flags describe.
func (f *runFlags) spec() rlm.Spec {
	sp := rlm.Spec{Context: f.ctxPaths, Trace: f.traceFile}
	f.pf.spec(&sp)
	f.mf.spec(&sp)
	f.bf.spec(&sp)
	f.tf.spec(&sp)
	f.vf.spec(&sp)
	f.af.spec(&sp)
	f.df.spec(&sp)
	f.of.spec(&sp)
	return sp
}

// runOrSubmitCmd is rlm run, or with submit rlm submit: the same flags, the
// run enqueued for the workers instead of run here.
func (l *launcher) runOrSubmitCmd(submit bool) *cobra.Command {
	var f runFlags
	cmd := &cobra.Command{
		Use:   "run [flags] QUERY",
		Short: "Answer QUERY over a context file with a recursive language model",
		Long: `Run the RLM engine: the root model sees only the context's metadata, explores it
with validated plans (search, partition, map sub-calls, recursive children),
and answers. Budgets are enforced tree-wide. With --mode code the model writes
Python instead of plans, run in a sandboxed, budgeted REPL (capability code).
With --mode auto, a context and query that fit in --auto-share of the root
model's window are answered by one direct call, anything larger in code mode.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if submit {
				return f.submit(cmd, args[0])
			}
			return f.run(cmd, args[0])
		},
	}
	f.pf.register(l, cmd)
	f.mf.register(cmd)
	f.bf.register(cmd)
	f.tf.register(l, cmd, true)
	f.vf.register(cmd)
	f.af.register(cmd, false)
	f.df.register(cmd)
	f.of.register(cmd)
	cmd.Flags().StringArrayVar(&f.ctxPaths, "context", nil, "context file, directory (its text files), or - for stdin; repeat for several files (one context listing them); required")
	cmd.Flags().BoolVar(&f.asJSON, "json", false, `print the result as JSON: {"status","answer","answer_json","usage","error","run_id","replayed","trace","details"} (run_id when tools are granted, answer_json with --answer-schema)`)
	cmd.Flags().StringVar(&f.traceFile, "trace", "", traceUsage)
	_ = cmd.MarkFlagRequired("context")
	return cmd
}

// run opens the spec and runs it: configuration first (flags, outputs,
// key, base URL, tools, the engine's limits), then the input.
func (f *runFlags) run(cmd *cobra.Command, query string) error {
	stderr := cmd.ErrOrStderr()
	live := !f.asJSON && console.IsTerminal(stderr)
	st := console.NewStatus(stderr, live)
	opts := append(statusOptions(st), rlm.WithStdin(cmd.InOrStdin()), rlm.WithObserver(st.Observe))
	opts = append(opts, f.vf.options(stderr, live)...)
	opts = append(opts, f.df.options(stderr)...)
	sess, err := f.pf.l.open(cmd.Context(), f.spec(), opts...)
	if err != nil {
		return err
	}
	defer sess.Close()
	res, runErr := sess.Run(cmd.Context(), query)
	st.Stop()
	if res == nil {
		return runErr // refused before the run began
	}
	// The answer is paid for: it is printed even when an output cannot
	// be written, and the output error is reported after it.
	res.OutputError = errors.Join(res.OutputError, sess.Close())
	if !f.asJSON {
		sess.Tools().Report(stderr)
		reportDurable(stderr, res.Durable)
		if res.Auto != nil {
			fmt.Fprintln(stderr, "rlm: --mode auto chose "+res.Auto.Chosen+": "+res.Auto.Reason)
		}
	}
	return printRun(cmd, st, res, runErr, f.asJSON)
}

// traceUsage is the help of --trace.
const traceUsage = "write the trace to FILE (.jsonl for JSON lines, else one JSON envelope)"

// addContext registers one --context input: a memory-mapped file, a
// directory, or stdin spooled to disk (see addContexts).
func addContext(ctx context.Context, store *corpus.Store, path string, stdin io.Reader) (corpus.Handle, error) {
	return rlm.AddContexts(ctx, store, []string{path}, stdin)
}

// options are the session hooks that feed the status line: calls,
// retries, the cache's savings and the models without a price.
func statusOptions(s *console.Status) []rlm.Option {
	return []rlm.Option{rlm.WithProviderWrap(s.Wrap), rlm.WithRetryHook(s.Retry), rlm.WithCacheHook(s.SetCache),
		rlm.WithUnpricedHook(s.NoteUnpriced), rlm.WithLog(s)}
}
