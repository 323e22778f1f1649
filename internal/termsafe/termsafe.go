// Package termsafe makes untrusted text (a model's reply, a server's
// error message, a tool's title) safe to print on a terminal: no byte of
// it can start a control sequence, so it cannot write the clipboard (OSC
// 52), set the window title (OSC 0), clear the screen (CSI 2 J), move the
// cursor to overwrite earlier lines, or reorder what is shown.
//
// The rule (Text):
//   - newline (LF) and tab are kept; CR LF becomes LF;
//   - every other C0 control (U+0000-U+001F: ESC, BEL, BS, a lone CR, ...)
//     and DEL (U+007F) becomes its Unicode control picture (ESC is shown
//     as U+241B "␛", BEL as "␇", CR as "␍", DEL as "␡"), so an escape
//     sequence stays readable ("␛]52;c;...␇") but inert;
//   - C1 controls (U+0080-U+009F, among them CSI U+009B and OSC U+009D,
//     which some terminals obey) become U+FFFD;
//   - bytes that are not UTF-8 become U+FFFD each (a terminal in an 8-bit
//     mode would read a lone 0x9B byte as CSI);
//   - the bidirectional embeddings, overrides and isolates (U+202A-U+202E,
//     U+2066-U+2069) become U+FFFD: they reorder the text shown around
//     them ("Trojan Source"), so a reply could show a command or a path
//     other than the one it holds. The marks U+200E, U+200F and U+061C
//     only set the direction of neutral characters next to them and are
//     kept, as is all other printable text.
//
// Text is idempotent, and its result is valid UTF-8 holding no C0 or C1
// control other than LF and tab.
package termsafe

import (
	"strings"
	"unicode/utf8"
)

// Text returns s neutralized for a terminal (see the package comment).
// Text that needs no change is returned as is, without copying.
func Text(s string) string {
	i := firstUnsafe(s)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '\r' && i+1 < len(s) && s[i+1] == '\n':
				// CR LF: the LF alone ends the line.
			case c == '\n' || c == '\t' || c >= 0x20 && c < 0x7f:
				b.WriteByte(c)
			case c == 0x7f:
				b.WriteRune('\u2421')
			default:
				b.WriteRune(0x2400 + rune(c))
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || unsafeRune(r) {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// Safe reports whether Text(s) is s.
func Safe(s string) bool { return firstUnsafe(s) < 0 }

// firstUnsafe returns the offset of the first byte Text changes, or -1.
func firstUnsafe(s string) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\n' && c != '\t' || c == 0x7f {
				return i
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || unsafeRune(r) {
			return i
		}
		i += n
	}
	return -1
}

// unsafeRune reports a non-ASCII code point Text replaces: a C1 control
// or a bidirectional embedding, override or isolate.
func unsafeRune(r rune) bool {
	return r >= 0x80 && r <= 0x9f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}
