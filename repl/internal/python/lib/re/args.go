package re

import (
	"strconv"
	"strings"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// argVals holds bound arguments, by value (no allocation per call): the
// parameters in order, nil for an optional one not given.
type argVals = [5]python.Object

// funcArgs binds the arguments of a function CPython's re defines in
// Python (re.search, re.sub, ...): parameters by position or keyword, the
// last ndef of them optional (nil when not given), with the messages of a
// Python function's TypeErrors.
func funcArgs(fn string, args []python.Object, kwargs []python.Kwarg, ndef int, names ...string) (argVals, error) {
	var out argVals
	required := len(names) - ndef
	if len(args) > len(names) {
		takes := strconv.Itoa(len(names))
		if ndef > 0 {
			takes = "from " + strconv.Itoa(required) + " to " + takes
		}
		word := "arguments"
		if len(names) == 1 && ndef == 0 {
			word = "argument"
		}
		was := "were"
		if len(args) == 1 {
			was = "was"
		}
		return argVals{}, python.Errorf(python.TypeErrorType, "%s() takes %s positional %s but %d %s given", fn, takes, word, len(args), was)
	}
	copy(out[:], args)
	for _, kw := range kwargs {
		i := indexOf(names, kw.Name)
		if i < 0 {
			return argVals{}, python.Errorf(python.TypeErrorType, "%s() got an unexpected keyword argument '%s'", fn, kw.Name)
		}
		if out[i] != nil {
			return argVals{}, python.Errorf(python.TypeErrorType, "%s() got multiple values for argument '%s'", fn, kw.Name)
		}
		out[i] = kw.Value
	}
	var missing []string
	for i := 0; i < required; i++ {
		if out[i] == nil {
			missing = append(missing, "'"+names[i]+"'")
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
		return argVals{}, python.Errorf(python.TypeErrorType, "%s() missing %d required positional %s: %s", fn, len(missing), word, list)
	}
	return out, nil
}

// clinicArgs binds the arguments of a method CPython implements in C with
// Argument Clinic (Pattern.search, Match.groups, ...): the first min
// parameters required, all of them accepted by keyword, with Clinic's
// messages.
func clinicArgs(fn string, args []python.Object, kwargs []python.Kwarg, min int, names ...string) (argVals, error) {
	if len(args) > len(names) {
		return argVals{}, python.Errorf(python.TypeErrorType, "%s() takes at most %d argument%s (%d given)", fn, len(names), plural(len(names)), len(args))
	}
	var out argVals
	copy(out[:], args)
	used := 0
	for i, name := range names {
		for _, kw := range kwargs {
			if kw.Name != name {
				continue
			}
			if i < len(args) {
				return argVals{}, python.Errorf(python.TypeErrorType, "argument for %s() given by name ('%s') and position (%d)", fn, name, i+1)
			}
			out[i] = kw.Value
			used++
		}
		if i < min && out[i] == nil {
			return argVals{}, python.Errorf(python.TypeErrorType, "%s() missing required argument '%s' (pos %d)", fn, name, i+1)
		}
	}
	if used < len(kwargs) {
		for _, kw := range kwargs {
			if indexOf(names, kw.Name) < 0 {
				return argVals{}, python.Errorf(python.TypeErrorType, "'%s' is an invalid keyword argument for %s()", kw.Name, fn)
			}
		}
	}
	return out, nil
}

// noKwargs refuses keyword arguments as METH_VARARGS methods do.
func noKwargs(fn string, kwargs []python.Kwarg) error {
	if len(kwargs) > 0 {
		return python.Errorf(python.TypeErrorType, "%s() takes no keyword arguments", fn)
	}
	return nil
}

func indexOf(names []string, name string) int {
	for i, n := range names {
		if n == name {
			return i
		}
	}
	return -1
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// intArg converts an optional index argument (nil: def).
func intArg(t *python.Thread, fn string, x python.Object, def int64) (int64, error) {
	if x == nil {
		return def, nil
	}
	return python.ArgInt(t, fn, x)
}

// maxSize is sys.maxsize, the default endpos.
const maxSize = 1<<63 - 1
