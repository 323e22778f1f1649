package corpus

import (
	"context"
	"regexp"
	"strings"
	"testing"
)

// textAnchors matches patterns whose meaning differs between a line and a
// window of lines: \A, \z, or a flag group turning multi-line mode off.
var textAnchors = regexp.MustCompile(`\\A|\\z|\(\?[a-zA-Z]*-`)

func FuzzSearch(f *testing.F) {
	f.Add("alpha\nbeta alpha\n", "alpha", false)
	f.Add("héllo\nwörld", "ö", false)
	f.Add("a\n\nb", "^$", true)
	f.Add("x\xffy\n\x80", "\xff", false)
	f.Add("abc", "(", true)
	f.Add("ab\ncd\nab cd", `b\s+c`, true)
	f.Add("x1\ny\n", `(?i)X\d`, true)
	f.Add("", "a", false)
	f.Add("model ab\nx window ce \nwindow\n", "(model|window) [a-z]+e ", true)
	f.Add("É\nKELVIN\nab\xff cd\n", "(?i)(ab|cd|x)", true)
	f.Fuzz(func(t *testing.T, text, pattern string, regex bool) {
		s := NewStore()
		defer s.Close()
		h, err := s.AddString("fuzz", text)
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		r, err := s.Search(ctx, h, pattern, SearchOptions{Regex: regex}, Limits{MaxBytes: 1000})
		if err != nil {
			return // invalid patterns are errors, not panics
		}
		var returned int
		for _, m := range r.Value.([]Match) {
			returned += len(m.Value)
			if m.Offset < 0 || m.Offset > int64(len(text)) || m.Match < m.Offset {
				t.Fatalf("bad match %+v", m)
			}
		}
		if returned > 1000 {
			t.Fatalf("returned %d bytes over max_bytes", returned)
		}
		if regex && !textAnchors.MatchString(pattern) {
			re := regexp.MustCompile(pattern)
			want := naiveSearch(text, re.MatchString)
			c, err := s.Search(ctx, h, pattern, SearchOptions{Regex: true, CountOnly: true}, Limits{})
			if err != nil || c.Value.(int64) != int64(len(want)) {
				t.Fatalf("regex count = %v, %v; want %d", c.Value, err, len(want))
			}
		}
		if !regex && !strings.Contains(pattern, "\n") {
			want := naiveSearch(text, func(l string) bool { return strings.Contains(l, pattern) })
			c, err := s.Search(ctx, h, pattern, SearchOptions{CountOnly: true}, Limits{})
			if err != nil || c.Value.(int64) != int64(len(want)) {
				t.Fatalf("count = %v, %v; want %d", c.Value, err, len(want))
			}
		}
	})
}

func FuzzPartition(f *testing.F) {
	f.Add("a\nb\nc\n", int64(2), false)
	f.Add("aaaa€€€", int64(5), true)
	f.Add("€😀a\n", int64(1), true)
	f.Add("\xe2\x82", int64(1), true)
	f.Add("", int64(3), false)
	f.Fuzz(func(t *testing.T, text string, size int64, bytesStrategy bool) {
		if size <= 0 || size > 1<<20 {
			return
		}
		s := NewStore()
		defer s.Close()
		h, err := s.AddString("fuzz", text)
		if err != nil {
			t.Fatal(err)
		}
		opt := PartitionOptions{Strategy: StrategyLines, Size: size}
		if bytesStrategy {
			opt.Strategy = StrategyBytes
		}
		r, err := s.Partition(context.Background(), h, opt, Limits{MaxResults: MaxMaxResults})
		if err != nil {
			t.Fatal(err)
		}
		checkPartition(t, []byte(text), opt, r.Value.([]Chunk))
	})
}
