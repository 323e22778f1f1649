package bench

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/rlm-go/rlm"
	"github.com/rlm-go/rlm/bench/suite"
	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/textcut"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/replay"
)

// Method is a way of answering a task.
type Method string

// Methods compared by Run.
const (
	// MethodRLM runs the RLM engine: the root model sees metadata only.
	MethodRLM Method = "rlm"
	// MethodRLMCode runs the RLM engine in code mode: the root model writes
	// Python in the sandboxed REPL.
	MethodRLMCode Method = "rlm-code"
	// MethodDirect sends the whole context and the question in one prompt.
	MethodDirect Method = "direct"
	// MethodAuto runs the session in rlm.ModeAuto: MethodDirect's call
	// when the context and question fit in the Spec's AutoShare of the
	// root model's window (Spec.ContextWindow, else the model table's),
	// else the engine in code mode. Each trial records the choice
	// (Trial.Auto); DirectMaxBytes does not apply.
	MethodAuto Method = "auto"
	// MethodSummary is the RLM paper's summary agent (baselines.go): the
	// sub-model reads the context in parts that fit its window and keeps
	// running notes, and the root model answers from them (the direct
	// method's call when the whole context fits the root model's window).
	MethodSummary Method = "summary"
	// MethodRLMNoSubCalls is the engine in code mode without sub-calls
	// (rlm.On.NoSubCalls): the root model writes code over the context in
	// the REPL; llm_query and rlm_query end the trial with
	// capability_denied. The paper's "RLM (no sub-calls)" row.
	MethodRLMNoSubCalls Method = "rlm-no-subcalls"
	// MethodCodeAct is the paper's CodeAct agent (baselines.go): code
	// mode with the context in the root prompt, not in the REPL
	// (rlm.On.ContextInPrompt), no sub-call granted, and for a task given
	// as documents (BrowseComp-Plus) a BM25 retriever over them instead
	// of the documents in the prompt. The paper's "CodeAct (+ BM25)" row.
	MethodCodeAct Method = "codeact"
	// MethodCodeActSubcalls is MethodCodeAct with llm_query granted (no
	// rlm_query, no retriever). The paper's "CodeAct (+ sub-calls)" row.
	MethodCodeActSubcalls Method = "codeact-subcalls"
)

// Trial statuses.
const (
	StatusOK      = "ok"      // the method produced an answer (scored)
	StatusFailed  = "failed"  // the method failed; it scores 0
	StatusSkipped = "skipped" // the method was not attempted; not scored
)

// Defaults of Config fields left zero.
const (
	// DefaultDirectMaxBytes is the largest context the direct method sends
	// in one prompt: about 100k tokens of English text, which fits the
	// context window of current frontier models with room for the answer.
	DefaultDirectMaxBytes = 400_000
	// DefaultRuns is the number of trials per method.
	DefaultRuns = 1
	// MaxRuns bounds Config.Runs.
	MaxRuns = 10_000
	// answerPreviewBytes bounds the answer text kept per trial.
	answerPreviewBytes = 512
)

// SkipContextTooLarge is the skip reason of a direct trial whose context
// exceeds Config.DirectMaxBytes.
const SkipContextTooLarge = "context_exceeds_direct_max_bytes"

// ReplayNotice labels figures obtained from replayed responses.
const ReplayNotice = "replayed responses: figures prove the harness, not model quality"

// Config configures a benchmark run.
type Config struct {
	// Task is the task family; Size the context size in bytes.
	Task Kind
	Size int
	// Runs is the number of trials; trial i (from 0) uses seed Seed+i.
	Runs int
	Seed uint64
	// Session, when set, answers every trial: its provider (the direct
	// method's call too), its Spec's Model (root and direct), SubModel,
	// AutoShare and ContextWindow (MethodAuto); Provider, Model, SubModel
	// and ExperimentalDeepRecursion are then unused. Without one, Run opens a
	// session over them (rlm.WithProvider, the response cache off).
	Session *rlm.Session
	// Provider answers both methods; Model is the root (and direct) model
	// and SubModel the model of the RLM's sub-calls (default Model).
	Provider model.Provider
	Model    string
	SubModel string
	// Limits configure each RLM trial and the direct call's time limit
	// (zero: the Session Spec's Limits); Limits.MaxDepth up to
	// engine.MaxSupportedDepth needs no opt-in.
	Limits budget.Limits
	// ExperimentalDeepRecursion is deprecated, accepted and ignored (see
	// rlm.Spec.DeepRecursion).
	ExperimentalDeepRecursion bool
	// DirectMaxBytes is the largest context the direct method attempts
	// (default DefaultDirectMaxBytes); larger contexts skip it. Negative
	// means no limit.
	DirectMaxBytes int
	// MaxTokens is the completion limit of the direct call (default
	// engine.DefaultMaxTokens).
	MaxTokens int
	// Methods to run, in order (default rlm then direct; rlm-code is the
	// engine in code mode, auto the session in rlm.ModeAuto, summary,
	// rlm-no-subcalls, codeact and codeact-subcalls the paper's baselines
	// of baselines.go).
	Methods []Method
	// Replayed marks figures that come from recorded or scripted
	// responses; the report then carries ReplayNotice.
	Replayed bool
	// Suite, when set, runs a published benchmark (suite.Names) read from
	// Data with SuiteOptions instead of generating Task: every loaded task
	// once per method (Task, Size, Runs and Seed are then unused), each
	// scored as its paper scores it (suite.Score).
	Suite        string
	Data         string
	SuiteOptions suite.Options
	// Judge, with a Suite its paper grades with an LLM judge
	// (BrowseComp-Plus), grades each answer (suite.ScoreJudged); the trial
	// keeps the exact match beside the verdict. Nil: exact match only.
	// A Judge without its Judge function asks JudgeModel (default Model)
	// through the trial's provider, so the judge's calls are recorded,
	// rate limited and replayed with the trial's.
	Judge      *suite.JudgeConfig
	JudgeModel string
	// Record, when set, is a directory where the run keeps, as each trial
	// finishes, the trial's cassette (CassetteDir; model/replay format)
	// and a line of JournalFile, and at the end ManifestFile (the inputs
	// with their SHA-256, models, methods, limits, the trials' cassettes)
	// and ReportFile. Replay runs it again offline. The Session must have
	// its response cache off (Spec.Cache.Off; else KindInvalidTask), so
	// that each cassette holds every response its trial got. A directory that holds a run already is refused
	// (KindRecordExists) unless Resume.
	Record string
	// Resume continues the run recorded in Record: the trials of its
	// journal are taken from it, their requests never sent again; the
	// others run. The run must be configured as the recorded one
	// (KindResumeMismatch), its input files unchanged.
	Resume bool
	// MaxConcurrency runs up to this many trials at once (default 1). The
	// report lists the trials in the same order whatever order they
	// finish in.
	MaxConcurrency int
	// RateLimits bound the requests sent to each model, in requests per
	// minute (key: the model; RateLimitAny: every other model), over the
	// whole run, every trial's calls (the judge's included) together.
	RateLimits map[string]float64
	// Progress, when set, is called after each trial finishes (trials
	// done of all, spend, ETA), one call at a time.
	Progress func(Progress)
	// CommandLine is recorded in the manifest (Record) as it is.
	CommandLine []string
	// NewStore, when set, makes the store of each engine trial (default
	// corpus.NewStore, whose PDFs pdf.Default reads): a caller that owns
	// a PDF engine sets one that uses it (corpus.Store.SetPDFReader).
	NewStore func() *corpus.Store

	// replay holds the cassette of each trial Replay runs again (key
	// trialKey); trials without one are not run.
	replay map[string]*replay.Cassette
}

// Stats summarizes a sample.
type Stats struct {
	N    int     `json:"n"`
	Mean float64 `json:"mean"`
	P25  float64 `json:"p25"`
	P50  float64 `json:"p50"`
	P75  float64 `json:"p75"`
}

// Trial is one method's attempt at one task instance.
type Trial struct {
	Method     Method       `json:"method"`
	Run        int          `json:"run"`
	Seed       uint64       `json:"seed"`
	Status     string       `json:"status"`
	SkipReason string       `json:"skip_reason,omitempty"`
	Score      float64      `json:"score"`
	Answer     string       `json:"answer"`
	Expected   string       `json:"expected"`
	Usage      budget.Usage `json:"usage"`
	LatencyMS  float64      `json:"latency_ms"`
	Turns      int          `json:"turns,omitempty"`
	MaxDepth   int          `json:"max_depth,omitempty"`
	Error      *fault.Error `json:"error,omitempty"`
	// TaskID and Subset name a published benchmark's task (Config.Suite).
	TaskID string `json:"task_id,omitempty"`
	Subset string `json:"subset,omitempty"`
	// Judged reports that Score is an LLM judge's verdict; ExactMatch is
	// then the exact-match result beside it.
	Judged     bool  `json:"judged,omitempty"`
	ExactMatch *bool `json:"exact_match,omitempty"`
	// Auto is a MethodAuto trial's choice (direct or code) and its
	// token counts.
	Auto *rlm.Auto `json:"auto,omitempty"`
}

// Summary aggregates one method's trials. Accuracy is the mean score of
// the attempted (ok and failed) trials; it is nil when none was attempted.
// Cost, tokens and latency are over attempted trials too.
type Summary struct {
	Method        Method   `json:"method"`
	Trials        int      `json:"trials"`
	OK            int      `json:"ok"`
	Failed        int      `json:"failed"`
	Skipped       int      `json:"skipped"`
	Accuracy      *float64 `json:"accuracy"`
	CostUSD       Stats    `json:"cost_usd"`
	CostKnown     bool     `json:"cost_known"`
	CostEstimated bool     `json:"cost_estimated"`
	Tokens        Stats    `json:"tokens"`
	LatencyMS     Stats    `json:"latency_ms"`
	// AutoDirect and AutoCode count a MethodAuto summary's trials that
	// took each path.
	AutoDirect int `json:"auto_direct,omitempty"`
	AutoCode   int `json:"auto_code,omitempty"`
}

// Report is the outcome of Run.
type Report struct {
	SchemaVersion  int    `json:"schema_version"`
	Task           Kind   `json:"task"`
	Size           int    `json:"size"`
	Runs           int    `json:"runs"`
	Seed           uint64 `json:"seed"`
	Model          string `json:"model"`
	SubModel       string `json:"sub_model"`
	DirectMaxBytes int    `json:"direct_max_bytes"`
	Replayed       bool   `json:"replayed"`
	Notice         string `json:"notice,omitempty"`
	// Suite, Data and Subset name a published benchmark's run.
	Suite     string    `json:"suite,omitempty"`
	Data      string    `json:"data,omitempty"`
	Subset    string    `json:"subset,omitempty"`
	Summaries []Summary `json:"summaries"`
	Trials    []Trial   `json:"trials"`
}

// Run generates cfg.Runs task instances (or loads cfg.Suite's) and
// answers each with every configured method, up to cfg.MaxConcurrency
// trials at once (one by default), then summarizes; the report lists the
// trials task by task, methods in order, whatever order they finished
// in. Failures of a method are recorded in its trial; Run itself fails
// only on an invalid configuration, a record it cannot write, or when
// ctx is cancelled (the report then holds the trials that ran).
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if cfg.Session == nil && cfg.Provider == nil {
		return nil, fault.New(fault.PhaseConfig, KindInvalidTask, "the benchmark needs a session or a provider")
	}
	if err := cfg.defaults(); err != nil {
		return nil, err
	}
	tasks, err := cfg.instances()
	if err != nil {
		return nil, err
	}
	sess, err := cfg.session(ctx)
	if err != nil {
		return nil, err
	}
	if cfg.Session == nil {
		defer sess.Close()
	}
	rep := &Report{
		SchemaVersion: 1, Task: cfg.Task, Size: cfg.Size, Runs: cfg.Runs, Seed: cfg.Seed,
		Model: cfg.Model, SubModel: cfg.SubModel, DirectMaxBytes: cfg.DirectMaxBytes, Replayed: cfg.Replayed,
		Suite: cfg.Suite, Data: cfg.Data, Subset: cfg.SuiteOptions.Subset, Trials: []Trial{},
	}
	if cfg.Suite != "" {
		rep.Task, rep.Size, rep.Runs, rep.Seed = "", 0, tasks.n, cfg.SuiteOptions.Seed
	}
	if cfg.Replayed {
		rep.Notice = ReplayNotice
	}
	rec, err := cfg.openRecord(sess, tasks)
	if err != nil {
		return nil, err
	}
	trials, runErr := cfg.runTrials(ctx, sess, tasks, rec)
	for _, tr := range trials {
		if tr != nil {
			rep.Trials = append(rep.Trials, *tr)
		}
	}
	rep.summarize(cfg.Methods)
	if runErr == nil && ctx.Err() != nil {
		// The last trial was cut off: the run was interrupted all the same.
		runErr = fault.FromContext(fault.PhaseExecute, ctx.Err())
	}
	if err := rec.close(rep, cfg.Methods, tasks.n); err != nil && runErr == nil {
		runErr = err
	}
	return rep, runErr
}

// runTrials runs every trial, up to cfg.MaxConcurrency at once, and
// returns them in report order (task by task, methods in order; nil for a
// trial that did not run: the run was interrupted, or Replay has no
// cassette for it). Once ctx is cancelled no trial starts; the error is
// the interruption or what stopped the run (a task that could not be
// built, a record that could not be written).
func (cfg *Config) runTrials(ctx context.Context, sess *rlm.Session, tasks instances, rec *recordDir) ([]*Trial, error) {
	nm := len(cfg.Methods)
	out := make([]*Trial, tasks.n*nm)
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	base := limited(sess.Provider(), cfg.RateLimits, cfg.Model)
	total := len(out)
	if cfg.replay != nil {
		total = len(cfg.replay) // a replay runs the recorded trials only
	}
	pg := &progress{f: cfg.Progress, start: time.Now(), p: Progress{Total: total}}
	var (
		mu       sync.Mutex
		next     int
		firstErr error
	)
	fail := func(err error) {
		mu.Lock()
		if firstErr == nil {
			firstErr = err
		}
		mu.Unlock()
		stop()
	}
	take := func() (int, bool) {
		mu.Lock()
		defer mu.Unlock()
		if next >= len(out) || runCtx.Err() != nil {
			return 0, false
		}
		next++
		return next - 1, true
	}
	var wg sync.WaitGroup
	for range min(cfg.MaxConcurrency, max(len(out), 1)) {
		wg.Go(func() {
			for {
				k, ok := take()
				if !ok {
					return
				}
				i, m := k/nm, cfg.Methods[k%nm]
				if e, ok := rec.finished(i, m); ok {
					tr := e.Result
					out[k] = &tr
					pg.finish(tr, true)
					continue
				}
				tr, err := cfg.trial(runCtx, sess, base, tasks, rec, i, m)
				if err != nil {
					fail(err)
					return
				}
				if tr != nil {
					out[k] = tr
					pg.finish(*tr, false)
				}
			}
		})
	}
	wg.Wait()
	if firstErr != nil {
		return out, firstErr
	}
	if err := ctx.Err(); err != nil {
		return out, fault.FromContext(fault.PhaseExecute, err)
	}
	return out, nil
}

// trial runs method m on task i through its own provider: a recorder
// over base when recording, the trial's cassette when replaying, else
// base. A trial that ran to its end while ctx was live is saved to the
// record (one that the interruption cut off is reported, not saved: a
// resumption runs it again).
func (cfg *Config) trial(ctx context.Context, sess *rlm.Session, base model.Provider, tasks instances, rec *recordDir, i int, m Method) (*Trial, error) {
	task, err := tasks.at(i)
	if err != nil {
		return nil, err
	}
	p := base
	var recorder *replay.Recorder
	switch {
	case cfg.replay != nil:
		cas, ok := cfg.replay[trialKey(i, m)]
		if !ok {
			return nil, nil
		}
		rp, closeServer, err := cassetteServer(cas, cfg.Model)
		if err != nil {
			return nil, err
		}
		defer closeServer()
		p = rp
	case rec != nil:
		recorder = replay.NewRecorder(base)
		p = recorder
	}
	tctx := withTrialProvider(context.WithValue(ctx, trialIDKey{}, trialKey(i, m)), p)
	var tr Trial
	switch m {
	case MethodRLM:
		tr = runRLM(tctx, sess, p, *cfg, task, engine.ModePlan)
	case MethodRLMCode:
		tr = runRLM(tctx, sess, p, *cfg, task, engine.ModeCode)
	case MethodDirect:
		tr = runDirect(tctx, p, *cfg, task)
	case MethodAuto:
		tr = runRLM(tctx, sess, p, *cfg, task, rlm.ModeAuto)
	case MethodSummary:
		tr = runSummary(tctx, sess, p, *cfg, task)
	case MethodRLMNoSubCalls:
		tr = runRLMNoSubCalls(tctx, sess, p, *cfg, task)
	case MethodCodeAct:
		tr = runCodeAct(tctx, sess, p, *cfg, task, false)
	case MethodCodeActSubcalls:
		tr = runCodeAct(tctx, sess, p, *cfg, task, true)
	}
	tr.Method, tr.Run, tr.Seed, tr.Expected, tr.TaskID, tr.Subset = m, i, task.seed, task.expected, task.id, task.subset
	if recorder != nil && ctx.Err() == nil {
		if err := rec.save(tr, recorder); err != nil {
			return &tr, err
		}
	}
	return &tr, nil
}

// defaults checks cfg and fills in its defaults.
func (cfg *Config) defaults() error {
	if cfg.Suite == "" {
		if _, err := ParseKind(string(cfg.Task)); err != nil {
			return err
		}
	}
	if cfg.Runs == 0 {
		cfg.Runs = DefaultRuns
	}
	if cfg.Runs < 0 || cfg.Runs > MaxRuns {
		return fault.New(fault.PhaseConfig, KindInvalidTask, "runs out of range").With("runs", cfg.Runs).With("max", MaxRuns)
	}
	if cfg.DirectMaxBytes == 0 {
		cfg.DirectMaxBytes = DefaultDirectMaxBytes
	}
	if cfg.MaxTokens <= 0 {
		cfg.MaxTokens = engine.DefaultMaxTokens
	}
	if len(cfg.Methods) == 0 {
		cfg.Methods = []Method{MethodRLM, MethodDirect}
	}
	for _, m := range cfg.Methods {
		switch m {
		case MethodRLM, MethodRLMCode, MethodDirect, MethodAuto, MethodSummary, MethodRLMNoSubCalls, MethodCodeAct, MethodCodeActSubcalls:
		default:
			return fault.New(fault.PhaseConfig, KindInvalidTask, "unknown method; want rlm, rlm-code, direct, auto, summary, rlm-no-subcalls, codeact or codeact-subcalls").With("method", string(m))
		}
	}
	return cfg.scheduleDefaults()
}

// scheduleDefaults checks the concurrency and rate limits.
func (cfg *Config) scheduleDefaults() error {
	if cfg.MaxConcurrency == 0 {
		cfg.MaxConcurrency = 1
	}
	if cfg.MaxConcurrency < 0 {
		return fault.New(fault.PhaseConfig, KindInvalidTask, "max concurrency must be at least 1").With("max_concurrency", cfg.MaxConcurrency)
	}
	for m, rpm := range cfg.RateLimits {
		if _, _, err := ParseRateLimit(fmt.Sprintf("%s=%v", m, rpm)); err != nil {
			return err
		}
	}
	if cfg.Record != "" && len(slices.Compact(slices.Sorted(slices.Values(cfg.Methods)))) != len(cfg.Methods) {
		// A recorded trial is known by its task and method.
		return fault.New(fault.PhaseConfig, KindInvalidTask, "a method is named twice").With("methods", fmt.Sprint(cfg.Methods))
	}
	return nil
}

// instance is one task a trial answers: generated (Task) or loaded from a
// published benchmark (suite.Task).
type instance struct {
	id, subset, label string
	seed              uint64
	context, query    string
	expected          string
	score             func(ctx context.Context, answer any) (Trial, error) // Score, Judged, ExactMatch

	// pdf is a document task's PDF (context is then its text layer).
	pdf []byte
	// docs are BrowseComp-Plus's documents (codeact's retriever).
	docs []suite.Doc
}

// instances are the tasks of a run: n of them, the i-th built by at (a
// generated context is built when its trial comes, not all at once).
type instances struct {
	n  int
	at func(i int) (*instance, error)
}

// instances loads the suite's tasks, or checks the generator's
// parameters and generates the tasks one by one.
func (cfg *Config) instances() (instances, error) {
	if cfg.Suite != "" {
		loaded, err := suite.Load(cfg.Suite, cfg.Data, cfg.SuiteOptions)
		if err != nil {
			return instances{}, err
		}
		return instances{n: len(loaded), at: func(i int) (*instance, error) { return cfg.suiteInstance(&loaded[i]), nil }}, nil
	}
	if _, err := Generate(cfg.Task, cfg.Size, cfg.Seed); err != nil {
		return instances{}, err
	}
	return instances{n: cfg.Runs, at: func(i int) (*instance, error) {
		seed := cfg.Seed + uint64(i)
		task, err := Generate(cfg.Task, cfg.Size, seed)
		if err != nil {
			return nil, err
		}
		return &instance{label: string(task.Kind), seed: seed, context: task.Context, query: task.Query, expected: task.Expected.String(), pdf: task.PDF,
			score: func(_ context.Context, answer any) (Trial, error) { return Trial{Score: task.Score(answer)}, nil }}, nil
	}}, nil
}

// suiteInstance is a loaded task, scored as its paper scores it (with the
// judge when one is configured).
func (cfg *Config) suiteInstance(t *suite.Task) *instance {
	return &instance{id: t.ID, subset: t.Subset, label: t.Suite, context: t.Context, query: t.Query, expected: t.Answer, docs: t.Docs,
		score: func(ctx context.Context, answer any) (Trial, error) {
			var jc suite.JudgeConfig
			if cfg.Judge != nil {
				jc = *cfg.Judge
				if jc.Judge == nil {
					jc.Judge = cfg.modelJudge(trialProvider(ctx))
				}
			}
			r, err := suite.ScoreJudged(ctx, *t, AnswerText(answer), jc)
			tr := Trial{Score: r.Score, Judged: r.Judged}
			if r.Judged {
				tr.ExactMatch = &r.Exact
			}
			return tr, err
		}}
}

// judgeModel is the model of the judge: JudgeModel, else Model.
func (cfg *Config) judgeModel() string { return cmp.Or(cfg.JudgeModel, cfg.Model) }

// modelJudge asks the judge's model through p (the trial's provider).
func (cfg *Config) modelJudge(p model.Provider) suite.Judge {
	name := cfg.judgeModel()
	return func(ctx context.Context, prompt string) (string, error) {
		if p == nil {
			return "", fault.New(fault.PhaseConfig, fault.KindInternal, "the judge has no provider")
		}
		resp, err := p.Complete(ctx, model.Request{Model: name, Messages: []model.Message{{Role: model.RoleUser, Content: prompt}}})
		if err != nil {
			return "", err
		}
		return resp.Text, nil
	}
}

// AllFailed returns the first failed trial when trials were attempted
// and every one failed; nil when one succeeded or none was attempted
// (every trial skipped).
func (rep *Report) AllFailed() *Trial {
	var first *Trial
	for i, tr := range rep.Trials {
		switch tr.Status {
		case StatusOK:
			return nil
		case StatusFailed:
			if first == nil {
				first = &rep.Trials[i]
			}
		}
	}
	return first
}

// summarize sets the summaries of methods over the trials so far.
func (rep *Report) summarize(methods []Method) *Report {
	rep.Summaries = rep.Summaries[:0]
	for _, m := range methods {
		rep.Summaries = append(rep.Summaries, summarize(m, rep.Trials))
	}
	return rep
}

// session is the session of the trials: cfg.Session, or one opened over
// cfg.Provider (close it; its Spec holds no limits, each trial runs under
// cfg.Limits). cfg takes the Spec's models and, when zero, its limits.
func (cfg *Config) session(ctx context.Context) (*rlm.Session, error) {
	sess := cfg.Session
	if sess == nil {
		var err error
		sess, err = rlm.Open(ctx, rlm.Spec{Model: cfg.Model, SubModel: cfg.SubModel, DeepRecursion: cfg.ExperimentalDeepRecursion,
			Cache: rlm.CacheSpec{Off: true}}, rlm.WithProvider(cfg.Provider))
		if err != nil {
			return nil, err
		}
	}
	sp := sess.Spec()
	cfg.Model, cfg.SubModel = sp.Model, cmp.Or(sp.SubModel, sp.Model)
	if cfg.Limits == (budget.Limits{}) {
		cfg.Limits = sp.Limits
	}
	return sess, nil
}

// runRLM answers task with the session's engine in mode, under the
// trial's limits.
func runRLM(ctx context.Context, sess *rlm.Session, p model.Provider, cfg Config, task *instance, mode string) Trial {
	return runEngine(ctx, sess, cfg, task, rlm.On{Mode: mode, Provider: p})
}

// scored is tr, answered with answer, scored for task; a judge that
// failed fails the trial (its error in the trial).
func scored(ctx context.Context, tr Trial, task *instance, answer any) Trial {
	tr.Status = StatusOK
	tr.Answer = preview(AnswerText(answer))
	s, err := task.score(ctx, answer)
	tr.Score, tr.Judged, tr.ExactMatch = s.Score, s.Judged, s.ExactMatch
	if err != nil {
		tr.Status, tr.Error = StatusFailed, fault.Or(err, fault.PhaseExecute, fault.KindInternal, "the judge failed")
	}
	return tr
}

// DirectPrompt returns the messages of the direct method for task
// (rlm.DirectMessages: the same as rlm.ModeAuto's direct path).
func DirectPrompt(task *Task) []model.Message { return rlm.DirectMessages(task.Context, task.Query) }

func runDirect(ctx context.Context, p model.Provider, cfg Config, task *instance) Trial {
	if cfg.DirectMaxBytes > 0 && len(task.context) > cfg.DirectMaxBytes {
		return Trial{Status: StatusSkipped, SkipReason: SkipContextTooLarge}
	}
	lim, err := cfg.Limits.Resolve()
	if err != nil {
		return failed(err, 0)
	}
	if lim.TimeLimit > 0 { // negative: unlimited
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, lim.TimeLimit)
		defer cancel()
	}
	start := time.Now()
	resp, err := p.Complete(ctx, model.Request{Model: cfg.Model, Messages: rlm.DirectMessages(task.context, task.query), MaxTokens: cfg.MaxTokens})
	tr := Trial{LatencyMS: ms(time.Since(start))}
	if resp != nil {
		tr.Usage = resp.Usage
		tr.Usage.Calls = max(tr.Usage.Calls, 1)
	} else {
		tr.Usage.Calls = 1
	}
	if err != nil {
		tr.Status, tr.Error = StatusFailed, fault.Or(err, fault.PhaseProvider, fault.KindInternal, "")
		return tr
	}
	return scored(ctx, tr, task, resp.Text)
}

func failed(err error, d time.Duration) Trial {
	return Trial{Status: StatusFailed, Error: fault.Or(err, fault.PhaseExecute, fault.KindInternal, ""), LatencyMS: ms(d)}
}

func summarize(m Method, trials []Trial) Summary {
	s := Summary{Method: m}
	var scores, costs, tokens, lat []float64
	s.CostKnown = true
	for _, t := range trials {
		if t.Method != m {
			continue
		}
		s.Trials++
		switch t.Status {
		case StatusSkipped:
			s.Skipped++
			continue
		case StatusOK:
			s.OK++
		default:
			s.Failed++
		}
		scores = append(scores, t.Score)
		costs = append(costs, t.Usage.CostUSD)
		tokens = append(tokens, float64(t.Usage.TotalTokens))
		lat = append(lat, t.LatencyMS)
		if t.Auto != nil {
			if t.Auto.Chosen == rlm.AutoDirect {
				s.AutoDirect++
			} else {
				s.AutoCode++
			}
		}
		s.CostKnown = s.CostKnown && t.Usage.CostKnown
		s.CostEstimated = s.CostEstimated || t.Usage.CostEstimated
	}
	if len(scores) > 0 {
		a := Summarize(scores).Mean
		s.Accuracy = &a
	} else {
		s.CostKnown = false
	}
	s.CostUSD, s.Tokens, s.LatencyMS = Summarize(costs), Summarize(tokens), Summarize(lat)
	return s
}

// Summarize returns the mean and quartiles of xs. Quartiles interpolate
// linearly between order statistics (the R-7 / NumPy default method). An
// empty sample has all zero fields.
func Summarize(xs []float64) Stats {
	d := Describe(xs)
	return Stats{N: d.N, Mean: d.Mean, P25: d.P25, P50: d.P50, P75: d.P75}
}

func quantile(sorted []float64, q float64) float64 {
	h := q * float64(len(sorted)-1)
	lo := int(math.Floor(h))
	hi := min(lo+1, len(sorted)-1)
	return sorted[lo] + (h-float64(lo))*(sorted[hi]-sorted[lo])
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// preview cuts s to answerPreviewBytes at a character boundary.
func preview(s string) string {
	if len(s) <= answerPreviewBytes {
		return s
	}
	return strings.TrimSpace(textcut.Prefix(s, answerPreviewBytes)) + "…"
}
