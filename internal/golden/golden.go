// Package golden compares test output with golden files under testdata/.
//
// A golden file is rewritten from the actual output when the test binary's
// -update flag (if the package defines one) is set or the environment
// variable UPDATE_GOLDEN is non-empty; the comparison then runs against the
// new file, so the test passes and the diff shows up in version control.
package golden

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

// Update reports whether golden files are being rewritten.
func Update() bool {
	if os.Getenv("UPDATE_GOLDEN") != "" {
		return true
	}
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// Check compares got with testdata/name and reports a difference as a test
// error.
func Check(t testing.TB, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if Update() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update or UPDATE_GOLDEN=1)", err)
	}
	if string(want) != string(got) {
		t.Errorf("%s differs from its golden file (run with -update or UPDATE_GOLDEN=1 to accept):\n got %s\nwant %s", name, got, want)
	}
}

// CheckJSON is Check of v encoded as indented JSON with a final newline.
func CheckJSON(t testing.TB, name string, v any) {
	t.Helper()
	got, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	Check(t, name, append(got, '\n'))
}
