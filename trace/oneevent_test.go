package trace

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// otherEvents are the event types of other packages, by import path:
// traces (this package, its OTLP export and file formats), the verbose
// printer (console) and the viewer must use trace.Event only.
var otherEvents = map[string]string{
	"github.com/rlm-go/rlm/engine": "Event",
	"github.com/rlm-go/rlm/direct": "Event",
	"github.com/rlm-go/rlm/agent":  "Event",
}

// TestOneEventType fails when a Go file (tests included) of trace, its
// subpackages, console or viewer names engine.Event, direct.Event or
// agent.Event: one event type, trace.Event, travels to traces, -v output,
// OTLP and the viewer.
func TestOneEventType(t *testing.T) {
	scanned := 0
	for _, root := range []string{".", "../console", "../viewer"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") {
				return nil
			}
			scanned++
			for _, use := range otherEventUses(t, path) {
				t.Errorf("%s: uses %s; use trace.Event", path, use)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if scanned < 20 {
		t.Fatalf("scanned %d files: the walk missed the packages", scanned)
	}
}

// otherEventUses returns the uses of an other package's event type in
// the file at path ("engine.Event", as written).
func otherEventUses(t *testing.T, path string) []string {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]string{} // local name -> type name
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		typ, ok := otherEvents[p]
		if !ok {
			continue
		}
		name := p[strings.LastIndex(p, "/")+1:]
		if imp.Name != nil {
			name = imp.Name.Name
		}
		names[name] = typ
	}
	var uses []string
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if x, ok := sel.X.(*ast.Ident); ok && names[x.Name] != "" && sel.Sel.Name == names[x.Name] {
				uses = append(uses, x.Name+"."+sel.Sel.Name)
			}
		}
		return true
	})
	return uses
}
