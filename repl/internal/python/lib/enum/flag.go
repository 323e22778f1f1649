package enum

import (
	"math/big"
	"sort"
	"strings"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// iterBitsLSB returns the set bits of a non-negative n, lowest first.
func iterBitsLSB(n *big.Int) []*big.Int {
	var out []*big.Int
	for i := 0; i < n.BitLen(); i++ {
		if n.Bit(i) == 1 {
			out = append(out, new(big.Int).Lsh(big.NewInt(1), uint(i)))
		}
	}
	return out
}

// pyBin is enum.bin: two's complement digits after a sign bit.
func pyBin(num *big.Int, maxBits int) string {
	ceiling := new(big.Int).Lsh(big.NewInt(1), uint(num.BitLen()))
	var s string
	if num.Sign() >= 0 {
		s = "0b" + new(big.Int).Add(num, ceiling).Text(2)
		s = "0b" + strings.Replace(s[2:], "1", "0", 1)
	} else {
		// ~num ^ (ceiling - 1) + ceiling, with + binding tighter than ^.
		inv := new(big.Int).Not(num)
		x := new(big.Int).Xor(inv, new(big.Int).Add(new(big.Int).Sub(ceiling, big.NewInt(1)), ceiling))
		if x.Sign() < 0 {
			s = "-0b" + new(big.Int).Neg(x).Text(2)
		} else {
			s = "0b" + x.Text(2)
		}
	}
	sign, digits := s[:3], s[3:]
	if maxBits >= 0 && len(digits) < maxBits {
		d := strings.Repeat(sign[len(sign)-1:], maxBits) + digits
		digits = d[len(d)-maxBits:]
	}
	return sign + " " + digits
}

// enumBin implements enum.bin(num, max_bits=None).
func enumBin(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
	a, err := (&python.Signature{Name: "bin", Pos: []string{"num", "max_bits"}, Required: 1}).Values(args, kwargs)
	if err != nil {
		return nil, err
	}
	n, ok := python.IntValue(a[0])
	if !ok {
		return nil, python.Errorf(python.AttributeErrorType, "'%s' object has no attribute 'bit_length'", python.TypeName(a[0]))
	}
	mb := -1
	if a[1] != nil && a[1] != python.None {
		v, err := python.ArgInt(t, "bin", a[1])
		if err != nil {
			return nil, err
		}
		mb = int(v)
	}
	return python.NewStr(pyBin(python.ToBig(n), mb)), nil
}

// showFlagValues implements enum.show_flag_values(value).
func showFlagValues(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
	a, err := (&python.Signature{Name: "show_flag_values", Pos: []string{"value"}, Required: 1}).Values(args, kwargs)
	if err != nil {
		return nil, err
	}
	v := a[0]
	if i := memberInfo(v); i != nil {
		v = memberValue(v)
	}
	n, ok := python.IntValue(v)
	if !ok {
		return nil, python.Errorf(python.TypeErrorType, "'<' not supported between instances of '%s' and 'int'", python.TypeName(v))
	}
	b := python.ToBig(n)
	if b.Sign() < 0 {
		r, _ := python.Repr(t, a[0])
		return nil, python.Errorf(python.ValueErrorType, "%s is not a positive integer", r)
	}
	var out []obj
	for _, x := range iterBitsLSB(b) {
		out = append(out, python.MakeBigInt(x))
	}
	return python.NewList(out), nil
}

// flagMembers is Flag._iter_member_(value): the canonical members whose
// bits value has, by value or in definition order.
func (st *state) flagMembers(cls *python.Type, value *big.Int) []obj {
	return st.flagMembersBy(cls, value, infoOf(cls).iterByDef)
}

// flagMembersBy is _iter_member_by_value_ or _iter_member_by_def_.
func (st *state) flagMembersBy(cls *python.Type, value *big.Int, byDef bool) []obj {
	i := infoOf(cls)
	v := new(big.Int).And(value, i.flagMask)
	var out []obj
	for _, b := range iterBitsLSB(v) {
		m, ok, _ := i.byValue.Get(nil, python.MakeBigInt(b))
		if !ok {
			m = python.None
		}
		out = append(out, m)
	}
	if byDef {
		order := func(m obj) int64 {
			if o, ok := m.(*python.Instance); ok {
				if s, ok := o.Attrs().GetStr("_sort_order_"); ok {
					n, _ := python.AsInt64(s)
					return n
				}
			}
			return 0
		}
		sort.SliceStable(out, func(a, b int) bool { return order(out[a]) < order(out[b]) })
	}
	return out
}

// newPseudo makes a member object for a composite value (no name yet).
func (st *state) newPseudo(t *python.Thread, cls *python.Type, value *big.Int) (obj, error) {
	i := infoOf(cls)
	var m obj
	if i.memberType == python.ObjectType {
		m = python.NewInstance(cls, nil)
	} else {
		var err error
		if m, err = objectNew(t, cls, []obj{python.MakeBigInt(value)}); err != nil {
			return nil, err
		}
	}
	if has, err := python.HasAttr(t, m, "_value_"); err != nil {
		return nil, err
	} else if !has {
		if err := python.SetAttr(t, m, "_value_", python.MakeBigInt(value)); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// flagMissing is Flag._missing_: the pseudo-member of a composite value.
func (st *state) flagMissing(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
	if len(args) != 2 {
		return nil, python.Errorf(python.TypeErrorType, "Flag._missing_() takes 2 positional arguments but %d were given", len(args))
	}
	cls, _ := args[0].(*python.Type)
	i := infoOf(cls)
	iv, ok := python.IntValue(args[1])
	if !ok || i == nil {
		r, err := python.Repr(t, args[1])
		if err != nil {
			return nil, err
		}
		return nil, python.Errorf(python.ValueErrorType, "%s is not a valid %s", r, cls.Qualname())
	}
	value := new(big.Int).Set(python.ToBig(iv))
	flagMask, singles, allBits := i.flagMask, i.singles, i.allBits
	clsRepr, _ := python.Repr(t, cls)
	var negValue *big.Int
	notAll := new(big.Int).Not(allBits)
	outOfRange := value.Cmp(notAll) < 0 || value.Cmp(allBits) > 0 ||
		new(big.Int).And(value, new(big.Int).Xor(allBits, flagMask)).Sign() != 0
	if outOfRange {
		switch i.boundary {
		case st.strict, nil:
			maxBits := max(bitLength(value), flagMask.BitLen())
			vr, _ := python.Repr(t, python.MakeBigInt(value))
			return nil, python.Errorf(python.ValueErrorType, "%s invalid value %s\n    given %s\n  allowed %s", clsRepr, vr, pyBin(value, maxBits), pyBin(flagMask, maxBits))
		case st.conform:
			value.And(value, flagMask)
		case st.eject:
			return python.MakeBigInt(value), nil
		case st.keep:
			if value.Sign() < 0 {
				p := new(big.Int).Lsh(big.NewInt(1), uint(bitLength(value)))
				ab := new(big.Int).Add(allBits, big.NewInt(1))
				if ab.Cmp(p) > 0 {
					p = ab
				}
				value.Add(p, value)
			}
		default:
			br, _ := python.Repr(t, i.boundary)
			return nil, python.Errorf(python.ValueErrorType, "%s unknown flag boundary %s", clsRepr, br)
		}
	}
	if value.Sign() < 0 {
		negValue = new(big.Int).Set(value)
		value.Add(value, new(big.Int).Add(allBits, big.NewInt(1)))
	}
	unknown := new(big.Int).AndNot(value, flagMask)
	aliases := new(big.Int).AndNot(value, singles)
	memberValue_ := new(big.Int).And(value, singles)
	if unknown.Sign() != 0 && i.boundary != st.keep {
		vr, _ := python.Repr(t, python.MakeBigInt(value))
		ur, _ := python.Repr(t, python.MakeBigInt(unknown))
		return nil, python.Errorf(python.ValueErrorType, "%s(%s) -->  unknown values %s [%s]", cls.Name(), vr, ur, pyBin(unknown, -1))
	}
	pseudo, err := st.newPseudo(t, cls, value)
	if err != nil {
		return nil, err
	}
	var name obj = python.None
	if memberValue_.Sign() != 0 || aliases.Sign() != 0 {
		var members []obj
		combined := new(big.Int)
		for _, m := range st.flagMembers(cls, memberValue_) {
			members = append(members, m)
			combined.Or(combined, bigOf(memberValue(m)))
		}
		if aliases.Sign() != 0 {
			value = new(big.Int).Or(memberValue_, aliases)
			i.members.Items(func(_, pm obj) bool {
				for _, m := range members {
					if m == pm {
						return true
					}
				}
				pv := bigOf(memberValue(pm))
				if pv.Sign() != 0 && new(big.Int).And(pv, value).Cmp(pv) == 0 {
					members = append(members, pm)
					combined.Or(combined, pv)
				}
				return true
			})
		}
		unknown = new(big.Int).Xor(value, combined)
		names := make([]string, len(members))
		for k, m := range members {
			names[k] = python.StrValue(memberName(m))
		}
		switch {
		case combined.Sign() == 0:
			name = python.None
		case unknown.Sign() != 0 && i.boundary == st.strict:
			ur, _ := python.Repr(t, python.MakeBigInt(unknown))
			return nil, python.Errorf(python.ValueErrorType, "%s: no members with value %s", clsRepr, ur)
		case unknown.Sign() != 0:
			nr, err := st.numericRepr(t, cls, python.MakeBigInt(unknown))
			if err != nil {
				return nil, err
			}
			name = python.NewStr(strings.Join(names, "|") + "|" + nr)
		default:
			name = python.NewStr(strings.Join(names, "|"))
		}
	}
	if err := python.SetAttr(t, pseudo, "_name_", name); err != nil {
		return nil, err
	}
	key := python.MakeBigInt(value)
	if existing, ok, err := i.byValue.Get(t, key); err != nil {
		return nil, err
	} else if ok {
		pseudo = existing
	} else if err := i.byValue.Set(t, key, pseudo); err != nil {
		return nil, err
	}
	if negValue != nil {
		if err := i.byValue.Set(t, python.MakeBigInt(negValue), pseudo); err != nil {
			return nil, err
		}
	}
	return pseudo, nil
}

// bitLength is int.bit_length().
func bitLength(v *big.Int) int { return v.BitLen() }

// numericRepr is cls._numeric_repr_(v).
func (st *state) numericRepr(t *python.Thread, cls *python.Type, v obj) (string, error) {
	nr, owner := lookupOwner(cls, "_numeric_repr_")
	if owner == nil || nr == obj(st.reprBuiltin) {
		return python.Repr(t, v)
	}
	r, err := python.Call(t, python.FunctionOf(nr), []obj{v}, nil)
	if err != nil {
		return "", err
	}
	return python.StrOf(t, r)
}

func (st *state) addFlagMethods(ns *python.Dict) {
	m := func(name string, fn python.BuiltinFunc) *python.Builtin {
		b := st.method(name, fn)
		ns.SetStr(name, b)
		return b
	}
	if b, ok := st.in.Builtins().GetStr("repr"); ok {
		st.reprBuiltin = b
		ns.SetStr("_numeric_repr_", b)
	}
	ns.SetStr("_generate_next_value_", python.NewStaticMethod(python.NewBuiltin("_generate_next_value_", flagGenerate)))
	ns.SetStr("_missing_", python.NewClassMethodOf(python.NewBuiltin("_missing_", st.flagMissing)))
	iterFn := func(byDef bool) obj {
		return python.NewClassMethodOf(python.NewBuiltin("_iter_member_", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if len(args) != 2 {
				return nil, python.Errorf(python.TypeErrorType, "_iter_member_() takes 2 positional arguments but %d were given", len(args))
			}
			cls, _ := args[0].(*python.Type)
			iv, ok := python.IntValue(args[1])
			if cls == nil || infoOf(cls) == nil || !ok {
				return nil, python.Errorf(python.TypeErrorType, "unsupported operand type(s) for &: '%s' and 'int'", python.TypeName(args[1]))
			}
			members := st.flagMembersBy(cls, python.ToBig(iv), byDef)
			k := 0
			return python.NewIterator(st.genType, func(*python.Thread) (obj, error) {
				if k >= len(members) {
					return nil, nil
				}
				k++
				return members[k-1], nil
			}), nil
		}))
	}
	st.iterByValue, st.iterByDef = iterFn(false), iterFn(true)
	ns.SetStr("_iter_member_by_value_", st.iterByValue)
	ns.SetStr("_iter_member_", st.iterByValue)
	ns.SetStr("_iter_member_by_def_", st.iterByDef)
	m("__contains__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		self, other := args[0], args[1]
		if ok, err := python.IsInstanceOf(t, other, self.Type()); err != nil {
			return nil, err
		} else if !ok {
			return nil, python.Errorf(python.TypeErrorType, "unsupported operand type(s) for 'in': %s and %s",
				python.StrRepr(other.Type().Qualname()), python.StrRepr(self.Type().Qualname()))
		}
		ov, sv := bigOf(memberValue(other)), bigOf(memberValue(self))
		return python.MakeBool(new(big.Int).And(ov, sv).Cmp(ov) == 0), nil
	})
	m("__iter__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		members := st.flagMembers(args[0].Type(), bigOf(memberValue(args[0])))
		k := 0
		return python.NewIterator(st.genType, func(*python.Thread) (obj, error) {
			if k >= len(members) {
				return nil, nil
			}
			k++
			return members[k-1], nil
		}), nil
	})
	m("__len__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		v := new(big.Int).Abs(bigOf(memberValue(args[0])))
		n := 0
		for _, w := range v.Bits() {
			for ; w != 0; w &= w - 1 {
				n++
			}
		}
		return python.MakeInt(int64(n)), nil
	})
	m("__repr__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		self := args[0]
		vr, err := st.valueRepr(t, self.Type(), memberValue(self))
		if err != nil {
			return nil, err
		}
		name := memberName(self)
		if name == python.None {
			return python.NewStr("<" + self.Type().Name() + ": " + vr + ">"), nil
		}
		n, err := python.StrOf(t, name)
		return python.NewStr("<" + self.Type().Name() + "." + n + ": " + vr + ">"), err
	})
	m("__str__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		self := args[0]
		name := memberName(self)
		if name == python.None {
			r, err := python.Repr(t, memberValue(self))
			return python.NewStr(self.Type().Name() + "(" + r + ")"), err
		}
		n, err := python.StrOf(t, name)
		return python.NewStr(self.Type().Name() + "." + n), err
	})
	m("__bool__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		b, err := python.TruthE(t, memberValue(args[0]))
		return python.MakeBool(b), err
	})
	st.flagProtocol = map[string]obj{}
	for _, n := range []string{"__contains__", "__iter__", "__len__"} {
		v, _ := ns.GetStr(n)
		st.flagProtocol[n] = v
	}
	st.flagOps = map[string]obj{}
	binop := func(name string, op func(z, x, y *big.Int) *big.Int) {
		st.flagOps[name] = m(name, func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if len(args) != 2 {
				return nil, python.Errorf(python.TypeErrorType, "expected 1 argument, got %d", len(args)-1)
			}
			self, other := args[0], args[1]
			var ov *big.Int
			if ok, err := python.IsInstanceOf(t, other, self.Type()); err != nil {
				return nil, err
			} else if ok {
				ov = bigOf(memberValue(other))
			} else if i := memberInfo(self); i != nil && i.memberType != python.ObjectType {
				isMT, err := python.IsInstanceOf(t, other, i.memberType)
				if err != nil {
					return nil, err
				}
				iv, isInt := python.IntValue(other)
				if !isMT || !isInt {
					return python.NotImplemented, nil
				}
				ov = python.ToBig(iv)
			} else {
				return python.NotImplemented, nil
			}
			r := op(new(big.Int), bigOf(memberValue(self)), ov)
			return python.Call(t, self.Type(), []obj{python.MakeBigInt(r)}, nil)
		})
	}
	binop("__or__", (*big.Int).Or)
	binop("__and__", (*big.Int).And)
	binop("__xor__", (*big.Int).Xor)
	st.flagOps["__ror__"] = st.flagOps["__or__"]
	st.flagOps["__rand__"] = st.flagOps["__and__"]
	st.flagOps["__rxor__"] = st.flagOps["__xor__"]
	ns.SetStr("__ror__", st.flagOps["__or__"])
	ns.SetStr("__rand__", st.flagOps["__and__"])
	ns.SetStr("__rxor__", st.flagOps["__xor__"])
	st.flagOps["__invert__"] = m("__invert__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		self := args[0]
		o, _ := self.(*python.Instance)
		if o != nil {
			if inv, ok := o.Attrs().GetStr("_inverted_"); ok && inv != python.None {
				return inv, nil
			}
		}
		i := memberInfo(self)
		v := bigOf(memberValue(self))
		var r *big.Int
		if i.boundary == st.eject || i.boundary == st.keep {
			r = new(big.Int).Not(v)
		} else {
			r = new(big.Int).AndNot(i.singles, v)
		}
		inv, err := python.Call(t, self.Type(), []obj{python.MakeBigInt(r)}, nil)
		if err != nil {
			return nil, err
		}
		if o != nil {
			o.Attrs().SetStr("_inverted_", inv)
		}
		return inv, nil
	})
}

// flagGenerate is Flag._generate_next_value_: the next power of two.
func flagGenerate(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
	a, err := python.UnpackArgs("_generate_next_value_", args, kwargs, 4, "name", "start", "count", "last_values")
	if err != nil {
		return nil, err
	}
	count, err := python.TruthE(t, a[2])
	if err != nil {
		return nil, err
	}
	if !count {
		if a[1] == python.None {
			return python.MakeInt(1), nil
		}
		return a[1], nil
	}
	last, err := python.ToSlice(t, a[3])
	if err != nil {
		return nil, err
	}
	mx, err := python.Call(t, builtinMax, []obj{python.NewList(last)}, nil)
	if err != nil {
		return nil, err
	}
	iv, ok := python.IntValue(mx)
	if !ok {
		r, _ := python.Repr(t, mx)
		return nil, python.Errorf(python.TypeErrorType, "invalid flag value %s", r)
	}
	hb := python.ToBig(iv).BitLen() - 1
	return python.MakeBigInt(new(big.Int).Lsh(big.NewInt(1), uint(hb+1))), nil
}

// builtinMax is max(iterable) (set by setup).
var builtinMax *python.Builtin

// newBuiltinMax makes builtinMax.
func newBuiltinMax() *python.Builtin {
	return python.NewBuiltin("max", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		items, err := python.ToSlice(t, args[0])
		if err != nil {
			return nil, err
		}
		if len(items) == 0 {
			return nil, python.Errorf(python.ValueErrorType, "max() iterable argument is empty")
		}
		best := items[0]
		for _, x := range items[1:] {
			gt, err := python.Less(t, best, x)
			if err != nil {
				return nil, err
			}
			if gt {
				best = x
			}
		}
		return best, nil
	})
}
