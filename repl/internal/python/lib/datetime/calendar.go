// Package datetime is the algorithmic kernel of CPython 3.12's datetime
// module: date, time, datetime, timedelta and timezone (fixed offsets and
// UTC; no time zone database) as Go values with CPython's ranges,
// normalization, arithmetic, comparisons, formatting (isoformat, str,
// repr, ctime, strftime) and parsing (fromisoformat, strptime), with
// CPython's exceptions and messages. There is no clock: the wrapper
// supplies "now" and treats local time as UTC.
//
// Register makes the module importable by code mode's interpreter: the
// wrapper in module.go exposes the kernel to Python code as CPython's
// datetime module does.
package datetime

import "fmt"

// Range of years and of timedelta days.
const (
	MinYear      = 1
	MaxYear      = 9999
	MaxDeltaDays = 999999999
	maxOrdinal   = 3652059 // date.max.toordinal()
)

// Error is a Python exception raised by the kernel: Type is "ValueError",
// "OverflowError", "TypeError", "ZeroDivisionError", or "Unsupported" for
// what this kernel refuses.
type Error struct {
	Type string
	Msg  string
}

func (e *Error) Error() string { return e.Type + ": " + e.Msg }

func valueErr(format string, args ...any) *Error {
	return &Error{"ValueError", fmt.Sprintf(format, args...)}
}

var daysInMonthTable = [13]int{0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}
var daysBeforeMonthTable = [13]int{0, 0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334}

// IsLeap reports whether year is a leap year.
func IsLeap(year int) bool {
	return year%4 == 0 && (year%100 != 0 || year%400 == 0)
}

// DaysInMonth returns the number of days in month of year.
func DaysInMonth(year, month int) int {
	if month == 2 && IsLeap(year) {
		return 29
	}
	return daysInMonthTable[month]
}

func daysBeforeYear(year int) int {
	y := year - 1
	return y*365 + y/4 - y/100 + y/400
}

func daysBeforeMonth(year, month int) int {
	d := daysBeforeMonthTable[month]
	if month > 2 && IsLeap(year) {
		d++
	}
	return d
}

// ymdToOrd returns the proleptic Gregorian ordinal (0001-01-01 is 1).
func ymdToOrd(y, m, d int) int {
	return daysBeforeYear(y) + daysBeforeMonth(y, m) + d
}

const (
	di400y = 146097
	di100y = 36524
	di4y   = 1461
)

// ordToYMD is the inverse of ymdToOrd, for n >= 1.
func ordToYMD(n int) (int, int, int) {
	n--
	n400, n := n/di400y, n%di400y
	year := n400*400 + 1
	n100, n := n/di100y, n%di100y
	n4, n := n/di4y, n%di4y
	n1, n := n/365, n%365
	year += n100*100 + n4*4 + n1
	if n1 == 4 || n100 == 4 {
		return year - 1, 12, 31
	}
	leap := n1 == 3 && (n4 != 24 || n100 == 3)
	month := (n + 50) >> 5
	preceding := daysBeforeMonthTable[month]
	if month > 2 && leap {
		preceding++
	}
	if preceding > n {
		month--
		preceding -= daysInMonthTable[month]
		if month == 2 && leap {
			preceding--
		}
	}
	n -= preceding
	return year, month, n + 1
}

// checkDate reports CPython's error for an invalid date.
func checkDate(y, m, d int) error {
	if y < MinYear || y > MaxYear {
		return valueErr("year %d is out of range", y)
	}
	if m < 1 || m > 12 {
		return valueErr("month must be in 1..12")
	}
	if d < 1 || d > DaysInMonth(y, m) {
		return valueErr("day is out of range for month")
	}
	return nil
}

func checkTime(h, mi, s, us, fold int) error {
	if h < 0 || h > 23 {
		return valueErr("hour must be in 0..23")
	}
	if mi < 0 || mi > 59 {
		return valueErr("minute must be in 0..59")
	}
	if s < 0 || s > 59 {
		return valueErr("second must be in 0..59")
	}
	if us < 0 || us > 999999 {
		return valueErr("microsecond must be in 0..999999")
	}
	if fold != 0 && fold != 1 {
		return valueErr("fold must be either 0 or 1")
	}
	return nil
}

// isoWeek1Monday returns the ordinal of the Monday starting ISO week 1 of
// year.
func isoWeek1Monday(year int) int {
	firstday := ymdToOrd(year, 1, 1)
	firstweekday := (firstday + 6) % 7
	week1monday := firstday - firstweekday
	if firstweekday > 3 {
		week1monday += 7
	}
	return week1monday
}

func floorDivInt(a, b int) int {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func floorModInt(a, b int) int {
	return a - floorDivInt(a, b)*b
}
