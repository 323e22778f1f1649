package string

import (
	"strings"

	"github.com/rlm-go/rlm/repl/internal/python"
	"github.com/rlm-go/rlm/repl/internal/python/pystr"
)

// Formatter is string.Formatter, whose format and vformat go through the
// methods a subclass may override (parse, get_field, get_value,
// check_unused_args, format_field, convert_field), as CPython's do.

var parseIterType *python.Type

func initFormatter() {
	parseIterType = python.NewBuiltinType("formatteriterator", "builtins", nil, nil)
	c := python.NewBuiltinType("Formatter", "string", nil, func(t *python.Thread, cls *python.Type, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		if len(args)+len(kwargs) > 0 {
			if v, _ := cls.Lookup("__init__"); v == nil {
				return nil, python.Errorf(python.TypeErrorType, "Formatter() takes no arguments")
			}
		}
		return python.NewInstance(cls, nil), nil
	})
	formatterType = c
	c.AddMethod("format", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		if len(args) < 2 {
			return nil, python.Errorf(python.TypeErrorType, "Formatter.format() missing 1 required positional argument: 'format_string'")
		}
		kw := python.NewDict(len(kwargs))
		for _, k := range kwargs {
			kw.SetStr(k.Name, k.Value)
		}
		return python.CallMethod(t, args[0], "vformat", []python.Object{args[1], python.NewTuple(append([]python.Object(nil), args[2:]...)), kw}, nil)
	})
	c.AddMethod("vformat", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		sig := &signature{name: "Formatter.vformat", pos: []string{"self", "format_string", "args", "kwargs"}, required: 4}
		v, err := sig.bind(args, kwargs)
		if err != nil {
			return nil, err
		}
		used := python.NewSet(false)
		f := &vformatter{t: t, self: v["self"], args: v["args"], kwargs: v["kwargs"], used: used}
		s, _, err := f.run(v["format_string"], 2, 0)
		if err != nil {
			return nil, err
		}
		if _, err := python.CallMethod(t, v["self"], "check_unused_args", []python.Object{used, v["args"], v["kwargs"]}, nil); err != nil {
			return nil, err
		}
		return python.NewStr(s), nil
	})
	c.AddMethod("parse", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		sig := &signature{name: "Formatter.parse", pos: []string{"self", "format_string"}, required: 2}
		v, err := sig.bind(args, kwargs)
		if err != nil {
			return nil, err
		}
		s, ok, err := strOf(t, v["format_string"])
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, python.Errorf(python.TypeErrorType, "descriptor 'formatter_parser' for 'str' objects doesn't apply to a '%s' object", python.TypeName(v["format_string"]))
		}
		p := pystr.NewFormatParser(s)
		return python.NewIterator(parseIterType, func(t *python.Thread) (python.Object, error) {
			item, ok, err := p.Next()
			if err != nil {
				return nil, python.FromKernel(err)
			}
			if !ok {
				return nil, nil
			}
			if !item.HasField {
				return python.NewTuple([]python.Object{python.NewStr(item.Literal), python.None, python.None, python.None}), nil
			}
			var conv python.Object = python.None
			if item.Conversion != 0 {
				conv = python.NewStr(string(item.Conversion))
			}
			return python.NewTuple([]python.Object{python.NewStr(item.Literal), python.NewStr(item.FieldName), python.NewStr(item.Spec), conv}), nil
		}), nil
	})
	c.AddMethod("get_field", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		sig := &signature{name: "Formatter.get_field", pos: []string{"self", "field_name", "args", "kwargs"}, required: 4}
		v, err := sig.bind(args, kwargs)
		if err != nil {
			return nil, err
		}
		name, ok, err := strOf(t, v["field_name"])
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, python.Errorf(python.TypeErrorType, "descriptor 'formatter_field_name_split' for 'str' objects doesn't apply to a '%s' object", python.TypeName(v["field_name"]))
		}
		fn, err := pystr.ParseFieldName(name)
		if err != nil {
			return nil, python.FromKernel(err)
		}
		first := keyObject(fn.First)
		obj, err := python.CallMethod(t, v["self"], "get_value", []python.Object{first, v["args"], v["kwargs"]}, nil)
		if err != nil {
			return nil, err
		}
		for {
			acc, ok, err := fn.Next()
			if err != nil {
				return nil, python.FromKernel(err)
			}
			if !ok {
				break
			}
			if acc.Attr {
				obj, err = python.GetAttr(t, obj, acc.Key.Str)
			} else {
				obj, err = python.GetItem(t, obj, keyObject(acc.Key))
			}
			if err != nil {
				return nil, err
			}
		}
		return python.NewTuple([]python.Object{obj, first}), nil
	})
	c.AddMethod("get_value", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		sig := &signature{name: "Formatter.get_value", pos: []string{"self", "key", "args", "kwargs"}, required: 4}
		v, err := sig.bind(args, kwargs)
		if err != nil {
			return nil, err
		}
		key := v["key"]
		if _, ok := python.IntValue(key); ok {
			return python.GetItem(t, v["args"], key)
		}
		return python.GetItem(t, v["kwargs"], key)
	})
	c.AddMethod("check_unused_args", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		sig := &signature{name: "Formatter.check_unused_args", pos: []string{"self", "used_args", "args", "kwargs"}, required: 4}
		_, err := sig.bind(args, kwargs)
		return python.None, err
	})
	c.AddMethod("format_field", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		sig := &signature{name: "Formatter.format_field", pos: []string{"self", "value", "format_spec"}, required: 3}
		v, err := sig.bind(args, kwargs)
		if err != nil {
			return nil, err
		}
		spec, ok, err := strOf(t, v["format_spec"])
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, python.Errorf(python.TypeErrorType, "format() argument 2 must be str, not %s", python.TypeName(v["format_spec"]))
		}
		s, err := python.Format(t, v["value"], spec)
		if err != nil {
			return nil, err
		}
		return python.NewStr(s), nil
	})
	c.AddMethod("convert_field", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		sig := &signature{name: "Formatter.convert_field", pos: []string{"self", "value", "conversion"}, required: 3}
		v, err := sig.bind(args, kwargs)
		if err != nil {
			return nil, err
		}
		value, conv := v["value"], v["conversion"]
		if conv == python.None {
			return value, nil
		}
		switch python.StrValue(conv) {
		case "s":
			s, err := python.StrOf(t, value)
			return python.NewStr(s), err
		case "r":
			s, err := python.Repr(t, value)
			return python.NewStr(s), err
		case "a":
			return python.Call(t, asciiBuiltin(t), []python.Object{value}, nil)
		}
		cs, err := python.StrOf(t, conv)
		if err != nil {
			return nil, err
		}
		return nil, python.Errorf(python.ValueErrorType, "Unknown conversion specifier %s", cs)
	})
}

func asciiBuiltin(t *python.Thread) python.Object {
	v, _ := t.Interp().Builtins().GetStr("ascii")
	return v
}

func keyObject(k pystr.FieldKey) python.Object {
	if k.IsInt {
		return python.MakeInt(int64(k.Int))
	}
	return python.NewStr(k.Str)
}

// vformatter is one vformat call: Formatter._vformat.
type vformatter struct {
	t                  *python.Thread
	self, args, kwargs python.Object
	used               *python.Set
}

// run formats s at the given recursion depth; auto is the next automatic
// field number, -1 once numbering is manual.
func (f *vformatter) run(fs python.Object, depth, auto int) (string, int, error) {
	t := f.t
	if depth < 0 {
		return "", 0, python.Errorf(python.ValueErrorType, "Max string recursion exceeded")
	}
	items, err := python.CallMethod(t, f.self, "parse", []python.Object{fs}, nil)
	if err != nil {
		return "", 0, err
	}
	var b strings.Builder
	n := 0
	add := func(x python.Object) error {
		s, ok, err := strOf(t, x)
		if err != nil {
			return err
		}
		if !ok {
			return python.Errorf(python.TypeErrorType, "sequence item %d: expected str instance, %s found", n, python.TypeName(x))
		}
		n++
		b.WriteString(s)
		return t.CheckSize(int64(b.Len()))
	}
	err = python.Iterate(t, items, func(item python.Object) error {
		parts, err := python.ToSlice(t, item)
		if err != nil {
			return err
		}
		if len(parts) != 4 {
			return python.Errorf(python.ValueErrorType, "not enough values to unpack (expected 4, got %d)", len(parts))
		}
		lit, name, spec, conv := parts[0], parts[1], parts[2], parts[3]
		if ok, err := python.TruthE(t, lit); err != nil {
			return err
		} else if ok {
			if err := add(lit); err != nil {
				return err
			}
		}
		if name == python.None {
			return nil
		}
		fieldName := name
		if python.StrValue(name) == "" && python.IsStr(name) {
			if auto < 0 {
				return python.Errorf(python.ValueErrorType, "cannot switch from manual field specification to automatic field numbering")
			}
			fieldName = python.NewStr(itoa(auto))
			auto++
		} else {
			isDigit, err := python.CallMethod(t, name, "isdigit", nil, nil)
			if err != nil {
				return err
			}
			if isDigit == python.True {
				if auto > 0 {
					return python.Errorf(python.ValueErrorType, "cannot switch from manual field specification to automatic field numbering")
				}
				auto = -1
			}
		}
		r, err := python.CallMethod(t, f.self, "get_field", []python.Object{fieldName, f.args, f.kwargs}, nil)
		if err != nil {
			return err
		}
		pair, err := python.ToSlice(t, r)
		if err != nil {
			return err
		}
		if len(pair) != 2 {
			return python.Errorf(python.ValueErrorType, "too many values to unpack (expected 2)")
		}
		if err := f.used.Add(t, pair[1]); err != nil {
			return err
		}
		obj, err := python.CallMethod(t, f.self, "convert_field", []python.Object{pair[0], conv}, nil)
		if err != nil {
			return err
		}
		specText, next, err := f.run(spec, depth-1, auto)
		if err != nil {
			return err
		}
		auto = next
		s, err := python.CallMethod(t, f.self, "format_field", []python.Object{obj, python.NewStr(specText)}, nil)
		if err != nil {
			return err
		}
		return add(s)
	})
	if err != nil {
		return "", 0, err
	}
	return b.String(), auto, nil
}
