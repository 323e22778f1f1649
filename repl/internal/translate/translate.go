// Package translate rewrites Python-style model code into Starlark source.
//
// This file is a placeholder kept by the repl helper until the real
// translation layer is merged: it returns the source unchanged.
package translate

// Result is the outcome of a translation.
type Result struct {
	Source  string
	Changed bool
	LineMap []int
}

// Placeholder reports that this package is the stand-in, not the real translator.
const Placeholder = true

// Translate returns src unchanged (placeholder).
func Translate(src string) (Result, error) {
	return Result{Source: src}, nil
}
