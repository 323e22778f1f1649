package datetime

import (
	"fmt"
	"math"
	"math/big"
	"strings"
	"unicode"
)

// Timezone is a datetime.timezone: a fixed offset and an optional name.
// The zero offset without a name is timezone.utc.
type Timezone struct {
	Offset  Timedelta
	Name    string
	HasName bool
}

// UTC is timezone.utc.
var UTC = &Timezone{}

// TimezoneMin and TimezoneMax are timezone.min and timezone.max.
var (
	TimezoneMin = &Timezone{Offset: Timedelta{-1, 60, 0}}
	TimezoneMax = &Timezone{Offset: Timedelta{0, 86340, 0}}
)

// NewTimezone is timezone(offset, name); name nil is not given.
func NewTimezone(offset Timedelta, name *string) (*Timezone, error) {
	if offset.Days < -1 || offset.Days >= 1 || offset.Days == -1 && offset.Seconds == 0 && offset.Microseconds == 0 {
		return nil, valueErr("offset must be a timedelta strictly between -timedelta(hours=24) and timedelta(hours=24), not %s.", offset.Repr())
	}
	if name == nil {
		if offset == (Timedelta{}) {
			return UTC, nil
		}
		return &Timezone{Offset: offset}, nil
	}
	return &Timezone{Offset: offset, Name: *name, HasName: true}, nil
}

// IsUTC reports whether z is the timezone.utc singleton.
func (z *Timezone) IsUTC() bool { return !z.HasName && z.Offset == (Timedelta{}) }

// TZName is tzname(dt).
func (z *Timezone) TZName() string {
	if z.HasName {
		return z.Name
	}
	return nameFromOffset(z.Offset)
}

func nameFromOffset(d Timedelta) string {
	if d == (Timedelta{}) {
		return "UTC"
	}
	return "UTC" + formatOffset(d, ":", false)
}

// formatOffset formats +HH<sep>MM[<sep>SS[.ffffff]]; with compactSeconds
// false the seconds appear only when non-zero.
func formatOffset(d Timedelta, sep string, _ bool) string {
	sign := "+"
	if d.Days < 0 {
		sign = "-"
		d, _ = d.Neg()
	}
	secs := d.Days*86400 + d.Seconds
	h, m, s := secs/3600, secs/60%60, secs%60
	out := fmt.Sprintf("%s%02d%s%02d", sign, h, sep, m)
	if d.Microseconds != 0 {
		return out + fmt.Sprintf("%s%02d.%06d", sep, s, d.Microseconds)
	}
	if s != 0 {
		return out + fmt.Sprintf("%s%02d", sep, s)
	}
	return out
}

// Repr is repr(z).
func (z *Timezone) Repr() string {
	if z.IsUTC() {
		return "datetime.timezone.utc"
	}
	if !z.HasName {
		return "datetime.timezone(" + z.Offset.Repr() + ")"
	}
	return "datetime.timezone(" + z.Offset.Repr() + ", " + ReprString(z.Name) + ")"
}

// String is str(z).
func (z *Timezone) String() string { return z.TZName() }

// Equal is z == w (by offset).
func (z *Timezone) Equal(w *Timezone) bool { return z.Offset == w.Offset }

// Date is a datetime.date.
type Date struct {
	Year, Month, Day int
}

// Date limits and resolution.
var (
	DateMin        = Date{1, 1, 1}
	DateMax        = Date{9999, 12, 31}
	DateResolution = Timedelta{1, 0, 0}
)

// NewDate is date(year, month, day).
func NewDate(year, month, day int) (Date, error) {
	if err := checkDate(year, month, day); err != nil {
		return Date{}, err
	}
	return Date{year, month, day}, nil
}

// DateFromOrdinal is date.fromordinal(n).
func DateFromOrdinal(n int) (Date, error) {
	if n < 1 {
		return Date{}, valueErr("ordinal must be >= 1")
	}
	if n > maxOrdinal {
		y, _, _ := ordToYMD(n)
		return Date{}, valueErr("year %d is out of range", y)
	}
	y, m, d := ordToYMD(n)
	return Date{y, m, d}, nil
}

// DateFromISOCalendar is date.fromisocalendar(year, week, day).
func DateFromISOCalendar(year, week, day int) (Date, error) {
	if year < MinYear || year > MaxYear {
		return Date{}, valueErr("Year is out of range: %d", year)
	}
	if week <= 0 || week >= 53 {
		outOfRange := true
		if week == 53 {
			// Only years starting on a Thursday, or leap years starting on
			// a Wednesday, have 53 weeks.
			first := (ymdToOrd(year, 1, 1) + 6) % 7
			if first == 3 || first == 2 && IsLeap(year) {
				outOfRange = false
			}
		}
		if outOfRange {
			return Date{}, valueErr("Invalid week: %d", week)
		}
	}
	if day <= 0 || day >= 8 {
		return Date{}, valueErr("Invalid day: %d (range is [1, 7])", day)
	}
	ord := isoWeek1Monday(year) + (week-1)*7 + day - 1
	return DateFromOrdinal(ord)
}

// Ordinal is toordinal().
func (d Date) Ordinal() int { return ymdToOrd(d.Year, d.Month, d.Day) }

// Weekday is weekday(): Monday is 0.
func (d Date) Weekday() int { return (d.Ordinal() + 6) % 7 }

// ISOWeekday is isoweekday(): Monday is 1.
func (d Date) ISOWeekday() int { return d.Weekday() + 1 }

// ISOCalendar is isocalendar(): ISO year, week and weekday.
func (d Date) ISOCalendar() (year, week, weekday int) {
	year = d.Year
	week1monday := isoWeek1Monday(year)
	today := d.Ordinal()
	week = floorDivInt(today-week1monday, 7)
	day := floorModInt(today-week1monday, 7)
	if week < 0 {
		year--
		week1monday = isoWeek1Monday(year)
		week = floorDivInt(today-week1monday, 7)
		day = floorModInt(today-week1monday, 7)
	} else if week >= 52 && today >= isoWeek1Monday(year+1) {
		year++
		week = 0
	}
	return year, week + 1, day + 1
}

// ISOCalendarRepr is repr(d.isocalendar()).
func ISOCalendarRepr(year, week, weekday int) string {
	return fmt.Sprintf("datetime.IsoCalendarDate(year=%d, week=%d, weekday=%d)", year, week, weekday)
}

var errDateRange = &Error{"OverflowError", "date value out of range"}

// AddDays returns d + timedelta(days=n) (date + timedelta uses only the
// days of the timedelta; date - timedelta is d.AddDays(-td.Days)).
func (d Date) AddDays(n int64) (Date, error) {
	o := int64(d.Ordinal()) + n
	if o < 1 || o > maxOrdinal {
		return Date{}, errDateRange
	}
	y, m, dd := ordToYMD(int(o))
	return Date{y, m, dd}, nil
}

// Sub returns d - e.
func (d Date) Sub(e Date) Timedelta {
	return Timedelta{Days: int64(d.Ordinal() - e.Ordinal())}
}

// Compare returns -1, 0 or 1.
func (d Date) Compare(e Date) int {
	return cmpInt(int64(d.Ordinal()), int64(e.Ordinal()))
}

// TimeTuple holds the fields of a time.struct_time.
type TimeTuple struct {
	Year, Month, Day, Hour, Minute, Second, Weekday, Yearday, IsDST int
}

// TimeTuple is timetuple().
func (d Date) TimeTuple() TimeTuple {
	return TimeTuple{d.Year, d.Month, d.Day, 0, 0, 0, d.Weekday(), d.Ordinal() - ymdToOrd(d.Year, 1, 1) + 1, -1}
}

// ISOFormat is isoformat().
func (d Date) ISOFormat() string { return fmt.Sprintf("%04d-%02d-%02d", d.Year, d.Month, d.Day) }

// String is str(d).
func (d Date) String() string { return d.ISOFormat() }

// Repr is repr(d).
func (d Date) Repr() string { return fmt.Sprintf("datetime.date(%d, %d, %d)", d.Year, d.Month, d.Day) }

var dayNames = [7]string{"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"}
var fullDayNames = [7]string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"}
var monthNames = [13]string{"", "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}
var fullMonthNames = [13]string{"", "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}

// CTime is ctime().
func (d Date) CTime() string {
	return DateTime{Year: d.Year, Month: d.Month, Day: d.Day}.CTime()
}

// Time is a datetime.time.
type Time struct {
	Hour, Minute, Second, Microsecond int
	TZ                                *Timezone // nil when naive
	Fold                              int
}

// Time limits and resolution.
var (
	TimeMin        = Time{}
	TimeMax        = Time{Hour: 23, Minute: 59, Second: 59, Microsecond: 999999}
	TimeResolution = Timedelta{0, 0, 1}
)

// NewTime is time(hour, minute, second, microsecond, tzinfo, fold=fold).
func NewTime(hour, minute, second, microsecond int, tz *Timezone, fold int) (Time, error) {
	if err := checkTime(hour, minute, second, microsecond, fold); err != nil {
		return Time{}, err
	}
	return Time{hour, minute, second, microsecond, tz, fold}, nil
}

// UTCOffset is utcoffset(): ok is false for None.
func (t Time) UTCOffset() (Timedelta, bool) {
	if t.TZ == nil {
		return Timedelta{}, false
	}
	return t.TZ.Offset, true
}

// TZName is tzname(): ok is false for None.
func (t Time) TZName() (string, bool) {
	if t.TZ == nil {
		return "", false
	}
	return t.TZ.TZName(), true
}

func timeMicros(h, m, s, us int) int64 {
	return ((int64(h)*60+int64(m))*60+int64(s))*1000000 + int64(us)
}

// Compare compares times; naive and aware times are unordered
// (TypeError), and CompareEqual gives their == result.
func (t Time) Compare(u Time) (int, error) {
	a, b := timeMicros(t.Hour, t.Minute, t.Second, t.Microsecond), timeMicros(u.Hour, u.Minute, u.Second, u.Microsecond)
	if (t.TZ == nil) != (u.TZ == nil) {
		return 0, &Error{"TypeError", "can't compare offset-naive and offset-aware times"}
	}
	if t.TZ != nil && t.TZ.Offset != u.TZ.Offset {
		a -= t.TZ.Offset.TotalMicroseconds().Int64()
		b -= u.TZ.Offset.TotalMicroseconds().Int64()
	}
	return cmpInt(a, b), nil
}

// Equal is t == u.
func (t Time) Equal(u Time) bool {
	c, err := t.Compare(u)
	return err == nil && c == 0
}

// DateTime is a datetime.datetime.
type DateTime struct {
	Year, Month, Day, Hour, Minute, Second, Microsecond int
	TZ                                                  *Timezone // nil when naive
	Fold                                                int
}

// DateTime limits and resolution.
var (
	DateTimeMin        = DateTime{Year: 1, Month: 1, Day: 1}
	DateTimeMax        = DateTime{Year: 9999, Month: 12, Day: 31, Hour: 23, Minute: 59, Second: 59, Microsecond: 999999}
	DateTimeResolution = Timedelta{0, 0, 1}
)

// NewDateTime is datetime(year, month, day, hour, minute, second,
// microsecond, tzinfo, fold=fold).
func NewDateTime(year, month, day, hour, minute, second, microsecond int, tz *Timezone, fold int) (DateTime, error) {
	if err := checkDate(year, month, day); err != nil {
		return DateTime{}, err
	}
	if err := checkTime(hour, minute, second, microsecond, fold); err != nil {
		return DateTime{}, err
	}
	return DateTime{year, month, day, hour, minute, second, microsecond, tz, fold}, nil
}

// Combine is datetime.combine(date, time, tzinfo); tz is the tzinfo
// argument when given (else the time's).
func Combine(d Date, t Time, tz *Timezone, tzGiven bool) DateTime {
	if !tzGiven {
		tz = t.TZ
	}
	return DateTime{d.Year, d.Month, d.Day, t.Hour, t.Minute, t.Second, t.Microsecond, tz, t.Fold}
}

// Date is date().
func (d DateTime) Date() Date { return Date{d.Year, d.Month, d.Day} }

// Time is time() (without tzinfo).
func (d DateTime) Time() Time { return Time{d.Hour, d.Minute, d.Second, d.Microsecond, nil, d.Fold} }

// TimeTZ is timetz().
func (d DateTime) TimeTZ() Time { return Time{d.Hour, d.Minute, d.Second, d.Microsecond, d.TZ, d.Fold} }

// UTCOffset is utcoffset(): ok is false for None.
func (d DateTime) UTCOffset() (Timedelta, bool) {
	if d.TZ == nil {
		return Timedelta{}, false
	}
	return d.TZ.Offset, true
}

// TZName is tzname(): ok is false for None.
func (d DateTime) TZName() (string, bool) {
	if d.TZ == nil {
		return "", false
	}
	return d.TZ.TZName(), true
}

// micros returns the microseconds since 0001-01-01T00:00 of the fields.
func (d DateTime) micros() *big.Int {
	days := int64(ymdToOrd(d.Year, d.Month, d.Day))
	us := new(big.Int).Mul(big.NewInt(days), bigUsPerDay)
	return us.Add(us, big.NewInt(timeMicros(d.Hour, d.Minute, d.Second, d.Microsecond)))
}

// fromMicros is the inverse of micros, with CPython's OverflowError.
func fromMicros(us *big.Int, tz *Timezone) (DateTime, error) {
	days, rem := floorDivMod(us, bigUsPerDay)
	if !days.IsInt64() || days.Int64() < 1 || days.Int64() > maxOrdinal {
		return DateTime{}, errDateRange
	}
	y, m, dd := ordToYMD(int(days.Int64()))
	r := rem.Int64()
	return DateTime{y, m, dd, int(r / 3600000000), int(r / 60000000 % 60), int(r / 1000000 % 60), int(r % 1000000), tz, 0}, nil
}

// Add returns d + t (also t + d).
func (d DateTime) Add(t Timedelta) (DateTime, error) {
	return fromMicros(new(big.Int).Add(d.micros(), t.TotalMicroseconds()), d.TZ)
}

// SubDelta returns d - t.
func (d DateTime) SubDelta(t Timedelta) (DateTime, error) {
	return fromMicros(new(big.Int).Sub(d.micros(), t.TotalMicroseconds()), d.TZ)
}

// Sub returns d - e. sameTZ is whether both have the same tzinfo object
// (then offsets are ignored, as in CPython).
func (d DateTime) Sub(e DateTime, sameTZ bool) (Timedelta, error) {
	a, b := d.micros(), e.micros()
	if !sameTZ {
		if (d.TZ == nil) != (e.TZ == nil) {
			return Timedelta{}, &Error{"TypeError", "can't subtract offset-naive and offset-aware datetimes"}
		}
		if d.TZ != nil {
			a.Sub(a, d.TZ.Offset.TotalMicroseconds())
			b.Sub(b, e.TZ.Offset.TotalMicroseconds())
		}
	}
	return TimedeltaFromMicroseconds(a.Sub(a, b))
}

// Compare orders datetimes: naive and aware ones are unordered
// (TypeError; Equal gives False for them).
func (d DateTime) Compare(e DateTime) (int, error) {
	if (d.TZ == nil) != (e.TZ == nil) {
		return 0, &Error{"TypeError", "can't compare offset-naive and offset-aware datetimes"}
	}
	a, b := d.micros(), e.micros()
	if d.TZ != nil && d.TZ.Offset != e.TZ.Offset {
		a.Sub(a, d.TZ.Offset.TotalMicroseconds())
		b.Sub(b, e.TZ.Offset.TotalMicroseconds())
	}
	return a.Cmp(b), nil
}

// Equal is d == e.
func (d DateTime) Equal(e DateTime) bool {
	c, err := d.Compare(e)
	return err == nil && c == 0
}

// TimeTuple is timetuple() (isdst is -1: timezone.dst() is None).
func (d DateTime) TimeTuple() TimeTuple {
	t := d.Date().TimeTuple()
	t.Hour, t.Minute, t.Second = d.Hour, d.Minute, d.Second
	return t
}

// UTCTimeTuple is utctimetuple().
func (d DateTime) UTCTimeTuple() (TimeTuple, error) {
	u := d
	if d.TZ != nil {
		var err error
		if u, err = d.SubDelta(d.TZ.Offset); err != nil {
			return TimeTuple{}, err
		}
	}
	t := u.TimeTuple()
	t.IsDST = 0
	return t, nil
}

// epochMicros is DateTime{Year: 1970, Month: 1, Day: 1}.micros(): 1970-01-01
// is ordinal 719163 (TestEpochMicros checks it). A constant, so that
// package initialisation computes nothing.
var epochMicros = big.NewInt(719163 * 86400 * 1000000)

// Timestamp is timestamp(), local time being UTC for naive values.
func (d DateTime) Timestamp() (float64, error) {
	if d.TZ != nil {
		us := d.micros()
		us.Sub(us, d.TZ.Offset.TotalMicroseconds())
		us.Sub(us, epochMicros)
		f, _ := new(big.Rat).SetFrac(us, bigUsPerSecond).Float64()
		return f, nil
	}
	// CPython probes the local offset a day before (fold 0) or after
	// (fold 1), outside the years of date at the ends of the range.
	if d.Fold == 0 && d.Year == 1 && d.Month == 1 && d.Day == 1 {
		return 0, valueErr("year 0 is out of range")
	}
	if d.Fold == 1 && d.Year == MaxYear && d.Month == 12 && d.Day == 31 {
		return 0, valueErr("year 10000 is out of range")
	}
	secs := new(big.Int).Sub(d.micros(), big.NewInt(int64(d.Microsecond)))
	secs.Sub(secs, epochMicros)
	secs.Quo(secs, bigUsPerSecond)
	return float64(secs.Int64()) + float64(d.Microsecond)/1e6, nil
}

// FromTimestamp is datetime.fromtimestamp(ts, tz) (tz nil: naive local
// time, which is UTC here).
func FromTimestamp(ts Number, tz *Timezone) (DateTime, error) {
	return fromTimestamp(ts, tz, tz == nil)
}

// UTCFromTimestamp is datetime.utcfromtimestamp(ts).
func UTCFromTimestamp(ts Number) (DateTime, error) {
	return fromTimestamp(ts, nil, false)
}

func fromTimestamp(ts Number, tz *Timezone, local bool) (DateTime, error) {
	var secs *big.Int
	var us int64
	if ts.IsFloat {
		f := ts.F
		if math.IsNaN(f) {
			return DateTime{}, valueErr("Invalid value NaN (not a number)")
		}
		intpart, frac := math.Modf(f)
		frac *= 1e6
		frac = roundHalfEven(frac)
		if frac >= 1e6 {
			frac -= 1e6
			intpart++
		} else if frac < 0 {
			frac += 1e6
			intpart--
		}
		if !(intpart >= -9.223372036854775808e18 && intpart < 9.223372036854775808e18) {
			return DateTime{}, &Error{"OverflowError", "timestamp out of range for platform time_t"}
		}
		secs = big.NewInt(int64(intpart))
		us = int64(frac)
	} else {
		if !ts.I.IsInt64() {
			return DateTime{}, &Error{"OverflowError", "timestamp out of range for platform time_t"}
		}
		secs = new(big.Int).Set(ts.I)
	}
	days, rem := floorDivMod(secs, bigSecPerDay)
	ord := new(big.Int).Add(days, big.NewInt(int64(ymdToOrd(1970, 1, 1))))
	if !ord.IsInt64() || ord.Int64() < 1 || ord.Int64() > maxOrdinal {
		// gmtime's year, as CPython reports it.
		year := yearOfDays(days)
		return DateTime{}, valueErr("year %s is out of range", year)
	}
	if local && ord.Int64() == 1 {
		// CPython probes the local time a day earlier for a fold.
		return DateTime{}, valueErr("year 0 is out of range")
	}
	y, m, d := ordToYMD(int(ord.Int64()))
	r := rem.Int64()
	dt := DateTime{y, m, d, int(r / 3600), int(r / 60 % 60), int(r % 60), int(us), nil, 0}
	if tz != nil {
		out, err := dt.Add(tz.Offset)
		if err != nil {
			return DateTime{}, err
		}
		out.TZ = tz
		return out, nil
	}
	return dt, nil
}

// yearOfDays returns the Gregorian year of the day days after 1970-01-01,
// for days outside date's range.
func yearOfDays(days *big.Int) string {
	// Shift by whole 400-year cycles into the range ordToYMD handles.
	n := new(big.Int).Add(days, big.NewInt(int64(ymdToOrd(1970, 1, 1))))
	cycles, rem := floorDivMod(new(big.Int).Sub(n, bigOne), big.NewInt(di400y))
	y, _, _ := ordToYMD(int(rem.Int64()) + 1)
	year := new(big.Int).Mul(cycles, big.NewInt(400))
	return year.Add(year, big.NewInt(int64(y))).String()
}

func roundHalfEven(x float64) float64 {
	r := math.Round(x)
	if math.Abs(x-r) == 0.5 {
		r = 2.0 * math.Round(x/2.0)
	}
	return r
}

// AsTimezone is astimezone(tz); tz nil is the local zone, UTC here, named
// "UTC" as CPython names it.
func (d DateTime) AsTimezone(tz *Timezone) (DateTime, error) {
	if tz == nil {
		name := "UTC"
		tz = &Timezone{Name: name, HasName: true}
	}
	u := d
	if d.TZ != nil {
		var err error
		if u, err = d.SubDelta(d.TZ.Offset); err != nil {
			return DateTime{}, err
		}
	} else {
		// A naive datetime is local time: CPython probes the local offset
		// a day before and a day after it.
		if d.Year == 1 && d.Month == 1 && d.Day == 1 {
			return DateTime{}, valueErr("year 0 is out of range")
		}
		if d.Year == MaxYear && d.Month == 12 && d.Day == 31 {
			return DateTime{}, valueErr("year 10000 is out of range")
		}
	}
	out, err := u.Add(tz.Offset)
	if err != nil {
		return DateTime{}, err
	}
	out.TZ = tz
	return out, nil
}

// ReprString returns Python's repr() of a str.
func ReprString(s string) string {
	quote := byte('\'')
	if strings.ContainsRune(s, '\'') && !strings.ContainsRune(s, '"') {
		quote = '"'
	}
	var b strings.Builder
	b.WriteByte(quote)
	for _, c := range s {
		switch {
		case c == rune(quote) || c == '\\':
			b.WriteByte('\\')
			b.WriteRune(c)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\t':
			b.WriteString(`\t`)
		case c < 0x20 || c == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, c)
		case c < 0x7f || unicode.IsPrint(c):
			b.WriteRune(c)
		case c <= 0xff:
			fmt.Fprintf(&b, `\x%02x`, c)
		case c <= 0xffff:
			fmt.Fprintf(&b, `\u%04x`, c)
		default:
			fmt.Fprintf(&b, `\U%08x`, c)
		}
	}
	b.WriteByte(quote)
	return b.String()
}

// HashKey returns a key equal for equal datetimes (the UTC instant for
// aware ones, the fields for naive ones), for the wrapper's __hash__.
// Naive and aware datetimes may share a key although they never compare
// equal.
func (d DateTime) HashKey() int64 {
	us := d.micros()
	if d.TZ != nil {
		us.Sub(us, d.TZ.Offset.TotalMicroseconds())
	}
	return us.Int64()
}

// HashKey returns a key equal for equal times.
func (t Time) HashKey() int64 {
	us := timeMicros(t.Hour, t.Minute, t.Second, t.Microsecond)
	if t.TZ != nil {
		us -= t.TZ.Offset.TotalMicroseconds().Int64()
	}
	return us
}
