package repl

import (
	"context"
	"testing"
	"time"
)

// FuzzExec: no source makes Exec panic or fail the run; errors are exceptions.
func FuzzExec(f *testing.F) {
	for _, s := range []string{
		"x = [i * 2 for i in range(10)]\nprint(sum(x))",
		"def f(n):\n    return f(n - 1) if n else 0\nf(10)",
		"s = 'ab' * 3\nprint(s.ljust(10, '*'), '%5.1f' % 2.5)",
		"import re\nprint(re.sub(r'(a)', r'\\1\\1', 'aba'))",
		"for ch in 'xyz':\n    print(ch)\nFINAL(1)",
		"answer = {'content': [1, {'a': None}], 'ready': True}",
		"_rlm_try(1, 2, 3, 4, 5)",
		"_rlm_method()\n_rlm_fmt()\n_rlm_mul('x', -1)",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		it, err := New(Config{MaxCellSteps: 100_000, MaxTotalSteps: 1_000_000, CellTimeout: 2 * time.Second, MaxValueBytes: 1 << 20, MaxOutputBytes: 1 << 10}, nil)
		if err != nil {
			t.Fatal(err)
		}
		o, err := it.Exec(context.Background(), src)
		if err != nil {
			t.Fatalf("Exec(%q) = %v", src, err)
		}
		if len(o.Stdout) > 1<<10 {
			t.Fatalf("stdout over its bound: %d", len(o.Stdout))
		}
	})
}
