//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/fault"
)

// A context file truncated while a code-mode run reads it ends the run with
// Kind context_changed: the cell's read of the lost pages is guarded, the
// error is fatal (the text the model reasons over is gone), and the process
// does not die of SIGBUS.
func TestCodeContextFileTruncatedEndsRun(t *testing.T) {
	line := "2026-12-02 INFO request served in 12 ms\n"
	text := strings.Repeat(line, (4<<20)/len(line))
	path := filepath.Join(t.TempDir(), "log.txt")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, cell := range []string{
		`x = context[len(context)-100:]`,
		`x = context.count("ERROR")`,
		`x = "absent" in context`,
		`x = context.endswith("ms\n")`,
		`x = context[len(context)-1]`,
	} {
		t.Run(cell, func(t *testing.T) {
			if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
				t.Fatal(err)
			}
			f := newFixture(t, "unused", codeCfg(),
				reply("Query:", py(cell, `FINAL("read")`)),
			)
			h, err := f.store.AddFile(context.Background(), path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Truncate(path, 4096); err != nil {
				t.Fatal(err)
			}
			_, err = f.eng.Run(context.Background(), "read the end", h)
			if fe := fault.As(err); fe == nil || fe.Kind != corpus.KindContextChanged {
				t.Fatalf("err %v, want kind %s", err, corpus.KindContextChanged)
			}
		})
	}
}
