// Package unicodedata is code mode's unicodedata module over the Unicode
// database of package pystr (the version CPython 3.12 has, 15.0.0).
package unicodedata

import (
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/rlm-go/rlm/repl/internal/python"
	"github.com/rlm-go/rlm/repl/internal/python/pystr"
)

type (
	obj   = python.Object
	kwarg = python.Kwarg
)

// Register makes unicodedata importable.
func Register() {
	python.Setup()
	python.RegisterModule("unicodedata", load)
}

func load(in *python.Interp) (*python.Module, error) {
	m := python.NewModule("unicodedata")
	m.Set("unidata_version", python.NewStr(pystr.UnidataVersion))
	m.Func("name", name)
	m.Func("lookup", lookup)
	m.Func("category", charFunc("category", func(r rune) obj { return python.NewStr(pystr.Category(r)) }))
	m.Func("bidirectional", charFunc("bidirectional", func(r rune) obj { return python.NewStr(pystr.Bidirectional(r)) }))
	m.Func("east_asian_width", charFunc("east_asian_width", func(r rune) obj { return python.NewStr(pystr.EastAsianWidth(r)) }))
	m.Func("combining", charFunc("combining", func(r rune) obj { return python.MakeInt(int64(pystr.Combining(r))) }))
	m.Func("mirrored", charFunc("mirrored", func(r rune) obj { return python.MakeInt(int64(pystr.Mirrored(r))) }))
	m.Func("decomposition", charFunc("decomposition", func(r rune) obj { return python.NewStr(decomposition(r)) }))
	m.Func("decimal", valueFunc("decimal", func(r rune) (obj, error) {
		v, err := pystr.Decimal(r)
		return python.MakeInt(int64(v)), err
	}))
	m.Func("digit", valueFunc("digit", func(r rune) (obj, error) {
		v, err := pystr.Digit(r)
		return python.MakeInt(int64(v)), err
	}))
	m.Func("numeric", valueFunc("numeric", func(r rune) (obj, error) {
		v, err := pystr.Numeric(r)
		return python.Float(v), err
	}))
	m.Func("normalize", normalize)
	m.Func("is_normalized", isNormalized)
	m.SetGetattr(func(t *python.Thread, n string) (obj, error) {
		switch n {
		case "ucd_3_2_0", "UCD":
			return nil, python.NotSupported("unicodedata."+n+" (the Unicode 3.2.0 database)", "use the module's functions, which follow Unicode "+pystr.UnidataVersion)
		}
		return nil, nil
	})
	return m, nil
}

// char returns the code point of a one-character str argument.
// The message names the argument's position when the function has more
// than one parameter, as CPython's argument clinic does.
func char(t *python.Thread, fn string, x obj) (rune, error) {
	which := "argument"
	switch fn {
	case "name", "decimal", "digit", "numeric":
		which = "argument 1"
	}
	bad := python.Errorf(python.TypeErrorType, "%s() %s must be a unicode character, not %s", fn, which, python.TypeName(x))
	if !python.IsStr(x) {
		return 0, bad
	}
	s, err := python.StrOf(t, x)
	if err != nil {
		return 0, err
	}
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 || n != len(s) {
		return 0, bad
	}
	return r, nil
}

func charFunc(fn string, f func(r rune) obj) python.BuiltinFunc {
	return func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		a, err := python.UnpackArgs(fn, args, kwargs, 1, "chr", "/")
		if err != nil {
			return nil, err
		}
		r, err := char(t, fn, a[0])
		if err != nil {
			return nil, err
		}
		return f(r), nil
	}
}

// valueFunc makes decimal, digit and numeric: the value, or the default
// when the character has none (ValueError without a default).
func valueFunc(fn string, f func(r rune) (obj, error)) python.BuiltinFunc {
	return func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		a, err := python.UnpackArgs(fn, args, kwargs, 1, "chr", "default", "/")
		if err != nil {
			return nil, err
		}
		r, err := char(t, fn, a[0])
		if err != nil {
			return nil, err
		}
		v, err := f(r)
		if err != nil {
			if a[1] != nil {
				return a[1], nil
			}
			return nil, python.FromKernel(err)
		}
		return v, nil
	}
}

func name(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
	a, err := python.UnpackArgs("name", args, kwargs, 1, "chr", "default", "/")
	if err != nil {
		return nil, err
	}
	r, err := char(t, "name", a[0])
	if err != nil {
		return nil, err
	}
	n, err := pystr.Name(r)
	if err != nil {
		if a[1] != nil {
			return a[1], nil
		}
		return nil, python.FromKernel(err)
	}
	return python.NewStr(n), nil
}

func lookup(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
	a, err := python.UnpackArgs("lookup", args, kwargs, 1, "name", "/")
	if err != nil {
		return nil, err
	}
	var s string
	switch v := a[0].(type) {
	case *python.Bytes:
		s = v.String()
	default:
		if !python.IsStr(a[0]) {
			return nil, python.Errorf(python.TypeErrorType, "a bytes-like object is required, not '%s'", python.TypeName(a[0]))
		}
		if s, err = python.StrOf(t, a[0]); err != nil {
			return nil, err
		}
	}
	r, err := pystr.Lookup(s)
	if err != nil {
		if e, ok := err.(*pystr.Error); ok && e.Type == "KeyError" {
			return nil, python.NewException(python.KeyErrorType, python.NewStr(e.Msg))
		}
		return nil, python.FromKernel(err)
	}
	return python.NewStr(r), nil
}

// formArgs reads the (form, unistr) arguments of normalize and
// is_normalized.
func formArgs(t *python.Thread, fn string, args []obj, kwargs []kwarg) (string, string, error) {
	a, err := python.UnpackArgs(fn, args, kwargs, 2, "form", "unistr", "/")
	if err != nil {
		return "", "", err
	}
	var out [2]string
	for i, x := range a {
		if !python.IsStr(x) {
			return "", "", python.Errorf(python.TypeErrorType, "%s() argument %d must be str, not %s", fn, i+1, python.TypeName(x))
		}
		if out[i], err = python.StrOf(t, x); err != nil {
			return "", "", err
		}
	}
	return out[0], out[1], nil
}

func normalize(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
	form, s, err := formArgs(t, "normalize", args, kwargs)
	if err != nil {
		return nil, err
	}
	// A normal form is at most a few times longer than its input.
	if err := t.CheckSize(int64(len(s)) * 3); err != nil {
		return nil, err
	}
	if err := t.Tick(len(s) / 64); err != nil {
		return nil, err
	}
	r, err := pystr.Normalize(form, s)
	if err != nil {
		return nil, python.FromKernel(err)
	}
	if r == s && len(args) > 1 {
		if x, ok := args[1].(*python.Str); ok {
			return x, nil
		}
	}
	return python.NewStr(r), nil
}

func isNormalized(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
	form, s, err := formArgs(t, "is_normalized", args, kwargs)
	if err != nil {
		return nil, err
	}
	if err := t.Tick(len(s) / 64); err != nil {
		return nil, err
	}
	ok, err := pystr.IsNormalized(form, s)
	if err != nil {
		return nil, python.FromKernel(err)
	}
	return python.MakeBool(ok), nil
}

var (
	decompOnce sync.Once
	decompMap  map[rune]string
)

// decomposition returns unicodedata.decomposition(r).
func decomposition(r rune) string {
	decompOnce.Do(func() {
		decompMap = make(map[rune]string, 6000)
		for _, line := range strings.Split(strings.TrimSuffix(decompData, "\n"), "\n") {
			cp, d, _ := strings.Cut(line, ";")
			v, err := strconv.ParseUint(cp, 16, 32)
			if err == nil {
				decompMap[rune(v)] = d
			}
		}
	})
	return decompMap[r]
}
