package re

import (
	"context"
	"sync"
	"testing"

	"github.com/rlm-go/rlm/repl/internal/python"
	"github.com/rlm-go/rlm/repl/internal/python/sre"
)

var (
	benchOnce sync.Once
	benchText string
)

// benchLog is a 50 MB log with some non-ASCII text.
func benchLog() string {
	benchOnce.Do(func() { benchText = genLog(50 << 20) })
	return benchText
}

// benchEnv is an interpreter with re imported and a thread to call it.
func benchEnv(b *testing.B) (*python.Thread, *python.Module) {
	Register()
	in := python.New(python.Config{MaxValueBytes: 1 << 30})
	b.Cleanup(in.Close)
	t := python.NewThread(context.Background(), in, 1<<62, nil)
	m, err := in.Import(t, "re")
	if err != nil {
		b.Fatal(err)
	}
	return t, m.(*python.Module)
}

func call(b *testing.B, t *python.Thread, m *python.Module, name string, args ...python.Object) python.Object {
	fn, err := python.GetAttr(t, m, name)
	if err != nil {
		b.Fatal(err)
	}
	r, err := python.Call(t, fn, args, nil)
	if err != nil {
		b.Fatal(err)
	}
	return r
}

var benchPatterns = []struct{ name, pat string }{
	{"literal", `timeout`},
	{"word_digits", `user_(\d+)`},
	{"time", `\d\d:\d\d:\d+`},
	{"nonascii", `東京|café`},
}

// BenchmarkFindallContext measures re.findall over a 50 MB context; the
// engine alone (BenchmarkEngineFindAll) is the bound it should approach.
func BenchmarkFindallContext(b *testing.B) {
	text := benchLog()
	for _, bp := range benchPatterns {
		b.Run(bp.name, func(b *testing.B) {
			t, m := benchEnv(b)
			ctx := python.NewHostStr(&memText{name: "context", b: []byte(text)})
			pat := python.NewStr(bp.pat)
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				call(b, t, m, "findall", pat, ctx)
			}
		})
	}
}

// BenchmarkEngineFindAll is sre's FindAll over the same text, counting
// matches only.
func BenchmarkEngineFindAll(b *testing.B) {
	text := benchLog()
	for _, bp := range benchPatterns {
		b.Run(bp.name, func(b *testing.B) {
			p, err := sre.Compile(bp.pat, 0)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				n := 0
				if err := p.FindAll(context.Background(), sre.Str(text), 0, len(text), sre.Limits{}, func(*sre.Match) error { n++; return nil }); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkFinditerContext measures finditer over a 50 MB non-ASCII
// context, taking every match's span: the offset conversion must stay
// incremental.
func BenchmarkFinditerContext(b *testing.B) {
	text := benchLog()
	t, m := benchEnv(b)
	ctx := python.NewHostStr(&memText{name: "context", b: []byte(text)})
	pat := python.NewStr(`東京|café`)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		it := call(b, t, m, "finditer", pat, ctx)
		n := 0
		err := python.Iterate(t, it, func(x python.Object) error {
			n += x.(*Match).spans[1]
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSearchSmall measures one re.search on a short str: the call's
// fixed cost (argument binding, the pattern cache, the Match object).
func BenchmarkSearchSmall(b *testing.B) {
	t, m := benchEnv(b)
	pat := python.NewStr(`(\w+)@(\w+)\.com`)
	s := python.NewStr("mail bob@site.com now")
	for b.Loop() {
		call(b, t, m, "search", pat, s)
	}
}

// BenchmarkSubTemplate measures re.sub with a template over 1 MB.
func BenchmarkSubTemplate(b *testing.B) {
	t, m := benchEnv(b)
	text := python.NewStr(benchLog()[:1<<20])
	pat, repl := python.NewStr(`(\d\d):(\d\d)`), python.NewStr(`\2h\1`)
	b.SetBytes(1 << 20)
	for b.Loop() {
		call(b, t, m, "sub", pat, repl, text)
	}
}
