package pystr

import (
	"errors"
	"strings"
	"testing"
)

func TestLimits(t *testing.T) {
	huge := 1 << 62
	tests := []struct {
		name string
		fn   func() (string, error)
	}{
		{"Replace", func() (string, error) { return Replace("abc", "", strings.Repeat("x", 1000), -1, 100) }},
		{"ReplaceLarge", func() (string, error) {
			return Replace(strings.Repeat("a", 1000), "a", strings.Repeat("b", 1<<20), -1, 1<<20)
		}},
		{"ExpandTabs", func() (string, error) { return ExpandTabs("\t\t", huge, 1<<20) }},
		{"ExpandTabsOverflow", func() (string, error) { return ExpandTabs(strings.Repeat("\t", 100), huge, huge) }},
		{"Center", func() (string, error) { return Center("a", huge, ' ', 1<<20) }},
		{"LJust", func() (string, error) { return LJust("a", 1000, 'Σ', 1000) }},
		{"RJust", func() (string, error) { return RJust("a", huge, '*', 1<<20) }},
		{"ZFill", func() (string, error) { return ZFill("1", huge, 1<<20) }},
		{"Join", func() (string, error) { return Join(",", []string{"abc", "def"}, 6) }},
		{"Translate", func() (string, error) {
			return Translate("aaaa", func(rune) (Mapping, error) { return Mapping{Kind: ToString, Str: "xyz"}, nil }, 10)
		}},
		{"TranslateASCII", func() (string, error) {
			return Translate("aaaa", func(rune) (Mapping, error) { return Mapping{}, nil }, 3)
		}},
		{"Encode", func() (string, error) { return Encode("ééé", "ascii", "namereplace", 20) }},
		{"Decode", func() (string, error) { return Decode("\xff\xff\xff", "utf-8", "backslashreplace", 5) }},
		{"Format", func() (string, error) { return Format[fval]("{0:{1}}{0}{0}", fakeHandler{}, 10) }},
	}
	for _, tt := range tests {
		_, err := tt.fn()
		var le *LimitError
		if !errors.As(err, &le) {
			t.Errorf("%s: error %v, want a *LimitError", tt.name, err)
		}
	}
	if s, err := Join("", []string{"ab", "c"}, 3); s != "abc" || err != nil {
		t.Errorf("Join at the limit = %q, %v", s, err)
	}
}

func TestBuilder(t *testing.T) {
	b := NewBuilder(5)
	if err := b.WriteString("abc"); err != nil {
		t.Fatal(err)
	}
	if err := b.WriteRune('é'); err != nil {
		t.Fatal(err)
	}
	if err := b.WriteString("x"); err == nil {
		t.Error("write past the limit succeeded")
	}
	if err := b.WriteRune(-1); err == nil {
		t.Error("invalid rune past the limit succeeded")
	}
	if b.String() != "abcé" || b.Len() != 5 {
		t.Errorf("builder holds %q", b.String())
	}
	if err := NewBuilder(10).Grow(11); err == nil {
		t.Error("Grow past the limit succeeded")
	}
}

func TestZeroIndex(t *testing.T) {
	var x Index
	if x.Len() != 0 || x.At(0) != -1 || x.Substr(0, 5) != "" || x.Find("", None, None) != 0 || x.CodePointOffset(3) != 0 {
		t.Error("the zero Index is not the index of \"\"")
	}
	if _, err := x.GetItem(0); err == nil {
		t.Error("GetItem(0) of \"\" succeeded")
	}
}

func TestIndexLarge(t *testing.T) {
	// Long strings with invalid bytes: offsets agree with decoding.
	s := strings.Repeat("aé\xff日😀\xe2\x82", 1000)
	x := NewIndex(s)
	rs := []rune(s)
	if x.Len() != len(rs) {
		t.Fatalf("Len %d, want %d", x.Len(), len(rs))
	}
	for i := 0; i < len(rs); i += 37 {
		if x.At(i) != rs[i] {
			t.Fatalf("At(%d) = %U, want %U", i, x.At(i), rs[i])
		}
		if got := x.CodePointOffset(x.ByteOffset(i)); got != i {
			t.Fatalf("CodePointOffset(ByteOffset(%d)) = %d", i, got)
		}
	}
	if got, err := x.GetItem(2); got != "\uFFFD" || err != nil {
		t.Errorf("GetItem of an invalid byte = %+q, %v", got, err)
	}
	if got := x.CodePointOffset(2); got != 2 { // inside "é"
		t.Errorf("CodePointOffset inside a code point = %d, want 2", got)
	}
}

func TestUnicodeErrorMessages(t *testing.T) {
	tests := []struct {
		err  *UnicodeError
		want string
	}{
		{&UnicodeError{"UnicodeEncodeError", "ascii", "aé", 1, 2, "ordinal not in range(128)"},
			`'ascii' codec can't encode character '\xe9' in position 1: ordinal not in range(128)`},
		{&UnicodeError{"UnicodeEncodeError", "charmap", "aĀ", 1, 2, "character maps to <undefined>"},
			`'charmap' codec can't encode character '\u0100' in position 1: character maps to <undefined>`},
		{&UnicodeError{"UnicodeEncodeError", "latin-1", "😀", 0, 1, "ordinal not in range(256)"},
			`'latin-1' codec can't encode character '\U0001f600' in position 0: ordinal not in range(256)`},
		{&UnicodeError{"UnicodeEncodeError", "ascii", "éé", 0, 2, "ordinal not in range(128)"},
			`'ascii' codec can't encode characters in position 0-1: ordinal not in range(128)`},
		{&UnicodeError{"UnicodeDecodeError", "utf-8", "\xff", 0, 1, "invalid start byte"},
			`'utf-8' codec can't decode byte 0xff in position 0: invalid start byte`},
		{&UnicodeError{"UnicodeDecodeError", "utf-8", "\xe0\xa0", 0, 2, "unexpected end of data"},
			`'utf-8' codec can't decode bytes in position 0-1: unexpected end of data`},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("got  %s\nwant %s", got, tt.want)
		}
	}
}

func TestLookupEncodingUnsupported(t *testing.T) {
	for name, want := range map[string]string{
		"cp437":  "NotImplementedError: the encoding 'cp437' is not supported in code mode; use one of utf-8,",
		"Latin9": "NotImplementedError: the encoding 'Latin9' is not supported in code mode;",
		"nope":   "LookupError: unknown encoding: nope",
		"":       "LookupError: unknown encoding: ",
	} {
		_, err := LookupEncoding(name)
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("LookupEncoding(%q): %v, want %s", name, err, want)
		}
	}
	// Codecs that are not text encodings: CPython's message names the
	// function to use instead.
	for _, tt := range []struct{ name, want string }{
		{"rot13", "LookupError: 'rot13' is not a text encoding; use codecs.encode() to handle arbitrary codecs"},
		{"Quoted-Printable", "LookupError: 'Quoted-Printable' is not a text encoding; use codecs.encode() to handle arbitrary codecs"},
	} {
		if _, err := Encode("x", tt.name, "strict", 100); err == nil || err.Error() != tt.want {
			t.Errorf("Encode(%q): %v, want %s", tt.name, err, tt.want)
		}
	}
	if _, err := Decode("x", "hex", "strict", 100); err == nil || !strings.Contains(err.Error(), "use codecs.decode()") {
		t.Errorf("Decode(hex): %v", err)
	}
}

func TestFormatErrorsComeInOrder(t *testing.T) {
	// The first field's error comes before the later syntax error, as in
	// Python.
	_, err := Format[fval]("{7}{", fakeHandler{}, 1<<20)
	if err == nil || !strings.Contains(err.Error(), "Replacement index 7") {
		t.Errorf("got %v", err)
	}
	if got, err := Format[fval]("{:{}}-{a.b!r}", fakeHandler{}, 1<<20); got != "<0|<1|>>-R(a.b)" || err != nil {
		t.Errorf("got %q, %v", got, err)
	}
}

func TestNormalizeIdentifier(t *testing.T) {
	for in, want := range map[string]string{"ﬁx": "fix", "abc": "abc", "ℌ": "H", "Ⅻ": "XII"} {
		if got := NormalizeIdentifier(in); got != want {
			t.Errorf("NormalizeIdentifier(%q) = %q, want %q", in, got, want)
		}
	}
}
