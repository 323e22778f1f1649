package sre

import (
	"strconv"
	"unicode/utf8"
)

// Template is a parsed replacement template (the repl string of re.sub,
// or Match.expand's argument): literal text and group references.
type Template struct {
	items   []templateItem
	literal bool
}

type templateItem struct {
	text  string
	group int // -1 for literal text
}

// ParseTemplate parses repl (a str template for a str pattern, bytes for a
// bytes pattern) as re's parse_template, reporting CPython's re.error
// (positioned in repl) or IndexError for an unknown group name. As re.sub
// does, a repl without a backslash is taken literally.
func (p *Pattern) ParseTemplate(repl string) (*Template, error) {
	hasBackslash := false
	for i := 0; i < len(repl); i++ {
		if repl[i] == '\\' {
			hasBackslash = true
			break
		}
	}
	if !hasBackslash {
		return &Template{items: []templateItem{{text: repl, group: -1}}, literal: true}, nil
	}
	t := newTokenizer(repl, p.isBytes)
	if t.err != nil {
		return nil, t.err
	}
	tmpl := &Template{}
	var lit []byte
	appendChar := func(c rune) {
		if p.isBytes {
			lit = append(lit, byte(c))
		} else {
			lit = utf8.AppendRune(lit, c)
		}
	}
	addGroup := func(index, pos int) error {
		if index > p.groups {
			return t.errorAt("invalid group reference "+strconv.Itoa(index), pos)
		}
		tmpl.items = append(tmpl.items, templateItem{text: string(lit), group: -1}, templateItem{group: index})
		lit = lit[:0]
		return nil
	}
	for {
		this := t.get()
		if t.err != nil {
			return nil, t.err
		}
		if this.eof {
			break
		}
		if !this.esc {
			appendChar(this.c)
			continue
		}
		c := this.c
		switch {
		case c == 'g':
			if !t.match('<') {
				if t.err != nil {
					return nil, t.err
				}
				return nil, t.errorAt("missing <", 0)
			}
			if t.err != nil {
				return nil, t.err
			}
			name, err := t.getUntil('>', "group name")
			if err != nil {
				return nil, err
			}
			var index int
			if !isDecimalASCII(name) {
				if err := t.checkGroupName(name, 1); err != nil {
					return nil, err
				}
				gid, ok := p.nameIndex[string(name)]
				if !ok {
					return nil, &PyError{Type: "IndexError", Msg: "unknown group name " + pyRepr(name)}
				}
				index = gid
			} else {
				text, v := decimalText(name, maxGroups)
				if v >= maxGroups {
					return nil, t.errorAt("invalid group reference "+text, len(name)+1)
				}
				index = int(v)
			}
			if err := addGroup(index, len(name)+1); err != nil {
				return nil, err
			}
		case c == '0':
			digits := []rune{}
			for range 2 {
				if t.next.eof || t.next.esc || !isOctDigit(t.next.c) {
					break
				}
				digits = append(digits, t.get().c)
				if t.err != nil {
					return nil, t.err
				}
			}
			appendChar(octal(digits) & 0xff)
		case isDigit(c):
			digits := []rune{c}
			isOctal := false
			if !t.next.eof && !t.next.esc && isDigit(t.next.c) {
				digits = append(digits, t.get().c)
				if t.err != nil {
					return nil, t.err
				}
				if isOctDigit(c) && isOctDigit(digits[1]) && !t.next.eof && !t.next.esc && isOctDigit(t.next.c) {
					digits = append(digits, t.get().c)
					if t.err != nil {
						return nil, t.err
					}
					isOctal = true
					v := octal(digits)
					if v > 0o377 {
						return nil, t.errorAt("octal escape value \\"+string(digits)+" outside of range 0-0o377", len(digits)+1)
					}
					appendChar(v)
				}
			}
			if !isOctal {
				index := 0
				for _, d := range digits {
					index = index*10 + int(d-'0')
				}
				if err := addGroup(index, len(digits)); err != nil {
					return nil, err
				}
			}
		default:
			if v, ok := templateEscape(c); ok {
				appendChar(v)
				continue
			}
			if isASCIILetter(c) {
				return nil, t.errorAt("bad escape "+string(this.text()), 2)
			}
			appendChar('\\')
			appendChar(c)
		}
	}
	tmpl.items = append(tmpl.items, templateItem{text: string(lit), group: -1})
	return tmpl, nil
}

// templateEscape maps the letter of a template's escape (\n) to its character.
func templateEscape(c rune) (rune, bool) {
	switch c {
	case 'a':
		return '\a', true
	case 'b':
		return '\b', true
	case 'f':
		return '\f', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	case 'v':
		return '\v', true
	case '\\':
		return '\\', true
	}
	return 0, false
}

// Literal returns the template's text when it refers to no group.
func (t *Template) Literal() (string, bool) {
	if t.literal {
		return t.items[0].text, true
	}
	for _, it := range t.items {
		if it.group >= 0 {
			return "", false
		}
	}
	s := ""
	for _, it := range t.items {
		s += it.text
	}
	return s, true
}

// Parts calls f for each part of the template in order: literal text
// (group -1) and group references (text ""). Literal parts alternate with
// references, beginning and ending with a literal, which may be empty.
func (t *Template) Parts(f func(text string, group int)) {
	for _, it := range t.items {
		f(it.text, it.group)
	}
}

// Expand appends the template expanded for match m of text to dst; a
// group that did not take part expands to nothing.
func (t *Template) Expand(dst []byte, text Text, m *Match) []byte {
	for _, it := range t.items {
		if it.group < 0 {
			dst = append(dst, it.text...)
			continue
		}
		if s, e := m.Span(it.group); s >= 0 {
			dst = append(dst, text.s[s:e]...)
		}
	}
	return dst
}

// Replace implements Replacer.
func (t *Template) Replace(dst []byte, text Text, m *Match) ([]byte, error) {
	return t.Expand(dst, text, m), nil
}
