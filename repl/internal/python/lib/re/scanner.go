package re

import (
	"context"
	"strings"

	"github.com/rlm-go/rlm/repl/internal/python"
	"github.com/rlm-go/rlm/repl/internal/python/sre"
)

// newScannerClass makes re.Scanner, the lexer class CPython's re defines
// in Python: Scanner(lexicon, flags=0) combines the phrases of lexicon (a
// sequence of (phrase, action) pairs) into one pattern whose alternative k
// is group k+1, and scan(string) matches them one after another from the
// start, calling or collecting the actions.
//
// CPython parses each phrase on its own and splices the parsed phrases; it
// is done here by joining the phrases' text, which gives the same pattern
// only when no phrase has capturing groups (they would be renumbered) or
// inline global flags (CPython drops them): such phrases are refused.
func newScannerClass(in *python.Interp, st *state) (*python.Type, error) {
	t := python.NewThread(context.Background(), in, 1<<20, nil)
	ns := python.NewDict(8)
	ns.SetStr("__module__", python.NewStr("re"))
	ns.SetStr("__qualname__", python.NewStr("Scanner"))
	ns.SetStr("__init__", python.NewMethod(nil, "__init__", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		vals, err := funcArgs("Scanner.__init__", args, kwargs, 1, "self", "lexicon", "flags")
		if err != nil {
			return nil, err
		}
		self, lexicon, flags := vals[0], vals[1], vals[2]
		if flags == nil {
			flags = python.MakeInt(0)
		}
		fv, ok := flagValue(flags)
		if !ok || !fv.IsInt64() {
			return nil, python.NotSupported("re.Scanner flags that are not an int", "pass re flags")
		}
		f := sre.Flag(fv.Int64())
		var parts []string
		isBytes, first := false, true
		err = python.Iterate(t, lexicon, func(item python.Object) error {
			pair, err := python.ToSlice(t, item)
			if err != nil {
				return err
			}
			if len(pair) != 2 {
				if len(pair) < 2 {
					return python.Errorf(python.ValueErrorType, "not enough values to unpack (expected 2, got %d)", len(pair))
				}
				return python.Errorf(python.ValueErrorType, "too many values to unpack (expected 2)")
			}
			text, b, ok, err := textArg(t, pair[0])
			if err != nil {
				return err
			}
			if !ok {
				return python.Errorf(python.TypeErrorType, "decoding to str: need a bytes-like object, %s found", python.TypeName(pair[0]))
			}
			if !first && b != isBytes {
				return python.NotSupported("re.Scanner with both str and bytes phrases", "use phrases of one type")
			}
			isBytes, first = b, false
			var re *sre.Pattern
			if b {
				re, err = sre.CompileBytes([]byte(text), f)
			} else {
				re, err = sre.Compile(text, f)
			}
			if err != nil {
				st.warn(t, errWarnings(err))
				return mapErr(t, err, sre.Limits{})
			}
			st.warn(t, re.Warnings())
			if re.Groups() > 0 {
				return python.NotSupported("re.Scanner phrases with capturing groups", "use non-capturing groups (?:...) in the phrases")
			}
			var base *sre.Pattern
			if b {
				base, err = sre.CompileBytes(nil, f)
			} else {
				base, err = sre.Compile("", f)
			}
			if err == nil && base.Flags() != re.Flags() {
				return python.NotSupported("re.Scanner phrases with inline global flags like (?i)", "pass the flags to Scanner(lexicon, flags)")
			}
			if f&sre.VERBOSE != 0 {
				text += "\n"
			}
			parts = append(parts, "("+text+")")
			return nil
		})
		if err != nil {
			return nil, err
		}
		combined := strings.Join(parts, "|")
		if len(parts) == 0 {
			combined = "(?!)"
		}
		var re *sre.Pattern
		var src python.Object
		if isBytes {
			re, err = sre.CompileBytes([]byte(combined), f)
			src = python.NewBytes(combined)
		} else {
			re, err = sre.Compile(combined, f)
			src = python.NewStr(combined)
		}
		if err != nil {
			return nil, mapErr(t, err, sre.Limits{})
		}
		if err := python.SetAttr(t, self, "lexicon", lexicon); err != nil {
			return nil, err
		}
		if err := python.SetAttr(t, self, "scanner", &Pattern{id: newID(), re: re, src: src}); err != nil {
			return nil, err
		}
		return python.None, nil
	}))
	ns.SetStr("scan", python.NewMethod(nil, "scan", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		vals, err := funcArgs("Scanner.scan", args, kwargs, 0, "self", "string")
		if err != nil {
			return nil, err
		}
		self, str := vals[0], vals[1]
		pat, err := python.GetAttr(t, self, "scanner")
		if err != nil {
			return nil, err
		}
		sc, err := python.CallMethod(t, pat, "scanner", []python.Object{str}, nil)
		if err != nil {
			return nil, err
		}
		lexicon, err := python.GetAttr(t, self, "lexicon")
		if err != nil {
			return nil, err
		}
		var result []python.Object
		var i int64
		for {
			if err := t.Tick(1); err != nil {
				return nil, err
			}
			m, err := python.CallMethod(t, sc, "match", nil, nil)
			if err != nil {
				return nil, err
			}
			if m == python.None {
				break
			}
			mm := m.(*Match)
			j := int64(mm.spans[1])
			if i == j {
				break
			}
			entry, err := python.GetItem(t, lexicon, python.MakeInt(int64(mm.lastindex-1)))
			if err != nil {
				return nil, err
			}
			action, err := python.GetItem(t, entry, python.MakeInt(1))
			if err != nil {
				return nil, err
			}
			if python.Callable(action) {
				if err := python.SetAttr(t, self, "match", m); err != nil {
					return nil, err
				}
				g, err := mm.group(t, 0, python.None)
				if err != nil {
					return nil, err
				}
				if action, err = python.Call(t, action, []python.Object{self, g}, nil); err != nil {
					return nil, err
				}
			}
			if action != python.None {
				result = append(result, action)
			}
			i = j
		}
		rest, err := python.GetItem(t, str, python.NewSliceObject(python.MakeInt(i), python.None, python.None))
		if err != nil {
			return nil, err
		}
		return python.NewTuple([]python.Object{python.NewList(result), rest}), nil
	}))
	return python.NewClass(t, nil, "Scanner", []*python.Type{python.ObjectType}, ns)
}
