package enum

import (
	"context"
	"testing"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// benchClass runs src in a fresh interpreter and returns the global name.
func benchClass(b *testing.B, src, name string) (*python.Thread, python.Object) {
	b.Helper()
	Register()
	in := python.New(python.Config{MaxValueBytes: 64 << 20})
	t := python.NewThread(context.Background(), in, 1<<62, func(string) {})
	if err := in.Exec(t, src, "<bench>"); err != nil {
		b.Fatal(err)
	}
	v, ok := in.Globals().GetStr(name)
	if !ok {
		b.Fatalf("no %s", name)
	}
	return t, v
}

func BenchmarkLookupByValue(b *testing.B) {
	t, cls := benchClass(b, "from enum import Enum\nclass Level(Enum):\n    DEBUG = 10\n    INFO = 20\n    WARN = 30\n    ERROR = 40\n", "Level")
	v := python.MakeInt(30)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := python.Call(t, cls, []python.Object{v}, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFlagOr(b *testing.B) {
	t, cls := benchClass(b, "from enum import Flag, auto\nclass Perm(Flag):\n    R = auto()\n    W = auto()\n    X = auto()\nr, w = Perm.R, Perm.W\n", "Perm")
	_ = cls
	r, _ := t.Interp().Globals().GetStr("r")
	w, _ := t.Interp().Globals().GetStr("w")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := python.Binary(t, addOr, r, w); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkClassCreation(b *testing.B) {
	t, _ := benchClass(b, "from enum import Enum\n", "Enum")
	src := "class Color(Enum):\n    RED = 1\n    GREEN = 2\n    BLUE = 3\n"
	b.ReportAllocs()
	for b.Loop() {
		if err := t.Interp().Exec(t, src, "<bench>"); err != nil {
			b.Fatal(err)
		}
	}
}
