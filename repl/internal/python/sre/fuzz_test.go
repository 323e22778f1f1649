package sre

import (
	"context"
	"errors"
	"testing"
	"unicode/utf8"
)

var fuzzSeeds = []string{
	`a`, `(a|b)*c`, `(?P<x>\d+)-(?P=x)`, `(?i)straße`, `[^\W\d_]+`, `(?<=ab)c`, `(?(1)a|b)`, `(?>a+)b`,
	`a{2,3}?`, `a*+`, `\N{EM DASH}`, `(?x) a # c`, `[a-\d]`, `(?P<a>`, `\`, `(?<=a|bc)`, `((a)|b)+\2`,
	`(?:(a)|b)++`, `(?m)^\S+ (\w+)$`, `\b|\w+`, `x*`, `[[:alpha:]]`, `(?a-u:x)`, `\U0010ffff`, `é+`,
}

// FuzzCompile feeds arbitrary patterns and flags to the parser and
// compiler: they must not panic, must report only this package's errors,
// and what compiles must run.
func FuzzCompile(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, uint16(0), false)
		f.Add(s, uint16(IGNORECASE|VERBOSE), true)
	}
	f.Fuzz(func(t *testing.T, pat string, flags uint16, isBytes bool) {
		fl := Flag(flags) &^ DEBUG
		var p *Pattern
		var err error
		if isBytes {
			p, err = CompileBytes([]byte(pat), fl)
		} else {
			p, err = Compile(pat, fl)
		}
		if err != nil {
			var e *Error
			var pe *PyError
			var u *UnsupportedError
			if !errors.As(err, &e) && !errors.As(err, &pe) && !errors.As(err, &u) {
				t.Fatalf("Compile(%q): unexpected error type %T: %v", pat, err, err)
			}
			if e != nil && e.HasPos && (e.Pos < 0 || e.Pos > utf8.RuneCountInString(pat)+len(pat)) {
				t.Fatalf("Compile(%q): position %d out of range", pat, e.Pos)
			}
			return
		}
		s := "abc aé\n日本 123 xyz"
		if _, err := p.Search(context.Background(), Str(s), 0, len(s), Limits{MaxSteps: 100000}); err != nil && !isLimit(err) {
			t.Fatalf("Search(%q): %v", pat, err)
		}
	})
}

func isLimit(err error) bool {
	var pe *PyError
	return errors.Is(err, ErrStepLimit) || errors.Is(err, ErrStackLimit) ||
		errors.As(err, &pe) && pe.Type == "SystemError"
}

// FuzzMatch runs arbitrary patterns over arbitrary subjects with every
// matching function under a step budget: each must end, and every span it
// reports must lie in the subject on character boundaries.
func FuzzMatch(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, "abc aab a-b\nxé日 12", false)
	}
	f.Add(`(a+)+b`, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", false)
	f.Add(`\xff+`, "\xff\xfe", true)
	f.Fuzz(func(t *testing.T, pat, s string, isBytes bool) {
		var p *Pattern
		var err error
		if isBytes {
			p, err = CompileBytes([]byte(pat), 0)
		} else {
			p, err = Compile(pat, 0)
		}
		if err != nil {
			return
		}
		ctx := context.Background()
		lim := Limits{MaxSteps: 200000, MaxStack: 1 << 20, MaxResult: 1 << 16}
		text := Str(s)
		check := func(what string, spans []int) {
			for i := 0; i+1 < len(spans); i += 2 {
				a, b := spans[i], spans[i+1]
				if a == -1 && b == -1 {
					continue
				}
				if a < 0 || b < a || b > len(s) {
					t.Fatalf("%s(%q, %q): span %d-%d out of range", what, pat, s, a, b)
				}
				if !isBytes && (!boundary(s, a) || !boundary(s, b)) {
					t.Fatalf("%s(%q, %q): span %d-%d not on character boundaries", what, pat, s, a, b)
				}
			}
		}
		for _, fn := range []func(context.Context, Text, int, int, Limits) (*Match, error){p.Match, p.Search, p.FullMatch} {
			m, err := fn(ctx, text, 0, len(s), lim)
			if err != nil && !isLimit(err) {
				t.Fatalf("(%q, %q): %v", pat, s, err)
			}
			if m != nil {
				check("match", m.Spans)
			}
		}
		err = p.FindAll(ctx, text, 0, len(s), lim, func(m *Match) error {
			check("findall", m.Spans)
			return nil
		})
		if err != nil && !isLimit(err) && !errors.Is(err, ErrResultTooLarge) {
			t.Fatalf("FindAll(%q, %q): %v", pat, s, err)
		}
		err = p.Split(ctx, text, 0, lim, func(a, b int) error {
			check("split", []int{a, b})
			return nil
		})
		if err != nil && !isLimit(err) && !errors.Is(err, ErrResultTooLarge) {
			t.Fatalf("Split(%q, %q): %v", pat, s, err)
		}
		tmpl, err := p.ParseTemplate(`<\g<0>>`)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := p.Sub(ctx, nil, text, tmpl, 0, lim); err != nil && !isLimit(err) && !errors.Is(err, ErrResultTooLarge) {
			t.Fatalf("Sub(%q, %q): %v", pat, s, err)
		}
	})
}

// boundary reports whether off is a character boundary of s as the
// matcher reads it (each invalid byte is one character).
func boundary(s string, off int) bool {
	for i := 0; i < len(s); {
		if i == off {
			return true
		}
		if i > off {
			return false
		}
		_, w := utf8.DecodeRuneInString(s[i:])
		i += w
	}
	return off == len(s)
}

// FuzzTemplate feeds arbitrary replacement templates to the template
// parser and expands what parses.
func FuzzTemplate(f *testing.F) {
	for _, s := range []string{`\1`, `\g<name>`, `\g<0>\n`, `\400`, `\q`, `\g<`, `a\\`, `\0\012`} {
		f.Add(`(?P<name>a)(b)?`, s)
	}
	f.Fuzz(func(t *testing.T, pat, repl string) {
		p, err := Compile(pat, 0)
		if err != nil {
			return
		}
		tmpl, err := p.ParseTemplate(repl)
		if err != nil {
			var e *Error
			var pe *PyError
			if !errors.As(err, &e) && !errors.As(err, &pe) {
				t.Fatalf("ParseTemplate(%q): unexpected error type %T", repl, err)
			}
			return
		}
		s := "xab ab a"
		if _, _, err := p.Sub(context.Background(), nil, Str(s), tmpl, 0, Limits{MaxSteps: 100000}); err != nil && !isLimit(err) {
			t.Fatalf("Sub: %v", err)
		}
	})
}
