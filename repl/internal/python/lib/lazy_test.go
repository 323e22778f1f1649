package lib

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestNothingAtInit checks that importing the module packages costs
// nothing: the Go linker keeps whatever init functions and package-level
// initializers reach, so a program that imports lib without calling
// Register would otherwise link the modules. No package under lib may have
// an init function, and a package-level variable's initializer may call
// nothing but math/big (big.NewInt(1), new(big.Int)...): interpreter
// values, tables and compiled patterns are made by the packages' setup
// functions, which Register runs.
func TestNothingAtInit(t *testing.T) {
	fset := token.NewFileSet()
	files := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files++
		for _, decl := range f.Decls {
			switch decl := decl.(type) {
			case *ast.FuncDecl:
				if decl.Recv == nil && decl.Name.Name == "init" {
					t.Errorf("%s: func init", fset.Position(decl.Pos()))
				}
			case *ast.GenDecl:
				if decl.Tok != token.VAR {
					continue
				}
				for _, spec := range decl.Specs {
					for _, v := range spec.(*ast.ValueSpec).Values {
						if call := initCall(v); call != nil {
							t.Errorf("%s: package-level initializer calls %s", fset.Position(call.Pos()), types.ExprString(call.Fun))
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 38 {
		t.Fatalf("checked %d files: the walk missed the module packages", files)
	}
}

// initCall returns the first call in an initializer that is not into
// math/big, or nil. Function literals are not entered: their bodies run
// when called.
func initCall(e ast.Expr) *ast.CallExpr {
	var bad *ast.CallExpr
	ast.Inspect(e, func(n ast.Node) bool {
		if bad != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if !bigCall(n) {
				bad = n
				return false
			}
		}
		return true
	})
	return bad
}

// bigCall reports whether call is big.F(...), new(big.T) or a method call
// on one of those.
func bigCall(call *ast.CallExpr) bool {
	switch fn := call.Fun.(type) {
	case *ast.Ident:
		if fn.Name != "new" || len(call.Args) != 1 {
			return false
		}
		sel, ok := call.Args[0].(*ast.SelectorExpr)
		return ok && isIdent(sel.X, "big")
	case *ast.SelectorExpr:
		if isIdent(fn.X, "big") {
			return true
		}
		if inner, ok := fn.X.(*ast.CallExpr); ok {
			return bigCall(inner)
		}
	}
	return false
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

// TestImportLinksNoModule builds testdata/importonly, which imports lib
// without calling Register, and checks with go tool nm that the binary
// holds no code of the module packages but their package init functions
// (the math/big values and the compiler's stubs for map initializers it
// dropped), and little of those.
func TestImportLinksNoModule(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool on PATH")
	}
	if testing.Short() {
		t.Skip("the build takes seconds")
	}
	bin := filepath.Join(t.TempDir(), "importonly")
	if out, err := exec.Command(goBin, "build", "-o", bin, "./testdata/importonly").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	out, err := exec.Command(goBin, "tool", "nm", "-size", bin).Output()
	if err != nil {
		t.Fatal(err)
	}
	const prefix = "github.com/rlm-go/rlm/repl/internal/python/lib/"
	total := 0
	for _, line := range strings.Split(string(out), "\n") {
		// address size kind name
		f := strings.Fields(line)
		if len(f) < 4 || !strings.Contains(f[3], prefix) {
			continue
		}
		size, err := strconv.Atoi(f[1])
		if err != nil {
			t.Fatalf("nm line %q: %v", line, err)
		}
		total += size
		if (f[2] == "T" || f[2] == "t") && !strings.HasSuffix(f[3], ".init") {
			t.Errorf("importing lib links %s (%d bytes)", f[3], size)
		}
	}
	t.Logf("module symbols linked: %d bytes", total)
	if total > maxImportBytes {
		t.Errorf("importing lib links %d bytes of module symbols, over %d", total, maxImportBytes)
	}
}

// maxImportBytes bounds the module packages' symbols in a binary that
// imports lib and registers nothing (about 1.7 KB with Go 1.26 on amd64:
// init functions making math/big values, and the variables).
const maxImportBytes = 8 << 10
