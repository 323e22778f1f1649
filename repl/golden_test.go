package repl

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.starlark.net/starlark"

	"github.com/rlm-go/rlm/internal/golden"
	"github.com/rlm-go/rlm/repl/internal/pymod"
	"github.com/rlm-go/rlm/repl/internal/translate"
)

// translatorPresent reports whether the real translation layer is linked
// (the placeholder returns every source unchanged).
func translatorPresent() bool {
	r, err := translate.Translate("x = f'{1}'\n")
	return err == nil && r.Changed
}

// goldenContext is the context of the golden cells (the .golden files were
// produced by running the same cells in CPython with the same stubs).
func goldenContext() string {
	labels := []string{"alpha", "beta", "gamma", "delta", "epsilon"}
	var b strings.Builder
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&b, "[2024-%02d-%02d] user_%d (%s): item %d costs $%d.%02d; see section %d. The quick brown fox jumps over the lazy dog.\n",
			1+i%12, 1+i%28, i%97, labels[i%5], i, (i*37)%500, (i*13)%100, i%40)
	}
	return b.String()
}

func goldenHost() starlark.StringDict {
	ans := starlark.String("[sub-model answer]")
	return starlark.StringDict{
		"context": starlark.String(goldenContext()),
		"llm_query": starlark.NewBuiltin("llm_query", func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
			return ans, nil
		}),
		"llm_query_batched": starlark.NewBuiltin("llm_query_batched", func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			n := args[0].(starlark.Sequence).Len()
			out := make([]starlark.Value, n)
			for i := range out {
				out[i] = ans
			}
			return starlark.NewList(out), nil
		}),
	}
}

// TestGoldenCells runs model-style trajectories (testdata/cells/*.py, cells
// split by "# ---- cell") and compares with what CPython printed for them.
// They use f-strings, imports, try/except and generator expressions, so they
// run only once the real translator is linked.
func TestGoldenCells(t *testing.T) {
	if !translatorPresent() {
		t.Skip("the translation layer is the placeholder: golden cells need f-strings, imports and try")
	}
	files, err := filepath.Glob(filepath.Join("testdata", "cells", "*.py"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden cells: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			it := newInterp(t, Config{}, goldenHost())
			var out bytes.Buffer
			for i, cell := range strings.Split(string(src), "# ---- cell\n") {
				fmt.Fprintf(&out, "## cell %d\n", i+1)
				o, err := it.Exec(context.Background(), cell)
				if err != nil {
					t.Fatal(err)
				}
				out.WriteString(o.Stdout)
				if o.Exception != nil {
					fmt.Fprintf(&out, "Exception: %s\n", pymod.BaseType(o.Exception.Type))
					t.Logf("cell %d: %s", i+1, o.Exception)
				}
				if o.Final != nil {
					var b bytes.Buffer
					enc := json.NewEncoder(&b)
					enc.SetEscapeHTML(false)
					_ = enc.Encode(o.Final.Value)
					fmt.Fprintf(&out, "FINAL: %s", b.String())
				}
			}
			golden.Check(t, filepath.Join("cells", strings.TrimSuffix(filepath.Base(f), ".py")+".golden"), out.Bytes())
		})
	}
}
