package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/openai"
	"github.com/rlm-go/rlm/model/replay"
	"github.com/rlm-go/rlm/trace"
)

// providerFlags are the flags of every command that calls a model.
type providerFlags struct {
	baseURL   string
	model     string
	subModel  string
	apiKeyEnv string
	timeout   time.Duration
	replay    string
	record    string
}

func (f *providerFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.baseURL, "base-url", envOr("RLM_BASE_URL", openai.DefaultBaseURL), "OpenAI-compatible API base URL (env RLM_BASE_URL)")
	fl.StringVar(&f.model, "model", envOr("RLM_MODEL", "gpt-4o-mini"), "root model (env RLM_MODEL)")
	fl.StringVar(&f.subModel, "sub-model", os.Getenv("RLM_SUB_MODEL"), "model for sub-calls and children (default: --model; env RLM_SUB_MODEL)")
	fl.StringVar(&f.apiKeyEnv, "api-key-env", "", "environment variable holding the API key (default OPENAI_API_KEY, or OPENROUTER_API_KEY for openrouter.ai)")
	fl.DurationVar(&f.timeout, "request-timeout", 0, "timeout of each HTTP request (default 120s)")
	fl.StringVar(&f.replay, "replay", "", "answer model calls from this cassette through an in-process replay server (no network)")
	fl.StringVar(&f.record, "record", "", "write every model interaction of this run to a cassette file")
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

func (f *providerFlags) open() (*session, error) {
	s := &session{}
	base := f.baseURL
	cfg := openai.Config{BaseURL: base, Model: f.model, APIKeyEnv: f.apiKeyEnv, Timeout: f.timeout}
	if f.replay != "" {
		cas, err := replay.Load(f.replay)
		if err != nil {
			return nil, err
		}
		srv := replay.NewServer(cas)
		s.closers = append(s.closers, srv.Close)
		cfg.BaseURL, cfg.APIKeyEnv, cfg.Name = srv.BaseURL(), "", "replay"
	}
	p, err := openai.New(cfg)
	if err != nil {
		s.close()
		return nil, err
	}
	s.provider = p
	if f.record != "" {
		s.recorder = replay.NewRecorder(p)
		s.provider = s.recorder
	}
	return s, nil
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
		ctxFile   string
		asJSON    bool
		traceFile string
	)
	cmd := &cobra.Command{
		Use:   "run [flags] QUERY",
		Short: "Answer QUERY over a context file with a recursive language model",
		Long: `Run the RLM engine: the root model sees only the context's metadata, explores it
with validated plans (search, partition, map sub-calls, recursive children),
and answers. Budgets are enforced tree-wide. With --mode code the model writes
Python instead of plans, run in a sandboxed, budgeted REPL (capability code).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) (err error) {
			if asJSON {
				// With --json, a failure before the run (a missing context
				// file, a bad flag value) is reported in the same shape.
				defer func() { err = jsonSetupError(cmd.OutOrStdout(), err) }()
			}
			ctx := cmd.Context()
			store := corpus.NewStore()
			defer store.Close()
			h, err := addContext(ctx, store, ctxFile, cmd.InOrStdin())
			if err != nil {
				return err
			}
			sess, err := pf.open()
			if err != nil {
				return err
			}
			cfg := engine.Config{
				Provider: sess.provider, Model: pf.model, SubModel: pf.subModel, Store: store,
				Limits: bf.lim, ExperimentalDeepRecursion: bf.deep,
			}
			if len(tf.allow) > 0 {
				ts, err := tf.open()
				if err != nil {
					sess.close()
					return err
				}
				defer ts.Close()
				// Tools granted with --allow join the default root
				// capabilities; children get the defaults without tools.
				sub := pf.subModel
				if sub == "" {
					sub = pf.model
				}
				cfg.Capabilities = engine.DefaultCapabilities(pf.model, sub).Union(ts.Caps)
				cfg.Tools = &engine.RuntimeTools{Registry: ts.Registry, Invoker: ts.Runtime, AuthorityContext: cliAuthorityContext}
			}
			eng, err := engine.New(mf.apply(cfg))
			if err != nil {
				sess.close()
				return err
			}
			var opts []trace.Option
			live := !asJSON && isTerminal(cmd.ErrOrStderr())
			if live {
				opts = append(opts, trace.WithObserver(progress(cmd.ErrOrStderr())))
			}
			rec := trace.NewRecorder(opts...)
			res, runErr := eng.Run(trace.WithRecorder(ctx, rec), args[0], h)
			if live {
				fmt.Fprintln(cmd.ErrOrStderr())
			}
			if err := sess.finish(pf.record); err != nil {
				return err
			}
			if traceFile != "" {
				if err := trace.WriteFile(traceFile, "rlm run", res.Trajectory, rec.Dropped()); err != nil {
					return err
				}
			}
			return printResult(cmd.OutOrStdout(), res, runErr, asJSON)
		},
	}
	pf.register(cmd)
	mf.register(cmd)
	bf.register(cmd)
	tf.register(cmd, true)
	cmd.Flags().StringVar(&ctxFile, "context", "", "context file (- for stdin); required")
	cmd.Flags().BoolVar(&asJSON, "json", false, `print the result as JSON: {"status","answer","usage","error","trace"}`)
	cmd.Flags().StringVar(&traceFile, "trace", "", "write the trace to FILE (.jsonl for JSON lines, else one JSON envelope)")
	_ = cmd.MarkFlagRequired("context")
	return cmd
}

// addContext registers the --context input: a memory-mapped file, or stdin.
func addContext(ctx context.Context, store *corpus.Store, path string, stdin io.Reader) (corpus.Handle, error) {
	if path == "-" {
		return store.AddReader(ctx, "stdin", stdin)
	}
	return store.AddFile(ctx, path)
}

// runJSON is the --json output shape of run and demo.
type runJSON struct {
	Status string         `json:"status"`
	Answer any            `json:"answer"`
	Usage  any            `json:"usage"`
	Error  *fault.Error   `json:"error"`
	Trace  []trace.Event  `json:"trace"`
	Extra  map[string]any `json:"details,omitempty"`
}

// jsonSetupError prints an error that happened before a run as the --json
// result shape and turns it into exit status 1. Exit errors (the run's own
// result was already printed) pass through.
func jsonSetupError(w io.Writer, err error) error {
	var ee exitError
	if err == nil || errors.As(err, &ee) {
		return err
	}
	fe := fault.As(err)
	if fe == nil {
		fe = fault.Wrap(err, fault.PhaseConfig, fault.KindInvalid, err.Error())
	}
	if werr := writeJSON(w, runJSON{Status: engine.StatusFailed, Error: fe, Trace: []trace.Event{}}); werr != nil {
		return werr
	}
	return exitError{code: 1}
}

func printResult(w io.Writer, res *engine.Result, runErr error, asJSON bool) error {
	if asJSON {
		out := runJSON{Status: res.Status, Answer: res.Answer, Usage: res.Usage, Error: res.Error, Trace: res.Trajectory,
			Extra: map[string]any{"usage_by_depth": res.UsageByDepth, "counters": res.Counters, "recursion": res.Recursion, "turns": res.Turns, "partial": res.Partial, "elapsed_ms": res.ElapsedMS}}
		if out.Trace == nil {
			out.Trace = []trace.Event{}
		}
		if err := writeJSON(w, out); err != nil {
			return err
		}
		if runErr != nil {
			return exitError{code: 1}
		}
		return nil
	}
	if runErr != nil {
		return runErr
	}
	fmt.Fprintln(w, answerText(res.Answer))
	return nil
}

func answerText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	var b strings.Builder
	_ = writeJSON(&b, v)
	return strings.TrimSpace(b.String())
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// progress returns a trace observer that prints one status line per model
// call: turn, depth, calls, tokens, cost.
func progress(w io.Writer) func(trace.Event) {
	var mu sync.Mutex
	var calls, tokens, turns int64
	var cost float64
	return func(ev trace.Event) {
		mu.Lock()
		defer mu.Unlock()
		switch ev.Kind {
		case trace.KindTurn:
			turns++
			return
		case trace.KindModelCall:
			calls++
			if ev.Tokens != nil {
				tokens += ev.Tokens.Total
			}
			cost += ev.CostUSD
		default:
			return
		}
		fmt.Fprintf(w, "\r\033[Kturn %d · depth %d · model calls %d · tokens %d · cost $%.4f", turns+1, ev.Depth, calls, tokens, cost)
	}
}
