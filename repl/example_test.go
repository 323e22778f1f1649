package repl_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/rlm-go/rlm/repl"
)

// Run model-written Python in a persistent, sandboxed interpreter. The host
// offers plain Go functions as builtins; globals survive across cells; an
// error in the code is an observation (Outcome.Exception), not a failure;
// FINAL ends the run with a value.
func ExampleInterp_Exec() {
	host := map[string]any{ // the engine binds context, llm_query, ...; no standard name may be reused
		"lookup": repl.Builtin(func(c *repl.Call) (any, error) {
			return strings.ToUpper(c.Args[0].(string)), nil
		}),
	}
	it, err := repl.New(repl.Config{MaxCellSteps: 100_000}, host)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer it.Close() // ends suspended generators' goroutines
	ctx := context.Background()

	for _, cell := range []string{
		"services = [lookup(s) for s in ['api', 'web']]\nprint(len(services), services)",
		"print(servics)",
		"FINAL({'first': services[0], 'n': len(services)})",
	} {
		out, err := it.Exec(ctx, cell) // one cell
		if err != nil {
			fmt.Println("stopped:", err) // cancelled, timed out, step budget spent
			return
		}
		switch {
		case out.Exception != nil:
			fmt.Println("exception:", out.Exception.Type, out.Exception.Line)
		case out.Final != nil:
			fmt.Println("final:", out.Final.Repr)
		default:
			fmt.Print(out.Stdout)
		}
	}
	// Output:
	// 2 ['API', 'WEB']
	// exception: NameError 1
	// final: {'first': 'API', 'n': 2}
}
