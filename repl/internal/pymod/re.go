package pymod

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
)

// Python re flags (values as in CPython).
const (
	flagI = 2
	flagM = 8
	flagS = 16
	flagX = 64
	flagA = 256
	flagU = 32
)

// Re is the `re` module: Python's re API over Go's RE2 engine. Differences:
// no lookaround or backreferences (re.error), \d \w \s are ASCII, $ without
// MULTILINE matches only at the very end, VERBOSE strips whitespace and
// comments outside classes.
var Re = &starlarkstruct.Module{
	Name: "re",
	Members: starlark.StringDict{
		"compile":    starlark.NewBuiltin("re.compile", reCompile),
		"search":     starlark.NewBuiltin("re.search", reFunc("search")),
		"match":      starlark.NewBuiltin("re.match", reFunc("match")),
		"fullmatch":  starlark.NewBuiltin("re.fullmatch", reFunc("fullmatch")),
		"findall":    starlark.NewBuiltin("re.findall", reFunc("findall")),
		"finditer":   starlark.NewBuiltin("re.finditer", reFunc("finditer")),
		"sub":        starlark.NewBuiltin("re.sub", reFunc("sub")),
		"subn":       starlark.NewBuiltin("re.subn", reFunc("subn")),
		"split":      starlark.NewBuiltin("re.split", reFunc("split")),
		"escape":     starlark.NewBuiltin("re.escape", reEscape),
		"IGNORECASE": starlark.MakeInt(flagI), "I": starlark.MakeInt(flagI),
		"MULTILINE": starlark.MakeInt(flagM), "M": starlark.MakeInt(flagM),
		"DOTALL": starlark.MakeInt(flagS), "S": starlark.MakeInt(flagS),
		"VERBOSE": starlark.MakeInt(flagX), "X": starlark.MakeInt(flagX),
		"ASCII": starlark.MakeInt(flagA), "A": starlark.MakeInt(flagA),
		"UNICODE": starlark.MakeInt(flagU), "U": starlark.MakeInt(flagU),
		"error": starlark.String("re.error"),
	},
}

var reCache struct {
	sync.Mutex
	m map[string]*Pattern
}

const reCacheMax = 256

// CompileRe compiles a Python pattern with Python flags.
func CompileRe(pat string, flags int) (*Pattern, error) {
	key := strconv.Itoa(flags) + "\x00" + pat
	reCache.Lock()
	if p, ok := reCache.m[key]; ok {
		reCache.Unlock()
		return p, nil
	}
	reCache.Unlock()
	src, err := translatePattern(pat, flags)
	if err != nil {
		return nil, err
	}
	re, err := regexp.Compile(src)
	if err != nil {
		return nil, Errorf("re.error", "%s (Go's RE2 engine: no lookaround or backreferences)", strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	p := &Pattern{re: re, pattern: pat, flags: flags}
	reCache.Lock()
	if reCache.m == nil || len(reCache.m) >= reCacheMax {
		reCache.m = map[string]*Pattern{}
	}
	reCache.m[key] = p
	reCache.Unlock()
	return p, nil
}

// translatePattern maps Python syntax and flags onto RE2 syntax.
func translatePattern(pat string, flags int) (string, error) {
	var b strings.Builder
	prefix := ""
	if flags&flagI != 0 {
		prefix += "i"
	}
	if flags&flagM != 0 {
		prefix += "m"
	}
	if flags&flagS != 0 {
		prefix += "s"
	}
	if prefix != "" {
		b.WriteString("(?" + prefix + ")")
	}
	verbose := flags&flagX != 0
	inClass := false
	for i := 0; i < len(pat); i++ {
		ch := pat[i]
		switch {
		case ch == '\\' && i+1 < len(pat):
			next := pat[i+1]
			switch {
			case next == 'Z':
				b.WriteString(`\z`)
			case next >= '1' && next <= '9' && !inClass:
				return "", Errorf("re.error", "backreference \\%c is not supported (Go's RE2 engine)", next)
			default:
				b.WriteByte(ch)
				b.WriteByte(next)
			}
			i++
		case inClass:
			if ch == ']' {
				inClass = false
			}
			b.WriteByte(ch)
		case ch == '[':
			inClass = true
			b.WriteByte(ch)
			// a leading ] or ^] is literal
			if i+1 < len(pat) && pat[i+1] == '^' {
				b.WriteByte('^')
				i++
			}
			if i+1 < len(pat) && pat[i+1] == ']' {
				b.WriteString(`\]`)
				i++
			}
		case verbose && (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' || ch == '\v'):
		case verbose && ch == '#':
			for i < len(pat) && pat[i] != '\n' {
				i++
			}
		case ch == '(' && strings.HasPrefix(pat[i:], "(?="), ch == '(' && strings.HasPrefix(pat[i:], "(?!"),
			ch == '(' && strings.HasPrefix(pat[i:], "(?<="), ch == '(' && strings.HasPrefix(pat[i:], "(?<!"):
			return "", Errorf("re.error", "lookaround %q is not supported (Go's RE2 engine): match more and filter in code", pat[i:min(len(pat), i+4)])
		case ch == '(' && strings.HasPrefix(pat[i:], "(?P="):
			return "", Errorf("re.error", "named backreference is not supported (Go's RE2 engine)")
		default:
			b.WriteByte(ch)
		}
	}
	return b.String(), nil
}

// Pattern is a compiled regular expression (Python's re.Pattern).
type Pattern struct {
	re             *regexp.Regexp
	pattern        string
	flags          int
	once           sync.Once
	anchored, full *regexp.Regexp
	after          *regexp.Regexp // the pattern right after one rune of left context
}

var _ starlark.HasAttrs = (*Pattern)(nil)

func (p *Pattern) String() string {
	return fmt.Sprintf("re.compile(%s)", starlark.String(p.pattern).String())
}
func (p *Pattern) Type() string          { return "re.Pattern" }
func (p *Pattern) Freeze()               {}
func (p *Pattern) Truth() starlark.Bool  { return true }
func (p *Pattern) Hash() (uint32, error) { return starlark.String(p.pattern).Hash() }
func (p *Pattern) AttrNames() []string {
	return []string{"findall", "finditer", "flags", "fullmatch", "groups", "match", "pattern", "search", "split", "sub", "subn"}
}

func (p *Pattern) Attr(name string) (starlark.Value, error) {
	switch name {
	case "pattern":
		return starlark.String(p.pattern), nil
	case "flags":
		return starlark.MakeInt(p.flags), nil
	case "groups":
		return starlark.MakeInt(p.re.NumSubexp()), nil
	case "search", "match", "fullmatch", "findall", "finditer", "sub", "subn", "split":
		return starlark.NewBuiltin("Pattern."+name, func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			return p.call(thread, name, args, kwargs)
		}), nil
	}
	return nil, nil
}

func reCompile(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var pat starlark.Value
	flags := 0
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "pattern", &pat, "flags?", &flags); err != nil {
		return nil, err
	}
	if p, ok := pat.(*Pattern); ok {
		return p, nil
	}
	s, ok := pat.(starlark.String)
	if !ok {
		return nil, Errorf("TypeError", "re.compile: pattern must be a str, not %s", TypeName(pat))
	}
	return CompileRe(string(s), flags)
}

func reEscape(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var s string
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "pattern", &s); err != nil {
		return nil, err
	}
	var out strings.Builder
	for _, r := range s {
		if r < utf8.RuneSelf && !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_') {
			out.WriteByte('\\')
		}
		out.WriteRune(r)
	}
	return starlark.String(out.String()), nil
}

// reFunc is re.NAME(pattern, ..., flags=0): compile, then the Pattern method.
func reFunc(name string) func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
	return func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if len(args) == 0 {
			// pattern passed by keyword
			for i, kv := range kwargs {
				if k, _ := starlark.AsString(kv[0]); k == "pattern" {
					args = starlark.Tuple{kv[1]}
					kwargs = append(append([]starlark.Tuple{}, kwargs[:i]...), kwargs[i+1:]...)
					break
				}
			}
		}
		if len(args) == 0 {
			return nil, Errorf("TypeError", "%s: missing argument pattern", b.Name())
		}
		flags := 0
		var rest []starlark.Tuple
		for _, kv := range kwargs {
			if k, _ := starlark.AsString(kv[0]); k == "flags" {
				f, err := starlark.AsInt32(kv[1])
				if err != nil {
					return nil, Errorf("TypeError", "%s: flags must be an int", b.Name())
				}
				flags = f
				continue
			}
			rest = append(rest, kv)
		}
		// Python allows flags positionally for most functions; accept it as the last extra int.
		posMax := map[string]int{"search": 2, "match": 2, "fullmatch": 2, "findall": 2, "finditer": 2, "split": 3, "sub": 4, "subn": 4}[name]
		if len(args) == posMax+1 {
			if f, err := starlark.AsInt32(args[len(args)-1]); err == nil {
				flags = f
				args = args[:len(args)-1]
			}
		}
		var p *Pattern
		switch pat := args[0].(type) {
		case *Pattern:
			p = pat
		case starlark.String:
			var err error
			if p, err = CompileRe(string(pat), flags); err != nil {
				return nil, err
			}
		default:
			return nil, Errorf("TypeError", "%s: pattern must be a str, not %s", b.Name(), TypeName(args[0]))
		}
		return p.call(thread, name, args[1:], rest)
	}
}

func (p *Pattern) call(thread *starlark.Thread, name string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	fn := "Pattern." + name
	switch name {
	case "search", "match", "fullmatch", "findall", "finditer":
		var s string
		pos, endpos := 0, -1
		if err := starlark.UnpackArgs(fn, args, kwargs, "string", &s, "pos?", &pos, "endpos?", &endpos); err != nil {
			return nil, err
		}
		if endpos < 0 || endpos > len(s) {
			endpos = len(s)
		}
		pos = max(0, min(pos, endpos))
		sub := s[:endpos]
		switch name {
		case "search", "match", "fullmatch":
			return p.find(s, sub, pos, name), nil
		default:
			return p.findAll(thread, s, sub, pos, name == "finditer")
		}
	case "sub", "subn":
		var repl starlark.Value
		var s string
		count := 0
		if err := starlark.UnpackArgs(fn, args, kwargs, "repl", &repl, "string", &s, "count?", &count); err != nil {
			return nil, err
		}
		out, n, err := p.sub(thread, repl, s, count)
		if err != nil {
			return nil, err
		}
		if name == "subn" {
			return starlark.Tuple{starlark.String(out), starlark.MakeInt(n)}, nil
		}
		return starlark.String(out), nil
	case "split":
		var s string
		maxsplit := 0
		if err := starlark.UnpackArgs(fn, args, kwargs, "string", &s, "maxsplit?", &maxsplit); err != nil {
			return nil, err
		}
		return p.split(thread, s, maxsplit)
	}
	return nil, Errorf("AttributeError", "re.Pattern has no attribute %q", name)
}

func (p *Pattern) find(s, sub string, pos int, mode string) starlark.Value {
	var loc []int
	switch mode {
	case "search":
		loc = p.submatchAt(sub, pos)
	case "match":
		p.once.Do(p.anchor)
		loc = shift(p.anchored.FindStringSubmatchIndex(sub[pos:]), pos)
	case "fullmatch":
		p.once.Do(p.anchor)
		loc = shift(p.full.FindStringSubmatchIndex(sub[pos:]), pos)
	}
	if loc == nil {
		return starlark.None
	}
	return &Match{p: p, s: s, loc: loc}
}

// anchor builds the match and fullmatch variants: the flags group of the
// source applies inside the non-capturing group, ^ and \z stay outside it.
func (p *Pattern) anchor() {
	src := p.re.String()
	p.anchored = regexp.MustCompile(`^(?:` + src + `)`)
	p.full = regexp.MustCompile(`^(?:` + src + `)\z`)
	p.after = regexp.MustCompile(`^(?s:.)(?:` + src + `)`)
}

// matches returns the successive matches of p in s as Python 3.7+ finds
// them (re.sub, re.split, re.findall, re.finditer): Go's, plus the empty
// match right after a non-empty one, which Go skips and Python keeps
// (re.sub('x*', '-', 'abxd') is '-a-b--d-'). A lazy pattern whose preferred
// match is empty is not retried for a non-empty match at the same position
// (re.findall('a*?', 'aa') differs from CPython).
func (p *Pattern) matches(s string) [][]int {
	locs := p.re.FindAllStringSubmatchIndex(s, -1)
	var out [][]int
	for i, loc := range locs {
		if out != nil {
			out = append(out, loc)
		}
		end := loc[1]
		if end == loc[0] || i+1 < len(locs) && locs[i+1][0] == end {
			continue
		}
		// Go found a non-empty match and the next one does not start where
		// it ends: the preferred match there may be an empty one Go dropped.
		if e := p.emptyAt(s, end); e != nil {
			if out == nil {
				out = append(make([][]int, 0, len(locs)+1), locs[:i+1]...)
			}
			out = append(out, e)
		}
	}
	if out == nil {
		return locs
	}
	return out
}

// emptyAt returns the submatch indexes of the preferred match of p at
// position at of s when it is empty, else nil. One rune of left context is
// enough for RE2's assertions (^ $ \A \z \b \B).
func (p *Pattern) emptyAt(s string, at int) []int {
	p.once.Do(p.anchor)
	var loc []int
	if at == 0 {
		loc = p.anchored.FindStringSubmatchIndex(s)
	} else {
		_, w := utf8.DecodeLastRuneInString(s[:at])
		loc = shift(p.after.FindStringSubmatchIndex(s[at-w:]), at-w)
	}
	if loc == nil || loc[1] != at {
		return nil
	}
	loc[0] = at
	return loc
}

func shift(loc []int, by int) []int {
	for i := range loc {
		if loc[i] >= 0 {
			loc[i] += by
		}
	}
	return loc
}

func (p *Pattern) submatchAt(s string, pos int) []int {
	if pos == 0 {
		return p.re.FindStringSubmatchIndex(s)
	}
	// Keep ^ and \b semantics relative to the whole string where we can: RE2
	// has no "start at" API, so search the suffix.
	return shift(p.re.FindStringSubmatchIndex(s[pos:]), pos)
}

func (p *Pattern) findAll(thread *starlark.Thread, s, sub string, pos int, iter bool) (starlark.Value, error) {
	lim := Limit(thread)
	var out []starlark.Value
	var size int64
	ng := p.re.NumSubexp()
	for _, loc := range p.matches(sub[pos:]) {
		loc = shift(loc, pos)
		size += ElemBytes
		var v starlark.Value
		switch {
		case iter:
			v = &Match{p: p, s: s, loc: loc}
			size += int64(len(loc)) * 8
		case ng == 0:
			v = starlark.String(s[loc[0]:loc[1]])
		case ng == 1:
			v = starlark.String(groupStr(s, loc, 1))
		default:
			t := make(starlark.Tuple, ng)
			for g := 1; g <= ng; g++ {
				t[g-1] = starlark.String(groupStr(s, loc, g))
			}
			v = t
			size += int64(ng) * ElemBytes
		}
		if size > lim {
			return nil, CheckSize(thread, "re.findall's result", size)
		}
		out = append(out, v)
	}
	return starlark.NewList(out), nil
}

func groupStr(s string, loc []int, g int) string {
	if 2*g+1 >= len(loc) || loc[2*g] < 0 {
		return ""
	}
	return s[loc[2*g]:loc[2*g+1]]
}

func (p *Pattern) sub(thread *starlark.Thread, repl starlark.Value, s string, count int) (string, int, error) {
	var tmpl []tmplPart
	fn, callable := repl.(starlark.Callable)
	if !callable {
		rs, ok := repl.(starlark.String)
		if !ok {
			return "", 0, Errorf("TypeError", "re.sub: repl must be a str or a function, not %s", TypeName(repl))
		}
		var err error
		if tmpl, err = parseTemplate(string(rs), p.re); err != nil {
			return "", 0, err
		}
	}
	lim := Limit(thread)
	var b strings.Builder
	last, n := 0, 0
	for _, loc := range p.matches(s) {
		if count > 0 && n >= count {
			break
		}
		b.WriteString(s[last:loc[0]])
		if callable {
			v, err := starlark.Call(thread, fn, starlark.Tuple{&Match{p: p, s: s, loc: loc}}, nil)
			if err != nil {
				return "", 0, err
			}
			vs, ok := v.(starlark.String)
			if !ok {
				return "", 0, Errorf("TypeError", "re.sub: the replacement function must return a str, not %s", TypeName(v))
			}
			b.WriteString(string(vs))
		} else {
			for _, t := range tmpl {
				if t.group < 0 {
					b.WriteString(t.lit)
				} else {
					b.WriteString(groupStr(s, loc, t.group))
				}
			}
		}
		last = loc[1]
		n++
		if int64(b.Len()) > lim {
			return "", 0, CheckSize(thread, "re.sub's result", int64(b.Len())+int64(len(s)-last))
		}
	}
	b.WriteString(s[last:])
	if int64(b.Len()) > lim {
		return "", 0, CheckSize(thread, "re.sub's result", int64(b.Len()))
	}
	return b.String(), n, nil
}

type tmplPart struct {
	lit   string
	group int // -1 for a literal
}

// parseTemplate reads a Python replacement template: \1, \g<1>, \g<name>, escapes.
func parseTemplate(t string, re *regexp.Regexp) ([]tmplPart, error) {
	var parts []tmplPart
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			parts = append(parts, tmplPart{lit: lit.String(), group: -1})
			lit.Reset()
		}
	}
	for i := 0; i < len(t); i++ {
		if t[i] != '\\' || i+1 == len(t) {
			lit.WriteByte(t[i])
			continue
		}
		i++
		c := t[i]
		isOct := func(k int) bool { return k < len(t) && t[k] >= '0' && t[k] <= '7' }
		switch {
		case c == '0' || isOct(i) && isOct(i+1) && isOct(i+2):
			// Python: \0, \0NN and \NNN (three octal digits) are characters, not groups.
			j := i + 1
			for j < len(t) && j < i+3 && isOct(j) {
				j++
			}
			v, _ := strconv.ParseUint(t[i:j], 8, 16)
			if v > 0o377 {
				return nil, Errorf("re.error", "octal escape value \\%s outside of range 0-0o377", t[i:j])
			}
			lit.WriteRune(rune(v))
			i = j - 1
		case c >= '1' && c <= '9':
			j := i + 1
			if j < len(t) && t[j] >= '0' && t[j] <= '9' {
				j++
			}
			g, _ := strconv.Atoi(t[i:j])
			if g > re.NumSubexp() {
				return nil, Errorf("re.error", "invalid group reference %d", g)
			}
			flush()
			parts = append(parts, tmplPart{group: g})
			i = j - 1
		case c == 'g' && i+1 < len(t) && t[i+1] == '<':
			end := strings.IndexByte(t[i:], '>')
			if end < 0 {
				return nil, Errorf("re.error", "missing > in group reference")
			}
			name := t[i+2 : i+end]
			g, err := strconv.Atoi(name)
			if err != nil {
				g = re.SubexpIndex(name)
				if g < 0 {
					return nil, Errorf("IndexError", "unknown group name %q", name)
				}
			} else if g > re.NumSubexp() {
				return nil, Errorf("re.error", "invalid group reference %d", g)
			}
			flush()
			parts = append(parts, tmplPart{group: g})
			i += end
		case c == 'n':
			lit.WriteByte('\n')
		case c == 't':
			lit.WriteByte('\t')
		case c == 'r':
			lit.WriteByte('\r')
		case c == '\\':
			lit.WriteByte('\\')
		case c == 'a':
			lit.WriteByte('\a')
		case c == 'b':
			lit.WriteByte('\b')
		case c == 'f':
			lit.WriteByte('\f')
		case c == 'v':
			lit.WriteByte('\v')
		default:
			lit.WriteByte('\\')
			lit.WriteByte(c)
		}
	}
	flush()
	return parts, nil
}

func (p *Pattern) split(thread *starlark.Thread, s string, maxsplit int) (starlark.Value, error) {
	lim := Limit(thread)
	var out []starlark.Value
	last, n := 0, 0
	for _, loc := range p.matches(s) {
		if maxsplit > 0 && n >= maxsplit {
			break
		}
		out = append(out, starlark.String(s[last:loc[0]]))
		for g := 1; g <= p.re.NumSubexp(); g++ {
			if loc[2*g] < 0 {
				out = append(out, starlark.None)
			} else {
				out = append(out, starlark.String(s[loc[2*g]:loc[2*g+1]]))
			}
		}
		last = loc[1]
		n++
		if int64(len(out))*ElemBytes > lim {
			return nil, CheckSize(thread, "re.split's result", int64(len(out))*ElemBytes)
		}
	}
	out = append(out, starlark.String(s[last:]))
	return starlark.NewList(out), nil
}

// Match is a match object (Python's re.Match).
type Match struct {
	p   *Pattern
	s   string
	loc []int
}

var (
	_ starlark.HasAttrs  = (*Match)(nil)
	_ starlark.Indexable = (*Match)(nil)
)

func (m *Match) String() string {
	return fmt.Sprintf("<re.Match object; span=(%d, %d), match=%s>", m.loc[0], m.loc[1], starlark.String(m.s[m.loc[0]:m.loc[1]]).String())
}
func (m *Match) Type() string          { return "re.Match" }
func (m *Match) Freeze()               {}
func (m *Match) Truth() starlark.Bool  { return true }
func (m *Match) Hash() (uint32, error) { return 0, Errorf("TypeError", "unhashable type: re.Match") }
func (m *Match) Len() int              { return len(m.loc) / 2 }
func (m *Match) Index(i int) starlark.Value {
	return m.groupValue(i)
}
func (m *Match) AttrNames() []string {
	return []string{"end", "group", "groupdict", "groups", "lastindex", "pos", "re", "span", "start", "string"}
}

func (m *Match) groupValue(g int) starlark.Value {
	if g < 0 || 2*g+1 >= len(m.loc) || m.loc[2*g] < 0 {
		return starlark.None
	}
	return starlark.String(m.s[m.loc[2*g]:m.loc[2*g+1]])
}

func (m *Match) groupIndex(v starlark.Value) (int, error) {
	switch v := v.(type) {
	case starlark.String:
		g := m.p.re.SubexpIndex(string(v))
		if g < 0 {
			return 0, Errorf("IndexError", "no such group %q", string(v))
		}
		return g, nil
	case starlark.Int:
		g, ok := v.Int64()
		if !ok || g < 0 || int(g) > m.p.re.NumSubexp() {
			return 0, Errorf("IndexError", "no such group %s", v.String())
		}
		return int(g), nil
	}
	return 0, Errorf("IndexError", "no such group")
}

func (m *Match) Attr(name string) (starlark.Value, error) {
	switch name {
	case "string":
		return starlark.String(m.s), nil
	case "re":
		return m.p, nil
	case "pos":
		return starlark.MakeInt(0), nil
	case "lastindex":
		for g := m.p.re.NumSubexp(); g >= 1; g-- {
			if m.loc[2*g] >= 0 {
				return starlark.MakeInt(g), nil
			}
		}
		return starlark.None, nil
	case "group":
		return starlark.NewBuiltin("Match.group", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			if len(args) == 0 {
				return m.groupValue(0), nil
			}
			vals := make(starlark.Tuple, len(args))
			for i, a := range args {
				g, err := m.groupIndex(a)
				if err != nil {
					return nil, err
				}
				vals[i] = m.groupValue(g)
			}
			if len(vals) == 1 {
				return vals[0], nil
			}
			return vals, nil
		}), nil
	case "groups":
		return starlark.NewBuiltin("Match.groups", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var def starlark.Value = starlark.None
			if err := starlark.UnpackArgs(b.Name(), args, kwargs, "default?", &def); err != nil {
				return nil, err
			}
			n := m.p.re.NumSubexp()
			t := make(starlark.Tuple, n)
			for g := 1; g <= n; g++ {
				if v := m.groupValue(g); v == starlark.None {
					t[g-1] = def
				} else {
					t[g-1] = v
				}
			}
			return t, nil
		}), nil
	case "groupdict":
		return starlark.NewBuiltin("Match.groupdict", func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var def starlark.Value = starlark.None
			if err := starlark.UnpackArgs(b.Name(), args, kwargs, "default?", &def); err != nil {
				return nil, err
			}
			d := starlark.NewDict(2)
			for g, name := range m.p.re.SubexpNames() {
				if name == "" {
					continue
				}
				v := m.groupValue(g)
				if v == starlark.None {
					v = def
				}
				_ = d.SetKey(starlark.String(name), v)
			}
			return d, nil
		}), nil
	case "start", "end", "span":
		return starlark.NewBuiltin("Match."+name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var gv starlark.Value = starlark.MakeInt(0)
			if err := starlark.UnpackArgs(b.Name(), args, kwargs, "group?", &gv); err != nil {
				return nil, err
			}
			g, err := m.groupIndex(gv)
			if err != nil {
				return nil, err
			}
			st, en := m.loc[2*g], m.loc[2*g+1]
			switch name {
			case "start":
				return starlark.MakeInt(st), nil
			case "end":
				return starlark.MakeInt(en), nil
			}
			return starlark.Tuple{starlark.MakeInt(st), starlark.MakeInt(en)}, nil
		}), nil
	}
	return nil, nil
}
