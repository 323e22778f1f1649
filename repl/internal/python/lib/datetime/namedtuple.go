package datetime

import (
	"strings"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// newTupleClass makes a named tuple class, as collections.namedtuple(name,
// fields, module=module) does: a subclass of tuple whose items are also
// read by name, with _fields, _asdict, _replace and _make. Its repr is
// "Name(field=value, ...)", with reprName (when not "") for Name.
func newTupleClass(name, module, reprName string, fields []string) (*python.Type, error) {
	nf := len(fields)
	names := make([]python.Object, nf)
	for i, f := range fields {
		names[i] = python.NewStr(f)
	}
	fieldTuple := python.NewTuple(names)
	ns := python.NewDict(8)
	ns.SetStr("__module__", python.NewStr(module))
	ns.SetStr("__qualname__", python.NewStr(name))
	ns.SetStr("__doc__", python.NewStr(name+"("+strings.Join(fields, ", ")+")"))
	ns.SetStr("__slots__", python.NewTuple(nil))
	ns.SetStr("_fields", fieldTuple)
	ns.SetStr("_field_defaults", python.NewDict(0))
	ns.SetStr("__match_args__", fieldTuple)
	cls, err := python.NewClass(nil, nil, name, []*python.Type{python.TupleType}, ns)
	if err != nil {
		return nil, err
	}
	newSig := &python.Signature{Name: name + ".__new__", Pos: append([]string{"_cls"}, fields...), Required: nf + 1}
	cls.SetAttr("__new__", python.NewStaticMethod(python.NewBuiltin("__new__", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		a, _, _, err := newSig.Bind(args, kwargs)
		if err != nil {
			return nil, err
		}
		c, ok := a[0].(*python.Type)
		if !ok || !c.IsSubtype(python.TupleType) {
			return nil, python.Errorf(python.TypeErrorType, "tuple.__new__(X): X is not a type object (%s)", python.TypeName(a[0]))
		}
		return python.NewInstance(c, python.NewTuple(append([]python.Object(nil), a[1:]...))), nil
	})))
	items := func(t *python.Thread, x python.Object) ([]python.Object, error) {
		if tu, ok := python.Unwrap(x).(*python.Tuple); ok {
			return tu.Items(), nil
		}
		return nil, python.Errorf(python.TypeErrorType, "descriptor requires a '%s' object but received a '%s'", name, python.TypeName(x))
	}
	cls.SetAttr("__repr__", python.NewMethod(cls, "__repr__", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		vals, err := items(t, args[0])
		if err != nil {
			return nil, err
		}
		var b strings.Builder
		if reprName != "" {
			b.WriteString(reprName)
		} else {
			b.WriteString(python.TypeName(args[0]))
		}
		b.WriteByte('(')
		for i, f := range fields {
			if i >= len(vals) {
				break
			}
			if i > 0 {
				b.WriteString(", ")
			}
			r, err := python.Repr(t, vals[i])
			if err != nil {
				return nil, err
			}
			b.WriteString(f + "=" + r)
		}
		b.WriteByte(')')
		return python.NewStr(b.String()), nil
	}))
	cls.SetAttr("_asdict", python.NewMethod(cls, "_asdict", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		vals, err := items(t, args[0])
		if err != nil {
			return nil, err
		}
		d := python.NewDict(nf)
		for i, f := range fields {
			if i < len(vals) {
				d.SetStr(f, vals[i])
			}
		}
		return d, nil
	}))
	cls.SetAttr("_replace", python.NewMethod(cls, "_replace", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		if len(args) != 1 {
			return nil, python.Errorf(python.TypeErrorType, "%s._replace() takes 1 positional argument but %d were given", name, len(args))
		}
		vals, err := items(t, args[0])
		if err != nil {
			return nil, err
		}
		out := append([]python.Object(nil), vals...)
		for _, kw := range kwargs {
			found := false
			for i, f := range fields {
				if f == kw.Name && i < len(out) {
					out[i], found = kw.Value, true
				}
			}
			if !found {
				return nil, python.Errorf(python.ValueErrorType, "Got unexpected field names: ['%s']", kw.Name)
			}
		}
		return python.NewInstance(args[0].Type(), python.NewTuple(out)), nil
	}))
	cls.SetAttr("_make", python.NewClassMethod(cls, "_make", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		if len(args) != 2 || len(kwargs) > 0 {
			return nil, python.Errorf(python.TypeErrorType, "%s._make() takes 2 positional arguments but %d were given", name, len(args))
		}
		vals, err := python.ToSlice(t, args[1])
		if err != nil {
			return nil, err
		}
		if len(vals) != nf {
			return nil, python.Errorf(python.TypeErrorType, "Expected %d arguments, got %d", nf, len(vals))
		}
		c, _ := args[0].(*python.Type)
		if c == nil {
			c = cls
		}
		return python.NewInstance(c, python.NewTuple(append([]python.Object(nil), vals...))), nil
	}))
	for i, f := range fields {
		i := i
		cls.AddGetSet(f, func(t *python.Thread, x python.Object) (python.Object, error) {
			vals, err := items(t, x)
			if err != nil {
				return nil, err
			}
			if i >= len(vals) {
				return nil, python.Errorf(python.IndexErrorType, "tuple index out of range")
			}
			return vals[i], nil
		}, func(t *python.Thread, x, v python.Object) error {
			return python.Errorf(python.AttributeErrorType, "can't set attribute")
		})
	}
	return cls, nil
}

// newTuple returns an instance of a class newTupleClass made.
func newTuple(cls *python.Type, items ...python.Object) python.Object {
	return python.NewInstance(cls, python.NewTuple(items))
}
