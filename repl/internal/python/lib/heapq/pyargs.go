package heapq

import (
	"fmt"
	"strings"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// pyParams describes the parameters of a function CPython writes in
// Python: pos are positional-or-keyword (the first req of them required),
// kwOnly keyword-only (none required). Binding reports CPython's messages
// for Python functions.
type pyParams struct {
	fn     string
	pos    []string
	req    int
	kwOnly []string
}

// bind returns the values of pos then kwOnly (nil: not given).
func (p *pyParams) bind(args []python.Object, kwargs []python.Kwarg) ([]python.Object, error) {
	out := make([]python.Object, len(p.pos)+len(p.kwOnly))
	if len(args) > len(p.pos) {
		takes := fmt.Sprint(len(p.pos))
		if p.req < len(p.pos) {
			takes = fmt.Sprintf("from %d to %d", p.req, len(p.pos))
		}
		word, was := "arguments", "were"
		if len(p.pos) == 1 && p.req == 1 {
			word = "argument"
		}
		if len(args) == 1 {
			was = "was"
		}
		return nil, python.Errorf(python.TypeErrorType, "%s() takes %s positional %s but %d %s given", p.fn, takes, word, len(args), was)
	}
	copy(out, args)
	for _, kw := range kwargs {
		idx := -1
		for i, n := range p.pos {
			if n == kw.Name {
				idx = i
			}
		}
		for i, n := range p.kwOnly {
			if n == kw.Name {
				idx = len(p.pos) + i
			}
		}
		if idx < 0 {
			return nil, python.Errorf(python.TypeErrorType, "%s() got an unexpected keyword argument '%s'", p.fn, kw.Name)
		}
		if out[idx] != nil {
			return nil, python.Errorf(python.TypeErrorType, "%s() got multiple values for argument '%s'", p.fn, kw.Name)
		}
		out[idx] = kw.Value
	}
	var missing []string
	for i := 0; i < p.req; i++ {
		if out[i] == nil {
			missing = append(missing, "'"+p.pos[i]+"'")
		}
	}
	if len(missing) > 0 {
		var list string
		switch len(missing) {
		case 1:
			list = missing[0]
		case 2:
			list = missing[0] + " and " + missing[1]
		default:
			list = strings.Join(missing[:len(missing)-1], ", ") + ", and " + missing[len(missing)-1]
		}
		word := "argument"
		if len(missing) > 1 {
			word = "arguments"
		}
		return nil, python.Errorf(python.TypeErrorType, "%s() missing %d required positional %s: %s", p.fn, len(missing), word, list)
	}
	return out, nil
}
