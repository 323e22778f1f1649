package sre

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"os"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestUnicodeDigests checks the per-code-point functions against digests
// recorded from CPython 3.12 by testdata/gen_tables.py:
//
//	/root/.pyenv/versions/3.12.1/bin/python3.12 testdata/gen_tables.py
func TestUnicodeDigests(t *testing.T) {
	initTables()
	b2i := func(b bool) uint32 {
		if b {
			return 1
		}
		return 0
	}
	funcs := map[string]func(rune) uint32{
		"lower":       func(c rune) uint32 { return uint32(uniLower(c)) },
		"upper":       func(c rune) uint32 { return uint32(uniUpper(c)) },
		"word":        func(c rune) uint32 { return b2i(isUniWord(c)) },
		"digit":       func(c rune) uint32 { return b2i(isUniDigit(c)) },
		"space":       func(c rune) uint32 { return b2i(isUniSpace(c)) },
		"xidstart":    func(c rune) uint32 { return b2i(isXIDStart(c)) },
		"xidcontinue": func(c rune) uint32 { return b2i(isXIDContinue(c)) },
		"printable":   func(c rune) uint32 { return b2i(isPrintable(c)) },
		"iscased":     func(c rune) uint32 { return b2i(uniIsCased(c)) },
	}
	f, err := os.Open("testdata/unicode_digests.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		name, want, _ := strings.Cut(sc.Text(), " ")
		fn := funcs[name]
		if fn == nil {
			t.Fatalf("no function for %q", name)
		}
		h := sha256.New()
		var buf [4]byte
		for c := rune(0); c <= utf8.MaxRune; c++ {
			binary.LittleEndian.PutUint32(buf[:], fn(c))
			h.Write(buf[:])
		}
		if got := hex.EncodeToString(h.Sum(nil)); got != want {
			t.Errorf("%s: digest %s, CPython %s", name, got, want)
		}
		n++
	}
	if n != len(funcs) {
		t.Errorf("checked %d digests, want %d", n, len(funcs))
	}
}

// TestCaseInvariants checks the facts the set compiler relies on.
func TestCaseInvariants(t *testing.T) {
	initTables()
	for c := rune(0); c <= utf8.MaxRune; c++ {
		lo := uniLower(c)
		if uniLower(lo) != lo {
			t.Fatalf("lower(lower(%U)) != lower(%U)", c, c)
		}
		if (c < 0x10000) != (lo < 0x10000) {
			t.Fatalf("lower(%U) = %U crosses the BMP boundary", c, lo)
		}
	}
}

// TestDecodeConsistency checks that stepping back with the UTF-8 decoder
// finds exactly the boundaries stepping forward does, invalid bytes
// included: the matcher relies on it when it backtracks and looks behind.
func TestDecodeConsistency(t *testing.T) {
	for _, s := range []string{
		"", "abc", "naïve café", "日本語", "😀x", "\xff\xfe", "a\x80\x80\x80\x80", "\xe0\xc3\xa9",
		"\xe0\xa9\xa9", "\xe0\x80\xa9", "\xf0\x9f\x98", "\xf0\x9f\x98a", "\xc3\xa9\xa9", "\xed\xa0\x80",
	} {
		checkDecode(t, s)
	}
}

func checkDecode(t *testing.T, s string) {
	var fwd []int
	for i := 0; i < len(s); {
		fwd = append(fwd, i)
		_, w := utf8.DecodeRuneInString(s[i:])
		i += w
	}
	fwd = append(fwd, len(s))
	m := &machine{s: s, end: len(s)}
	for k := len(fwd) - 1; k > 0; k-- {
		c, w := m.prevChar(fwd[k])
		if fwd[k]-w != fwd[k-1] {
			t.Fatalf("%q: back from %d lands at %d, want %d", s, fwd[k], fwd[k]-w, fwd[k-1])
		}
		c2, _ := utf8.DecodeRuneInString(s[fwd[k-1]:])
		if c != c2 {
			t.Fatalf("%q: back from %d reads %U, forward %U", s, fwd[k], c, c2)
		}
	}
}

func FuzzDecodeConsistency(f *testing.F) {
	f.Add("naïve\xff\xe0\x80")
	f.Fuzz(func(t *testing.T, s string) { checkDecode(t, s) })
}

func mustCompile(t testing.TB, pat string, flags Flag) *Pattern {
	t.Helper()
	p, err := Compile(pat, flags)
	if err != nil {
		t.Fatalf("Compile(%q): %v", pat, err)
	}
	return p
}

func TestLimits(t *testing.T) {
	ctx := context.Background()
	evil := mustCompile(t, `(a+)+b`, 0)
	text := Str(strings.Repeat("a", 40))
	tests := []struct {
		name string
		run  func() error
		want error
	}{
		{"steps", func() error {
			_, err := evil.Search(ctx, text, 0, text.Len(), Limits{MaxSteps: 100000})
			return err
		}, ErrStepLimit},
		{"canceled", func() error {
			c, cancel := context.WithCancel(ctx)
			cancel()
			_, err := evil.Search(c, text, 0, text.Len(), Limits{})
			return err
		}, context.Canceled},
		{"stack", func() error {
			p := mustCompile(t, `(?:ab|ba)*c`, 0)
			s := strings.Repeat("ab", 100000)
			_, err := p.Search(ctx, Str(s), 0, len(s), Limits{MaxStack: 1 << 16})
			return err
		}, ErrStackLimit},
		{"sub result", func() error {
			p := mustCompile(t, `a`, 0)
			tmpl, _ := p.ParseTemplate(strings.Repeat("x", 100))
			s := strings.Repeat("a", 1000)
			_, _, err := p.Sub(ctx, nil, Str(s), tmpl, 0, Limits{MaxResult: 10000})
			return err
		}, ErrResultTooLarge},
		{"findall result", func() error {
			p := mustCompile(t, ``, 0)
			s := strings.Repeat("a", 1000)
			return p.FindAll(ctx, Str(s), 0, len(s), Limits{MaxResult: 500}, func(*Match) error { return nil })
		}, ErrResultTooLarge},
		{"split result", func() error {
			p := mustCompile(t, `,`, 0)
			s := strings.Repeat("ab,", 1000)
			return p.Split(ctx, Str(s), 0, Limits{MaxResult: 100}, func(int, int) error { return nil })
		}, ErrResultTooLarge},
		{"scanner steps", func() error {
			p := mustCompile(t, `\w`, 0)
			s := strings.Repeat("a", 100000)
			sc := p.Scanner(Str(s), 0, len(s), Limits{MaxSteps: 5000})
			for {
				m, err := sc.Search(ctx)
				if err != nil || m == nil {
					return err
				}
			}
		}, ErrStepLimit},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.run(); !errors.Is(err, tt.want) {
				t.Errorf("error %v, want %v", err, tt.want)
			}
		})
	}
}

// TestDeadlineDuringScan checks that a long search ends when its context
// does, though it finds nothing to backtrack over.
func TestCancelLongScan(t *testing.T) {
	p := mustCompile(t, `(x+x+)+y`, 0)
	s := strings.Repeat("x", 30)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := p.Search(ctx, Str(s), 0, len(s), Limits{})
		done <- err
	}()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
}

func TestScannerMatch(t *testing.T) {
	p := mustCompile(t, `\d+|[a-z]+`, 0)
	s := "abc123de!x"
	sc := p.Scanner(Str(s), 0, len(s), Limits{})
	var got []string
	for {
		m, err := sc.Match(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if m == nil {
			break
		}
		g, _ := m.Group(Str(s), 0)
		got = append(got, g)
	}
	if strings.Join(got, ",") != "abc,123,de" {
		t.Errorf("matches %q", got)
	}
}

func TestPatternFacts(t *testing.T) {
	tests := []struct {
		pat    string
		flags  Flag
		groups int
		names  string
		pflags Flag
		repr   string
	}{
		{`a`, 0, 0, "", UNICODE, ""},
		{`(?P<x>a)(b)(?P<y>c)`, IGNORECASE, 3, "x=1,y=3", IGNORECASE | UNICODE, "re.IGNORECASE"},
		{`(?x)(?m)a`, 0, 0, "", VERBOSE | MULTILINE | UNICODE, "re.MULTILINE|re.VERBOSE"},
		{`(?a)a`, 0, 0, "", ASCII, "re.ASCII"},
		{`a`, DOTALL | 1024, 0, "", DOTALL | UNICODE | 1024, "re.DOTALL|0x400"},
	}
	for _, tt := range tests {
		p := mustCompile(t, tt.pat, tt.flags)
		var names []string
		for _, g := range p.GroupIndex() {
			names = append(names, g.Name+"="+string(rune('0'+g.Index)))
		}
		if p.Groups() != tt.groups || strings.Join(names, ",") != tt.names || p.Flags() != tt.pflags {
			t.Errorf("%q: groups %d names %v flags %d", tt.pat, p.Groups(), names, p.Flags())
		}
		if got := p.FlagsRepr(); got != tt.repr {
			t.Errorf("%q: FlagsRepr %q, want %q", tt.pat, got, tt.repr)
		}
	}
	pb, err := CompileBytes([]byte(`(?L)a`), 0)
	if err != nil || pb.Flags() != LOCALE || pb.FlagsRepr() != "re.LOCALE" {
		t.Errorf("bytes pattern: %v %v %q", err, pb.Flags(), pb.FlagsRepr())
	}
}

func TestTemplateLiteral(t *testing.T) {
	p := mustCompile(t, `(a)`, 0)
	for _, tt := range []struct {
		repl, lit string
		ok        bool
	}{
		{`plain`, "plain", true},
		{`a\nb`, "a\nb", true},
		{`x\1`, "", false},
		{`\g<0>`, "", false},
		{`\.`, `\.`, true},
	} {
		tmpl, err := p.ParseTemplate(tt.repl)
		if err != nil {
			t.Fatal(err)
		}
		if lit, ok := tmpl.Literal(); lit != tt.lit || ok != tt.ok {
			t.Errorf("%q: Literal() = %q, %v", tt.repl, lit, ok)
		}
	}
}

func TestReplacerError(t *testing.T) {
	p := mustCompile(t, `a`, 0)
	boom := errors.New("boom")
	_, n, err := p.Sub(context.Background(), nil, Str("xaya"), ReplacerFunc(func(dst []byte, _ Text, _ *Match) ([]byte, error) {
		return dst, boom
	}), 0, Limits{})
	if !errors.Is(err, boom) || n != 0 {
		t.Errorf("Sub = %d, %v", n, err)
	}
}

func TestBytesText(t *testing.T) {
	p, err := CompileBytes([]byte(`\xff+`), 0)
	if err != nil {
		t.Fatal(err)
	}
	b := []byte("a\xff\xffb")
	m, err := p.Search(context.Background(), Bytes(b), 0, len(b), Limits{})
	if err != nil || m == nil || m.Spans[0] != 1 || m.Spans[1] != 3 {
		t.Fatalf("Search = %v, %v", m, err)
	}
	// A str pattern reads invalid UTF-8 as U+FFFD, one character per byte.
	ps := mustCompile(t, `\ufffd.`, 0)
	m, err = ps.Search(context.Background(), Bytes(b), 0, len(b), Limits{})
	if err != nil || m == nil || m.Spans[0] != 1 || m.Spans[1] != 3 {
		t.Fatalf("Search = %v, %v", m, err)
	}
}

func TestUnsupported(t *testing.T) {
	_, err := Compile(`a`, DEBUG)
	var u *UnsupportedError
	if !errors.As(err, &u) {
		t.Errorf("DEBUG: %v", err)
	}
}

// TestLinearSearch checks that searches a naive backtracking search would
// make quadratic stay within a step budget linear in the input.
func TestLinearSearch(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct{ pat, s string }{
		{`[ab]*c`, strings.Repeat("ab", 100000)},
		{`.*x`, strings.Repeat("y", 200000)},
		{`\s+$`, strings.Repeat(" ", 100000) + "a"},
		{`(\d+)ms`, strings.Repeat("1", 200000)},
		{`\w+@`, strings.Repeat("é", 100000)},
	} {
		p := mustCompile(t, tt.pat, 0)
		if m, err := p.Search(ctx, Str(tt.s), 0, len(tt.s), Limits{MaxSteps: 20 * int64(len(tt.s))}); err != nil || m != nil {
			t.Errorf("%q: %v, %v", tt.pat, m, err)
		}
	}
}
