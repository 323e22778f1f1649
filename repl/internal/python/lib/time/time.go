// Package time is code mode's time module. Code mode has no clock: time()
// and time_ns() return the run's start time, which the host fixes
// (Interp.Clock), the same value at every call; monotonic(),
// perf_counter(), process_time() and thread_time() (and their _ns forms)
// return 0, so that durations measured with them are 0; sleep() checks its
// argument and returns at once. The calendar functions (gmtime,
// localtime, mktime, strftime, asctime, ctime, struct_time) work on given
// times in UTC, the local time zone of code mode. strptime and the clock
// control functions are refused.
package time

import (
	"math"
	"strings"
	gotime "time"

	"github.com/rlm-go/rlm/repl/internal/python"
	"github.com/rlm-go/rlm/repl/internal/python/lib/sys"
)

// Register makes time importable.
func Register() {
	python.Setup()
	python.RegisterModule("time", load)
}

var fields = []string{"tm_year", "tm_mon", "tm_mday", "tm_hour", "tm_min", "tm_sec", "tm_wday", "tm_yday", "tm_isdst", "tm_zone", "tm_gmtoff"}

func load(in *python.Interp) (*python.Module, error) {
	// struct_time, per interpreter (a program may change the class).
	structTime := sys.NewStructSeqType("struct_time", "time", fields, 9)
	m := python.NewModule("time")
	m.Set("struct_time", structTime)
	m.Set("timezone", python.MakeInt(0))
	m.Set("altzone", python.MakeInt(0))
	m.Set("daylight", python.MakeInt(0))
	m.Set("tzname", python.NewTuple([]python.Object{python.NewStr("UTC"), python.NewStr("UTC")}))
	m.Func("time", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		if err := noArgs("time", args, kwargs); err != nil {
			return nil, err
		}
		ns, err := clock(t)
		if err != nil {
			return nil, err
		}
		return python.Float(float64(ns) / 1e9), nil
	})
	m.Func("time_ns", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		if err := noArgs("time_ns", args, kwargs); err != nil {
			return nil, err
		}
		ns, err := clock(t)
		if err != nil {
			return nil, err
		}
		return python.MakeInt(ns), nil
	})
	for _, n := range []string{"monotonic", "perf_counter", "process_time", "thread_time"} {
		n := n
		m.Func(n, func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
			return python.Float(0), noArgs(n, args, kwargs)
		})
		m.Func(n+"_ns", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
			return python.MakeInt(0), noArgs(n+"_ns", args, kwargs)
		})
	}
	m.Func("sleep", sleep)
	m.Func("gmtime", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		return convert(t, structTime, "gmtime", args, kwargs, "GMT")
	})
	m.Func("localtime", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		return convert(t, structTime, "localtime", args, kwargs, "UTC")
	})
	m.Func("mktime", mktime)
	m.Func("strftime", strftime)
	m.Func("asctime", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		if err := rangeArgs("asctime", args, kwargs, 0, 1); err != nil {
			return nil, err
		}
		tm, err := tmArg(t, "asctime", args)
		if err != nil {
			return nil, err
		}
		return python.NewStr(asctime(tm)), nil
	})
	m.Func("ctime", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		if err := rangeArgs("ctime", args, kwargs, 0, 1); err != nil {
			return nil, err
		}
		secs, err := secsArg(t, args)
		if err != nil {
			return nil, err
		}
		tm, err := breakDown(secs, "UTC")
		if err != nil {
			return nil, err
		}
		return python.NewStr(asctime(tm)), nil
	})
	for n, hint := range refused {
		n, hint := n, hint
		m.Func(n, func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
			return nil, python.NotSupported("time."+n+"()", hint)
		})
	}
	return m, nil
}

var refused = map[string]string{
	"strptime":         "use datetime.datetime.strptime(s, fmt).timetuple()",
	"get_clock_info":   "code mode has no clock; time() is the run's start time",
	"clock_gettime":    "code mode has no clock; time() is the run's start time",
	"clock_gettime_ns": "code mode has no clock; time_ns() is the run's start time",
	"clock_settime":    "code mode has no clock",
	"clock_settime_ns": "code mode has no clock",
	"clock_getres":     "code mode has no clock",
	"tzset":            "code mode's time zone is UTC",
}

func noArgs(name string, args []python.Object, kwargs []python.Kwarg) error {
	if len(args)+len(kwargs) > 0 {
		return python.Errorf(python.TypeErrorType, "time.%s() takes no arguments (%d given)", name, len(args)+len(kwargs))
	}
	return nil
}

func rangeArgs(name string, args []python.Object, kwargs []python.Kwarg, lo, hi int) error {
	if len(kwargs) > 0 {
		return python.Errorf(python.TypeErrorType, "time.%s() takes no keyword arguments", name)
	}
	if len(args) < lo {
		return python.Errorf(python.TypeErrorType, "%s expected at least %d argument%s, got %d", name, lo, plural(lo), len(args))
	}
	if len(args) > hi {
		return python.Errorf(python.TypeErrorType, "%s expected at most %d argument%s, got %d", name, hi, plural(hi), len(args))
	}
	return nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// clock returns the run's start time in Unix nanoseconds.
func clock(t *python.Thread) (int64, error) {
	c := t.Interp().Clock
	if c == nil {
		return 0, python.NotSupported("reading the clock", "code mode has no clock and this run has no start time")
	}
	return c(), nil
}

func sleep(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	if len(kwargs) > 0 {
		return nil, python.Errorf(python.TypeErrorType, "time.sleep() takes no keyword arguments")
	}
	if len(args) != 1 {
		return nil, python.Errorf(python.TypeErrorType, "time.sleep() takes exactly one argument (%d given)", len(args))
	}
	f, ok, err := python.FloatValue(args[0])
	if err != nil {
		return nil, python.Errorf(python.OverflowErrorType, "timestamp too large to convert to C _PyTime_t")
	}
	if !ok {
		return nil, python.Errorf(python.TypeErrorType, "'%s' object cannot be interpreted as an integer", python.TypeName(args[0]))
	}
	if math.IsNaN(f) {
		return nil, python.Errorf(python.ValueErrorType, "Invalid value NaN (not a number)")
	}
	if f < 0 {
		return nil, python.Errorf(python.ValueErrorType, "sleep length must be non-negative")
	}
	return python.None, t.Tick(1)
}

// tm is a broken-down time.
type tm struct {
	year                                  int64
	mon, mday, hour, min, sec, wday, yday int // mon 1-12, wday Monday 0, yday 1-366
	isdst                                 int
	zone                                  string
	hasZone                               bool
	gmtoff                                int64
}

// secsArg is the optional seconds argument of gmtime, localtime, ctime:
// None or missing is the clock; a number is floored.
func secsArg(t *python.Thread, args []python.Object) (int64, error) {
	if len(args) == 0 || args[0] == python.None {
		ns, err := clock(t)
		if err != nil {
			return 0, err
		}
		return floorDiv(ns, 1e9), nil
	}
	x := args[0]
	if iv, ok := python.IntValue(x); ok {
		n, fits := python.AsInt64(iv)
		if !fits {
			return 0, python.Errorf(python.OverflowErrorType, "timestamp out of range for platform time_t")
		}
		return n, nil
	}
	f, ok, err := python.FloatValue(x)
	if err != nil || !ok {
		return 0, python.Errorf(python.TypeErrorType, "'%s' object cannot be interpreted as an integer", python.TypeName(x))
	}
	if math.IsNaN(f) {
		return 0, python.Errorf(python.ValueErrorType, "Invalid value NaN (not a number)")
	}
	f = math.Floor(f)
	if f >= 9.2e18 || f <= -9.2e18 {
		return 0, python.Errorf(python.OverflowErrorType, "timestamp out of range for platform time_t")
	}
	return int64(f), nil
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// breakDown is gmtime of secs.
func breakDown(secs int64, zone string) (tm, error) {
	// glibc's limit: the year must fit in an int.
	const maxSecs = 67767976233532799
	if secs > maxSecs || secs < -67768040609740800 {
		return tm{}, python.Errorf(python.OverflowErrorType, "timestamp out of range for platform time_t")
	}
	u := gotime.Unix(secs, 0).UTC()
	wd := (int(u.Weekday()) + 6) % 7
	return tm{year: int64(u.Year()), mon: int(u.Month()), mday: u.Day(), hour: u.Hour(), min: u.Minute(), sec: u.Second(),
		wday: wd, yday: u.YearDay(), zone: zone, hasZone: true}, nil
}

func (x tm) object(structTime *python.Type) python.Object {
	return sys.NewStructSeq(structTime, []python.Object{
		python.MakeInt(x.year), python.MakeInt(int64(x.mon)), python.MakeInt(int64(x.mday)),
		python.MakeInt(int64(x.hour)), python.MakeInt(int64(x.min)), python.MakeInt(int64(x.sec)),
		python.MakeInt(int64(x.wday)), python.MakeInt(int64(x.yday)), python.MakeInt(int64(x.isdst)),
		python.NewStr(x.zone), python.MakeInt(x.gmtoff),
	})
}

func convert(t *python.Thread, structTime *python.Type, name string, args []python.Object, kwargs []python.Kwarg, zone string) (python.Object, error) {
	if err := rangeArgs(name, args, kwargs, 0, 1); err != nil {
		return nil, err
	}
	secs, err := secsArg(t, args)
	if err != nil {
		return nil, err
	}
	x, err := breakDown(secs, zone)
	if err != nil {
		return nil, err
	}
	return x.object(structTime), nil
}

// tmArg is the optional time tuple of strftime and asctime: the local
// time (UTC) now when missing.
func tmArg(t *python.Thread, fn string, args []python.Object) (tm, error) {
	if len(args) == 0 {
		secs, err := secsArg(t, nil)
		if err != nil {
			return tm{}, err
		}
		return breakDown(secs, "UTC")
	}
	return checkTuple(t, fn, args[0])
}

// checkTuple converts and checks a time tuple as CPython's gettmarg and
// checktm do.
func checkTuple(t *python.Thread, fn string, x python.Object) (tm, error) {
	items, ok := tupleItems(x)
	if !ok || len(items) != 9 {
		if !ok {
			return tm{}, python.Errorf(python.TypeErrorType, "Tuple or struct_time argument required")
		}
		return tm{}, python.Errorf(python.TypeErrorType, "%s(): illegal time tuple argument", fn)
	}
	var v [9]int64
	for i, it := range items {
		n, err := python.ArgInt(t, fn, it)
		if err != nil {
			return tm{}, err
		}
		v[i] = n
	}
	r := tm{year: v[0], mon: int(v[1]), mday: int(v[2]), hour: int(v[3]), min: int(v[4]), sec: int(v[5]), wday: int(v[6]), yday: int(v[7]), isdst: int(v[8])}
	if inst, ok := x.(*python.Instance); ok && inst.Type().Name() == "struct_time" && inst.Type().Module() == "time" {
		if z, err := python.GetAttr(t, x, "tm_zone"); err == nil && z != python.None {
			r.zone, r.hasZone = python.StrValue(z), true
		}
		if g, err := python.GetAttr(t, x, "tm_gmtoff"); err == nil {
			r.gmtoff, _ = python.AsInt64(g)
		}
	}
	switch {
	case r.mon == 0:
		r.mon = 1
	case r.mon < 0 || r.mon > 12:
		return tm{}, python.Errorf(python.ValueErrorType, "month out of range")
	}
	switch {
	case r.mday == 0:
		r.mday = 1
	case r.mday < 0 || r.mday > 31:
		return tm{}, python.Errorf(python.ValueErrorType, "day of month out of range")
	}
	if r.hour < 0 || r.hour > 23 {
		return tm{}, python.Errorf(python.ValueErrorType, "hour out of range")
	}
	if r.min < 0 || r.min > 59 {
		return tm{}, python.Errorf(python.ValueErrorType, "minute out of range")
	}
	if r.sec < 0 || r.sec > 61 {
		return tm{}, python.Errorf(python.ValueErrorType, "seconds out of range")
	}
	// CPython converts to a Sunday-based day first: -1 is Sunday.
	if r.wday < -1 {
		return tm{}, python.Errorf(python.ValueErrorType, "day of week out of range")
	}
	r.wday = ((r.wday+1)%7 + 6) % 7
	switch {
	case r.yday == 0:
		r.yday = 1
	case r.yday < 0 || r.yday > 366:
		return tm{}, python.Errorf(python.ValueErrorType, "day of year out of range")
	}
	if r.isdst < -1 {
		r.isdst = -1
	} else if r.isdst > 1 {
		r.isdst = 1
	}
	return r, nil
}

func tupleItems(x python.Object) ([]python.Object, bool) {
	switch v := python.Unwrap(x).(type) {
	case *python.Tuple:
		return v.Items(), true
	}
	return nil, false
}

func mktime(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	if len(kwargs) > 0 {
		return nil, python.Errorf(python.TypeErrorType, "time.mktime() takes no keyword arguments")
	}
	if len(args) != 1 {
		return nil, python.Errorf(python.TypeErrorType, "time.mktime() takes exactly one argument (%d given)", len(args))
	}
	items, ok := tupleItems(args[0])
	if !ok {
		return nil, python.Errorf(python.TypeErrorType, "Tuple or struct_time argument required")
	}
	if len(items) != 9 {
		return nil, python.Errorf(python.TypeErrorType, "mktime(): illegal time tuple argument")
	}
	var v [6]int64
	for i := 0; i < 6; i++ {
		n, err := python.ArgInt(t, "mktime", items[i])
		if err != nil {
			return nil, err
		}
		v[i] = n
	}
	if v[0] > 1<<40 || v[0] < -(1<<40) {
		return nil, python.Errorf(python.OverflowErrorType, "mktime argument out of range")
	}
	u := gotime.Date(int(v[0]), gotime.Month(v[1]), int(v[2]), int(v[3]), int(v[4]), int(v[5]), 0, gotime.UTC)
	return python.Float(float64(u.Unix())), nil
}

var (
	dayAbbr   = []string{"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"}
	dayName   = []string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"}
	monthAbbr = []string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}
	monthName = []string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}
)

func asctime(x tm) string {
	return dayAbbr[x.wday] + " " + monthAbbr[x.mon-1] + " " + pad(int64(x.mday), 2, ' ') + " " +
		pad(int64(x.hour), 2, '0') + ":" + pad(int64(x.min), 2, '0') + ":" + pad(int64(x.sec), 2, '0') + " " + itoa(x.year)
}

func itoa(n int64) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

func pad(n int64, width int, c byte) string {
	s := itoa(n)
	neg := false
	if n < 0 {
		neg = true
		s = s[1:]
	}
	for len(s) < width-btoi(neg) {
		s = string(c) + s
	}
	if neg {
		s = "-" + s
	}
	return s
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func strftime(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	if err := rangeArgs("strftime", args, kwargs, 1, 2); err != nil {
		return nil, err
	}
	f, ok := args[0].(*python.Str)
	if !ok {
		return nil, python.Errorf(python.TypeErrorType, "strftime() argument 1 must be str, not %s", python.TypeName(args[0]))
	}
	x, err := tmArg(t, "strftime", args[1:])
	if err != nil {
		return nil, err
	}
	out, err := format(t, f.String(), x)
	if err != nil {
		return nil, err
	}
	return python.NewStr(out), nil
}

// format is glibc's strftime in the C locale, with its flags (_ - 0 ^ #)
// and field widths.
func format(t *python.Thread, f string, x tm) (string, error) {
	var b strings.Builder
	for i := 0; i < len(f); i++ {
		c := f[i]
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		start := i
		i++
		var flag byte
		for i < len(f) && strings.IndexByte("_-0^#", f[i]) >= 0 {
			flag = f[i]
			i++
		}
		width := -1
		for i < len(f) && f[i] >= '0' && f[i] <= '9' {
			if width < 0 {
				width = 0
			}
			width = width*10 + int(f[i]-'0')
			if width > 1024 {
				return "", python.Errorf(python.ValueErrorType, "field width too large")
			}
			i++
		}
		for i < len(f) && (f[i] == 'E' || f[i] == 'O') {
			i++
		}
		if i >= len(f) {
			b.WriteString(f[start:])
			break
		}
		s, num, defWidth, defPad, ok := conv(t, f[i], x)
		if !ok {
			b.WriteString(f[start : i+1])
			continue
		}
		if num {
			p := defPad
			switch flag {
			case '_':
				p = ' '
			case '-':
				p = 0
			case '0':
				p = '0'
			}
			w := defWidth
			if width >= 0 {
				w = width
			}
			if p != 0 {
				neg := strings.HasPrefix(s, "-")
				digits := strings.TrimPrefix(s, "-")
				for len(digits)+btoi(neg) < w {
					digits = string(p) + digits
				}
				if neg {
					digits = "-" + digits
				}
				s = digits
			} else {
				s = strings.TrimLeft(s, "0 ")
				if s == "" {
					s = "0"
				}
			}
		} else {
			switch flag {
			case '^':
				s = strings.ToUpper(s)
			case '#':
				if strings.ToUpper(s) == s {
					s = strings.ToLower(s)
				} else {
					s = strings.ToUpper(s)
				}
			}
			if width > len(s) {
				p := " "
				if flag == '0' {
					p = "0"
				}
				s = strings.Repeat(p, width-len(s)) + s
			}
		}
		b.WriteString(s)
		if err := t.CheckSize(int64(b.Len())); err != nil {
			return "", err
		}
	}
	return b.String(), nil
}

// conv renders one conversion: the text, whether it is a number (flags
// pad it), its default width and padding.
func conv(t *python.Thread, c byte, x tm) (string, bool, int, byte, bool) {
	num := func(n int64, w int, p byte) (string, bool, int, byte, bool) {
		return pad(n, w, p), true, w, p, true
	}
	text := func(s string) (string, bool, int, byte, bool) { return s, false, 0, 0, true }
	h12 := x.hour % 12
	if h12 == 0 {
		h12 = 12
	}
	sunday := (x.wday + 1) % 7 // Sunday 0
	switch c {
	case 'a':
		return text(dayAbbr[x.wday])
	case 'A':
		return text(dayName[x.wday])
	case 'b', 'h':
		return text(monthAbbr[x.mon-1])
	case 'B':
		return text(monthName[x.mon-1])
	case 'c':
		s, _ := format(t, "%a %b %e %H:%M:%S %Y", x)
		return text(s)
	case 'C':
		return num(floorDiv(x.year, 100), 2, '0')
	case 'd':
		return num(int64(x.mday), 2, '0')
	case 'D':
		s, _ := format(t, "%m/%d/%y", x)
		return text(s)
	case 'e':
		return num(int64(x.mday), 2, ' ')
	case 'F':
		s, _ := format(t, "%Y-%m-%d", x)
		return text(s)
	case 'G', 'g', 'V':
		y, w := isoWeek(x)
		switch c {
		case 'G':
			return num(y, 1, '0')
		case 'g':
			return num(((y%100)+100)%100, 2, '0')
		}
		return num(int64(w), 2, '0')
	case 'H':
		return num(int64(x.hour), 2, '0')
	case 'I':
		return num(int64(h12), 2, '0')
	case 'j':
		return num(int64(x.yday), 3, '0')
	case 'k':
		return num(int64(x.hour), 2, ' ')
	case 'l':
		return num(int64(h12), 2, ' ')
	case 'm':
		return num(int64(x.mon), 2, '0')
	case 'M':
		return num(int64(x.min), 2, '0')
	case 'n':
		return text("\n")
	case 'p':
		if x.hour >= 12 {
			return text("PM")
		}
		return text("AM")
	case 'P':
		if x.hour >= 12 {
			return text("pm")
		}
		return text("am")
	case 'r':
		s, _ := format(t, "%I:%M:%S %p", x)
		return text(s)
	case 'R':
		s, _ := format(t, "%H:%M", x)
		return text(s)
	case 's':
		u := gotime.Date(int(x.year), gotime.Month(x.mon), x.mday, x.hour, x.min, x.sec, 0, gotime.UTC)
		return num(u.Unix(), 1, '0')
	case 'S':
		return num(int64(x.sec), 2, '0')
	case 't':
		return text("\t")
	case 'T':
		s, _ := format(t, "%H:%M:%S", x)
		return text(s)
	case 'u':
		return num(int64(x.wday+1), 1, '0')
	case 'U':
		return num(int64((x.yday-1+7-sunday)/7), 2, '0')
	case 'w':
		return num(int64(sunday), 1, '0')
	case 'W':
		return num(int64((x.yday-1+7-x.wday)/7), 2, '0')
	case 'x':
		s, _ := format(t, "%m/%d/%y", x)
		return text(s)
	case 'X':
		s, _ := format(t, "%H:%M:%S", x)
		return text(s)
	case 'y':
		return num(((x.year%100)+100)%100, 2, '0')
	case 'Y':
		return num(x.year, 1, '0')
	case 'z':
		off := x.gmtoff
		sign := "+"
		if off < 0 {
			sign, off = "-", -off
		}
		return text(sign + pad(off/3600, 2, '0') + pad(off%3600/60, 2, '0'))
	case 'Z':
		if x.hasZone {
			return text(x.zone)
		}
		return text("UTC")
	case '%':
		return text("%")
	}
	return "", false, 0, 0, false
}

// isoWeek returns the ISO 8601 year and week of x.
func isoWeek(x tm) (int64, int) {
	u := gotime.Date(int(x.year), gotime.January, 1, 0, 0, 0, 0, gotime.UTC).AddDate(0, 0, x.yday-1)
	y, w := u.ISOWeek()
	return int64(y), w
}
