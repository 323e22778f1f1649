package pystr

import (
	"strings"
	"testing"
	"unicode/utf8"
)

var fuzzSeeds = []string{
	"", "a", "abc", "Hello, World", "ΣΑΣ ΟΔΟΣ", "İstanbul", "ß ﬁ", "日本語", "👍🏽 👨‍👩‍👧‍👦",
	"a\u00a0b\u3000c", "\xff\xfe", "a\xe2\x82b", "\xed\xa0\x80", "\t\n\r\x0b\x1c\x85\u2028",
	"{0!r:{1}}", "{a[b].c}", "x}}{{", "abc\tdef\n\tg", "ǅa ǈb", "A'Σ'", "\ufffd\xff",
}

// Reference implementations: code point by code point, through the
// tables only, with no ASCII fast path.

func refMap(s string, m func(*charInfo) int32) string {
	var b []byte
	for _, r := range s {
		b = appendCase(b, r, m(info(r)))
	}
	return string(b)
}

func refLower(s string) string {
	var b []byte
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		b = appendLower(b, s, i, r, size)
		i += size
	}
	return string(b)
}

func refTitle(s string) string {
	var b []byte
	prev := false
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if prev {
			b = appendLower(b, s, i, r, size)
		} else {
			b = appendCase(b, r, info(r).title)
		}
		prev = hasFlag(r, fCased)
		i += size
	}
	return string(b)
}

func refCapitalize(s string) string {
	var b []byte
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if i == 0 {
			b = appendCase(b, r, info(r).title)
		} else {
			b = appendLower(b, s, i, r, size)
		}
		i += size
	}
	return string(b)
}

func refSwapCase(s string) string {
	var b []byte
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case hasFlag(r, fUppercase):
			b = appendLower(b, s, i, r, size)
		case hasFlag(r, fLowercase):
			b = appendCase(b, r, info(r).upper)
		default:
			b = appendRune(b, r)
		}
		i += size
	}
	return string(b)
}

func refAll(s string, f uint16) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if info(r).flags&f == 0 {
			return false
		}
	}
	return true
}

// FuzzFastPaths compares the functions (with their ASCII fast paths) with
// the reference implementations.
func FuzzFastPaths(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		s = sanitize(s)
		checks := []struct {
			name      string
			got, want string
		}{
			{"Upper", Upper(s), refMap(s, func(c *charInfo) int32 { return c.upper })},
			{"Casefold", Casefold(s), refMap(s, func(c *charInfo) int32 { return c.fold })},
			{"Lower", Lower(s), refLower(s)},
			{"Title", Title(s), refTitle(s)},
			{"Capitalize", Capitalize(s), refCapitalize(s)},
			{"SwapCase", SwapCase(s), refSwapCase(s)},
		}
		for _, c := range checks {
			if c.got != c.want {
				t.Errorf("%s(%+q) = %+q, reference %+q", c.name, s, c.got, c.want)
			}
		}
		preds := []struct {
			name string
			got  bool
			want bool
		}{
			{"IsAlpha", IsAlpha(s), refAll(s, fAlpha)},
			{"IsDecimal", IsDecimal(s), refAll(s, fDecimal)},
			{"IsDigit", IsDigit(s), refAll(s, fDigit)},
			{"IsNumeric", IsNumeric(s), refAll(s, fNumeric)},
			{"IsSpace", IsSpace(s), refAll(s, fSpace)},
			{"IsAlnum", IsAlnum(s), refAll(s, fAlpha|fDecimal|fDigit|fNumeric)},
			{"IsPrintable", IsPrintable(s), s == "" || refAll(s, fPrintable)},
			{"IsASCII", IsASCII(s), !strings.ContainsFunc(s, func(r rune) bool { return r >= 0x80 })},
		}
		for _, p := range preds {
			if p.got != p.want {
				t.Errorf("%s(%+q) = %v, reference %v", p.name, s, p.got, p.want)
			}
		}
		var words []string
		words = append(words, strings.FieldsFunc(s, isSpace)...)
		if got := SplitWhitespace(s, -1); strings.Join(got, "\x00") != strings.Join(words, "\x00") {
			t.Errorf("SplitWhitespace(%+q) = %q, want %q", s, got, words)
		}
		// The Append forms, into a dst holding a stale word, match.
		join := func(v []string) string { return strings.Join(v, "\x00") }
		dst := []string{"stale"}
		for _, m := range []int{-1, 0, 1, 2, 5} {
			if got, want := SplitWhitespaceAppend(dst[:0], s, m), SplitWhitespace(s, m); join(got) != join(want) {
				t.Errorf("SplitWhitespaceAppend(%+q, %d) = %q, want %q", s, m, got, want)
			}
			for _, sep := range []string{" ", "a", "ab", "\xff", "\ufffd"} {
				want, _ := Split(s, sep, m)
				if got, _ := SplitAppend(dst[:0], s, sep, m); join(got) != join(want) {
					t.Errorf("SplitAppend(%+q, %+q, %d) = %q, want %q", s, sep, m, got, want)
				}
			}
		}
		for _, keep := range []bool{false, true} {
			if got, want := SplitLinesAppend(dst[:0], s, keep), SplitLines(s, keep); join(got) != join(want) {
				t.Errorf("SplitLinesAppend(%+q, %v) = %q, want %q", s, keep, got, want)
			}
		}
	})
}

// FuzzIndex compares the checkpoint Index, the scanning one and the ASCII
// one with a []rune reference.
func FuzzIndex(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s+s+s, 1, 7, 2, "a")
	}
	f.Fuzz(func(t *testing.T, s string, i, j, step int, sub string) {
		rs := []rune(s)
		built := new(Index)
		built.build(s) // checkpoints even for ASCII text
		idxs := map[string]*Index{"NewIndex": NewIndex(s), "checkpoints": built}
		sc := scanIndex(s)
		idxs["scan"] = &sc
		for name, x := range idxs {
			if x.Len() != len(rs) {
				t.Fatalf("%s: Len = %d, want %d", name, x.Len(), len(rs))
			}
			b := 0
			for k := 0; k <= len(rs); k++ {
				if got := x.ByteOffset(k); got != b {
					t.Fatalf("%s(%+q).ByteOffset(%d) = %d, want %d", name, s, k, got, b)
				}
				if got := x.CodePointOffset(b); got != k {
					t.Fatalf("%s(%+q).CodePointOffset(%d) = %d, want %d", name, s, b, got, k)
				}
				if k < len(rs) {
					if got := x.At(k); got != rs[k] {
						t.Fatalf("%s.At(%d) = %U, want %U", name, k, got, rs[k])
					}
					_, size := utf8.DecodeRuneInString(s[b:])
					b += size
				}
			}
			got, err := x.Slice(Int(i), Int(j), Int(step))
			want, werr := refSlice(rs, i, j, step)
			if sanitize(got) != want || (err == nil) != (werr == nil) {
				t.Fatalf("%s(%+q).Slice(%d, %d, %d) = %+q, %v; want %+q, %v", name, s, i, j, step, got, err, want, werr)
			}
			st, en := Int(i), Int(j)
			if got, want := x.Find(sub, st, en), refFind(rs, []rune(sanitize(sub)), i, j, false); got != want {
				t.Fatalf("%s(%+q).Find(%+q, %d, %d) = %d, want %d", name, s, sub, i, j, got, want)
			}
			if got, want := x.RFind(sub, st, en), refFind(rs, []rune(sanitize(sub)), i, j, true); got != want {
				t.Fatalf("%s(%+q).RFind(%+q, %d, %d) = %d, want %d", name, s, sub, i, j, got, want)
			}
		}
	})
}

func refSlice(rs []rune, i, j, step int) (string, error) {
	lo, _, st, n, err := SliceIndices(Int(i), Int(j), Int(step), len(rs))
	if err != nil {
		return "", err
	}
	var out []rune
	for k := 0; k < n; k++ {
		out = append(out, rs[lo+k*st])
	}
	return string(out), nil
}

func refFind(rs, sub []rune, i, j int, last bool) int {
	st, en := adjust(Int(i), Int(j), len(rs))
	res := -1
	for k := st; k+len(sub) <= en; k++ {
		if string(rs[k:k+len(sub)]) == string(sub) {
			res = k
			if !last {
				return k
			}
		}
	}
	return res
}

// FuzzInvalidUTF8 checks that a string holding invalid UTF-8 behaves as
// the string with each invalid byte replaced by U+FFFD.
func FuzzInvalidUTF8(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, "\xff")
	}
	f.Fuzz(func(t *testing.T, s, sub string) {
		cs, csub := sanitize(s), sanitize(sub)
		eq := func(name string, a, b any) {
			if as, ok := a.(string); ok {
				a = sanitize(as)
			}
			if as, ok := a.([]string); ok {
				for i := range as {
					as[i] = sanitize(as[i])
				}
				a = strings.Join(as, "\x00")
				b = strings.Join(b.([]string), "\x00")
			}
			if a != b {
				t.Errorf("%s(%+q, %+q) = %+q; on the sanitized strings %+q", name, s, sub, a, b)
			}
		}
		eq("Len", Len(s), Len(cs))
		eq("Find", Find(s, sub, None, None), Find(cs, csub, None, None))
		eq("FindBounded", Find(s, sub, Int(1), Int(-1)), Find(cs, csub, Int(1), Int(-1)))
		eq("RFind", RFind(s, sub, None, None), RFind(cs, csub, None, None))
		eq("Count", Count(s, sub, None, None), Count(cs, csub, None, None))
		eq("StartsWith", StartsWith(s, sub, None, None), StartsWith(cs, csub, None, None))
		eq("EndsWith", EndsWith(s, sub, Int(0), Int(-1)), EndsWith(cs, csub, Int(0), Int(-1)))
		eq("Contains", Contains(s, sub), Contains(cs, csub))
		r1, _ := Replace(s, sub, "-", -1, 1<<20)
		r2, _ := Replace(cs, csub, "-", -1, 1<<20)
		eq("Replace", r1, r2)
		if sub != "" {
			p1, _ := Split(s, sub, -1)
			p2, _ := Split(cs, csub, -1)
			eq("Split", p1, p2)
			p1, _ = RSplit(s, sub, 2)
			p2, _ = RSplit(cs, csub, 2)
			eq("RSplit", p1, p2)
		}
		eq("SplitWhitespace", SplitWhitespace(s, 3), SplitWhitespace(cs, 3))
		eq("RSplitWhitespace", RSplitWhitespace(s, 3), RSplitWhitespace(cs, 3))
		eq("SplitLines", SplitLines(s, true), SplitLines(cs, true))
		eq("StripChars", StripChars(s, sub), StripChars(cs, csub))
		eq("RemovePrefix", RemovePrefix(s, sub), RemovePrefix(cs, csub))
		eq("RemoveSuffix", RemoveSuffix(s, sub), RemoveSuffix(cs, csub))
		eq("Upper", Upper(s), Upper(cs))
		eq("Lower", Lower(s), Lower(cs))
		eq("Title", Title(s), Title(cs))
		eq("Repr", Repr(s), Repr(cs))
		eq("IsPrintable", IsPrintable(s), IsPrintable(cs))
		e1, _ := ExpandTabs(s, 4, 1<<20)
		e2, _ := ExpandTabs(cs, 4, 1<<20)
		eq("ExpandTabs", e1, e2)
		c1, _ := Center(s, 20, '*', 1<<20)
		c2, _ := Center(cs, 20, '*', 1<<20)
		eq("Center", c1, c2)
		g1, _ := Slice(s, Int(1), None, Int(-2))
		g2, _ := Slice(cs, Int(1), None, Int(-2))
		eq("Slice", g1, g2)
		u1, _ := Encode(s, "utf-16", "strict", 1<<20)
		u2, _ := Encode(cs, "utf-16", "strict", 1<<20)
		if u1 != u2 {
			t.Errorf("Encode(%+q) = %+q; on the sanitized string %+q", s, u1, u2)
		}
	})
}

// FuzzFormat runs the format string parser and Format over any input.
func FuzzFormat(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p := NewFormatParser(s)
		for n := 0; ; n++ {
			item, ok, err := p.Next()
			if !ok || err != nil {
				break
			}
			if n > len(s)+1 {
				t.Fatalf("parser of %q does not end", s)
			}
			if item.HasField {
				fn, err := ParseFieldName(item.FieldName)
				if err == nil {
					for k := 0; ; k++ {
						if _, ok, _ := fn.Next(); !ok {
							break
						}
						if k > len(s) {
							t.Fatalf("field name %q does not end", item.FieldName)
						}
					}
				}
			}
		}
		Format[fval](s, fakeHandler{}, 1<<20)
	})
}

// FuzzDecode decodes any bytes with every codec and error handler.
func FuzzDecode(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	codecs := []string{"utf-8", "utf-8-sig", "ascii", "latin-1", "utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be", "cp1252"}
	handlers := []string{"strict", "ignore", "replace", "backslashreplace", "surrogateescape", "surrogatepass", "xmlcharrefreplace"}
	f.Fuzz(func(t *testing.T, b string) {
		for _, c := range codecs {
			for _, h := range handlers {
				s, err := Decode(b, c, h, 1<<20)
				if err == nil && !utf8.ValidString(s) {
					t.Fatalf("Decode(%+q, %s, %s) = %+q, not UTF-8", b, c, h, s)
				}
			}
			// Strict decoding, then encoding, gives the bytes back.
			if s, err := Decode(b, c, "strict", 1<<20); err == nil && c != "utf-16" && c != "utf-32" && c != "utf-8-sig" {
				e, err := Encode(s, c, "strict", 1<<20)
				if err != nil || e != b {
					t.Fatalf("Encode(Decode(%+q, %s)) = %+q, %v", b, c, e, err)
				}
			}
		}
		if _, err := Decode(b, "utf-8", "strict", 1<<20); (err == nil) != utf8.ValidString(b) {
			t.Fatalf("Decode(%+q, utf-8) error %v", b, err)
		}
		LookupEncoding(b)
		Lookup(b)
	})
}

// TestSplitAppendLong covers SplitAppend's counting of the parts of a
// long string, with and without maxsplit, into a dst already holding some.
func TestSplitAppendLong(t *testing.T) {
	s := strings.Repeat("ab,cé,,", 400) + "tail"
	for _, m := range []int{-1, 0, 1, 5, 1199, 1200, 1201, 5000} {
		for _, sep := range []string{",", ",,", "é", "zz"} {
			want, _ := Split(s, sep, m)
			got, _ := SplitAppend([]string{"x"}, s, sep, m)
			if len(got) != len(want)+1 || got[0] != "x" || strings.Join(got[1:], "|") != strings.Join(want, "|") {
				t.Errorf("SplitAppend(long, %q, %d): %d parts, want %d", sep, m, len(got)-1, len(want))
			}
		}
	}
}
