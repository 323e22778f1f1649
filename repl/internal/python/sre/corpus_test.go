package sre

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
)

// The corpus in testdata/corpus.jsonl is recorded from CPython 3.12 by
//
//	/root/.pyenv/versions/3.12.1/bin/python3.12 testdata/gen_corpus.py
//
// (run from this directory). Tests only read it.

type corpusCase struct {
	Fn       string          `json:"fn"`
	Pat      string          `json:"pat"`
	Bytes    bool            `json:"bytes"`
	Flags    int             `json:"flags"`
	S        *string         `json:"s"`
	Pos      *int            `json:"pos"`
	EndPos   *int            `json:"endpos"`
	Repl     string          `json:"repl"`
	Count    int             `json:"count"`
	MaxSplit int             `json:"maxsplit"`
	Out      json.RawMessage `json:"out"`
	Err      *corpusErr      `json:"err"`
	line     int
}

type corpusErr struct {
	Type   string `json:"type"`
	Msg    string `json:"msg"`
	Pos    *int   `json:"pos"`
	Lineno *int   `json:"lineno"`
	Colno  *int   `json:"colno"`
	Str    string `json:"str"`
}

type recordedMatch struct {
	Spans [][2]int `json:"spans"`
	Last  *int     `json:"last"`
}

func loadCorpus(t testing.TB) []*corpusCase {
	f, err := os.Open("testdata/corpus.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []*corpusCase
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	line := 0
	for sc.Scan() {
		line++
		c := &corpusCase{line: line}
		if err := json.Unmarshal(sc.Bytes(), c); err != nil {
			t.Fatalf("line %d: %v", line, err)
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// latin1 turns a recorded latin-1 string back into bytes.
func latin1(s string) string {
	b := make([]byte, 0, len(s))
	for _, r := range s {
		b = append(b, byte(r))
	}
	return string(b)
}

func toLatin1(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		b.WriteRune(rune(s[i]))
	}
	return b.String()
}

// subject holds a subject and its offset conversions.
type subject struct {
	text    Text
	s       string
	isBytes bool
	cp      map[int]int // byte offset -> code point index
	byteAt  []int       // code point index -> byte offset
}

func newSubject(s string, isBytes bool) *subject {
	sub := &subject{s: s, isBytes: isBytes, text: Str(s), cp: map[int]int{}}
	if isBytes {
		return sub
	}
	i := 0
	for off := range s {
		sub.cp[off] = i
		sub.byteAt = append(sub.byteAt, off)
		i++
	}
	sub.cp[len(s)] = i
	sub.byteAt = append(sub.byteAt, len(s))
	return sub
}

func (sub *subject) length() int {
	if sub.isBytes {
		return len(sub.s)
	}
	return len(sub.byteAt) - 1
}

// toByte converts a clamped position to a byte offset.
func (sub *subject) toByte(p int) int {
	if sub.isBytes {
		return p
	}
	return sub.byteAt[p]
}

func (sub *subject) toPos(off int) int {
	if off < 0 || sub.isBytes {
		return off
	}
	p, ok := sub.cp[off]
	if !ok {
		return -1000000 - off // not a character boundary: always a mismatch
	}
	return p
}

func (sub *subject) text2(s string) string {
	if sub.isBytes {
		return toLatin1(s)
	}
	return s
}

func (sub *subject) matchRecord(m *Match) *recordedMatch {
	if m == nil {
		return nil
	}
	r := &recordedMatch{}
	for g := 0; 2*g < len(m.Spans); g++ {
		s, e := m.Span(g)
		r.Spans = append(r.Spans, [2]int{sub.toPos(s), sub.toPos(e)})
	}
	if m.LastIndex >= 0 {
		li := m.LastIndex
		r.Last = &li
	}
	return r
}

func errRecord(err error) *corpusErr {
	var re *Error
	var pe *PyError
	switch {
	case errors.As(err, &re):
		r := &corpusErr{Type: "error", Msg: re.Msg, Str: re.Error()}
		if re.IsBytes {
			r.Msg = toLatin1(re.Msg)
		}
		if re.HasPos {
			pos, ln, col := re.Pos, re.Lineno, re.Colno
			r.Pos, r.Lineno, r.Colno = &pos, &ln, &col
		}
		return r
	case errors.As(err, &pe):
		return &corpusErr{Type: pe.Type, Msg: pe.Msg}
	}
	return &corpusErr{Type: "Go", Msg: err.Error()}
}

func sameErr(want, got *corpusErr) bool {
	if want.Type != got.Type || want.Msg != got.Msg {
		return false
	}
	if want.Type != "error" {
		return true
	}
	return reflect.DeepEqual(want.Pos, got.Pos) && reflect.DeepEqual(want.Lineno, got.Lineno) &&
		reflect.DeepEqual(want.Colno, got.Colno) && want.Str == got.Str
}

// runCase runs one corpus case and returns the result in the recorded
// JSON form (or an error record).
func runCase(c *corpusCase) (any, *corpusErr) {
	ctx := context.Background()
	lim := Limits{MaxSteps: 50_000_000}
	pat := c.Pat
	if c.Bytes {
		pat = latin1(pat)
	}
	if c.Fn == "escape" {
		if c.Bytes {
			return toLatin1(Escape(pat)), nil
		}
		return Escape(pat), nil
	}
	var p *Pattern
	var err error
	if c.Bytes {
		p, err = CompileBytes([]byte(pat), Flag(c.Flags))
	} else {
		p, err = Compile(pat, Flag(c.Flags))
	}
	if err != nil {
		return nil, errRecord(err)
	}
	if c.Fn == "compile" {
		gi := [][]any{}
		for _, g := range p.GroupIndex() {
			gi = append(gi, []any{g.Name, g.Index})
		}
		ws := [][]string{}
		for _, w := range p.Warnings() {
			ws = append(ws, []string{w.Category, w.Msg})
		}
		return map[string]any{"groups": p.Groups(), "groupindex": gi, "flags": int(p.Flags()), "warnings": ws,
			"flagsrepr": p.FlagsRepr()}, nil
	}
	s := *c.S
	if c.Bytes {
		s = latin1(s)
	}
	sub := newSubject(s, c.Bytes)
	n := sub.length()
	pos, endpos := 0, n
	if c.Pos != nil {
		pos = min(max(*c.Pos, 0), n)
	}
	if c.EndPos != nil {
		endpos = min(max(*c.EndPos, 0), n)
	}
	bpos, bend := sub.toByte(pos), sub.toByte(endpos)
	switch c.Fn {
	case "match", "search", "fullmatch":
		var m *Match
		switch c.Fn {
		case "match":
			m, err = p.Match(ctx, sub.text, bpos, bend, lim)
		case "search":
			m, err = p.Search(ctx, sub.text, bpos, bend, lim)
		default:
			m, err = p.FullMatch(ctx, sub.text, bpos, bend, lim)
		}
		if err != nil {
			return nil, errRecord(err)
		}
		return sub.matchRecord(m), nil
	case "finditer":
		out := []*recordedMatch{}
		sc := p.Scanner(sub.text, bpos, bend, lim)
		for {
			m, err := sc.Search(ctx)
			if err != nil {
				return nil, errRecord(err)
			}
			if m == nil {
				break
			}
			out = append(out, sub.matchRecord(m))
		}
		return out, nil
	case "findall":
		out := []any{}
		err := p.FindAll(ctx, sub.text, bpos, bend, lim, func(m *Match) error {
			group := func(g int) string {
				v, _ := m.Group(sub.text, g)
				return sub.text2(v)
			}
			switch p.Groups() {
			case 0:
				out = append(out, group(0))
			case 1:
				out = append(out, group(1))
			default:
				var tup []string
				for g := 1; g <= p.Groups(); g++ {
					tup = append(tup, group(g))
				}
				out = append(out, tup)
			}
			return nil
		})
		if err != nil {
			return nil, errRecord(err)
		}
		return out, nil
	case "split":
		out := []any{}
		err := p.Split(ctx, sub.text, c.MaxSplit, lim, func(s, e int) error {
			if s < 0 {
				out = append(out, nil)
			} else {
				out = append(out, sub.text2(sub.s[s:e]))
			}
			return nil
		})
		if err != nil {
			return nil, errRecord(err)
		}
		return out, nil
	case "sub", "subn", "expand":
		var repl Replacer
		if c.Repl == "func:wrap" {
			repl = ReplacerFunc(func(dst []byte, t Text, m *Match) ([]byte, error) {
				v, _ := m.Group(t, 0)
				return append(append(append(dst, '['), v...), ']'), nil
			})
		} else {
			r := c.Repl
			if c.Bytes {
				r = latin1(r)
			}
			tmpl, err := p.ParseTemplate(r)
			if err != nil {
				return nil, errRecord(err)
			}
			repl = tmpl
		}
		if c.Fn == "expand" {
			m, err := p.Search(ctx, sub.text, 0, len(s), lim)
			if err != nil {
				return nil, errRecord(err)
			}
			if m == nil {
				return nil, nil
			}
			b, _ := repl.Replace(nil, sub.text, m)
			return sub.text2(string(b)), nil
		}
		b, cnt, err := p.Sub(ctx, nil, sub.text, repl, c.Count, lim)
		if err != nil {
			return nil, errRecord(err)
		}
		return []any{sub.text2(string(b)), cnt}, nil
	}
	return nil, &corpusErr{Type: "Go", Msg: "unknown fn " + c.Fn}
}

func describe(c *corpusCase) string {
	s := ""
	if c.S != nil {
		s = *c.S
	}
	extra := ""
	if c.Pos != nil {
		extra += fmt.Sprintf(" pos=%d", *c.Pos)
	}
	if c.EndPos != nil {
		extra += fmt.Sprintf(" endpos=%d", *c.EndPos)
	}
	if c.Repl != "" {
		extra += fmt.Sprintf(" repl=%q", c.Repl)
	}
	return fmt.Sprintf("line %d: %s(%q, %q, flags=%d, bytes=%v%s)", c.line, c.Fn, c.Pat, s, c.Flags, c.Bytes, extra)
}

func TestCorpus(t *testing.T) {
	cases := loadCorpus(t)
	fails := 0
	counts := map[string]int{}
	for _, c := range cases {
		counts[c.Fn]++
		got, gotErr := runCase(c)
		switch {
		case c.Err != nil:
			if gotErr == nil {
				fails++
				t.Errorf("%s: want error %+v, got %v", describe(c), *c.Err, jsonOf(got))
			} else if !sameErr(c.Err, gotErr) {
				fails++
				t.Errorf("%s: want error %s, got %s", describe(c), jsonOf(c.Err), jsonOf(gotErr))
			}
		case gotErr != nil:
			fails++
			t.Errorf("%s: want %s, got error %s", describe(c), c.Out, jsonOf(gotErr))
		default:
			if !jsonEqual(c.Out, got) {
				fails++
				t.Errorf("%s:\n want %s\n  got %s", describe(c), c.Out, jsonOf(got))
			}
		}
		if fails > 60 {
			t.Fatalf("too many failures")
		}
	}
	t.Logf("%d cases, %d failures; by function: %v", len(cases), fails, counts)
}

func jsonOf(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func jsonEqual(want json.RawMessage, got any) bool {
	var w, g any
	if err := json.Unmarshal(want, &w); err != nil {
		return false
	}
	b, err := json.Marshal(got)
	if err != nil {
		return false
	}
	if err := json.Unmarshal(b, &g); err != nil {
		return false
	}
	return reflect.DeepEqual(w, g)
}
