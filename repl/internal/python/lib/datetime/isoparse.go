package datetime

// fromisoformat, as CPython's C implementation parses it: over the UTF-8
// bytes of the string, which the C code reads as NUL-terminated.

type cstr []byte

// at returns the byte at i, and 0 (the terminator) past the end.
func (s cstr) at(i int) byte {
	if i < 0 || i >= len(s) {
		return 0
	}
	return s[i]
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// parseDigits reads exactly n ASCII digits at p; it returns the new
// position, or -1.
func (s cstr) parseDigits(p, n int, v *int) int {
	*v = 0
	for i := 0; i < n; i++ {
		c := s.at(p)
		if !isDigit(c) {
			return -1
		}
		*v = *v*10 + int(c-'0')
		p++
	}
	return p
}

func (s cstr) separatorLocation(n int) int {
	if n == 7 {
		return 7
	}
	if s.at(4) == '-' {
		if s.at(5) == 'W' {
			if n < 8 {
				return -1
			}
			if n > 8 && s.at(8) == '-' {
				if n == 9 {
					return -1
				}
				if n > 10 && isDigit(s.at(10)) {
					return 8
				}
				return 10
			}
			return 8
		}
		return 10
	}
	if s.at(4) == 'W' {
		idx := 7
		for ; idx < n; idx++ {
			if !isDigit(s.at(idx)) {
				break
			}
		}
		if idx < 9 {
			return idx
		}
		if idx%2 == 0 {
			return 7
		}
		return 8
	}
	return 8
}

// parseISODate parses the date at the start of s (length n, which the C
// code takes as unsigned); it returns a negative code on failure.
func (s cstr) parseISODate(n uint, y, m, d *int) int {
	p := s.parseDigits(0, 4, y)
	if p < 0 {
		return -1
	}
	sep := s.at(p) == '-'
	if sep {
		p++
	}
	if s.at(p) == 'W' {
		p++
		var week, day int
		if p = s.parseDigits(p, 2, &week); p < 0 {
			return -3
		}
		if uint(p) < n {
			if sep {
				c := s.at(p)
				p++
				if c != '-' {
					return -2
				}
			}
			if p = s.parseDigits(p, 1, &day); p < 0 {
				return -4
			}
		} else {
			day = 1
		}
		dt, err := DateFromISOCalendar(*y, week, day)
		if err != nil {
			return -5
		}
		*y, *m, *d = dt.Year, dt.Month, dt.Day
		return 0
	}
	if p = s.parseDigits(p, 2, m); p < 0 {
		return -1
	}
	if sep {
		c := s.at(p)
		p++
		if c != '-' {
			return -2
		}
	}
	if p = s.parseDigits(p, 2, d); p < 0 {
		return -1
	}
	return 0
}

// parseHMS parses [HH[:?MM[:?SS]]][.,fff...] from p up to end; it returns
// a negative code, 0, or 1 when the text does not end there.
func (s cstr) parseHMS(p, end int, vals *[4]int) int {
	*vals = [4]int{}
	sep := true
	for i := 0; i < 3; i++ {
		if p = s.parseDigits(p, 2, &vals[i]); p < 0 {
			return -3
		}
		c := s.at(p)
		p++
		if i == 0 {
			sep = c == ':'
		}
		if p >= end {
			if c != 0 {
				return 1
			}
			return 0
		} else if sep && c == ':' {
			continue
		} else if c == '.' || c == ',' {
			break
		} else if !sep {
			p--
		} else {
			return -4
		}
	}
	remains := end - p
	toParse := remains
	if remains >= 6 {
		toParse = 6
	}
	if toParse <= 0 {
		// parse_digits of 0 digits succeeds; the correction table is
		// indexed at -1 in C, which never matters: the value is 0.
		toParse = 0
	}
	if p = s.parseDigits(p, toParse, &vals[3]); p < 0 {
		return -3
	}
	correction := [...]int{100000, 10000, 1000, 100, 10}
	if toParse > 0 && toParse < 6 {
		vals[3] *= correction[toParse-1]
	}
	for isDigit(s.at(p)) {
		p++
	}
	if s.at(p) != 0 {
		return 1
	}
	return 0
}

type isoTime struct {
	vals     [4]int
	hasTZ    bool
	tzSecs   int
	tzMicros int
}

// parseISOTime parses a time at p whose end the caller gives (CPython's
// datetime passes one past the terminator, time passes the terminator).
func (s cstr) parseISOTime(p, end int, out *isoTime) int {
	tz := p
	for {
		c := s.at(tz)
		if c == 'Z' || c == '+' || c == '-' {
			break
		}
		tz++
		if tz >= end {
			break
		}
	}
	rv := s.parseHMS(p, tz, &out.vals)
	if rv < 0 {
		return rv
	}
	if tz == end {
		if rv == 1 {
			return -5
		}
		return 0
	}
	if s.at(tz) == 'Z' {
		out.hasTZ = true
		if s.at(tz+1) != 0 {
			return -5
		}
		return 1
	}
	sign := 1
	if s.at(tz) == '-' {
		sign = -1
	}
	var tzv [4]int
	rv = s.parseHMS(tz+1, end, &tzv)
	out.hasTZ = true
	out.tzSecs = sign * (tzv[0]*3600 + tzv[1]*60 + tzv[2])
	out.tzMicros = sign * tzv[3]
	if rv != 0 {
		return -5
	}
	return 1
}

func tzFromISO(t isoTime) (*Timezone, error) {
	if !t.hasTZ {
		return nil, nil
	}
	if t.tzSecs == 0 {
		return UTC, nil
	}
	d, err := TD(0, int64(t.tzSecs), int64(t.tzMicros))
	if err != nil {
		return nil, err
	}
	return NewTimezone(d, nil)
}

func invalidISO(s string) error {
	return valueErr("Invalid isoformat string: %s", ReprString(s))
}

// DateFromISOFormat is date.fromisoformat(s).
func DateFromISOFormat(s string) (Date, error) {
	b := cstr(s)
	n := len(b)
	if n != 7 && n != 8 && n != 10 {
		return Date{}, invalidISO(s)
	}
	var y, m, d int
	if b.parseISODate(uint(n), &y, &m, &d) < 0 {
		return Date{}, invalidISO(s)
	}
	return NewDate(y, m, d)
}

// TimeFromISOFormat is time.fromisoformat(s).
func TimeFromISOFormat(s string) (Time, error) {
	b := cstr(s)
	p := 0
	if b.at(0) == 'T' {
		p = 1
	}
	var t isoTime
	if b.parseISOTime(p, len(b), &t) < 0 {
		return Time{}, invalidISO(s)
	}
	tz, err := tzFromISO(t)
	if err != nil {
		return Time{}, err
	}
	return NewTime(t.vals[0], t.vals[1], t.vals[2], t.vals[3], tz, 0)
}

// DateTimeFromISOFormat is datetime.fromisoformat(s).
func DateTimeFromISOFormat(s string) (DateTime, error) {
	rs := []rune(s)
	if len(rs) < 7 {
		return DateTime{}, invalidISO(s)
	}
	// A non-ASCII character at one of the separator positions becomes 'T'.
	for _, pos := range []int{7, 8, 10} {
		if pos < len(rs) && rs[pos] > 0x7f {
			rs[pos] = 'T'
			break
		}
	}
	b := cstr(string(rs))
	n := len(b)
	sepLoc := b.separatorLocation(n)
	var y, m, d int
	rv := b.parseISODate(uint(int64(sepLoc)), &y, &m, &d)
	var t isoTime
	if rv == 0 && n > sepLoc {
		p := sepLoc + 1
		rv = b.parseISOTime(p, n, &t)
	}
	if rv < 0 {
		return DateTime{}, invalidISO(s)
	}
	tz, err := tzFromISO(t)
	if err != nil {
		return DateTime{}, err
	}
	return NewDateTime(y, m, d, t.vals[0], t.vals[1], t.vals[2], t.vals[3], tz, 0)
}
