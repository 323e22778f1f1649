// Package re is code mode's re module: CPython 3.12's regular expressions
// over the sre engine (package sre), with every function, the Pattern and
// Match objects, RegexFlag, re.error and re.Scanner behaving as CPython's.
//
// Subjects are str (positions in code points), bytes and bytearray, and
// contexts: strs the host owns, read only inside one host operation.
// Over a context, Match objects hold copies of the text they report, and
// finditer reads matches ahead a batch per host operation, so that a scan
// of a huge context streams. Every operation is bounded: the engine's step
// budget ends catastrophic backtracking with a RuntimeError, its stack
// bound with a RecursionError, lists and strings past the interpreter's
// value bound raise MemoryError, and a done context stops the cell.
//
// Refused explicitly (NotImplementedError): the DEBUG flag (CPython prints
// the compiled program), RegexFlag values beyond 64 bits, re.Scanner
// phrases with capturing groups or inline global flags, and templates of
// the other type than the pattern's holding non-ASCII characters.
//
// Known difference: CPython locks a bytearray subject while sub calls its
// repl or finditer runs (resizing it raises BufferError); here the scan
// goes on over the bytes the call began with. Groups of a Match read the
// bytearray as it is now, as in CPython.
package re

import (
	"errors"
	"math/big"
	"strconv"
	"sync"

	"github.com/rlm-go/rlm/repl/internal/python"
	"github.com/rlm-go/rlm/repl/internal/python/sre"
)

// Register makes re importable.
func Register() {
	python.Setup()
	python.RegisterModule("re", load)
}

var typesOnce sync.Once

func initTypes() {
	typesOnce.Do(func() {
		initErrorType()
		initPatternType()
		initMatchType()
		initScannerType()
	})
}

// The pattern cache keeps at most maxCache compiled patterns (CPython's
// _MAXCACHE) of at most maxCacheBytes of pattern text in all, dropping the
// oldest first.
const (
	maxCache      = 512
	maxCacheBytes = 16 << 20
)

type cacheKey struct {
	typ     string
	isBytes bool
	pattern string
	flags   int64
}

// state is the module's state in one interpreter.
type state struct {
	flags  *flagState
	cache  map[cacheKey]*Pattern
	order  []cacheKey // insertion order, for eviction
	bytes  int        // pattern text held by the cache
	warned map[string]bool
	// last is the cache's entry for lastSrc, the str object last compiled
	// with no flags: a loop calling re.search(r"...", line) passes the
	// same constant every time, found here without hashing its text.
	lastSrc *python.Str
	last    *Pattern
}

func load(in *python.Interp) (*python.Module, error) {
	initTypes()
	fs, err := newFlagState(in)
	if err != nil {
		return nil, err
	}
	st := &state{flags: fs, cache: map[cacheKey]*Pattern{}, warned: map[string]bool{}}
	m := python.NewModule("re")
	m.Func("compile", st.compileFunc)
	m.FuncBorrowing("search", st.execFunc("search"))
	m.FuncBorrowing("match", st.execFunc("match"))
	m.FuncBorrowing("fullmatch", st.execFunc("fullmatch"))
	m.FuncBorrowing("findall", st.execFunc("findall"))
	m.FuncBorrowing("finditer", st.execFunc("finditer"))
	m.Func("split", st.split)
	m.FuncBorrowing("sub", st.subFunc(false))
	m.FuncBorrowing("subn", st.subFunc(true))
	m.Func("escape", escape)
	m.Func("purge", st.purge)
	m.Func("template", st.template)
	m.Set("error", errorType)
	m.Set("Pattern", patternType)
	m.Set("Match", matchType)
	m.Set("RegexFlag", fs.cls)
	m.Set("NOFLAG", fs.get(0))
	for i, d := range flagDefs {
		m.Set(d.name, fs.members[i])
		if d.short != "" {
			m.Set(d.short, fs.members[i])
		}
	}
	sc, err := newScannerClass(in, st)
	if err != nil {
		return nil, err
	}
	m.Set("Scanner", sc)
	var all []python.Object
	for _, n := range []string{"match", "fullmatch", "search", "sub", "subn", "split", "findall", "finditer", "compile", "purge", "template", "escape", "error", "Pattern", "Match", "A", "I", "L", "M", "S", "X", "U", "ASCII", "IGNORECASE", "LOCALE", "MULTILINE", "DOTALL", "VERBOSE", "UNICODE", "NOFLAG", "RegexFlag"} {
		all = append(all, python.NewStr(n))
	}
	m.Set("__all__", python.NewList(all))
	m.Set("__version__", python.NewStr("2.2.1"))
	return m, nil
}

// compile is re's _compile: the cache, then the checks in CPython's order.
func (st *state) compile(t *python.Thread, pat, flags python.Object) (*Pattern, error) {
	if s, ok := pat.(*python.Str); ok && s == st.lastSrc && st.last != nil {
		if i, ok := flags.(python.Int); flags == nil || ok && i == 0 {
			return st.last, nil
		}
	}
	if flags == nil {
		flags = python.MakeInt(0)
	}
	// The cache key (type(pattern), pattern, flags) is hashed first.
	if _, err := python.Hash(t, pat); err != nil {
		return nil, err
	}
	if _, err := python.Hash(t, flags); err != nil {
		return nil, err
	}
	if p, ok := pat.(*Pattern); ok {
		truth, err := python.TruthE(t, flags)
		if err != nil {
			return nil, err
		}
		if truth {
			return nil, python.Errorf(python.ValueErrorType, "cannot process flags argument with a compiled pattern")
		}
		return p, nil
	}
	text, isBytes, ok := "", false, false
	switch v := python.Unwrap(pat).(type) {
	case *python.Str:
		text, ok = v.String(), true
	case *python.Bytes:
		text, isBytes, ok = v.String(), true, true
	default:
		if python.IsStr(pat) {
			s, err := copyText(t, pat)
			if err != nil {
				return nil, err
			}
			text, ok = s, true
		}
	}
	if !ok {
		return nil, python.Errorf(python.TypeErrorType, "first argument must be string or compiled pattern")
	}
	fv, ok := flagValue(flags)
	if !ok {
		return nil, python.Errorf(python.TypeErrorType, "unsupported operand type(s) for &: '%s' and 'RegexFlag'", python.TypeName(flags))
	}
	if !fv.IsInt64() || fv.Int64() < -1<<31 || fv.Int64() >= 1<<31 {
		return nil, python.Errorf(python.OverflowErrorType, "Python int too large to convert to C int")
	}
	key := cacheKey{typ: python.TypeName(pat), isBytes: isBytes, pattern: text, flags: fv.Int64()}
	if p, ok := st.cache[key]; ok {
		st.remember(pat, key, p)
		return p, nil
	}
	var re *sre.Pattern
	var err error
	if isBytes {
		re, err = sre.CompileBytes([]byte(text), sre.Flag(fv.Int64()))
	} else {
		re, err = sre.Compile(text, sre.Flag(fv.Int64()))
	}
	if err != nil {
		st.warn(t, errWarnings(err))
		return nil, mapErr(t, err, sre.Limits{})
	}
	st.warn(t, re.Warnings())
	p := &Pattern{id: newID(), re: re, src: pat}
	for len(st.order) > 0 && (len(st.order) >= maxCache || st.bytes+len(text) > maxCacheBytes) {
		if st.cache[st.order[0]] == st.last {
			st.lastSrc, st.last = nil, nil
		}
		delete(st.cache, st.order[0])
		st.bytes -= len(st.order[0].pattern)
		st.order = st.order[1:]
	}
	if len(text) <= maxCacheBytes {
		st.cache[key] = p
		st.order = append(st.order, key)
		st.bytes += len(text)
		st.remember(pat, key, p)
	}
	return p, nil
}

// remember makes p, the cache's entry for key, the fast path's when pat
// is a plain str compiled with no flags.
func (st *state) remember(pat python.Object, key cacheKey, p *Pattern) {
	if s, ok := pat.(*python.Str); ok && key.flags == 0 && key.typ == "str" {
		st.lastSrc, st.last = s, p
	}
}

// warn prints the FutureWarnings of a new pattern to the cell's stderr,
// once per message and line, as Python's default warning filter does.
// (DeprecationWarnings CPython's re issues are attributed to re itself,
// which the default filter ignores.)
func (st *state) warn(t *python.Thread, ws []sre.Warning) {
	for _, w := range ws {
		if w.Category != "FutureWarning" {
			continue
		}
		_, line := t.FrameCode()
		key := w.Category + "\x00" + w.Msg + "\x00" + itoa(line)
		if st.warned[key] {
			continue
		}
		if len(st.warned) < 10000 {
			st.warned[key] = true
		}
		t.PrintErr("<cell>:" + itoa(line) + ": " + w.Category + ": " + w.Msg + "\n")
	}
}

// errWarnings returns the warnings CPython emits before a compile error.
func errWarnings(err error) []sre.Warning {
	var se *sre.Error
	var pe *sre.PyError
	switch {
	case errors.As(err, &se):
		return se.Warnings
	case errors.As(err, &pe):
		return pe.Warnings
	}
	return nil
}

func itoa(n int) string { return strconv.Itoa(n) }

var bigOne = big.NewInt(1)

func (st *state) compileFunc(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	vals, err := funcArgs("compile", args, kwargs, 1, "pattern", "flags")
	if err != nil {
		return nil, err
	}
	return st.compile(t, vals[0], vals[1])
}

// execFunc returns re.search, re.match, re.fullmatch, re.findall or
// re.finditer: compile, then the Pattern method.
func (st *state) execFunc(name string) python.BuiltinFunc {
	return func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		vals, err := funcArgs(name, args, kwargs, 1, "pattern", "string", "flags")
		if err != nil {
			return nil, err
		}
		p, err := st.compile(t, vals[0], vals[2])
		if err != nil {
			return nil, err
		}
		switch name {
		case "findall", "finditer":
			sj, err := p.subject(t, vals[1])
			if err != nil {
				return nil, err
			}
			if name == "findall" {
				return p.findall(t, sj, 0, maxSize)
			}
			return p.finditer(t, sj, 0, maxSize), nil
		}
		mode := modeSearch
		switch name {
		case "match":
			mode = modeMatch
		case "fullmatch":
			mode = modeFull
		}
		return p.exec(t, name, mode, vals[1:2], nil)
	}
}

func (st *state) split(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	vals, err := funcArgs("split", args, kwargs, 2, "pattern", "string", "maxsplit", "flags")
	if err != nil {
		return nil, err
	}
	p, err := st.compile(t, vals[0], vals[3])
	if err != nil {
		return nil, err
	}
	sj, err := p.subject(t, vals[1])
	if err != nil {
		return nil, err
	}
	maxsplit, err := intArg(t, "split", vals[2], 0)
	if err != nil {
		return nil, err
	}
	return p.split(t, sj, maxsplit)
}

func (st *state) subFunc(subn bool) python.BuiltinFunc {
	name := "sub"
	if subn {
		name = "subn"
	}
	return func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		vals, err := funcArgs(name, args, kwargs, 2, "pattern", "repl", "string", "count", "flags")
		if err != nil {
			return nil, err
		}
		p, err := st.compile(t, vals[0], vals[4])
		if err != nil {
			return nil, err
		}
		return p.subArgs(t, subn, vals[1], vals[2], vals[3])
	}
}

func (st *state) purge(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	if _, err := funcArgs("purge", args, kwargs, 0); err != nil {
		return nil, err
	}
	st.cache = map[cacheKey]*Pattern{}
	st.order, st.bytes = nil, 0
	st.lastSrc, st.last = nil, nil
	return python.None, nil
}

// template is re.template (deprecated in 3.12): compile with TEMPLATE,
// which refuses repeats.
func (st *state) template(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	vals, err := funcArgs("template", args, kwargs, 1, "pattern", "flags")
	if err != nil {
		return nil, err
	}
	flags := vals[1]
	if flags == nil {
		flags = python.MakeInt(0)
	}
	fv, ok := flagValue(flags)
	if !ok {
		return nil, python.Errorf(python.TypeErrorType, "unsupported operand type(s) for |: '%s' and 'RegexFlag'", python.TypeName(flags))
	}
	n, err := normalize(fv.Or(fv, bigOne))
	if err != nil {
		return nil, err
	}
	return st.compile(t, vals[0], st.flags.get(n))
}

// escape is re.escape.
func escape(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	vals, err := funcArgs("escape", args, kwargs, 0, "pattern")
	if err != nil {
		return nil, err
	}
	text, isBytes, ok, err := textArg(t, vals[0])
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, python.Errorf(python.TypeErrorType, "decoding to str: need a bytes-like object, %s found", python.TypeName(vals[0]))
	}
	out := sre.Escape(text)
	if err := t.CheckSize(int64(len(out))); err != nil {
		return nil, err
	}
	if isBytes {
		return python.NewBytes(out), nil
	}
	return python.NewStr(out), nil
}
