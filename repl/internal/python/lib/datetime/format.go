package datetime

import (
	"fmt"
	"strconv"
	"strings"
)

// CTime is ctime(): "Tue Jan  2 03:04:05 2024".
func (d DateTime) CTime() string {
	wd := Date{d.Year, d.Month, d.Day}.Weekday()
	return fmt.Sprintf("%s %s %2d %02d:%02d:%02d %04d", dayNames[wd], monthNames[d.Month], d.Day, d.Hour, d.Minute, d.Second, d.Year)
}

// validTimespec reports whether isoformat accepts timespec.
func validTimespec(timespec string) bool {
	switch timespec {
	case "auto", "hours", "minutes", "seconds", "milliseconds", "microseconds":
		return true
	}
	return false
}

func formatTime(h, m, s, us int, timespec string) (string, error) {
	if !validTimespec(timespec) {
		return "", valueErr("Unknown timespec value")
	}
	if timespec == "auto" {
		timespec = "seconds"
		if us != 0 {
			timespec = "microseconds"
		}
	}
	switch timespec {
	case "hours":
		return fmt.Sprintf("%02d", h), nil
	case "minutes":
		return fmt.Sprintf("%02d:%02d", h, m), nil
	case "seconds":
		return fmt.Sprintf("%02d:%02d:%02d", h, m, s), nil
	case "milliseconds":
		return fmt.Sprintf("%02d:%02d:%02d.%03d", h, m, s, us/1000), nil
	}
	return fmt.Sprintf("%02d:%02d:%02d.%06d", h, m, s, us), nil
}

// ISOFormat is isoformat(timespec).
func (t Time) ISOFormat(timespec string) (string, error) {
	s, err := formatTime(t.Hour, t.Minute, t.Second, t.Microsecond, timespec)
	if err != nil {
		return "", err
	}
	if t.TZ != nil {
		s += formatOffset(t.TZ.Offset, ":", false)
	}
	return s, nil
}

// String is str(t).
func (t Time) String() string {
	s, _ := t.ISOFormat("auto")
	return s
}

// Repr is repr(t).
func (t Time) Repr() string {
	var s string
	switch {
	case t.Microsecond != 0:
		s = fmt.Sprintf("datetime.time(%d, %d, %d, %d", t.Hour, t.Minute, t.Second, t.Microsecond)
	case t.Second != 0:
		s = fmt.Sprintf("datetime.time(%d, %d, %d", t.Hour, t.Minute, t.Second)
	default:
		s = fmt.Sprintf("datetime.time(%d, %d", t.Hour, t.Minute)
	}
	if t.TZ != nil {
		s += ", tzinfo=" + t.TZ.Repr()
	}
	if t.Fold != 0 {
		s += fmt.Sprintf(", fold=%d", t.Fold)
	}
	return s + ")"
}

func reprTail(fold int, tz *Timezone) string {
	s := ""
	if fold != 0 {
		s += fmt.Sprintf(", fold=%d", fold)
	}
	if tz != nil {
		s += ", tzinfo=" + tz.Repr()
	}
	return s + ")"
}

// ISOFormat is isoformat(sep, timespec).
func (d DateTime) ISOFormat(sep rune, timespec string) (string, error) {
	t, err := formatTime(d.Hour, d.Minute, d.Second, d.Microsecond, timespec)
	if err != nil {
		return "", err
	}
	s := fmt.Sprintf("%04d-%02d-%02d%c%s", d.Year, d.Month, d.Day, sep, t)
	if d.TZ != nil {
		s += formatOffset(d.TZ.Offset, ":", false)
	}
	return s, nil
}

// String is str(d).
func (d DateTime) String() string {
	s, _ := d.ISOFormat(' ', "auto")
	return s
}

// Repr is repr(d).
func (d DateTime) Repr() string {
	var s string
	switch {
	case d.Microsecond != 0:
		s = fmt.Sprintf("datetime.datetime(%d, %d, %d, %d, %d, %d, %d", d.Year, d.Month, d.Day, d.Hour, d.Minute, d.Second, d.Microsecond)
	case d.Second != 0:
		s = fmt.Sprintf("datetime.datetime(%d, %d, %d, %d, %d, %d", d.Year, d.Month, d.Day, d.Hour, d.Minute, d.Second)
	default:
		s = fmt.Sprintf("datetime.datetime(%d, %d, %d, %d, %d", d.Year, d.Month, d.Day, d.Hour, d.Minute)
	}
	return s + reprTail(d.Fold, d.TZ)
}

// Strftime is strftime(format) for a datetime.
func (d DateTime) Strftime(format string) (string, error) {
	return strftime(format, d, d.TZ)
}

// Strftime is strftime(format) for a date (time fields zero).
func (d Date) Strftime(format string) (string, error) {
	return strftime(format, DateTime{Year: d.Year, Month: d.Month, Day: d.Day}, nil)
}

// Strftime is strftime(format) for a time (date 1900-01-01).
func (t Time) Strftime(format string) (string, error) {
	return strftime(format, DateTime{Year: 1900, Month: 1, Day: 1, Hour: t.Hour, Minute: t.Minute, Second: t.Second, Microsecond: t.Microsecond}, t.TZ)
}

// MaxStrftimeOutput bounds the length of a strftime result.
const MaxStrftimeOutput = 1 << 24

// MaxStrftimeWidth bounds the field widths of strftime directives.
const MaxStrftimeWidth = 1 << 16

// strftime does what CPython does: %z, %:z, %Z and %f are expanded by
// datetime itself, the rest by the C library's strftime (glibc, C locale)
// on the time tuple, emulated here.
func strftime(format string, d DateTime, tz *Timezone) (string, error) {
	var b strings.Builder
	f := []rune(format)
	for i := 0; i < len(f); i++ {
		c := f[i]
		if c != '%' {
			b.WriteRune(c)
			continue
		}
		if i+1 < len(f) {
			switch f[i+1] {
			case 'z':
				if tz != nil {
					b.WriteString(formatOffset(tz.Offset, "", false))
				}
				i++
				continue
			case ':':
				if i+2 < len(f) && f[i+2] == 'z' {
					if tz != nil {
						b.WriteString(formatOffset(tz.Offset, ":", false))
					}
					i += 2
					continue
				}
			case 'Z':
				if tz != nil {
					b.WriteString(tz.TZName())
				}
				i++
				continue
			case 'f':
				fmt.Fprintf(&b, "%06d", d.Microsecond)
				i++
				continue
			}
		}
		n, err := cDirective(&b, f[i:], d)
		if err != nil {
			return "", err
		}
		i += n - 1
		if b.Len() > MaxStrftimeOutput {
			return "", &Error{"Unsupported", fmt.Sprintf("strftime result exceeds this interpreter's limit of %d bytes", MaxStrftimeOutput)}
		}
	}
	return b.String(), nil
}

// cDirective formats the glibc conversion at the start of f (which starts
// with '%') and returns how many runes it used.
func cDirective(b *strings.Builder, f []rune, d DateTime) (int, error) {
	i := 1
	pad := rune(0)
	upper, swap := false, false
	for i < len(f) {
		switch f[i] {
		case '_', '-', '0':
			pad = f[i]
		case '^':
			upper = true
		case '#':
			swap = true
		default:
			goto flagsDone
		}
		i++
	}
flagsDone:
	width := -1
	for i < len(f) && f[i] >= '0' && f[i] <= '9' {
		if width < 0 {
			width = 0
		}
		width = width*10 + int(f[i]-'0')
		if width > MaxStrftimeWidth {
			return 0, &Error{"Unsupported", fmt.Sprintf("strftime field width exceeds this interpreter's limit of %d", MaxStrftimeWidth)}
		}
		i++
	}
	mod := rune(0)
	if i < len(f) && (f[i] == 'E' || f[i] == 'O') {
		mod = f[i]
		i++
	}
	bad := func() (int, error) {
		end := i + 1
		if end > len(f) {
			end = len(f)
		}
		lit := string(f[:end])
		if n := len([]rune(lit)); width > n {
			lit = strings.Repeat(" ", width-n) + lit
		}
		b.WriteString(lit)
		return end, nil
	}
	if i >= len(f) {
		return bad()
	}
	conv := f[i]
	if mod == 'E' && !strings.ContainsRune("cCxXyY", conv) || mod == 'O' && !strings.ContainsRune("deHIklmMSuUVwWy", conv) {
		return bad()
	}
	tt := d.TimeTuple()
	wdaySun := (tt.Weekday + 1) % 7 // Sunday is 0
	yday := tt.Yearday - 1
	isoY, isoW, _ := Date{d.Year, d.Month, d.Day}.ISOCalendar()
	num := func(digits int, v int, spacePad bool) {
		s := strconv.Itoa(v)
		p := pad
		if p == 0 {
			p = '0'
			if spacePad {
				p = '_'
			}
		}
		w := width
		if w < 0 {
			w = digits
		}
		if p == '-' && width < 0 {
			w = 0
		}
		if len(s) < w {
			fill := "0"
			if p == '_' || p == '-' {
				fill = " "
			}
			if v < 0 && fill == "0" {
				s = "-" + strings.Repeat("0", w-len(s)) + s[1:]
			} else {
				s = strings.Repeat(fill, w-len(s)) + s
			}
		}
		b.WriteString(s)
	}
	str := func(s string, swapToLower bool) {
		if upper || swap && !swapToLower {
			s = strings.ToUpper(s)
		} else if swap && swapToLower {
			s = strings.ToLower(s)
		}
		if width > len(s) {
			fill := " "
			if pad == '0' {
				fill = "0"
			}
			s = strings.Repeat(fill, width-len(s)) + s
		}
		b.WriteString(s)
	}
	sub := func(format string) error {
		var inner strings.Builder
		for j := 0; j < len(format); {
			if format[j] != '%' {
				inner.WriteByte(format[j])
				j++
				continue
			}
			n, err := cDirective(&inner, []rune(format[j:]), d)
			if err != nil {
				return err
			}
			j += n
		}
		str(inner.String(), false)
		return nil
	}
	hour12 := d.Hour % 12
	if hour12 == 0 {
		hour12 = 12
	}
	ampm := "AM"
	if d.Hour >= 12 {
		ampm = "PM"
	}
	switch conv {
	case 'a':
		str(dayNames[tt.Weekday], false)
	case 'A':
		str(fullDayNames[tt.Weekday], false)
	case 'b', 'h':
		str(monthNames[d.Month], false)
	case 'B':
		str(fullMonthNames[d.Month], false)
	case 'c':
		if err := sub("%a %b %e %H:%M:%S %Y"); err != nil {
			return 0, err
		}
	case 'C':
		num(1, d.Year/100, false)
	case 'd':
		num(2, d.Day, false)
	case 'D', 'x':
		if err := sub("%m/%d/%y"); err != nil {
			return 0, err
		}
	case 'e':
		num(2, d.Day, true)
	case 'F':
		if err := sub("%Y-%m-%d"); err != nil {
			return 0, err
		}
	case 'g':
		num(2, (isoY%100+100)%100, false)
	case 'G':
		num(1, isoY, false)
	case 'H':
		num(2, d.Hour, false)
	case 'I':
		num(2, hour12, false)
	case 'j':
		num(3, yday+1, false)
	case 'k':
		num(2, d.Hour, true)
	case 'l':
		num(2, hour12, true)
	case 'm':
		num(2, d.Month, false)
	case 'M':
		num(2, d.Minute, false)
	case 'n':
		str("\n", false)
	case 'p':
		str(ampm, true)
	case 'P':
		str(strings.ToLower(ampm), false)
	case 'r':
		if err := sub("%I:%M:%S %p"); err != nil {
			return 0, err
		}
	case 'R':
		if err := sub("%H:%M"); err != nil {
			return 0, err
		}
	case 's':
		secs := (int64(Date{d.Year, d.Month, d.Day}.Ordinal()-ymdToOrd(1970, 1, 1))*86400 + int64(d.Hour)*3600 + int64(d.Minute)*60 + int64(d.Second))
		s := strconv.FormatInt(secs, 10)
		if width > len(s) && pad != '-' {
			fill := "0"
			if pad == '_' {
				fill = " "
			}
			s = strings.Repeat(fill, width-len(s)) + s
		}
		b.WriteString(s)
	case 'S':
		num(2, d.Second, false)
	case 't':
		str("\t", false)
	case 'T', 'X':
		if err := sub("%H:%M:%S"); err != nil {
			return 0, err
		}
	case 'u':
		num(1, tt.Weekday+1, false)
	case 'U':
		num(2, (yday+7-wdaySun)/7, false)
	case 'V':
		num(2, isoW, false)
	case 'w':
		num(1, wdaySun, false)
	case 'W':
		num(2, (yday+7-(wdaySun+6)%7)/7, false)
	case 'y':
		num(2, (d.Year%100+100)%100, false)
	case 'Y':
		num(1, d.Year, false)
	case 'z':
		// The time tuple CPython passes has tm_isdst -1: glibc writes
		// nothing.
	case 'Z':
		// ... and no tm_zone.
		str("", true)
	case '%':
		str("%", false)
	default:
		return bad()
	}
	return i + 1, nil
}
