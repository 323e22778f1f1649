// Package heapq is Python's heapq module for code mode's interpreter:
// binary min-heaps kept in lists, with CPython's algorithms so that equal
// items come out in CPython's order.
package heapq

import (
	"sync"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// Register makes the heapq module importable.
func Register() {
	python.Setup()
	python.RegisterModule("heapq", load)
}

type (
	obj   = python.Object
	kwarg = python.Kwarg
)

func load(in *python.Interp) (*python.Module, error) {
	m := python.NewModule("heapq")
	genType := newGeneratorType()
	m.Func("heappush", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if err := fixedArgs("heappush", args, kwargs, 2); err != nil {
			return nil, err
		}
		l, err := listArg("heappush", args[0], true)
		if err != nil {
			return nil, err
		}
		return python.None, Push(t, l, args[1])
	})
	m.Func("heappop", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if err := fixedArgs("heappop", args, kwargs, 1); err != nil {
			return nil, err
		}
		l, err := listArg("heappop", args[0], false)
		if err != nil {
			return nil, err
		}
		return Pop(t, l, false)
	})
	m.Func("heapify", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if err := fixedArgs("heapify", args, kwargs, 1); err != nil {
			return nil, err
		}
		l, err := listArg("heapify", args[0], false)
		if err != nil {
			return nil, err
		}
		return python.None, Heapify(t, l, false)
	})
	m.Func("heapreplace", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if err := fixedArgs("heapreplace", args, kwargs, 2); err != nil {
			return nil, err
		}
		l, err := listArg("heapreplace", args[0], true)
		if err != nil {
			return nil, err
		}
		return Replace(t, l, args[1], false)
	})
	m.Func("heappushpop", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if err := fixedArgs("heappushpop", args, kwargs, 2); err != nil {
			return nil, err
		}
		l, err := listArg("heappushpop", args[0], true)
		if err != nil {
			return nil, err
		}
		return PushPop(t, l, args[1])
	})
	m.Func("_heappop_max", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if err := fixedArgs("_heappop_max", args, kwargs, 1); err != nil {
			return nil, err
		}
		l, err := listArg("_heappop_max", args[0], false)
		if err != nil {
			return nil, err
		}
		return Pop(t, l, true)
	})
	m.Func("_heapify_max", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if err := fixedArgs("_heapify_max", args, kwargs, 1); err != nil {
			return nil, err
		}
		l, err := listArg("_heapify_max", args[0], false)
		if err != nil {
			return nil, err
		}
		return python.None, Heapify(t, l, true)
	})
	m.Func("_heapreplace_max", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if err := fixedArgs("_heapreplace_max", args, kwargs, 2); err != nil {
			return nil, err
		}
		l, err := listArg("_heapreplace_max", args[0], true)
		if err != nil {
			return nil, err
		}
		return Replace(t, l, args[1], true)
	})
	nParams := func(fn string) *python.Signature {
		return &python.Signature{Name: fn, Pos: []string{"n", "iterable", "key"}, Required: 2}
	}
	m.Func("nlargest", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		a, err := nParams("nlargest").Values(args, kwargs)
		if err != nil {
			return nil, err
		}
		return nBest(t, in, a[0], a[1], a[2], true)
	})
	m.Func("nsmallest", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		a, err := nParams("nsmallest").Values(args, kwargs)
		if err != nil {
			return nil, err
		}
		return nBest(t, in, a[0], a[1], a[2], false)
	})
	mergeParams := &python.Signature{Name: "merge", KwOnly: []string{"key", "reverse"}}
	m.Func("merge", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		a, err := mergeParams.Values(nil, kwargs)
		if err != nil {
			return nil, err
		}
		key, reverse := a[0], a[1]
		if key == python.None {
			key = nil
		}
		rev := false
		if reverse != nil {
			if rev, err = python.TruthE(t, reverse); err != nil {
				return nil, err
			}
		}
		mg := &merger{iterables: append([]obj(nil), args...), key: key, reverse: rev}
		return &generator{typ: genType, name: "merge", next: mg.next}, nil
	})
	var all []obj
	for _, n := range []string{"heappush", "heappop", "heapify", "heapreplace", "merge", "nlargest", "nsmallest", "heappushpop"} {
		all = append(all, python.NewStr(n))
	}
	m.Set("__all__", python.NewList(all))
	return m, nil
}

// fixedArgs checks the positional-only arguments of the C functions.
func fixedArgs(fn string, args []obj, kwargs []kwarg, n int) error {
	if len(kwargs) > 0 {
		return python.Errorf(python.TypeErrorType, "_heapq.%s() takes no keyword arguments", fn)
	}
	if len(args) == n {
		return nil
	}
	if n == 1 {
		return python.Errorf(python.TypeErrorType, "_heapq.%s() takes exactly one argument (%d given)", fn, len(args))
	}
	return python.Errorf(python.TypeErrorType, "%s expected %d arguments, got %d", fn, n, len(args))
}

// listArg returns the list a heap function works on.
func listArg(fn string, x obj, numbered bool) (*python.List, error) {
	if l, ok := python.Unwrap(x).(*python.List); ok {
		return l, nil
	}
	if numbered {
		return nil, python.Errorf(python.TypeErrorType, "%s() argument 1 must be list, not %s", fn, python.TypeName(x))
	}
	return nil, python.Errorf(python.TypeErrorType, "%s() argument must be list, not %s", fn, python.TypeName(x))
}

// less is a < b for a min-heap and b < a for a max-heap.
func less(t *python.Thread, a, b obj, max bool) (bool, error) {
	if max {
		return python.Less(t, b, a)
	}
	return python.Less(t, a, b)
}

func changedSize() error {
	return python.Errorf(python.RuntimeErrorType, "list changed size during iteration")
}

// siftDown moves the item at pos up towards start while it is less than
// its parent (CPython's siftdown).
func siftDown(t *python.Thread, l *python.List, start, pos int, max bool) error {
	n := len(l.Items())
	newItem := l.Items()[pos]
	for pos > start {
		parentPos := (pos - 1) >> 1
		parent := l.Items()[parentPos]
		lt, err := less(t, newItem, parent, max)
		if err != nil {
			return err
		}
		items := l.Items()
		if len(items) != n {
			return changedSize()
		}
		if !lt {
			break
		}
		parent, newItem = items[parentPos], items[pos]
		items[parentPos], items[pos] = newItem, parent
		pos = parentPos
	}
	return nil
}

// siftUp moves the smaller child up from pos to a leaf, then puts the
// item there and sifts it down (CPython's siftup).
func siftUp(t *python.Thread, l *python.List, pos int, max bool) error {
	end := len(l.Items())
	start := pos
	limit := end >> 1
	for pos < limit {
		child := 2*pos + 1
		if child+1 < end {
			items := l.Items()
			lt, err := less(t, items[child], items[child+1], max)
			if err != nil {
				return err
			}
			if !lt {
				child++
			}
			if len(l.Items()) != end {
				return changedSize()
			}
		}
		items := l.Items()
		items[child], items[pos] = items[pos], items[child]
		pos = child
		if pos&1023 == 0 {
			if err := t.Tick(1); err != nil {
				return err
			}
		}
	}
	return siftDown(t, l, start, pos, max)
}

// Push implements heappush(l, x).
func Push(t *python.Thread, l *python.List, x obj) error {
	if err := t.CheckSize(int64(len(l.Items())+1) * 16); err != nil {
		return err
	}
	l.Append(x)
	return siftDown(t, l, 0, len(l.Items())-1, false)
}

// listPop and listSort are list.pop and list.sort, looked up on first use
// (listMethodsOnce) rather than at package initialisation, so that
// importing the package touches nothing of the interpreter.
var (
	listMethodsOnce   sync.Once
	listPop, listSort *python.Builtin
)

func lookupListMethods() {
	p, _ := python.ListType.Dict().GetStr("pop")
	listPop = p.(*python.Builtin)
	s, _ := python.ListType.Dict().GetStr("sort")
	listSort = s.(*python.Builtin)
}

// popLast removes and returns the last item.
func popLast(t *python.Thread, l *python.List) (obj, error) {
	listMethodsOnce.Do(lookupListMethods)
	return listPop.Func()(t, []obj{l}, nil)
}

func emptyHeap() error { return python.Errorf(python.IndexErrorType, "index out of range") }

// Pop implements heappop(l) (_heappop_max with max).
func Pop(t *python.Thread, l *python.List, max bool) (obj, error) {
	if len(l.Items()) == 0 {
		return nil, emptyHeap()
	}
	last, err := popLast(t, l)
	if err != nil {
		return nil, err
	}
	items := l.Items()
	if len(items) == 0 {
		return last, nil
	}
	top := items[0]
	items[0] = last
	return top, siftUp(t, l, 0, max)
}

// Replace implements heapreplace(l, x) (_heapreplace_max with max).
func Replace(t *python.Thread, l *python.List, x obj, max bool) (obj, error) {
	items := l.Items()
	if len(items) == 0 {
		return nil, emptyHeap()
	}
	top := items[0]
	items[0] = x
	return top, siftUp(t, l, 0, max)
}

// PushPop implements heappushpop(l, x).
func PushPop(t *python.Thread, l *python.List, x obj) (obj, error) {
	if len(l.Items()) == 0 {
		return x, nil
	}
	top := l.Items()[0]
	lt, err := python.Less(t, top, x)
	if err != nil {
		return nil, err
	}
	if !lt {
		return x, nil
	}
	items := l.Items()
	if len(items) == 0 {
		return nil, emptyHeap()
	}
	top = items[0]
	items[0] = x
	return top, siftUp(t, l, 0, false)
}

// Heapify implements heapify(l) (_heapify_max with max).
func Heapify(t *python.Thread, l *python.List, max bool) error {
	n := len(l.Items())
	for i := n/2 - 1; i >= 0; i-- {
		if err := siftUp(t, l, i, max); err != nil {
			return err
		}
		if i&255 == 0 {
			if err := t.Tick(1); err != nil {
				return err
			}
		}
	}
	return nil
}
