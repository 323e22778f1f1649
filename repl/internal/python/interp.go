package python

import (
	"errors"
	"fmt"

	"github.com/rlm-go/rlm/repl/internal/python/syntax"
)

// Config bounds an interpreter.
type Config struct {
	// MaxDepth is the recursion limit (Python frames); CPython's default
	// is 1,000.
	MaxDepth int
	// MaxValueBytes bounds the size of one value an operation may build.
	MaxValueBytes int64
}

// DefaultMaxDepth is CPython's default recursion limit.
const DefaultMaxDepth = 1000

// Interp is one interpreter: its globals (one __main__ namespace that
// persists across cells), its builtins and its imported modules. It is used
// by one goroutine at a time.
type Interp struct {
	cfg         Config
	globals     *Dict
	builtins    *Dict
	modules     map[string]Object
	gens        generators
	stdlibNames map[string]struct{}
	hints       map[string]string
	autoImport  map[string]bool
	// Clock is what the clock functions of time and datetime report: the
	// run's start, fixed (set by the host).
	Clock func() (unixNanos int64)
}

// New returns an interpreter.
func New(cfg Config) *Interp {
	Setup()
	if cfg.MaxDepth <= 0 {
		cfg.MaxDepth = DefaultMaxDepth
	}
	in := &Interp{cfg: cfg, globals: NewDict(32), modules: map[string]Object{}, hints: map[string]string{}}
	in.builtins = newBuiltins()
	in.globals.SetStr("__name__", NewStr("__main__"))
	in.globals.SetStr("__doc__", None)
	in.globals.SetStr("__builtins__", in.builtinsModule())
	in.stdlibNames = map[string]struct{}{}
	for _, n := range Modules() {
		in.stdlibNames[n] = struct{}{}
	}
	return in
}

func (in *Interp) builtinsModule() *Module {
	m := &Module{name: "builtins", dict: in.builtins}
	in.modules["builtins"] = m
	return m
}

// Globals returns the __main__ namespace.
func (in *Interp) Globals() *Dict { return in.globals }

// Builtins returns the builtins namespace.
func (in *Interp) Builtins() *Dict { return in.builtins }

// Config returns the interpreter's bounds.
func (in *Interp) Config() Config { return in.cfg }

// Predeclare makes modules names that need no import: the first read of
// such a name that nothing bound imports the module.
func (in *Interp) Predeclare(modules ...string) {
	if in.autoImport == nil {
		in.autoImport = map[string]bool{}
	}
	for _, m := range modules {
		in.autoImport[m] = true
	}
}

// Hint makes a NameError for name a NotImplementedError with a hint (names
// of the official protocol code mode does not provide, say).
func (in *Interp) Hint(name, hint string) { in.hints[name] = hint }

func (in *Interp) unsupportedName(name string) string { return in.hints[name] }

// Close ends the goroutines of suspended generators.
func (in *Interp) Close() { in.closeGenerators() }

// Exec runs one cell's source in the globals. It returns nil, a Python
// exception (*Exception, with a SyntaxError for source that does not
// parse), or a *StopError.
func (in *Interp) Exec(t *Thread, src, file string) error {
	mod, err := syntax.Parse(src)
	if err != nil {
		return syntaxException(err, "<cell>")
	}
	_, err = in.runCode(t, mod, file, in.globals, nil, false)
	return err
}

// runCode compiles and runs a module in globals (and locals, when not nil
// and not globals: exec and eval with a separate locals mapping); with
// value, the module is an expression wrapped in a return and its value is
// returned.
func (in *Interp) runCode(t *Thread, mod *syntax.Module, file string, globals, locals *Dict, value bool) (Object, error) {
	if locals == globals {
		locals = nil
	}
	code, err := compileModule(mod, file, locals != nil)
	if err != nil {
		var se *syntax.Error
		if errors.As(err, &se) {
			if file != "<string>" {
				file = "<cell>"
			}
			return nil, syntaxException(se, file)
		}
		return nil, err
	}
	for _, w := range code.Warnings {
		t.PrintErr(fmt.Sprintf("%s:%d: SyntaxWarning: %s\n", file, w.Line, w.Msg))
	}
	if value {
		// The module's sole statement is a return: compile it as a
		// function body.
		code.Name = "<module>"
	}
	f := &Frame{t: t, code: code, globals: globals, locals: locals}
	f.back = t.frame
	t.frame = f
	_, err = code.body(f)
	t.frame = f.back
	if err != nil {
		return nil, err
	}
	if f.ret == nil {
		return None, nil
	}
	return f.ret, nil
}

// syntaxException converts a parse error into a SyntaxError (or
// IndentationError, TabError) exception of source named filename ("<cell>"
// for a cell, "<string>" for exec and eval): args (msg, (filename,
// lineno, offset, text, end_lineno, end_offset)), as CPython's.
func syntaxException(err error, filename string) error {
	var se *syntax.Error
	if !errors.As(err, &se) {
		if _, ok := err.(*Exception); ok {
			return err
		}
		return Errorf(SyntaxErrorType, "%s", err.Error())
	}
	cls := SyntaxErrorType
	switch se.Type {
	case "IndentationError":
		cls = IndentationErrorType
	case "TabError":
		cls = TabErrorType
	}
	var text Object = NewStr(se.Text)
	if se.NoText {
		text = None
	}
	var e *Exception
	d := (*Dict)(nil)
	if se.Line > 0 {
		if se.NoDetails {
			e = NewException(cls, NewStr(se.Msg))
		} else {
			details := NewTuple([]Object{NewStr(filename), MakeInt(int64(se.Line)), MakeInt(int64(se.Col)), text, MakeInt(int64(se.EndLine)), MakeInt(int64(se.EndCol))})
			e = NewException(cls, NewStr(se.Msg), details)
		}
		d = e.dictOf()
		d.SetStr("lineno", MakeInt(int64(se.Line)))
		d.SetStr("offset", MakeInt(int64(se.Col)))
		d.SetStr("text", text)
		d.SetStr("filename", NewStr(filename))
		d.SetStr("end_lineno", MakeInt(int64(se.EndLine)))
		d.SetStr("end_offset", MakeInt(int64(se.EndCol)))
	} else {
		// No location (null bytes in the source): CPython's attributes
		// are all None.
		e = NewException(cls, NewStr(se.Msg))
		d = e.dictOf()
		for _, k := range []string{"lineno", "offset", "text", "filename", "end_lineno", "end_offset"} {
			d.SetStr(k, None)
		}
	}
	d.SetStr("msg", NewStr(se.Msg))
	e.traceback = []TraceEntry{{File: "", Line: se.Line}}
	return e
}

// SyntaxLine returns the line of a SyntaxError exception (0 if none).
func SyntaxLine(e *Exception) int {
	if e.dict == nil {
		return 0
	}
	if v, ok := e.dict.GetStr("lineno"); ok {
		if n, ok := v.(Int); ok {
			return int(n)
		}
	}
	return 0
}
