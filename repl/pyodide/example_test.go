package pyodide_test

import (
	"context"
	"fmt"
	"os"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/repl/pyodide"
)

// Check before choosing Pyodide that the npm package can be found: where
// it cannot, Start (and PackageDir) fail with pyodide_unavailable, and a
// host falls back to the embedded interpreter (package repl).
func ExamplePackageDir() {
	empty, _ := os.MkdirTemp("", "rlm-pyodide-example")
	defer os.RemoveAll(empty)

	_, err := pyodide.PackageDir(empty)
	fmt.Println(fault.KindOf(err))
	// Output:
	// pyodide_unavailable
}

// Run a cell in CPython on Node.js with one host builtin. This example is
// compiled but not run: it needs Node.js and the npm package pyodide, and
// loading Pyodide takes seconds.
func ExampleStart() {
	ctx := context.Background()
	funcs := map[string]pyodide.Func{
		"lookup": func(ctx context.Context, args []any, kwargs map[string]any) (any, error) {
			return fmt.Sprintf("owner of %v: team-a", args[0]), nil
		},
	}
	it, err := pyodide.Start(ctx, pyodide.Config{}, funcs, "")
	if err != nil {
		fmt.Println(fault.KindOf(err)) // pyodide_unavailable without Node.js or the package
		return
	}
	defer it.Close()
	out, err := it.Exec(ctx, "import statistics\nprint(lookup('api'), statistics.median([3, 1, 2]))")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(out.Stdout) // owner of api: team-a 2
}
