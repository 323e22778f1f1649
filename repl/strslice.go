package repl

import (
	"strings"
	"unicode/utf8"

	"go.starlark.net/starlark"
)

// sliceOperand is _rlm_slice, whose index is the operand of a slice with a
// step: the rewrite turns x[a:b:c] into _rlm_slice[x][a:b:c] (an index costs
// less than a builtin call). A str comes back wrapped in a charSlicer, whose
// Slice selects whole characters; any other value comes back unchanged, so
// Starlark's own slicing (index normalization, errors) applies to every
// operand.
type sliceOperand struct{}

var _ starlark.Mapping = sliceOperand{}

func (sliceOperand) String() string        { return "<slice operand>" }
func (sliceOperand) Type() string          { return "slice_operand" }
func (sliceOperand) Freeze()               {}
func (sliceOperand) Truth() starlark.Bool  { return true }
func (sliceOperand) Hash() (uint32, error) { return 0, nil }

func (sliceOperand) Get(x starlark.Value) (starlark.Value, bool, error) {
	if s, ok := x.(starlark.String); ok {
		return charSlicer(s), true, nil
	}
	return x, true, nil
}

// charSlicer is a str as the operand of a slice with a step. Starlark hands
// Slice the byte indices of the slice, normalized as for any sequence (its
// Len is the byte length: indexes are byte positions in code mode).
type charSlicer string

var _ starlark.Sliceable = charSlicer("")

func (s charSlicer) String() string        { return starlark.String(s).String() }
func (s charSlicer) Type() string          { return "string" }
func (s charSlicer) Freeze()               {}
func (s charSlicer) Truth() starlark.Bool  { return len(s) > 0 }
func (s charSlicer) Hash() (uint32, error) { return starlark.String(s).Hash() }
func (s charSlicer) Len() int              { return len(s) }
func (s charSlicer) Index(i int) starlark.Value {
	return starlark.String(s).Index(i)
}

// Slice is stepSlice over the normalized byte indices.
func (s charSlicer) Slice(start, end, step int) starlark.Value {
	return starlark.String(stepSlice(string(s), start, end, step))
}

// stepSlice is s[start:end:step] by characters, start and end being byte
// indices normalized as Starlark's slice does (0 <= start <= end <= len(s)
// for step > 0; -1 <= end <= start <= len(s)-1 for step < 0). It selects the
// characters whose first byte lies in the byte range the slice denotes
// ([start, end) for step > 0, (end, start] for step < 0), and takes every
// |step|-th of them from the start end of the range, so with start and stop
// omitted the result is CPython's. A character is what forward UTF-8
// decoding gives: a valid encoding, or a single byte of an invalid one
// (kept as is). When the range is ASCII the result is byte slicing's.
func stepSlice(s string, start, end, step int) string {
	lo, hi := start, end // byte range [lo, hi)
	if step < 0 {
		lo, hi = end+1, start+1
	}
	if lo >= hi {
		return ""
	}
	if isASCII(s[lo:hi]) {
		return string(starlark.String(s).Slice(start, end, step).(starlark.String))
	}
	var b strings.Builder
	b.Grow(hi - lo)
	k := 0
	if step > 0 {
		for p := nextCharStart(s, lo); p < hi; k++ {
			_, n := utf8.DecodeRuneInString(s[p:])
			if k%step == 0 {
				b.WriteString(s[p : p+n])
			}
			p += n
		}
		return b.String()
	}
	// Walk back from the first character start after the range.
	for p := nextCharStart(s, hi); p > lo; k++ {
		_, n := utf8.DecodeLastRuneInString(s[:p])
		if p-n < lo {
			break // p-1 is inside a character that starts before the range
		}
		if k%(-step) == 0 {
			b.WriteString(s[p-n : p])
		}
		p -= n
	}
	return b.String()
}

// nextCharStart is the first character start at or after byte i (len(s)
// when none). A byte that is not a UTF-8 continuation byte always starts a
// character, and a character is at most utf8.UTFMax bytes long, so
// decoding from at most three bytes back finds it.
func nextCharStart(s string, i int) int {
	if i >= len(s) {
		return len(s)
	}
	p := i
	for k := 0; k < utf8.UTFMax-1 && p > 0 && !utf8.RuneStart(s[p]); k++ {
		p--
	}
	for p < i {
		_, n := utf8.DecodeRuneInString(s[p:])
		p += n
	}
	return p
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
