// Package libtest runs Python source in a fresh interpreter, for the
// tests of library modules.
package libtest

import (
	"context"
	"strings"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// Result is what a run printed and the exception it ended with.
type Result struct {
	Stdout string
	Exc    *python.Exception // nil if none
	Err    error             // a stop (steps, cancellation), not an exception
}

// ExcType returns the exception's type name ("" if none).
func (r Result) ExcType() string {
	if r.Exc == nil {
		return ""
	}
	return r.Exc.TypeName()
}

// Run executes src in a new interpreter in which the given register
// functions have registered their modules.
func Run(src string, register ...func()) Result {
	return RunContext(context.Background(), src, register...)
}

// RunContext is Run under ctx.
func RunContext(ctx context.Context, src string, register ...func()) Result {
	for _, r := range register {
		r()
	}
	in := python.New(python.Config{MaxValueBytes: 64 << 20})
	defer in.Close()
	var out strings.Builder
	t := python.NewThread(ctx, in, 50_000_000, func(s string) { out.WriteString(s) })
	err := in.Exec(t, src, "<test>")
	res := Result{Stdout: out.String()}
	if e, ok := python.AsException(err); ok {
		res.Exc = e
	} else {
		res.Err = err
	}
	return res
}
