package engine

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Packages the engine must not link: the tool runtime (and with it JSON
// Schema and the SQLite effect journal) is reached only through the small
// Tools interface, wired by callers (tool.ModelTools, cmd/rlm); the BPE
// tables of exact token counts (12 MB) only through package bpe, and the
// PDF engine only through package pdf, which programs import when they
// want them.
var heavyDeps = []string{
	"modernc.org/sqlite",
	"github.com/santhosh-tekuri/jsonschema",
	"github.com/google/jsonschema-go", // the MCP SDK's
	"github.com/tiktoken-go/tokenizer",
	"github.com/rlm-go/rlm/tool",
	"github.com/rlm-go/rlm/effect",
	// PDFium in WebAssembly (about 11 MB): the store reads PDFs through
	// the reader package pdf registers when a program imports it.
	"github.com/rlm-go/rlm/pdf",
	"github.com/klippa-app/go-pdfium",
}

// MaxHelloBinaryBytes bounds a whole program that embeds the engine
// (testdata/hello: engine, corpus and model/openai, a real run), built
// with the go command's defaults. It was 30.6 MB while the engine linked
// the BPE tables and 18.6 MB without them with Starlark as code mode's
// interpreter; code mode's own Python 3.12 interpreter and its standard
// modules (3.5 MB of symbols by go tool nm, with their line tables and
// DWARF) brought it to 27.8 MB (19.0 MB with -s -w). The HTTP client and
// TLS (8.2 MB for a program that only builds a provider) and RE2 compiled
// to Go (go-re2, about 5.3 MB) are most of the rest (docs/engine.md, "What
// a program links").
const MaxHelloBinaryBytes = 30 << 20

// MaxFootprintBinaryBytes bounds testdata/footprint, a hello-world that
// imports only the engine and model/openai and runs nothing: the issue's
// 10 MB. It catches what importing the engine links through package-level
// state and init functions, as SQLite and JSON Schema once came in.
const MaxFootprintBinaryBytes = 10 << 20

func TestEngineStaysLight(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool on PATH")
	}
	out, err := exec.Command(goBin, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, heavy := range heavyDeps {
			if dep == heavy || strings.HasPrefix(dep, heavy+"/") {
				t.Errorf("engine links %s", dep)
			}
		}
	}
	if testing.Short() {
		return // the build below takes seconds
	}
	build := func(name string, max int64) string {
		bin := filepath.Join(t.TempDir(), name)
		if b, err := exec.Command(goBin, "build", "-o", bin, "./testdata/"+name).CombinedOutput(); err != nil {
			t.Fatalf("build %s: %v\n%s", name, err, b)
		}
		fi, err := os.Stat(bin)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s binary: %d bytes", name, fi.Size())
		if fi.Size() > max {
			t.Errorf("testdata/%s is %d bytes, over %d", name, fi.Size(), max)
		}
		return bin
	}
	build("footprint", MaxFootprintBinaryBytes)
	bin := build("hello", MaxHelloBinaryBytes)
	// It really runs: one turn, answered directly.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"r1","object":"chat.completion","model":"gpt-4o-mini","choices":[{"index":0,"message":{"role":"assistant","content":"{\"answer\": \"disk full\"}"},"finish_reason":"stop"}],"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}}`)
	}))
	defer srv.Close()
	got, err := exec.Command(bin, srv.URL+"/v1").CombinedOutput()
	if err != nil || strings.TrimSpace(string(got)) != "disk full" {
		t.Fatalf("hello = %q, %v; want the answer disk full", got, err)
	}
}
