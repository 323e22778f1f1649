package unicodedata

import (
	"testing"

	"github.com/rlm-go/rlm/repl/internal/python/pystr"
)

// TestDecompositionTable checks the generated table: its version is the
// Unicode database's, and it holds every mapping CPython 3.12 has (5,857).
func TestDecompositionTable(t *testing.T) {
	if decompVersion != pystr.UnidataVersion {
		t.Fatalf("table of Unicode %s, database %s: regenerate with testdata/gen_decomp.py", decompVersion, pystr.UnidataVersion)
	}
	_ = decomposition('a')
	if n := len(decompMap); n != 5857 {
		t.Errorf("%d mappings, want 5857", n)
	}
	for r, want := range map[rune]string{'é': "0065 0301", 'ﬁ': "<compat> 0066 0069", '½': "<fraction> 0031 2044 0032", 'a': "", '가': ""} {
		if got := decomposition(r); got != want {
			t.Errorf("decomposition(%q) = %q, want %q", r, got, want)
		}
	}
}

func BenchmarkDecomposition(b *testing.B) {
	_ = decomposition('a')
	for b.Loop() {
		_ = decomposition('é')
	}
}
