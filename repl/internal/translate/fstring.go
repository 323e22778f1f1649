package translate

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// fpart is one part of an f-string: literal source text or a replacement field.
type fpart struct {
	lit     string // literal source text ({{ and }} already collapsed), when expr == ""
	isField bool
	expr    string // expression source
	exprOff int    // offset of expr in the whole source
	debug   string // text of "expr=" for self-documenting fields ("" if none)
	conv    string
	spec    []fpart
}

// parseFString splits an f-string body (source text between the quotes,
// starting at offset off in the full source) into parts.
func parseFString(body string, off int, inSpec bool) []fpart {
	var parts []fpart
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			parts = append(parts, fpart{lit: lit.String()})
			lit.Reset()
		}
	}
	i := 0
	for i < len(body) {
		c := body[i]
		switch {
		case c == '\\' && i+1 < len(body) && !inSpec:
			// keep escapes verbatim (a backslash never starts a field)
			if body[i+1] == '{' || body[i+1] == '}' {
				lit.WriteByte(c)
				i++
				continue
			}
			lit.WriteString(body[i : i+2])
			i += 2
		case c == '{' && i+1 < len(body) && body[i+1] == '{' && !inSpec:
			lit.WriteByte('{')
			i += 2
		case c == '}' && i+1 < len(body) && body[i+1] == '}' && !inSpec:
			lit.WriteByte('}')
			i += 2
		case c == '{':
			flush()
			j := fieldEnd(body, i+1)
			if j < i+1 {
				lit.WriteString(body[i:])
				i = len(body)
				continue
			}
			parts = append(parts, parseField(body[i+1:j], off+i+1))
			i = j + 1
		default:
			lit.WriteByte(c)
			i++
		}
	}
	flush()
	return parts
}

// fieldEnd returns the index of the '}' closing the field starting at i.
func fieldEnd(body string, i int) int {
	lx := &lexer{src: body, pos: i, line: 1}
	if err := lx.skipField(); err != nil {
		return len(body) - 1
	}
	return lx.pos - 1
}

// parseField parses the inside of {...}.
func parseField(f string, off int) fpart {
	depth := 0
	i := 0
	exprEnd := len(f)
	conv := ""
	specStart := -1
loop:
	for i < len(f) {
		c := f[i]
		switch {
		case c == '\'' || c == '"':
			lx := &lexer{src: f, pos: i, line: 1}
			if _, err := lx.scanString("", i); err != nil {
				break loop
			}
			i = lx.pos
			continue
		case i+1 < len(f) && isStrPrefix(f[i:i+1]) && (f[i+1] == '\'' || f[i+1] == '"') && (i == 0 || !isIdentPart(rune(f[i-1]))):
			lx := &lexer{src: f, pos: i + 1, line: 1}
			if _, err := lx.scanString(strings.ToLower(f[i:i+1]), i); err != nil {
				break loop
			}
			i = lx.pos
			continue
		case i+2 < len(f) && isStrPrefix(f[i:i+2]) && (f[i+2] == '\'' || f[i+2] == '"') && (i == 0 || !isIdentPart(rune(f[i-1]))):
			lx := &lexer{src: f, pos: i + 2, line: 1}
			if _, err := lx.scanString(strings.ToLower(f[i:i+2]), i); err != nil {
				break loop
			}
			i = lx.pos
			continue
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
		case depth == 0 && c == '!' && !strings.HasPrefix(f[i:], "!="):
			exprEnd = i
			j := i + 1
			for j < len(f) && f[j] != ':' {
				j++
			}
			conv = strings.TrimSpace(f[i+1 : j])
			if j < len(f) {
				specStart = j + 1
			}
			break loop
		case depth == 0 && c == ':':
			exprEnd = i
			specStart = i + 1
			break loop
		}
		i++
	}
	p := fpart{isField: true, conv: conv}
	expr := f[:exprEnd]
	// self-documenting "expr=" (not ==, !=, <=, >=)
	t := strings.TrimRight(expr, " \t\n")
	if strings.HasSuffix(t, "=") && !strings.HasSuffix(t, "==") && !strings.HasSuffix(t, "!=") &&
		!strings.HasSuffix(t, "<=") && !strings.HasSuffix(t, ">=") {
		p.debug = expr
		expr = t[:len(t)-1]
		if conv == "" && specStart < 0 {
			p.conv = "r"
		}
	}
	p.expr = expr
	p.exprOff = off
	if specStart >= 0 {
		p.spec = parseFString(f[specStart:], off+specStart, true)
	}
	return p
}

// piece is a decoded chunk of a string literal; nl reports that a real
// source newline followed it.
type piece struct {
	val string
	nl  bool
}

// decodePy decodes Python string-literal source text into its value, split at
// the real newlines of the source (so callers can keep line structure).
func decodePy(s string, raw bool) []piece {
	var out []piece
	var b strings.Builder
	i := 0
	for i < len(s) {
		c := s[i]
		if c == '\n' {
			b.WriteByte('\n')
			out = append(out, piece{val: b.String(), nl: true})
			b.Reset()
			i++
			continue
		}
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			i++
			continue
		}
		n := s[i+1]
		if raw {
			b.WriteByte('\\')
			if n == '\n' {
				b.WriteByte('\n')
				out = append(out, piece{val: b.String(), nl: true})
				b.Reset()
			} else {
				b.WriteByte(n)
			}
			i += 2
			continue
		}
		switch n {
		case '\n':
			out = append(out, piece{val: b.String(), nl: true})
			b.Reset()
			i += 2
		case '\\', '\'', '"':
			b.WriteByte(n)
			i += 2
		case 'n':
			b.WriteByte('\n')
			i += 2
		case 't':
			b.WriteByte('\t')
			i += 2
		case 'r':
			b.WriteByte('\r')
			i += 2
		case 'a':
			b.WriteByte('\a')
			i += 2
		case 'b':
			b.WriteByte('\b')
			i += 2
		case 'f':
			b.WriteByte('\f')
			i += 2
		case 'v':
			b.WriteByte('\v')
			i += 2
		case 'x', 'u', 'U':
			w := map[byte]int{'x': 2, 'u': 4, 'U': 8}[n]
			if i+2+w <= len(s) {
				if v, err := strconv.ParseUint(s[i+2:i+2+w], 16, 32); err == nil && utf8.ValidRune(rune(v)) {
					if n == 'x' {
						b.WriteRune(rune(v))
					} else {
						b.WriteRune(rune(v))
					}
					i += 2 + w
					continue
				}
			}
			b.WriteByte('\\')
			i++
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i + 1
			for j < len(s) && j < i+4 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			v, _ := strconv.ParseUint(s[i+1:j], 8, 32)
			b.WriteRune(rune(v))
			i = j
		default:
			b.WriteByte('\\')
			i++
		}
	}
	out = append(out, piece{val: b.String()})
	return out
}

// quoteStar returns a Starlark double-quoted literal for s.
func quoteStar(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		default:
			if r < 0x20 || r == 0x7f {
				b.WriteString(`\x`)
				b.WriteString(strconv.FormatUint(uint64(r)|0x100, 16)[1:])
			} else if r == utf8.RuneError {
				b.WriteString(`\ufffd`)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// fixEscapes doubles backslashes of escape sequences Starlark rejects but
// Python keeps literally (\d, \s, \w, \., \N{...}, \8 ...), in a non-raw
// string body. It reports whether it changed anything.
func fixEscapes(body string) (string, bool) {
	if !strings.Contains(body, `\`) {
		return body, false
	}
	var b strings.Builder
	changed := false
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c != '\\' || i+1 >= len(body) {
			b.WriteByte(c)
			continue
		}
		n := body[i+1]
		switch n {
		case '\n', '\\', '\'', '"', 'n', 't', 'r', 'a', 'b', 'f', 'v', '0', '1', '2', '3', '4', '5', '6', '7':
			b.WriteByte(c)
			b.WriteByte(n)
			i++
			continue
		case '\r':
			b.WriteByte(c)
			continue
		case 'x', 'u', 'U':
			w := map[byte]int{'x': 2, 'u': 4, 'U': 8}[n]
			ok := i+2+w <= len(body)
			if ok {
				v, err := strconv.ParseUint(body[i+2:i+2+w], 16, 32)
				ok = err == nil && (n == 'x' && v < 0x80 || n != 'x' && utf8.ValidRune(rune(v)))
			}
			if ok {
				b.WriteByte(c)
				b.WriteByte(n)
				i++
				continue
			}
			if n == 'x' && i+4 <= len(body) {
				// Python "\xe9" is U+00E9; Starlark's \x is a byte below 0x80
				if v, err := strconv.ParseUint(body[i+2:i+4], 16, 8); err == nil {
					b.WriteString(`\u00`)
					b.WriteString(strconv.FormatUint(v|0x100, 16)[1:])
					i += 3
					changed = true
					continue
				}
			}
		}
		b.WriteString(`\\`)
		changed = true
	}
	return b.String(), changed
}
