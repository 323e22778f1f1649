package datetime

import (
	"github.com/rlm-go/rlm/repl/internal/python"
	"github.com/rlm-go/rlm/repl/internal/python/syntax"
)

// dateObj is a datetime.date (or the Go part of an instance of a
// subclass, sub).
type dateObj struct {
	md  *module
	sub *python.Type // the subclass whose instance this is, or nil
	v   Date
}

// Type returns date.
func (d *dateObj) Type() *python.Type { return d.md.dateType }

// dateOf returns the date of a date or datetime.
func dateOf(x obj) (Date, bool) {
	switch v := python.Unwrap(x).(type) {
	case *dateObj:
		return v.v, true
	case *dtObj:
		return v.v.Date(), true
	}
	return Date{}, false
}

// newDate makes a date of class cls (nil: date), as CPython's
// new_date_subclass_ex: a datetime at midnight for datetime, and
// cls(year, month, day) for other subclasses.
func (md *module) newDate(t *python.Thread, cls *python.Type, v Date) (obj, error) {
	switch cls {
	case nil, md.dateType:
		return &dateObj{md: md, v: v}, nil
	case md.datetimeType:
		return &dtObj{md: md, v: DateTime{Year: v.Year, Month: v.Month, Day: v.Day}}, nil
	}
	return python.Call(t, cls, []obj{python.MakeInt(int64(v.Year)), python.MakeInt(int64(v.Month)), python.MakeInt(int64(v.Day))}, nil)
}

// classArg returns the class a class method is called on.
func classArg(x obj) *python.Type {
	if c, ok := x.(*python.Type); ok {
		return c
	}
	return x.Type()
}

func (md *module) initDate() {
	var c *python.Type
	c = python.NewBuiltinType("date", "datetime", nil, func(t *python.Thread, cls *python.Type, args []obj, kwargs []python.Kwarg) (obj, error) {
		a, err := cparse("", args, kwargs, []string{"year", "month", "day"}, 3, -1)
		if err != nil {
			return nil, err
		}
		var ymd [3]int
		for i := range ymd {
			if ymd[i], err = cint(t, a[i]); err != nil {
				return nil, err
			}
		}
		v, err := NewDate(ymd[0], ymd[1], ymd[2])
		if err != nil {
			return nil, kernelErr(err)
		}
		if cls != c {
			return python.NewInstance(cls, &dateObj{md: md, sub: cls, v: v}), nil
		}
		return &dateObj{md: md, v: v}, nil
	})
	md.dateType = c
	commonMethods(c)
	c.SetAttr("min", &dateObj{md: md, v: DateMin})
	c.SetAttr("max", &dateObj{md: md, v: DateMax})
	c.SetAttr("resolution", md.delta(DateResolution))
	attr := func(name string, f func(v Date) int) {
		c.AddGetSet(name, func(t *python.Thread, x obj) (obj, error) {
			d, ok := dateOf(x)
			if !ok {
				return nil, python.Errorf(python.TypeErrorType, "descriptor '%s' for 'datetime.date' objects doesn't apply to a '%s' object", name, python.TypeName(x))
			}
			return python.MakeInt(int64(f(d))), nil
		}, nil)
	}
	attr("year", func(v Date) int { return v.Year })
	attr("month", func(v Date) int { return v.Month })
	attr("day", func(v Date) int { return v.Day })
	method := func(name string, fn func(t *python.Thread, self obj, d Date, args []obj, kwargs []python.Kwarg) (obj, error)) {
		c.AddMethod(name, func(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
			d, ok := dateOf(args[0])
			if !ok {
				return nil, python.Errorf(python.TypeErrorType, "descriptor '%s' for 'datetime.date' objects doesn't apply to a '%s' object", name, python.TypeName(args[0]))
			}
			return fn(t, args[0], d, args[1:], kwargs)
		})
	}
	noArg := func(name string, fn func(t *python.Thread, d Date) (obj, error)) {
		method(name, func(t *python.Thread, self obj, d Date, args []obj, kwargs []python.Kwarg) (obj, error) {
			if err := noArgs("date."+name, args, kwargs); err != nil {
				return nil, err
			}
			return fn(t, d)
		})
	}
	noArg("toordinal", func(t *python.Thread, d Date) (obj, error) { return python.MakeInt(int64(d.Ordinal())), nil })
	noArg("weekday", func(t *python.Thread, d Date) (obj, error) { return python.MakeInt(int64(d.Weekday())), nil })
	noArg("isoweekday", func(t *python.Thread, d Date) (obj, error) { return python.MakeInt(int64(d.ISOWeekday())), nil })
	noArg("isocalendar", func(t *python.Thread, d Date) (obj, error) {
		y, w, wd := d.ISOCalendar()
		return newTuple(md.isoCalType, python.MakeInt(int64(y)), python.MakeInt(int64(w)), python.MakeInt(int64(wd))), nil
	})
	noArg("isoformat", func(t *python.Thread, d Date) (obj, error) { return python.NewStr(d.ISOFormat()), nil })
	noArg("ctime", func(t *python.Thread, d Date) (obj, error) { return python.NewStr(d.CTime()), nil })
	noArg("timetuple", func(t *python.Thread, d Date) (obj, error) { return md.structTimeOf(t, d.TimeTuple()) })
	method("__str__", func(t *python.Thread, self obj, d Date, args []obj, kwargs []python.Kwarg) (obj, error) {
		return python.NewStr(d.ISOFormat()), nil
	})
	method("__repr__", func(t *python.Thread, self obj, d Date, args []obj, kwargs []python.Kwarg) (obj, error) {
		return python.NewStr(withName(d.Repr(), "datetime.date", md.reprName(self, c))), nil
	})
	method("strftime", func(t *python.Thread, self obj, d Date, args []obj, kwargs []python.Kwarg) (obj, error) {
		f, err := formatArg(t, "strftime", args, kwargs)
		if err != nil {
			return nil, err
		}
		return strftimeResult(d.Strftime(f))
	})
	method("__format__", func(t *python.Thread, self obj, d Date, args []obj, kwargs []python.Kwarg) (obj, error) {
		f, err := formatArg(t, "__format__", args, kwargs)
		if err != nil {
			return nil, err
		}
		if f == "" {
			return python.NewStr(d.ISOFormat()), nil
		}
		return strftimeResult(d.Strftime(f))
	})
	method("replace", func(t *python.Thread, self obj, d Date, args []obj, kwargs []python.Kwarg) (obj, error) {
		a, err := cparse("replace", args, kwargs, []string{"year", "month", "day"}, 0, -1)
		if err != nil {
			return nil, err
		}
		y, err := intOr(t, a[0], d.Year)
		if err != nil {
			return nil, err
		}
		m, err := intOr(t, a[1], d.Month)
		if err != nil {
			return nil, err
		}
		dd, err := intOr(t, a[2], d.Day)
		if err != nil {
			return nil, err
		}
		v, err := NewDate(y, m, dd)
		if err != nil {
			return nil, kernelErr(err)
		}
		return md.newDate(t, self.Type(), v)
	})
	classMethod := func(name string, fn func(t *python.Thread, cls *python.Type, args []obj, kwargs []python.Kwarg) (obj, error)) {
		c.AddClassMethod(name, func(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
			return fn(t, classArg(args[0]), args[1:], kwargs)
		})
	}
	classMethod("today", func(t *python.Thread, cls *python.Type, args []obj, kwargs []python.Kwarg) (obj, error) {
		if err := noArgs("date.today", args, kwargs); err != nil {
			return nil, err
		}
		v, err := md.now(nil, "date.today()")
		if err != nil {
			return nil, err
		}
		return md.newDate(t, cls, v.Date())
	})
	classMethod("fromtimestamp", func(t *python.Thread, cls *python.Type, args []obj, kwargs []python.Kwarg) (obj, error) {
		if err := oneArg("date.fromtimestamp", args, kwargs); err != nil {
			return nil, err
		}
		ts, err := timestampArg(t, args[0])
		if err != nil {
			return nil, err
		}
		v, err := FromTimestamp(ts, nil)
		if err != nil {
			return nil, kernelErr(err)
		}
		return md.newDate(t, cls, v.Date())
	})
	classMethod("fromordinal", func(t *python.Thread, cls *python.Type, args []obj, kwargs []python.Kwarg) (obj, error) {
		a, err := cparse("fromordinal", args, kwargs, []string{"ordinal"}, 1, 1)
		if err != nil {
			return nil, err
		}
		n, err := cint(t, a[0])
		if err != nil {
			return nil, err
		}
		v, err := DateFromOrdinal(n)
		if err != nil {
			return nil, kernelErr(err)
		}
		return md.newDate(t, cls, v)
	})
	classMethod("fromisoformat", func(t *python.Thread, cls *python.Type, args []obj, kwargs []python.Kwarg) (obj, error) {
		s, err := isoArg(t, "date.fromisoformat", args, kwargs)
		if err != nil {
			return nil, err
		}
		v, err := DateFromISOFormat(s)
		if err != nil {
			return nil, kernelErr(err)
		}
		return md.newDate(t, cls, v)
	})
	classMethod("fromisocalendar", func(t *python.Thread, cls *python.Type, args []obj, kwargs []python.Kwarg) (obj, error) {
		a, err := cparse("fromisocalendar", args, kwargs, []string{"year", "week", "day"}, 3, -1)
		if err != nil {
			return nil, err
		}
		var x [3]int
		for i := range x {
			if x[i], err = cint(t, a[i]); err != nil {
				return nil, err
			}
		}
		v, err := DateFromISOCalendar(x[0], x[1], x[2])
		if err != nil {
			return nil, kernelErr(err)
		}
		return md.newDate(t, cls, v)
	})
}

// formatArg returns the format argument of strftime and __format__.
func formatArg(t *python.Thread, name string, args []obj, kwargs []python.Kwarg) (string, error) {
	var a []obj
	var err error
	if name == "__format__" {
		if err := oneArg("__format__", args, kwargs); err != nil {
			return "", err
		}
		a = args
	} else if a, err = cparse(name, args, kwargs, []string{"format"}, 1, -1); err != nil {
		return "", err
	}
	return strArg(t, name, 1, a[0])
}

func strftimeResult(s string, err error) (obj, error) {
	if err != nil {
		return nil, kernelErr(err)
	}
	return python.NewStr(s), nil
}

// isoArg returns the str argument of the fromisoformat methods.
func isoArg(t *python.Thread, name string, args []obj, kwargs []python.Kwarg) (string, error) {
	if err := oneArg(name, args, kwargs); err != nil {
		return "", err
	}
	if !python.IsStr(args[0]) {
		return "", python.Errorf(python.TypeErrorType, "fromisoformat: argument must be str")
	}
	return python.StrOf(t, python.Unwrap(args[0]))
}

// PyRepr is repr(d).
func (d *dateObj) PyRepr(t *python.Thread) (string, error) { return d.v.Repr(), nil }

// PyStr is str(d).
func (d *dateObj) PyStr(t *python.Thread) (string, error) { return d.v.ISOFormat(), nil }

// PyHash is hash(d).
func (d *dateObj) PyHash(t *python.Thread) (int64, error) {
	return python.Hash(t, python.NewTuple([]obj{python.MakeInt(int64(d.v.Ordinal()))}))
}

// PyFormat is format(d, spec): strftime, or str for the empty spec.
func (d *dateObj) PyFormat(t *python.Thread, spec string) (string, error) {
	if spec == "" {
		return d.v.ISOFormat(), nil
	}
	s, err := d.v.Strftime(spec)
	return s, kernelErr(err)
}

// PyCompare compares dates (a datetime is not a date here: CPython
// compares them as unrelated types).
func (d *dateObj) PyCompare(t *python.Thread, op python.CmpOp, other obj) (obj, error) {
	o, ok := python.Unwrap(other).(*dateObj)
	if !ok {
		return python.NotImplemented, nil
	}
	return cmpResult(op, d.v.Compare(o.v)), nil
}

// PyBinary is date arithmetic: date ± timedelta (its days) and date - date.
func (d *dateObj) PyBinary(t *python.Thread, op syntax.Operator, other obj, reflected bool) (obj, error) {
	md := d.md
	switch o := python.Unwrap(other).(type) {
	case *deltaObj:
		var v Date
		var err error
		switch {
		case op == syntax.Add:
			v, err = d.v.AddDays(o.v.Days)
		case op == syntax.Sub && !reflected:
			v, err = d.v.AddDays(-o.v.Days)
		default:
			return md.unsupported(op, d, other, reflected)
		}
		if err != nil {
			return nil, kernelErr(err)
		}
		return md.newDate(t, d.sub, v)
	case *dateObj:
		if op == syntax.Sub {
			a, b := d.v, o.v
			if reflected {
				a, b = b, a
			}
			return md.delta(a.Sub(b)), nil
		}
	}
	return md.unsupported(op, d, other, reflected)
}
