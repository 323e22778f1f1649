package bench

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/textcut"
	"github.com/rlm-go/rlm/repl"
)

// KindInvalidCorpus: the code corpus file cannot be read or decoded.
const KindInvalidCorpus fault.Kind = "invalid_corpus"

// CodeCell is one model-written cell of a code corpus.
type CodeCell struct {
	ID   string `json:"id"`
	Code string `json:"code"`
	Traj string `json:"traj,omitempty"` // cells of one trajectory share an interpreter, in Step order
	Step int    `json:"step,omitempty"`
}

// CodeCorpusConfig configures RunCodeCorpus.
type CodeCorpusConfig struct {
	Python      string        // CPython interpreter for the baseline; "" skips the baseline
	CellTimeout time.Duration // per cell, both interpreters (default 10s)
	Cells       bool          // keep per-cell results in the report
}

// BaselinePython is the CPython interpreter of the baseline: python, or
// python3 on PATH when python is "" (none found: ""); "" when skip.
func BaselinePython(python string, skip bool) string {
	if skip {
		return ""
	}
	if python == "" {
		if p, err := exec.LookPath("python3"); err == nil {
			python = p
		}
	}
	return python
}

// CellResult is one cell's outcome in both interpreters.
type CellResult struct {
	ID         string `json:"id"`
	CPythonOK  *bool  `json:"cpython_ok,omitempty"`
	CPythonErr string `json:"cpython_error,omitempty"`
	CodeOK     bool   `json:"code_ok"`
	CodeErr    string `json:"code_error,omitempty"`
	// StrOK is whether the cell runs with context bound to a plain str
	// instead of the context object.
	StrOK bool `json:"str_ok"`
	// When both run and their stdout differs: each one's stdout.
	CPythonStdout string `json:"cpython_stdout,omitempty"`
	CodeStdout    string `json:"code_stdout,omitempty"`
}

// CauseCount counts the code-mode failures of one cause.
type CauseCount struct {
	Cause string   `json:"cause"`
	Count int      `json:"count"`
	Cells []string `json:"cells"`
}

// CodeCorpusReport is the compatibility figure of code mode on a corpus.
type CodeCorpusReport struct {
	Cells        int     `json:"cells"`
	Trajectories int     `json:"trajectories"`
	Baseline     string  `json:"baseline"`   // "cpython" or "none"
	CPythonOK    int     `json:"cpython_ok"` // cells that run in CPython
	CodeOK       int     `json:"code_ok"`    // cells that run in code mode
	BothOK       int     `json:"both_ok"`    // CPython-running cells that also run in code mode
	Share        float64 `json:"share"`      // BothOK / CPythonOK (CodeOK / Cells without a baseline)
	// SameOutput counts the CPython-running cells code mode runs with
	// exactly CPython's stdout; SameShare is SameOutput / CPythonOK.
	SameOutput int      `json:"same_output"`
	SameShare  float64  `json:"same_share"`
	OutputDiff []string `json:"output_differs,omitempty"` // ids of cells that run in both with different stdout
	// CPythonFail counts the cells CPython raises on; SameError those code
	// mode raises the same exception on (class name and message).
	CPythonFail int `json:"cpython_fail"`
	SameError   int `json:"same_error"`
	// The same figures with context bound to a plain str (the stub earlier
	// versions measured) instead of the context object users get.
	StrCodeOK int          `json:"str_code_ok"`
	StrBothOK int          `json:"str_both_ok"`
	StrShare  float64      `json:"str_share"`
	Failures  []CauseCount `json:"failures"` // causes among the CPython-running cells code mode fails
	Results   []CellResult `json:"results,omitempty"`
}

// ReadCodeCorpus reads a corpus file: a JSON list of {id, code, traj, step, ...}.
func ReadCodeCorpus(path string) ([]CodeCell, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fault.Wrap(err, fault.PhaseConfig, KindInvalidCorpus, "cannot read the code corpus").With("path", path)
	}
	var cells []CodeCell
	if err := json.Unmarshal(raw, &cells); err != nil {
		return nil, fault.Wrap(err, fault.PhaseConfig, KindInvalidCorpus, "the code corpus is not a JSON list of {id, code, ...}").
			With("path", path).WithHint("each element needs \"id\" and \"code\"; \"traj\" and \"step\" group cells of one trajectory")
	}
	return cells, nil
}

// trajectories groups cells by Traj (a cell without one is its own
// trajectory), each in Step order, trajectories in name order.
func trajectories(cells []CodeCell) [][]CodeCell {
	by := map[string][]CodeCell{}
	for _, c := range cells {
		key := c.Traj
		if key == "" {
			key = "\x00" + c.ID
		}
		by[key] = append(by[key], c)
	}
	keys := make([]string, 0, len(by))
	for k := range by {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([][]CodeCell, 0, len(keys))
	for _, k := range keys {
		t := by[k]
		sort.SliceStable(t, func(i, j int) bool {
			if t[i].Step != t[j].Step {
				return t[i].Step < t[j].Step
			}
			return t[i].ID < t[j].ID
		})
		out = append(out, t)
	}
	return out
}

// Placeholder is what the stubbed llm_query and rlm_query return.
const Placeholder = "[placeholder sub-model answer]"

// CorpusContext is the stub `context` both interpreters see: a deterministic
// text of about 200 KB of dated, numbered, labelled lines.
func CorpusContext() string {
	var b strings.Builder
	labels := []string{"alpha", "beta", "gamma", "delta", "epsilon"}
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&b, "[2024-%02d-%02d] user_%d (%s): item %d costs $%d.%02d; see section %d. The quick brown fox jumps over the lazy dog.\n",
			1+i%12, 1+i%28, i%97, labels[i%len(labels)], i, (i*37)%500, (i*13)%100, i%40)
	}
	return b.String()
}

//go:embed codecorpus_driver.py
var cpythonDriver string

// RunCodeCorpus runs every cell in code mode and, when cfg.Python is set, in
// CPython as the baseline, with the same stubs (llm_query,
// llm_query_batched, rlm_query, rlm_query_batched return Placeholder;
// context and context_0 are CorpusContext(); history is []; FINAL,
// FINAL_VAR and SHOW_VARS are the code-mode ones or equivalent stubs).
// Cells of one trajectory run in one interpreter, in order, in both.
func RunCodeCorpus(ctx context.Context, cells []CodeCell, cfg CodeCorpusConfig) (*CodeCorpusReport, error) {
	if cfg.CellTimeout <= 0 {
		cfg.CellTimeout = 10 * time.Second
	}
	trajs := trajectories(cells)
	text := CorpusContext()
	rep := &CodeCorpusReport{Cells: len(cells), Trajectories: len(trajs), Baseline: "none"}

	var base []pyResult // in trajectory order, cell order: ids need not be unique
	var envs [][]string
	if cfg.Python != "" {
		var err error
		if base, envs, err = runCPython(ctx, cfg.Python, trajs, text, cfg.CellTimeout); err != nil {
			return nil, err
		}
		rep.Baseline = "cpython"
	}

	causes := map[string]*CauseCount{}
	store := corpus.NewStore()
	defer store.Close()
	h, err := store.AddString("context", text)
	if err != nil {
		return nil, err
	}
	ctxObj := storeText{store: store, h: h, name: "context"}
	// Each trajectory runs twice: with the context object users get, and
	// with context bound to a plain str.
	strOK := make([]bool, 0, len(cells))
	for pass := 0; pass < 2; pass++ {
		k := -1 // index of the cell in base
		for ti, t := range trajs {
			host := stubHost()
			if pass == 0 {
				host["context"], host["context_0"] = ctxObj, storeText{store: store, h: h, name: "context_0"}
			} else {
				host["context"], host["context_0"] = text, text
			}
			if envs != nil {
				for _, name := range envs[ti] {
					if _, ok := host[name]; !ok && !repl.IsStandard(name) {
						host[name] = repl.Stub{}
					}
				}
			}
			it, err := repl.New(repl.Config{CellTimeout: cfg.CellTimeout}, host)
			if err != nil {
				return nil, err
			}
			for _, c := range t {
				k++
				o, err := it.Exec(ctx, c.Code)
				if err != nil {
					it.Close()
					return nil, err
				}
				ok := o.Exception == nil
				cpyOK := base == nil || base[k].OK
				if pass == 1 {
					strOK = append(strOK, ok)
					if ok {
						rep.StrCodeOK++
						if base != nil && base[k].OK {
							rep.StrBothOK++
						}
					}
					continue
				}
				r := CellResult{ID: c.ID, CodeOK: ok}
				if o.Exception != nil {
					r.CodeErr = o.Exception.Type + ": " + o.Exception.Message
				}
				if r.CodeOK {
					rep.CodeOK++
				}
				if base != nil {
					b := base[k]
					ok := b.OK
					r.CPythonOK = &ok
					if !ok {
						r.CPythonErr = b.Type + ": " + b.Message
						rep.CPythonFail++
						if e := o.Exception; e != nil && b.Type == e.Type[strings.LastIndexByte(e.Type, '.')+1:] && b.Message == firstRunes(e.Message, 300) {
							rep.SameError++
						}
					}
					if ok {
						rep.CPythonOK++
						if r.CodeOK {
							rep.BothOK++
							// Past the output bound code mode cuts stdout (and
							// says so): the part it printed must be CPython's.
							if o.Stdout == b.Stdout || (o.CutBytes > 0 && strings.HasPrefix(b.Stdout, o.Stdout)) {
								rep.SameOutput++
							} else {
								rep.OutputDiff = append(rep.OutputDiff, c.ID)
								r.CPythonStdout, r.CodeStdout = b.Stdout, o.Stdout
							}
						}
					}
				}
				if !r.CodeOK && cpyOK {
					key := cause(o.Exception)
					cc := causes[key]
					if cc == nil {
						cc = &CauseCount{Cause: key}
						causes[key] = cc
					}
					cc.Count++
					cc.Cells = append(cc.Cells, c.ID)
				}
				rep.Results = append(rep.Results, r)
			}
			it.Close()
		}
	}
	for i := range rep.Results {
		rep.Results[i].StrOK = strOK[i]
	}
	if !cfg.Cells {
		rep.Results = nil
	}
	if base != nil {
		if rep.CPythonOK > 0 {
			rep.Share = float64(rep.BothOK) / float64(rep.CPythonOK)
			rep.SameShare = float64(rep.SameOutput) / float64(rep.CPythonOK)
			rep.StrShare = float64(rep.StrBothOK) / float64(rep.CPythonOK)
		}
	} else if rep.Cells > 0 {
		rep.Share = float64(rep.CodeOK) / float64(rep.Cells)
		rep.StrShare = float64(rep.StrCodeOK) / float64(rep.Cells)
	}
	rep.Failures = []CauseCount{}
	for _, cc := range causes {
		rep.Failures = append(rep.Failures, *cc)
	}
	sort.Slice(rep.Failures, func(i, j int) bool {
		a, b := rep.Failures[i], rep.Failures[j]
		if a.Count != b.Count {
			return a.Count > b.Count
		}
		return a.Cause < b.Cause
	})
	return rep, nil
}

var (
	quotedRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"[^"]*"|'[^']*'|\x60[^\x60]*\x60`) })
	numberRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b\d+\b`) })
)

// cause classes an exception: its type and its message with names and numbers elided.
func cause(e *repl.Exception) string {
	if e == nil {
		return "ok"
	}
	m := quotedRe().ReplaceAllString(e.Message, "…")
	m = numberRe().ReplaceAllString(m, "N")
	if i := strings.Index(m, "undefined: "); i == 0 {
		m = "undefined: NAME"
	}
	m = textcut.Prefix(m, 80)
	return e.Type + ": " + m
}

func stubHost() map[string]any {
	one := repl.Builtin(func(*repl.Call) (any, error) { return Placeholder, nil })
	batch := repl.Builtin(func(c *repl.Call) (any, error) {
		if len(c.Args) == 0 {
			return nil, repl.Raise("TypeError", "%s() missing the prompts argument", c.Name)
		}
		l, _ := c.Args[0].([]any)
		out := make([]any, len(l))
		for i := range out {
			out[i] = Placeholder
		}
		return out, nil
	})
	return map[string]any{
		"history":           []any{},
		"llm_query":         one,
		"rlm_query":         one,
		"llm_query_batched": batch,
		"rlm_query_batched": batch,
	}
}

// storeText is the corpus's context as code mode sees it: a repl.Text over
// a context store handle (the engine's context object minus budgets and
// tracing).
type storeText struct {
	store *corpus.Store
	h     corpus.Handle
	name  string
}

func (s storeText) Size() int64 {
	b, release, err := s.store.Bytes(s.h)
	if err != nil {
		return 0
	}
	defer release()
	return int64(len(b))
}

func (s storeText) Name() string { return s.name }

func (s storeText) View(ctx context.Context, _ string, f func(b []byte) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.store.View(s.h, f)
}

type pyResult struct {
	ID      string `json:"id"`
	OK      bool   `json:"ok"`
	Type    string `json:"type"`
	Message string `json:"message"`
	Stdout  string `json:"stdout"`
}

// runCPython runs the trajectories in one CPython subprocess (the driver
// script), each trajectory in a fresh globals dict, with a per-cell alarm.
func runCPython(ctx context.Context, python string, trajs [][]CodeCell, text string, timeout time.Duration) ([]pyResult, [][]string, error) {
	req := map[string]any{"context": text, "timeout": timeout.Seconds(), "placeholder": Placeholder, "trajectories": trajs}
	in, err := json.Marshal(req)
	if err != nil {
		return nil, nil, fault.Wrap(err, fault.PhaseExecute, fault.KindInternal, "cannot encode the corpus for CPython")
	}
	n := 0
	for _, t := range trajs {
		n += len(t)
	}
	cctx, cancel := context.WithTimeout(ctx, time.Duration(n+1)*timeout+30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(cctx, python, "-c", cpythonDriver)
	cmd.Stdin = bytes.NewReader(in)
	var out, stderr bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &stderr
	cmd.Env = []string{"PYTHONHASHSEED=0", "PYTHONDONTWRITEBYTECODE=1"}
	if err := cmd.Run(); err != nil {
		return nil, nil, fault.Wrap(err, fault.PhaseExecute, fault.KindInternal, "the CPython baseline failed").
			With("python", python).With("stderr", lastLines(stderr.String(), 5)).
			WithHint("pass --python with a working python3, or --no-python to skip the baseline")
	}
	var res struct {
		Results []pyResult `json:"results"`
		Env     [][]string `json:"env"`
	}
	if err := json.NewDecoder(io.LimitReader(&out, 64<<20)).Decode(&res); err != nil || len(res.Env) != len(trajs) || len(res.Results) != n {
		return nil, nil, fault.Wrap(err, fault.PhaseExecute, fault.KindMalformed, "the CPython baseline printed no results")
	}
	return res.Results, res.Env, nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// WriteCodeCorpus prints the report as text.
func WriteCodeCorpus(w io.Writer, r *CodeCorpusReport) error {
	var b strings.Builder
	fmt.Fprintf(&b, "cells: %d in %d trajectories (a trajectory's cells share one interpreter, in order)\n", r.Cells, r.Trajectories)
	if r.Baseline == "cpython" {
		fmt.Fprintf(&b, "CPython runs %d cells; code mode runs %d of them unchanged: %.1f%% (with context as a plain str: %d, %.1f%%)\n", r.CPythonOK, r.BothOK, 100*r.Share, r.StrBothOK, 100*r.StrShare)
		fmt.Fprintf(&b, "of those, %d print exactly what CPython prints: %.1f%% of the cells CPython runs\n", r.SameOutput, 100*r.SameShare)
		if n := len(r.OutputDiff); n > 0 {
			ids, more := r.OutputDiff, ""
			if n > 8 {
				ids, more = ids[:8], fmt.Sprintf(" +%d", n-8)
			}
			fmt.Fprintf(&b, "  output differs: [%s%s]\n", strings.Join(ids, " "), more)
		}
		fmt.Fprintf(&b, "CPython raises on %d cells; code mode raises the same exception (class and message) on %d\n", r.CPythonFail, r.SameError)
		fmt.Fprintf(&b, "code mode runs %d cells in all (with context as a plain str: %d)\n", r.CodeOK, r.StrCodeOK)
	} else {
		fmt.Fprintf(&b, "no CPython baseline: code mode runs %d of %d cells: %.1f%% (with context as a plain str: %d, %.1f%%)\n", r.CodeOK, r.Cells, 100*r.Share, r.StrCodeOK, 100*r.StrShare)
	}
	if len(r.Failures) > 0 {
		b.WriteString("failures by cause:\n")
		for _, f := range r.Failures {
			ids := f.Cells
			more := ""
			if len(ids) > 5 {
				ids, more = ids[:5], fmt.Sprintf(" +%d", len(f.Cells)-5)
			}
			fmt.Fprintf(&b, "  %4d  %s  [%s%s]\n", f.Count, f.Cause, strings.Join(ids, " "), more)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// firstRunes is s[:n] in Python: the first n code points.
func firstRunes(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}
