package corpus

import (
	"encoding/binary"
	"regexp"
	"regexp/syntax"
	"unicode/utf8"

	re2 "github.com/wasilibs/go-re2"
)

// lineRegex is a search regex compiled for line semantics: a line matches
// iff the pattern matches the line on its own. The pattern is rewritten so
// that it cannot consume a newline (see lineOnly), which lets one call scan
// a window of many lines without changing which lines match. It runs on
// RE2 (github.com/wasilibs/go-re2, RE2 compiled to Go: linear time, a DFA)
// over windows that are valid UTF-8, and on Go regexp elsewhere (RE2 stops
// at invalid UTF-8, Go reads it as U+FFFD) and for single lines, where
// Go's per-call cost is lower. Both engines implement RE2 syntax and
// leftmost-first semantics; Go regexp also validates the pattern, so its
// errors are the errors reported.
type lineRegex struct {
	std *regexp.Regexp
	re2 *re2.Regexp // nil when RE2 rejects the rewritten pattern
	// checkUTF8 is set when the regex can match U+FFFD, the rune Go reads
	// an invalid byte as: only then can a window's invalid UTF-8 make the
	// engines differ (RE2 matches nothing at such a byte), so only then
	// is a window validated before RE2 runs on it.
	checkUTF8 bool
	// asciiOnly is set when the regex holds \B: RE2 tests an assertion
	// at every byte, and inside a multi-byte character (two non-word
	// bytes) \B holds, where Go regexp, stepping by character, never
	// tests it. RE2 then runs only on windows that are all ASCII.
	asciiOnly bool
	// dfa, when set, decides exactly whether a line matches without
	// RE2 (see lineDFA); the search uses it on the candidate lines of a
	// literal set.
	dfa *dfaProg
}

// compileLineRegex compiles pattern in multi-line mode (^ and $ match at
// line boundaries) for line semantics.
func compileLineRegex(pattern string) (*lineRegex, error) {
	// Validate the pattern alone: wrapping could balance its parentheses.
	if _, err := regexp.Compile(pattern); err != nil {
		return nil, err
	}
	tree, err := syntax.Parse(pattern, syntax.Perl&^syntax.OneLine)
	if err != nil {
		return nil, err
	}
	tree = lineOnly(tree)
	expr := tree.String()
	asciiOnly := hasOp(tree, syntax.OpNoWordBoundary)
	std, err := regexp.Compile(expr)
	if err != nil {
		return nil, err
	}
	lr := &lineRegex{std: std, checkUTF8: true, asciiOnly: asciiOnly}
	if prog, err := syntax.Compile(tree.Simplify()); err == nil {
		lr.checkUTF8 = matchesRune(prog, utf8.RuneError)
	}
	lr.dfa = newDFAProg(tree)
	if r, err := re2.Compile(expr); err == nil {
		lr.re2 = r
	}
	return lr, nil
}

// findAll returns the matches of re in w, a window of whole lines: all
// non-overlapping ones from RE2 when w is valid UTF-8, else (ok false)
// none, and the caller steps through w with findIndex.
func (lr *lineRegex) findAll(w []byte) (locs [][]int, ok bool) {
	if lr.re2 == nil || lr.checkUTF8 && !utf8.Valid(w) || lr.asciiOnly && !isASCII(w) {
		return nil, false
	}
	return lr.re2.FindAllIndex(w, -1), true
}

// isASCII reports whether every byte of b is below utf8.RuneSelf.
func isASCII(b []byte) bool {
	for len(b) >= 8 {
		if binary.LittleEndian.Uint64(b)&0x8080808080808080 != 0 {
			return false
		}
		b = b[8:]
	}
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// hasOp reports whether re or one of its subexpressions has operator op.
func hasOp(re *syntax.Regexp, op syntax.Op) bool {
	if re.Op == op {
		return true
	}
	for _, sub := range re.Sub {
		if hasOp(sub, op) {
			return true
		}
	}
	return false
}

// matchesRune reports whether an instruction of prog consumes r.
func matchesRune(prog *syntax.Prog, r rune) bool {
	for i := range prog.Inst {
		switch in := &prog.Inst[i]; in.Op {
		case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
			if in.MatchRune(r) {
				return true
			}
		}
	}
	return false
}

// lineOnly rewrites re so that it cannot match a newline: literal
// newlines and newline-holding literals never match, '\n' leaves every
// character class, and . with the s flag becomes . without it. Capture
// groups are dropped (search uses only where a match starts; RE2 runs
// 15-20 % faster without them). On a
// single line, which holds no newline, the rewritten regex matches exactly
// where the original does.
func lineOnly(re *syntax.Regexp) *syntax.Regexp {
	switch re.Op {
	case syntax.OpCapture: // only match bounds are used: groups cost RE2 time
		return lineOnly(re.Sub[0])
	case syntax.OpAnyChar:
		re.Op = syntax.OpAnyCharNotNL
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if r == '\n' {
				return &syntax.Regexp{Op: syntax.OpNoMatch}
			}
		}
	case syntax.OpCharClass:
		var out []rune
		for i := 0; i+1 < len(re.Rune); i += 2 {
			lo, hi := re.Rune[i], re.Rune[i+1]
			if lo <= '\n' && '\n' <= hi {
				if lo < '\n' {
					out = append(out, lo, '\n'-1)
				}
				if hi > '\n' {
					out = append(out, '\n'+1, hi)
				}
				continue
			}
			out = append(out, lo, hi)
		}
		if len(out) == 0 {
			return &syntax.Regexp{Op: syntax.OpNoMatch}
		}
		re.Rune = out
	}
	for i, sub := range re.Sub {
		re.Sub[i] = lineOnly(sub)
	}
	return re
}
