package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/anthropic"
	"github.com/rlm-go/rlm/model/openai"
	"github.com/rlm-go/rlm/model/replay"
	"github.com/rlm-go/rlm/trace"
)

// providerFlags are the flags of every command that calls a model.
type providerFlags struct {
	provider  string // "openai" (any OpenAI-compatible server) or "anthropic"
	baseURL   string
	model     string
	subModel  string
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
	cacheFlags
}

func (f *providerFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.provider, "provider", envOr("RLM_PROVIDER", "openai"), "API the model server speaks: openai (any OpenAI-compatible server) or anthropic (the Messages API, key from ANTHROPIC_API_KEY; env RLM_PROVIDER)")
	fl.StringVar(&f.baseURL, "base-url", envOr("RLM_BASE_URL", openai.DefaultBaseURL), "API base URL (env RLM_BASE_URL; with --provider anthropic the default is "+anthropic.DefaultBaseURL+")")
	fl.StringVar(&f.model, "model", envOr("RLM_MODEL", "gpt-4o-mini"), "root model (env RLM_MODEL)")
	fl.StringVar(&f.subModel, "sub-model", os.Getenv("RLM_SUB_MODEL"), "model for sub-calls and children (default: --model; env RLM_SUB_MODEL)")
	fl.StringVar(&f.apiKeyEnv, "api-key-env", "", "environment variable holding the API key (default OPENAI_API_KEY, or OPENROUTER_API_KEY for openrouter.ai)")
	fl.DurationVar(&f.timeout, "request-timeout", 0, fmt.Sprintf("timeout of each HTTP request, including reading the whole reply (0: the default %s; negative: none)", openai.DefaultTimeout))
	fl.StringVar(&f.replay, "replay", "", "answer model calls from this cassette through an in-process replay server (no network)")
	fl.StringVar(&f.record, "record", "", "write every model interaction of this run to a cassette file")
	fl.BoolVar(&f.strictCost, "strict-cost", false, "refuse a --model or --sub-model that has no price in the price table (its cost and --max-cost cannot be accounted)")
	f.cacheFlags.register(fl)
}

func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

// session holds the provider built from providerFlags and what must happen
// when the command ends.
type session struct {
	provider model.Provider
	recorder *replay.Recorder
	closers  []func()
}

// open checks the configuration (prices under --strict-cost, every output
// path: --record and the command's own outputs, the cassette, the base URL
// and the API key) and builds the provider, counted and shown by st. It
// reads no input and calls no model, so a configuration error comes first.
func (f *providerFlags) open(st *status, outputs ...[2]string) (*session, error) {
	if err := f.checkCost(st); err != nil {
		return nil, err
	}
	if err := checkOutputs(append([][2]string{{"record", f.record}}, outputs...)...); err != nil {
		return nil, err
	}
	if f.record != "" && f.cacheDir != "" && !f.cacheDisabled {
		// A response read from DIR is not sent, so not recorded: the
		// cassette would not replay the run.
		return nil, fault.New(fault.PhaseConfig, kindUsage, "--record cannot be combined with --cache DIR: responses read from DIR would be missing from the cassette").
			WithHint("record without --cache (or add --no-cache); identical requests within the run are still answered once, on record and on replay")
	}
	s := &session{}
	base := f.baseURL
	cfg := openai.Config{BaseURL: base, Model: f.model, APIKeyEnv: f.apiKeyEnv, Timeout: f.timeout, OnRetry: st.retry, MaxToolCalls: f.maxToolCalls}
	if f.replay != "" {
		cas, err := replay.Load(f.replay)
		if err != nil {
			return nil, err
		}
		srv := replay.NewServer(cas)
		s.closers = append(s.closers, srv.Close)
		cfg.BaseURL, cfg.APIKeyEnv, cfg.Name = srv.BaseURL(), "", "replay"
	}
	var p scopedProvider
	var err error
	switch f.provider {
	case "openai", "":
		p, err = openai.New(cfg)
	case "anthropic":
		p, err = f.anthropic(cfg)
	default:
		err = fault.New(fault.PhaseConfig, kindUsage, "unknown --provider "+strconv.Quote(f.provider)).
			WithHint("use --provider openai (any OpenAI-compatible server) or --provider anthropic")
	}
	if err != nil {
		s.close()
		return nil, err
	}
	s.provider = p
	if f.record != "" {
		s.recorder = replay.NewRecorder(p)
		s.provider = s.recorder
	}
	s.provider = st.wrap(s.provider)
	if s.provider, err = f.cacheFlags.wrap(s.provider, f.cacheScope(p), st); err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}

// anthropic builds the Messages API provider from the settings cfg holds
// for the OpenAI one: the OpenAI default base URL means Anthropic's.
func (f *providerFlags) anthropic(cfg openai.Config) (*anthropic.Provider, error) {
	base := cfg.BaseURL
	if base == openai.DefaultBaseURL {
		base = anthropic.DefaultBaseURL
	}
	return anthropic.New(anthropic.Config{Name: cfg.Name, BaseURL: base, Model: cfg.Model, APIKeyEnv: cfg.APIKeyEnv,
		Timeout: cfg.Timeout, OnRetry: cfg.OnRetry, MaxToolCalls: cfg.MaxToolCalls})
}

// checkCost notes (once) or, with --strict-cost, refuses the models that
// have no price.
func (f *providerFlags) checkCost(st *status) error {
	var unpriced []string
	for _, m := range []string{f.model, f.subModel} {
		if m == "" || slices.Contains(unpriced, m) {
			continue
		}
		if _, ok := budget.LookupPrice(m); !ok {
			unpriced = append(unpriced, m)
		}
	}
	if len(unpriced) == 0 {
		return nil
	}
	if f.strictCost {
		return fault.New(fault.PhaseConfig, kindUnpricedModel, "no price for the model: its cost and --max-cost cannot be accounted").
			With("models", strings.Join(unpriced, ","))
	}
	st.noteUnpriced(unpriced)
	return nil
}

// checkDepth refuses --max-depth above 1 without the opt-in, before any
// input is read (the engine checks it again).
func (b *budgetFlags) checkDepth() error {
	if b.lim.MaxDepth > 1 && !b.deep {
		return fault.New(fault.PhaseValidate, engine.KindDeepRecursionRequired, "max depth above 1 requires the experimental_deep_recursion opt-in").
			With("requested_depth", b.lim.MaxDepth)
	}
	return nil
}

// finish saves the recording (if any) and releases resources.
func (s *session) finish(path string) error {
	defer s.close()
	if s.recorder != nil && path != "" {
		return s.recorder.Save(path)
	}
	return nil
}

func (s *session) close() {
	for i := len(s.closers) - 1; i >= 0; i-- {
		s.closers[i]()
	}
	s.closers = nil
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
	fl.IntVar(&b.lim.MaxDepth, "max-depth", d.MaxDepth, "max recursion depth (above 1 needs --experimental-deep-recursion)")
	fl.BoolVar(&b.deep, "experimental-deep-recursion", false, "allow --max-depth above 1")
}

func newRunCmd() *cobra.Command {
	var (
		pf        providerFlags
		mf        modeFlag
		bf        budgetFlags
		tf        toolFlags
		ctxPaths  []string
		asJSON    bool
		traceFile string
		vf        verboseFlags
		df        durableFlags
		of        otlpFlags
	)
	cmd := &cobra.Command{
		Use:   "run [flags] QUERY",
		Short: "Answer QUERY over a context file with a recursive language model",
		Long: `Run the RLM engine: the root model sees only the context's metadata, explores it
with validated plans (search, partition, map sub-calls, recursive children),
and answers. Budgets are enforced tree-wide. With --mode code the model writes
Python instead of plans, run in a sandboxed, budgeted REPL (capability code).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			// Configuration first: flags, outputs, key, base URL, tools and
			// the engine's limits are checked before the input is read.
			if err := bf.checkDepth(); err != nil {
				return err
			}
			st := newStatus(cmd.ErrOrStderr(), !asJSON && isTerminal(cmd.ErrOrStderr()))
			sess, err := pf.open(st, [2]string{"trace", traceFile})
			if err != nil {
				return err
			}
			defer sess.close()
			store := corpus.NewStore()
			defer store.Close()
			cfg := engine.Config{
				Provider: sess.provider, Model: pf.model, SubModel: pf.subModel, Store: store,
				Limits: bf.lim, ExperimentalDeepRecursion: bf.deep,
			}
			vf.apply(&cfg, cmd.ErrOrStderr(), !asJSON && isTerminal(cmd.ErrOrStderr()))
			var ts *toolSession
			df.take(&tf) // with --db, --resume names the durable run
			if len(tf.allow) > 0 || tf.resume != "" {
				if ts, err = tf.open(cmd.Context()); err != nil {
					return err
				}
				defer ts.Close()
				ctx = ts.WithRun(ctx) // effect identity: this run (or the resumed one)
				ts.engineTools(&cfg, pf.model, pf.subModel)
			}
			eng, err := engine.New(mf.apply(cfg))
			if err != nil {
				return err
			}
			// The OTLP endpoint is configuration too: refused before the
			// input is read.
			ot, err := of.start(ctx, cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			defer ot.finish(cmd.ErrOrStderr())                // early returns; the run's own finish comes first
			paths, done, err := tf.mcpContexts(ctx, ctxPaths) // mcp://<server>/<uri> resources
			defer done()
			if err != nil {
				return err
			}
			h, err := addContexts(ctx, store, paths, cmd.InOrStdin())
			if err != nil {
				return err
			}
			tout, err := openTrace(traceFile)
			if err != nil {
				return err
			}
			rec := trace.NewRecorder(trace.WithObserver(st.observe), trace.WithObserver(tout.observe), ot.option())
			var res *engine.Result
			var runErr error
			if df.url != "" {
				res, runErr = df.run(ctx, cmd.ErrOrStderr(), eng.Config(), h, args[0], rec, ts)
			} else {
				res, runErr = eng.Run(trace.WithRecorder(ctx, rec), args[0], h)
			}
			st.stop()
			ot.finish(cmd.ErrOrStderr())
			if df.submitting {
				return runErr // rlm submit: the run is enqueued and its id printed
			}
			// The answer is paid for: it is printed even when an output
			// cannot be written, and the output error is reported after it.
			outErr := sess.finish(pf.record)
			if err := tout.write("rlm run", res.Trajectory, rec.Dropped()); err != nil {
				outErr = errors.Join(outErr, err)
			}
			if !asJSON {
				ts.report(cmd.ErrOrStderr())
				df.report(cmd.ErrOrStderr())
			}
			run := runIdentity{ts.runID(), ts.replayed()}
			if df.runID != "" {
				run.id = df.runID
			}
			return printRun(cmd, st, res, runErr, outErr, asJSON, run)
		},
	}
	pf.register(cmd)
	mf.register(cmd)
	bf.register(cmd)
	tf.register(cmd, true)
	vf.register(cmd)
	df.register(cmd)
	of.register(cmd)
	cmd.Flags().StringArrayVar(&ctxPaths, "context", nil, "context file, directory (its text files), or - for stdin; repeat for several files (one context listing them); required")
	cmd.Flags().BoolVar(&asJSON, "json", false, `print the result as JSON: {"status","answer","usage","error","run_id","replayed","trace","details"} (run_id when tools are granted)`)
	cmd.Flags().StringVar(&traceFile, "trace", "", traceUsage)
	_ = cmd.MarkFlagRequired("context")
	return cmd
}

// traceUsage is the help of --trace.
const traceUsage = "write the trace to FILE (.jsonl for JSON lines, else one JSON envelope)"

// traceOutput is --trace FILE of rlm run and rlm chat: a .jsonl file grows
// while the command runs (trace.LiveFile) and is replaced at the end by
// the final export; another file gets only the final export.
type traceOutput struct {
	path string
	live *trace.LiveFile
}

// openTrace starts the --trace output (nothing for an empty path).
func openTrace(path string) (*traceOutput, error) {
	live, err := trace.OpenLive(path)
	if err != nil {
		return nil, err
	}
	return &traceOutput{path: path, live: live}, nil
}

// observe appends an event to the live file; use it with trace.WithObserver.
func (t *traceOutput) observe(ev trace.Event) { t.live.Observe(ev) }

// write writes the final export of events under name (nothing without
// --trace).
func (t *traceOutput) write(name string, events []trace.Event, dropped int) error {
	if t.path == "" {
		return nil
	}
	return t.live.WriteFile(t.path, name, events, dropped)
}

// addContext registers one --context input: a memory-mapped file, a
// directory, or stdin spooled to disk (see addContexts).
func addContext(ctx context.Context, store *corpus.Store, path string, stdin io.Reader) (corpus.Handle, error) {
	return addContexts(ctx, store, []string{path}, stdin)
}
