package enum

import (
	"math/big"
	"strings"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// verifier is an enum.verify(*checks) decorator.
type verifier struct {
	st     *state
	checks []obj
}

// verifyType is the type of enum.verify(...) decorators (set by setup).
var verifyType *python.Type

// Type returns enum.verify.
func (*verifier) Type() *python.Type { return verifyType }

// buildVerify adds EnumCheck, its members and verify to the module.
func (st *state) buildVerify(t *python.Thread, m *python.Module) error {
	ec, err := st.newClass(t, "EnumCheck", []*python.Type{st.strEnum}, "\n    various conditions to check an enumeration for\n    ", func(ns *python.Dict) {
		ns.SetStr("CONTINUOUS", python.NewStr("no skipped integer values"))
		ns.SetStr("NAMED_FLAGS", python.NewStr("multi-flag aliases may not contain unnamed flags"))
		ns.SetStr("UNIQUE", python.NewStr("one name per value"))
	})
	if err != nil {
		return err
	}
	m.Set("EnumCheck", ec)
	i := infoOf(ec)
	for _, n := range []string{"CONTINUOUS", "NAMED_FLAGS", "UNIQUE"} {
		v, _ := i.members.GetStr(n)
		m.Set(n, v)
	}
	unique, _ := i.members.GetStr("UNIQUE")
	continuous, _ := i.members.GetStr("CONTINUOUS")
	named, _ := i.members.GetStr("NAMED_FLAGS")
	m.Func("verify", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if len(kwargs) > 0 {
			return nil, python.Errorf(python.TypeErrorType, "verify.__init__() got an unexpected keyword argument '%s'", kwargs[0].Name)
		}
		return &verifier{st: st, checks: append([]obj(nil), args...)}, nil
	})
	st.verifyChecks = [3]obj{unique, continuous, named}
	return nil
}

// PyCall applies the checks to an enumeration.
func (v *verifier) PyCall(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
	st := v.st
	if len(args) != 1 || len(kwargs) > 0 {
		return nil, python.Errorf(python.TypeErrorType, "verify.__call__() takes 2 positional arguments but %d were given", len(args)+1)
	}
	cls, ok := args[0].(*python.Type)
	if !ok || infoOf(cls) == nil {
		return nil, python.Errorf(python.TypeErrorType, "the 'verify' decorator only works with Enum and Flag")
	}
	i := infoOf(cls)
	kind := "enum"
	if i.isFlag {
		kind = "flag"
	}
	unique, continuous, named := st.verifyChecks[0], st.verifyChecks[1], st.verifyChecks[2]
	clsRepr, _ := python.Repr(t, cls)
	for _, check := range v.checks {
		switch check {
		case unique:
			var dups []string
			i.members.Items(func(k, m obj) bool {
				if n := python.StrValue(memberName(m)); n != python.StrValue(k) {
					dups = append(dups, python.StrValue(k)+" -> "+n)
				}
				return true
			})
			if len(dups) > 0 {
				return nil, python.Errorf(python.ValueErrorType, "aliases found in %s: %s", clsRepr, strings.Join(dups, ", "))
			}
		case continuous:
			seen := map[string]bool{}
			var vals []*big.Int
			for _, n := range i.names.Items() {
				m, _ := i.members.GetStr(python.StrValue(n))
				mv := memberValue(m)
				iv, ok := python.IntValue(mv)
				if !ok {
					return nil, python.NotSupported("verify(CONTINUOUS) of an enumeration whose values are not ints", "")
				}
				b := python.ToBig(iv)
				if !seen[b.String()] {
					seen[b.String()] = true
					vals = append(vals, b)
				}
			}
			if len(vals) < 2 {
				continue
			}
			low, high := vals[0], vals[0]
			for _, x := range vals {
				if x.Cmp(low) < 0 {
					low = x
				}
				if x.Cmp(high) > 0 {
					high = x
				}
			}
			var missing []string
			if kind == "flag" {
				for b := low.BitLen(); b < high.BitLen()-1; b++ {
					p := new(big.Int).Lsh(big.NewInt(1), uint(b))
					if !seen[p.String()] {
						missing = append(missing, p.String())
					}
				}
			} else {
				span := new(big.Int).Sub(high, low)
				if span.BitLen() > 24 {
					return nil, python.NotSupported("verify(CONTINUOUS) over a range of more than 16,777,216 values", "")
				}
				for x := new(big.Int).Add(low, big.NewInt(1)); x.Cmp(high) < 0; x.Add(x, big.NewInt(1)) {
					if !seen[x.String()] {
						missing = append(missing, x.String())
					}
				}
			}
			if len(missing) > 0 {
				msg := "invalid " + kind + " " + python.StrRepr(cls.Name()) + ": missing values " + strings.Join(missing, ", ")
				if r := []rune(msg); len(r) > 256 {
					msg = string(r[:256])
				}
				return nil, python.Errorf(python.ValueErrorType, "%s", msg)
			}
		case named:
			canonical := map[string]bool{}
			values := map[string]bool{}
			for _, n := range i.names.Items() {
				canonical[python.StrValue(n)] = true
				m, _ := i.members.GetStr(python.StrValue(n))
				values[bigOf(memberValue(m)).String()] = true
			}
			var missingNames []string
			missingValue := new(big.Int)
			i.members.Items(func(k, m obj) bool {
				if canonical[python.StrValue(k)] {
					return true
				}
				av := bigOf(memberValue(m))
				if av.Sign() < 0 {
					return true
				}
				var missed []*big.Int
				for _, b := range iterBitsLSB(av) {
					if !values[b.String()] {
						missed = append(missed, b)
					}
				}
				if len(missed) > 0 {
					missingNames = append(missingNames, python.StrValue(k))
					for _, b := range missed {
						missingValue.Or(missingValue, b)
					}
				}
				return true
			})
			if len(missingNames) > 0 {
				var alias string
				if len(missingNames) == 1 {
					alias = "alias " + missingNames[0] + " is missing"
				} else {
					alias = "aliases " + strings.Join(missingNames[:len(missingNames)-1], ", ") + " and " + missingNames[len(missingNames)-1] + " are missing"
				}
				var value string
				if isSingleBit(missingValue) {
					value = "value 0x" + missingValue.Text(16)
				} else {
					value = "combined values of 0x" + missingValue.Text(16)
				}
				return nil, python.Errorf(python.ValueErrorType, "invalid Flag %s: %s %s [use enum.show_flag_values(value) for details]", python.StrRepr(cls.Name()), alias, value)
			}
		}
	}
	return cls, nil
}
