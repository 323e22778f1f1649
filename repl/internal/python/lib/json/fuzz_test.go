package json

import (
	"context"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/repl/internal/python"
)

func newThread(tb testing.TB) *python.Thread {
	tb.Helper()
	initTypes()
	in := python.New(python.Config{MaxValueBytes: 1 << 24})
	tb.Cleanup(in.Close)
	return python.NewThread(context.Background(), in, 1<<40, func(string) {})
}

// FuzzLoads decodes arbitrary text: the decoder must end with a value or a
// Python exception (never a panic or a hang), and a value must survive a
// dumps/loads round trip.
func FuzzLoads(f *testing.F) {
	for _, s := range []string{`{"a": [1, 2.5, null, true, "x\u00e9"]}`, `[`, `"\ud83d\ude00"`, `-Infinity`,
		`{"a" 1}`, `1e400`, `"\\`, "\"\x01\"", `[1,]`, `12345678901234567890123`, `{"":{"":[[]]}}`} {
		f.Add(s)
	}
	t := newThread(f)
	f.Fuzz(func(tt *testing.T, s string) {
		d := newDecoder(t, python.NewStr(s), s)
		v, err := d.decodeAll()
		if err != nil {
			if _, ok := python.AsException(err); !ok {
				tt.Fatalf("loads(%q): non-Python error %v", s, err)
			}
			return
		}
		e, err := newEncoder(t, map[string]python.Object{"ensure_ascii": python.False})
		if err != nil {
			tt.Fatal(err)
		}
		out, err := e.run(v)
		if err != nil {
			tt.Fatalf("dumps(loads(%q)): %v", s, err)
		}
		text := python.StrValue(out)
		d2 := newDecoder(t, out, text)
		v2, err := d2.decodeAll()
		if err != nil {
			tt.Fatalf("loads(dumps(loads(%q))) = loads(%q): %v", s, text, err)
		}
		if strings.Contains(text, "NaN") {
			return
		}
		eq, err := python.Equal(t, v, v2)
		if err != nil || !eq {
			tt.Fatalf("round trip of %q changed the value (%q)", s, text)
		}
	})
}

func BenchmarkLoads(b *testing.B) {
	t := newThread(b)
	var sb strings.Builder
	sb.WriteString("[")
	for i := 0; i < 1000; i++ {
		if i > 0 {
			sb.WriteString(",")
		}
		sb.WriteString(`{"id": 12345, "name": "user \u00e9 name", "score": 9.75, "tags": ["a", "b"], "ok": true}`)
	}
	sb.WriteString("]")
	s := sb.String()
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		d := newDecoder(t, python.NewStr(s), s)
		if _, err := d.decodeAll(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDumps(b *testing.B) {
	t := newThread(b)
	s := `{"id": 12345, "name": "user \u00e9 name", "score": 9.75, "tags": ["a", "b"], "ok": true}`
	d := newDecoder(t, python.NewStr(s), s)
	rec, err := d.decodeAll()
	if err != nil {
		b.Fatal(err)
	}
	items := make([]python.Object, 1000)
	for i := range items {
		items[i] = rec
	}
	v := python.NewList(items)
	for b.Loop() {
		e, err := newEncoder(t, map[string]python.Object{})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := e.run(v); err != nil {
			b.Fatal(err)
		}
	}
}
