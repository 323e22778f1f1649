package copy

import (
	"testing"

	"github.com/rlm-go/rlm/repl/internal/python/lib/libtest"
)

// TestDeepNesting checks that deepcopy of a very deep structure ends with
// RecursionError, as CPython's does, instead of exhausting the Go stack.
func TestDeepNesting(t *testing.T) {
	res := libtest.Run("import copy\nx = []\nfor _ in range(100000):\n    x = [x]\ncopy.deepcopy(x)\n", Register)
	if res.Exc == nil || res.Exc.Class().Name() != "RecursionError" {
		t.Fatalf("got %v %v", res.Exc, res.Err)
	}
}

func BenchmarkDeepcopy(b *testing.B) {
	src := "import copy\ndata = {'rows': [{'id': i, 'tags': ['x', 'y'], 'v': i * 1.5} for i in range(2000)]}\nfor _ in range(5):\n    copy.deepcopy(data)\n"
	for b.Loop() {
		res := libtest.Run(src, Register)
		if res.Exc != nil || res.Err != nil {
			b.Fatal(res.Exc, res.Err)
		}
	}
}
