package io

import (
	"context"
	"testing"

	"github.com/rlm-go/rlm/repl/internal/python"
)

func benchThread() *python.Thread {
	in := python.New(python.Config{MaxValueBytes: 1 << 30})
	return python.NewThread(context.Background(), in, 1<<62, func(string) {})
}

func BenchmarkStringIOWrite(b *testing.B) {
	t := benchThread()
	s := NewStringIO()
	b.ReportAllocs()
	for b.Loop() {
		if err := s.WriteString(t, "2024-01-01 12:00:00 [api] INFO request ok\n"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkStringIOReadlines(b *testing.B) {
	t := benchThread()
	s := NewStringIO()
	for i := 0; i < 1000; i++ {
		_ = s.WriteString(t, "2024-01-01 12:00:00 [api] INFO request ok\n")
	}
	b.ReportAllocs()
	for b.Loop() {
		s.pos = 0
		for {
			if s.readline(-1) == "" {
				break
			}
		}
	}
}
