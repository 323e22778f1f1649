package main

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"os/exec"
	"time"

	"github.com/rlm-go/rlm/bench"
	"github.com/rlm-go/rlm/console"
	"github.com/rlm-go/rlm/fault"
)

func newBenchCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Long-context benchmarks (RLM vs direct) and the engine conformance suite",
		Long: `Benchmarks with known answers over generated long contexts, and a deterministic
conformance suite of the engine. See docs/bench.md.`,
	}
	cmd.AddCommand(newBenchRunCmd(), newBenchConformanceCmd(), newBenchCodeCorpusCmd())
	return cmd
}

func newBenchRunCmd() *cobra.Command {
	var (
		pf             providerFlags
		bf             budgetFlags
		task, size     string
		runs           int
		seed           uint64
		directMaxBytes int
		methods        []string
		asJSON         bool
	)
	cmd := &cobra.Command{
		Use:   "run --task niah|aggregate|pairs [flags]",
		Short: "Compare the RLM with one direct call on generated tasks with known answers",
		Long: `Generate --runs task instances of about --size bytes (instance i uses seed
--seed+i), answer each with the RLM engine and with one direct call holding the
whole input (skipped when the input exceeds --direct-max-bytes), score the
answers, and print accuracy, cost, tokens and latency per method.

With --replay the figures come from recorded or scripted responses: they prove
that the harness works, not how good a model is, and the output says so.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			kind, err := bench.ParseKind(task)
			if err != nil {
				return err
			}
			n, err := bench.ParseSize(size)
			if err != nil {
				return err
			}
			var ms []bench.Method
			for _, m := range methods {
				ms = append(ms, bench.Method(m))
			}
			st := console.NewStatus(cmd.ErrOrStderr(), !asJSON && console.IsTerminal(cmd.ErrOrStderr()))
			sess, err := pf.open(st)
			if err != nil {
				return err
			}
			defer sess.Close()
			rep, runErr := bench.Run(cmd.Context(), bench.Config{
				Task: kind, Size: n, Runs: runs, Seed: seed,
				Provider: sess.provider, Model: pf.model, SubModel: pf.subModel,
				Limits: bf.lim, ExperimentalDeepRecursion: bf.deep,
				DirectMaxBytes: directMaxBytes, Methods: ms, Replayed: pf.replay != "",
			})
			st.Stop()
			// The report is printed before a --record error is reported.
			outErr := sess.Close()
			if runErr != nil && rep == nil {
				return afterResult(cmd.OutOrStdout(), cmd.ErrOrStderr(), runErr, outErr)
			}
			// The report is printed whatever happened, an interruption
			// included (the trials that ran were paid for); stdout then
			// holds it, so errors go to stderr.
			if asJSON {
				err = writeJSON(cmd.OutOrStdout(), rep)
			} else {
				err = bench.WriteTable(cmd.OutOrStdout(), rep)
			}
			if err != nil {
				return err
			}
			last := runErr // an interruption exits 130 (run)
			if last == nil {
				last = allTrialsFailed(rep)
			}
			failed := false
			for _, err := range []error{outErr, last} {
				if err != nil {
					reportError(cmd.OutOrStdout(), cmd.ErrOrStderr(), err, false)
					failed = true
				}
			}
			if failed {
				return exitError{code: 1}
			}
			return nil
		},
	}
	pf.register(cmd)
	bf.register(cmd)
	fl := cmd.Flags()
	fl.StringVar(&task, "task", "", "task family: niah, aggregate or pairs (required)")
	fl.StringVar(&size, "size", "100k", "context size in bytes (suffixes k, m, ki, mi)")
	fl.IntVar(&runs, "runs", bench.DefaultRuns, "task instances per method")
	fl.Uint64Var(&seed, "seed", 1, "seed of the first instance")
	fl.IntVar(&directMaxBytes, "direct-max-bytes", bench.DefaultDirectMaxBytes, "largest context the direct method sends in one prompt; larger ones are skipped (negative: no limit)")
	fl.StringSliceVar(&methods, "methods", []string{string(bench.MethodRLM), string(bench.MethodDirect)}, "methods to run: rlm (plan mode), rlm-code (code mode), direct")
	fl.BoolVar(&asJSON, "json", false, "print the report as JSON")
	_ = cmd.MarkFlagRequired("task")
	return cmd
}

// kindAllTrialsFailed: bench run attempted trials and none succeeded.
const kindAllTrialsFailed fault.Kind = "all_trials_failed"

// allTrialsFailed returns an error (exit status 1, after the report) when
// trials were attempted and every one failed, naming the first failure.
func allTrialsFailed(rep *bench.Report) error {
	var first *bench.Trial
	for i, tr := range rep.Trials {
		switch tr.Status {
		case bench.StatusOK:
			return nil
		case bench.StatusFailed:
			if first == nil {
				first = &rep.Trials[i]
			}
		}
	}
	if first == nil {
		return nil // nothing attempted: every trial was skipped
	}
	e := fault.New(fault.PhaseExecute, kindAllTrialsFailed, "every attempted trial failed").
		With("first_method", string(first.Method)).With("first_run", first.Run).
		WithHint("the report lists each trial's error; check the provider flags (--base-url, --model, the API key) or the cassette")
	if first.Error != nil {
		e.With("first_kind", string(first.Error.Kind)).With("first_phase", string(first.Error.Phase))
	}
	return e
}

func newBenchConformanceCmd() *cobra.Command {
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
			names := bench.ConformanceCaseNames()
			for _, c := range cases {
				if !slices.Contains(names, c) {
					return fault.New(fault.PhaseConfig, bench.KindInvalidTask, "unknown conformance case").With("case", c).With("cases", strings.Join(names, ","))
				}
			}
			var filter func(string) bool
			if len(cases) > 0 {
				filter = func(n string) bool { return slices.Contains(cases, n) }
			}
			rep := bench.Conformance(cmd.Context(), filter)
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
				var b bytes.Buffer
				if err := writeJSON(&b, rep); err != nil {
					return err
				}
				if err := os.WriteFile(report, b.Bytes(), 0o644); err != nil {
					return fault.Wrap(err, fault.PhaseConfig, fault.KindIO, "cannot write the report").With("path", report)
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

func newBenchCodeCorpusCmd() *cobra.Command {
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
			if !noPython && python == "" {
				if p, err := exec.LookPath("python3"); err == nil {
					python = p
				}
			}
			if noPython {
				python = ""
			}
			rep, err := bench.RunCodeCorpus(cmd.Context(), corpus, bench.CodeCorpusConfig{Python: python, CellTimeout: timeout, Cells: cells})
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
