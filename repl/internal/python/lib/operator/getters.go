package operator

import (
	"strings"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// getterTypes are the classes of one interpreter's operator module.
type getterTypes struct {
	item, attr, method *python.Type
}

func newGetterTypes() *getterTypes {
	g := &getterTypes{}
	g.item = python.NewBuiltinType("itemgetter", "operator", nil, func(t *python.Thread, cls *python.Type, args []obj, kwargs []kwarg) (obj, error) {
		if len(kwargs) > 0 {
			return nil, python.Errorf(python.TypeErrorType, "itemgetter() takes no keyword arguments")
		}
		if len(args) == 0 {
			return nil, python.Errorf(python.TypeErrorType, "itemgetter expected 1 argument, got 0")
		}
		return &itemGetter{typ: g.item, items: append([]obj(nil), args...)}, nil
	})
	g.attr = python.NewBuiltinType("attrgetter", "operator", nil, func(t *python.Thread, cls *python.Type, args []obj, kwargs []kwarg) (obj, error) {
		if len(kwargs) > 0 {
			return nil, python.Errorf(python.TypeErrorType, "attrgetter() takes no keyword arguments")
		}
		if len(args) == 0 {
			return nil, python.Errorf(python.TypeErrorType, "attrgetter expected 1 argument, got 0")
		}
		a := &attrGetter{typ: g.attr}
		for _, x := range args {
			s, ok := x.(*python.Str)
			if !ok {
				return nil, python.Errorf(python.TypeErrorType, "attribute name must be a string")
			}
			a.names = append(a.names, s.String())
			a.paths = append(a.paths, strings.Split(s.String(), "."))
		}
		return a, nil
	})
	g.method = python.NewBuiltinType("methodcaller", "operator", nil, func(t *python.Thread, cls *python.Type, args []obj, kwargs []kwarg) (obj, error) {
		if len(args) == 0 {
			return nil, python.Errorf(python.TypeErrorType, "methodcaller needs at least one argument, the method name")
		}
		s, ok := args[0].(*python.Str)
		if !ok {
			return nil, python.Errorf(python.TypeErrorType, "method name must be a string")
		}
		return &methodCaller{typ: g.method, name: s.String(), args: append([]obj(nil), args[1:]...), kwargs: append([]kwarg(nil), kwargs...)}, nil
	})
	for _, c := range []*python.Type{g.item, g.attr, g.method} {
		c.SetFinal()
		c.AddMethod("__reduce__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			return nil, python.NotSupported("pickling operator objects", "")
		})
	}
	return g
}

// oneArg checks the single argument of a getter's call.
func oneArg(fn string, args []obj, kwargs []kwarg) error {
	if len(kwargs) > 0 {
		return python.Errorf(python.TypeErrorType, "%s() takes no keyword arguments", fn)
	}
	if len(args) != 1 {
		return python.Errorf(python.TypeErrorType, "%s expected 1 argument, got %d", fn, len(args))
	}
	return nil
}

// itemGetter is operator.itemgetter(*items).
type itemGetter struct {
	typ   *python.Type
	items []obj
}

func (g *itemGetter) Type() *python.Type { return g.typ }

// PyCall returns obj[item] or the tuple of obj[item] for each item.
func (g *itemGetter) PyCall(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
	if err := oneArg("itemgetter", args, kwargs); err != nil {
		return nil, err
	}
	if len(g.items) == 1 {
		return python.GetItem(t, args[0], g.items[0])
	}
	out := make([]obj, len(g.items))
	for i, k := range g.items {
		v, err := python.GetItem(t, args[0], k)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return python.NewTuple(out), nil
}

// PyRepr renders operator.itemgetter(1, 2).
func (g *itemGetter) PyRepr(t *python.Thread) (string, error) {
	return reprCall(t, g, "operator.itemgetter", g.items, nil)
}

// attrGetter is operator.attrgetter(*names).
type attrGetter struct {
	typ   *python.Type
	names []string
	paths [][]string
}

func (g *attrGetter) Type() *python.Type { return g.typ }

// PyCall returns obj.name (dotted names follow each attribute).
func (g *attrGetter) PyCall(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
	if err := oneArg("attrgetter", args, kwargs); err != nil {
		return nil, err
	}
	get := func(path []string) (obj, error) {
		v := args[0]
		for _, name := range path {
			var err error
			if v, err = python.GetAttr(t, v, name); err != nil {
				return nil, err
			}
		}
		return v, nil
	}
	if len(g.paths) == 1 {
		return get(g.paths[0])
	}
	out := make([]obj, len(g.paths))
	for i, p := range g.paths {
		v, err := get(p)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return python.NewTuple(out), nil
}

// PyRepr renders operator.attrgetter('a.b').
func (g *attrGetter) PyRepr(t *python.Thread) (string, error) {
	items := make([]obj, len(g.names))
	for i, n := range g.names {
		items[i] = python.NewStr(n)
	}
	return reprCall(t, g, "operator.attrgetter", items, nil)
}

// methodCaller is operator.methodcaller(name, *args, **kwargs).
type methodCaller struct {
	typ    *python.Type
	name   string
	args   []obj
	kwargs []kwarg
}

func (m *methodCaller) Type() *python.Type { return m.typ }

// PyCall returns obj.name(*args, **kwargs).
func (m *methodCaller) PyCall(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
	if err := oneArg("methodcaller", args, kwargs); err != nil {
		return nil, err
	}
	fn, err := python.GetAttr(t, args[0], m.name)
	if err != nil {
		return nil, err
	}
	return python.Call(t, fn, m.args, m.kwargs)
}

// PyRepr renders operator.methodcaller('name', 1, key=2).
func (m *methodCaller) PyRepr(t *python.Thread) (string, error) {
	return reprCall(t, m, "operator.methodcaller", append([]obj{python.NewStr(m.name)}, m.args...), m.kwargs)
}

// reprCall renders name(arg, ..., key=value, ...).
func reprCall(t *python.Thread, self obj, name string, args []obj, kwargs []kwarg) (string, error) {
	var b strings.Builder
	b.WriteString(name)
	b.WriteByte('(')
	for i, a := range args {
		if i > 0 {
			b.WriteString(", ")
		}
		r, err := python.Repr(t, a)
		if err != nil {
			return "", err
		}
		b.WriteString(r)
	}
	for i, kw := range kwargs {
		if i > 0 || len(args) > 0 {
			b.WriteString(", ")
		}
		r, err := python.Repr(t, kw.Value)
		if err != nil {
			return "", err
		}
		b.WriteString(kw.Name + "=" + r)
	}
	b.WriteByte(')')
	return b.String(), nil
}
