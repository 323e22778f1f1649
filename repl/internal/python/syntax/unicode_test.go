package syntax

import (
	"bufio"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// The files read here come from CPython 3.12.1; regenerate them with
//
//	cd testdata && /root/.pyenv/versions/3.12.1/bin/python3.12 gen_unicode.py

func readLines(t *testing.T, name string) []string {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return lines
}

// TestIdentifierChars compares the identifier and printable character
// classes with CPython's for every code point.
func TestIdentifierChars(t *testing.T) {
	for _, line := range readLines(t, "xid.txt") {
		kind, ranges, _ := strings.Cut(line, " ")
		want := make([]bool, 0x110000)
		for _, r := range strings.Fields(ranges) {
			lo, hi, _ := strings.Cut(r, "-")
			a, _ := strconv.ParseInt(lo, 16, 32)
			z, _ := strconv.ParseInt(hi, 16, 32)
			for x := a; x <= z; x++ {
				want[x] = true
			}
		}
		bad := 0
		for r := rune(0); r <= 0x10FFFF; r++ {
			if r == 0x40000 {
				r = 0xE0000 // planes 4 to 13 have no characters
			}
			var got bool
			switch kind {
			case "start":
				got = isXIDStart(r) || r == '_'
			case "continue":
				got = isXIDContinue(r)
			case "nonprintable":
				got = !isPrintable(r)
			}
			if got != want[r] {
				if bad < 10 {
					t.Errorf("%s %U: got %v, want %v", kind, r, got, want[r])
				}
				bad++
			}
		}
	}
}

// TestLookupName checks \N{...} names against CPython's.
func TestLookupName(t *testing.T) {
	for _, line := range readLines(t, "names.txt") {
		name, cp, _ := strings.Cut(line, "\t")
		r, ok := lookupName(name)
		if cp == "-" {
			if ok {
				t.Errorf("lookupName(%q) = %U, want none", name, r)
			}
			continue
		}
		want, _ := strconv.ParseInt(cp, 16, 32)
		if !ok || r != rune(want) {
			t.Errorf("lookupName(%q) = %U, %v; want %U", name, r, ok, want)
		}
	}
}

// TestFloatRepr compares FloatRepr with Python's repr.
func TestFloatRepr(t *testing.T) {
	for _, line := range readLines(t, "floats.txt") {
		bits, want, _ := strings.Cut(line, "\t")
		b, _ := strconv.ParseUint(bits, 16, 64)
		f := math.Float64frombits(b)
		if got := FloatRepr(f); got != want {
			t.Errorf("FloatRepr(%v) = %s, want %s", f, got, want)
		}
	}
}

func TestErrorString(t *testing.T) {
	_, err := Parse("x = (1,\n")
	if err == nil {
		t.Fatal("no error")
	}
	want := "SyntaxError: '(' was never closed (line 1, column 5)"
	if err.Error() != want {
		t.Errorf("got %q, want %q", err.Error(), want)
	}
	e := err.(*Error)
	if e.Text != "x = (1,\n" { // the tokenizer's buffer, newline included
		t.Errorf("Text = %q", e.Text)
	}
}
