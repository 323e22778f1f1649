package typing

import (
	"strings"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// NamedTuple: `class P(NamedTuple)` makes P a subclass of a hidden tuple
// subclass whose hooks turn the class into a named tuple when it is
// created (fields from the annotations, defaults from the class
// attributes) and make its instances (P.__new__'s argument rules).

// ntInfo is a named tuple class's fields.
type ntInfo struct {
	fields   []string
	defaults []python.Object // of the last len(defaults) fields
}

func initNamedTuple() {
	ntBase = python.NewBuiltinType("NamedTuple", "typing", python.TupleType, nil)
	ntBase.Hooks = &python.TypeHooks{Created: ntCreated, Call: ntCall}
}

func ntInfoOf(cls *python.Type) *ntInfo {
	for _, c := range cls.MRO() {
		if info, ok := c.Extra.(*ntInfo); ok {
			return info
		}
	}
	return nil
}

// ntCreated processes a class whose direct base is NamedTuple.
func ntCreated(t *python.Thread, cls *python.Type) error {
	direct := false
	for _, b := range cls.Bases() {
		if b == ntBase {
			direct = true
		}
	}
	if !direct {
		return nil
	}
	d := cls.Dict()
	info := &ntInfo{}
	var anns *python.Dict
	if v, ok := d.GetStr("__annotations__"); ok {
		anns, _ = v.(*python.Dict)
	}
	if anns == nil {
		anns = python.NewDict(0)
		d.SetStr("__annotations__", anns)
	}
	var firstDefault string
	for _, k := range anns.Keys() {
		name := python.StrValue(k)
		if strings.HasPrefix(name, "_") {
			return python.Errorf(python.ValueErrorType, "Field names cannot start with an underscore: %s", python.StrRepr(name))
		}
		info.fields = append(info.fields, name)
		if v, ok := d.GetStr(name); ok {
			if firstDefault == "" {
				firstDefault = name
			}
			info.defaults = append(info.defaults, v)
		} else if firstDefault != "" {
			s := ""
			if len(info.defaults) > 1 {
				s = "s"
			}
			return python.Errorf(python.TypeErrorType, "Non-default namedtuple field %s cannot follow default field%s %s", name, s, firstDefault)
		}
	}
	cls.Extra = info
	fields := make([]python.Object, len(info.fields))
	for i, f := range info.fields {
		fields[i] = python.NewStr(f)
		i := i
		cls.AddGetSet(f, func(t *python.Thread, obj python.Object) (python.Object, error) {
			items := tupleItems(obj)
			if i >= len(items) {
				return nil, python.Errorf(python.IndexErrorType, "tuple index out of range")
			}
			return items[i], nil
		}, func(t *python.Thread, obj, v python.Object) error {
			return python.Errorf(python.AttributeErrorType, "can't set attribute")
		})
	}
	fieldsT := python.NewTuple(fields)
	d.SetStr("_fields", fieldsT)
	d.SetStr("__match_args__", fieldsT)
	defs := python.NewDict(len(info.defaults))
	off := len(info.fields) - len(info.defaults)
	for i, v := range info.defaults {
		defs.SetStr(info.fields[off+i], v)
	}
	d.SetStr("_field_defaults", defs)
	if v, ok := d.GetStr("__doc__"); !ok || v == python.None {
		d.SetStr("__doc__", python.NewStr(cls.Name()+"("+strings.Join(info.fields, ", ")+")"))
	}
	setMethod := func(name string, f python.BuiltinFunc) {
		if _, ok := d.GetStr(name); !ok {
			d.SetStr(name, python.NewMethod(cls, name, f))
		}
	}
	setMethod("__repr__", ntRepr)
	setMethod("_asdict", ntAsDict)
	setMethod("_replace", ntReplace)
	setMethod("__getnewargs__", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		return python.NewTuple(append([]python.Object(nil), tupleItems(args[0])...)), nil
	})
	if _, ok := d.GetStr("__new__"); !ok {
		// P.__new__(cls, *fields), for copy and pickle-like protocols.
		d.SetStr("__new__", python.NewStaticMethod(python.NewBuiltin("__new__", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
			if len(args) == 0 {
				return nil, python.Errorf(python.TypeErrorType, "%s.__new__(): not enough arguments", cls.Name())
			}
			c, ok := args[0].(*python.Type)
			if !ok || !c.IsSubtype(cls) {
				return nil, python.Errorf(python.TypeErrorType, "%s.__new__(X): X is not a subtype of %s", cls.Name(), cls.Name())
			}
			return ntCall(t, c, args[1:], kwargs)
		})))
	}
	if _, ok := d.GetStr("_make"); !ok {
		d.SetStr("_make", python.NewClassMethod(cls, "_make", ntMake))
	}
	return nil
}

func tupleItems(x python.Object) []python.Object {
	if tu, ok := python.Unwrap(x).(*python.Tuple); ok {
		return tu.Items()
	}
	return nil
}

// ntCall is P(*args, **kwargs): P.__new__'s argument rules.
func ntCall(t *python.Thread, cls *python.Type, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	info := ntInfoOf(cls)
	if info == nil {
		return nil, python.Errorf(python.TypeErrorType, "Type NamedTuple cannot be instantiated; use a class that derives from it")
	}
	name := cls.Name() + ".__new__"
	n := len(info.fields)
	if len(args) > n {
		takes := itoa(n + 1)
		if len(info.defaults) > 0 {
			takes = "from " + itoa(n+1-len(info.defaults)) + " to " + itoa(n+1)
		}
		word := "arguments"
		if n == 0 && len(info.defaults) == 0 {
			word = "argument"
		}
		return nil, python.Errorf(python.TypeErrorType, "%s() takes %s positional %s but %d were given", name, takes, word, len(args)+1)
	}
	vals := make([]python.Object, n)
	copy(vals, args)
	for _, kw := range kwargs {
		i := index(info.fields, kw.Name)
		if i < 0 {
			return nil, python.Errorf(python.TypeErrorType, "%s() got an unexpected keyword argument '%s'", name, kw.Name)
		}
		if vals[i] != nil {
			return nil, python.Errorf(python.TypeErrorType, "%s() got multiple values for argument '%s'", name, kw.Name)
		}
		vals[i] = kw.Value
	}
	off := n - len(info.defaults)
	var missing []string
	for i := range vals {
		if vals[i] == nil {
			if i >= off {
				vals[i] = info.defaults[i-off]
			} else {
				missing = append(missing, "'"+info.fields[i]+"'")
			}
		}
	}
	if len(missing) > 0 {
		return nil, missingArgs(name, missing)
	}
	return python.NewInstance(cls, python.NewTuple(vals)), nil
}

func index(xs []string, s string) int {
	for i, x := range xs {
		if x == s {
			return i
		}
	}
	return -1
}

func missingArgs(name string, missing []string) error {
	var list string
	switch len(missing) {
	case 1:
		list = missing[0]
	case 2:
		list = missing[0] + " and " + missing[1]
	default:
		list = strings.Join(missing[:len(missing)-1], ", ") + ", and " + missing[len(missing)-1]
	}
	word := "argument"
	if len(missing) > 1 {
		word = "arguments"
	}
	return python.Errorf(python.TypeErrorType, "%s() missing %d required positional %s: %s", name, len(missing), word, list)
}

func itoa(n int) string {
	if n >= 0 && n < 10 {
		return string(rune('0' + n))
	}
	s := ""
	neg := n < 0
	if neg {
		n = -n
	}
	for n > 0 {
		s = string(rune('0'+n%10)) + s
		n /= 10
	}
	if neg {
		s = "-" + s
	}
	return s
}

func ntRepr(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	self := args[0]
	info := ntInfoOf(self.Type())
	items := tupleItems(self)
	var b strings.Builder
	b.WriteString(self.Type().Name())
	b.WriteByte('(')
	for i, v := range items {
		if i > 0 {
			b.WriteString(", ")
		}
		if info != nil && i < len(info.fields) {
			b.WriteString(info.fields[i])
			b.WriteByte('=')
		}
		r, err := python.Repr(t, v)
		if err != nil {
			return nil, err
		}
		b.WriteString(r)
	}
	b.WriteByte(')')
	return python.NewStr(b.String()), nil
}

func ntAsDict(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	self := args[0]
	info := ntInfoOf(self.Type())
	d := python.NewDict(len(info.fields))
	for i, v := range tupleItems(self) {
		if i < len(info.fields) {
			d.SetStr(info.fields[i], v)
		}
	}
	return d, nil
}

func ntReplace(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	if len(args) != 1 {
		return nil, python.Errorf(python.TypeErrorType, "%s._replace() takes 1 positional argument but %d were given", args[0].Type().Name(), len(args))
	}
	self := args[0]
	info := ntInfoOf(self.Type())
	vals := append([]python.Object(nil), tupleItems(self)...)
	var unknown []python.Object
	for _, kw := range kwargs {
		i := index(info.fields, kw.Name)
		if i < 0 {
			unknown = append(unknown, python.NewStr(kw.Name))
			continue
		}
		vals[i] = kw.Value
	}
	if len(unknown) > 0 {
		r, err := python.Repr(t, python.NewList(unknown))
		if err != nil {
			return nil, err
		}
		return nil, python.Errorf(python.ValueErrorType, "Got unexpected field names: %s", r)
	}
	return python.NewInstance(self.Type(), python.NewTuple(vals)), nil
}

func ntMake(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	if len(args) != 2 {
		return nil, python.Errorf(python.TypeErrorType, "_make() takes 2 positional arguments but %d were given", len(args))
	}
	cls := args[0].(*python.Type)
	info := ntInfoOf(cls)
	items, err := python.ToSlice(t, args[1])
	if err != nil {
		return nil, err
	}
	if len(items) != len(info.fields) {
		return nil, python.Errorf(python.TypeErrorType, "Expected %d arguments, got %d", len(info.fields), len(items))
	}
	return python.NewInstance(cls, python.NewTuple(append([]python.Object(nil), items...))), nil
}

// namedTupleCall is NamedTuple(typename, fields=None, /, **kwargs).
func namedTupleCall(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	if len(args) < 1 {
		return nil, python.Errorf(python.TypeErrorType, "NamedTuple() missing 1 required positional argument: 'typename'")
	}
	if len(args) > 2 {
		return nil, python.Errorf(python.TypeErrorType, "NamedTuple() takes from 1 to 2 positional arguments but %d were given", len(args))
	}
	name, ok := args[0].(*python.Str)
	if !ok {
		return nil, python.Errorf(python.TypeErrorType, "type.__new__() argument 1 must be str, not %s", python.TypeName(args[0]))
	}
	anns := python.NewDict(4)
	if len(args) == 2 && args[1] != python.None {
		err := python.Iterate(t, args[1], func(pair python.Object) error {
			kv, err := python.ToSlice(t, pair)
			if err != nil {
				return err
			}
			if len(kv) != 2 {
				return python.Errorf(python.ValueErrorType, "not enough values to unpack (expected 2, got %d)", len(kv))
			}
			fname, ok := kv[0].(*python.Str)
			if !ok {
				return python.Errorf(python.TypeErrorType, "Type names and field names must be strings")
			}
			tp, err := typeCheck(t, kv[1], "field "+fname.String()+" annotation must be a type")
			if err != nil {
				return err
			}
			return anns.Set(t, fname, tp)
		})
		if err != nil {
			return nil, err
		}
	}
	for _, kw := range kwargs {
		anns.SetStr(kw.Name, kw.Value)
	}
	ns := python.NewDict(4)
	ns.SetStr("__annotations__", anns)
	ns.SetStr("__module__", callerModule(t))
	return python.NewClass(t, nil, name.String(), []*python.Type{ntBase}, ns)
}

// callerModule is the __name__ of the calling code's globals.
func callerModule(t *python.Thread) python.Object {
	if v, ok := t.Globals().GetStr("__name__"); ok {
		return v
	}
	return python.NewStr("__main__")
}
