package sys

import (
	"strings"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// Struct sequences: tuples whose items are also named attributes
// (sys.version_info, sys.float_info, time.struct_time), with CPython's
// repr, module.name(field=value, ...). Fields past the visible ones are
// attributes only (struct_time's tm_zone and tm_gmtoff).

// structInfo describes a struct sequence type.
type structInfo struct {
	fields  []string
	visible int
}

// NewStructSeqType makes a struct sequence type module.name whose first
// visible fields are its tuple items. The type's constructor takes a
// sequence of visible to len(fields) items, as CPython's do.
func NewStructSeqType(name, module string, fields []string, visible int) *python.Type {
	info := &structInfo{fields: fields, visible: visible}
	// A class made as a class statement makes it (not a built-in type):
	// comparisons and the other tuple operations then see through its
	// instances to their tuples.
	ns := python.NewDict(8)
	ns.SetStr("__module__", python.NewStr(module))
	cls, err := python.NewClass(nil, nil, name, []*python.Type{python.TupleType}, ns)
	if err != nil {
		panic(err) // a tuple subclass is always valid
	}
	cls.Hooks = &python.TypeHooks{Call: func(t *python.Thread, c *python.Type, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		v, err := python.UnpackArgs(name, args, kwargs, 1, "sequence", "dict")
		if err != nil {
			return nil, err
		}
		items, err := python.ToSlice(t, v[0])
		if err != nil {
			return nil, python.Errorf(python.TypeErrorType, "constructor requires a sequence")
		}
		full := module + "." + name
		switch {
		case len(items) < visible:
			if visible == len(fields) {
				return nil, python.Errorf(python.TypeErrorType, "%s() takes a %d-sequence (%d-sequence given)", full, visible, len(items))
			}
			return nil, python.Errorf(python.TypeErrorType, "%s() takes an at least %d-sequence (%d-sequence given)", full, visible, len(items))
		case len(items) > len(fields):
			if visible == len(fields) {
				return nil, python.Errorf(python.TypeErrorType, "%s() takes a %d-sequence (%d-sequence given)", full, visible, len(items))
			}
			return nil, python.Errorf(python.TypeErrorType, "%s() takes an at most %d-sequence (%d-sequence given)", full, len(fields), len(items))
		}
		return NewStructSeq(cls, items), nil
	}}
	cls.Extra = info
	for i, f := range fields {
		i, f := i, f
		cls.AddGetSet(f, func(t *python.Thread, obj python.Object) (python.Object, error) {
			inst, ok := obj.(*python.Instance)
			if !ok {
				return python.None, nil
			}
			if i < visible {
				return inst.Base().(*python.Tuple).Items()[i], nil
			}
			if v, ok := inst.Attrs().GetStr("\x00" + f); ok {
				return v, nil
			}
			return python.None, nil
		}, func(t *python.Thread, obj, v python.Object) error {
			return python.Errorf(python.AttributeErrorType, "readonly attribute")
		})
	}
	cls.AddMethod("__repr__", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		inst := args[0].(*python.Instance)
		items := inst.Base().(*python.Tuple).Items()
		var b strings.Builder
		b.WriteString(module + "." + name + "(")
		for i, v := range items {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(fields[i])
			b.WriteByte('=')
			r, err := python.Repr(t, v)
			if err != nil {
				return nil, err
			}
			b.WriteString(r)
		}
		b.WriteByte(')')
		return python.NewStr(b.String()), nil
	})
	cls.AddMethod("__reduce__", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		inst := args[0].(*python.Instance)
		return python.NewTuple([]python.Object{cls, python.NewTuple([]python.Object{inst.Base()})}), nil
	})
	cls.SetAttr("n_sequence_fields", python.MakeInt(int64(visible)))
	cls.SetAttr("n_fields", python.MakeInt(int64(len(fields))))
	cls.SetAttr("n_unnamed_fields", python.MakeInt(0))
	match := make([]python.Object, visible)
	for i := range match {
		match[i] = python.NewStr(fields[i])
	}
	cls.SetAttr("__match_args__", python.NewTuple(match))
	cls.SetFinal()
	return cls
}

// NewStructSeq makes a struct sequence of type cls from its values (the
// visible ones first; missing hidden ones are None).
func NewStructSeq(cls *python.Type, values []python.Object) python.Object {
	info := cls.Extra.(*structInfo)
	vis := append([]python.Object(nil), values[:info.visible]...)
	inst := python.NewInstance(cls, python.NewTuple(vis))
	for i := info.visible; i < len(info.fields); i++ {
		var v python.Object = python.None
		if i < len(values) {
			v = values[i]
		}
		inst.Attrs().SetStr("\x00"+info.fields[i], v)
	}
	return inst
}
