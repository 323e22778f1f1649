// Package textwrap is the algorithmic kernel of CPython 3.12's textwrap
// module: TextWrapper with all its options, wrap, fill, shorten, dedent and
// indent, giving exactly CPython's results. Widths count code points.
//
// Register makes the module importable by code mode's interpreter: the
// wrapper in module.go exposes the kernel to Python code as CPython's
// textwrap module does.
package textwrap

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxOutput bounds the number of code points one call may produce (lines
// made of long indents around one-character pieces can multiply the
// input's size). Larger results are refused with a LimitError.
const MaxOutput = 1 << 26

// ErrLoopsForever is the message of the LimitError for inputs on which
// CPython's TextWrapper never returns (an indent as wide as the width, a
// negative width left for the text, and whitespace it keeps dropping).
const ErrLoopsForever = "TextWrapper would loop forever on this input (CPython never returns)"

// Error is a Python exception raised by the kernel: Type is "ValueError",
// or "LimitError" for a result larger than MaxOutput.
type Error struct {
	Type string
	Msg  string
}

func (e *Error) Error() string { return e.Type + ": " + e.Msg }

// Wrapper holds TextWrapper's options. Booleans are the truth values of
// the Python attributes. NewWrapper gives CPython's defaults.
type Wrapper struct {
	Width              int
	InitialIndent      string
	SubsequentIndent   string
	ExpandTabs         bool
	ReplaceWhitespace  bool
	FixSentenceEndings bool
	BreakLongWords     bool
	DropWhitespace     bool
	BreakOnHyphens     bool
	// SimpleSplit is set when break_on_hyphens is true but not the object
	// True (say 1): CPython then splits chunks on whitespace only while
	// still breaking long words after hyphens.
	SimpleSplit bool
	TabSize     int
	// MaxLines is max_lines when HasMaxLines; max_lines=None otherwise.
	MaxLines    int
	HasMaxLines bool
	Placeholder string
}

// NewWrapper returns the options of TextWrapper() with width 70.
func NewWrapper() Wrapper {
	return Wrapper{
		Width:             70,
		ExpandTabs:        true,
		ReplaceWhitespace: true,
		BreakLongWords:    true,
		DropWhitespace:    true,
		BreakOnHyphens:    true,
		TabSize:           8,
		Placeholder:       " [...]",
	}
}

// isWrapSpace reports whether c is one of textwrap's whitespace characters,
// the ASCII ones "\t\n\x0b\x0c\r ".
func isWrapSpace(c rune) bool {
	switch c {
	case '\t', '\n', '\v', '\f', '\r', ' ':
		return true
	}
	return false
}

// IsSpace reports whether c is whitespace for str.isspace, str.strip and
// str.split.
func IsSpace(c rune) bool {
	switch c {
	case '\t', '\n', '\v', '\f', '\r', 0x1c, 0x1d, 0x1e, 0x1f, ' ', 0x85, 0xa0,
		0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000:
		return true
	}
	return c >= 0x2000 && c <= 0x200a
}

// isWord reports whether c matches \w in a str pattern.
func isWord(c rune) bool {
	return c == '_' || unicode.IsLetter(c) || unicode.IsNumber(c)
}

// isLetter reports whether c matches [^\d\W]: a word character that is not
// a decimal digit.
func isLetter(c rune) bool {
	return isWord(c) && !unicode.Is(unicode.Nd, c)
}

func isWordPunct(c rune) bool {
	switch c {
	case '!', '"', '\'', '&', '.', ',', '?':
		return true
	}
	return isWord(c)
}

func isBlank(s []rune) bool {
	for _, c := range s {
		if !IsSpace(c) {
			return false
		}
	}
	return true
}

func stripRunes(s []rune, left, right bool) []rune {
	i, j := 0, len(s)
	if left {
		for i < j && IsSpace(s[i]) {
			i++
		}
	}
	if right {
		for j > i && IsSpace(s[j-1]) {
			j--
		}
	}
	return s[i:j]
}

// ExpandTabs returns str.expandtabs(tabsize) of s.
func ExpandTabs(s string, tabsize int) string {
	return string(expandTabs([]rune(s), tabsize))
}

func expandTabs(s []rune, tabsize int) []rune {
	out := make([]rune, 0, len(s))
	col := 0
	for _, c := range s {
		switch c {
		case '\t':
			if tabsize > 0 {
				n := tabsize - col%tabsize
				for i := 0; i < n; i++ {
					out = append(out, ' ')
				}
				col += n
			}
		case '\n', '\r':
			out = append(out, c)
			col = 0
		default:
			out = append(out, c)
			col++
		}
	}
	return out
}

func (w *Wrapper) munge(text []rune) []rune {
	if w.ExpandTabs {
		text = expandTabs(text, w.TabSize)
	}
	if w.ReplaceWhitespace {
		t := make([]rune, len(text))
		for i, c := range text {
			if isWrapSpace(c) {
				c = ' '
			}
			t[i] = c
		}
		text = t
	}
	return text
}

// split cuts text into chunks like TextWrapper._split.
func (w *Wrapper) split(text []rune) [][]rune {
	var chunks [][]rune
	if !w.BreakOnHyphens || w.SimpleSplit {
		// wordsep_simple_re: runs of whitespace and the text between.
		start := 0
		for start < len(text) {
			end := start + 1
			ws := isWrapSpace(text[start])
			for end < len(text) && isWrapSpace(text[end]) == ws {
				end++
			}
			chunks = append(chunks, text[start:end])
			start = end
		}
		return chunks
	}
	for p := 0; p < len(text); {
		end := wordsepMatch(text, p)
		chunks = append(chunks, text[p:end])
		p = end
	}
	return chunks
}

// wordsepMatch returns the end of the match of TextWrapper.wordsep_re at
// p. The pattern matches at every position of non-empty text.
func wordsepMatch(t []rune, p int) int {
	n := len(t)
	at := func(i int) rune {
		if i < 0 || i >= n {
			return -1
		}
		return t[i]
	}
	// Whitespace run.
	if isWrapSpace(t[p]) {
		q := p
		for q < n && isWrapSpace(t[q]) {
			q++
		}
		return q
	}
	// dashRunWord reports the end of a run of two or more dashes at q that
	// a word character follows, or -1.
	dashRunWord := func(q int) int {
		e := q
		for e < n && t[e] == '-' {
			e++
		}
		if e-q >= 2 && e < n && isWord(t[e]) {
			return e
		}
		return -1
	}
	// Em-dash between words.
	if p > 0 && isWordPunct(t[p-1]) {
		if e := dashRunWord(p); e >= 0 {
			return e
		}
	}
	// A word, possibly hyphenated: the shortest run of non-whitespace
	// followed by one of the three endings.
	for q := p + 1; ; q++ {
		// t[p:q] is all non-whitespace here.
		if at(q) == '-' {
			behind := isLetter(at(q-2)) && isLetter(at(q-1)) ||
				isLetter(at(q-3)) && at(q-2) == '-' && isLetter(at(q-1))
			ahead := isLetter(at(q+1)) && (isLetter(at(q+2)) || at(q+2) == '-' && isLetter(at(q+3)))
			if behind && ahead {
				return q + 1
			}
		}
		if q == n || isWrapSpace(t[q]) {
			return q
		}
		if isWordPunct(t[q-1]) && dashRunWord(q) >= 0 {
			return q
		}
	}
}

// sentenceEnd reports whether chunk matches [a-z][.!?]["']?\Z.
func sentenceEnd(c []rune) bool {
	n := len(c)
	if n > 0 && (c[n-1] == '"' || c[n-1] == '\'') {
		n--
	}
	return n >= 2 && strings.ContainsRune(".!?", c[n-1]) && c[n-2] >= 'a' && c[n-2] <= 'z'
}

var twoSpaces = []rune{' ', ' '}

func (w *Wrapper) fixSentenceEndings(chunks [][]rune) {
	for i := 0; i < len(chunks)-1; {
		if string(chunks[i+1]) == " " && sentenceEnd(chunks[i]) {
			chunks[i+1] = twoSpaces
			i += 2
		} else {
			i++
		}
	}
}

func runeLen(s string) int { return utf8.RuneCountInString(s) }

// Wrap returns TextWrapper.wrap(text).
func (w *Wrapper) Wrap(text string) ([]string, error) {
	chunks := w.split(w.munge([]rune(text)))
	if w.FixSentenceEndings {
		w.fixSentenceEndings(chunks)
	}
	return w.wrapChunks(chunks)
}

// Fill returns TextWrapper.fill(text).
func (w *Wrapper) Fill(text string) (string, error) {
	lines, err := w.Wrap(text)
	if err != nil {
		return "", err
	}
	return strings.Join(lines, "\n"), nil
}

func (w *Wrapper) handleLongWord(rev [][]rune, line [][]rune, curLen, width int) ([][]rune, [][]rune) {
	spaceLeft := 1
	if width >= 1 {
		spaceLeft = width - curLen
	}
	if w.BreakLongWords {
		end := spaceLeft
		chunk := rev[len(rev)-1]
		if w.BreakOnHyphens && len(chunk) > spaceLeft {
			hyphen := -1
			for i := min(spaceLeft, len(chunk)) - 1; i >= 0; i-- {
				if chunk[i] == '-' {
					hyphen = i
					break
				}
			}
			if hyphen > 0 {
				for _, c := range chunk[:hyphen] {
					if c != '-' {
						end = hyphen + 1
						break
					}
				}
			}
		}
		end = max(0, min(end, len(chunk)))
		line = append(line, chunk[:end])
		rev[len(rev)-1] = chunk[end:]
	} else if len(line) == 0 {
		line = append(line, rev[len(rev)-1])
		rev = rev[:len(rev)-1]
	}
	return rev, line
}

func (w *Wrapper) wrapChunks(chunks [][]rune) ([]string, error) {
	if w.Width <= 0 {
		return nil, &Error{"ValueError", fmt.Sprintf("invalid width %d (must be > 0)", w.Width)}
	}
	placeholder := []rune(w.Placeholder)
	if w.HasMaxLines {
		indent := w.InitialIndent
		if w.MaxLines > 1 {
			indent = w.SubsequentIndent
		}
		if runeLen(indent)+len(stripRunes(placeholder, true, false)) > w.Width {
			return nil, &Error{"ValueError", "placeholder too large for max width"}
		}
	}
	// rev holds the chunks in reverse order, the next one last.
	rev := make([][]rune, len(chunks))
	for i, c := range chunks {
		rev[len(chunks)-1-i] = c
	}
	lines := []string{}
	size := 0
	emit := func(s string) error {
		size += runeLen(s) + 1
		if size > MaxOutput {
			return &Error{"LimitError", fmt.Sprintf("wrapped text exceeds this interpreter's limit of %d characters", MaxOutput)}
		}
		lines = append(lines, s)
		return nil
	}
	join := func(indent string, parts [][]rune) string {
		var b strings.Builder
		b.WriteString(indent)
		for _, p := range parts {
			for _, c := range p {
				b.WriteRune(c)
			}
		}
		return b.String()
	}
	for len(rev) > 0 {
		// An iteration that consumes nothing and emits no line leaves the
		// same state, and CPython then loops forever: refuse instead.
		nrev, lastLen, nlines := len(rev), len(rev[len(rev)-1]), len(lines)
		var line [][]rune
		curLen := 0
		indent := w.InitialIndent
		if len(lines) > 0 {
			indent = w.SubsequentIndent
		}
		width := w.Width - runeLen(indent)
		if w.DropWhitespace && isBlank(rev[len(rev)-1]) && len(lines) > 0 {
			rev = rev[:len(rev)-1]
		}
		for len(rev) > 0 {
			l := len(rev[len(rev)-1])
			if curLen+l <= width {
				line = append(line, rev[len(rev)-1])
				rev = rev[:len(rev)-1]
				curLen += l
			} else {
				break
			}
		}
		if len(rev) > 0 && len(rev[len(rev)-1]) > width {
			rev, line = w.handleLongWord(rev, line, curLen, width)
			curLen = 0
			for _, c := range line {
				curLen += len(c)
			}
		}
		if w.DropWhitespace && len(line) > 0 && isBlank(line[len(line)-1]) {
			curLen -= len(line[len(line)-1])
			line = line[:len(line)-1]
		}
		if len(rev) == nrev && len(rev[len(rev)-1]) == lastLen &&
			(len(line) == 0 && len(lines) == nlines || nlines > 0 && !w.HasMaxLines) {
			return nil, &Error{"LimitError", ErrLoopsForever}
		}
		if len(line) == 0 {
			continue
		}
		if !w.HasMaxLines || len(lines)+1 < w.MaxLines ||
			(len(rev) == 0 || w.DropWhitespace && len(rev) == 1 && isBlank(rev[0])) && curLen <= width {
			if err := emit(join(indent, line)); err != nil {
				return nil, err
			}
			continue
		}
		placed := false
		for len(line) > 0 {
			if !isBlank(line[len(line)-1]) && curLen+len(placeholder) <= width {
				line = append(line, placeholder)
				if err := emit(join(indent, line)); err != nil {
					return nil, err
				}
				placed = true
				break
			}
			curLen -= len(line[len(line)-1])
			line = line[:len(line)-1]
		}
		if !placed {
			if len(lines) > 0 {
				prev := strings.TrimRightFunc(lines[len(lines)-1], IsSpace)
				if runeLen(prev)+len(placeholder) <= w.Width {
					lines[len(lines)-1] = prev + w.Placeholder
					break
				}
			}
			if err := emit(indent + string(stripRunes(placeholder, true, false))); err != nil {
				return nil, err
			}
		}
		break
	}
	return lines, nil
}

// Shorten returns textwrap.shorten(text, width, **options): the options
// are w's, with MaxLines forced to 1.
func Shorten(text string, w Wrapper) (string, error) {
	w.MaxLines, w.HasMaxLines = 1, true
	words := strings.FieldsFunc(text, IsSpace)
	return w.Fill(strings.Join(words, " "))
}

// Dedent returns textwrap.dedent(text).
func Dedent(text string) string {
	lines := strings.Split(text, "\n")
	// Lines of only spaces and tabs become empty.
	for i, l := range lines {
		if l != "" && strings.Trim(l, " \t") == "" {
			lines[i] = ""
		}
	}
	margin, have := "", false
	for _, l := range lines {
		ind := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
		if len(ind) == len(l) {
			continue // no character other than space, tab or newline follows
		}
		switch {
		case !have:
			margin, have = ind, true
		case strings.HasPrefix(ind, margin):
		case strings.HasPrefix(margin, ind):
			margin = ind
		default:
			for i := 0; i < len(margin) && i < len(ind); i++ {
				if margin[i] != ind[i] {
					margin = margin[:i]
					break
				}
			}
		}
	}
	if margin != "" {
		for i, l := range lines {
			lines[i] = strings.TrimPrefix(l, margin)
		}
	}
	return strings.Join(lines, "\n")
}

// SplitLines returns str.splitlines(True) of s.
func SplitLines(s string) []string {
	var out []string
	r := []rune(s)
	start := 0
	for i := 0; i < len(r); i++ {
		switch r[i] {
		case '\r':
			if i+1 < len(r) && r[i+1] == '\n' {
				i++
			}
		case '\n', '\v', '\f', 0x1c, 0x1d, 0x1e, 0x85, 0x2028, 0x2029:
		default:
			continue
		}
		out = append(out, string(r[start:i+1]))
		start = i + 1
	}
	if start < len(r) {
		out = append(out, string(r[start:]))
	}
	return out
}

// Indent returns textwrap.indent(text, prefix, predicate). A nil predicate
// is the default one (lines that are not all whitespace); otherwise it is
// called on each line, in order, and returns the truth of its result.
func Indent(text, prefix string, predicate func(line string) (bool, error)) (string, error) {
	var b strings.Builder
	for _, line := range SplitLines(text) {
		var ok bool
		if predicate == nil {
			ok = strings.TrimFunc(line, IsSpace) != ""
		} else {
			var err error
			if ok, err = predicate(line); err != nil {
				return "", err
			}
		}
		if ok {
			if b.Len()+len(prefix) > 4*MaxOutput {
				return "", &Error{"LimitError", fmt.Sprintf("indented text exceeds this interpreter's limit of %d characters", MaxOutput)}
			}
			b.WriteString(prefix)
		}
		b.WriteString(line)
	}
	return b.String(), nil
}
