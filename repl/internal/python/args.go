package python

import (
	"strconv"
	"strings"
)

// UnpackArgs binds a built-in's arguments to parameter names. Names after
// "/" may be passed by keyword (before it: positional only); names after
// "*" only by keyword. min is the number of required parameters. Missing
// optional values are nil.
func UnpackArgs(fn string, args []Object, kwargs []Kwarg, min int, names ...string) ([]Object, error) {
	posOnly := 0
	kwOnlyFrom := -1
	hasSlash, marked := false, false
	for _, n := range names {
		if n == "/" || n == "*" {
			hasSlash = hasSlash || n == "/"
			marked = true
		}
	}
	clean := names // the parameter names, without the markers
	if marked {
		var buf [8]string
		clean = buf[:0]
		for _, n := range names {
			switch n {
			case "/":
				posOnly = len(clean)
			case "*":
				kwOnlyFrom = len(clean)
			default:
				clean = append(clean, n)
			}
		}
	}
	if !hasSlash && kwOnlyFrom < 0 {
		// Without a marker every parameter may be passed by keyword.
		posOnly = 0
	}
	maxPos := len(clean)
	if kwOnlyFrom >= 0 {
		maxPos = kwOnlyFrom
	}
	out := make([]Object, len(clean))
	if len(args) > maxPos {
		if maxPos == 0 {
			return nil, Errorf(TypeErrorType, "%s() takes no positional arguments", fn)
		}
		word := "arguments"
		if kwOnlyFrom >= 0 {
			word = "positional arguments"
		}
		if min == maxPos {
			if maxPos == 1 {
				return nil, Errorf(TypeErrorType, "%s() takes exactly one argument (%d given)", fn, len(args))
			}
			return nil, Errorf(TypeErrorType, "%s() takes exactly %d %s (%d given)", fn, maxPos, word, len(args))
		}
		if maxPos == 1 {
			word = strings.TrimSuffix(word, "s")
		}
		return nil, Errorf(TypeErrorType, "%s() takes at most %d %s (%d given)", fn, maxPos, word, len(args))
	}
	copy(out, args)
	for _, kw := range kwargs {
		idx := -1
		for i, n := range clean {
			if n == kw.Name {
				idx = i
				break
			}
		}
		if idx < 0 || idx < posOnly {
			if posOnly == len(clean) || len(clean) == 0 {
				return nil, Errorf(TypeErrorType, "%s() takes no keyword arguments", fn)
			}
			return nil, Errorf(TypeErrorType, "'%s' is an invalid keyword argument for %s()", kw.Name, fn)
		}
		if out[idx] != nil {
			return nil, Errorf(TypeErrorType, "argument for %s() given by name ('%s') and position (%d)", fn, kw.Name, idx+1)
		}
		out[idx] = kw.Value
	}
	for i := 0; i < min; i++ {
		if out[i] == nil {
			if i < posOnly || len(kwargs) == 0 && i >= len(args) && posOnly > 0 {
				if min == 1 && len(clean) == 1 {
					return nil, Errorf(TypeErrorType, "%s() takes exactly one argument (0 given)", fn)
				}
				return nil, Errorf(TypeErrorType, "%s expected at least %d argument%s, got %d", fn, min, pluralS(min), len(args))
			}
			return nil, Errorf(TypeErrorType, "%s() missing required argument '%s' (pos %d)", fn, clean[i], i+1)
		}
	}
	return out, nil
}

func pluralS(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// noKwargs refuses keyword arguments.
func noKwargs(fn string, kwargs []Kwarg) error {
	if len(kwargs) > 0 {
		return Errorf(TypeErrorType, "%s() takes no keyword arguments", fn)
	}
	return nil
}

// nargs checks a positional argument count.
func nargs(fn string, args []Object, kwargs []Kwarg, lo, hi int) error {
	if err := noKwargs(fn, kwargs); err != nil {
		return err
	}
	n := len(args)
	if n >= lo && n <= hi {
		return nil
	}
	switch {
	case lo == hi && lo == 0:
		return Errorf(TypeErrorType, "%s() takes no arguments (%d given)", fn, n)
	case lo == hi && lo == 1:
		return Errorf(TypeErrorType, "%s() takes exactly one argument (%d given)", fn, n)
	case lo == hi:
		return Errorf(TypeErrorType, "%s expected %d arguments, got %d", fn, lo, n)
	case n < lo:
		return Errorf(TypeErrorType, "%s expected at least %d argument%s, got %d", fn, lo, pluralS(lo), n)
	}
	return Errorf(TypeErrorType, "%s expected at most %d argument%s, got %d", fn, hi, pluralS(hi), n)
}

// method helpers: the receiver is args[0].

func itoa(n int) string { return strconv.Itoa(n) }

// argInt returns an int argument (an index).
func argInt(t *Thread, fn string, x Object) (int64, error) {
	n, ok, err := indexValue(t, x)
	if err != nil {
		return 0, Errorf(OverflowErrorType, "Python int too large to convert to C ssize_t")
	}
	if !ok {
		return 0, Errorf(TypeErrorType, "'%s' object cannot be interpreted as an integer", typeName(x))
	}
	return n, nil
}

var _ = strings.Join
