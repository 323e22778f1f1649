package datetime

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode"
)

// timeRE holds the regular expressions of _strptime.TimeRE in the C
// locale, with local time being UTC (time.tzname ("UTC", "UTC")), as
// Python source, by directive. It is built on first use (timeREOnce), not
// at package initialisation.
var (
	timeREOnce sync.Once
	timeRE     map[byte]string
)

// setupTimeRE builds timeRE: the simple directives, then %c, %x and %X,
// which expand to simple ones.
func setupTimeRE() {
	timeRE = map[byte]string{
		'd': `(?P<d>3[0-1]|[1-2]\d|0[1-9]|[1-9]| [1-9])`,
		'f': `(?P<f>[0-9]{1,6})`,
		'H': `(?P<H>2[0-3]|[0-1]\d|\d)`,
		'I': `(?P<I>1[0-2]|0[1-9]|[1-9])`,
		'G': `(?P<G>\d\d\d\d)`,
		'j': `(?P<j>36[0-6]|3[0-5]\d|[1-2]\d\d|0[1-9]\d|00[1-9]|[1-9]\d|0[1-9]|[1-9])`,
		'm': `(?P<m>1[0-2]|0[1-9]|[1-9])`,
		'M': `(?P<M>[0-5]\d|\d)`,
		'S': `(?P<S>6[0-1]|[0-5]\d|\d)`,
		'U': `(?P<U>5[0-3]|[0-4]\d|\d)`,
		'w': `(?P<w>[0-6])`,
		'u': `(?P<u>[1-7])`,
		'V': `(?P<V>5[0-3]|0[1-9]|[1-4]\d|\d)`,
		'y': `(?P<y>\d\d)`,
		'Y': `(?P<Y>\d\d\d\d)`,
		'z': `(?P<z>[+-]\d\d:?[0-5]\d(:?[0-5]\d(\.\d{1,6})?)?|(?-i:Z))`,
		'A': `(?P<A>wednesday|thursday|saturday|tuesday|monday|friday|sunday)`,
		'a': `(?P<a>mon|tue|wed|thu|fri|sat|sun)`,
		'B': `(?P<B>september|february|november|december|january|october|august|march|april|june|july|may)`,
		'b': `(?P<b>jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)`,
		'p': `(?P<p>am|pm)`,
		'Z': `(?P<Z>utc|gmt)`,
		'%': `%`,
		'W': `(?P<W>5[0-3]|[0-4]\d|\d)`,
	}
	timeRE['c'] = mustPattern("%a %b %d %H:%M:%S %Y")
	timeRE['x'] = mustPattern("%m/%d/%y")
	timeRE['X'] = mustPattern("%H:%M:%S")
}

func mustPattern(f string) string {
	p, err := strptimePattern(f)
	if err != nil {
		panic(err)
	}
	return p
}

func isPySpace(c rune) bool {
	switch c {
	case '\t', '\n', '\v', '\f', '\r', 0x1c, 0x1d, 0x1e, 0x1f, ' ', 0x85, 0xa0,
		0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000:
		return true
	}
	return c >= 0x2000 && c <= 0x200a
}

type badDirective struct{ c rune }

type strayPercent struct{}

func (badDirective) Error() string { return "bad directive" }
func (strayPercent) Error() string { return "stray %" }

// strptimePattern is TimeRE.pattern(format): the Python regex source.
// timeRE must have been built.
func strptimePattern(format string) (string, error) {
	var esc strings.Builder
	rs := []rune(format)
	for i := 0; i < len(rs); i++ {
		c := rs[i]
		if strings.ContainsRune(`\.^$*+?(){}[]|`, c) {
			esc.WriteByte('\\')
			esc.WriteRune(c)
			continue
		}
		if isPySpace(c) {
			for i+1 < len(rs) && isPySpace(rs[i+1]) {
				i++
			}
			esc.WriteString(`\s+`)
			continue
		}
		esc.WriteRune(c)
	}
	f := []rune(esc.String())
	var out strings.Builder
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			out.WriteRune(f[i])
			continue
		}
		if i+1 >= len(f) {
			return "", strayPercent{}
		}
		d := f[i+1]
		re, ok := "", false
		if d < 128 {
			re, ok = timeRE[byte(d)]
		}
		if !ok {
			return "", badDirective{d}
		}
		out.WriteString(re)
		i++
	}
	return out.String(), nil
}

// goRegexp translates the Python pattern to Go syntax: \d and \s are
// Unicode in Python.
func goRegexp(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] == '\\' && i+1 < len(p) {
			switch p[i+1] {
			case 'd':
				b.WriteString(`\p{Nd}`)
			case 's':
				b.WriteString(`[\t\n\v\f\r\x{1c}-\x{1f} \x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}]`)
			default:
				b.WriteString(p[i : i+2])
			}
			i++
			continue
		}
		b.WriteByte(p[i])
	}
	return b.String()
}

// groupCheck reports Python's re.error for a group name defined twice.
func groupCheck(p string) error {
	seen := map[string]int{}
	group := 0
	for i := 0; i < len(p); i++ {
		switch {
		case p[i] == '\\':
			i++
		case p[i] == '(' && strings.HasPrefix(p[i:], "(?P<"):
			group++
			end := strings.IndexByte(p[i:], '>')
			name := p[i+4 : i+end]
			if g, ok := seen[name]; ok {
				return &Error{"re.error", fmt.Sprintf("redefinition of group name %s as group %d; was group %d at position %d", ReprString(name), group, g, len([]rune(p[:i+4])))}
			}
			seen[name] = group
		case p[i] == '(' && !strings.HasPrefix(p[i:], "(?"):
			group++
		}
	}
	return nil
}

var (
	strptimeMu    sync.Mutex
	strptimeCache map[string]*regexp.Regexp
)

func compileStrptime(format string) (*regexp.Regexp, error) {
	strptimeMu.Lock()
	defer strptimeMu.Unlock()
	if re, ok := strptimeCache[format]; ok {
		return re, nil
	}
	timeREOnce.Do(setupTimeRE)
	p, err := strptimePattern(format)
	if err != nil {
		switch e := err.(type) {
		case badDirective:
			c := string(e.c)
			if e.c == '\\' {
				c = "%"
			}
			return nil, valueErr("'%s' is a bad directive in format '%s'", c, format)
		case strayPercent:
			return nil, valueErr("stray %% in format '%s'", format)
		}
		return nil, err
	}
	if err := groupCheck(p); err != nil {
		return nil, err
	}
	re, err := regexp.Compile(`(?i)^(?:` + goRegexp(p) + `)`)
	if err != nil {
		return nil, &Error{"Unsupported", "strptime format: " + err.Error()}
	}
	if strptimeCache == nil || len(strptimeCache) > 64 {
		strptimeCache = map[string]*regexp.Regexp{}
	}
	strptimeCache[format] = re
	return re, nil
}

// pyInt converts digits as int() does (Unicode decimal digits too).
func pyInt(s string) (int, error) {
	t := strings.TrimFunc(s, isPySpace)
	if t == "" {
		return 0, valueErr("invalid literal for int() with base 10: %s", ReprString(s))
	}
	v := 0
	for _, c := range t {
		if !unicode.Is(unicode.Nd, c) {
			return 0, valueErr("invalid literal for int() with base 10: %s", ReprString(s))
		}
		v = v*10 + int(digitValue(c))
		if v > 1<<40 {
			return 0, &Error{"Unsupported", "strptime number too large"}
		}
	}
	return v, nil
}

func digitValue(c rune) rune {
	if c >= '0' && c <= '9' {
		return c - '0'
	}
	for _, r := range unicode.Nd.R16 {
		if rune(r.Lo) <= c && c <= rune(r.Hi) {
			return (c - rune(r.Lo)) % 10
		}
	}
	for _, r := range unicode.Nd.R32 {
		if rune(r.Lo) <= c && c <= rune(r.Hi) {
			return (c - rune(r.Lo)) % 10
		}
	}
	return 0
}

var fullMonthsLower = []string{"", "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"}
var shortMonthsLower = []string{"", "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"}
var fullDaysLower = []string{"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}
var shortDaysLower = []string{"mon", "tue", "wed", "thu", "fri", "sat", "sun"}

func indexOf(list []string, s, orig string) (int, error) {
	for i, v := range list {
		if v == s {
			return i, nil
		}
	}
	return 0, valueErr("%s is not in list", ReprString(s))
}

// Strptime is datetime.strptime(s, format), local time being UTC.
func Strptime(s, format string) (DateTime, error) {
	re, err := compileStrptime(format)
	if err != nil {
		return DateTime{}, err
	}
	m := re.FindStringSubmatchIndex(s)
	if m == nil {
		return DateTime{}, valueErr("time data %s does not match format %s", ReprString(s), ReprString(format))
	}
	if m[1] != len(s) {
		return DateTime{}, valueErr("unconverted data remains: %s", s[m[1]:])
	}
	found := map[string]string{}
	var keys []string
	for i, name := range re.SubexpNames() {
		if name == "" || m[2*i] < 0 {
			continue
		}
		found[name] = s[m[2*i]:m[2*i+1]]
		keys = append(keys, name)
	}
	year, isoYear, isoWeek, weekOfYear, weekday, julian := -1, -1, -1, -1, -1, -1
	haveYear := false
	month, day := 1, 1
	hour, minute, second, fraction := 0, 0, 0, 0
	weekStart := 0
	hasOff := false
	gmtoff, gmtoffFrac := 0, 0
	for _, k := range keys {
		v := found[k]
		var err error
		switch k {
		case "y":
			if year, err = pyInt(v); err == nil {
				if year <= 68 {
					year += 2000
				} else {
					year += 1900
				}
				haveYear = true
			}
		case "Y":
			year, err = pyInt(v)
			haveYear = true
		case "G":
			isoYear, err = pyInt(v)
		case "m":
			month, err = pyInt(v)
		case "B":
			month, err = indexOf(fullMonthsLower, strings.ToLower(v), v)
		case "b":
			month, err = indexOf(shortMonthsLower, strings.ToLower(v), v)
		case "d":
			day, err = pyInt(v)
		case "H":
			hour, err = pyInt(v)
		case "I":
			if hour, err = pyInt(v); err == nil {
				switch strings.ToLower(found["p"]) {
				case "", "am":
					if hour == 12 {
						hour = 0
					}
				case "pm":
					if hour != 12 {
						hour += 12
					}
				}
			}
		case "M":
			minute, err = pyInt(v)
		case "S":
			second, err = pyInt(v)
		case "f":
			fraction, err = pyInt(v + strings.Repeat("0", 6-len([]rune(v))))
		case "A":
			weekday, err = indexOf(fullDaysLower, strings.ToLower(v), v)
		case "a":
			weekday, err = indexOf(shortDaysLower, strings.ToLower(v), v)
		case "w":
			if weekday, err = pyInt(v); err == nil {
				if weekday == 0 {
					weekday = 6
				} else {
					weekday--
				}
			}
		case "u":
			if weekday, err = pyInt(v); err == nil {
				weekday--
			}
		case "j":
			julian, err = pyInt(v)
		case "U", "W":
			weekOfYear, err = pyInt(v)
			if k == "U" {
				weekStart = 6
			} else {
				weekStart = 0
			}
		case "V":
			isoWeek, err = pyInt(v)
		case "z":
			hasOff = true
			gmtoff, gmtoffFrac, err = parseZ(v)
		}
		if err != nil {
			return DateTime{}, err
		}
	}
	if !haveYear && isoYear >= 0 {
		if isoWeek < 0 || weekday < 0 {
			return DateTime{}, valueErr("ISO year directive '%%G' must be used with the ISO week directive '%%V' and a weekday directive ('%%A', '%%a', '%%w', or '%%u').")
		}
		if julian >= 0 {
			return DateTime{}, valueErr("Day of the year directive '%%j' is not compatible with ISO year directive '%%G'. Use '%%Y' instead.")
		}
	} else if weekOfYear < 0 && isoWeek >= 0 {
		if weekday < 0 {
			return DateTime{}, valueErr("ISO week directive '%%V' must be used with the ISO year directive '%%G' and a weekday directive ('%%A', '%%a', '%%w', or '%%u').")
		}
		return DateTime{}, valueErr("ISO week directive '%%V' is incompatible with the year directive '%%Y'. Use the ISO year '%%G' instead.")
	}
	leapYearFix := false
	if !haveYear && month == 2 && day == 29 {
		year, leapYearFix = 1904, true
	} else if !haveYear {
		year = 1900
	}
	haveJulian := julian >= 0
	if !haveJulian && weekday >= 0 {
		if weekOfYear >= 0 {
			first, err := NewDate(year, 1, 1)
			if err != nil {
				return DateTime{}, err
			}
			fw, dow := first.Weekday(), weekday
			if weekStart != 0 {
				fw = (fw + 1) % 7
				dow = (dow + 1) % 7
			}
			week0 := (7 - fw) % 7
			if weekOfYear == 0 {
				julian = 1 + dow - fw
			} else {
				julian = 1 + week0 + 7*(weekOfYear-1) + dow
			}
			haveJulian = true
		} else if isoYear >= 0 && isoWeek >= 0 {
			d, err := DateFromISOCalendar(isoYear, isoWeek, weekday+1)
			if err != nil {
				return DateTime{}, err
			}
			year, month, day = d.Year, d.Month, d.Day
		}
		if haveJulian && julian <= 0 {
			year--
			if IsLeap(year) {
				julian += 366
			} else {
				julian += 365
			}
		}
	}
	if !haveJulian {
		if _, err := NewDate(year, month, day); err != nil {
			return DateTime{}, err
		}
		if _, err := NewDate(year, 1, 1); err != nil {
			return DateTime{}, err
		}
	} else {
		first, err := NewDate(year, 1, 1)
		if err != nil {
			return DateTime{}, err
		}
		d, err := DateFromOrdinal(julian - 1 + first.Ordinal())
		if err != nil {
			return DateTime{}, err
		}
		year, month, day = d.Year, d.Month, d.Day
	}
	if weekday < 0 {
		if _, err := NewDate(year, month, day); err != nil {
			return DateTime{}, err
		}
	}
	if leapYearFix {
		year = 1900
	}
	var tz *Timezone
	if hasOff {
		delta, err := TD(0, int64(gmtoff), int64(gmtoffFrac))
		if err != nil {
			return DateTime{}, err
		}
		var name *string
		if n, ok := found["Z"]; ok && n != "" {
			name = &n
		}
		if tz, err = NewTimezone(delta, name); err != nil {
			return DateTime{}, err
		}
	}
	return NewDateTime(year, month, day, hour, minute, second, fraction, tz, 0)
}

// parseZ decodes a %z match as _strptime does.
func parseZ(z string) (int, int, error) {
	if z == "Z" {
		return 0, 0, nil
	}
	orig := z
	r := []rune(z)
	if len(r) > 3 && r[3] == ':' {
		r = append(r[:3:3], r[4:]...)
		if len(r) > 5 {
			if r[5] != ':' {
				return 0, 0, valueErr("Inconsistent use of : in %s", orig)
			}
			r = append(r[:5:5], r[6:]...)
		}
	}
	sub := func(i, j int) string {
		if i > len(r) {
			i = len(r)
		}
		if j > len(r) {
			j = len(r)
		}
		return string(r[i:j])
	}
	hours, err := pyInt(sub(1, 3))
	if err != nil {
		return 0, 0, err
	}
	minutes, err := pyInt(sub(3, 5))
	if err != nil {
		return 0, 0, err
	}
	seconds := 0
	if s := sub(5, 7); s != "" {
		if seconds, err = pyInt(s); err != nil {
			return 0, 0, err
		}
	}
	off := hours*3600 + minutes*60 + seconds
	rem := sub(8, len(r))
	frac, err := pyInt(rem + strings.Repeat("0", 6-len([]rune(rem))))
	if err != nil {
		return 0, 0, err
	}
	if strings.HasPrefix(z, "-") {
		off, frac = -off, -frac
	}
	return off, frac, nil
}
