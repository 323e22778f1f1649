// Package repl is code mode's interpreter: a sandboxed, budgeted, persistent
// interpreter for model-written Python-style code, built on go.starlark.net
// plus a source-level translation layer (repl/internal/translate) and an
// AST rewrite that routes size-amplifying operations through checked
// builtins.
//
// Nothing the model writes reaches the host except through the predeclared
// builtins: the interpreter has no file system, network, environment, clock
// or randomness. See docs/code.md for the contract, the builtins, the bounds
// and the differences from CPython.
package repl

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/fingerprint"
	"github.com/rlm-go/rlm/repl/internal/pymod"
	"github.com/rlm-go/rlm/repl/internal/translate"
)

// Defaults for the zero fields of Config.
const (
	DefaultMaxCellSteps   uint64        = 50_000_000
	DefaultMaxTotalSteps  uint64        = 500_000_000
	DefaultCellTimeout    time.Duration = 60 * time.Second
	DefaultMaxOutputBytes int           = 64 << 10
	DefaultMaxValueBytes  int64         = 64 << 20
	DefaultMaxRecursion   int           = 200
)

// Error kinds produced by package repl.
const (
	// KindStepBudget: the interpreter's lifetime step budget (MaxTotalSteps) is spent.
	KindStepBudget fault.Kind = "step_budget_exhausted"
)

// Config bounds one interpreter. Zero fields take the Default* constants.
type Config struct {
	MaxCellSteps   uint64        // Starlark steps per cell
	MaxTotalSteps  uint64        // steps over the interpreter's lifetime
	CellTimeout    time.Duration // wall time per cell
	MaxOutputBytes int           // captured stdout per cell kept; the rest is cut and counted
	MaxValueBytes  int64         // memory bound: largest string/list/dict a cell may build, approx bytes
	MaxRecursion   int           // call depth bound
}

func (c Config) withDefaults() Config {
	if c.MaxCellSteps == 0 {
		c.MaxCellSteps = DefaultMaxCellSteps
	}
	if c.MaxTotalSteps == 0 {
		c.MaxTotalSteps = DefaultMaxTotalSteps
	}
	if c.CellTimeout <= 0 {
		c.CellTimeout = DefaultCellTimeout
	}
	if c.MaxOutputBytes <= 0 {
		c.MaxOutputBytes = DefaultMaxOutputBytes
	}
	if c.MaxValueBytes <= 0 {
		c.MaxValueBytes = DefaultMaxValueBytes
	}
	if c.MaxRecursion <= 0 {
		c.MaxRecursion = DefaultMaxRecursion
	}
	return c
}

// Outcome reports what one Exec did.
type Outcome struct {
	Stdout      string     // bounded by MaxOutputBytes
	CutBytes    int        // bytes of stdout dropped
	Exception   *Exception // nil when the cell ran to the end (or to a finishing call)
	Final       *Final     // set when the cell finished the run
	Steps       uint64     // Starlark steps the cell used
	Translated  bool       // the source needed translation
	Fingerprint string     // sha256 of the source
}

// Exception is an error in the model's code, reported back to the model.
type Exception struct {
	Type    string // Python-ish type name: NameError, TypeError, SyntaxError, StepLimitExceeded, MemoryError, TimeoutError, ...
	Message string
	Line    int // line in the model's original source (0 if unknown)
}

// String renders the exception the way a Python traceback's last line does.
func (e *Exception) String() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s: %s (line %d)", e.Type, e.Message, e.Line)
	}
	return e.Type + ": " + e.Message
}

// Final is the value a cell finished the run with, as a Go value: nil, bool,
// int64 (or *big.Int rendered as string when it does not fit), float64,
// string, []any, map[string]any.
type Final struct{ Value any }

// Var describes one user global.
type Var struct{ Name, Type, Preview string }

// Interp is one persistent interpreter (one per completion loop). Globals
// survive across Exec calls. Not safe for concurrent Exec; builtins it calls
// may run goroutines.
type Interp struct {
	cfg        Config
	globals    starlark.StringDict
	predecl    map[string]bool // standard and host names: hidden from Vars
	random     starlark.Value  // this interpreter's random module
	totalSteps uint64
	running    *starlark.Thread // the cell thread while Exec runs
}

// New returns an interpreter whose predeclared names are the standard ones of
// code mode plus host. A host name that collides with a standard name is an
// error (host builtins override nothing standard).
func New(cfg Config, host starlark.StringDict) (*Interp, error) {
	it := &Interp{cfg: cfg.withDefaults(), globals: starlark.StringDict{}, predecl: map[string]bool{}}
	for name, v := range standard() {
		it.globals[name] = v
		it.predecl[name] = true
	}
	it.random = it.globals["random"]
	for _, name := range sortedKeys(host) {
		if it.predecl[name] {
			return nil, fault.Newf(fault.PhaseConfig, fault.KindInvalid, "host builtin %q collides with a standard code-mode name", name).
				With("name", name)
		}
		it.globals[name] = host[name]
		it.predecl[name] = true
	}
	return it, nil
}

var (
	standardOnce sync.Once
	standardSet  map[string]bool
)

// standardNames returns the set of standard names, built on first use,
// not at start-up.
func standardNames() map[string]bool {
	standardOnce.Do(func() {
		standardSet = map[string]bool{}
		for k := range standard() {
			standardSet[k] = true
		}
	})
	return standardSet
}

// IsStandard reports whether name is one of code mode's standard predeclared
// names (a host builtin may not use it).
func IsStandard(name string) bool { return standardNames()[name] }

// Set binds a global (used by the host for context_0..N, history, ...). A
// name bound by Set is host-owned: it is hidden from Vars.
func (it *Interp) Set(name string, v starlark.Value) {
	it.globals[name] = v
	it.predecl[name] = true
}

// Get returns a global's current value, or nil.
func (it *Interp) Get(name string) starlark.Value { return it.globals[name] }

// Vars lists the user globals (not predeclared, not starting with "_"),
// sorted by name, with a type name and a bounded preview.
func (it *Interp) Vars() []Var {
	var out []Var
	for _, name := range sortedKeys(it.globals) {
		if it.predecl[name] || strings.HasPrefix(name, "_") {
			continue
		}
		v := it.globals[name]
		out = append(out, Var{Name: name, Type: pyType(v), Preview: preview(v, 80)})
	}
	return out
}

// TotalSteps reports the steps used over the interpreter's lifetime.
func (it *Interp) TotalSteps() uint64 { return it.totalSteps }

var fileOptions = &syntax.FileOptions{Set: true, While: true, TopLevelControl: true, GlobalReassign: true, Recursion: true}

// cell is the per-Exec state reachable from builtins through the thread.
type cell struct {
	it      *Interp
	out     strings.Builder
	cut     int
	final   *Final
	fatal   error
	stop    atomic.Pointer[stopReason] // why the watchdog cancelled the thread
	lineMap []int
	maxVal  int64
	maxRec  int
	ctx     context.Context
	cancel  context.CancelFunc
}

// Context returns the context of the running cell, for host builtins: it is
// done when Exec's ctx is, and as soon as the cell is stopped (wall time,
// memory bound). Outside a cell it returns context.Background().
func Context(thread *starlark.Thread) context.Context {
	if c := cellOf(thread); c != nil && c.ctx != nil {
		return c.ctx
	}
	if ctx, ok := thread.Local(ctxKey).(context.Context); ok {
		return ctx
	}
	return context.Background()
}

const ctxKey = "rlm.repl.ctx"

// BindContext makes ctx what Context returns for a thread that runs host
// builtins outside a cell of this package (another interpreter calling
// the same builtins, such as repl/pyodide's bridge).
func BindContext(thread *starlark.Thread, ctx context.Context) {
	thread.SetLocal(ctxKey, ctx)
}

type stopReason struct {
	kind string // "ctx", "timeout", "memory"
	err  error
}

const cellKey = "rlm.repl.cell"

func cellOf(thread *starlark.Thread) *cell {
	c, _ := thread.Local(cellKey).(*cell)
	return c
}

func (c *cell) write(s string) {
	room := c.it.cfg.MaxOutputBytes - c.out.Len()
	if room >= len(s) {
		c.out.WriteString(s)
		return
	}
	if room > 0 {
		cutAt := room
		for cutAt > 0 && !utf8Start(s[cutAt]) {
			cutAt--
		}
		c.out.WriteString(s[:cutAt])
		c.cut += len(s) - cutAt
		return
	}
	c.cut += len(s)
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// Print writes s and a newline (unless s already ends with one) to the
// running cell's stdout. Host builtins use it to report to the model.
func Print(thread *starlark.Thread, s string) {
	c := cellOf(thread)
	if c == nil {
		return
	}
	if !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	c.write(s)
}

// errFinish is returned by FINAL/FINAL_VAR to stop the thread after a finishing call.
var errFinish = errors.New("finished")

// Exec translates src to Starlark, runs it with the interpreter's globals and
// reports what happened. An exception in the model's code is Outcome.Exception,
// not an error. err != nil only when the run must stop: ctx cancelled or past
// its deadline (fault kinds cancelled/timeout), the lifetime step budget spent
// (KindStepBudget), or a host builtin returned an error marked with Fatal
// (returned unchanged). Partial stdout is still in the Outcome.
func (it *Interp) Exec(ctx context.Context, src string) (*Outcome, error) {
	o := &Outcome{Fingerprint: fingerprint.Bytes([]byte(src))}
	if err := ctx.Err(); err != nil {
		return o, fault.FromContext(fault.PhaseExecute, err)
	}
	if it.totalSteps >= it.cfg.MaxTotalSteps {
		return o, stepBudgetError(it.cfg.MaxTotalSteps)
	}
	tr, terr := translate.Translate(src)
	if terr != nil {
		// The translator could not read it: let the Starlark parser report
		// the syntax error on the original source.
		tr = translate.Result{Source: src}
	}
	o.Translated = tr.Changed
	c := &cell{it: it, lineMap: tr.LineMap, maxVal: it.cfg.MaxValueBytes, maxRec: it.cfg.MaxRecursion}

	f, err := fileOptions.Parse("cell", tr.Source, 0)
	if err != nil {
		o.Exception = c.exception(err)
		if terr != nil && o.Exception.Line == 0 {
			o.Exception.Message = terr.Error()
		}
		return o, nil
	}
	rewrite(f)

	thread := &starlark.Thread{Name: "cell", Print: func(_ *starlark.Thread, msg string) { c.write(msg + "\n") }}
	thread.SetLocal(cellKey, c)
	thread.SetLocal(pymod.LimitKey, c.maxVal)
	thread.SetLocal(pymod.RunningKey, func() *starlark.Thread { return it.running })
	it.running = thread
	defer func() { it.running = nil }()
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	c.ctx, c.cancel = cctx, cancel
	thread.SetLocal(pymod.DoneKey, cctx)
	budget := it.cfg.MaxCellSteps
	if rest := it.cfg.MaxTotalSteps - it.totalSteps; rest < budget {
		budget = rest
	}
	thread.SetMaxExecutionSteps(budget)

	prevAnswer := it.globals["answer"]
	_, prevReady := answerDict(prevAnswer)

	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		watch(ctx, thread, c, it.cfg.CellTimeout, done)
	}()
	runErr := execChunk(f, thread, it.globals)
	close(done)
	wg.Wait()

	o.Steps = thread.ExecutionSteps()
	it.totalSteps += o.Steps
	o.Stdout, o.CutBytes = c.out.String(), c.cut

	if r := c.stop.Load(); r != nil {
		switch r.kind {
		case "ctx":
			return o, fault.FromContext(fault.PhaseExecute, r.err)
		case "timeout":
			o.Exception = &Exception{Type: "TimeoutError", Message: fmt.Sprintf("cell exceeded its wall-time limit of %s", it.cfg.CellTimeout), Line: c.line(runErr)}
			return o, nil
		case "memory":
			o.Exception = &Exception{Type: "MemoryError", Message: r.err.Error(), Line: c.line(runErr)}
			return o, nil
		}
	}
	if c.fatal != nil {
		return o, c.fatal
	}
	var fe *fatalError
	if errors.As(runErr, &fe) {
		return o, fe.err
	}
	if c.final != nil {
		o.Final = c.final
		return o, nil
	}
	if runErr != nil {
		if o.Steps >= budget && strings.Contains(runErr.Error(), "too many steps") {
			if it.totalSteps >= it.cfg.MaxTotalSteps && budget < it.cfg.MaxCellSteps {
				return o, stepBudgetError(it.cfg.MaxTotalSteps)
			}
			o.Exception = &Exception{Type: "StepLimitExceeded", Message: fmt.Sprintf("cell exceeded its limit of %d steps", budget), Line: c.line(runErr)}
			return o, nil
		}
		o.Exception = c.exception(runErr)
		return o, nil
	}
	// The answer-dict convention, checked at the end of the cell; an answer
	// left ready by an earlier cell (a session's previous query) does not
	// finish again unless this cell rebinds it.
	if fin, ok := answerDict(it.globals["answer"]); ok && !(prevReady && it.globals["answer"] == prevAnswer) {
		o.Final = fin
	}
	return o, nil
}

func stepBudgetError(total uint64) error {
	return fault.Newf(fault.PhaseBudget, KindStepBudget, "code mode used its %d interpreter steps", total).
		With("max_total_steps", total).
		WithHint("raise the step budget or make the model's code do less work per run")
}

// execChunk runs one cell against the persistent globals. ExecREPLChunk
// neither freezes the globals nor forgets them between cells.
func execChunk(f *syntax.File, thread *starlark.Thread, globals starlark.StringDict) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &pyError{Type: "SystemError", Msg: fmt.Sprint(r)}
		}
	}()
	return starlark.ExecREPLChunk(f, thread, globals)
}

func answerDict(v starlark.Value) (*Final, bool) {
	d, ok := v.(*starlark.Dict)
	if !ok {
		return nil, false
	}
	ready, found, _ := d.Get(starlark.String("ready"))
	if !found || ready != starlark.True {
		return nil, false
	}
	content, found, _ := d.Get(starlark.String("content"))
	if !found {
		return nil, false
	}
	g, err := ToGo(content)
	if err != nil {
		g = str(content)
	}
	return &Final{Value: g}, true
}

// line finds the innermost position of err inside the cell, mapped to the
// model's source.
func (c *cell) line(err error) int {
	var ee *starlark.EvalError
	if errors.As(err, &ee) {
		for i := len(ee.CallStack) - 1; i >= 0; i-- {
			if p := ee.CallStack[i].Pos; p.Filename() == "cell" && p.Line > 0 {
				return c.mapLine(int(p.Line))
			}
		}
	}
	var se syntax.Error
	if errors.As(err, &se) {
		return c.mapLine(int(se.Pos.Line))
	}
	return 0
}

func (c *cell) mapLine(l int) int {
	if l >= 1 && l <= len(c.lineMap) && c.lineMap[l-1] > 0 {
		return c.lineMap[l-1]
	}
	return l
}

func sortedKeys(d starlark.StringDict) []string {
	keys := make([]string, 0, len(d))
	for k := range d {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
