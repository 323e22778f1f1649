package repl

import (
	"errors"
	"reflect"
	"sort"
	"strings"
	"unsafe"

	"go.starlark.net/starlark"

	"github.com/rlm-go/rlm/repl/internal/pymod"
)

// unbound is _rlm_unbound: the value of a try-statement state name that was
// not bound before the statement.
type unboundValue struct{}

func (unboundValue) String() string        { return "<unbound>" }
func (unboundValue) Type() string          { return "unbound" }
func (unboundValue) Freeze()               {}
func (unboundValue) Truth() starlark.Bool  { return false }
func (unboundValue) Hash() (uint32, error) { return 0, nil }

var unbound starlark.Value = unboundValue{}

// translateHelpers implements the helpers the translation layer relies on
// (repl/internal/translate/HELPERS.md).
func translateHelpers() map[string]builtinFn {
	return map[string]builtinFn{
		"_rlm_fmt":    helperFmt,
		"_rlm_format": helperFormat,
		"_rlm_try":    helperTry,
		"_rlm_raise":  helperRaise,
		"_rlm_pow":    helperPow,
		"_rlm_need":   helperNeed,
	}
}

// helperNeed is _rlm_need(value, name): a try body's bare read of a state
// name (the `try: x` / `except NameError:` idiom) raises a catchable
// NameError when the name was unbound before the statement.
func helperNeed(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var v starlark.Value
	var name string
	if err := starlark.UnpackPositionalArgs("_rlm_need", args, kwargs, 2, &v, &name); err != nil {
		return nil, err
	}
	if v == unbound {
		return nil, pymod.Errorf("NameError", "name '%s' is not defined", name)
	}
	return starlark.None, nil
}

// helperFmt is one replacement field: _rlm_fmt(value, spec, conv).
func helperFmt(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var v starlark.Value
	spec, conv := "", ""
	if err := starlark.UnpackPositionalArgs("_rlm_fmt", args, kwargs, 1, &v, &spec, &conv); err != nil {
		return nil, err
	}
	switch conv {
	case "":
	case "r", "a":
		s, err := pymod.ReprChecked(thread, v)
		if err != nil {
			return nil, err
		}
		v = starlark.String(s)
	case "s":
		s, err := pymod.StrChecked(thread, v)
		if err != nil {
			return nil, err
		}
		v = starlark.String(s)
	default:
		return nil, pymod.Errorf("ValueError", "Unknown conversion specifier %s", conv)
	}
	s, err := pymod.FormatValue(thread, v, spec)
	return starlark.String(s), err
}

func helperFormat(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) == 0 {
		return nil, pymod.Errorf("TypeError", "_rlm_format needs a template")
	}
	tmpl, ok := args[0].(starlark.String)
	if !ok {
		return nil, pymod.Errorf("TypeError", "format template must be a str")
	}
	s, err := pymod.Format(thread, string(tmpl), args[1:], kwargs)
	return starlark.String(s), err
}

func helperPow(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x, y starlark.Value
	if err := starlark.UnpackPositionalArgs("_rlm_pow", args, kwargs, 2, &x, &y); err != nil {
		return nil, err
	}
	return power(thread, x, y, starlark.None)
}

// helperRaise is _rlm_raise(what, *args).
func helperRaise(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) == 0 || args[0] == starlark.None {
		return nil, pymod.Errorf("RuntimeError", "No active exception to reraise")
	}
	switch w := args[0].(type) {
	case starlark.String:
		msg := ""
		if len(args) > 1 {
			msg = pymod.Str(args[1])
		}
		return nil, &pyError{Type: string(w), Msg: msg}
	case *pymod.Exc:
		return nil, &pyError{Type: w.Typ, Msg: w.Msg, Val: w}
	case starlark.Callable:
		if isExceptionName(w.Name()) {
			msg := ""
			if len(args) > 1 {
				msg = pymod.Str(args[1])
			}
			return nil, &pyError{Type: w.Name(), Msg: msg}
		}
	}
	return nil, pymod.Errorf("TypeError", "exceptions must derive from BaseException")
}

var exceptionNames = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range pymod.ExceptionNames() {
		m[n] = true
	}
	return m
}()

func isExceptionName(n string) bool { return exceptionNames[n] }

// exceptionCtor is ValueError(...) and friends: an exception value.
func exceptionCtor(name string) builtinFn {
	return func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		msg := ""
		switch len(args) {
		case 0:
		case 1:
			msg = pymod.Str(args[0])
		default:
			msg = pymod.Str(args)
		}
		return &pymod.Exc{Typ: name, Msg: msg}, nil
	}
}

// uncatchable reports errors that a translated try statement must not catch:
// finishing, Fatal host errors, stopped cells (ctx, wall time, memory),
// step limits and the recursion bound.
func (c *cell) uncatchable(err error) bool {
	if c.final != nil || c.fatal != nil || c.stop.Load() != nil || errors.Is(err, errFinish) || IsFatal(err) {
		return true
	}
	msg := err.Error()
	if strings.Contains(msg, "Starlark computation cancelled") || strings.Contains(msg, "Starlark stack overflow") {
		return true
	}
	var pe *pyError
	if errors.As(err, &pe) && (pe.Type == "RecursionError" || pe.Type == "MemoryError") {
		return true
	}
	return false
}

// excValueOf is the exception value for a caught error.
func (c *cell) excValueOf(err error) (*pymod.Exc, string) {
	var pe *pyError
	if errors.As(err, &pe) {
		if e, ok := pe.Val.(*pymod.Exc); ok {
			return e, e.Typ
		}
		return &pymod.Exc{Typ: pe.Type, Msg: pe.Msg}, pe.Type
	}
	ex := c.exception(err)
	return &pymod.Exc{Typ: ex.Type, Msg: ex.Message}, ex.Type
}

// unwrapCell reads the value held by Starlark's internal cell type (a local
// captured by a nested function); other values are returned unchanged.
func unwrapCell(v starlark.Value) starlark.Value {
	if v == nil || v.Type() != "cell" {
		return v
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.Elem().Kind() != reflect.Struct || rv.Elem().NumField() != 1 {
		return v
	}
	f := rv.Elem().Field(0)
	inner, ok := reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Interface().(starlark.Value)
	if !ok {
		return v
	}
	return inner
}

type blockResult struct {
	kind  string
	state map[string]starlark.Value
	value starlark.Value
}

// helperTry is _rlm_try(body, handlers, orelse, final) (HELPERS.md §4).
func helperTry(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var body, handlers, orelse, final, getters starlark.Value
	if err := starlark.UnpackPositionalArgs("_rlm_try", args, kwargs, 2, &body, &handlers, &orelse, &final, &getters); err != nil {
		return nil, err
	}
	c := cellOf(thread)
	if c == nil {
		return nil, pymod.Errorf("RuntimeError", "_rlm_try outside a cell")
	}
	fn, ok := body.(*starlark.Function)
	if !ok {
		return nil, pymod.Errorf("TypeError", "_rlm_try: body must be a function")
	}
	names := make([]string, fn.NumParams())
	for i := range names {
		names[i], _ = fn.Param(i)
	}
	var state map[string]starlark.Value
	if gd, ok := getters.(*starlark.Dict); ok {
		// HELPERS.md v4: the initial state comes from zero-argument getters.
		state = map[string]starlark.Value{}
		for _, n := range names {
			state[n] = unbound
		}
		items := gd.Items()
		sort.Slice(items, func(i, j int) bool { return items[i][0].String() < items[j][0].String() })
		for _, kv := range items {
			n, ok := starlark.AsString(kv[0])
			if !ok {
				continue
			}
			v, err := starlark.Call(thread, kv[1], nil, nil)
			if err != nil {
				if c.uncatchable(err) {
					return nil, err
				}
				v = unbound
			}
			state[n] = v
		}
	} else {
		state = initialState(thread, names)
	}

	call := func(block starlark.Value) (blockResult, error) {
		// Each block takes its own parameters (the state names, and for a
		// handler possibly its exception variable): bind them by name.
		params := names
		if bf, ok := block.(*starlark.Function); ok {
			params = make([]string, bf.NumParams())
			for i := range params {
				params[i], _ = bf.Param(i)
			}
		}
		argv := make(starlark.Tuple, len(params))
		for i, n := range params {
			if v, ok := state[n]; ok && v != nil {
				argv[i] = v
			} else {
				argv[i] = unbound
			}
		}
		v, err := starlark.Call(thread, block, argv, nil)
		if err != nil {
			return blockResult{}, err
		}
		t, ok := v.(starlark.Tuple)
		if !ok || len(t) != 3 {
			return blockResult{}, pymod.Errorf("SystemError", "_rlm_try: a block returned %s, not (kind, state, value)", v.Type())
		}
		kind, _ := starlark.AsString(t[0])
		r := blockResult{kind: kind, value: t[2], state: map[string]starlark.Value{}}
		for k, x := range state {
			r.state[k] = x
		}
		if d, ok := t[1].(*starlark.Dict); ok {
			for _, kv := range d.Items() {
				if k, ok := starlark.AsString(kv[0]); ok {
					r.state[k] = kv[1]
				}
			}
		}
		return r, nil
	}

	res := blockResult{state: state}
	r, err := call(body)
	var pending error
	if err == nil {
		res = r
		if res.kind == "" && orelse != nil && orelse != starlark.None {
			state = res.state
			if r, err = call(orelse); err != nil {
				if c.uncatchable(err) {
					return nil, err
				}
				pending = err
			} else {
				res = r
			}
		}
	} else {
		if c.uncatchable(err) {
			return nil, err
		}
		exc, typ := c.excValueOf(err)
		h, name, matched := matchHandler(handlers, typ)
		if matched {
			if name != "" {
				state[name] = exc
			}
			if r, herr := call(h); herr != nil {
				if c.uncatchable(herr) {
					return nil, herr
				}
				pending = herr
			} else {
				res = r
			}
		} else {
			pending = err
		}
	}
	if final != nil && final != starlark.None {
		state = res.state
		r, ferr := call(final)
		if ferr != nil {
			return nil, ferr
		}
		if r.kind != "" {
			res, pending = r, nil
		} else {
			res.state = r.state
		}
	}
	if pending != nil {
		return nil, pending
	}
	d := starlark.NewDict(len(res.state))
	for _, n := range sortedNames(res.state) {
		if v := res.state[n]; v != unbound && v != nil && !strings.HasPrefix(n, "_rlm_") {
			_ = d.SetKey(starlark.String(n), v)
		}
	}
	value := res.value
	if value == nil {
		value = starlark.None
	}
	return starlark.Tuple{starlark.String(res.kind), d, value}, nil
}

func sortedNames(m map[string]starlark.Value) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// initialState reads each state name in the calling frame: its local when
// bound, else the module global, else _rlm_unbound.
func initialState(thread *starlark.Thread, names []string) map[string]starlark.Value {
	state := make(map[string]starlark.Value, len(names))
	var locals map[string]starlark.Value
	var globals starlark.StringDict
	if thread.CallStackDepth() > 1 {
		fr := thread.DebugFrame(1)
		if fn, ok := fr.Callable().(*starlark.Function); ok {
			globals = fn.Globals()
			if fn.Name() != "<toplevel>" {
				locals = map[string]starlark.Value{}
				for i := 0; i < fr.NumLocals(); i++ {
					bind, v := fr.Local(i)
					if v = unwrapCell(v); v != nil {
						locals[bind.Name] = v
					}
				}
			}
		}
	}
	c := cellOf(thread)
	for _, n := range names {
		if v, ok := locals[n]; ok {
			state[n] = v
		} else if v, ok := globals[n]; ok && v != nil {
			state[n] = v
		} else if v, ok := c.it.globals[n]; ok && v != nil {
			state[n] = v
		} else {
			state[n] = unbound
		}
	}
	return state
}

// matchHandler finds the first handler (types, name, fn) that catches typ.
func matchHandler(handlers starlark.Value, typ string) (starlark.Value, string, bool) {
	hl, ok := handlers.(starlark.Indexable)
	if !ok {
		return nil, "", false
	}
	for i := 0; i < hl.Len(); i++ {
		h, ok := hl.Index(i).(starlark.Indexable)
		if !ok || h.Len() != 3 {
			continue
		}
		name, _ := starlark.AsString(h.Index(1))
		types, ok := h.Index(0).(starlark.Indexable)
		if !ok {
			continue
		}
		if types.Len() == 0 {
			return h.Index(2), name, true
		}
		for j := 0; j < types.Len(); j++ {
			want, _ := starlark.AsString(types.Index(j))
			if want == "BaseException" || pymod.IsSubtype(typ, want) {
				return h.Index(2), name, true
			}
		}
	}
	return nil, "", false
}
