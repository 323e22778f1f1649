package command

import (
	"path/filepath"
	"testing"

	"github.com/rlm-go/rlm/fault"
)

// CompileFile is LoadKB then Compile: the same command, and each step's
// error.
func TestCompileFile(t *testing.T) {
	want, err := Compile(loadKB(t), "unknown")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, path, trigger string
		kind                fault.Kind
	}{
		{"compiled", filepath.Join("testdata", "kb.json"), "unknown", ""},
		{"missing file", filepath.Join("testdata", "missing.json"), "unknown", KindInvalidKB},
		{"not a knowledge base", filepath.Join("testdata", "unknown.command.json"), "unknown", KindInvalidKB},
		{"unbound trigger", filepath.Join("testdata", "kb.json"), "nope", KindMissingBinding},
	} {
		got, err := CompileFile(c.path, c.trigger)
		if fault.KindOf(err) != c.kind {
			t.Fatalf("%s: kind %q, want %q (%v)", c.name, fault.KindOf(err), c.kind, err)
		}
		if err == nil && got.Fingerprint != want.Fingerprint {
			t.Fatalf("%s: fingerprint %s, want %s", c.name, got.Fingerprint, want.Fingerprint)
		}
	}
}
