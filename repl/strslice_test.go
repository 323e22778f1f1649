package repl

import (
	"context"
	"fmt"
	"testing"
	"unicode/utf8"

	"go.starlark.net/starlark"
)

// TestStepSliceByteBounds: explicit start/stop of a stepped str slice are
// byte positions (like s[a:b], len and find); the slice takes the whole
// characters whose first byte is in that range (docs/code.md).
func TestStepSliceByteBounds(t *testing.T) {
	// 'héllo wörld': h0 é1-2 l3 l4 o5 ' '6 w7 ö8-9 r10 l11 d12, len 13
	cases := []struct{ name, src, out string }{
		{"reverse from a byte position", `print(s[8:0:-1], s[9:0:-1], s[:2:-1])`, "öw ollé öw ollé dlröw oll\n"},
		{"start inside a character", `print(s[2::1], s[2::2], s[9::-3])`, "llo wörld lowrd öoé\n"},
		{"negative byte indexes", `print(s[-1:-6:-1], s[-4::-1], s[:-3:2])`, "dlrö öw olléh hlow\n"},
		{"reverse from find", `i = s.find('w')` + "\n" + `print(s[i::-1], s[:i:-1])`, "w olléh dlrö\n"},
		{"len of a reversal", `print(len(s), len(s[::-1]), len(list(s)), len(list(s[::-1])))`, "13 13 11 11\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			it := newInterp(t, Config{}, nil)
			o := run(t, it, "s = 'héllo wörld'\n"+tc.src)
			if o.Exception != nil {
				t.Fatalf("unexpected exception %s", o.Exception)
			}
			if o.Stdout != tc.out {
				t.Fatalf("stdout = %q, want %q", o.Stdout, tc.out)
			}
		})
	}
}

// TestStrModelDocExamples: every example of the string model in
// docs/code.md ("Strings are UTF-8 bytes").
func TestStrModelDocExamples(t *testing.T) {
	src := `s = 'héllo'
print(len(s), s.find('l'), s.rfind('l'), s.index('l'), s.rindex('l'), re.search('l', s).start(), re.search('l', s).end(), re.search('l', s).span())
print(s[1:3] == 'é', len(s[1:2]), len(s[2]))
print([c for c in s], list(s), tuple(s), len(set(s)), sorted(s), ''.join(reversed(s)), [i for i, c in enumerate(s) if c == 'l'])
print(len(list(s)), ''.join(list(s)[1:3]), s[::-1], s[2::1], s[s.find('l')::-1])
print('hello'[::-1], 'hello'[2::1], 'hello'[1:3])
`
	want := `6 3 4 3 4 3 4 (3, 4)
True 1 1
['h', 'é', 'l', 'l', 'o'] ['h', 'é', 'l', 'l', 'o'] ('h', 'é', 'l', 'l', 'o') 4 ['h', 'l', 'l', 'o', 'é'] olléh [2, 3]
5 él olléh llo léh
olleh llo el
`
	o := run(t, newInterp(t, Config{}, nil), src)
	if o.Exception != nil {
		t.Fatalf("unexpected exception %s", o.Exception)
	}
	if o.Stdout != want {
		t.Fatalf("stdout = %q, want %q", o.Stdout, want)
	}
}

// refStepSlice is the documented rule spelled out: split s into characters
// by forward decoding, keep those whose first byte is in the range the
// normalized byte indices denote, take every |step|-th from the start end.
func refStepSlice(s string, start, end, step int) string {
	type ch struct{ at, n int }
	var in []ch
	for p := 0; p < len(s); {
		_, n := utf8.DecodeRuneInString(s[p:])
		if (step > 0 && p >= start && p < end) || (step < 0 && p > end && p <= start) {
			in = append(in, ch{p, n})
		}
		p += n
	}
	out := ""
	if step > 0 {
		for k := 0; k < len(in); k += step {
			out += s[in[k].at : in[k].at+in[k].n]
		}
	} else {
		for k := len(in) - 1; k >= 0; k += step {
			out += s[in[k].at : in[k].at+in[k].n]
		}
	}
	return out
}

// TestStepSliceRule checks every start/stop/step of a few strings (ASCII,
// two- to four-byte characters, invalid UTF-8) through Starlark's own slice
// normalization: the result is the rule's, valid UTF-8 when s is, and byte
// slicing's for an ASCII string.
func TestStepSliceRule(t *testing.T) {
	strs := []string{"", "abc", "hello world", "héllo wörld", "日本語", "a😀b€c", "ü", "x\xc3\xa9\xa9y\xff\xe2\x82z\xf0\x9f\x98\x80"}
	for _, s := range strs {
		n := len(s)
		idx := []starlark.Value{starlark.None}
		for i := -n - 2; i <= n+2; i++ {
			idx = append(idx, starlark.MakeInt(i))
		}
		for step := -4; step <= 4; step++ {
			if step == 0 {
				continue
			}
			for _, lo := range idx {
				for _, hi := range idx {
					src := fmt.Sprintf("r = s[%v:%v:%d]", lo, hi, step)
					got, err := starlark.ExecFile(&starlark.Thread{}, "t", src, starlark.StringDict{"s": charSlicer(s)})
					if err != nil {
						t.Fatalf("%q %s: %v", s, src, err)
					}
					// Starlark's byte slicing gives the normalized indices' result on ASCII.
					want, err := starlark.ExecFile(&starlark.Thread{}, "t", src, starlark.StringDict{"s": starlark.String(s)})
					if err != nil {
						t.Fatal(err)
					}
					g, w := string(got["r"].(starlark.String)), string(want["r"].(starlark.String))
					if isASCII(s) && g != w {
						t.Fatalf("%q %s = %q, byte slicing gives %q", s, src, g, w)
					}
					if utf8.ValidString(s) && !utf8.ValidString(g) {
						t.Fatalf("%q %s = %q: invalid UTF-8", s, src, g)
					}
					start, end := normalize(lo, hi, step, n)
					if ref := refStepSlice(s, start, end, step); g != ref {
						t.Fatalf("%q %s = %q, want %q", s, src, g, ref)
					}
				}
			}
		}
	}
}

// normalize is Starlark's index normalization of a slice (eval.go slice).
func normalize(lo, hi starlark.Value, step, n int) (int, int) {
	at := func(v starlark.Value, def int) int {
		if v == starlark.None {
			return def
		}
		i, _ := starlark.AsInt32(v)
		if i < 0 {
			i += n
		}
		return i
	}
	if step > 0 {
		start, end := max(0, min(n, at(lo, 0))), max(0, min(n, at(hi, n)))
		return start, max(start, end)
	}
	start, end := min(n-1, max(-1, at(lo, n-1))), min(n-1, max(-1, at(hi, -1)))
	return max(start, end), end
}

// TestStepSliceBounds: the helper does not escape the step limit or the
// memory bound.
func TestStepSliceBounds(t *testing.T) {
	it := newInterp(t, Config{MaxCellSteps: 10_000}, nil)
	o := run(t, it, "s = 'héllo'\nwhile True:\n    s = s[::-1]")
	if o.Exception == nil || o.Exception.Type != "StepLimitExceeded" {
		t.Fatalf("exception = %+v", o.Exception)
	}
	it = newInterp(t, Config{MaxValueBytes: 16 << 20}, nil)
	o = run(t, it, "s = 'é' * 100000\nl = []\nwhile True:\n    l.append(s[::-1])\n    l.append([s][::-1])")
	if o.Exception == nil || o.Exception.Type != "MemoryError" {
		t.Fatalf("exception = %+v", o.Exception)
	}
	if o := run(t, it, "print('ok')"); o.Stdout != "ok\n" {
		t.Fatalf("after MemoryError: %q %+v", o.Stdout, o.Exception)
	}
}

// TestStepSliceErrors: a stepped slice of anything else fails as before.
func TestStepSliceErrors(t *testing.T) {
	cases := []struct{ src, exc string }{
		{"x = 5\nx[::-1]", "TypeError"},
		{"x = {'a': 1}\nx[::2]", "TypeError"},
		{"'héllo'[::'a']", "TypeError"},
	}
	for _, tc := range cases {
		o := run(t, newInterp(t, Config{}, nil), tc.src)
		if o.Exception == nil || o.Exception.Type != tc.exc {
			t.Fatalf("%q: exception = %+v, want %s", tc.src, o.Exception, tc.exc)
		}
	}
}

// BenchmarkSliceStep is a stepped slice of a short list in a loop (the
// _rlm_slice call is the cost of the rewrite) and, for comparison, the
// same loop over a non-ASCII and an ASCII str.
func BenchmarkSliceStep(b *testing.B) {
	for _, tc := range []struct{ name, init string }{
		{"list", "xs = list(range(10))"},
		{"ascii", "xs = 'hello world'"},
		{"nonascii", "xs = 'héllo wörld'"},
	} {
		b.Run(tc.name, func(b *testing.B) {
			it, err := New(Config{}, nil)
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			if _, err := it.Exec(ctx, tc.init); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				o, err := it.Exec(ctx, "for i in range(1000):\n    y = xs[::-1]")
				if err != nil || o.Exception != nil {
					b.Fatal(err, o.Exception)
				}
			}
		})
	}
}
