package launcher

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/rlm-go/rlm/internal/pdfgen"
)

// TestPDFContextBinary: `rlm context` reads a PDF as the text of its pages:
// search hits carry the page, partition --pages cuts by pages, and a
// damaged or encrypted PDF is its typed error.
func TestPDFContextBinary(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good, err := pdfgen.Pages(3, func(p int) []string { return []string{fmt.Sprintf("Page %d says hello", p)} })
	if err != nil {
		t.Fatal(err)
	}
	damaged, err := pdfgen.DamagePage(good, 2)
	if err != nil {
		t.Fatal(err)
	}
	enc, err := pdfgen.Encrypted(1, "pw")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{"report.pdf": good, "damaged.pdf": damaged, "encrypted.pdf": enc}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The engine's caches: wazero's compilation cache is kept between runs
	// (compiling PDFium takes seconds), the text cache is the test's.
	env := binaryEnv("XDG_CACHE_HOME=" + filepath.Join(os.TempDir(), "rlm-test-xdg-cache"))
	report := filepath.Join(dir, "report.pdf")
	for _, tc := range []struct {
		name  string
		args  []string
		value string
		kind  string
	}{
		{"search", []string{"search", report, "hello"}, `[{"index":1,"offset":0,"match":12,"value":"Page 1 says hello","page":1},` +
			`{"index":3,"offset":20,"match":32,"value":"Page 2 says hello","page":2},{"index":5,"offset":40,"match":52,"value":"Page 3 says hello","page":3}]`, ""},
		{"partition pages", []string{"partition", report, "--pages", "2"}, `[{"index":0,"start":0,"length":40,"first_page":1,"last_page":2},` +
			`{"index":1,"start":40,"length":18,"first_page":3,"last_page":3}]`, ""},
		{"damaged", []string{"metadata", filepath.Join(dir, "damaged.pdf")}, "", "pdf_damaged"},
		{"encrypted", []string{"metadata", filepath.Join(dir, "encrypted.pdf")}, "", "pdf_encrypted"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := runBinary(t, nil, env, append(append([]string{"context"}, tc.args...), "--json")...)
			if tc.kind != "" {
				if r.code == 0 || jsonErrorKind([]byte(r.stdout)) != tc.kind {
					t.Fatalf("exit %d, stdout %s, want error %s", r.code, r.stdout, tc.kind)
				}
				return
			}
			if r.code != 0 {
				t.Fatalf("exit %d: %s %s", r.code, r.stdout, r.stderr)
			}
			var res struct {
				Value json.RawMessage `json:"value"`
			}
			if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
				t.Fatalf("stdout: %v\n%s", err, r.stdout)
			}
			var got bytes.Buffer
			if err := json.Compact(&got, res.Value); err != nil {
				t.Fatal(err)
			}
			if got.String() != tc.value {
				t.Fatalf("value = %s\nwant    %s", got.String(), tc.value)
			}
		})
	}
}
