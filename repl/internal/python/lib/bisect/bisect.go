// Package bisect is Python's bisect module for code mode's interpreter:
// binary search in sorted sequences and insertion keeping them sorted.
package bisect

import (
	"github.com/rlm-go/rlm/repl/internal/python"
)

// Register makes the bisect module importable.
func Register() {
	python.Setup()
	python.RegisterModule("bisect", load)
}

type (
	obj   = python.Object
	kwarg = python.Kwarg
)

func load(*python.Interp) (*python.Module, error) {
	m := python.NewModule("bisect")
	search := func(name string, right bool) python.BuiltinFunc {
		return func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			a, err := python.UnpackArgs(name, args, kwargs, 2, "a", "x", "lo", "hi", "*", "key")
			if err != nil {
				return nil, err
			}
			lo, hi, err := bounds(t, a[0], a[2], a[3])
			if err != nil {
				return nil, err
			}
			i, err := Bisect(t, a[0], a[1], lo, hi, a[4], right)
			if err != nil {
				return nil, err
			}
			return python.MakeInt(i), nil
		}
	}
	insort := func(name string, right bool) python.BuiltinFunc {
		return func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			a, err := python.UnpackArgs(name, args, kwargs, 2, "a", "x", "lo", "hi", "*", "key")
			if err != nil {
				return nil, err
			}
			lo, hi, err := bounds(t, a[0], a[2], a[3])
			if err != nil {
				return nil, err
			}
			x := a[1]
			if key := a[4]; key != nil && key != python.None {
				if x, err = python.Call(t, key, []obj{x}, nil); err != nil {
					return nil, err
				}
			}
			i, err := Bisect(t, a[0], x, lo, hi, a[4], right)
			if err != nil {
				return nil, err
			}
			return python.None, insert(t, a[0], i, a[1])
		}
	}
	m.Func("bisect_left", search("bisect_left", false))
	m.Func("bisect_right", search("bisect_right", true))
	m.Func("insort_left", insort("insort_left", false))
	m.Func("insort_right", insort("insort_right", true))
	v, _ := m.Dict().GetStr("bisect_right")
	m.Set("bisect", v)
	v, _ = m.Dict().GetStr("insort_right")
	m.Set("insort", v)
	return m, nil
}

// bounds resolves lo and hi (None: len(a)).
func bounds(t *python.Thread, a, loArg, hiArg obj) (int64, int64, error) {
	var lo int64
	if loArg != nil {
		var err error
		if lo, err = python.ArgInt(t, "bisect", loArg); err != nil {
			return 0, 0, err
		}
		if lo < 0 {
			return 0, 0, python.Errorf(python.ValueErrorType, "lo must be non-negative")
		}
	}
	if hiArg == nil || hiArg == python.None {
		n, err := python.Len(t, a)
		if err != nil {
			return 0, 0, err
		}
		return lo, int64(n), nil
	}
	hi, err := python.ArgInt(t, "bisect", hiArg)
	return lo, hi, err
}

// Bisect returns the insertion point of x in a[lo:hi] (sorted): the left
// one or, with right, the right one. key, when not nil or None, maps the
// items of a before they are compared with x.
func Bisect(t *python.Thread, a, x obj, lo, hi int64, key obj, right bool) (int64, error) {
	if key == python.None {
		key = nil
	}
	for lo < hi {
		mid := int64(uint64(lo+hi) / 2)
		item, err := python.GetItem(t, a, python.MakeInt(mid))
		if err != nil {
			return 0, err
		}
		if key != nil {
			if item, err = python.Call(t, key, []obj{item}, nil); err != nil {
				return 0, err
			}
		}
		if right {
			less, err := python.Less(t, x, item)
			if err != nil {
				return 0, err
			}
			if less {
				hi = mid
			} else {
				lo = mid + 1
			}
		} else {
			less, err := python.Less(t, item, x)
			if err != nil {
				return 0, err
			}
			if less {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
	}
	return lo, nil
}

// insert calls a.insert(i, x) (list.insert itself for a list).
func insert(t *python.Thread, a obj, i int64, x obj) error {
	if _, ok := a.(*python.List); ok {
		ins, _ := python.ListType.Dict().GetStr("insert")
		_, err := python.Call(t, ins, []obj{a, python.MakeInt(i), x}, nil)
		return err
	}
	_, err := python.CallMethod(t, a, "insert", []obj{python.MakeInt(i), x}, nil)
	return err
}
