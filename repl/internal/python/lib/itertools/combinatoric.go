package itertools

import (
	"github.com/rlm-go/rlm/repl/internal/python"
)

// pool materializes an iterable as CPython's tuple(iterable).
func pool(t *python.Thread, x obj) ([]obj, error) {
	items, err := python.ToSlice(t, x)
	if err != nil {
		return nil, err
	}
	return items, t.CheckSize(int64(len(items)) * 16)
}

// pick returns the tuple of pool[i] for i in idx.
func pick(p []obj, idx []int) obj {
	out := make([]obj, len(idx))
	for i, j := range idx {
		out[i] = p[j]
	}
	return python.NewTuple(out)
}

// rArg reads the r argument of the combinatoric iterators.
func rArg(t *python.Thread, x obj, permutations bool) (int64, error) {
	if permutations {
		if _, ok := python.IntValue(x); !ok {
			return 0, python.Errorf(python.TypeErrorType, "Expected int as r")
		}
	}
	r, err := ssize(t, x)
	if err != nil {
		return 0, err
	}
	if r < 0 {
		return 0, python.Errorf(python.ValueErrorType, "r must be non-negative")
	}
	return r, nil
}

func (m *module) combinatoric() {
	m.newType("product", func(t *python.Thread, cls *python.Type, args []obj, kwargs []kwarg) (*iterObj, error) {
		repeat := int64(1)
		if len(kwargs) > 0 {
			if len(kwargs) > 1 {
				return nil, python.Errorf(python.TypeErrorType, "product() takes at most 1 keyword argument (%d given)", len(kwargs))
			}
			if kwargs[0].Name != "repeat" {
				return nil, python.Errorf(python.TypeErrorType, "'%s' is an invalid keyword argument for product()", kwargs[0].Name)
			}
			var err error
			if repeat, err = ssize(t, kwargs[0].Value); err != nil {
				return nil, err
			}
			if repeat < 0 {
				return nil, python.Errorf(python.ValueErrorType, "repeat argument cannot be negative")
			}
		}
		if len(args) > 0 && repeat > 0 && int64(len(args)) > (1<<40)/repeat {
			return nil, t.CheckSize(1 << 62)
		}
		if err := t.CheckSize(int64(len(args)) * repeat * 16); err != nil {
			return nil, err
		}
		base := make([][]obj, len(args))
		for i, a := range args {
			p, err := pool(t, a)
			if err != nil {
				return nil, err
			}
			base[i] = p
		}
		pools := make([][]obj, 0, int64(len(base))*repeat)
		for r := int64(0); r < repeat; r++ {
			pools = append(pools, base...)
		}
		var idx []int
		started, done := false, false
		return &iterObj{next: func(t *python.Thread) (obj, error) {
			if done {
				return nil, nil
			}
			if !started {
				started = true
				for _, p := range pools {
					if len(p) == 0 {
						done = true
						return nil, nil
					}
				}
				idx = make([]int, len(pools))
			} else {
				i := len(pools) - 1
				for ; i >= 0; i-- {
					idx[i]++
					if idx[i] < len(pools[i]) {
						break
					}
					idx[i] = 0
				}
				if i < 0 {
					done = true
					return nil, nil
				}
			}
			out := make([]obj, len(pools))
			for i, j := range idx {
				out[i] = pools[i][j]
			}
			return python.NewTuple(out), nil
		}}, nil
	})
	m.newType("permutations", func(t *python.Thread, cls *python.Type, args []obj, kwargs []kwarg) (*iterObj, error) {
		a, err := python.UnpackArgs("permutations", args, kwargs, 1, "iterable", "r")
		if err != nil {
			return nil, err
		}
		p, err := pool(t, a[0])
		if err != nil {
			return nil, err
		}
		n := len(p)
		r := int64(n)
		if a[1] != nil && a[1] != python.None {
			if r, err = rArg(t, a[1], true); err != nil {
				return nil, err
			}
		}
		var idx, cycles []int
		started, done := false, r > int64(n)
		return &iterObj{next: func(t *python.Thread) (obj, error) {
			if done {
				return nil, nil
			}
			ri := int(r)
			if !started {
				started = true
				idx = make([]int, n)
				for i := range idx {
					idx[i] = i
				}
				cycles = make([]int, ri)
				for i := range cycles {
					cycles[i] = n - i
				}
				return pick(p, idx[:ri]), nil
			}
			if n == 0 {
				done = true
				return nil, nil
			}
			for i := ri - 1; i >= 0; i-- {
				cycles[i]--
				if cycles[i] == 0 {
					// Rotate idx[i:] left by one.
					first := idx[i]
					copy(idx[i:], idx[i+1:])
					idx[n-1] = first
					cycles[i] = n - i
				} else {
					j := cycles[i]
					idx[i], idx[n-j] = idx[n-j], idx[i]
					return pick(p, idx[:ri]), nil
				}
			}
			done = true
			return nil, nil
		}}, nil
	})
	m.newType("combinations", func(t *python.Thread, cls *python.Type, args []obj, kwargs []kwarg) (*iterObj, error) {
		a, err := python.UnpackArgs("combinations", args, kwargs, 2, "iterable", "r")
		if err != nil {
			return nil, err
		}
		p, err := pool(t, a[0])
		if err != nil {
			return nil, err
		}
		r64, err := rArg(t, a[1], false)
		if err != nil {
			return nil, err
		}
		n := len(p)
		var idx []int
		started, done := false, r64 > int64(n)
		return &iterObj{next: func(t *python.Thread) (obj, error) {
			if done {
				return nil, nil
			}
			r := int(r64)
			if !started {
				started = true
				idx = make([]int, r)
				for i := range idx {
					idx[i] = i
				}
				return pick(p, idx), nil
			}
			i := r - 1
			for ; i >= 0 && idx[i] == i+n-r; i-- {
			}
			if i < 0 {
				done = true
				return nil, nil
			}
			idx[i]++
			for j := i + 1; j < r; j++ {
				idx[j] = idx[j-1] + 1
			}
			return pick(p, idx), nil
		}}, nil
	})
	m.newType("combinations_with_replacement", func(t *python.Thread, cls *python.Type, args []obj, kwargs []kwarg) (*iterObj, error) {
		a, err := python.UnpackArgs("combinations_with_replacement", args, kwargs, 2, "iterable", "r")
		if err != nil {
			return nil, err
		}
		p, err := pool(t, a[0])
		if err != nil {
			return nil, err
		}
		r64, err := rArg(t, a[1], false)
		if err != nil {
			return nil, err
		}
		n := len(p)
		var idx []int
		started, done := false, n == 0 && r64 > 0
		if !done {
			if err := t.CheckSize(r64 * 16); err != nil {
				return nil, err
			}
		}
		return &iterObj{next: func(t *python.Thread) (obj, error) {
			if done {
				return nil, nil
			}
			r := int(r64)
			if !started {
				started = true
				idx = make([]int, r)
				return pick(p, idx), nil
			}
			i := r - 1
			for ; i >= 0 && idx[i] == n-1; i-- {
			}
			if i < 0 {
				done = true
				return nil, nil
			}
			v := idx[i] + 1
			for j := i; j < r; j++ {
				idx[j] = v
			}
			return pick(p, idx), nil
		}}, nil
	})
}
