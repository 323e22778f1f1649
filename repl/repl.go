// Package repl is code mode's interpreter: a sandboxed, budgeted,
// persistent Python 3.12 interpreter for model-written code, written in Go
// (package repl/internal/python). Every construct either behaves exactly
// as CPython 3.12 does or raises NotImplementedError naming what is not
// supported and what to write instead.
//
// Nothing the model writes reaches the host except through the predeclared
// host builtins: the interpreter has no file system, network, environment,
// clock or entropy. Host builtins are plain Go functions over JSON-like
// values (see Builtin), and the host's texts (the context) are str values
// backed by the host (see Text). See docs/code.md for the contract, the
// builtins, the bounds and the refusals.
package repl

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/fingerprint"
	"github.com/rlm-go/rlm/repl/internal/python"
	"github.com/rlm-go/rlm/repl/internal/python/pyfmt"
)

// Defaults for the zero fields of Config.
const (
	DefaultMaxCellSteps   uint64        = 50_000_000
	DefaultMaxTotalSteps  uint64        = 500_000_000
	DefaultCellTimeout    time.Duration = 60 * time.Second
	DefaultMaxOutputBytes int           = 64 << 10
	DefaultMaxValueBytes  int64         = 64 << 20
	// DefaultMaxRecursion is CPython's default recursion limit.
	DefaultMaxRecursion int = 1000
)

// MaxIntDigits is the most decimal digits an int may have to be converted
// from or to text: int("..."), str(n), json.loads and json.dumps refuse
// more, as CPython does by default (sys.get_int_max_str_digits()). Hosts
// that read saved values (a resumed session) apply the same bound.
const MaxIntDigits = pyfmt.DefaultMaxStrDigits

// Error kinds produced by package repl.
const (
	// KindStepBudget: the interpreter's lifetime step budget (MaxTotalSteps) is spent.
	KindStepBudget fault.Kind = "step_budget_exhausted"
)

// Config bounds one interpreter. Zero fields take the Default* constants.
type Config struct {
	MaxCellSteps   uint64        // interpreter steps per cell (a statement, a loop iteration, a call)
	MaxTotalSteps  uint64        // steps over the interpreter's lifetime
	CellTimeout    time.Duration // wall time per cell
	MaxOutputBytes int           // captured stdout per cell kept; the rest is cut and counted
	MaxValueBytes  int64         // the largest value (str, list, dict, ...) one operation may build, bytes
	MaxRecursion   int           // call depth bound
	// Now is the time the clock functions report (time.time(),
	// datetime.now()): the run's start, fixed for the run. Zero: the Unix
	// epoch.
	Now time.Time
	// KeepMemoryLimit leaves the Go runtime's soft memory limit alone.
	// By default it is lowered while cells run (memlimit.go), so that the
	// process's memory stays within about twice the value bound of each
	// running cell over what it used before; a host that manages the limit
	// itself sets this.
	KeepMemoryLimit bool
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

// PredeclaredModules are the modules code may use without importing them
// (the RLM scaffolds models were prompted with predeclare them): the
// first use of such a name imports the module.
var PredeclaredModules = []string{"re", "json", "math", "collections", "string", "time"}

// Outcome reports what one Exec did.
type Outcome struct {
	Stdout      string     // bounded by MaxOutputBytes
	CutBytes    int        // bytes of stdout dropped
	Stderr      string     // what the cell printed to sys.stderr, bounded alike
	Exception   *Exception // nil when the cell ran to the end (or to a finishing call)
	Final       *Final     // set when the cell finished the run
	Steps       uint64     // interpreter steps the cell used
	Fingerprint string     // sha256 of the source
}

// Exception is an error in the model's code, reported back to the model.
type Exception struct {
	Type    string // Python type name: NameError, TypeError, SyntaxError, StepLimitExceeded, MemoryError, TimeoutError, ...
	Message string
	Line    int // line in the cell's source (0 if unknown)
}

// String renders the exception the way a Python traceback's last line does.
func (e *Exception) String() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s: %s (line %d)", e.Type, e.Message, e.Line)
	}
	return e.Type + ": " + e.Message
}

// Final is the value a cell finished the run with, as a Go value: nil,
// bool, int64 (json.Number for an int beyond 64 bits), float64, string,
// []any, map[string]any; Repr is Python's repr of it.
type Final struct {
	Value any
	Repr  string
}

// Var describes one user global.
type Var struct{ Name, Type, Preview string }

// Interp is one persistent interpreter (one per completion loop). Globals
// survive across Exec calls. Not safe for concurrent Exec; builtins it calls
// may run goroutines.
type Interp struct {
	cfg        Config
	py         *python.Interp
	host       map[string]bool // host-owned names: hidden from Vars
	totalSteps uint64
	mu         sync.Mutex
	cell       *cell // the running cell
	cells      int
}

// cell is the per-Exec state reachable from builtins.
type cell struct {
	out, errOut outBuf
	final       *Final
	t           *python.Thread
}

type outBuf struct {
	b     strings.Builder
	limit int
	cut   int
}

func (o *outBuf) write(s string) {
	room := o.limit - o.b.Len()
	if room >= len(s) {
		o.b.WriteString(s)
		return
	}
	if room > 0 {
		cutAt := room
		for cutAt > 0 && s[cutAt]&0xC0 == 0x80 {
			cutAt--
		}
		o.b.WriteString(s[:cutAt])
		o.cut += len(s) - cutAt
		return
	}
	o.cut += len(s)
}

// New returns an interpreter whose predeclared names are the standard ones
// of code mode plus host: Builtin values become functions, Text values
// str-like contexts, anything else its Python value. A host name that
// collides with a standard name is an error.
func New(cfg Config, host map[string]any) (*Interp, error) {
	cfg = cfg.withDefaults()
	it := &Interp{cfg: cfg, host: map[string]bool{}}
	it.py = python.New(python.Config{MaxDepth: cfg.MaxRecursion, MaxValueBytes: cfg.MaxValueBytes})
	now := cfg.Now
	it.py.Clock = func() int64 {
		if now.IsZero() {
			return 0
		}
		return now.UnixNano()
	}
	registerStdlib()
	it.predeclare()
	it.py.Predeclare(PredeclaredModules...)
	for _, name := range sortedKeys(host) {
		if IsStandard(name) {
			return nil, fault.Newf(fault.PhaseConfig, fault.KindInvalid, "host builtin %q collides with a standard code-mode name", name).
				With("name", name)
		}
		v, err := it.fromHost(name, host[name])
		if err != nil {
			return nil, err
		}
		it.py.Globals().SetStr(name, v)
		it.host[name] = true
	}
	return it, nil
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Close ends what the interpreter keeps running between cells (the
// goroutines of suspended generators).
func (it *Interp) Close() { it.py.Close() }

// Set binds a host-owned global (context_0..N, history, ...), hidden from
// Vars. v is converted as New converts host values.
func (it *Interp) Set(name string, v any) error {
	pv, err := it.fromHost(name, v)
	if err != nil {
		return err
	}
	it.py.Globals().SetStr(name, pv)
	it.host[name] = true
	return nil
}

// Restore binds a user variable (a resumed session's saved value): plain
// data only.
func (it *Interp) Restore(name string, v any) error {
	pv, err := FromGo(v)
	if err != nil {
		return err
	}
	it.py.Globals().SetStr(name, pv)
	return nil
}

// Get returns a global's value as plain Go data (see Final); ok is false
// when it is not bound, err when it is not plain data.
func (it *Interp) Get(name string) (any, bool, error) {
	v, ok := it.py.Globals().GetStr(name)
	if !ok {
		return nil, false, nil
	}
	g, err := ToGo(v)
	return g, true, err
}

// Has reports whether a global is bound (user, host or standard).
func (it *Interp) Has(name string) bool {
	if _, ok := it.py.Globals().GetStr(name); ok {
		return true
	}
	_, ok := it.py.Builtins().GetStr(name)
	return ok
}

// Vars lists the user globals (not predeclared, not starting with "_"),
// sorted by name, with a type name and a bounded preview.
func (it *Interp) Vars() []Var {
	var out []Var
	g := it.py.Globals()
	for _, k := range g.Keys() {
		name := python.StrValue(k)
		if name == "" || it.host[name] || strings.HasPrefix(name, "_") || standardGlobals[name] {
			continue
		}
		v, _ := g.GetStr(name)
		if _, isMod := v.(*python.Module); isMod {
			continue
		}
		out = append(out, Var{Name: name, Type: v.Type().Name(), Preview: preview(v, 80)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// TotalSteps reports the steps used over the interpreter's lifetime.
func (it *Interp) TotalSteps() uint64 { return it.totalSteps }

// Exec runs one cell with the interpreter's globals and reports what
// happened. An exception in the model's code is Outcome.Exception, not an
// error. err != nil only when the run must stop: ctx cancelled or past its
// deadline (fault kinds cancelled/timeout), the lifetime step budget spent
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
	budget := min(it.cfg.MaxCellSteps, it.cfg.MaxTotalSteps-it.totalSteps)
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	c := &cell{out: outBuf{limit: it.cfg.MaxOutputBytes}, errOut: outBuf{limit: it.cfg.MaxOutputBytes}}
	t := python.NewThread(cctx, it.py, budget, c.out.write)
	t.SetStderr(c.errOut.write)
	c.t = t
	it.mu.Lock()
	it.cell = c
	it.cells++
	file := fmt.Sprintf("<cell %d>", it.cells)
	it.mu.Unlock()
	defer func() {
		it.mu.Lock()
		it.cell = nil
		it.mu.Unlock()
	}()

	prevAnswer, _ := it.py.Globals().GetStr("answer")
	prevReady := answerReady(prevAnswer)

	if !it.cfg.KeepMemoryLimit {
		defer limitMemory(it.cfg.MaxValueBytes)()
	}
	// The cell runs on a goroutine of its own and the caller watches it:
	// the interpreter's deep frames grow that goroutine's stack (to 32 KiB
	// and more), and the stack goes when the cell ends instead of staying
	// with the caller, which may wait for long after (an rlm_query child
	// held in its next model call; issue 35).
	done := make(chan struct{})
	var runErr error
	go func() {
		defer close(done)
		growCellStack()
		runErr = it.run(t, src, file)
	}()
	watch(ctx, t, it.cfg, done, cancel)
	<-done

	o.Steps = t.Steps()
	it.totalSteps += o.Steps
	o.Stdout, o.CutBytes = c.out.b.String(), c.out.cut
	o.Stderr = c.errOut.b.String()

	stop := t.Stopped()
	if stop == nil {
		errors.As(runErr, &stop)
	}
	if stop != nil {
		switch stop.Kind {
		case "final":
			o.Final = c.final
			return o, nil
		case "fatal":
			return o, stop.Err
		case "cancelled":
			return o, fault.FromContext(fault.PhaseExecute, ctxErr(ctx, stop.Err))
		case "timeout":
			o.Exception = &Exception{Type: "TimeoutError", Message: fmt.Sprintf("cell exceeded its wall-time limit of %s", it.cfg.CellTimeout), Line: lineOf(runErr, file)}
			return o, nil
		case "memory":
			o.Exception = &Exception{Type: "MemoryError", Message: stop.Msg, Line: lineOf(runErr, file)}
			return o, nil
		case "steps":
			if it.totalSteps >= it.cfg.MaxTotalSteps && budget < it.cfg.MaxCellSteps {
				return o, stepBudgetError(it.cfg.MaxTotalSteps)
			}
			o.Exception = &Exception{Type: "StepLimitExceeded", Message: fmt.Sprintf("cell exceeded its limit of %d steps", budget), Line: lineOf(runErr, file)}
			return o, nil
		}
		return o, stop
	}
	if runErr != nil {
		o.Exception = exceptionOf(t, runErr, file)
		return o, nil
	}
	// The answer-dict convention, checked at the end of the cell; an answer
	// left ready by an earlier cell (a session's previous query) does not
	// finish again unless this cell rebinds it.
	ans, _ := it.py.Globals().GetStr("answer")
	if answerReady(ans) && !(prevReady && ans == prevAnswer) {
		o.Final = answerFinal(ans)
	}
	return o, nil
}

// cellStackFrame is the frame growCellStack puts on a cell's new
// goroutine: the interpreter's frames need a stack of 16 to 32 KiB, which
// a goroutine reaches by doubling from its first few KiB, each doubling
// copying (and adjusting) every frame pushed so far. Growing it once
// while it holds one frame costs little: BenchmarkCellOverhead takes
// about as long as when cells ran on the caller's grown stack, and about
// 15 µs more without it.
const cellStackFrame = 20 << 10

// stackTouch is an index the compiler cannot see through, so that
// growCellStack's frame is kept.
var stackTouch = 0

// growCellStack grows the calling goroutine's stack to hold the
// interpreter's frames before they are pushed.
//
//go:noinline
func growCellStack() byte {
	var frame [cellStackFrame]byte
	frame[stackTouch] = 1
	return frame[stackTouch]
}

func ctxErr(ctx context.Context, err error) error {
	if err != nil {
		return err
	}
	return context.Cause(ctx)
}

func (it *Interp) run(t *python.Thread, src, file string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = python.Errorf(python.SystemErrorType, "internal error: %v", r)
		}
	}()
	return it.py.Exec(t, src, file)
}

func stepBudgetError(total uint64) error {
	return fault.Newf(fault.PhaseBudget, KindStepBudget, "code mode used its %d interpreter steps", total).
		With("max_total_steps", total).
		WithHint("raise the step budget or make the model's code do less work per run")
}

// exceptionOf reports a Python exception to the model: its type, its
// message and the innermost line of this cell it passed through.
func exceptionOf(t *python.Thread, err error, file string) *Exception {
	e, ok := python.AsException(err)
	if !ok {
		return &Exception{Type: "SystemError", Message: err.Error()}
	}
	msg, serr := python.StrOf(t, e)
	if serr != nil {
		msg = e.Message()
	}
	ex := &Exception{Type: e.TypeName(), Message: msg, Line: lineOf(err, file)}
	if e.Class().IsSubtype(python.SyntaxErrorType) {
		ex.Line = python.SyntaxLine(e)
		if v, ok := e.Args(), true; ok && len(v) > 0 {
			ex.Message = python.StrValue(v[0])
		}
	}
	return ex
}

func lineOf(err error, file string) int {
	e, ok := python.AsException(err)
	if !ok {
		return 0
	}
	tb := e.Traceback()
	for i := len(tb) - 1; i >= 0; i-- {
		if tb[i].File == file && tb[i].Line > 0 {
			return tb[i].Line
		}
	}
	return 0
}

// Fatal marks an error returned by a host builtin as run-ending: Exec stops
// the cell at once and returns err (unwrapped) as its error.
func Fatal(err error) error {
	if err == nil {
		return nil
	}
	return &fatalError{err: err}
}

type fatalError struct{ err error }

func (e *fatalError) Error() string { return e.err.Error() }
func (e *fatalError) Unwrap() error { return e.err }

// IsFatal reports whether err was marked by Fatal.
func IsFatal(err error) bool {
	var fe *fatalError
	return errors.As(err, &fe)
}

// raised is a Python exception a host builtin asked for.
type raised struct{ typ, msg string }

func (e *raised) Error() string { return e.typ + ": " + e.msg }

// Raise returns an error that code mode reports to the model as an exception
// of Python type typ (e.g. "ValueError"), for host builtins that want to
// raise a specific Python exception instead of RuntimeError.
func Raise(typ, format string, args ...any) error {
	return &raised{typ: typ, msg: fmt.Sprintf(format, args...)}
}

var _ = big.NewInt

// PythonError returns the Python exception type and message of an error
// made by Raise (ok false for any other error).
func PythonError(err error) (typ, msg string, ok bool) {
	var r *raised
	if errors.As(err, &r) {
		return r.typ, r.msg, true
	}
	return "", "", false
}

// WithDefaults returns c with its zero fields set to the defaults.
func (c Config) WithDefaults() Config { return c.withDefaults() }

// Modules lists the standard modules code can import, sorted, without
// the private ones (_abc) and aliases CPython documents under another
// name (posixpath is os.path).
func Modules() []string {
	registerStdlib()
	var out []string
	for _, m := range python.Modules() {
		if !strings.HasPrefix(m, "_") && m != "posixpath" {
			out = append(out, m)
		}
	}
	return out
}
