package dataclasses

import (
	"context"
	"testing"

	"github.com/rlm-go/rlm/repl/internal/python"
)

func benchSetup(b *testing.B) (*python.Thread, python.Object, python.Object) {
	b.Helper()
	Register()
	in := python.New(python.Config{MaxValueBytes: 64 << 20})
	t := python.NewThread(context.Background(), in, 1<<62, func(string) {})
	src := "from dataclasses import dataclass, field\n@dataclass(order=True)\nclass Item:\n    name: str\n    price: float\n    qty: int = 1\n    tags: list = field(default_factory=list)\na = Item('pen', 1.5, 4)\n"
	if err := in.Exec(t, src, "<bench>"); err != nil {
		b.Fatal(err)
	}
	cls, _ := in.Globals().GetStr("Item")
	a, _ := in.Globals().GetStr("a")
	return t, cls, a
}

func BenchmarkInit(b *testing.B) {
	t, cls, _ := benchSetup(b)
	args := []python.Object{python.NewStr("pen"), python.Float(1.5)}
	kw := []python.Kwarg{{Name: "qty", Value: python.MakeInt(4)}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := python.Call(t, cls, args, kw); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRepr(b *testing.B) {
	t, _, a := benchSetup(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := python.Repr(t, a); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLess(b *testing.B) {
	t, cls, a := benchSetup(b)
	other, err := python.Call(t, cls, []python.Object{python.NewStr("pen"), python.Float(2.5)}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := python.Less(t, a, other); err != nil {
			b.Fatal(err)
		}
	}
}
