package datetime

import (
	"math/big"

	"github.com/rlm-go/rlm/repl/internal/python"
	"github.com/rlm-go/rlm/repl/internal/python/syntax"
)

// deltaObj is a datetime.timedelta (or the Go part of an instance of a
// subclass).
type deltaObj struct {
	md *module
	v  Timedelta
}

// Type returns timedelta.
func (d *deltaObj) Type() *python.Type { return d.md.deltaType }

func (md *module) delta(v Timedelta) *deltaObj { return &deltaObj{md: md, v: v} }

func deltaOf(x obj) (*deltaObj, bool) {
	d, ok := python.Unwrap(x).(*deltaObj)
	return d, ok
}

var deltaParams = []string{"days", "seconds", "microseconds", "milliseconds", "minutes", "hours", "weeks"}

func (md *module) initDelta() {
	c := python.NewBuiltinType("timedelta", "datetime", nil, func(t *python.Thread, cls *python.Type, args []obj, kwargs []python.Kwarg) (obj, error) {
		a, err := cparse("__new__", args, kwargs, deltaParams, 0, -1)
		if err != nil {
			return nil, err
		}
		var ta TimedeltaArgs
		dst := []**Number{&ta.Days, &ta.Seconds, &ta.Microseconds, &ta.Milliseconds, &ta.Minutes, &ta.Hours, &ta.Weeks}
		for i, v := range a {
			if v == nil {
				continue
			}
			var n Number
			if f, ok := python.Unwrap(v).(python.Float); ok {
				n = Float(float64(f))
			} else if b := python.ToBig(v); b != nil {
				n = Number{I: b}
			} else {
				return nil, python.Errorf(python.TypeErrorType, "unsupported type for timedelta %s component: %s", deltaParams[i], python.TypeName(v))
			}
			*dst[i] = &n
		}
		v, err := NewTimedelta(ta)
		if err != nil {
			return nil, kernelErr(err)
		}
		d := md.delta(v)
		if cls != md.deltaType {
			return python.NewInstance(cls, d), nil
		}
		return d, nil
	})
	md.deltaType = c
	commonMethods(c)
	c.SetAttr("min", md.delta(TimedeltaMin))
	c.SetAttr("max", md.delta(TimedeltaMax))
	c.SetAttr("resolution", md.delta(TimedeltaResolution))
	attr := func(name string, f func(v Timedelta) int64) {
		c.AddGetSet(name, func(t *python.Thread, x obj) (obj, error) {
			d, ok := deltaOf(x)
			if !ok {
				return nil, python.Errorf(python.TypeErrorType, "descriptor '%s' for 'datetime.timedelta' objects doesn't apply to a '%s' object", name, python.TypeName(x))
			}
			return python.MakeInt(f(d.v)), nil
		}, nil)
	}
	attr("days", func(v Timedelta) int64 { return v.Days })
	attr("seconds", func(v Timedelta) int64 { return v.Seconds })
	attr("microseconds", func(v Timedelta) int64 { return v.Microseconds })
	c.AddMethod("total_seconds", func(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
		if err := noArgs("timedelta.total_seconds", args[1:], kwargs); err != nil {
			return nil, err
		}
		d, _ := deltaOf(args[0])
		return python.Float(d.v.TotalSeconds()), nil
	})
	c.AddMethod("__repr__", func(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
		d, _ := deltaOf(args[0])
		return python.NewStr(withName(d.v.Repr(), "datetime.timedelta", md.reprName(args[0], c))), nil
	})
	c.AddMethod("__str__", func(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
		d, _ := deltaOf(args[0])
		return python.NewStr(d.v.String()), nil
	})
}

// PyRepr is repr(td).
func (d *deltaObj) PyRepr(t *python.Thread) (string, error) { return d.v.Repr(), nil }

// PyStr is str(td).
func (d *deltaObj) PyStr(t *python.Thread) (string, error) { return d.v.String(), nil }

// PyBool is bool(td).
func (d *deltaObj) PyBool(t *python.Thread) (bool, error) { return d.v.Bool(), nil }

// PyHash is hash(td).
func (d *deltaObj) PyHash(t *python.Thread) (int64, error) {
	return python.Hash(t, python.MakeBigInt(d.v.TotalMicroseconds()))
}

// PyFormat is format(td, spec): only the empty spec.
func (d *deltaObj) PyFormat(t *python.Thread, spec string) (string, error) {
	if spec != "" {
		return "", python.Errorf(python.TypeErrorType, "unsupported format string passed to datetime.timedelta.__format__")
	}
	return d.v.String(), nil
}

// PyCompare compares timedeltas.
func (d *deltaObj) PyCompare(t *python.Thread, op python.CmpOp, other obj) (obj, error) {
	o, ok := deltaOf(other)
	if !ok {
		return python.NotImplemented, nil
	}
	return cmpResult(op, d.v.Compare(o.v)), nil
}

// PyAbs is abs(td).
func (d *deltaObj) PyAbs(t *python.Thread) (obj, error) {
	v, err := d.v.Abs()
	if err != nil {
		return nil, kernelErr(err)
	}
	return d.md.delta(v), nil
}

// PyUnary is -td and +td.
func (d *deltaObj) PyUnary(t *python.Thread, op syntax.UnaryOperator) (obj, error) {
	switch op {
	case syntax.USub:
		v, err := d.v.Neg()
		if err != nil {
			return nil, kernelErr(err)
		}
		return d.md.delta(v), nil
	case syntax.UAdd:
		return d.md.delta(d.v), nil
	}
	return nil, python.Errorf(python.TypeErrorType, "bad operand type for unary ~: 'datetime.timedelta'")
}

// PyBinary is timedelta arithmetic.
func (d *deltaObj) PyBinary(t *python.Thread, op syntax.Operator, other obj, reflected bool) (obj, error) {
	md := d.md
	res := func(v Timedelta, err error) (obj, error) {
		if err != nil {
			return nil, kernelErr(err)
		}
		return md.delta(v), nil
	}
	if o, ok := deltaOf(other); ok {
		a, b := d.v, o.v
		if reflected {
			a, b = b, a
		}
		switch op {
		case syntax.Add:
			return res(a.Add(b))
		case syntax.Sub:
			return res(a.Sub(b))
		case syntax.Div:
			f, err := a.TrueDiv(b)
			if err != nil {
				return nil, kernelErr(err)
			}
			return python.Float(f), nil
		case syntax.FloorDiv:
			q, err := a.FloorDiv(b)
			if err != nil {
				return nil, kernelErr(err)
			}
			return python.MakeBigInt(q), nil
		case syntax.Mod:
			return res(a.Mod(b))
		}
		return md.unsupported(op, d, other, reflected)
	}
	u := python.Unwrap(other)
	if f, ok := u.(python.Float); ok {
		switch {
		case op == syntax.Mult:
			return res(d.v.MulFloat(float64(f)))
		case op == syntax.Div && !reflected:
			return res(d.v.TrueDivFloat(float64(f)))
		}
		return md.unsupported(op, d, other, reflected)
	}
	var n *big.Int
	switch u.(type) {
	case python.Int, *python.BigInt, python.Bool:
		n = python.ToBig(u)
	}
	if n != nil {
		switch {
		case op == syntax.Mult:
			return res(d.v.MulInt(n))
		case op == syntax.Div && !reflected:
			return res(d.v.TrueDivInt(n))
		case op == syntax.FloorDiv && !reflected:
			return res(d.v.FloorDivInt(n))
		}
		return md.unsupported(op, d, other, reflected)
	}
	if op == syntax.Add {
		// timedelta + date and + datetime: the date's operator.
		switch python.Unwrap(other).(type) {
		case *dateObj, *dtObj:
			if !reflected {
				return python.NotImplemented, nil
			}
		}
	}
	return md.unsupported(op, d, other, reflected)
}

// ---- tzinfo and timezone

// tzObj is a datetime.timezone.
type tzObj struct {
	md *module
	z  *Timezone
}

// Type returns timezone.
func (z *tzObj) Type() *python.Type { return z.md.timezoneType }

// PyRepr is repr(tz).
func (z *tzObj) PyRepr(t *python.Thread) (string, error) { return z.z.Repr(), nil }

// PyStr is str(tz).
func (z *tzObj) PyStr(t *python.Thread) (string, error) { return z.z.String(), nil }

// PyHash is hash(tz): the offset's.
func (z *tzObj) PyHash(t *python.Thread) (int64, error) {
	return z.md.delta(z.z.Offset).PyHash(t)
}

// PyFormat is format(tz, spec): only the empty spec.
func (z *tzObj) PyFormat(t *python.Thread, spec string) (string, error) {
	if spec != "" {
		return "", python.Errorf(python.TypeErrorType, "unsupported format string passed to datetime.timezone.__format__")
	}
	return z.z.String(), nil
}

// PyCompare is == and != by offset.
func (z *tzObj) PyCompare(t *python.Thread, op python.CmpOp, other obj) (obj, error) {
	o, ok := other.(*tzObj)
	if !ok || !isEqOp(op) {
		return python.NotImplemented, nil
	}
	return python.MakeBool(z.z.Equal(o.z) == (op == python.CmpEq)), nil
}

func (md *module) initTZ() {
	base := python.NewBuiltinType("tzinfo", "datetime", nil, func(t *python.Thread, cls *python.Type, args []obj, kwargs []python.Kwarg) (obj, error) {
		return python.NewInstance(cls, nil), nil
	})
	md.tzinfoType = base
	for _, m := range []string{"utcoffset", "dst", "tzname"} {
		m := m
		base.AddMethod(m, func(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
			if err := oneArg("tzinfo."+m, args[1:], kwargs); err != nil {
				return nil, err
			}
			return nil, python.Errorf(python.NotImplementedErrorType, "a tzinfo subclass must implement %s()", m)
		})
	}
	base.AddMethod("fromutc", func(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
		return nil, python.NotSupported("tzinfo.fromutc on tzinfo subclasses", "use datetime.timezone")
	})
	commonMethods(base)
	c := python.NewBuiltinType("timezone", "datetime", base, func(t *python.Thread, cls *python.Type, args []obj, kwargs []python.Kwarg) (obj, error) {
		a, err := cparse("timezone", args, kwargs, []string{"offset", "name"}, 1, -1)
		if err != nil {
			return nil, err
		}
		off, ok := deltaOf(a[0])
		if !ok {
			return nil, python.Errorf(python.TypeErrorType, "timezone() argument 1 must be datetime.timedelta, not %s", python.TypeName(a[0]))
		}
		var name *string
		if a[1] != nil {
			if !python.IsStr(a[1]) {
				return nil, python.Errorf(python.TypeErrorType, "timezone() argument 2 must be str, not %s", python.TypeName(a[1]))
			}
			s, err := python.StrOf(t, python.Unwrap(a[1]))
			if err != nil {
				return nil, err
			}
			name = &s
		}
		z, err := NewTimezone(off.v, name)
		if err != nil {
			return nil, kernelErr(err)
		}
		return md.wrapTZ(z), nil
	})
	c.SetFinal()
	md.timezoneType = c
	md.utc = &tzObj{md: md, z: UTC}
	c.SetAttr("utc", md.utc)
	c.SetAttr("min", &tzObj{md: md, z: TimezoneMin})
	c.SetAttr("max", &tzObj{md: md, z: TimezoneMax})
	dtArg := func(name string, args []obj, kwargs []python.Kwarg) error {
		if err := oneArg("timezone."+name, args[1:], kwargs); err != nil {
			return err
		}
		x := args[1]
		if x == python.None {
			return nil
		}
		if _, ok := python.Unwrap(x).(*dtObj); !ok {
			return python.Errorf(python.TypeErrorType, "%s(dt) argument must be a datetime instance or None, not %s", name, python.TypeName(x))
		}
		return nil
	}
	c.AddMethod("utcoffset", func(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
		if err := dtArg("utcoffset", args, kwargs); err != nil {
			return nil, err
		}
		return md.delta(args[0].(*tzObj).z.Offset), nil
	})
	c.AddMethod("dst", func(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
		if err := dtArg("dst", args, kwargs); err != nil {
			return nil, err
		}
		return python.None, nil
	})
	c.AddMethod("tzname", func(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
		if err := dtArg("tzname", args, kwargs); err != nil {
			return nil, err
		}
		return python.NewStr(args[0].(*tzObj).z.TZName()), nil
	})
	c.AddMethod("fromutc", func(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
		if err := oneArg("timezone.fromutc", args[1:], kwargs); err != nil {
			return nil, err
		}
		d, ok := python.Unwrap(args[1]).(*dtObj)
		if !ok {
			return nil, python.Errorf(python.TypeErrorType, "fromutc: argument must be a datetime")
		}
		if d.tz != args[0] {
			return nil, python.Errorf(python.ValueErrorType, "fromutc: dt.tzinfo is not self")
		}
		v, err := d.v.Add(d.tz.z.Offset)
		if err != nil {
			return nil, kernelErr(err)
		}
		return md.newDateTime(t, d.sub, v, d.tz)
	})
}
