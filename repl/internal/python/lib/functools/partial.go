package functools

import (
	"strings"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// partial is functools.partial(func, *args, **keywords).
type partial struct {
	ident
	typ  *python.Type
	fn   obj
	args []obj
	kw   *python.Dict
	dict *python.Dict // attributes set on the object; nil: none yet
}

func (p *partial) Type() *python.Type { return p.typ }

// PyCall calls func(*args, *more, **{**keywords, **kw}).
func (p *partial) PyCall(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
	all := make([]obj, 0, len(p.args)+len(args))
	all = append(append(all, p.args...), args...)
	var kw []kwarg
	if p.kw.Len() > 0 || len(kwargs) > 0 {
		merged := python.NewDict(p.kw.Len() + len(kwargs))
		p.kw.Items(func(k, v obj) bool { _ = merged.Set(t, k, v); return true })
		for _, a := range kwargs {
			merged.SetStr(a.Name, a.Value)
		}
		var err error
		merged.Items(func(k, v obj) bool {
			if !python.IsStr(k) {
				err = python.Errorf(python.TypeErrorType, "keywords must be strings")
				return false
			}
			kw = append(kw, kwarg{Name: python.StrValue(k), Value: v})
			return true
		})
		if err != nil {
			return nil, err
		}
	}
	return python.Call(t, p.fn, all, kw)
}

// PyGetAttr reads an attribute set on the object.
func (p *partial) PyGetAttr(t *python.Thread, name string) (obj, error) {
	if name == "__dict__" {
		if p.dict == nil {
			p.dict = python.NewDict(4)
		}
		return p.dict, nil
	}
	if p.dict != nil {
		if v, ok := p.dict.GetStr(name); ok {
			return v, nil
		}
	}
	return nil, nil
}

// PySetAttr sets an attribute.
func (p *partial) PySetAttr(t *python.Thread, name string, v obj) error {
	if p.dict == nil {
		p.dict = python.NewDict(4)
	}
	p.dict.SetStr(name, v)
	return nil
}

func (m *module) partialRepr(t *python.Thread, self obj, p *partial) (string, error) {
	c := self.Type()
	name := c.Module() + "." + c.Qualname()
	if m.reprs[p] {
		return "...", nil
	}
	m.reprs[p] = true
	defer delete(m.reprs, p)
	parts := []string{}
	r, err := python.Repr(t, p.fn)
	if err != nil {
		return "", err
	}
	parts = append(parts, r)
	for _, a := range p.args {
		r, err := python.Repr(t, a)
		if err != nil {
			return "", err
		}
		parts = append(parts, r)
	}
	p.kw.Items(func(k, v obj) bool {
		var ks, vs string
		if ks, err = python.StrOf(t, k); err != nil {
			return false
		}
		if vs, err = python.Repr(t, v); err != nil {
			return false
		}
		parts = append(parts, ks+"="+vs)
		return true
	})
	if err != nil {
		return "", err
	}
	return name + "(" + strings.Join(parts, ", ") + ")", nil
}

// PyRepr renders functools.partial(<function f at 0x...>, 1, k=2).
func (p *partial) PyRepr(t *python.Thread) (string, error) { return p.repr(t, p) }

func (p *partial) repr(t *python.Thread, self obj) (string, error) {
	m, _ := p.typ.Extra.(*module)
	return m.partialRepr(t, self, p)
}

// newPartial builds partial(fn, *args, **kwargs) of type typ.
func (m *module) newPartial(t *python.Thread, args []obj, kwargs []kwarg) (*partial, error) {
	if len(args) < 1 {
		return nil, python.Errorf(python.TypeErrorType, "type 'partial' takes at least one argument")
	}
	fn := args[0]
	var pargs []obj
	pkw := python.NewDict(len(kwargs))
	if inner, ok := python.Unwrap(fn).(*partial); ok && inner.dict == nil && !userCall(fn) {
		pargs = append(pargs, inner.args...)
		inner.kw.Items(func(k, v obj) bool { _ = pkw.Set(t, k, v); return true })
		fn = inner.fn
	}
	if !python.Callable(fn) {
		return nil, python.Errorf(python.TypeErrorType, "the first argument must be callable")
	}
	pargs = append(pargs, args[1:]...)
	for _, kw := range kwargs {
		pkw.SetStr(kw.Name, kw.Value)
	}
	return &partial{typ: m.partial, fn: fn, args: pargs, kw: pkw}, nil
}

// userCall reports whether fn is an instance of a partial subclass that
// overrides __call__ (CPython flattens only partials it calls itself).
func userCall(fn obj) bool {
	for _, c := range fn.Type().MRO() {
		if c.IsBuiltin() {
			return false
		}
		if _, ok := c.Dict().GetStr("__call__"); ok {
			return true
		}
	}
	return false
}

func partialOf(x obj) *partial {
	p, _ := python.Unwrap(x).(*partial)
	return p
}

func (m *module) makePartial() {
	var c *python.Type
	c = python.NewBuiltinType("partial", "functools", nil, func(t *python.Thread, cls *python.Type, args []obj, kwargs []kwarg) (obj, error) {
		p, err := m.newPartial(t, args, kwargs)
		if err != nil {
			return nil, err
		}
		if cls != c {
			return python.NewInstance(cls, p), nil
		}
		return p, nil
	})
	c.Extra = m
	m.partial = c
	readonly := func(t *python.Thread, x, v obj) error {
		return python.Errorf(python.AttributeErrorType, "readonly attribute")
	}
	c.AddGetSet("func", func(t *python.Thread, x obj) (obj, error) { return partialOf(x).fn, nil }, readonly)
	c.AddGetSet("args", func(t *python.Thread, x obj) (obj, error) {
		return python.NewTuple(append([]obj(nil), partialOf(x).args...)), nil
	}, readonly)
	c.AddGetSet("keywords", func(t *python.Thread, x obj) (obj, error) { return partialOf(x).kw, nil }, readonly)
	c.AddMethod("__call__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		return partialOf(args[0]).PyCall(t, args[1:], kwargs)
	})
	c.AddMethod("__repr__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		s, err := partialOf(args[0]).repr(t, args[0])
		return python.NewStr(s), err
	})
	c.AddMethod("__reduce__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		p := partialOf(args[0])
		var kw, dict obj = python.None, python.None
		if p.kw.Len() > 0 {
			kw = p.kw
		}
		if p.dict != nil && p.dict.Len() > 0 {
			dict = p.dict
		}
		state := python.NewTuple([]obj{p.fn, python.NewTuple(append([]obj(nil), p.args...)), kw, dict})
		return python.NewTuple([]obj{args[0].Type(), python.NewTuple([]obj{p.fn}), state}), nil
	})
	c.AddMethod("__setstate__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if len(args) != 2 {
			return nil, python.Errorf(python.TypeErrorType, "partial.__setstate__() takes exactly one argument (%d given)", len(args)-1)
		}
		st, ok := args[1].(*python.Tuple)
		if !ok || len(st.Items()) != 4 {
			return nil, python.Errorf(python.TypeErrorType, "invalid partial state")
		}
		items := st.Items()
		fn, a, kw, dict := items[0], items[1], items[2], items[3]
		at, ok := a.(*python.Tuple)
		if !python.Callable(fn) || !ok || (kw != python.None && python.Unwrap(kw).Type() != python.DictType) {
			return nil, python.Errorf(python.TypeErrorType, "invalid partial state")
		}
		p := partialOf(args[0])
		p.fn, p.args = fn, append([]obj(nil), at.Items()...)
		p.kw = python.NewDict(4)
		if kw != python.None {
			if err := python.DictUpdate(t, p.kw, []obj{kw}, nil); err != nil {
				return nil, err
			}
		}
		p.dict = nil
		if d, ok := dict.(*python.Dict); ok {
			p.dict = d.Copy()
		}
		return python.None, nil
	})
	c.AddClassMethod("__class_getitem__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		return classGetItem(t, args, kwargs)
	})
}

var updateWrapperParams = &python.Signature{Name: "update_wrapper", Pos: []string{"wrapper", "wrapped", "assigned", "updated"}, Required: 2}

// updateWrapperFunc implements functools.update_wrapper.
func (m *module) updateWrapperFunc(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
	a, err := updateWrapperParams.Values(args, kwargs)
	if err != nil {
		return nil, err
	}
	assigned, updated := a[2], a[3]
	if assigned == nil {
		assigned = strs(wrapperAssignments...)
	}
	if updated == nil {
		updated = strs(wrapperUpdates...)
	}
	return updateWrapper(t, a[0], a[1], assigned, updated)
}

// updateWrapper copies the wrapped function's attributes to the wrapper.
func updateWrapper(t *python.Thread, wrapper, wrapped, assigned, updated obj) (obj, error) {
	err := python.Iterate(t, assigned, func(name obj) error {
		n, err := attrName(name)
		if err != nil {
			return err
		}
		v, err := python.GetAttr(t, wrapped, n)
		if err != nil {
			if python.IsInstance(err, python.AttributeErrorType) {
				return nil
			}
			return err
		}
		return python.SetAttr(t, wrapper, n, v)
	})
	if err != nil {
		return nil, err
	}
	err = python.Iterate(t, updated, func(name obj) error {
		n, err := attrName(name)
		if err != nil {
			return err
		}
		dst, err := python.GetAttr(t, wrapper, n)
		if err != nil {
			return err
		}
		src, err := python.GetAttr(t, wrapped, n)
		if err != nil {
			if !python.IsInstance(err, python.AttributeErrorType) {
				return err
			}
			src = python.NewDict(0)
		}
		_, err = python.CallMethod(t, dst, "update", []obj{src}, nil)
		return err
	})
	if err != nil {
		return nil, err
	}
	return wrapper, python.SetAttr(t, wrapper, "__wrapped__", wrapped)
}

func attrName(x obj) (string, error) {
	if !python.IsStr(x) {
		return "", python.Errorf(python.TypeErrorType, "attribute name must be string, not '%s'", python.TypeName(x))
	}
	return python.StrValue(x), nil
}

var wrapsParams = &python.Signature{Name: "wraps", Pos: []string{"wrapped", "assigned", "updated"}, Required: 1}

// wraps implements functools.wraps: partial(update_wrapper, wrapped=...,
// assigned=..., updated=...).
func (m *module) wraps(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
	a, err := wrapsParams.Values(args, kwargs)
	if err != nil {
		return nil, err
	}
	assigned, updated := a[1], a[2]
	if assigned == nil {
		assigned = strs(wrapperAssignments...)
	}
	if updated == nil {
		updated = strs(wrapperUpdates...)
	}
	p, err := m.newPartial(t, []obj{m.updateWrapper}, []kwarg{{Name: "wrapped", Value: a[0]}, {Name: "assigned", Value: assigned}, {Name: "updated", Value: updated}})
	return p, err
}
