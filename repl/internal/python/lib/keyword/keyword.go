// Package keyword is code mode's keyword module: kwlist, softkwlist,
// iskeyword and issoftkeyword, as CPython 3.12 has them.
package keyword

import "github.com/rlm-go/rlm/repl/internal/python"

// Register makes keyword importable.
func Register() {
	python.Setup()
	python.RegisterModule("keyword", load)
}

var kwlist = []string{"False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield"}

var softkwlist = []string{"_", "case", "match", "type"}

func strs(ss []string) []python.Object {
	out := make([]python.Object, len(ss))
	for i, s := range ss {
		out[i] = python.NewStr(s)
	}
	return out
}

func load(in *python.Interp) (*python.Module, error) {
	m := python.NewModule("keyword")
	m.Set("kwlist", python.NewList(strs(kwlist)))
	m.Set("softkwlist", python.NewList(strs(softkwlist)))
	m.Set("__all__", python.NewList(strs([]string{"iskeyword", "issoftkeyword", "kwlist", "softkwlist"})))
	for _, f := range []struct {
		name  string
		words []string
	}{{"iskeyword", kwlist}, {"issoftkeyword", softkwlist}} {
		set := map[string]bool{}
		for _, w := range f.words {
			set[w] = true
		}
		m.Func(f.name, func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
			// frozenset.__contains__: any hashable argument.
			if len(kwargs) > 0 {
				return nil, python.Errorf(python.TypeErrorType, "frozenset.__contains__() takes no keyword arguments")
			}
			if len(args) != 1 {
				return nil, python.Errorf(python.TypeErrorType, "frozenset.__contains__() takes exactly one argument (%d given)", len(args))
			}
			if s, ok := args[0].(*python.Str); ok {
				return python.MakeBool(set[s.String()]), nil
			}
			if _, err := python.Hash(t, args[0]); err != nil {
				return nil, err
			}
			return python.False, nil
		})
	}
	return m, nil
}
