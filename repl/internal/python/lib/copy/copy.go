// Package copy is code mode's copy module: copy and deepcopy as CPython
// 3.12 does them: immutable values returned as they are, containers
// copied, __copy__ and __deepcopy__ honoured, instances of Python classes
// rebuilt as object.__reduce_ex__(4) describes them (cls.__new__, then the
// state through __getstate__/__setstate__ or the instance dict, then the
// items of list and dict subclasses), __reduce_ex__ and __reduce__
// overrides followed, and deepcopy's memo a dict keyed by id() that
// __deepcopy__ methods receive. Values of Go-implemented types that are
// neither containers nor immutable are refused, except those CPython
// cannot copy either (generators, modules), which raise its TypeError.
package copy

import (
	"sync"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// Register makes copy importable.
func Register() {
	python.Setup()
	python.RegisterModule("copy", load)
	// setup runs after RegisterModule, which makes sure the interpreter
	// core is set up.
	setupOnce.Do(setup)
}

var (
	setupOnce sync.Once
	errOnce   sync.Once
	errorCls  *python.Type
)

// setup makes the package's interpreter values, on the first Register:
// importing the package touches nothing of the interpreter.
func setup() {
	missing = python.NewStr("\x00copy.missing")
}

func load(in *python.Interp) (*python.Module, error) {
	errOnce.Do(func() {
		errorCls = python.NewBuiltinType("Error", "copy", python.ExceptionType, nil)
	})
	m := python.NewModule("copy")
	m.Func("copy", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		vals, err := bind("copy", []string{"x"}, 1, args, kwargs)
		if err != nil {
			return nil, err
		}
		return shallow(t, vals[0])
	})
	m.Func("deepcopy", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		vals, err := bind("deepcopy", []string{"x", "memo", "_nil"}, 1, args, kwargs)
		if err != nil {
			return nil, err
		}
		memo := vals[1]
		if memo == nil || memo == python.None {
			memo = python.NewDict(8)
		}
		c := &copier{t: t, memo: memo, id: idFunc(t)}
		return c.deep(vals[0])
	})
	m.Set("Error", errorCls)
	m.Set("error", errorCls)
	m.Set("__all__", python.NewList([]python.Object{python.NewStr("Error"), python.NewStr("copy"), python.NewStr("deepcopy")}))
	return m, nil
}

// bind binds the arguments of a function CPython defines in Python.
func bind(name string, params []string, required int, args []python.Object, kwargs []python.Kwarg) ([]python.Object, error) {
	if len(args) > len(params) {
		takes := "1 positional argument"
		if len(params) > 1 {
			takes = "from 1 to " + string(rune('0'+len(params))) + " positional arguments"
		}
		was := "were"
		if len(args) == 1 {
			was = "was"
		}
		return nil, python.Errorf(python.TypeErrorType, "%s() takes %s but %d %s given", name, takes, len(args), was)
	}
	out := make([]python.Object, len(params))
	copy(out, args)
	for _, kw := range kwargs {
		i := -1
		for k, p := range params {
			if p == kw.Name {
				i = k
			}
		}
		if i < 0 {
			return nil, python.Errorf(python.TypeErrorType, "%s() got an unexpected keyword argument '%s'", name, kw.Name)
		}
		if out[i] != nil {
			return nil, python.Errorf(python.TypeErrorType, "%s() got multiple values for argument '%s'", name, kw.Name)
		}
		out[i] = kw.Value
	}
	for i := 0; i < required; i++ {
		if out[i] == nil {
			return nil, python.Errorf(python.TypeErrorType, "%s() missing 1 required positional argument: '%s'", name, params[i])
		}
	}
	return out, nil
}

func idFunc(t *python.Thread) python.Object {
	v, _ := t.Interp().Builtins().GetStr("id")
	return v
}

// atomic reports values both copies return as they are.
func atomic(x python.Object) bool {
	switch v := x.(type) {
	case python.NoneType, python.Bool, python.Int, *python.BigInt, python.Float, python.Complex,
		*python.Str, *python.Bytes, *python.Type, *python.Range, *python.Builtin, *python.Function, *python.Property:
		return true
	case *python.Instance:
		return false
	default:
		if x == python.Ellipsis || x == python.NotImplemented {
			return true
		}
		_ = v
	}
	return python.IsStr(x)
}

// userAttr finds name on the Python classes of cls's MRO (not on object
// or a built-in base).
func userAttr(cls *python.Type, name string) (python.Object, bool) {
	for _, c := range cls.MRO() {
		if c.IsBuiltin() {
			return nil, false
		}
		if v, ok := c.Dict().GetStr(name); ok {
			return v, true
		}
	}
	return nil, false
}

// hasMethod reports whether x's class (any of its MRO but object) has name.
func hasMethod(x python.Object, name string) bool {
	for _, c := range x.Type().MRO() {
		if c == python.ObjectType {
			return false
		}
		if _, ok := c.Dict().GetStr(name); ok {
			return true
		}
	}
	return false
}

func cannotPickle(x python.Object) error {
	return python.Errorf(python.TypeErrorType, "cannot pickle '%s' object", python.TypeName(x))
}

func unsupported(what string, x python.Object) error {
	return python.NotSupported(what+" of '"+python.TypeName(x)+"' objects", "copy its contents yourself")
}

// shallow is copy.copy(x).
func shallow(t *python.Thread, x python.Object) (python.Object, error) {
	switch v := x.(type) {
	case *python.Tuple:
		return x, nil
	case *python.List:
		return python.NewList(append([]python.Object(nil), v.Items()...)), nil
	case *python.Dict:
		if v.Class() == python.DictType {
			return v.Copy(), nil
		}
		return python.CallMethod(t, x, "copy", nil, nil)
	case *python.Set:
		if v.Type() == python.FrozenSetType {
			return x, nil
		}
		return python.CallMethod(t, x, "copy", nil, nil)
	case *python.ByteArray:
		return python.Call(t, python.ByteArrayType, []python.Object{x}, nil)
	case *python.Slice:
		return x, nil
	case *python.Method:
		self, err := python.GetAttr(t, x, "__self__")
		if err != nil {
			return nil, err
		}
		return python.NewMethodObject(python.FunctionOf(x), self), nil
	}
	if atomic(x) {
		return x, nil
	}
	if hasMethod(x, "__copy__") {
		return python.CallMethod(t, x, "__copy__", nil, nil)
	}
	return reduce(t, x, nil)
}

// copier is one deepcopy call: the memo dict and id().
type copier struct {
	t       *python.Thread
	memo    python.Object
	id      python.Object
	n       int
	depth   int
	memoKey python.Object // id(memo), once known
}

func (c *copier) key(x python.Object) (python.Object, error) {
	return python.Call(c.t, c.id, []python.Object{x}, nil)
}

func (c *copier) memoGet(k python.Object) (python.Object, bool, error) {
	if d, ok := c.memo.(*python.Dict); ok {
		return d.Get(c.t, k)
	}
	v, err := python.CallMethod(c.t, c.memo, "get", []python.Object{k, missing}, nil)
	if err != nil || v == missing {
		return nil, false, err
	}
	return v, true, nil
}

func (c *copier) memoSet(k, v python.Object) error {
	return python.SetItem(c.t, c.memo, k, v)
}

// missing marks an absent memo entry (set by setup).
var missing *python.Str

// deep is copy.deepcopy(x, memo).
func (c *copier) deep(x python.Object) (python.Object, error) {
	t := c.t
	c.n++
	if c.n&255 == 0 {
		if err := t.Tick(1); err != nil {
			return nil, err
		}
	}
	if atomic(x) {
		// Its own copy, never memoized: no need to look it up.
		return x, nil
	}
	c.depth++
	defer func() { c.depth-- }()
	if c.depth > t.Interp().Config().MaxDepth {
		return nil, python.Errorf(python.RecursionErrorType, "maximum recursion depth exceeded")
	}
	d, err := c.key(x)
	if err != nil {
		return nil, err
	}
	if y, ok, err := c.memoGet(d); err != nil || ok {
		return y, err
	}
	y, err := c.deepNew(x, d)
	if err != nil {
		return nil, err
	}
	if !python.Identical(y, x) {
		if err := c.memoSet(d, y); err != nil {
			return nil, err
		}
		if err := c.keepAlive(x); err != nil {
			return nil, err
		}
	}
	return y, nil
}

// keepAlive appends x to memo[id(memo)], as CPython's _keep_alive.
func (c *copier) keepAlive(x python.Object) error {
	if c.memoKey == nil {
		k, err := c.key(c.memo)
		if err != nil {
			return err
		}
		c.memoKey = k
	}
	l, ok, err := c.memoGet(c.memoKey)
	if err != nil {
		return err
	}
	if !ok {
		return c.memoSet(c.memoKey, python.NewList([]python.Object{x}))
	}
	if lst, isList := l.(*python.List); isList {
		lst.Append(x)
		return nil
	}
	_, err = python.CallMethod(c.t, l, "append", []python.Object{x}, nil)
	return err
}

func (c *copier) deepNew(x, d python.Object) (python.Object, error) {
	t := c.t
	switch v := x.(type) {
	case *python.List:
		y := python.NewList(nil)
		if err := c.memoSet(d, y); err != nil {
			return nil, err
		}
		for i := 0; i < len(v.Items()); i++ {
			e, err := c.deep(v.Items()[i])
			if err != nil {
				return nil, err
			}
			y.Append(e)
		}
		return y, nil
	case *python.Tuple:
		items := v.Items()
		ys := make([]python.Object, len(items))
		for i, e := range items {
			r, err := c.deep(e)
			if err != nil {
				return nil, err
			}
			ys[i] = r
		}
		if y, ok, err := c.memoGet(d); err != nil || ok {
			return y, err
		}
		for i := range items {
			if !python.Identical(items[i], ys[i]) {
				return python.NewTuple(ys), nil
			}
		}
		return x, nil
	case *python.Dict:
		var y *python.Dict
		if v.Class() == python.DictType {
			y = python.NewDict(v.Len())
		} else {
			r, err := python.CallMethod(t, x, "copy", nil, nil)
			if err != nil {
				return nil, err
			}
			rd, ok := r.(*python.Dict)
			if !ok {
				return nil, unsupported("copy.deepcopy()", x)
			}
			rd.Clear()
			y = rd
		}
		if err := c.memoSet(d, y); err != nil {
			return nil, err
		}
		var keys, vals []python.Object
		v.Items(func(k, val python.Object) bool {
			keys = append(keys, k)
			vals = append(vals, val)
			return true
		})
		for i := range keys {
			k, err := c.deep(keys[i])
			if err != nil {
				return nil, err
			}
			val, err := c.deep(vals[i])
			if err != nil {
				return nil, err
			}
			if err := y.Set(t, k, val); err != nil {
				return nil, err
			}
		}
		return y, nil
	case *python.Set:
		cls := v.Type()
		if cls != python.SetType && cls != python.FrozenSetType {
			return nil, unsupported("copy.deepcopy()", x)
		}
		// set.__reduce__: cls(list(x)), the list deep-copied.
		items, err := c.deep(python.NewList(v.Elems()))
		if err != nil {
			return nil, err
		}
		return python.Call(t, cls, []python.Object{items}, nil)
	case *python.ByteArray:
		return python.Call(t, python.ByteArrayType, []python.Object{x}, nil)
	case *python.Slice:
		parts, err := c.deep(python.NewTuple([]python.Object{v.Start, v.Stop, v.Step}))
		if err != nil {
			return nil, err
		}
		return python.Call(t, python.SliceType, parts.(*python.Tuple).Items(), nil)
	case *python.Method:
		fn := python.FunctionOf(x)
		self, err := python.GetAttr(t, x, "__self__")
		if err != nil {
			return nil, err
		}
		s, err := c.deep(self)
		if err != nil {
			return nil, err
		}
		return python.NewMethodObject(fn, s), nil
	}
	if atomic(x) {
		return x, nil
	}
	if hasMethod(x, "__deepcopy__") {
		return python.CallMethod(t, x, "__deepcopy__", []python.Object{c.memo}, nil)
	}
	return reduce(t, x, c)
}

// reduce copies x as copy._reconstruct does with what x.__reduce_ex__(4)
// returns; c is nil for a shallow copy.
func reduce(t *python.Thread, x python.Object, c *copier) (python.Object, error) {
	var rv python.Object
	var err error
	switch {
	case userHas(x, "__reduce_ex__"):
		rv, err = python.CallMethod(t, x, "__reduce_ex__", []python.Object{python.MakeInt(4)}, nil)
	case userHas(x, "__reduce__") || builtinReduce(x):
		rv, err = python.CallMethod(t, x, "__reduce__", nil, nil)
	default:
		return defaultReduce(t, x, c)
	}
	if err != nil {
		return nil, err
	}
	if python.IsStr(rv) {
		return x, nil
	}
	tu, ok := rv.(*python.Tuple)
	if !ok {
		return nil, python.Errorf(errorClass(), "un(deep)copyable object of type %s", python.TypeName(x))
	}
	parts := tu.Items()
	if len(parts) < 2 || len(parts) > 6 {
		return nil, python.Errorf(python.TypeErrorType, "_reconstruct() takes from 4 to 7 positional arguments but %d were given", len(parts)+2)
	}
	get := func(i int) python.Object {
		if i < len(parts) {
			return parts[i]
		}
		return python.None
	}
	return reconstruct(t, x, c, get(0), get(1), get(2), get(3), get(4), get(5))
}

func errorClass() *python.Type { return errorCls }

// userHas reports a method defined by a Python class of x's MRO.
func userHas(x python.Object, name string) bool {
	_, ok := userAttr(x.Type(), name)
	return ok
}

// builtinReduce reports a Go-implemented type with a __reduce__ of its
// own (not object's).
func builtinReduce(x python.Object) bool {
	for _, c := range x.Type().MRO() {
		if c == python.ObjectType {
			return false
		}
		if _, ok := c.Dict().GetStr("__reduce__"); ok {
			return true
		}
	}
	return false
}

// defaultReduce is object.__reduce_ex__(4) for instances of Python
// classes (and exceptions), then _reconstruct.
func defaultReduce(t *python.Thread, x python.Object, c *copier) (python.Object, error) {
	switch v := x.(type) {
	case *python.Exception:
		// BaseException.__reduce__: (type, args, __dict__ or nothing).
		var state python.Object = python.None
		if d := v.Dict(); d.Len() > 0 {
			state = d
		}
		return reconstruct(t, x, c, v.Type(), python.NewTuple(append([]python.Object(nil), v.Args()...)), state, python.None, python.None, python.None)
	case *python.Instance:
		return reduceInstance(t, v, c)
	case *python.Module:
		return nil, cannotPickle(x)
	}
	switch python.TypeName(x) {
	case "generator", "coroutine", "frame", "cell":
		return nil, cannotPickle(x)
	}
	what := "copy.copy()"
	if c != nil {
		what = "copy.deepcopy()"
	}
	return nil, unsupported(what, x)
}

func reduceInstance(t *python.Thread, x *python.Instance, c *copier) (python.Object, error) {
	cls := x.Type()
	args := []python.Object{}
	var kwargs python.Object = python.None
	base := x.Base()
	switch {
	case userHas(x, "__getnewargs_ex__"):
		r, err := python.CallMethod(t, x, "__getnewargs_ex__", nil, nil)
		if err != nil {
			return nil, err
		}
		pair, ok := r.(*python.Tuple)
		if !ok || len(pair.Items()) != 2 {
			return nil, python.Errorf(python.TypeErrorType, "__getnewargs_ex__ should return a tuple of length 2, not '%s'", python.TypeName(r))
		}
		a, err := python.ToSlice(t, pair.Items()[0])
		if err != nil {
			return nil, err
		}
		args, kwargs = a, pair.Items()[1]
	case userHas(x, "__getnewargs__"):
		r, err := python.CallMethod(t, x, "__getnewargs__", nil, nil)
		if err != nil {
			return nil, err
		}
		tu, ok := r.(*python.Tuple)
		if !ok {
			return nil, python.Errorf(python.TypeErrorType, "__getnewargs__ should return a tuple, not '%s'", python.TypeName(r))
		}
		args = tu.Items()
	case base != nil:
		switch b := base.(type) {
		case *python.Tuple, *python.Str, python.Int, *python.BigInt, python.Float, *python.Bytes, python.Complex, python.Bool:
			args = []python.Object{b}
		case *python.Set:
			// set.__reduce__: (cls, (list(self),), state): cls() runs
			// __init__.
			state, err := instanceState(t, x)
			if err != nil {
				return nil, err
			}
			return reconstruct(t, x, c, cls, python.NewTuple([]python.Object{python.NewList(b.Elems())}), state, python.None, python.None, python.None)
		case *python.List, *python.Dict:
		default:
			return nil, unsupported("copying", x)
		}
	}
	state, err := instanceState(t, x)
	if err != nil {
		return nil, err
	}
	var listItems, dictItems python.Object = python.None, python.None
	switch b := base.(type) {
	case *python.List:
		listItems = python.NewList(append([]python.Object(nil), b.Items()...))
	case *python.Dict:
		var pairs []python.Object
		b.Items(func(k, v python.Object) bool {
			pairs = append(pairs, python.NewTuple([]python.Object{k, v}))
			return true
		})
		dictItems = python.NewList(pairs)
	}
	return newObj(t, x, c, cls, args, kwargs, state, listItems, dictItems)
}

// instanceState is object.__getstate__: a user __getstate__'s result,
// else the instance dict when it is not empty, else None.
func instanceState(t *python.Thread, x *python.Instance) (python.Object, error) {
	if userHas(x, "__getstate__") {
		return python.CallMethod(t, x, "__getstate__", nil, nil)
	}
	if d := x.Attrs(); d.Len() > 0 {
		return d, nil
	}
	return python.None, nil
}

// newObj is _reconstruct with copyreg.__newobj__(_ex): y =
// cls.__new__(cls, *args, **kwargs).
func newObj(t *python.Thread, x python.Object, c *copier, cls *python.Type, args []python.Object, kwargs, state, listItems, dictItems python.Object) (python.Object, error) {
	if c != nil {
		da, err := c.deep(python.NewTuple(args))
		if err != nil {
			return nil, err
		}
		args = da.(*python.Tuple).Items()
		if kwargs != python.None {
			if kwargs, err = c.deep(kwargs); err != nil {
				return nil, err
			}
		}
	}
	nw, err := python.GetAttr(t, cls, "__new__")
	if err != nil {
		return nil, err
	}
	var kw []python.Kwarg
	if kd, ok := kwargs.(*python.Dict); ok {
		var ferr error
		kd.Items(func(k, v python.Object) bool {
			ks, ok := k.(*python.Str)
			if !ok {
				ferr = python.Errorf(python.TypeErrorType, "keywords must be strings")
				return false
			}
			kw = append(kw, python.Kwarg{Name: ks.String(), Value: v})
			return true
		})
		if ferr != nil {
			return nil, ferr
		}
	}
	y, err := python.Call(t, nw, append([]python.Object{cls}, args...), kw)
	if err != nil {
		return nil, err
	}
	return finish(t, x, c, y, state, listItems, dictItems, python.None)
}

// reconstruct is copy._reconstruct(x, memo, func, args, state, listiter,
// dictiter, state_setter).
func reconstruct(t *python.Thread, x python.Object, c *copier, fn, args, state, listIter, dictIter, setter python.Object) (python.Object, error) {
	if c != nil {
		var err error
		if args, err = c.deep(args); err != nil {
			return nil, err
		}
	}
	a, err := python.ToSlice(t, args)
	if err != nil {
		return nil, err
	}
	y, err := python.Call(t, fn, a, nil)
	if err != nil {
		return nil, err
	}
	return finish(t, x, c, y, state, listIter, dictIter, setter)
}

// finish is the rest of _reconstruct once y exists: the memo, the state,
// the list items and the dict items.
func finish(t *python.Thread, x python.Object, c *copier, y, state, listIter, dictIter, setter python.Object) (python.Object, error) {
	if c != nil {
		d, err := c.key(x)
		if err != nil {
			return nil, err
		}
		if err := c.memoSet(d, y); err != nil {
			return nil, err
		}
	}
	if state != python.None && state != nil {
		if c != nil {
			var err error
			if state, err = c.deep(state); err != nil {
				return nil, err
			}
		}
		if err := setState(t, y, state, setter); err != nil {
			return nil, err
		}
	}
	if listIter != python.None && listIter != nil {
		err := python.Iterate(t, listIter, func(item python.Object) error {
			if c != nil {
				var err error
				if item, err = c.deep(item); err != nil {
					return err
				}
			}
			_, err := python.CallMethod(t, y, "append", []python.Object{item}, nil)
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	if dictIter != python.None && dictIter != nil {
		err := python.Iterate(t, dictIter, func(item python.Object) error {
			kv, err := python.ToSlice(t, item)
			if err != nil {
				return err
			}
			if len(kv) != 2 {
				return python.Errorf(python.ValueErrorType, "not enough values to unpack (expected 2, got %d)", len(kv))
			}
			k, v := kv[0], kv[1]
			if c != nil {
				if k, err = c.deep(k); err != nil {
					return err
				}
				if v, err = c.deep(v); err != nil {
					return err
				}
			}
			return python.SetItem(t, y, k, v)
		})
		if err != nil {
			return nil, err
		}
	}
	return y, nil
}

// setState applies a reduced state: state_setter(y, state), __setstate__,
// or the instance dict (and slots) updated.
func setState(t *python.Thread, y, state, setter python.Object) error {
	if setter != python.None && setter != nil {
		_, err := python.Call(t, setter, []python.Object{y, state}, nil)
		return err
	}
	if has, err := python.HasAttr(t, y, "__setstate__"); err != nil {
		return err
	} else if has && userHas(y, "__setstate__") {
		_, err := python.CallMethod(t, y, "__setstate__", []python.Object{state}, nil)
		return err
	}
	var slots python.Object = python.None
	if tu, ok := state.(*python.Tuple); ok && len(tu.Items()) == 2 {
		state, slots = tu.Items()[0], tu.Items()[1]
	}
	if ok, err := python.TruthE(t, state); err != nil {
		return err
	} else if ok {
		var d python.Object
		switch v := y.(type) {
		case *python.Exception:
			d = v.Dict()
		case *python.Instance:
			d = v.Attrs()
		default:
			var err error
			if d, err = python.GetAttr(t, y, "__dict__"); err != nil {
				return err
			}
		}
		if _, err := python.CallMethod(t, d, "update", []python.Object{state}, nil); err != nil {
			return err
		}
	}
	if ok, err := python.TruthE(t, slots); err != nil {
		return err
	} else if ok {
		items, err := python.CallMethod(t, slots, "items", nil, nil)
		if err != nil {
			return err
		}
		return python.Iterate(t, items, func(kv python.Object) error {
			p := kv.(*python.Tuple).Items()
			name, err := python.StrOf(t, p[0])
			if err != nil {
				return err
			}
			return python.SetAttr(t, y, name, p[1])
		})
	}
	return nil
}
