package pystr

import (
	"fmt"
	"math/rand"
	"strings"
	"sync"
	"testing"
)

// Run with: go test -run '^$' -bench . -benchmem ./repl/internal/python/pystr/

var sizes = []struct {
	name string
	n    int
}{{"1KB", 1 << 10}, {"1MB", 1 << 20}, {"100MB", 100 << 20}}

var (
	textMu    sync.Mutex
	textCache = map[string]string{}
)

// benchText returns a string of about n bytes: ASCII prose, or mixed
// Latin, Greek, CJK and emoji text.
func benchText(ascii bool, n int) string {
	key := fmt.Sprint(ascii, n)
	textMu.Lock()
	defer textMu.Unlock()
	if s, ok := textCache[key]; ok {
		return s
	}
	unit := "The quick brown fox jumps over the lazy dog. "
	if !ascii {
		unit = "Ünïcödé café ΣΑΣ ΟΔΟΣ 日本語のテキスト 👍🏽 done. "
	}
	s := strings.Repeat(unit, n/len(unit)+1)[:n]
	s = strings.ToValidUTF8(s, "")
	textCache[key] = s
	return s
}

func kinds() []struct {
	name  string
	ascii bool
} {
	return []struct {
		name  string
		ascii bool
	}{{"ascii", true}, {"nonascii", false}}
}

func BenchmarkIsASCII(b *testing.B) {
	for _, sz := range sizes {
		s := benchText(true, sz.n)
		b.Run(sz.name, func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			for b.Loop() {
				if !IsASCII(s) {
					b.Fatal("not ASCII")
				}
			}
		})
	}
}

func BenchmarkNewIndex(b *testing.B) {
	for _, k := range kinds() {
		for _, sz := range sizes {
			s := benchText(k.ascii, sz.n)
			b.Run(k.name+"/"+sz.name, func(b *testing.B) {
				b.SetBytes(int64(len(s)))
				var x *Index
				for b.Loop() {
					x = NewIndex(s)
				}
				mem := 4*len(x.offs) + 8*len(x.offs64)
				b.ReportMetric(float64(mem)/(float64(len(s))/(1<<20)), "indexB/MB")
			})
		}
	}
}

// positions returns pseudo-random code-point offsets below n.
func positions(n int) []int {
	r := rand.New(rand.NewSource(1))
	p := make([]int, 1024)
	for i := range p {
		p[i] = r.Intn(n)
	}
	return p
}

func BenchmarkGetItem(b *testing.B) {
	for _, k := range kinds() {
		for _, sz := range sizes {
			x := NewIndex(benchText(k.ascii, sz.n))
			pos := positions(x.Len())
			b.Run(k.name+"/"+sz.name, func(b *testing.B) {
				i := 0
				for b.Loop() {
					if _, err := x.GetItem(pos[i&1023]); err != nil {
						b.Fatal(err)
					}
					i++
				}
			})
		}
	}
}

func BenchmarkSlice(b *testing.B) {
	for _, k := range kinds() {
		for _, sz := range sizes {
			x := NewIndex(benchText(k.ascii, sz.n))
			pos := positions(x.Len() - 100)
			b.Run(k.name+"/"+sz.name, func(b *testing.B) {
				i := 0
				for b.Loop() {
					a := pos[i&1023]
					x.Substr(a, a+100) // s[a:a+100]
					i++
				}
			})
		}
	}
}

func BenchmarkLen(b *testing.B) {
	for _, k := range kinds() {
		for _, sz := range sizes {
			s := benchText(k.ascii, sz.n)
			b.Run(k.name+"/"+sz.name, func(b *testing.B) {
				b.SetBytes(int64(len(s)))
				for b.Loop() {
					Len(s)
				}
			})
		}
	}
}

func BenchmarkFind(b *testing.B) {
	for _, k := range kinds() {
		s := benchText(k.ascii, 1<<20) + "NEEDLE"
		x := NewIndex(s)
		b.Run(k.name+"/1MB", func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			for b.Loop() {
				if x.Find("NEEDLE", None, None) < 0 {
					b.Fatal("not found")
				}
			}
		})
		b.Run(k.name+"/1MB/start-near-end", func(b *testing.B) {
			st := Int(x.Len() - 10)
			for b.Loop() {
				if x.Find("NEEDLE", st, None) < 0 {
					b.Fatal("not found")
				}
			}
		})
	}
}

func BenchmarkCase(b *testing.B) {
	for _, k := range kinds() {
		s := benchText(k.ascii, 1<<20)
		for _, f := range []struct {
			name string
			fn   func(string) string
		}{{"Upper", Upper}, {"Lower", Lower}, {"Title", Title}, {"Casefold", Casefold}} {
			b.Run(f.name+"/"+k.name+"/1MB", func(b *testing.B) {
				b.SetBytes(int64(len(s)))
				b.ReportAllocs()
				for b.Loop() {
					f.fn(s)
				}
			})
		}
	}
}

func BenchmarkPredicates(b *testing.B) {
	for _, k := range kinds() {
		s := strings.ReplaceAll(benchText(k.ascii, 1<<20), " ", "x")
		b.Run("IsPrintable/"+k.name+"/1MB", func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			for b.Loop() {
				IsPrintable(s)
			}
		})
		b.Run("IsAlnum/"+k.name+"/1MB", func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			for b.Loop() {
				IsAlnum(s)
			}
		})
	}
}

func BenchmarkSplit(b *testing.B) {
	for _, k := range kinds() {
		s := benchText(k.ascii, 1<<20)
		b.Run("Whitespace/"+k.name+"/1MB", func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			b.ReportAllocs()
			for b.Loop() {
				SplitWhitespace(s, -1)
			}
		})
		b.Run("SplitLines/"+k.name+"/1MB", func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			for b.Loop() {
				SplitLines(s, false)
			}
		})
	}
}

func BenchmarkReplace(b *testing.B) {
	for _, k := range kinds() {
		s := benchText(k.ascii, 1<<20)
		b.Run(k.name+"/1MB", func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			b.ReportAllocs()
			for b.Loop() {
				Replace(s, " ", "__", -1, 1<<30)
			}
		})
	}
}

func BenchmarkCodecs(b *testing.B) {
	for _, k := range kinds() {
		s := benchText(k.ascii, 1<<20)
		u16, _ := Encode(s, "utf-16", "strict", 1<<30)
		b.Run("EncodeUTF8/"+k.name+"/1MB", func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			for b.Loop() {
				Encode(s, "utf-8", "strict", 1<<30)
			}
		})
		b.Run("DecodeUTF8/"+k.name+"/1MB", func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			for b.Loop() {
				Decode(s, "utf-8", "strict", 1<<30)
			}
		})
		b.Run("DecodeUTF16/"+k.name+"/1MB", func(b *testing.B) {
			b.SetBytes(int64(len(u16)))
			for b.Loop() {
				Decode(u16, "utf-16", "strict", 1<<30)
			}
		})
		b.Run("Repr/"+k.name+"/1MB", func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			for b.Loop() {
				Repr(s)
			}
		})
	}
}
