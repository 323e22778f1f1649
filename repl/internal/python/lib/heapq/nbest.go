package heapq

import (
	"github.com/rlm-go/rlm/repl/internal/python"
)

// nBest implements nlargest (largest) and nsmallest as CPython's heapq.py
// does, step for step, so that ties and the calls made to key and to the
// items' comparisons are CPython's.
func nBest(t *python.Thread, in *python.Interp, n, iterable, key obj, largest bool) (obj, error) {
	if key == nil {
		key = python.None
	}
	one, err := python.Equal(t, n, python.MakeInt(1))
	if err != nil {
		return nil, err
	}
	if one {
		it, err := python.Iter(t, iterable)
		if err != nil {
			return nil, err
		}
		name := "min"
		if largest {
			name = "max"
		}
		fn, _ := in.Builtins().GetStr(name)
		sentinel := python.NewList(nil)
		r, err := python.Call(t, fn, []obj{it}, []kwarg{{Name: "default", Value: sentinel}, {Name: "key", Value: key}})
		if err != nil {
			return nil, err
		}
		if r == obj(sentinel) {
			return python.NewList(nil), nil
		}
		return python.NewList([]obj{r}), nil
	}
	if size, err := python.Len(t, iterable); err == nil {
		ge, err := python.Compare(t, python.CmpGe, n, python.MakeInt(int64(size)))
		if err != nil {
			return nil, err
		}
		if b, err := python.TruthE(t, ge); err != nil {
			return nil, err
		} else if b {
			sorted, _ := in.Builtins().GetStr("sorted")
			kw := []kwarg{{Name: "key", Value: key}}
			if largest {
				kw = append(kw, kwarg{Name: "reverse", Value: python.True})
			}
			r, err := python.Call(t, sorted, []obj{iterable}, kw)
			if err != nil {
				return nil, err
			}
			return python.GetItem(t, r, &python.Slice{Start: python.None, Stop: n, Step: python.None})
		}
	} else if !python.IsInstance(err, python.TypeErrorType) && !python.IsInstance(err, python.AttributeErrorType) {
		return nil, err
	}
	it, err := python.Iter(t, iterable)
	if err != nil {
		return nil, err
	}
	count, ok, err := python.IndexValue(t, n)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, python.Errorf(python.TypeErrorType, "'%s' object cannot be interpreted as an integer", python.TypeName(n))
	}
	hasKey := key != python.None
	var entries []obj
	entry := func(elem obj, order int64) (obj, error) {
		if !hasKey {
			return python.NewTuple([]obj{elem, python.MakeInt(order)}), nil
		}
		k, err := python.Call(t, key, []obj{elem}, nil)
		if err != nil {
			return nil, err
		}
		return python.NewTuple([]obj{k, python.MakeInt(order), elem}), nil
	}
	step := int64(1)
	if largest {
		step = -1
	}
	for i := int64(0); i < count; i++ {
		elem, err := python.Next(t, it)
		if err != nil {
			return nil, err
		}
		if elem == nil {
			break
		}
		e, err := entry(elem, i*step)
		if err != nil {
			return nil, err
		}
		entries = append(entries, e)
		if i&1023 == 1023 {
			if err := t.CheckSize(int64(len(entries)) * 64); err != nil {
				return nil, err
			}
			if err := t.Tick(1); err != nil {
				return nil, err
			}
		}
	}
	if len(entries) == 0 {
		return python.NewList(nil), nil
	}
	result := python.NewList(entries)
	// nsmallest keeps a max-heap of the best so far, nlargest a min-heap.
	maxHeap := !largest
	if err := Heapify(t, result, maxHeap); err != nil {
		return nil, err
	}
	top := first(result)
	order := count * step
	for {
		elem, err := python.Next(t, it)
		if err != nil {
			return nil, err
		}
		if elem == nil {
			break
		}
		if err := t.Tick(1); err != nil {
			return nil, err
		}
		k := elem
		if hasKey {
			if k, err = python.Call(t, key, []obj{elem}, nil); err != nil {
				return nil, err
			}
		}
		var better bool
		if largest {
			better, err = python.Less(t, top, k)
		} else {
			better, err = python.Less(t, k, top)
		}
		if err != nil {
			return nil, err
		}
		if !better {
			continue
		}
		var e obj
		if hasKey {
			e = python.NewTuple([]obj{k, python.MakeInt(order), elem})
		} else {
			e = python.NewTuple([]obj{elem, python.MakeInt(order)})
		}
		if _, err := Replace(t, result, e, maxHeap); err != nil {
			return nil, err
		}
		top = first(result)
		order += step
	}
	var kw []kwarg
	if largest {
		kw = []kwarg{{Name: "reverse", Value: python.True}}
	}
	listMethodsOnce.Do(lookupListMethods)
	if _, err := listSort.Func()(t, []obj{result}, kw); err != nil {
		return nil, err
	}
	items := result.Items()
	out := make([]obj, len(items))
	for i, e := range items {
		tu := e.(*python.Tuple).Items()
		out[i] = tu[len(tu)-1]
		if !hasKey {
			out[i] = tu[0]
		}
	}
	return python.NewList(out), nil
}

// first returns the first field of the heap's top entry.
func first(l *python.List) obj { return l.Items()[0].(*python.Tuple).Items()[0] }

// NLargest implements heapq.nlargest(n, iterable, key) (key nil or None:
// none).
func NLargest(t *python.Thread, n, iterable, key obj) (obj, error) {
	return nBest(t, t.Interp(), n, iterable, key, true)
}
