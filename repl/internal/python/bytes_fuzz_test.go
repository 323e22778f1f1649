package python

import (
	"bytes"
	"context"
	"encoding/hex"
	"runtime"
	"strings"
	"testing"
)

// Fuzz targets of the bytes and bytearray code that parses untrusted input
// (bytes.fromhex, the bytes % format) or rearranges memory (bytearray
// mutation, with CPython's allocation policy). Run each for a while with
//
//	go test -run '^$' -fuzz FuzzBytesFromHex ./repl/internal/python/
//
// (and FuzzBytesFormat, FuzzBytearrayOps, FuzzBytesKernels).

func fuzzThread() *Thread {
	in := New(Config{MaxValueBytes: 1 << 16})
	return NewThread(context.Background(), in, 1_000_000, nil)
}

func FuzzBytesFromHex(f *testing.F) {
	for _, s := range []string{"", "41", " 41 42 ", "4", "zz", "é", "41é", "0 1", "\t\n\v\f\rab", "AbCd"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, pos, ok := bytesFromHex(s)
		if !ok {
			if pos < 0 || pos > cpCount(s) {
				t.Fatalf("fromhex(%q): error position %d out of range", s, pos)
			}
			return
		}
		// Without whitespace the input is the hex of the result.
		var digits strings.Builder
		for i := 0; i < len(s); i++ {
			if !bIsSpace(s[i]) {
				digits.WriteByte(s[i])
			}
		}
		if got := hex.EncodeToString([]byte(b)); got != strings.ToLower(digits.String()) {
			t.Fatalf("fromhex(%q) = %x", s, b)
		}
		if bytesHex(b, 0, 0) != strings.ToLower(digits.String()) {
			t.Fatalf("hex(fromhex(%q)) differs", s)
		}
	})
}

func FuzzBytesFormat(f *testing.F) {
	for _, s := range []string{"%s", "%d %x", "%(a)s", "%*.*f", "%-5c|", "%%", "%", "%(", "%.99999999999d", "%*s", "%r%a%b", "%#o %+e % g"} {
		f.Add(s, int64(3), 1.5, "xy")
	}
	f.Fuzz(func(t *testing.T, format string, n int64, x float64, s string) {
		th := fuzzThread()
		args := []Object{MakeInt(n), Float(x), NewBytes(s), NewStr(s), MakeInt(n % 300)}
		for _, values := range []Object{NewTuple(args), NewBytes(s), MakeInt(n), NewDict(0)} {
			r, err := bytesFormat(th, format, values, false)
			if err != nil {
				if _, ok := err.(*Exception); !ok {
					t.Fatalf("%q %% ...: not a Python exception: %v", format, err)
				}
				continue
			}
			if len(r.(*Bytes).b) > 1<<16+len(format) {
				t.Fatalf("%q %% ...: result of %d bytes passes the value bound", format, len(r.(*Bytes).b))
			}
		}
	})
}

// FuzzBytearrayOps applies a sequence of mutations, decoded from the fuzz
// input, to a bytearray and to a plain model, and compares them; the
// allocation must always hold the bytes.
func FuzzBytearrayOps(f *testing.F) {
	f.Add([]byte{0, 5, 1, 2, 3, 200, 7, 9, 4, 1, 2})
	f.Add([]byte("\x03\x00\x10\x05\x01\x02\x06\x07\x08\x09\x0a\x0b\x0c"))
	f.Fuzz(runBytearrayOps)
}

// runBytearrayOps runs one program of FuzzBytearrayOps.
func runBytearrayOps(t *testing.T, prog []byte) {
	th := fuzzThread()
	o := newByteArrayStr("0123456789")
	model := []byte("0123456789")
	next := func() int {
		if len(prog) == 0 {
			return 0
		}
		c := prog[0]
		prog = prog[1:]
		return int(c)
	}
	idx := func() int { return next()%24 - 12 }
	for steps := 0; len(prog) > 0 && steps < 200; steps++ {
		switch next() % 9 {
		case 0: // append
			c := byte(next())
			if err := baResize(th, o, len(o.b)+1); err != nil {
				t.Fatal(err)
			}
			o.b[len(o.b)-1] = c
			model = append(model, c)
		case 1: // slice assignment, step 1
			lo, hi := clampSlice(idx(), idx(), len(model))
			src := bytes.Repeat([]byte{byte(next())}, next()%20)
			if err := baSetSlice(th, o, lo, hi, string(src)); err != nil {
				t.Fatal(err)
			}
			model = append(model[:lo:lo], append(append([]byte(nil), src...), model[hi:]...)...)
		case 2: // delete from the front
			k := min(next()%8, len(model))
			if err := baDelFront(th, o, k); err != nil {
				t.Fatal(err)
			}
			model = model[k:]
		case 3: // extended deletion
			step := next()%4 + 2
			if len(model) == 0 {
				continue
			}
			start := next() % len(model)
			n := (len(model) - start + step - 1) / step
			if err := baDelExtended(th, o, start, step, n); err != nil {
				t.Fatal(err)
			}
			var m []byte
			for i, c := range model {
				if i < start || (i-start)%step != 0 {
					m = append(m, c)
				}
			}
			model = m
		case 4: // resize down
			n := len(model) - min(next()%8, len(model))
			if err := baResize(th, o, n); err != nil {
				t.Fatal(err)
			}
			model = model[:n]
		case 5: // +=
			src := bytes.Repeat([]byte{'+'}, next()%40)
			if _, err := baIAdd(th, o, NewBytes(string(src))); err != nil {
				t.Fatal(err)
			}
			model = append(model, src...)
		case 6: // *=
			n := next() % 3
			if _, err := baIMul(th, o, int64(n), smallInt); err != nil {
				t.Fatal(err)
			}
			model = bytes.Repeat(model, n)
		case 7: // clear
			if err := baResize(th, o, 0); err != nil {
				t.Fatal(err)
			}
			model = model[:0]
		case 8: // __init__ from an iterator
			n := next() % 30
			items := make([]Object, n)
			for i := range items {
				items[i] = MakeInt(int64(i))
			}
			it, _ := Iter(th, NewTuple(items))
			if err := bytearrayInit(th, o, []Object{it}, nil); err != nil {
				t.Fatal(err)
			}
			model = model[:0]
			for i := 0; i < n; i++ {
				model = append(model, byte(i))
			}
		}
		if !bytes.Equal(o.b, model) {
			t.Fatalf("bytearray %q, model %q", o.b, model)
		}
		if a := baAlloc(o); (a == 0 && len(o.b) != 0) || (a != 0 && a < len(o.b)+1) {
			t.Fatalf("alloc %d for %d bytes", a, len(o.b))
		}
	}
}

func clampSlice(lo, hi, n int) (int, int) {
	if lo < 0 {
		lo = max(lo+n, 0)
	}
	if hi < 0 {
		hi = max(hi+n, 0)
	}
	lo, hi = min(lo, n), min(hi, n)
	if hi < lo {
		hi = lo
	}
	return lo, hi
}

// FuzzBytesKernels checks the byte-string algorithms against plain
// definitions.
func FuzzBytesKernels(f *testing.F) {
	f.Add("a b  c", ",", 2, 3)
	f.Add("  x\t\ny  ", "xx", -1, 0)
	f.Add("", "", 0, -5)
	f.Fuzz(func(t *testing.T, s, sep string, maxsplit, n int) {
		maxsplit = maxsplit%10 - 1
		if sep != "" {
			want := strings.SplitN(s, sep, maxsplit+1)
			if maxsplit < 0 {
				want = strings.Split(s, sep)
			}
			if got := bytesSplitSep(s, sep, maxsplit); !equalStrings(got, want) {
				t.Fatalf("split(%q, %q, %d) = %q, want %q", s, sep, maxsplit, got, want)
			}
			// rsplit matches from the right: the parts differ from split's
			// for overlapping separators, but join back to s.
			if got := bytesRSplitSep(s, sep, maxsplit); strings.Join(got, sep) != s || maxsplit >= 0 && len(got) > maxsplit+1 {
				t.Fatalf("rsplit(%q, %q, %d) = %q", s, sep, maxsplit, got)
			}
			size, k := bytesReplaceSize(s, sep, "<>", -1)
			if got, want := bytesReplace(s, sep, "<>", k, size), strings.ReplaceAll(s, sep, "<>"); got != want || int64(len(got)) != size {
				t.Fatalf("replace(%q, %q) = %q, want %q", s, sep, got, want)
			}
		}
		ws := bytesSplitWS(s, -1)
		if want := strings.FieldsFunc(s, func(r rune) bool { return r < 0x80 && bIsSpace(byte(r)) }); !equalStrings(ws, want) && bytesIsASCII(s) {
			t.Fatalf("split(%q) = %q, want %q", s, ws, want)
		}
		if rws := bytesRSplitWS(s, -1); !equalStrings(rws, ws) {
			t.Fatalf("rsplit(%q) = %q, split %q", s, rws, ws)
		}
		if lines := bytesSplitLines(s, true); strings.Join(lines, "") != s {
			t.Fatalf("splitlines(%q, True) = %q", s, lines)
		}
		ts := n%10 - 1
		size := bytesExpandTabsSize(s, ts, 1<<20)
		if got := bytesExpandTabs(s, ts, size); int64(len(got)) != size || strings.Contains(got, "\t") {
			t.Fatalf("expandtabs(%q, %d) = %q (size %d)", s, ts, got, size)
		}
		for _, per := range []int{-3, -1, 1, 2, 5} {
			h := bytesHex(s, ':', per)
			if strings.ReplaceAll(h, ":", "") != hex.EncodeToString([]byte(s)) {
				t.Fatalf("hex(%q, ':', %d) = %q", s, per, h)
			}
		}
		if got := bytesStrip(s, sep, false, true, true); strings.Trim(s, sep) != got && bytesIsASCII(sep) {
			t.Fatalf("strip(%q, %q) = %q", s, sep, got)
		}
	})
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestBytearrayStartsCollected checks that the logical starts of dead
// bytearrays leave the side table.
func TestBytearrayStartsCollected(t *testing.T) {
	th := fuzzThread()
	before := baStartCount.Load()
	func() {
		for i := 0; i < 1000; i++ {
			o := newByteArrayStr("0123456789")
			if err := baDelFront(th, o, 2); err != nil {
				t.Fatal(err)
			}
			if baStart(o) != 2 || baAlloc(o) != 11 {
				t.Fatalf("start %d alloc %d", baStart(o), baAlloc(o))
			}
		}
	}()
	if baStartCount.Load() < before+1000 {
		t.Fatalf("%d entries, want at least %d", baStartCount.Load(), before+1000)
	}
	for i := 0; i < 1000 && baStartCount.Load() >= before+1000; i++ {
		runtime.GC()
		runtime.Gosched()
	}
	if n := baStartCount.Load(); n >= before+1000 {
		t.Fatalf("%d entries left after collection", n-before)
	}
}
