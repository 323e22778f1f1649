// Package csv is the algorithmic kernel of CPython 3.12's csv module: the
// dialect parameters and their checks, the reader's line-by-line state
// machine, the writer's quoting and escaping, and the logic of DictReader
// and DictWriter, with CPython's results and messages. The Sniffer is not
// provided.
//
// Register makes the module importable by code mode's interpreter: the
// wrapper in module.go exposes the kernel to Python code as CPython's csv
// module does.
package csv

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ErrorType names the Python exception class an Error stands for. CSVError
// is _csv.Error.
type ErrorType string

// The exception classes the kernel raises.
const (
	CSVError   ErrorType = "Error"
	TypeError  ErrorType = "TypeError"
	ValueError ErrorType = "ValueError"
)

// Error is a Python exception raised by the kernel.
type Error struct {
	Type ErrorType
	Msg  string
}

func (e *Error) Error() string { return string(e.Type) + ": " + e.Msg }

func errorf(t ErrorType, format string, args ...any) *Error {
	return &Error{t, fmt.Sprintf(format, args...)}
}

// Quoting is one of the csv.QUOTE_* constants, with CPython's values.
type Quoting int

// The quoting styles.
const (
	QuoteMinimal    Quoting = 0
	QuoteAll        Quoting = 1
	QuoteNonnumeric Quoting = 2
	QuoteNone       Quoting = 3
	QuoteStrings    Quoting = 4
	QuoteNotnull    Quoting = 5
)

// NoChar stands for None as quotechar or escapechar.
const NoChar rune = -1

// DefaultFieldLimit is csv.field_size_limit()'s initial value.
const DefaultFieldLimit = 128 * 1024

// Dialect holds the formatting parameters of a csv dialect.
type Dialect struct {
	Delimiter        rune
	QuoteChar        rune // NoChar for None
	EscapeChar       rune // NoChar for None
	DoubleQuote      bool
	SkipInitialSpace bool
	LineTerminator   string
	Quoting          Quoting
	Strict           bool
}

// The registered dialects.
var (
	Excel    = Dialect{Delimiter: ',', QuoteChar: '"', EscapeChar: NoChar, DoubleQuote: true, LineTerminator: "\r\n", Quoting: QuoteMinimal}
	ExcelTab = Dialect{Delimiter: '\t', QuoteChar: '"', EscapeChar: NoChar, DoubleQuote: true, LineTerminator: "\r\n", Quoting: QuoteMinimal}
	Unix     = Dialect{Delimiter: ',', QuoteChar: '"', EscapeChar: NoChar, DoubleQuote: true, LineTerminator: "\n", Quoting: QuoteAll}
)

// Dialects returns a new map from the names csv.list_dialects() gives to
// their dialects. (A function rather than a package-level map, so that
// importing the package builds nothing.)
func Dialects() map[string]Dialect {
	return map[string]Dialect{"excel": Excel, "excel-tab": ExcelTab, "unix": Unix}
}

// Char converts the str value of the dialect parameter name (delimiter,
// quotechar or escapechar) to a rune, with CPython's TypeError for a
// string that is not one character. (The wrapper reports non-strings:
// '"delimiter" must be string, not int'; None is NoChar where allowed.)
func Char(name, s string) (rune, error) {
	if utf8.RuneCountInString(s) != 1 {
		return 0, errorf(TypeError, "\"%s\" must be a 1-character string", name)
	}
	r, _ := utf8.DecodeRuneInString(s)
	return r, nil
}

// Validate makes the checks CPython makes when a dialect is built from its
// parameters. One rule comes before it: when quotechar=None is given and
// neither quoting nor a dialect is (csv.reader(f, quotechar=None); note
// that DictReader and DictWriter always pass a dialect), quoting defaults
// to QUOTE_NONE.
func (d Dialect) Validate() error {
	if d.Quoting < QuoteMinimal || d.Quoting > QuoteNotnull {
		return errorf(TypeError, "bad \"quoting\" value")
	}
	if d.QuoteChar == NoChar && d.Quoting != QuoteNone {
		return errorf(TypeError, "quotechar must be set if quoting enabled")
	}
	return nil
}

// IsSpace reports whether c is whitespace for Python's str methods.
func IsSpace(c rune) bool {
	switch c {
	case '\t', '\n', '\v', '\f', '\r', 0x1c, 0x1d, 0x1e, 0x1f, ' ', 0x85, 0xa0,
		0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000:
		return true
	}
	return c >= 0x2000 && c <= 0x200a
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
		case c < 0x7f:
			b.WriteRune(c)
		case unicode.IsPrint(c):
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

// ParseFloat converts s as Python's float(str) does, with its ValueError.
func ParseFloat(s string) (float64, error) {
	bad := func() (float64, error) {
		return 0, errorf(ValueError, "could not convert string to float: %s", ReprString(s))
	}
	t := strings.TrimFunc(s, IsSpace)
	var b strings.Builder
	for _, c := range t {
		if c > 0x7f {
			if !unicode.Is(unicode.Nd, c) {
				return bad()
			}
			c = '0' + digitValue(c)
		}
		b.WriteRune(c)
	}
	t = b.String()
	body := strings.TrimLeft(t, "+-")
	if len(t)-len(body) > 1 {
		return bad()
	}
	switch strings.ToLower(body) {
	case "inf", "infinity", "nan":
		v, _ := strconv.ParseFloat(t, 64)
		return v, nil
	}
	if !validFloatBody(body) {
		return bad()
	}
	v, err := strconv.ParseFloat(strings.ReplaceAll(t, "_", ""), 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return v, nil
		}
		return bad()
	}
	return v, nil
}

// digitValue returns the value of a Unicode decimal digit: the Nd ranges
// run from a zero to a nine, ten at a time.
func digitValue(c rune) rune {
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

// validFloatBody checks digits ["." digits] [("e"|"E") [sign] digits]
// where a digit run may hold single underscores between digits, and at
// least one digit stands before or after the point.
func validFloatBody(s string) bool {
	digits := func(i int) (int, bool) {
		start := i
		for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '_') {
			if s[i] == '_' && (i == start || i+1 >= len(s) || s[i+1] < '0' || s[i+1] > '9') {
				return i, false
			}
			i++
		}
		return i, true
	}
	i, ok := digits(0)
	if !ok {
		return false
	}
	n := i
	if i < len(s) && s[i] == '.' {
		j, ok := digits(i + 1)
		if !ok {
			return false
		}
		n += j - i - 1
		i = j
	}
	if n == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j, ok := digits(i)
		if !ok || j == i {
			return false
		}
		i = j
	}
	return i == len(s)
}
