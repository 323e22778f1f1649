package dataclasses

import (
	"strconv"
	"strings"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// pyArgs binds a call's arguments as a function CPython defines in Python
// would, with its messages: pos are the positional-or-keyword parameters
// (the first required of them have no default), kwonly the keyword-only
// ones (all optional). Missing optional values are nil.
func pyArgs(name string, pos []string, required int, kwonly []string, args []obj, kwargs []kwarg) ([]obj, error) {
	out := make([]obj, len(pos)+len(kwonly))
	copy(out, args[:min(len(args), len(pos))])
	for _, kw := range kwargs {
		i := -1
		for k, p := range pos {
			if p == kw.Name {
				i = k
			}
		}
		for k, p := range kwonly {
			if p == kw.Name {
				i = len(pos) + k
			}
		}
		if i < 0 {
			return nil, python.Errorf(python.TypeErrorType, "%s() got an unexpected keyword argument '%s'", name, kw.Name)
		}
		if out[i] != nil {
			return nil, python.Errorf(python.TypeErrorType, "%s() got multiple values for argument '%s'", name, kw.Name)
		}
		out[i] = kw.Value
	}
	if len(args) > len(pos) {
		var takes string
		plural := "s"
		switch {
		case required < len(pos):
			takes = "from " + strconv.Itoa(required) + " to " + strconv.Itoa(len(pos))
		default:
			takes = strconv.Itoa(len(pos))
			if len(pos) == 1 {
				plural = ""
			}
		}
		was := "were"
		if len(args) == 1 {
			was = "was"
		}
		return nil, python.Errorf(python.TypeErrorType, "%s() takes %s positional argument%s but %d %s given", name, takes, plural, len(args), was)
	}
	var missing []string
	for i := 0; i < required; i++ {
		if out[i] == nil {
			missing = append(missing, "'"+pos[i]+"'")
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
		return nil, python.Errorf(python.TypeErrorType, "%s() missing %d required positional %s: %s", name, len(missing), word, list)
	}
	return out, nil
}
