package datetime

import (
	"unicode/utf8"

	"github.com/rlm-go/rlm/repl/internal/python"
	"github.com/rlm-go/rlm/repl/internal/python/syntax"
)

// dtObj is a datetime.datetime (or the Go part of an instance of a
// subclass, sub). v.TZ is tz's zone.
type dtObj struct {
	md  *module
	sub *python.Type
	v   DateTime
	tz  *tzObj
}

// Type returns datetime.
func (d *dtObj) Type() *python.Type { return d.md.datetimeType }

func dtOf(x obj) (*dtObj, bool) {
	d, ok := python.Unwrap(x).(*dtObj)
	return d, ok
}

// newDateTime makes a datetime of class cls (nil: datetime); other
// classes are called with the fields, as CPython's
// new_datetime_subclass_fold_ex does.
func (md *module) newDateTime(t *python.Thread, cls *python.Type, v DateTime, tz *tzObj) (obj, error) {
	v.TZ = tzOf(tz)
	if cls == nil || cls == md.datetimeType {
		return &dtObj{md: md, v: v, tz: tz}, nil
	}
	args := []obj{python.MakeInt(int64(v.Year)), python.MakeInt(int64(v.Month)), python.MakeInt(int64(v.Day)),
		python.MakeInt(int64(v.Hour)), python.MakeInt(int64(v.Minute)), python.MakeInt(int64(v.Second)),
		python.MakeInt(int64(v.Microsecond)), tzOrNone(tz)}
	var kw []python.Kwarg
	if v.Fold != 0 {
		kw = []python.Kwarg{{Name: "fold", Value: python.MakeInt(int64(v.Fold))}}
	}
	return python.Call(t, cls, args, kw)
}

var dtParams = []string{"year", "month", "day", "hour", "minute", "second", "microsecond", "tzinfo", "fold"}

func (md *module) initDateTime() {
	var c *python.Type
	c = python.NewBuiltinType("datetime", "datetime", md.dateType, func(t *python.Thread, cls *python.Type, args []obj, kwargs []python.Kwarg) (obj, error) {
		a, err := cparse("", args, kwargs, dtParams, 3, 8)
		if err != nil {
			return nil, err
		}
		var f [7]int
		for i := range f {
			def := 0
			if i < 3 {
				def = -1
			}
			if f[i], err = intOr(t, a[i], def); err != nil {
				return nil, err
			}
		}
		tz, err := md.tzArg(a[7])
		if err != nil {
			return nil, err
		}
		fold, err := intOr(t, a[8], 0)
		if err != nil {
			return nil, err
		}
		v, err := NewDateTime(f[0], f[1], f[2], f[3], f[4], f[5], f[6], tzOf(tz), fold)
		if err != nil {
			return nil, kernelErr(err)
		}
		d := &dtObj{md: md, v: v, tz: tz}
		if cls != c {
			d.sub = cls
			return python.NewInstance(cls, d), nil
		}
		return d, nil
	})
	md.datetimeType = c
	commonMethods(c)
	c.SetAttr("min", &dtObj{md: md, v: DateTimeMin})
	c.SetAttr("max", &dtObj{md: md, v: DateTimeMax})
	c.SetAttr("resolution", md.delta(DateTimeResolution))
	attr := func(name string, f func(d *dtObj) obj) {
		c.AddGetSet(name, func(t *python.Thread, x obj) (obj, error) {
			d, ok := dtOf(x)
			if !ok {
				return nil, python.Errorf(python.TypeErrorType, "descriptor '%s' for 'datetime.datetime' objects doesn't apply to a '%s' object", name, python.TypeName(x))
			}
			return f(d), nil
		}, nil)
	}
	attr("hour", func(d *dtObj) obj { return python.MakeInt(int64(d.v.Hour)) })
	attr("minute", func(d *dtObj) obj { return python.MakeInt(int64(d.v.Minute)) })
	attr("second", func(d *dtObj) obj { return python.MakeInt(int64(d.v.Second)) })
	attr("microsecond", func(d *dtObj) obj { return python.MakeInt(int64(d.v.Microsecond)) })
	attr("fold", func(d *dtObj) obj { return python.MakeInt(int64(d.v.Fold)) })
	attr("tzinfo", func(d *dtObj) obj { return tzOrNone(d.tz) })
	method := func(name string, fn func(t *python.Thread, self obj, d *dtObj, args []obj, kwargs []python.Kwarg) (obj, error)) {
		c.AddMethod(name, func(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
			d, ok := dtOf(args[0])
			if !ok {
				return nil, python.Errorf(python.TypeErrorType, "descriptor '%s' for 'datetime.datetime' objects doesn't apply to a '%s' object", name, python.TypeName(args[0]))
			}
			return fn(t, args[0], d, args[1:], kwargs)
		})
	}
	noArg := func(name string, fn func(t *python.Thread, self obj, d *dtObj) (obj, error)) {
		method(name, func(t *python.Thread, self obj, d *dtObj, args []obj, kwargs []python.Kwarg) (obj, error) {
			if err := noArgs("datetime."+name, args, kwargs); err != nil {
				return nil, err
			}
			return fn(t, self, d)
		})
	}
	noArg("date", func(t *python.Thread, self obj, d *dtObj) (obj, error) { return &dateObj{md: md, v: d.v.Date()}, nil })
	noArg("time", func(t *python.Thread, self obj, d *dtObj) (obj, error) {
		return &timeObj{md: md, v: d.v.Time()}, nil
	})
	noArg("timetz", func(t *python.Thread, self obj, d *dtObj) (obj, error) {
		return &timeObj{md: md, v: d.v.TimeTZ(), tz: d.tz}, nil
	})
	noArg("utcoffset", func(t *python.Thread, self obj, d *dtObj) (obj, error) {
		if off, ok := d.v.UTCOffset(); ok {
			return md.delta(off), nil
		}
		return python.None, nil
	})
	noArg("dst", func(t *python.Thread, self obj, d *dtObj) (obj, error) { return python.None, nil })
	noArg("tzname", func(t *python.Thread, self obj, d *dtObj) (obj, error) {
		if n, ok := d.v.TZName(); ok {
			return python.NewStr(n), nil
		}
		return python.None, nil
	})
	noArg("timetuple", func(t *python.Thread, self obj, d *dtObj) (obj, error) { return md.structTimeOf(t, d.v.TimeTuple()) })
	noArg("utctimetuple", func(t *python.Thread, self obj, d *dtObj) (obj, error) {
		tt, err := d.v.UTCTimeTuple()
		if err != nil {
			return nil, kernelErr(err)
		}
		return md.structTimeOf(t, tt)
	})
	noArg("timestamp", func(t *python.Thread, self obj, d *dtObj) (obj, error) {
		f, err := d.v.Timestamp()
		if err != nil {
			return nil, kernelErr(err)
		}
		return python.Float(f), nil
	})
	noArg("ctime", func(t *python.Thread, self obj, d *dtObj) (obj, error) { return python.NewStr(d.v.CTime()), nil })
	method("__str__", func(t *python.Thread, self obj, d *dtObj, args []obj, kwargs []python.Kwarg) (obj, error) {
		return python.NewStr(d.v.String()), nil
	})
	method("__repr__", func(t *python.Thread, self obj, d *dtObj, args []obj, kwargs []python.Kwarg) (obj, error) {
		return python.NewStr(withName(d.v.Repr(), "datetime.datetime", md.reprName(self, c))), nil
	})
	method("isoformat", func(t *python.Thread, self obj, d *dtObj, args []obj, kwargs []python.Kwarg) (obj, error) {
		a, err := cparse("isoformat", args, kwargs, []string{"sep", "timespec"}, 0, -1)
		if err != nil {
			return nil, err
		}
		sep := 'T'
		if a[0] != nil {
			s, isStr := "", python.IsStr(a[0])
			if isStr {
				if s, err = python.StrOf(t, python.Unwrap(a[0])); err != nil {
					return nil, err
				}
			}
			if !isStr || utf8.RuneCountInString(s) != 1 {
				what := python.TypeName(a[0])
				if isStr {
					what = "str"
				}
				return nil, python.Errorf(python.TypeErrorType, "isoformat() argument 1 must be a unicode character, not %s", what)
			}
			sep, _ = utf8.DecodeRuneInString(s)
		}
		spec := "auto"
		if a[1] != nil {
			if spec, err = strArg(t, "isoformat", 2, a[1]); err != nil {
				return nil, err
			}
		}
		s, err := d.v.ISOFormat(sep, spec)
		if err != nil {
			return nil, kernelErr(err)
		}
		return python.NewStr(s), nil
	})
	method("strftime", func(t *python.Thread, self obj, d *dtObj, args []obj, kwargs []python.Kwarg) (obj, error) {
		f, err := formatArg(t, "strftime", args, kwargs)
		if err != nil {
			return nil, err
		}
		return strftimeResult(d.v.Strftime(f))
	})
	method("__format__", func(t *python.Thread, self obj, d *dtObj, args []obj, kwargs []python.Kwarg) (obj, error) {
		f, err := formatArg(t, "__format__", args, kwargs)
		if err != nil {
			return nil, err
		}
		if f == "" {
			return python.NewStr(d.v.String()), nil
		}
		return strftimeResult(d.v.Strftime(f))
	})
	method("replace", func(t *python.Thread, self obj, d *dtObj, args []obj, kwargs []python.Kwarg) (obj, error) {
		a, err := cparse("replace", args, kwargs, dtParams, 0, 8)
		if err != nil {
			return nil, err
		}
		cur := []int{d.v.Year, d.v.Month, d.v.Day, d.v.Hour, d.v.Minute, d.v.Second, d.v.Microsecond}
		var f [7]int
		for i := range f {
			if f[i], err = intOr(t, a[i], cur[i]); err != nil {
				return nil, err
			}
		}
		tz := d.tz
		if a[7] != nil {
			if tz, err = md.tzArg(a[7]); err != nil {
				return nil, err
			}
		}
		fold, err := intOr(t, a[8], d.v.Fold)
		if err != nil {
			return nil, err
		}
		v, err := NewDateTime(f[0], f[1], f[2], f[3], f[4], f[5], f[6], tzOf(tz), fold)
		if err != nil {
			return nil, kernelErr(err)
		}
		return md.newDateTime(t, self.Type(), v, tz)
	})
	method("astimezone", func(t *python.Thread, self obj, d *dtObj, args []obj, kwargs []python.Kwarg) (obj, error) {
		a, err := cparse("astimezone", args, kwargs, []string{"tz"}, 0, -1)
		if err != nil {
			return nil, err
		}
		tz, err := md.tzArg(a[0])
		if err != nil {
			return nil, err
		}
		if tz != nil && tz == d.tz {
			return self, nil
		}
		v, err := d.v.AsTimezone(tzOf(tz))
		if err != nil {
			return nil, kernelErr(err)
		}
		return md.newDateTime(t, self.Type(), v, md.wrapTZ(v.TZ))
	})
	classMethod := func(name string, fn func(t *python.Thread, cls *python.Type, args []obj, kwargs []python.Kwarg) (obj, error)) {
		c.AddClassMethod(name, func(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
			return fn(t, classArg(args[0]), args[1:], kwargs)
		})
	}
	classMethod("now", func(t *python.Thread, cls *python.Type, args []obj, kwargs []python.Kwarg) (obj, error) {
		a, err := cparse("now", args, kwargs, []string{"tz"}, 0, -1)
		if err != nil {
			return nil, err
		}
		tz, err := md.tzArg(a[0])
		if err != nil {
			return nil, err
		}
		v, err := md.now(tzOf(tz), "datetime.now()")
		if err != nil {
			return nil, err
		}
		return md.newDateTime(t, cls, v, tz)
	})
	classMethod("today", func(t *python.Thread, cls *python.Type, args []obj, kwargs []python.Kwarg) (obj, error) {
		if err := noArgs("datetime.today", args, kwargs); err != nil {
			return nil, err
		}
		v, err := md.now(nil, "datetime.today()")
		if err != nil {
			return nil, err
		}
		return md.newDateTime(t, cls, v, nil)
	})
	classMethod("utcnow", func(t *python.Thread, cls *python.Type, args []obj, kwargs []python.Kwarg) (obj, error) {
		if err := noArgs("datetime.utcnow", args, kwargs); err != nil {
			return nil, err
		}
		v, err := md.now(nil, "datetime.utcnow()")
		if err != nil {
			return nil, err
		}
		return md.newDateTime(t, cls, v, nil)
	})
	classMethod("fromtimestamp", func(t *python.Thread, cls *python.Type, args []obj, kwargs []python.Kwarg) (obj, error) {
		a, err := cparse("fromtimestamp", args, kwargs, []string{"timestamp", "tz"}, 1, -1)
		if err != nil {
			return nil, err
		}
		ts, err := timestampArg(t, a[0])
		if err != nil {
			return nil, err
		}
		tz, err := md.tzArg(a[1])
		if err != nil {
			return nil, err
		}
		v, err := FromTimestamp(ts, tzOf(tz))
		if err != nil {
			return nil, kernelErr(err)
		}
		return md.newDateTime(t, cls, v, tz)
	})
	classMethod("utcfromtimestamp", func(t *python.Thread, cls *python.Type, args []obj, kwargs []python.Kwarg) (obj, error) {
		a, err := cparse("utcfromtimestamp", args, kwargs, []string{"timestamp"}, 1, -1)
		if err != nil {
			return nil, err
		}
		ts, err := timestampArg(t, a[0])
		if err != nil {
			return nil, err
		}
		v, err := UTCFromTimestamp(ts)
		if err != nil {
			return nil, kernelErr(err)
		}
		return md.newDateTime(t, cls, v, nil)
	})
	classMethod("strptime", func(t *python.Thread, cls *python.Type, args []obj, kwargs []python.Kwarg) (obj, error) {
		a, err := cparse("strptime", args, kwargs, []string{"date_string", "format"}, 2, -1)
		if err != nil {
			return nil, err
		}
		s, err := strArg(t, "strptime", 1, a[0])
		if err != nil {
			return nil, err
		}
		f, err := strArg(t, "strptime", 2, a[1])
		if err != nil {
			return nil, err
		}
		if err := t.CheckSize(int64(len(s)+len(f)) * 16); err != nil {
			return nil, err
		}
		v, err := Strptime(s, f)
		if err != nil {
			return nil, kernelErr(err)
		}
		return md.newDateTime(t, cls, v, md.wrapTZ(v.TZ))
	})
	classMethod("combine", func(t *python.Thread, cls *python.Type, args []obj, kwargs []python.Kwarg) (obj, error) {
		a, err := cparse("combine", args, kwargs, []string{"date", "time", "tzinfo"}, 2, -1)
		if err != nil {
			return nil, err
		}
		d, ok := dateOf(a[0])
		if !ok {
			return nil, python.Errorf(python.TypeErrorType, "combine() argument 1 must be datetime.date, not %s", python.TypeName(a[0]))
		}
		tm, ok := python.Unwrap(a[1]).(*timeObj)
		if !ok {
			return nil, python.Errorf(python.TypeErrorType, "combine() argument 2 must be datetime.time, not %s", python.TypeName(a[1]))
		}
		tz := tm.tz
		if a[2] != nil {
			if tz, err = md.tzArg(a[2]); err != nil {
				return nil, err
			}
		}
		v := Combine(d, tm.v, tzOf(tz), true)
		return md.newDateTime(t, cls, v, tz)
	})
	classMethod("fromisoformat", func(t *python.Thread, cls *python.Type, args []obj, kwargs []python.Kwarg) (obj, error) {
		s, err := isoArg(t, "datetime.fromisoformat", args, kwargs)
		if err != nil {
			return nil, err
		}
		v, err := DateTimeFromISOFormat(s)
		if err != nil {
			return nil, kernelErr(err)
		}
		return md.newDateTime(t, cls, v, md.wrapTZ(v.TZ))
	})
}

// PyRepr is repr(d).
func (d *dtObj) PyRepr(t *python.Thread) (string, error) { return d.v.Repr(), nil }

// PyStr is str(d).
func (d *dtObj) PyStr(t *python.Thread) (string, error) { return d.v.String(), nil }

// PyHash is hash(d): equal datetimes (the same instant, for aware ones)
// hash alike.
func (d *dtObj) PyHash(t *python.Thread) (int64, error) {
	aware := int64(0)
	if d.v.TZ != nil {
		aware = 1
	}
	return python.Hash(t, python.NewTuple([]obj{python.MakeInt(d.v.HashKey()), python.MakeInt(aware)}))
}

// PyFormat is format(d, spec): strftime, or str for the empty spec.
func (d *dtObj) PyFormat(t *python.Thread, spec string) (string, error) {
	if spec == "" {
		return d.v.String(), nil
	}
	s, err := d.v.Strftime(spec)
	return s, kernelErr(err)
}

// PyCompare compares datetimes; a datetime and a date are unequal and
// unordered.
func (d *dtObj) PyCompare(t *python.Thread, op python.CmpOp, other obj) (obj, error) {
	switch o := python.Unwrap(other).(type) {
	case *dtObj:
		if isEqOp(op) {
			return python.MakeBool(d.v.Equal(o.v) == (op == python.CmpEq)), nil
		}
		c, err := d.v.Compare(o.v)
		if err != nil {
			return nil, kernelErr(err)
		}
		return cmpResult(op, c), nil
	case *dateObj:
		if isEqOp(op) {
			return python.MakeBool(op == python.CmpNe), nil
		}
		return nil, python.Errorf(python.TypeErrorType, "can't compare datetime.datetime to datetime.date")
	}
	return python.NotImplemented, nil
}

// PyBinary is datetime arithmetic: datetime ± timedelta and datetime -
// datetime.
func (d *dtObj) PyBinary(t *python.Thread, op syntax.Operator, other obj, reflected bool) (obj, error) {
	md := d.md
	switch o := python.Unwrap(other).(type) {
	case *deltaObj:
		var v DateTime
		var err error
		switch {
		case op == syntax.Add:
			v, err = d.v.Add(o.v)
		case op == syntax.Sub && !reflected:
			v, err = d.v.SubDelta(o.v)
		default:
			return md.unsupported(op, d, other, reflected)
		}
		if err != nil {
			return nil, kernelErr(err)
		}
		return md.newDateTime(t, d.sub, v, d.tz)
	case *dtObj:
		if op == syntax.Sub {
			a, b := d, o
			if reflected {
				a, b = b, a
			}
			v, err := a.v.Sub(b.v, a.tz == b.tz)
			if err != nil {
				return nil, kernelErr(err)
			}
			return md.delta(v), nil
		}
	}
	return md.unsupported(op, d, other, reflected)
}

// ---- time

// timeObj is a datetime.time (or the Go part of an instance of a
// subclass, sub). v.TZ is tz's zone.
type timeObj struct {
	md  *module
	sub *python.Type
	v   Time
	tz  *tzObj
}

// Type returns time.
func (tm *timeObj) Type() *python.Type { return tm.md.timeType }

func timeOf(x obj) (*timeObj, bool) {
	v, ok := python.Unwrap(x).(*timeObj)
	return v, ok
}

// newTime makes a time of class cls (nil: time).
func (md *module) newTime(t *python.Thread, cls *python.Type, v Time, tz *tzObj) (obj, error) {
	v.TZ = tzOf(tz)
	if cls == nil || cls == md.timeType {
		return &timeObj{md: md, v: v, tz: tz}, nil
	}
	args := []obj{python.MakeInt(int64(v.Hour)), python.MakeInt(int64(v.Minute)), python.MakeInt(int64(v.Second)),
		python.MakeInt(int64(v.Microsecond)), tzOrNone(tz)}
	var kw []python.Kwarg
	if v.Fold != 0 {
		kw = []python.Kwarg{{Name: "fold", Value: python.MakeInt(int64(v.Fold))}}
	}
	return python.Call(t, cls, args, kw)
}

var timeParams = []string{"hour", "minute", "second", "microsecond", "tzinfo", "fold"}

func (md *module) initTime() {
	var c *python.Type
	c = python.NewBuiltinType("time", "datetime", nil, func(t *python.Thread, cls *python.Type, args []obj, kwargs []python.Kwarg) (obj, error) {
		a, err := cparse("", args, kwargs, timeParams, 0, 5)
		if err != nil {
			return nil, err
		}
		var f [4]int
		for i := range f {
			if f[i], err = intOr(t, a[i], 0); err != nil {
				return nil, err
			}
		}
		tz, err := md.tzArg(a[4])
		if err != nil {
			return nil, err
		}
		fold, err := intOr(t, a[5], 0)
		if err != nil {
			return nil, err
		}
		v, err := NewTime(f[0], f[1], f[2], f[3], tzOf(tz), fold)
		if err != nil {
			return nil, kernelErr(err)
		}
		tm := &timeObj{md: md, v: v, tz: tz}
		if cls != c {
			tm.sub = cls
			return python.NewInstance(cls, tm), nil
		}
		return tm, nil
	})
	md.timeType = c
	commonMethods(c)
	c.SetAttr("min", &timeObj{md: md, v: TimeMin})
	c.SetAttr("max", &timeObj{md: md, v: TimeMax})
	c.SetAttr("resolution", md.delta(TimeResolution))
	attr := func(name string, f func(tm *timeObj) obj) {
		c.AddGetSet(name, func(t *python.Thread, x obj) (obj, error) {
			tm, ok := timeOf(x)
			if !ok {
				return nil, python.Errorf(python.TypeErrorType, "descriptor '%s' for 'datetime.time' objects doesn't apply to a '%s' object", name, python.TypeName(x))
			}
			return f(tm), nil
		}, nil)
	}
	attr("hour", func(tm *timeObj) obj { return python.MakeInt(int64(tm.v.Hour)) })
	attr("minute", func(tm *timeObj) obj { return python.MakeInt(int64(tm.v.Minute)) })
	attr("second", func(tm *timeObj) obj { return python.MakeInt(int64(tm.v.Second)) })
	attr("microsecond", func(tm *timeObj) obj { return python.MakeInt(int64(tm.v.Microsecond)) })
	attr("fold", func(tm *timeObj) obj { return python.MakeInt(int64(tm.v.Fold)) })
	attr("tzinfo", func(tm *timeObj) obj { return tzOrNone(tm.tz) })
	method := func(name string, fn func(t *python.Thread, self obj, tm *timeObj, args []obj, kwargs []python.Kwarg) (obj, error)) {
		c.AddMethod(name, func(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
			tm, ok := timeOf(args[0])
			if !ok {
				return nil, python.Errorf(python.TypeErrorType, "descriptor '%s' for 'datetime.time' objects doesn't apply to a '%s' object", name, python.TypeName(args[0]))
			}
			return fn(t, args[0], tm, args[1:], kwargs)
		})
	}
	noArg := func(name string, fn func(tm *timeObj) obj) {
		method(name, func(t *python.Thread, self obj, tm *timeObj, args []obj, kwargs []python.Kwarg) (obj, error) {
			if err := noArgs("time."+name, args, kwargs); err != nil {
				return nil, err
			}
			return fn(tm), nil
		})
	}
	noArg("utcoffset", func(tm *timeObj) obj {
		if off, ok := tm.v.UTCOffset(); ok {
			return md.delta(off)
		}
		return python.None
	})
	noArg("dst", func(tm *timeObj) obj { return python.None })
	noArg("tzname", func(tm *timeObj) obj {
		if n, ok := tm.v.TZName(); ok {
			return python.NewStr(n)
		}
		return python.None
	})
	method("__str__", func(t *python.Thread, self obj, tm *timeObj, args []obj, kwargs []python.Kwarg) (obj, error) {
		return python.NewStr(tm.v.String()), nil
	})
	method("__repr__", func(t *python.Thread, self obj, tm *timeObj, args []obj, kwargs []python.Kwarg) (obj, error) {
		return python.NewStr(withName(tm.v.Repr(), "datetime.time", md.reprName(self, c))), nil
	})
	method("isoformat", func(t *python.Thread, self obj, tm *timeObj, args []obj, kwargs []python.Kwarg) (obj, error) {
		a, err := cparse("isoformat", args, kwargs, []string{"timespec"}, 0, -1)
		if err != nil {
			return nil, err
		}
		spec := "auto"
		if a[0] != nil {
			if spec, err = strArg(t, "isoformat", 1, a[0]); err != nil {
				return nil, err
			}
		}
		s, err := tm.v.ISOFormat(spec)
		if err != nil {
			return nil, kernelErr(err)
		}
		return python.NewStr(s), nil
	})
	method("strftime", func(t *python.Thread, self obj, tm *timeObj, args []obj, kwargs []python.Kwarg) (obj, error) {
		f, err := formatArg(t, "strftime", args, kwargs)
		if err != nil {
			return nil, err
		}
		return strftimeResult(tm.v.Strftime(f))
	})
	method("__format__", func(t *python.Thread, self obj, tm *timeObj, args []obj, kwargs []python.Kwarg) (obj, error) {
		f, err := formatArg(t, "__format__", args, kwargs)
		if err != nil {
			return nil, err
		}
		if f == "" {
			return python.NewStr(tm.v.String()), nil
		}
		return strftimeResult(tm.v.Strftime(f))
	})
	method("replace", func(t *python.Thread, self obj, tm *timeObj, args []obj, kwargs []python.Kwarg) (obj, error) {
		a, err := cparse("replace", args, kwargs, timeParams, 0, 5)
		if err != nil {
			return nil, err
		}
		cur := []int{tm.v.Hour, tm.v.Minute, tm.v.Second, tm.v.Microsecond}
		var f [4]int
		for i := range f {
			if f[i], err = intOr(t, a[i], cur[i]); err != nil {
				return nil, err
			}
		}
		tz := tm.tz
		if a[4] != nil {
			if tz, err = md.tzArg(a[4]); err != nil {
				return nil, err
			}
		}
		fold, err := intOr(t, a[5], tm.v.Fold)
		if err != nil {
			return nil, err
		}
		v, err := NewTime(f[0], f[1], f[2], f[3], tzOf(tz), fold)
		if err != nil {
			return nil, kernelErr(err)
		}
		return md.newTime(t, self.Type(), v, tz)
	})
	c.AddClassMethod("fromisoformat", func(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
		s, err := isoArg(t, "time.fromisoformat", args[1:], kwargs)
		if err != nil {
			return nil, err
		}
		v, err := TimeFromISOFormat(s)
		if err != nil {
			return nil, kernelErr(err)
		}
		return md.newTime(t, classArg(args[0]), v, md.wrapTZ(v.TZ))
	})
}

// PyRepr is repr(tm).
func (tm *timeObj) PyRepr(t *python.Thread) (string, error) { return tm.v.Repr(), nil }

// PyStr is str(tm).
func (tm *timeObj) PyStr(t *python.Thread) (string, error) { return tm.v.String(), nil }

// PyHash is hash(tm).
func (tm *timeObj) PyHash(t *python.Thread) (int64, error) {
	aware := int64(0)
	if tm.v.TZ != nil {
		aware = 1
	}
	return python.Hash(t, python.NewTuple([]obj{python.MakeInt(tm.v.HashKey()), python.MakeInt(aware)}))
}

// PyFormat is format(tm, spec): strftime, or str for the empty spec.
func (tm *timeObj) PyFormat(t *python.Thread, spec string) (string, error) {
	if spec == "" {
		return tm.v.String(), nil
	}
	s, err := tm.v.Strftime(spec)
	return s, kernelErr(err)
}

// PyCompare compares times: naive and aware times are unequal and
// unordered.
func (tm *timeObj) PyCompare(t *python.Thread, op python.CmpOp, other obj) (obj, error) {
	o, ok := timeOf(other)
	if !ok {
		return python.NotImplemented, nil
	}
	if isEqOp(op) {
		return python.MakeBool(tm.v.Equal(o.v) == (op == python.CmpEq)), nil
	}
	c, err := tm.v.Compare(o.v)
	if err != nil {
		return nil, kernelErr(err)
	}
	return cmpResult(op, c), nil
}
