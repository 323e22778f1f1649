package collections

import (
	"strings"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// keywords are Python's keywords (keyword.kwlist).
var keywords = map[string]bool{
	"False": true, "None": true, "True": true, "and": true, "as": true, "assert": true, "async": true,
	"await": true, "break": true, "class": true, "continue": true, "def": true, "del": true, "elif": true,
	"else": true, "except": true, "finally": true, "for": true, "from": true, "global": true, "if": true,
	"import": true, "in": true, "is": true, "lambda": true, "nonlocal": true, "not": true, "or": true,
	"pass": true, "raise": true, "return": true, "try": true, "while": true, "with": true, "yield": true,
}

func isIdentifier(t *python.Thread, s string) (bool, error) {
	r, err := callMethod(t, python.NewStr(s), "isidentifier")
	if err != nil {
		return false, err
	}
	return truth(t, r)
}

var namedtupleParams = &python.Signature{Name: "namedtuple", Pos: []string{"typename", "field_names"}, Required: 2, KwOnly: []string{"rename", "defaults", "module"}}

// namedtupleFunc implements collections.namedtuple.
func namedtupleFunc(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
	a, err := namedtupleParams.Values(args, kwargs)
	if err != nil {
		return nil, err
	}
	var fields []string
	if python.IsStr(a[1]) {
		s, err := callMethod(t, a[1], "replace", python.NewStr(","), python.NewStr(" "))
		if err != nil {
			return nil, err
		}
		parts, err := callMethod(t, s, "split")
		if err != nil {
			return nil, err
		}
		items, err := python.ToSlice(t, parts)
		if err != nil {
			return nil, err
		}
		for _, p := range items {
			fields = append(fields, python.StrValue(p))
		}
	} else {
		err := python.Iterate(t, a[1], func(x obj) error {
			s, err := python.StrOf(t, x)
			fields = append(fields, s)
			if len(fields)&1023 == 0 {
				if err := t.CheckSize(int64(len(fields)) * 64); err != nil {
					return err
				}
			}
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	typename, err := python.StrOf(t, a[0])
	if err != nil {
		return nil, err
	}
	rename := false
	if a[2] != nil {
		if rename, err = truth(t, a[2]); err != nil {
			return nil, err
		}
	}
	if rename {
		seen := map[string]bool{}
		for i, name := range fields {
			ok, err := isIdentifier(t, name)
			if err != nil {
				return nil, err
			}
			if !ok || keywords[name] || strings.HasPrefix(name, "_") || seen[name] {
				fields[i] = "_" + itoa(i)
			}
			seen[name] = true
		}
	}
	for _, name := range append([]string{typename}, fields...) {
		ok, err := isIdentifier(t, name)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, python.Errorf(python.ValueErrorType, "Type names and field names must be valid identifiers: %s", python.StrRepr(name))
		}
		if keywords[name] {
			return nil, python.Errorf(python.ValueErrorType, "Type names and field names cannot be a keyword: %s", python.StrRepr(name))
		}
	}
	seen := map[string]bool{}
	for _, name := range fields {
		if strings.HasPrefix(name, "_") && !rename {
			return nil, python.Errorf(python.ValueErrorType, "Field names cannot start with an underscore: %s", python.StrRepr(name))
		}
		if seen[name] {
			return nil, python.Errorf(python.ValueErrorType, "Encountered duplicate field name: %s", python.StrRepr(name))
		}
		seen[name] = true
	}
	var defaults []obj
	hasDefaults := a[3] != nil && a[3] != python.None
	if hasDefaults {
		if defaults, err = python.ToSlice(t, a[3]); err != nil {
			return nil, err
		}
		if len(defaults) > len(fields) {
			return nil, python.Errorf(python.TypeErrorType, "Got more default values than field names")
		}
	}
	module := "__main__"
	if a[4] != nil && a[4] != python.None {
		if module, err = python.StrOf(t, a[4]); err != nil {
			return nil, err
		}
	} else if v, ok := t.Globals().GetStr("__name__"); ok && python.IsStr(v) {
		module = python.StrValue(v)
	}
	return NewNamedTuple(t, typename, fields, defaults, module)
}

func itoa(i int) string {
	r, _ := python.Repr(nil, python.MakeInt(int64(i)))
	return r
}

// NewNamedTuple makes a named tuple class as collections.namedtuple does
// (its arguments already validated): fields are the field names, defaults
// the default values of the last len(defaults) fields, module the class's
// __module__.
func NewNamedTuple(t *python.Thread, typename string, fields []string, defaults []obj, module string) (*python.Type, error) {
	nf := len(fields)
	fieldObjs := make([]obj, nf)
	for i, f := range fields {
		fieldObjs[i] = python.NewStr(f)
	}
	fieldTuple := python.NewTuple(fieldObjs)
	fieldDefaults := python.NewDict(len(defaults))
	for i, v := range defaults {
		fieldDefaults.SetStr(fields[nf-len(defaults)+i], v)
	}
	argList := strings.Join(fields, ", ")
	if nf == 1 {
		argList += ","
	}
	ns := python.NewDict(16)
	ns.SetStr("__module__", python.NewStr(module))
	ns.SetStr("__qualname__", python.NewStr(typename))
	ns.SetStr("__doc__", python.NewStr(typename+"("+argList+")"))
	ns.SetStr("__slots__", python.NewTuple(nil))
	ns.SetStr("_fields", fieldTuple)
	ns.SetStr("_field_defaults", fieldDefaults)
	ns.SetStr("__match_args__", fieldTuple)
	cls, err := python.NewClass(t, nil, typename, []*python.Type{python.TupleType}, ns)
	if err != nil {
		return nil, err
	}
	newParams := &python.Signature{Name: typename + ".__new__", Pos: append([]string{"_cls"}, fields...), Required: 1 + nf - len(defaults)}
	cls.SetAttr("__new__", python.NewBuiltin("__new__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		a, err := newParams.Values(args, kwargs)
		if err != nil {
			return nil, err
		}
		c, err := tupleSubclass(a[0])
		if err != nil {
			return nil, err
		}
		items := a[1:]
		for i := range items {
			if items[i] == nil {
				items[i] = defaults[i-(nf-len(defaults))]
			}
		}
		return python.NewInstance(c, python.NewTuple(items)), nil
	}))
	cls.SetAttr("_make", python.NewClassMethod(cls, "_make", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		a, err := (&python.Signature{Name: typename + "._make", Pos: []string{"cls", "iterable"}, Required: 2}).Values(args, kwargs)
		if err != nil {
			return nil, err
		}
		c, err := tupleSubclass(a[0])
		if err != nil {
			return nil, err
		}
		items, err := python.ToSlice(t, a[1])
		if err != nil {
			return nil, err
		}
		if len(items) != nf {
			return nil, python.Errorf(python.TypeErrorType, "Expected %d arguments, got %d", nf, len(items))
		}
		return python.NewInstance(c, python.NewTuple(append([]obj(nil), items...))), nil
	}))
	cls.SetAttr("_replace", python.NewMethod(cls, "_replace", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if len(args) != 1 {
			return nil, countError(typename+"._replace", len(args)-1, 0, 0)
		}
		self := args[0]
		cur, err := python.ToSlice(t, self)
		if err != nil {
			return nil, err
		}
		kw := map[string]obj{}
		for _, k := range kwargs {
			kw[k.Name] = k.Value
		}
		vals := make([]obj, 0, nf)
		for i, f := range fields {
			if i >= len(cur) {
				break
			}
			if v, ok := kw[f]; ok {
				vals = append(vals, v)
				delete(kw, f)
			} else {
				vals = append(vals, cur[i])
			}
		}
		r, err := callMethod(t, self, "_make", python.NewList(vals))
		if err != nil {
			return nil, err
		}
		if len(kw) > 0 {
			var left []obj
			for _, k := range kwargs {
				if _, ok := kw[k.Name]; ok {
					left = append(left, python.NewStr(k.Name))
				}
			}
			lr, err := python.Repr(t, python.NewList(left))
			if err != nil {
				return nil, err
			}
			return nil, python.Errorf(python.ValueErrorType, "Got unexpected field names: %s", lr)
		}
		return r, nil
	}))
	cls.SetAttr("__repr__", python.NewMethod(cls, "__repr__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if len(args) != 1 {
			return nil, countError(typename+".__repr__", len(args)-1, 0, 0)
		}
		items, err := python.ToSlice(t, args[0])
		if err != nil {
			return nil, err
		}
		if len(items) != nf {
			if len(items) < nf {
				return nil, python.Errorf(python.TypeErrorType, "not enough arguments for format string")
			}
			return nil, python.Errorf(python.TypeErrorType, "not all arguments converted during string formatting")
		}
		var b strings.Builder
		b.WriteString(typeName(args[0]))
		b.WriteByte('(')
		for i, f := range fields {
			if i > 0 {
				b.WriteString(", ")
			}
			r, err := python.Repr(t, items[i])
			if err != nil {
				return nil, err
			}
			b.WriteString(f + "=" + r)
			if err := t.CheckSize(int64(b.Len())); err != nil {
				return nil, err
			}
		}
		b.WriteByte(')')
		return python.NewStr(b.String()), nil
	}))
	cls.SetAttr("_asdict", python.NewMethod(cls, "_asdict", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if len(args) != 1 {
			return nil, countError(typename+"._asdict", len(args)-1, 0, 0)
		}
		names, err := python.GetAttr(t, args[0], "_fields")
		if err != nil {
			return nil, err
		}
		z, err := python.Call(t, builtin(t, "zip"), []obj{names, args[0]}, nil)
		if err != nil {
			return nil, err
		}
		return python.Call(t, python.DictType, []obj{z}, nil)
	}))
	cls.SetAttr("__getnewargs__", python.NewMethod(cls, "__getnewargs__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		items, err := python.ToSlice(t, args[0])
		if err != nil {
			return nil, err
		}
		return python.NewTuple(append([]obj(nil), items...)), nil
	}))
	for i, f := range fields {
		i := i
		cls.AddGetSet(f, func(t *python.Thread, x obj) (obj, error) {
			tu, ok := python.Unwrap(x).(*python.Tuple)
			if !ok || i >= len(tu.Items()) {
				return nil, python.Errorf(python.IndexErrorType, "tuple index out of range")
			}
			return tu.Items()[i], nil
		}, func(t *python.Thread, x, v obj) error {
			return python.Errorf(python.AttributeErrorType, "can't set attribute")
		})
	}
	return cls, nil
}

// tupleSubclass checks the class argument of tuple.__new__.
func tupleSubclass(x obj) (*python.Type, error) {
	c, ok := x.(*python.Type)
	if !ok {
		return nil, python.Errorf(python.TypeErrorType, "tuple.__new__(X): X is not a type object (%s)", typeName(x))
	}
	if !c.IsSubtype(python.TupleType) {
		return nil, python.Errorf(python.TypeErrorType, "tuple.__new__(%s): %s is not a subtype of tuple", c.Name(), c.Name())
	}
	return c, nil
}
