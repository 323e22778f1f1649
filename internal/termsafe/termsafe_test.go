package termsafe

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestText(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"plain", "hello, world\n\tindented", "hello, world\n\tindented"},
		{"unicode", "é 日本 🙂 \u200fשלום\u200e", "é 日本 🙂 \u200fשלום\u200e"},
		{"OSC 52 clipboard", "\x1b]52;c;cm0gLXJmIH4=\x07", "␛]52;c;cm0gLXJmIH4=␇"},
		{"OSC 0 title", "\x1b]0;pwned\x1b\\", "␛]0;pwned␛\\"},
		{"clear screen", "\x1b[2J\x1b[H", "␛[2J␛[H"},
		{"DCS", "\x1bP+q544e\x1b\\", "␛P+q544e␛\\"},
		{"C1 CSI and OSC", "a\u009b2Jb\u009d0;t\u009c", "a\ufffd2Jb\ufffd0;t\ufffd"},
		{"8-bit CSI byte", "a\x9b2J", "a\ufffd2J"},
		{"invalid UTF-8", "a\xff\xfeb\xe2\x82", "a\ufffd\ufffdb\ufffd\ufffd"},
		{"CR LF", "one\r\ntwo\r\n", "one\ntwo\n"},
		{"lone CR overwrites", "safe\rEVIL", "safe␍EVIL"},
		{"backspace and NUL", "a\bb\x00", "a␈b␀"},
		{"DEL", "a\x7f", "a␡"},
		{"bidi override", "ls \u202eexe.txt", "ls \ufffdexe.txt"},
		{"bidi isolates", "\u2066a\u2069\u2067b\u2068", "\ufffda\ufffd\ufffdb\ufffd"},
		{"already neutral", "␛[2J", "␛[2J"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Text(tc.in)
			if got != tc.want {
				t.Fatalf("Text(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if Safe(tc.in) != (tc.in == tc.want) {
				t.Fatalf("Safe(%q) = %v", tc.in, Safe(tc.in))
			}
		})
	}
}

// Text that needs no change is not copied.
func TestTextNoCopy(t *testing.T) {
	s := strings.Repeat("plain text\n", 100)
	if got := Text(s); got != s {
		t.Fatal(got)
	}
	if n := testing.AllocsPerRun(10, func() { _ = Text(s) }); n != 0 {
		t.Fatalf("%v allocations for safe text", n)
	}
}

// The output holds no control but LF and tab, is valid UTF-8, and Text
// is idempotent.
func FuzzText(f *testing.F) {
	for _, s := range []string{"\x1b]52;c;YQ==\x07", "\x1b[2J", "a\r\nb\r", "\u009b\u202e", "\xff\xc2", "plain", "\t\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Text(s)
		if !utf8.ValidString(out) {
			t.Fatalf("Text(%q) = %q: not UTF-8", s, out)
		}
		for _, r := range out {
			if r < 0x20 && r != '\n' && r != '\t' || r >= 0x7f && r <= 0x9f || unsafeRune(r) {
				t.Fatalf("Text(%q) = %q holds %U", s, out, r)
			}
		}
		if again := Text(out); again != out {
			t.Fatalf("not idempotent: %q -> %q -> %q", s, out, again)
		}
		if !Safe(out) || Safe(s) != (out == s) {
			t.Fatalf("Safe disagrees with Text on %q", s)
		}
	})
}
