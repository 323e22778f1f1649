package jsonschema

import (
	"net/netip"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Draft 07 asserts "format" (draft 2020-12 makes it an annotation). The
// checks below follow the RFCs each format names, with the leniencies of
// the validator the runtime used before (santhosh-tekuri/jsonschema/v6),
// so that a draft-07 tool schema accepts exactly what it accepted then:
// the two-character fields of a time or an IPv4 decimal are read as Go's
// strconv.Atoi reads them ("+1" is 1, "-0" is 0), and an email address
// and a host name are checked by the length and character rules of RFC
// 5321 and RFC 1123 without comments or internationalized labels. Each
// check is compared with that validator on a table of tricky strings and
// by the differential fuzz target. A format not listed here is unknown
// and not asserted, as the reference does.
var formatChecks = map[string]func(string) bool{
	"date":                  isDate,
	"time":                  isTime,
	"date-time":             isDateTime,
	"duration":              isDuration,
	"period":                isPeriod,
	"email":                 isEmail,
	"hostname":              isHostname,
	"ipv4":                  isIPv4,
	"ipv6":                  isIPv6,
	"uuid":                  isUUID,
	"uri":                   isURI,
	"iri":                   isURI,
	"uri-reference":         isURIReference,
	"iri-reference":         isURIReference,
	"json-pointer":          isJSONPointer,
	"relative-json-pointer": isRelativeJSONPointer,
	"semver":                isSemver,
	"regex":                 isRegex,
	"uri-template":          isURITemplate,
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// atoi reads s as strconv.Atoi does (an optional sign, decimal digits)
// and requires a non-negative result.
func atoi(s string) (int, bool) {
	n, err := strconv.Atoi(s)
	return n, err == nil && n >= 0
}

// isDate: RFC 3339 full-date, the day within its month (leap years
// counted).
func isDate(s string) bool {
	_, err := time.Parse(time.DateOnly, s)
	return err == nil
}

// isTime: RFC 3339 full-time (partial-time and time-offset); a leap
// second (second 60) only at 23:59 UTC once the offset is applied.
func isTime(s string) bool {
	if len(s) < 9 || s[2] != ':' || s[5] != ':' {
		return false
	}
	h, ok1 := atoi(s[0:2])
	m, ok2 := atoi(s[3:5])
	sec, ok3 := atoi(s[6:8])
	if !ok1 || !ok2 || !ok3 || h > 23 || m > 59 || sec > 60 {
		return false
	}
	rest := s[8:]
	if frac, ok := strings.CutPrefix(rest, "."); ok {
		n := 0
		for n < len(frac) && isDigit(frac[n]) {
			n++
		}
		if n == 0 {
			return false
		}
		rest = frac[n:]
	}
	if rest != "z" && rest != "Z" {
		if len(rest) != 6 || rest[3] != ':' {
			return false
		}
		var sign int
		switch rest[0] {
		case '+':
			sign = -1
		case '-':
			sign = 1
		default:
			return false
		}
		oh, ok1 := atoi(rest[1:3])
		om, ok2 := atoi(rest[4:6])
		if !ok1 || !ok2 || oh > 23 || om > 59 {
			return false
		}
		utc := h*60 + m + sign*(oh*60+om)
		if utc < 0 {
			utc += 24 * 60
		}
		h, m = utc/60, utc%60
	}
	return sec < 60 || h == 23 && m == 59
}

// isDateTime: RFC 3339 date-time, "T" or "t" between the parts.
func isDateTime(s string) bool {
	return len(s) >= 20 && (s[10] == 'T' || s[10] == 't') && isDate(s[:10]) && isTime(s[11:])
}

// isDuration: RFC 3339 appendix A duration: P, then weeks alone, or date
// units Y M D in order and, after T, time units H M S in order, each
// after at least one digit.
func isDuration(s string) bool {
	s, ok := strings.CutPrefix(s, "P")
	if !ok || s == "" {
		return false
	}
	if w, ok := strings.CutSuffix(s, "W"); ok {
		if w == "" {
			return false
		}
		for i := range len(w) {
			if !isDigit(w[i]) {
				return false
			}
		}
		return true
	}
	parts := strings.Split(s, "T")
	if len(parts) > 2 || len(parts) == 2 && parts[1] == "" {
		return false
	}
	for i, p := range parts {
		units := "YMD"
		if i == 1 {
			units = "HMS"
		}
		for p != "" {
			n := 0
			for n < len(p) && isDigit(p[n]) {
				n++
			}
			if n == 0 || n == len(p) {
				return false
			}
			j := strings.IndexByte(units, p[n])
			if j < 0 {
				return false
			}
			units = units[j+1:]
			p = p[n+1:]
		}
	}
	return true
}

// isPeriod: an ISO 8601 time interval of RFC 3339 appendix A: start/end,
// start/duration or duration/end.
func isPeriod(s string) bool {
	start, end, ok := strings.Cut(s, "/")
	if !ok {
		return false
	}
	if strings.HasPrefix(start, "P") {
		return isDuration(start) && isDateTime(end)
	}
	if !isDateTime(start) {
		return false
	}
	if strings.HasPrefix(end, "P") {
		return isDuration(end)
	}
	return isDateTime(end)
}

// isEmail: at most 254 octets; a local part of at most 64 octets, either
// quoted (no backslash or quote inside) or dot-separated atoms of RFC
// 5322 atext; a domain that is a host name or a bracketed IPv4 or
// "IPv6:" address literal (RFC 5321 section 4.1.3).
func isEmail(s string) bool {
	if len(s) > 254 {
		return false
	}
	at := strings.LastIndexByte(s, '@')
	if at < 0 {
		return false
	}
	local, domain := s[:at], s[at+1:]
	if len(local) > 64 {
		return false
	}
	if len(local) > 1 && local[0] == '"' && local[len(local)-1] == '"' {
		if strings.ContainsAny(local[1:len(local)-1], `\"`) {
			return false
		}
	} else {
		if strings.HasPrefix(local, ".") || strings.HasSuffix(local, ".") || strings.Contains(local, "..") {
			return false
		}
		for i := range len(local) {
			c := local[i]
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c) || strings.IndexByte(".!#$%&'*+-/=?^_`{|}~", c) >= 0) {
				return false
			}
		}
	}
	if len(domain) >= 2 && domain[0] == '[' && domain[len(domain)-1] == ']' {
		lit := domain[1 : len(domain)-1]
		if v6, ok := strings.CutPrefix(lit, "IPv6:"); ok {
			return isIPv6(v6)
		}
		return isIPv4(lit)
	}
	return isHostname(domain)
}

// isHostname: RFC 1123 host name: at most 253 octets without a final
// dot, labels of 1 to 63 letters, digits and hyphens, no label starting
// or ending with a hyphen.
func isHostname(s string) bool {
	s = strings.TrimSuffix(s, ".")
	if len(s) > 253 {
		return false
	}
	for label := range strings.SplitSeq(s, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for i := range len(label) {
			c := label[i]
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c) || c == '-') {
				return false
			}
		}
	}
	return true
}

// isIPv4: RFC 2673 dotted-quad: four decimals 0-255 without leading
// zeros.
func isIPv4(s string) bool {
	parts := strings.Split(s, ".")
	if len(parts) != 4 {
		return false
	}
	for _, p := range parts {
		if len(p) > 1 && p[0] == '0' {
			return false
		}
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || n > 255 {
			return false
		}
	}
	return true
}

// isIPv6: RFC 4291 section 2.2 text form (an embedded IPv4 tail allowed),
// no zone.
func isIPv6(s string) bool {
	if !strings.Contains(s, ":") {
		return false
	}
	a, err := netip.ParseAddr(s)
	return err == nil && a.Zone() == ""
}

// isUUID: RFC 4122 string form, hex groups of 8-4-4-4-12, any case.
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := range len(s) {
		c := s[i]
		if i == 8 || i == 13 || i == 18 || i == 23 {
			if c != '-' {
				return false
			}
			continue
		}
		if !(isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// isURI: an absolute URI (RFC 3986), as Go's net/url parses it, an IPv6
// host in brackets.
func isURI(s string) bool {
	u, err := parseURI(s)
	return err == nil && u.IsAbs()
}

// isURIReference: a URI reference; a backslash is never allowed.
func isURIReference(s string) bool {
	_, err := uriReference(s)
	return err == nil
}

// isJSONPointer: RFC 6901: empty, or "/"-prefixed tokens in which "~" is
// followed by "0" or "1".
func isJSONPointer(s string) bool {
	if s == "" {
		return true
	}
	if s[0] != '/' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] == '~' && (i+1 == len(s) || s[i+1] != '0' && s[i+1] != '1') {
			return false
		}
	}
	return true
}

// isRelativeJSONPointer: a non-negative integer without leading zeros,
// then "#" or a JSON pointer (draft-handrews-relative-json-pointer-01).
func isRelativeJSONPointer(s string) bool {
	n := 0
	for n < len(s) && isDigit(s[n]) {
		n++
	}
	if n == 0 || n > 1 && s[0] == '0' {
		return false
	}
	return s[n:] == "#" || isJSONPointer(s[n:])
}

// isSemver: Semantic Versioning 2.0.0's grammar: three numbers without
// leading zeros, dot-separated pre-release identifiers (numeric ones
// without leading zeros) after "-", build identifiers after "+".
func isSemver(s string) bool {
	ident := func(id string) (numeric, ok bool) {
		if id == "" {
			return false, false
		}
		numeric = true
		for i := range len(id) {
			c := id[i]
			switch {
			case isDigit(c):
			case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-':
				numeric = false
			default:
				return false, false
			}
		}
		return numeric, true
	}
	if i := strings.IndexByte(s, '+'); i >= 0 {
		for id := range strings.SplitSeq(s[i+1:], ".") {
			if _, ok := ident(id); !ok {
				return false
			}
		}
		s = s[:i]
	}
	if i := strings.IndexByte(s, '-'); i >= 0 {
		for id := range strings.SplitSeq(s[i+1:], ".") {
			numeric, ok := ident(id)
			if !ok || numeric && len(id) > 1 && id[0] == '0' {
				return false
			}
		}
		s = s[:i]
	}
	core := strings.Split(s, ".")
	if len(core) != 3 {
		return false
	}
	for _, n := range core {
		if n == "" || len(n) > 1 && n[0] == '0' {
			return false
		}
		for i := range len(n) {
			if !isDigit(n[i]) {
				return false
			}
		}
	}
	return true
}

// isRegex: a regular expression in the syntax "pattern" uses (Go RE2).
func isRegex(s string) bool {
	_, err := regexp.Compile(s)
	return err == nil
}

// isURITemplate: a URI reference as net/url parses it whose path, where
// net/url keeps a raw form (RawPath: the path's escaping is not the
// default one), has in each percent-decoded segment braces that open and
// close in turn. This is the reference's check, narrower than RFC 6570:
// a template whose path net/url escapes the default way is accepted on
// parsing alone.
func isURITemplate(s string) bool {
	u, err := parseURI(s)
	if err != nil {
		return false
	}
	for seg := range strings.SplitSeq(u.RawPath, "/") {
		seg, err := url.PathUnescape(seg)
		if err != nil {
			return false
		}
		open := false
		for i := range len(seg) {
			switch seg[i] {
			case '{':
				if open {
					return false
				}
				open = true
			case '}':
				if !open {
					return false
				}
				open = false
			}
		}
		if open {
			return false
		}
	}
	return true
}
