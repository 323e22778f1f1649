package syntax

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
)

// number returns the value of a NUMBER token.
func (p *parser) number(t *token) any {
	s := p.text(t)
	if strings.IndexByte(s, '_') >= 0 {
		s = strings.ReplaceAll(s, "_", "")
	}
	last := s[len(s)-1]
	if last == 'j' || last == 'J' {
		f, _ := strconv.ParseFloat(s[:len(s)-1], 64)
		return complex(0, f)
	}
	base := 10
	digits := s
	if len(s) > 1 && s[0] == '0' {
		switch s[1] {
		case 'x', 'X':
			base, digits = 16, s[2:]
		case 'o', 'O':
			base, digits = 8, s[2:]
		case 'b', 'B':
			base, digits = 2, s[2:]
		}
	}
	if base == 10 && strings.ContainsAny(s, ".eE") {
		f, _ := strconv.ParseFloat(s, 64)
		return f
	}
	if v, err := strconv.ParseInt(digits, base, 64); err == nil {
		return v
	}
	b, ok := new(big.Int).SetString(digits, base)
	if !ok {
		// Not reached: the tokenizer checked the digits.
		return int64(0)
	}
	return b
}

// strPiece is one string token's decoded value, or an f-string's parts.
type strPiece struct {
	tok   *token
	u     bool   // a u"" string
	fvals []Expr // an f-string's parts
	isF   bool
	value string // a plain string's value
}

// strings parses adjacent string and f-string literals into one
// Constant or JoinedStr, as CPython's _PyPegen_concatenate_strings.
func (p *parser) strings() Expr {
	start := p.tok()
	if start.kind == tString {
		if k := p.peekKind(1); k != tString && k != tFStart {
			// One plain string, the common case.
			p.next()
			v, isBytes, u := p.decodeStringToken(start)
			c := p.slabs.constant.new()
			if isBytes {
				*c = Constant{Pos: tokPos(start), Value: Bytes(v)}
			} else {
				*c = Constant{Pos: tokPos(start), Value: v}
				if u {
					c.Kind = "u"
				}
			}
			return c
		}
	}
	var pieces []strPiece
	sawBytes, sawStr := false, false
	for {
		t := p.tok()
		if t.kind == tString {
			p.next()
			v, isBytes, u := p.decodeStringToken(t)
			pieces = append(pieces, strPiece{tok: t, u: u, value: v})
			if isBytes {
				sawBytes = true
			} else {
				sawStr = true
			}
		} else if t.kind == tFStart {
			vals := p.fstring()
			pieces = append(pieces, strPiece{tok: t, isF: true, fvals: vals})
			sawStr = true
		} else {
			break
		}
	}
	pos := p.span(start)
	if sawBytes && sawStr {
		p.tok()
		p.actLast("cannot mix bytes and nonbytes literals")
	}
	if sawBytes {
		var b strings.Builder
		for _, pc := range pieces {
			b.WriteString(pc.value)
		}
		return &Constant{Pos: pos, Value: Bytes(b.String())}
	}
	fFound := false
	for _, pc := range pieces {
		if pc.isF {
			fFound = true
		}
	}
	if !fFound {
		if len(pieces) == 1 {
			c := &Constant{Pos: pos, Value: pieces[0].value}
			if pieces[0].u {
				c.Kind = "u"
			}
			return c
		}
		var b strings.Builder
		for _, pc := range pieces {
			b.WriteString(pc.value)
		}
		c := &Constant{Pos: pos, Value: b.String()}
		if pieces[0].u {
			c.Kind = "u"
		}
		return c
	}
	// Flatten, then fold runs of constants.
	var flat []Expr
	for _, pc := range pieces {
		if pc.isF {
			flat = append(flat, pc.fvals...)
			continue
		}
		c := &Constant{Pos: tokPos(pc.tok), Value: pc.value}
		if pc.u {
			c.Kind = "u"
		}
		flat = append(flat, c)
	}
	var values []Expr
	for i := 0; i < len(flat); i++ {
		c, ok := flat[i].(*Constant)
		if !ok {
			values = append(values, flat[i])
			continue
		}
		j := i + 1
		for j < len(flat) {
			if _, ok := flat[j].(*Constant); !ok {
				break
			}
			j++
		}
		if j > i+1 {
			var b strings.Builder
			for k := i; k < j; k++ {
				b.WriteString(flat[k].(*Constant).Value.(string))
			}
			last := flat[j-1].(*Constant)
			c = &Constant{Pos: joinPos(c.Pos, last.Pos), Value: b.String(), Kind: c.Kind}
		}
		i = j - 1
		if c.Value.(string) == "" {
			continue
		}
		values = append(values, c)
	}
	return &JoinedStr{Pos: pos, Values: values}
}

// stringPrefix splits a string token into its prefix flags, quote length
// and body.
func stringParts(s string) (raw, isBytes, u bool, body string) {
	i := 0
	for ; i < len(s) && s[i] != '\'' && s[i] != '"'; i++ {
		switch s[i] {
		case 'r', 'R':
			raw = true
		case 'b', 'B':
			isBytes = true
		case 'u':
			u = true
		}
	}
	q := 1
	if len(s)-i >= 6 && s[i+1] == s[i] && s[i+2] == s[i] {
		q = 3
	}
	return raw, isBytes, u, s[i+q : len(s)-q]
}

// decodeStringToken decodes a STRING token.
func (p *parser) decodeStringToken(t *token) (string, bool, bool) {
	raw, isBytes, u, body := stringParts(p.text(t))
	if isBytes {
		for i := 0; i < len(body); i++ {
			if body[i] >= 0x80 {
				p.actAt(t, "bytes can only contain ASCII literal characters")
			}
		}
		if raw {
			return body, true, false
		}
		v, err, warn := decodeBytesEscapesW(body)
		if err != "" {
			p.actAt(t, "(value error) "+err)
		}
		p.warnAt(t, warn)
		return v, true, false
	}
	if raw || strings.IndexByte(body, '\\') < 0 {
		return body, false, u
	}
	v, err, warn := decodeUnicodeEscapesW(body)
	if err != "" {
		p.actAt(t, "(unicode error) "+err)
	}
	p.warnAt(t, warn)
	return v, false, u
}

// decodeUnicodeEscapesW decodes the escapes of a str literal's body. On
// error it returns CPython's message, whose positions count as CPython's
// decoder does: a non-ASCII character counts as its 10-byte \UXXXXXXXX
// form, a backslash before one or at the end as 6 (\u005c). It also
// returns the SyntaxWarning CPython gives for the literal's first invalid
// escape.
func decodeUnicodeEscapesW(s string) (string, string, string) {
	warn := ""
	var b strings.Builder
	b.Grow(len(s))
	vpos := 0 // position as CPython's decoder sees it
	for i := 0; i < len(s); {
		c := s[i]
		if c != '\\' {
			if c < 0x80 {
				b.WriteByte(c)
				i++
				vpos++
				continue
			}
			_, size := utf8.DecodeRuneInString(s[i:])
			b.WriteString(s[i : i+size])
			i += size
			vpos += 10
			continue
		}
		// A backslash.
		if i+1 >= len(s) || s[i+1] >= 0x80 {
			b.WriteByte('\\')
			i++
			vpos += 6
			continue
		}
		start := vpos
		e := s[i+1]
		i += 2
		vpos += 2
		switch e {
		case '\n':
		case '\\':
			b.WriteByte('\\')
		case '\'':
			b.WriteByte('\'')
		case '"':
			b.WriteByte('"')
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v := int(e - '0')
			j := i - 1
			for k := 0; k < 2 && i < len(s) && s[i] >= '0' && s[i] <= '7'; k++ {
				v = v*8 + int(s[i]-'0')
				i++
				vpos++
			}
			if v > 0o377 && warn == "" {
				warn = "invalid octal escape sequence '\\" + s[j:i] + "'"
			}
			writeRune(&b, rune(v))
		case 'x', 'u', 'U':
			count, msg := 2, `truncated \xXX escape`
			if e == 'u' {
				count, msg = 4, `truncated \uXXXX escape`
			} else if e == 'U' {
				count, msg = 8, `truncated \UXXXXXXXX escape`
			}
			var v rune
			for ; count > 0; count-- {
				if i >= len(s) || !isXDigit(int(s[i])) {
					return "", unicodeEscapeError(start, vpos, msg), ""
				}
				d, _ := strconv.ParseUint(s[i:i+1], 16, 8)
				v = v<<4 | rune(d)
				i++
				vpos++
			}
			if v > 0x10FFFF {
				return "", unicodeEscapeError(start, vpos, "illegal Unicode character"), ""
			}
			writeRune(&b, v)
		case 'N':
			msg := `malformed \N character escape`
			if i < len(s) && s[i] == '{' {
				j := strings.IndexByte(s[i+1:], '}')
				if j < 0 {
					// Up to the end of the body, as CPython's decoder.
					return "", unicodeEscapeError(start, vpos+virtualLen(s[i:]), msg), ""
				}
				name := s[i+1 : i+1+j]
				nameVLen := virtualLen(s[i : i+2+j])
				if name != "" {
					if r, ok := lookupName(name); ok {
						writeRune(&b, r)
						i += j + 2
						vpos += nameVLen
						continue
					}
					return "", unicodeEscapeError(start, vpos+nameVLen, "unknown Unicode character name"), ""
				}
				return "", unicodeEscapeError(start, vpos+1, msg), ""
			}
			return "", unicodeEscapeError(start, vpos, msg), ""
		default:
			// An invalid escape stays as it is (CPython only warns).
			if warn == "" {
				warn = "invalid escape sequence '\\" + string(e) + "'"
			}
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	return b.String(), "", warn
}

// virtualLen is the length of s as CPython's escape decoder sees it.
func virtualLen(s string) int {
	n := 0
	for i := 0; i < len(s); {
		if s[i] < 0x80 {
			n++
			i++
			continue
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		n += 10
		i += size
	}
	return n
}

func unicodeEscapeError(start, end int, msg string) string {
	if end-start <= 1 {
		return fmt.Sprintf("'unicodeescape' codec can't decode byte 0x5c in position %d: %s", start, msg)
	}
	return fmt.Sprintf("'unicodeescape' codec can't decode bytes in position %d-%d: %s", start, end-1, msg)
}

// writeRune writes r as UTF-8; a surrogate code point (which Python
// strings may hold) is written in the generalized UTF-8 form (WTF-8).
func writeRune(b *strings.Builder, r rune) {
	if r >= 0xD800 && r <= 0xDFFF {
		b.WriteByte(byte(0xE0 | r>>12))
		b.WriteByte(byte(0x80 | (r>>6)&0x3F))
		b.WriteByte(byte(0x80 | r&0x3F))
		return
	}
	b.WriteRune(r)
}

// decodeBytesEscapesW decodes the escapes of a bytes literal's body. It
// also returns the SyntaxWarning CPython gives for the literal's first
// invalid escape.
func decodeBytesEscapesW(s string) (string, string, string) {
	if strings.IndexByte(s, '\\') < 0 {
		return s, "", ""
	}
	warn := ""
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		if c != '\\' {
			b.WriteByte(c)
			i++
			continue
		}
		start := i
		i++
		if i >= len(s) {
			return "", "Trailing \\ in string", ""
		}
		e := s[i]
		i++
		switch e {
		case '\n':
		case '\\':
			b.WriteByte('\\')
		case '\'':
			b.WriteByte('\'')
		case '"':
			b.WriteByte('"')
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v := int(e - '0')
			j := i - 1
			for k := 0; k < 2 && i < len(s) && s[i] >= '0' && s[i] <= '7'; k++ {
				v = v*8 + int(s[i]-'0')
				i++
			}
			if v > 0o377 && warn == "" {
				warn = "invalid octal escape sequence '\\" + s[j:i] + "'"
			}
			b.WriteByte(byte(v))
		case 'x':
			if i+1 < len(s) && isXDigit(int(s[i])) && isXDigit(int(s[i+1])) {
				v, _ := strconv.ParseUint(s[i:i+2], 16, 8)
				b.WriteByte(byte(v))
				i += 2
				continue
			}
			return "", fmt.Sprintf("invalid \\x escape at position %d", start), ""
		default:
			if warn == "" {
				warn = "invalid escape sequence '\\" + string(e) + "'"
			}
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	return b.String(), "", warn
}

// fstring parses an f-string from its FSTRING_START to its FSTRING_END
// and returns its parts (before concatenation with its neighbours).
func (p *parser) fstring() []Expr {
	start := p.next()
	raw := false
	for _, c := range p.text(start) {
		if c == 'r' || c == 'R' {
			raw = true
		}
	}
	var vals []Expr
	for {
		t := p.tok()
		switch t.kind {
		case tFMiddle:
			p.next()
			// Decoded at the end, as CPython does (its errors point at
			// the closing quotes).
			vals = append(vals, &Constant{Pos: tokPos(t), Value: t})
		case tLbrace:
			vals = p.replacementField(vals)
		case tFEnd:
			p.next()
			out := vals[:0]
			for _, v := range vals {
				if c, ok := v.(*Constant); ok {
					if mt, ok := c.Value.(*token); ok {
						s := p.decodeFMiddle(mt, raw, t)
						if s == "" {
							continue
						}
						c.Value = s
					}
				}
				out = append(out, v)
			}
			return out
		default:
			p.fail()
		}
	}
}

// decodeFMiddle decodes an FSTRING_MIDDLE token; errors are reported at
// the f-string's end.
func (p *parser) decodeFMiddle(t *token, raw bool, end *token) string {
	s := p.text(t)
	if raw || strings.IndexByte(s, '\\') < 0 {
		return s
	}
	v, err, warn := decodeUnicodeEscapesW(s)
	if err != "" {
		p.actAt(end, "(unicode error) "+err)
	}
	p.warnAt(t, warn)
	return v
}

// replacementField parses {expr[=][!c][:spec]} and appends its nodes to
// vals (a self-documenting field adds its text first).
func (p *parser) replacementField(vals []Expr) []Expr {
	lbrace := p.next()
	p.fstringDepth++
	defer func() { p.fstringDepth-- }()
	switch k := p.kind(); k {
	case tEqual, tExclamation, tColon, tRbrace:
		p.raiseAt(p.tok(), "f-string: valid expression required before '"+p.text(p.tok())+"'")
	default:
		if k != kYield && k != tStar && !startsExpr(k) {
			p.raiseAt(p.tok(), "f-string: expecting a valid expression after '{'")
		}
	}
	var e Expr
	if p.kind() == kYield {
		e = p.yieldExpr()
	} else {
		e = p.starExpressions()
	}
	var debug *token
	if p.kind() == tEqual {
		debug = p.next()
	}
	conv := -1
	var convTok *token
	if p.kind() == tExclamation {
		bang := p.next()
		n := p.tok()
		if n.kind == tColon || n.kind == tRbrace {
			p.raiseAt(n, "f-string: missing conversion character")
		}
		if n.kind != tName {
			p.raiseAt(n, "f-string: invalid conversion character")
		}
		p.next()
		if n.line != bang.endLine || n.col != bang.endCol {
			p.actRange(tokPos(bang), tokPos(n), "f-string: conversion type must come right after the exclamanation mark")
		}
		name := p.name(n)
		if name != "s" && name != "r" && name != "a" {
			p.actAt(n, "f-string: invalid conversion character "+pyRepr(name)+": expected 's', 'r', or 'a'")
		}
		conv = int(name[0])
		convTok = n
	}
	var spec *JoinedStr
	var colon *token
	if p.kind() == tColon {
		colon = p.next()
		var items []Expr
		for {
			t := p.tok()
			if t.kind == tFMiddle {
				p.next()
				v, err, warn := decodeUnicodeEscapesW(p.text(t))
				if err != "" {
					p.actAt(t, "(unicode error) "+err)
				}
				p.warnAt(t, warn)
				items = append(items, &Constant{Pos: tokPos(t), Value: v})
			} else if t.kind == tLbrace {
				items = p.replacementField(items)
			} else {
				break
			}
		}
		if len(items) == 1 {
			if c, ok := items[0].(*Constant); ok && c.Value.(string) == "" {
				items = nil
			}
		}
		spec = &JoinedStr{Pos: p.span(colon), Values: items}
	}
	if p.kind() != tRbrace {
		var msg string
		switch {
		case spec != nil:
			msg = "f-string: expecting '}', or format specs"
		case convTok != nil:
			msg = "f-string: expecting ':' or '}'"
		case debug != nil:
			msg = "f-string: expecting '!', or ':', or '}'"
		default:
			msg = "f-string: expecting '=', or '!', or ':', or '}'"
		}
		p.raiseAt(p.tok(), msg)
	}
	rbrace := p.next()
	if conv == -1 && debug != nil && spec == nil {
		conv = 'r'
	}
	fv := &FormattedValue{Pos: p.span(lbrace), Value: e, Conversion: conv, FormatSpec: spec}
	if debug != nil {
		var endLine, endCol int
		var endOff int32
		switch {
		case convTok != nil:
			endLine, endCol = int(convTok.line), int(convTok.col)-1
			endOff = convTok.start - 1
		case spec != nil:
			endLine, endCol = int(colon.line), int(colon.col)
			endOff = colon.start
		default:
			endLine, endCol = int(rbrace.line), int(rbrace.col)
			endOff = rbrace.start
		}
		text := p.debugText(lbrace, endOff)
		vals = append(vals, &Constant{Pos: Pos{Line: int(lbrace.line), Col: int(lbrace.col) + 1, EndLine: endLine, EndCol: endCol}, Value: text})
	}
	return append(vals, fv)
}

// debugText is the text of a self-documenting field's expression, from
// after its '{' to end: the source, without comments (as CPython's
// tokenizer keeps it).
func (p *parser) debugText(lbrace *token, end int32) string {
	text := p.src[lbrace.end:end]
	if strings.IndexByte(text, '#') < 0 {
		return text
	}
	// Comments lie between tokens: keep the tokens, drop from '#' to the
	// end of the line in the gaps.
	var b strings.Builder
	i := p.indexOf(lbrace) + 1
	at := lbrace.end
	for ; i < len(p.toks) && p.toks[i].start < end; i++ {
		t := &p.toks[i]
		b.WriteString(stripComment(p.src[at:t.start]))
		b.WriteString(p.src[t.start:t.end])
		at = t.end
	}
	if at < end {
		b.WriteString(stripComment(p.src[at:end]))
	}
	return b.String()
}

func stripComment(gap string) string {
	h := strings.IndexByte(gap, '#')
	if h < 0 {
		return gap
	}
	var b strings.Builder
	for h >= 0 {
		b.WriteString(gap[:h])
		gap = gap[h:]
		nl := strings.IndexByte(gap, '\n')
		if nl < 0 {
			return b.String()
		}
		gap = gap[nl:]
		h = strings.IndexByte(gap, '#')
	}
	b.WriteString(gap)
	return b.String()
}
