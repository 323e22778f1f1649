package launcher

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/rlm-go/rlm"
	"github.com/rlm-go/rlm/bench"
	"github.com/rlm-go/rlm/bench/suite"
	"github.com/rlm-go/rlm/console"
	"github.com/rlm-go/rlm/fault"
)

func (l *launcher) newBenchCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Long-context benchmarks (RLM vs direct) and the engine conformance suite",
		Long: `Benchmarks with known answers over generated long contexts, and a deterministic
conformance suite of the engine. See docs/bench.md.`,
	}
	cmd.AddCommand(l.newBenchRunCmd(), l.newBenchConformanceCmd(), l.newBenchCodeCorpusCmd(), l.newBenchReportCmd(), l.newBenchReplayCmd())
	return cmd
}

// benchRunFlags are the flags of rlm bench run.
type benchRunFlags struct {
	pf             providerFlags
	bf             budgetFlags
	task, size     string
	runs           int
	seed           uint64
	directMaxBytes int
	methods        []string
	asJSON         bool
	// A published benchmark instead of a generated task.
	suite       string
	data        string
	so          suite.Options
	judgePrompt string
	judgeModel  string
	// Resumable, parallel, rate-limited runs.
	resume bool
	scheduleFlags
}

func (l *launcher) newBenchRunCmd() *cobra.Command {
	var f benchRunFlags
	cmd := &cobra.Command{
		Use:   "run (--task niah|aggregate|pairs|chart-pdf | --suite SUITE --data PATH) [flags]",
		Short: "Compare the RLM with one direct call on generated tasks or a published benchmark",
		Long: `Generate --runs task instances of about --size bytes (instance i uses seed
--seed+i), answer each with the RLM engine and with one direct call holding the
whole input (skipped when the input exceeds --direct-max-bytes), score the
answers, and print accuracy, cost, tokens and latency per method.

With --suite oolong|oolong-pairs|browsecomp-plus|longbench-v2 --data PATH the
tasks are a published benchmark's, read from its own file format (JSON lines,
JSON or Parquet; --corpus for BrowseComp-Plus's documents), chosen with
--subset, --sample N (seeded by --seed) and --limit N, and scored as its paper
scores them; --judge-prompt FILE (the benchmark's grader prompt) grades
BrowseComp-Plus with an LLM judge (--judge-model). See docs/bench.md.

--record DIR (a path not ending in .json) keeps one cassette per trial, a
journal of the finished trials and a manifest (inputs with their SHA-256,
models, flags) in DIR: rlm bench replay DIR runs it again offline, and the same
command plus --resume continues it after an interruption without sending any
finished trial's requests again. --record FILE.json keeps the whole run in one
cassette, as before. --max-concurrent-trials N runs N trials at once,
--rate-limit MODEL=RPM bounds a model's requests per minute, and the progress
(trials done, spend, ETA) shows on stderr when it is a terminal (--progress:
always).

With --replay the figures come from recorded or scripted responses: they prove
that the harness works, not how good a model is, and the output says so.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return f.run(cmd) },
	}
	f.pf.register(l, cmd)
	f.bf.register(cmd)
	fl := cmd.Flags()
	fl.StringVar(&f.task, "task", "", "generated task family: niah, aggregate, pairs or chart-pdf (a PDF whose answer is partly in a drawn chart; --size sets its pages) (or --suite)")
	fl.StringVar(&f.suite, "suite", "", "published benchmark: oolong, oolong-pairs, browsecomp-plus or longbench-v2 (with --data)")
	fl.StringVar(&f.data, "data", "", "the benchmark's file (JSON lines, JSON or Parquet)")
	fl.StringVar(&f.so.Subset, "subset", "", "keep the tasks of a subset: OOLONG's dataset, split or context length, LongBench-v2's domain (CodeQA), sub-domain, difficulty or length")
	fl.IntVar(&f.so.Limit, "limit", 0, "at most N tasks (0: all)")
	fl.IntVar(&f.so.Sample, "sample", 0, "a seeded sample of N tasks (--seed; 0: all)")
	fl.StringVar(&f.so.Corpus, "corpus", "", "BrowseComp-Plus's document corpus (JSON lines or Parquet)")
	fl.StringVar(&f.judgePrompt, "judge-prompt", "", "grade BrowseComp-Plus with an LLM judge: FILE holds the benchmark's grader prompt ({question}, {response}, {correct_answer})")
	fl.StringVar(&f.judgeModel, "judge-model", "", "model of the judge (default --model)")
	fl.StringVar(&f.size, "size", "100k", "context size in bytes (suffixes k, m, ki, mi)")
	fl.IntVar(&f.runs, "runs", bench.DefaultRuns, "task instances per method")
	fl.Uint64Var(&f.seed, "seed", 1, "seed of the first instance")
	fl.IntVar(&f.directMaxBytes, "direct-max-bytes", bench.DefaultDirectMaxBytes, "largest context the direct method sends in one prompt; larger ones are skipped (negative: no limit)")
	fl.StringSliceVar(&f.methods, "methods", []string{string(bench.MethodRLM), string(bench.MethodDirect)}, "methods to run: rlm (plan mode), rlm-code (code mode), direct, auto (--mode auto: direct or code mode by the context's size), summary (the paper's summary agent), rlm-no-subcalls (code mode without sub-calls), codeact (the paper's CodeAct: the context in the prompt, a REPL without sub-calls, BM25 over BrowseComp-Plus's documents), codeact-subcalls (CodeAct with llm_query)")
	fl.BoolVar(&f.asJSON, "json", false, "print the report as JSON")
	fl.BoolVar(&f.resume, "resume", false, "continue the run recorded in --record DIR: its finished trials are taken from its journal, their requests not sent again")
	f.scheduleFlags.register(fl, true)
	cmd.MarkFlagsOneRequired("task", "suite")
	cmd.MarkFlagsMutuallyExclusive("task", "suite")
	cmd.MarkFlagsRequiredTogether("suite", "data")
	return cmd
}

// run opens the session the flags describe (its Spec holds no limits:
// every trial runs under the budget flags) and runs the benchmark.
func (f *benchRunFlags) run(cmd *cobra.Command) error {
	cfg, err := f.config()
	if err != nil {
		return err
	}
	for _, m := range f.methods {
		cfg.Methods = append(cfg.Methods, bench.Method(m))
	}
	sp := rlm.Spec{DeepRecursion: f.bf.deep}
	f.pf.spec(&sp)
	if err := f.recordDir(&cfg, &sp); err != nil {
		return err
	}
	if err := f.schedule(cmd, &cfg.MaxConcurrency, &cfg.RateLimits, &cfg.Progress); err != nil {
		return err
	}
	st := console.NewStatus(cmd.ErrOrStderr(), !f.asJSON && cfg.Progress == nil && console.IsTerminal(cmd.ErrOrStderr()))
	if cfg.Session, err = f.pf.l.open(cmd.Context(), sp, statusOptions(st)...); err != nil {
		return err
	}
	defer cfg.Session.Close()
	cfg.JudgeModel = f.judgeModel
	rep, runErr := bench.Run(cmd.Context(), cfg)
	st.Stop()
	f.stopProgress(cmd)
	// The report is printed before a --record error is reported.
	return f.print(cmd, rep, runErr, cfg.Session.Close())
}

// config is the benchmark the flags describe: a generated task family,
// or a published benchmark's file (with the judge's prompt read).
func (f *benchRunFlags) config() (bench.Config, error) {
	cfg := bench.Config{Runs: f.runs, Seed: f.seed, Limits: f.bf.lim, DirectMaxBytes: f.directMaxBytes, Replayed: f.pf.replay != ""}
	if f.suite != "" {
		f.so.Seed = f.seed
		cfg.Suite, cfg.Data, cfg.SuiteOptions = f.suite, f.data, f.so
		if f.judgePrompt != "" {
			b, err := os.ReadFile(f.judgePrompt)
			if err != nil {
				return cfg, fault.Wrap(err, fault.PhaseConfig, fault.KindIO, "cannot read --judge-prompt").With("path", f.judgePrompt)
			}
			cfg.Judge = &suite.JudgeConfig{Prompt: string(b)}
		}
		return cfg, nil
	}
	kind, err := bench.ParseKind(f.task)
	if err != nil {
		return cfg, err
	}
	cfg.Task = kind
	cfg.Size, err = bench.ParseSize(f.size)
	return cfg, err
}

// recordDir maps --record and --resume: a --record path not ending in
// .json is a record directory (bench.Config.Record; the session's
// response cache is then off, so each trial's cassette holds every
// response the trial got); a .json path is the whole run's cassette, as
// before.
func (f *benchRunFlags) recordDir(cfg *bench.Config, sp *rlm.Spec) error {
	if f.pf.record == "" || strings.EqualFold(filepath.Ext(f.pf.record), ".json") {
		if f.resume {
			return fault.New(fault.PhaseConfig, kindUsage, "--resume needs --record DIR, the record directory of the run to continue").
				WithHint("run the command that started the run again, its --record DIR included, plus --resume")
		}
		return nil
	}
	if f.pf.cacheDir != "" && !f.pf.cacheDisabled {
		return fault.New(fault.PhaseConfig, kindUsage, "--record DIR cannot be combined with --cache: responses read from the cache would be missing from the trials' cassettes").
			WithHint("record without --cache (or add --no-cache); --resume already skips the finished trials")
	}
	cfg.Record, cfg.Resume = f.pf.record, f.resume
	cfg.CommandLine = append([]string{"rlm"}, os.Args[1:]...)
	sp.Record, sp.Cache = "", rlm.CacheSpec{Off: true, Temperature: sp.Cache.Temperature, AnyTemperature: sp.Cache.AnyTemperature}
	return nil
}

// print writes the report whatever happened, an interruption included
// (the trials that ran were paid for); stdout then holds it, so errors go
// to stderr, and the command exits 1.
func (f *benchRunFlags) print(cmd *cobra.Command, rep *bench.Report, runErr, outErr error) error {
	stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
	if runErr != nil && rep == nil {
		return afterResult(stdout, stderr, runErr, outErr)
	}
	write := func() error { return bench.WriteTable(stdout, rep) }
	if f.asJSON {
		write = func() error { return writeJSON(stdout, rep) }
	}
	if err := write(); err != nil {
		return err
	}
	if runErr == nil { // an interruption exits 130 (run)
		runErr = allTrialsFailed(rep)
	}
	var code error
	for _, err := range []error{outErr, runErr} {
		if err != nil {
			reportError(stdout, stderr, err, false)
			code = exitError{code: 1}
		}
	}
	return code
}

// kindAllTrialsFailed: bench run attempted trials and none succeeded.
const kindAllTrialsFailed fault.Kind = "all_trials_failed"

// allTrialsFailed returns an error (exit status 1, after the report) when
// trials were attempted and every one failed, naming the first failure.
func allTrialsFailed(rep *bench.Report) error {
	first := rep.AllFailed()
	if first == nil {
		return nil
	}
	e := fault.New(fault.PhaseExecute, kindAllTrialsFailed, "every attempted trial failed").
		With("first_method", string(first.Method)).With("first_run", first.Run).
		WithHint("the report lists each trial's error; check the provider flags (--base-url, --model, the API key) or the cassette")
	if first.Error != nil {
		e.With("first_kind", string(first.Error.Kind)).With("first_phase", string(first.Error.Phase))
	}
	return e
}

func (l *launcher) newBenchConformanceCmd() *cobra.Command {
	var (
		asJSON bool
		report string
		cases  []string
	)
	cmd := &cobra.Command{
		Use:   "conformance [flags]",
		Short: "Run the deterministic engine conformance suite over embedded cassettes",
		Long: `Run every conformance case: the real engine, through the real HTTP provider,
against an embedded cassette served in-process (no network). Prints one line
per case, then "N passed, N failed". --report FILE writes the JSON report;
--json prints it on stdout instead of the text (which then goes to stderr).
Exits 1 when a case fails.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkOutputs([2]string{"report", report}); err != nil {
				return err
			}
			rep, err := bench.ConformanceCases(cmd.Context(), cases)
			if err != nil {
				return err
			}
			text := cmd.OutOrStdout()
			if asJSON {
				text = cmd.ErrOrStderr()
				if err := writeJSON(cmd.OutOrStdout(), rep); err != nil {
					return err
				}
			}
			if err := bench.WriteConformance(text, rep); err != nil {
				return err
			}
			if report != "" {
				if err := rep.WriteFile(report); err != nil {
					return err
				}
			}
			if rep.Failed > 0 {
				return exitError{code: 1}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the JSON report on stdout (the text goes to stderr)")
	cmd.Flags().StringVar(&report, "report", "", "write the JSON report to FILE")
	cmd.Flags().StringSliceVar(&cases, "case", nil, fmt.Sprintf("run only these cases (of %d)", len(bench.ConformanceCaseNames())))
	return cmd
}

func (l *launcher) newBenchCodeCorpusCmd() *cobra.Command {
	var (
		asJSON, noPython, cells bool
		python                  string
		timeout                 time.Duration
	)
	cmd := &cobra.Command{
		Use:   "code-corpus FILE",
		Short: "Measure how many model-written Python cells run unchanged in code mode",
		Long: `Run every cell of a code corpus (a JSON list of {id, code, traj, step, ...})
in code mode and, where python3 exists, in CPython as the baseline, with the
same stubs (llm_query and rlm_query return a placeholder, context is a
generated text of about 200 KB). Cells of one trajectory (same "traj") run in
one interpreter in "step" order, in both. Prints the share of the cells that
run in CPython which also run unchanged in code mode, and the failures by
cause. See docs/code.md.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			corpus, err := bench.ReadCodeCorpus(args[0])
			if err != nil {
				return err
			}
			rep, err := bench.RunCodeCorpus(cmd.Context(), corpus, bench.CodeCorpusConfig{Python: bench.BaselinePython(python, noPython), CellTimeout: timeout, Cells: cells})
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), rep)
			}
			return bench.WriteCodeCorpus(cmd.OutOrStdout(), rep)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&asJSON, "json", false, "print the report as JSON")
	fl.StringVar(&python, "python", "", "CPython interpreter of the baseline (default: python3 on PATH)")
	fl.BoolVar(&noPython, "no-python", false, "skip the CPython baseline (the share is then over all cells)")
	fl.BoolVar(&cells, "cells", false, "include per-cell results in the JSON report")
	fl.DurationVar(&timeout, "timeout", 10*time.Second, "wall time per cell, in both interpreters")
	return cmd
}
