package json

import (
	"strings"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// signature describes the parameters of a function CPython defines in
// Python (json.dumps and friends), so that argument errors read as
// CPython's for a Python function: positional parameters (the first
// required of them required), keyword-only parameters and, when rest is
// true, a **kw that collects the others.
type signature struct {
	name     string
	pos      []string
	required int
	kwOnly   []string
	rest     bool
}

// bind returns the values of the named parameters (nil when not given) and
// the keyword arguments **kw collected.
func (s *signature) bind(args []python.Object, kwargs []python.Kwarg) (map[string]python.Object, []python.Kwarg, error) {
	if len(args) > len(s.pos) {
		word := "arguments"
		if len(s.pos) == 1 {
			word = "argument"
		}
		was := "were"
		if len(args) == 1 {
			was = "was"
		}
		return nil, nil, python.Errorf(python.TypeErrorType, "%s() takes %d positional %s but %d %s given", s.name, len(s.pos), word, len(args), was)
	}
	vals := make(map[string]python.Object, len(s.pos)+len(s.kwOnly))
	for i, a := range args {
		vals[s.pos[i]] = a
	}
	var rest []python.Kwarg
	for _, kw := range kwargs {
		known := false
		for _, n := range s.pos {
			if n == kw.Name {
				known = true
			}
		}
		for _, n := range s.kwOnly {
			if n == kw.Name {
				known = true
			}
		}
		if !known {
			if s.rest {
				rest = append(rest, kw)
				continue
			}
			return nil, nil, python.Errorf(python.TypeErrorType, "%s() got an unexpected keyword argument '%s'", s.name, kw.Name)
		}
		if _, dup := vals[kw.Name]; dup {
			return nil, nil, python.Errorf(python.TypeErrorType, "%s() got multiple values for argument '%s'", s.name, kw.Name)
		}
		vals[kw.Name] = kw.Value
	}
	var missing []string
	for _, n := range s.pos[:s.required] {
		if vals[n] == nil {
			missing = append(missing, "'"+n+"'")
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
		return nil, nil, python.Errorf(python.TypeErrorType, "%s() missing %d required positional %s: %s", s.name, len(missing), word, list)
	}
	return vals, rest, nil
}

// orNone returns v, or None when v is nil.
func orNone(v python.Object) python.Object {
	if v == nil {
		return python.None
	}
	return v
}

// truth returns bool(v), def when v is nil.
func truth(t *python.Thread, v python.Object, def bool) (bool, error) {
	if v == nil {
		return def, nil
	}
	return python.TruthE(t, v)
}
