package enum

import (
	"math/big"
	"sort"
	"strings"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// isDunder, isSunder and isPrivate classify names as enum's class
// creation does.
func isDunder(n string) bool {
	return len(n) > 4 && n[:2] == "__" && n[len(n)-2:] == "__" && n[2] != '_' && n[len(n)-3] != '_'
}

func isSunder(n string) bool {
	return len(n) > 2 && n[0] == '_' && n[len(n)-1] == '_' && n[1] != '_' && n[len(n)-2] != '_'
}

func isPrivate(clsName, n string) bool {
	p := "_" + clsName + "__"
	return len(n) > len(p) && strings.HasPrefix(n, p) && (n[len(n)-1] != '_' || n[len(n)-2] != '_')
}

var allowedSunders = map[string]bool{
	"_order_": true, "_generate_next_value_": true, "_numeric_repr_": true, "_missing_": true, "_ignore_": true,
	"_iter_member_": true, "_iter_member_by_value_": true, "_iter_member_by_def_": true,
}

// isDescriptor reports whether a class attribute is a descriptor (it has
// __get__, __set__ or __delete__): such attributes are not members.
func isDescriptor(v obj) bool {
	switch v.Type() {
	case python.FunctionType, python.PropertyType, python.ClassMethodType, python.StaticMethodType,
		python.MethodDescriptorType, python.GetSetType:
		return true
	}
	for _, n := range []string{"__get__", "__set__", "__delete__"} {
		if _, ok := v.Type().Lookup(n); ok {
			return true
		}
	}
	return false
}

// isEnumClass reports whether c's metaclass is EnumType.
func (st *state) isEnumClass(c *python.Type) bool {
	return c.Type().IsSubtype(st.meta) && infoOf(c) != nil
}

// mixins is _get_mixins_: the data type of the members and the enum class
// that controls them.
func (st *state) mixins(t *python.Thread, className string, bases []*python.Type) (*python.Type, *python.Type, error) {
	if len(bases) == 0 {
		return python.ObjectType, st.enum, nil
	}
	first := bases[len(bases)-1]
	if !st.isEnumClass(first) {
		return nil, nil, python.Errorf(python.TypeErrorType, "new enumerations should be created as `EnumName([mixin_type, ...] [data_type,] enum_type)`")
	}
	dataTypes := []*python.Type{}
	add := func(c *python.Type) {
		for _, d := range dataTypes {
			if d == c {
				return
			}
		}
		dataTypes = append(dataTypes, c)
	}
	for _, chain := range bases {
		var candidate *python.Type
		for _, b := range chain.MRO() {
			if b == python.ObjectType {
				continue
			}
			if st.isEnumClass(b) {
				if mt := infoOf(b).memberType; mt != python.ObjectType {
					add(mt)
					break
				}
				continue
			}
			_, hasNew := b.Dict().GetStr("__new__")
			_, isDC := b.Dict().GetStr("__dataclass_fields__")
			if hasNew || isDC || b.IsBuiltin() {
				if candidate != nil {
					add(candidate)
				} else {
					add(b)
				}
				break
			}
			if candidate == nil {
				candidate = b
			}
		}
	}
	if len(dataTypes) > 1 {
		var parts []string
		for _, d := range dataTypes {
			r, _ := python.Repr(t, d)
			parts = append(parts, r)
		}
		return nil, nil, python.Errorf(python.TypeErrorType, "too many data types for %s: {%s}", python.StrRepr(className), strings.Join(parts, ", "))
	}
	mt := python.ObjectType
	if len(dataTypes) == 1 {
		mt = dataTypes[0]
	}
	return mt, first, nil
}

// newKind says how members are made.
type newKind uint8

const (
	newObject newKind = iota // object.__new__(cls)
	newData                  // the data type's __new__(cls, *args)
	newUser                  // a __new__ written in Python (or StrEnum's)
)

// hasBuiltinBase reports whether c derives from a built-in type other
// than object (its instances hold a built-in value).
func hasBuiltinBase(c *python.Type) bool {
	for _, b := range c.MRO() {
		if b.IsBuiltin() && b != python.ObjectType {
			return true
		}
	}
	return false
}

// findNew is _find_new_: the __new__ members are made with, whether the
// class's own __new__ must be saved as __new_member__, and whether the
// value is passed to it.
func (st *state) findNew(ns *python.Dict, memberType, firstEnum *python.Type) (newKind, obj, bool, bool) {
	if v, ok := ns.GetStr("__new__"); ok {
		return newUser, python.FunctionOf(v), firstEnum != nil, firstEnum != nil
	}
	for _, method := range []string{"__new_member__", "__new__"} {
		for _, possible := range []*python.Type{memberType, firstEnum} {
			if possible == nil {
				continue
			}
			v, owner := lookupOwner(possible, method)
			if owner == nil {
				continue
			}
			if method == "__new__" && owner.IsBuiltin() {
				if hasBuiltinBase(possible) && !st.isEnumClass(possible) {
					return newData, nil, false, firstEnum != nil
				}
				continue
			}
			if v == obj(st.enumNew) || python.FunctionOf(v) == obj(st.enumNewFn) {
				continue
			}
			return newUser, python.FunctionOf(v), false, firstEnum != nil
		}
	}
	return newObject, nil, false, false
}

func lookupOwner(c *python.Type, name string) (obj, *python.Type) {
	for _, m := range c.MRO() {
		if v, ok := m.Dict().GetStr(name); ok {
			return v, m
		}
	}
	return nil, nil
}

// findDataRepr is _find_data_repr_: the repr of member values.
func (st *state) findDataRepr(bases []*python.Type) obj {
	for _, chain := range bases {
		for _, b := range chain.MRO() {
			if b == python.ObjectType {
				continue
			}
			if st.isEnumClass(b) {
				return infoOf(b).valueRepr
			}
			if r, ok := b.Dict().GetStr("__repr__"); ok {
				if _, isDC := b.Dict().GetStr("__dataclass_fields__"); isDC {
					if p, ok := b.Dict().GetStr("__dataclass_params__"); ok {
						if rv, err := python.GetAttr(nil, p, "repr"); err == nil && python.Truth(nil, rv) {
							return dataclassRepr
						}
					}
				}
				return r
			}
		}
	}
	return nil
}

// dataclassRepr marks the value repr of a dataclass mixin (set by setup).
var dataclassRepr *python.Builtin

// valueRepr renders a member's value with the class's _value_repr_.
func (st *state) valueRepr(t *python.Thread, cls *python.Type, v obj) (string, error) {
	i := infoOf(cls)
	if i == nil || i.valueRepr == nil || i.valueRepr == python.None {
		return python.Repr(t, v)
	}
	vr := i.valueRepr
	if vr == obj(dataclassRepr) {
		fs, err := python.GetAttr(t, v.Type(), "__dataclass_fields__")
		if err != nil {
			return python.Repr(t, v)
		}
		d, _ := fs.(*python.Dict)
		var parts []string
		if d != nil {
			var err error
			d.Items(func(k, f obj) bool {
				var rp obj
				if rp, err = python.GetAttr(t, f, "repr"); err != nil || !python.Truth(t, rp) {
					return err == nil
				}
				var fv obj
				if fv, err = python.GetAttr(t, v, python.StrValue(k)); err != nil {
					return false
				}
				var r string
				if r, err = python.Repr(t, fv); err != nil {
					return false
				}
				parts = append(parts, python.StrValue(k)+"="+r)
				return true
			})
			if err != nil {
				return "", err
			}
		}
		return v.Type().Name() + "(" + strings.Join(parts, ", ") + ")", nil
	}
	if b, ok := vr.(*python.Builtin); ok && b.Type() == python.MethodDescriptorType {
		// A built-in type's __repr__.
		return python.Repr(t, v)
	}
	r, err := python.Call(t, vr, []obj{v}, nil)
	if err != nil {
		return "", err
	}
	s, ok := r.(*python.Str)
	if !ok {
		return "", python.Errorf(python.TypeErrorType, "__repr__ returned non-string (type %s)", python.TypeName(r))
	}
	return s.String(), nil
}

// created is the Created hook: EnumType.__new__'s work once the class
// statement has made the class.
func (st *state) created(t *python.Thread, cls *python.Type) error {
	if st.building == cls.Name() && infoOf(cls) != nil {
		return nil
	}
	bases := cls.Bases()
	if len(bases) == 1 && bases[0] == python.ObjectType {
		bases = nil
	}
	for _, chain := range bases {
		for _, b := range chain.MRO() {
			if i := infoOf(b); i != nil && b.Type().IsSubtype(st.meta) && len(i.names.Items()) > 0 {
				r, _ := python.Repr(t, b)
				return python.Errorf(python.TypeErrorType, "<enum %s> cannot extend %s", python.StrRepr(cls.Name()), r)
			}
		}
	}
	memberType, firstEnum, err := st.mixins(t, cls.Name(), bases)
	if err != nil {
		return err
	}
	ns := cls.Dict()

	// The namespace in definition order: which names are members, and
	// the values of auto().
	var gnv obj
	if v, ok := lookupOwner(firstEnum, "_generate_next_value_"); ok != nil {
		gnv = python.FunctionOf(v)
	}
	type entry struct {
		key string
		val obj
	}
	var entries []entry
	ns.Items(func(k, v obj) bool {
		entries = append(entries, entry{python.StrValue(k), v})
		return true
	})
	var ignore []string
	inIgnore := func(n string) bool {
		for _, x := range ignore {
			if x == n {
				return true
			}
		}
		return false
	}
	var memberNames []string
	memberValues := map[string]obj{}
	var lastValues []obj
	autoCalled := false
	for _, e := range entries {
		key, value := e.key, e.val
		switch {
		case isPrivate(cls.Name(), key):
			continue
		case isSunder(key):
			if !allowedSunders[key] {
				return python.Errorf(python.ValueErrorType, "_sunder_ names, such as %s, are reserved for future Enum use", python.StrRepr(key))
			}
			switch key {
			case "_generate_next_value_":
				if autoCalled {
					return python.Errorf(python.TypeErrorType, "_generate_next_value_ must be defined before members")
				}
				gnv = python.FunctionOf(value)
				if value.Type() != python.StaticMethodType {
					ns.SetStr(key, python.NewStaticMethod(value))
				}
			case "_ignore_":
				if s, ok := value.(*python.Str); ok {
					ignore = strings.Fields(strings.ReplaceAll(s.String(), ",", " "))
				} else {
					items, err := python.ToSlice(t, value)
					if err != nil {
						return err
					}
					ignore = nil
					for _, it := range items {
						ignore = append(ignore, python.StrValue(it))
					}
				}
				var already []string
				for _, n := range ignore {
					if _, ok := memberValues[n]; ok {
						already = append(already, python.StrRepr(n))
					}
				}
				if len(already) > 0 {
					return python.Errorf(python.ValueErrorType, "_ignore_ cannot specify already set names: {%s}", strings.Join(already, ", "))
				}
			}
			continue
		case isDunder(key):
			continue
		case inIgnore(key):
			continue
		}
		if nm, ok := value.(*wrapper); ok && nm.kind == wrapNonmember {
			ns.SetStr(key, nm.value)
			continue
		}
		if isDescriptor(value) {
			continue
		}
		if m, ok := value.(*wrapper); ok && m.kind == wrapMember {
			value = m.value
			ns.SetStr(key, value)
		}
		nonAuto := true
		if a, ok := value.(*auto); ok {
			v, err := st.resolveAuto(t, a, gnv, key, len(memberNames), lastValues)
			if err != nil {
				return err
			}
			autoCalled = true
			nonAuto = false
			lastValues = append(lastValues, v)
			value = v
		} else if tup, ok := value.(*python.Tuple); ok && tup.Type() == python.TupleType {
			items := tup.Items()
			var out []obj
			for i, it := range items {
				a, ok := it.(*auto)
				if !ok {
					continue
				}
				if out == nil {
					out = append([]obj(nil), items...)
				}
				v, err := st.resolveAuto(t, a, gnv, key, len(memberNames), lastValues)
				if err != nil {
					return err
				}
				autoCalled = true
				nonAuto = false
				lastValues = append(lastValues, v)
				out[i] = v
			}
			if out != nil {
				value = python.NewTuple(out)
			}
		}
		memberNames = append(memberNames, key)
		memberValues[key] = value
		if nonAuto {
			lastValues = append(lastValues, value)
		}
	}
	for _, n := range append(ignore, "_ignore_") {
		_, _, _ = ns.Delete(t, python.NewStr(n))
	}
	for _, n := range memberNames {
		if n == "mro" || n == "" {
			return python.Errorf(python.ValueErrorType, "invalid enum member name(s) %s", python.StrRepr(n))
		}
	}
	var order []string
	if v, ok := ns.GetStr("_order_"); ok {
		_, _, _ = ns.Delete(t, python.NewStr("_order_"))
		if s, ok := v.(*python.Str); ok {
			order = strings.Fields(strings.ReplaceAll(s.String(), ",", " "))
		} else if v != python.None {
			items, err := python.ToSlice(t, v)
			if err != nil {
				return err
			}
			for _, it := range items {
				order = append(order, python.StrValue(it))
			}
		}
	}

	kind, newFn, saveNew, useArgs := st.findNew(ns, memberType, firstEnum)
	i := st.newInfo(memberType, firstEnum)
	i.useArgs = useArgs
	i.valueRepr = st.findDataRepr(bases)
	i.isFlag = st.flag != nil && cls.IsSubtype(st.flag) || st.building == "Flag"
	if i.isFlag {
		if fi := infoOf(firstEnum); fi != nil && fi.boundary != nil {
			i.boundary = fi.boundary
		}
	}
	cls.Extra = i
	st.setBookkeeping(cls, i)
	mk := &memberMaker{st: st, cls: cls, info: i, kind: kind, newFn: newFn}
	for _, n := range memberNames {
		if err := mk.make(t, n, memberValues[n]); err != nil {
			return err
		}
	}
	if i.isFlag {
		ns.SetStr("_flag_mask_", python.MakeBigInt(i.flagMask))
		ns.SetStr("_singles_mask_", python.MakeBigInt(i.singles))
		ns.SetStr("_all_bits_", python.MakeBigInt(i.allBits))
	}

	// repr(), str() and format() of the members.
	if st.reprEnum != nil && containsType(bases, st.reprEnum) {
		if memberType == python.ObjectType {
			return python.Errorf(python.TypeErrorType, "ReprEnum subclasses must be mixed with a data type (i.e. int, str, float, etc.)")
		}
		if _, ok := ns.GetStr("__format__"); !ok {
			ns.SetStr("__format__", st.dataFormat)
		}
		if _, ok := ns.GetStr("__str__"); !ok {
			ns.SetStr("__str__", st.dataStr)
		}
	}
	for _, name := range []string{"__repr__", "__str__", "__format__", "__reduce_ex__"} {
		if _, ok := ns.GetStr(name); ok {
			continue
		}
		_, owner := lookupOwner(cls, name)
		if owner == nil || owner.IsBuiltin() {
			if m, o := lookupOwner(firstEnum, name); o != nil {
				ns.SetStr(name, m)
			}
		}
	}
	if i.isFlag && memberType != python.ObjectType {
		// The interpreter looks the protocol methods of an instance up
		// only in the classes before the first built-in one of the MRO,
		// and int comes before Flag in IntFlag's: the class gets Flag's.
		for name, m := range st.flagProtocol {
			if _, owner := lookupOwner(cls, name); owner == nil || owner.IsBuiltin() || owner == st.flag {
				if _, ok := ns.GetStr(name); !ok && m != nil {
					ns.SetStr(name, m)
				}
			}
		}
	}
	if i.isFlag {
		for _, name := range []string{"__or__", "__and__", "__xor__", "__ror__", "__rand__", "__rxor__", "__invert__"} {
			if _, ok := ns.GetStr(name); !ok {
				if m, ok := st.flagOps[name]; ok {
					ns.SetStr(name, m)
				}
			}
		}
	}
	if kind == newUser {
		if saveNew {
			ns.SetStr("__new_member__", newFn)
		}
		if st.enumNew != nil {
			ns.SetStr("__new__", st.enumNew)
		}
	}
	if i.isFlag {
		var vals []*big.Int
		for _, n := range i.names.Items() {
			m, _ := i.members.GetStr(python.StrValue(n))
			vals = append(vals, bigOf(memberValue(m)))
		}
		if !sort.SliceIsSorted(vals, func(a, b int) bool { return vals[a].Cmp(vals[b]) < 0 }) {
			i.iterByDef = true
			ns.SetStr("_iter_member_", st.iterByDef)
		}
		if order != nil {
			var kept []string
			for _, o := range order {
				m, ok := i.members.GetStr(o)
				if !ok || isSingleBit(bigOf(memberValue(m))) {
					kept = append(kept, o)
				}
			}
			order = kept
		}
	}
	if order != nil {
		var kept []string
		canonical := map[string]bool{}
		for _, n := range i.names.Items() {
			canonical[python.StrValue(n)] = true
		}
		for _, o := range order {
			if _, ok := i.members.GetStr(o); !ok || canonical[o] {
				kept = append(kept, o)
			}
		}
		names := make([]string, len(i.names.Items()))
		for k, n := range i.names.Items() {
			names[k] = python.StrValue(n)
		}
		if strings.Join(kept, "\x00") != strings.Join(names, "\x00") || len(kept) != len(names) {
			a, _ := python.Repr(t, strList(names))
			b, _ := python.Repr(t, strList(kept))
			return python.Errorf(python.TypeErrorType, "member order does not match _order_:\n  %s\n  %s", a, b)
		}
	}
	return nil
}

func strList(names []string) *python.List {
	out := make([]obj, len(names))
	for i, n := range names {
		out[i] = python.NewStr(n)
	}
	return python.NewList(out)
}

func containsType(ts []*python.Type, c *python.Type) bool {
	for _, x := range ts {
		if x == c {
			return true
		}
	}
	return false
}

// newInfo returns an empty info.
func (st *state) newInfo(memberType, firstEnum *python.Type) *info {
	members := python.NewDict(8)
	return &info{
		names: python.NewList(nil), members: members, proxy: python.NewMappingProxy(members), byValue: python.NewDict(8),
		unhashable: python.NewList(nil), memberType: memberType, firstEnum: firstEnum,
		flagMask: new(big.Int), singles: new(big.Int), allBits: new(big.Int),
	}
}

// setBookkeeping exposes the info as the class attributes CPython has.
func (st *state) setBookkeeping(cls *python.Type, i *info) {
	d := cls.Dict()
	d.SetStr("_member_names_", i.names)
	d.SetStr("_member_map_", i.members)
	d.SetStr("_value2member_map_", i.byValue)
	d.SetStr("_unhashable_values_", i.unhashable)
	d.SetStr("_member_type_", i.memberType)
	d.SetStr("_use_args_", python.MakeBool(i.useArgs))
	if i.valueRepr == nil {
		d.SetStr("_value_repr_", python.None)
	} else {
		d.SetStr("_value_repr_", i.valueRepr)
	}
	if i.isFlag {
		if i.boundary != nil {
			d.SetStr("_boundary_", i.boundary)
		} else {
			d.SetStr("_boundary_", python.None)
		}
		d.SetStr("_inverted_", python.None)
	}
}

// resolveAuto gives an auto() its value with _generate_next_value_.
func (st *state) resolveAuto(t *python.Thread, a *auto, gnv obj, name string, count int, last []obj) (obj, error) {
	if a.value != autoNull {
		return a.value, nil
	}
	v, err := st.generate(t, gnv, name, python.MakeInt(1), count, last)
	if err != nil {
		return nil, err
	}
	a.value = v
	return v, nil
}

// generate calls _generate_next_value_(name, start, count, last_values).
func (st *state) generate(t *python.Thread, gnv obj, name string, start obj, count int, last []obj) (obj, error) {
	lv := python.NewList(append([]obj(nil), last...))
	if gnv == nil || gnv == python.None {
		return nil, python.Errorf(python.TypeErrorType, "'NoneType' object is not callable")
	}
	return python.Call(t, gnv, []obj{python.NewStr(name), start, python.MakeInt(int64(count)), lv}, nil)
}

// memberMaker makes the members of one class (_proto_member.__set_name__).
type memberMaker struct {
	st    *state
	cls   *python.Type
	info  *info
	kind  newKind
	newFn obj
}

func memberValue(m obj) obj {
	if o, ok := m.(*python.Instance); ok {
		if v, ok := o.Attrs().GetStr("_value_"); ok {
			return v
		}
	}
	return python.None
}

func memberName(m obj) obj {
	if o, ok := m.(*python.Instance); ok {
		if v, ok := o.Attrs().GetStr("_name_"); ok {
			return v
		}
	}
	return python.None
}

// objectNew calls the __new__ of the built-in type cls derives from
// (object.__new__ for plain classes) with cls and args.
func objectNew(t *python.Thread, cls *python.Type, args []obj) (obj, error) {
	nw, err := python.GetAttr(t, cls.Solid(), "__new__")
	if err != nil {
		return nil, err
	}
	return python.Call(t, nw, append([]obj{cls}, args...), nil)
}

func (mk *memberMaker) make(t *python.Thread, name string, value obj) error {
	cls, i := mk.cls, mk.info
	var args []obj
	if tup, ok := value.(*python.Tuple); ok {
		args = tup.Items()
	} else {
		args = []obj{value}
	}
	if i.memberType == python.TupleType {
		args = []obj{python.NewTuple(args)}
	}
	var member obj
	var err error
	switch {
	case mk.kind == newUser && i.useArgs:
		member, err = python.Call(t, mk.newFn, append([]obj{cls}, args...), nil)
	case mk.kind == newUser:
		member, err = python.Call(t, mk.newFn, []obj{cls}, nil)
	case mk.kind == newData && i.useArgs:
		member, err = objectNew(t, cls, args)
	default:
		member = python.NewInstance(cls, nil)
	}
	if err != nil {
		return err
	}
	has, err := python.HasAttr(t, member, "_value_")
	if err != nil {
		return err
	}
	if !has {
		var v obj
		if i.memberType == python.ObjectType {
			v = value
		} else {
			v, err = python.Call(t, i.memberType, args, nil)
			if err != nil {
				if _, ok := python.AsException(err); ok {
					return python.Errorf(python.TypeErrorType, "_value_ not set in __new__, unable to create it")
				}
				return err
			}
		}
		if err := setAttr(t, member, "_value_", v); err != nil {
			return err
		}
	}
	value = memberValue(member)
	if err := setAttr(t, member, "_name_", python.NewStr(name)); err != nil {
		return err
	}
	if err := setAttr(t, member, "__objclass__", cls); err != nil {
		return err
	}
	if init, owner := lookupOwner(member.Type(), "__init__"); owner != nil && !owner.IsBuiltin() {
		if _, err := python.Call(t, python.NewMethodObject(init, member), args, nil); err != nil {
			return err
		}
	}
	if err := setAttr(t, member, "_sort_order_", python.MakeInt(int64(len(i.names.Items())))); err != nil {
		return err
	}
	if i.isFlag {
		b, ok := python.IntValue(value)
		if !ok {
			return python.Errorf(python.TypeErrorType, "unsupported operand type(s) for |=: 'int' and '%s'", python.TypeName(value))
		}
		v := python.ToBig(b)
		i.flagMask.Or(i.flagMask, v)
		if isSingleBit(v) {
			i.singles.Or(i.singles, v)
		}
		i.allBits.Sub(new(big.Int).Lsh(big.NewInt(1), uint(i.flagMask.BitLen())), big.NewInt(1))
	}
	// An earlier member with an equal value makes this name an alias.
	canonical, found, err := mk.findByValue(t, value)
	if err != nil {
		return err
	}
	if found {
		member = canonical
	} else if !i.isFlag || isSingleBit(bigOf(value)) {
		i.names.Append(python.NewStr(name))
	}
	cls.Dict().SetStr(name, member)
	i.members.SetStr(name, member)
	if _, err := python.Hash(t, value); err != nil {
		if !python.IsInstance(err, python.TypeErrorType) {
			return err
		}
		i.unhashable.Append(value)
	} else if _, ok, err := i.byValue.Get(t, value); err != nil {
		return err
	} else if !ok {
		if err := i.byValue.Set(t, value, member); err != nil {
			return err
		}
	}
	return nil
}

// findByValue finds the canonical member whose value equals v.
func (mk *memberMaker) findByValue(t *python.Thread, v obj) (obj, bool, error) {
	i := mk.info
	if _, err := python.Hash(t, v); err == nil {
		m, ok, err := i.byValue.Get(t, v)
		return m, ok, err
	} else if !python.IsInstance(err, python.TypeErrorType) {
		return nil, false, err
	}
	var found obj
	var ferr error
	i.members.Items(func(_, m obj) bool {
		eq, err := python.Equal(t, memberValue(m), v)
		if err != nil {
			ferr = err
			return false
		}
		if eq {
			found = m
			return false
		}
		return true
	})
	return found, found != nil, ferr
}

// setAttr sets an attribute of a member (in its dict, as object.__setattr__
// would when the class does not define __setattr__).
func setAttr(t *python.Thread, m obj, name string, v obj) error {
	return python.SetAttr(t, m, name, v)
}

func bigOf(x obj) *big.Int {
	if v, ok := python.IntValue(x); ok {
		return python.ToBig(v)
	}
	return new(big.Int)
}

func isSingleBit(v *big.Int) bool {
	if v.Sign() == 0 {
		return false
	}
	// num & (num - 1) == 0, as Python computes it (negative numbers never
	// are single bits but -1 & -2 == -2).
	m := new(big.Int).Sub(v, big.NewInt(1))
	return m.And(m, v).Sign() == 0
}
