package launcher

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// BenchmarkStartup runs the built binary for commands whose time is almost
// all process start-up (docs/corpus.md, start-up): GODEBUG=inittrace=1
// shows what package initialization costs.
func BenchmarkStartup(b *testing.B) {
	bin := builtBinary(b)
	small := filepath.Join(b.TempDir(), "small.txt")
	if err := os.WriteFile(small, []byte("one line\nanother line\n"), 0o600); err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"version", []string{"--version"}},
		{"context-metadata", []string{"context", "metadata", small}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				if out, err := exec.Command(bin, tc.args...).CombinedOutput(); err != nil {
					b.Fatalf("%v: %s", err, out)
				}
			}
		})
	}
}
