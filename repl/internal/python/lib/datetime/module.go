package datetime

import (
	"errors"
	"math/big"
	"strings"

	"github.com/rlm-go/rlm/repl/internal/python"
	"github.com/rlm-go/rlm/repl/internal/python/syntax"
)

// The module wrapper: code mode's datetime module over the kernel above.
//
// date, time, datetime, timedelta, tzinfo and timezone are types
// implemented in Go, one set per interpreter, with CPython's methods,
// attributes, operators, comparisons, hashing and messages. date, time,
// datetime and timedelta may be subclassed (arithmetic on instances of a
// date or datetime subclass gives instances of the subclass, as in
// CPython). Time zones are the fixed offsets of timezone: other tzinfo
// subclasses are refused, and there is no time zone database.
//
// There is no clock: now(), today() and utcnow() return the run's start
// time as the host gives it (Interp.Clock), the same at every call, and
// are refused when the host gives none. Local time is UTC. Pickling is
// refused; copy returns the (immutable) value itself. timetuple() returns
// the time module's struct_time when the interpreter has a time module,
// else a named tuple with its repr.

type obj = python.Object

// Register makes datetime importable.
func Register() {
	python.Setup()
	python.RegisterModule("datetime", load)
}

// module is the per-interpreter state: the types and their singletons.
type module struct {
	in           *python.Interp
	deltaType    *python.Type
	dateType     *python.Type
	timeType     *python.Type
	datetimeType *python.Type
	tzinfoType   *python.Type
	timezoneType *python.Type
	isoCalType   *python.Type
	structTime   *python.Type // the fallback struct_time, made on first use
	utc          *tzObj
}

func load(in *python.Interp) (*python.Module, error) {
	md := &module{in: in}
	iso, err := newTupleClass("IsoCalendarDate", "datetime", "datetime.IsoCalendarDate", []string{"year", "week", "weekday"})
	if err != nil {
		return nil, err
	}
	md.isoCalType = iso
	md.initDelta()
	md.initTZ()
	md.initDate()
	md.initTime()
	md.initDateTime()
	m := python.NewModule("datetime")
	m.Set("MINYEAR", python.MakeInt(MinYear))
	m.Set("MAXYEAR", python.MakeInt(MaxYear))
	m.Set("timedelta", md.deltaType)
	m.Set("date", md.dateType)
	m.Set("time", md.timeType)
	m.Set("datetime", md.datetimeType)
	m.Set("tzinfo", md.tzinfoType)
	m.Set("timezone", md.timezoneType)
	m.Set("UTC", md.utc)
	all := []obj{}
	for _, n := range []string{"date", "datetime", "time", "timedelta", "timezone", "tzinfo", "MINYEAR", "MAXYEAR", "UTC"} {
		all = append(all, python.NewStr(n))
	}
	m.Set("__all__", python.NewTuple(all))
	return m, nil
}

// kernelErr converts a kernel error into the Python exception it names.
func kernelErr(err error) error {
	var e *Error
	if !errors.As(err, &e) {
		return err
	}
	switch e.Type {
	case "OverflowError":
		return python.Errorf(python.OverflowErrorType, "%s", e.Msg)
	case "TypeError":
		return python.Errorf(python.TypeErrorType, "%s", e.Msg)
	case "ZeroDivisionError":
		return python.Errorf(python.ZeroDivisionErrorType, "%s", e.Msg)
	case "Unsupported":
		return python.NotSupported("this datetime operation ("+e.Msg+")", "")
	}
	return python.Errorf(python.ValueErrorType, "%s", e.Msg)
}

// cparse binds arguments as CPython's PyArg_ParseTupleAndKeywords does,
// with its messages: names are the parameters, the first required of them
// required, those from kwOnly on keyword-only (kwOnly < 0: none). An
// empty fname reads "function", as for the constructors.
func cparse(fname string, args []obj, kwargs []python.Kwarg, names []string, required, kwOnly int) ([]obj, error) {
	disp, paren := "function", ""
	if fname != "" {
		disp, paren = fname, "()"
	}
	n := len(names)
	nargs, nkw := len(args), len(kwargs)
	if nargs+nkw > n {
		kw, s := "", "s"
		if nargs == 0 {
			kw = "keyword "
		}
		if n == 1 {
			s = ""
		}
		return nil, python.Errorf(python.TypeErrorType, "%s%s takes at most %d %sargument%s (%d given)", disp, paren, n, kw, s, nargs+nkw)
	}
	maxPos := n
	if kwOnly >= 0 {
		maxPos = kwOnly
	}
	if nargs > maxPos {
		if maxPos == 0 {
			return nil, python.Errorf(python.TypeErrorType, "%s%s takes no positional arguments", disp, paren)
		}
		how := "at most"
		if required == maxPos {
			how = "exactly"
		}
		s := "s"
		if maxPos == 1 {
			s = ""
		}
		return nil, python.Errorf(python.TypeErrorType, "%s%s takes %s %d positional argument%s (%d given)", disp, paren, how, maxPos, s, nargs)
	}
	out := make([]obj, n)
	copy(out, args)
	used := 0
	for i := nargs; i < n; i++ {
		for _, kw := range kwargs {
			if kw.Name == names[i] {
				out[i] = kw.Value
				used++
				break
			}
		}
		if out[i] == nil && i < required {
			return nil, python.Errorf(python.TypeErrorType, "%s%s missing required argument '%s' (pos %d)", disp, paren, names[i], i+1)
		}
	}
	if used < nkw {
		for i := 0; i < nargs; i++ {
			for _, kw := range kwargs {
				if kw.Name == names[i] {
					return nil, python.Errorf(python.TypeErrorType, "argument for %s%s given by name ('%s') and position (%d)", disp, paren, names[i], i+1)
				}
			}
		}
		for _, kw := range kwargs {
			known := false
			for _, nm := range names {
				if nm == kw.Name {
					known = true
				}
			}
			if !known {
				where := disp + paren
				if fname == "" {
					where = "this function"
				}
				return nil, python.Errorf(python.TypeErrorType, "'%s' is an invalid keyword argument for %s", kw.Name, where)
			}
		}
	}
	return out, nil
}

// noArgs checks a method that takes no arguments.
func noArgs(name string, args []obj, kwargs []python.Kwarg) error {
	if len(kwargs) > 0 {
		return python.Errorf(python.TypeErrorType, "%s() takes no keyword arguments", name)
	}
	if len(args) > 0 {
		return python.Errorf(python.TypeErrorType, "%s() takes no arguments (%d given)", name, len(args))
	}
	return nil
}

// oneArg checks a method that takes exactly one positional argument.
func oneArg(name string, args []obj, kwargs []python.Kwarg) error {
	if len(kwargs) > 0 {
		return python.Errorf(python.TypeErrorType, "%s() takes no keyword arguments", name)
	}
	if len(args) != 1 {
		return python.Errorf(python.TypeErrorType, "%s() takes exactly one argument (%d given)", name, len(args))
	}
	return nil
}

// cint converts an argument as the "i" format does (a C int).
func cint(t *python.Thread, x obj) (int, error) {
	if _, ok := python.Unwrap(x).(python.Float); ok {
		return 0, python.Errorf(python.TypeErrorType, "'float' object cannot be interpreted as an integer")
	}
	n := python.ToBig(x)
	if n == nil {
		v, ok, err := python.IndexValue(t, x)
		if err != nil {
			return 0, err
		}
		if !ok {
			return 0, python.Errorf(python.TypeErrorType, "'%s' object cannot be interpreted as an integer", python.TypeName(x))
		}
		n = big.NewInt(v)
	}
	if !n.IsInt64() {
		return 0, python.Errorf(python.OverflowErrorType, "Python int too large to convert to C long")
	}
	v := n.Int64()
	if v > 1<<31-1 {
		return 0, python.Errorf(python.OverflowErrorType, "signed integer is greater than maximum")
	}
	if v < -1<<31 {
		return 0, python.Errorf(python.OverflowErrorType, "signed integer is less than minimum")
	}
	return int(v), nil
}

// intOr converts an optional "i" argument.
func intOr(t *python.Thread, x obj, def int) (int, error) {
	if x == nil {
		return def, nil
	}
	return cint(t, x)
}

// strArg converts a "U" argument (a str), with CPython's message.
func strArg(t *python.Thread, fname string, pos int, x obj) (string, error) {
	if !python.IsStr(x) {
		return "", python.Errorf(python.TypeErrorType, "%s() argument %d must be str, not %s", fname, pos, python.TypeName(x))
	}
	return python.StrOf(t, python.Unwrap(x))
}

// tzArg converts a tzinfo argument: None or a timezone. Other tzinfo
// subclasses are refused.
func (md *module) tzArg(x obj) (*tzObj, error) {
	if x == nil || x == python.None {
		return nil, nil
	}
	if z, ok := x.(*tzObj); ok {
		return z, nil
	}
	if x.Type().IsSubtype(md.tzinfoType) {
		return nil, python.NotSupported("tzinfo subclasses other than datetime.timezone", "use datetime.timezone(timedelta(hours=...)) for a fixed offset")
	}
	return nil, python.Errorf(python.TypeErrorType, "tzinfo argument must be None or of a tzinfo subclass, not type '%s'", python.TypeName(x))
}

// tzOf returns the kernel zone of a tzObj (nil for naive).
func tzOf(z *tzObj) *Timezone {
	if z == nil {
		return nil
	}
	return z.z
}

// wrapTZ returns the timezone object of a kernel zone (the module's
// timezone.utc for UTC).
func (md *module) wrapTZ(z *Timezone) *tzObj {
	if z == nil {
		return nil
	}
	if z == UTC {
		return md.utc
	}
	return &tzObj{md: md, z: z}
}

// tzOrNone returns the tzinfo attribute value.
func tzOrNone(z *tzObj) obj {
	if z == nil {
		return python.None
	}
	return z
}

// qualName is the name CPython's messages give a type: "datetime.date"
// for the module's own types.
func (md *module) qualName(x obj) string {
	switch x.Type() {
	case md.deltaType, md.dateType, md.timeType, md.datetimeType, md.tzinfoType, md.timezoneType:
		return "datetime." + x.Type().Name()
	}
	return python.TypeName(x)
}

var opSymbols = map[syntax.Operator]string{
	syntax.Add: "+", syntax.Sub: "-", syntax.Mult: "*", syntax.MatMult: "@", syntax.Div: "/",
	syntax.Mod: "%", syntax.Pow: "** or pow()", syntax.LShift: "<<", syntax.RShift: ">>",
	syntax.BitOr: "|", syntax.BitXor: "^", syntax.BitAnd: "&", syntax.FloorDiv: "//",
}

// unsupported is what a PyBinary returns for operands it does not handle:
// NotImplemented when the other operand may still handle the operation
// (a Go type with its own operators, a Python class), else CPython's
// TypeError, whose message names the types as CPython does.
func (md *module) unsupported(op syntax.Operator, self, other obj, reflected bool) (obj, error) {
	if _, ok := other.(python.BinaryOperand); ok && !reflected {
		return python.NotImplemented, nil
	}
	if !other.Type().IsBuiltin() {
		return python.NotImplemented, nil
	}
	a, b := self, other
	if reflected {
		a, b = other, self
	}
	if op == syntax.Add {
		switch python.Unwrap(a).(type) {
		case *python.Str, *python.List, *python.Tuple:
			n := python.TypeName(python.Unwrap(a))
			return nil, python.Errorf(python.TypeErrorType, "can only concatenate %s (not \"%s\") to %s", n, md.qualName(b), n)
		}
	}
	if op == syntax.Mult {
		for _, x := range []obj{a, b} {
			switch python.Unwrap(x).(type) {
			case *python.Str, *python.List, *python.Tuple, *python.Bytes, *python.ByteArray:
				y := a
				if x == a {
					y = b
				}
				return nil, python.Errorf(python.TypeErrorType, "can't multiply sequence by non-int of type '%s'", md.qualName(y))
			}
		}
	}
	return nil, python.Errorf(python.TypeErrorType, "unsupported operand type(s) for %s: '%s' and '%s'", opSymbols[op], md.qualName(a), md.qualName(b))
}

// cmpResult turns a three-way comparison into op's result.
func cmpResult(op python.CmpOp, c int) obj {
	switch op {
	case python.CmpLt:
		return python.MakeBool(c < 0)
	case python.CmpLe:
		return python.MakeBool(c <= 0)
	case python.CmpEq:
		return python.MakeBool(c == 0)
	case python.CmpNe:
		return python.MakeBool(c != 0)
	case python.CmpGt:
		return python.MakeBool(c > 0)
	}
	return python.MakeBool(c >= 0)
}

func isEqOp(op python.CmpOp) bool { return op == python.CmpEq || op == python.CmpNe }

// typeName is the name a repr shows: "datetime.date" for the module's
// type, the class name for a subclass.
func (md *module) reprName(x obj, base *python.Type) string {
	if c := x.Type(); c != base {
		return c.Name()
	}
	return "datetime." + base.Name()
}

// withName replaces the "datetime.xxx" prefix of a kernel repr.
func withName(repr, kernelName, name string) string {
	if name == kernelName {
		return repr
	}
	return name + strings.TrimPrefix(repr, kernelName)
}

// commonMethods adds the methods every datetime type has: pickling is
// refused, copying returns the value itself.
func commonMethods(c *python.Type) {
	refuse := func(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
		return nil, python.NotSupported("pickling datetime objects", "convert them with isoformat() and back with fromisoformat()")
	}
	c.AddMethod("__reduce__", refuse)
	c.AddMethod("__reduce_ex__", refuse)
	self := func(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) { return args[0], nil }
	c.AddMethod("__copy__", self)
	c.AddMethod("__deepcopy__", self)
}

// timestampArg converts a timestamp: a float, or an int (or __index__).
func timestampArg(t *python.Thread, x obj) (Number, error) {
	if f, ok := python.Unwrap(x).(python.Float); ok {
		return Float(float64(f)), nil
	}
	if n := python.ToBig(x); n != nil {
		return Number{I: n}, nil
	}
	v, ok, err := python.IndexValue(t, x)
	if err != nil {
		return Number{}, err
	}
	if !ok {
		return Number{}, python.Errorf(python.TypeErrorType, "'%s' object cannot be interpreted as an integer", python.TypeName(x))
	}
	return Int(v), nil
}

// now returns the run's start time as a naive UTC datetime, or in tz.
func (md *module) now(tz *Timezone, what string) (DateTime, error) {
	if md.in.Clock == nil {
		return DateTime{}, python.NotSupported(what+" without a clock", "this interpreter has no clock; use a fixed datetime")
	}
	ns := md.in.Clock()
	secs, rem := ns/1e9, ns%1e9
	if rem < 0 {
		secs--
		rem += 1e9
	}
	d, err := FromTimestamp(Int(secs), tz)
	if err != nil {
		return DateTime{}, kernelErr(err)
	}
	d.Microsecond = int(rem / 1000)
	return d, nil
}

// structTime returns time.struct_time(tt): the time module's type when
// the interpreter has one, else a named tuple of the same repr.
func (md *module) structTimeOf(t *python.Thread, tt TimeTuple) (obj, error) {
	items := []obj{python.MakeInt(int64(tt.Year)), python.MakeInt(int64(tt.Month)), python.MakeInt(int64(tt.Day)),
		python.MakeInt(int64(tt.Hour)), python.MakeInt(int64(tt.Minute)), python.MakeInt(int64(tt.Second)),
		python.MakeInt(int64(tt.Weekday)), python.MakeInt(int64(tt.Yearday)), python.MakeInt(int64(tt.IsDST))}
	if tm, err := md.in.Import(t, "time"); err == nil {
		if st, err := python.GetAttr(t, tm, "struct_time"); err == nil {
			return python.Call(t, st, []obj{python.NewTuple(items)}, nil)
		}
	} else if !python.IsInstance(err, python.ImportErrorType) && !python.IsInstance(err, python.NotImplementedErrorType) {
		// (time not registered: a program that links datetime alone)
		return nil, err
	}
	if md.structTime == nil {
		c, err := newTupleClass("struct_time", "time", "time.struct_time", []string{"tm_year", "tm_mon", "tm_mday", "tm_hour", "tm_min", "tm_sec", "tm_wday", "tm_yday", "tm_isdst"})
		if err != nil {
			return nil, err
		}
		for _, n := range []string{"tm_zone", "tm_gmtoff"} {
			c.AddGetSet(n, func(t *python.Thread, x obj) (obj, error) { return python.None, nil }, nil)
		}
		md.structTime = c
	}
	return newTuple(md.structTime, items...), nil
}
