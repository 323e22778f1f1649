package pymod

import (
	"math/rand/v2"

	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
)

// DefaultSeed seeds every interpreter's `random` module: code mode is
// deterministic, so the same code draws the same numbers on every run.
const DefaultSeed = 0x5eed

// NewRandom returns a `random` module with its own deterministic generator
// (PCG seeded with DefaultSeed; random.seed(n) reseeds it). No entropy
// source is ever read.
func NewRandom() *starlarkstruct.Module {
	src := rand.NewPCG(DefaultSeed, 0)
	r := rand.New(src)
	fn := func(name string, f func(args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error)) *starlark.Builtin {
		return starlark.NewBuiltin("random."+name, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			return f(args, kwargs)
		})
	}
	intn := func(lo, hi int64) (starlark.Value, error) { // [lo, hi)
		if hi <= lo {
			return nil, Errorf("ValueError", "empty range for randrange() (%d, %d)", lo, hi)
		}
		return starlark.MakeInt64(lo + r.Int64N(hi-lo)), nil
	}
	elems := func(v starlark.Value) ([]starlark.Value, error) {
		var out []starlark.Value
		err := Iterate(v, func(x starlark.Value) error { out = append(out, x); return nil })
		return out, err
	}
	return &starlarkstruct.Module{Name: "random", Members: starlark.StringDict{
		"seed": fn("seed", func(args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var a starlark.Value = starlark.None
			if err := starlark.UnpackPositionalArgs("random.seed", args, kwargs, 0, &a); err != nil {
				return nil, err
			}
			var s uint64 = DefaultSeed
			if h, err := a.Hash(); err == nil && a != starlark.None {
				s = uint64(h)
				if i, ok := a.(starlark.Int); ok {
					if n, ok := i.Uint64(); ok {
						s = n
					}
				}
			}
			src.Seed(s, 0)
			return starlark.None, nil
		}),
		"random": fn("random", func(args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			return starlark.Float(r.Float64()), nil
		}),
		"uniform": fn("uniform", func(args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var a, b float64
			if err := starlark.UnpackPositionalArgs("random.uniform", args, kwargs, 2, &a, &b); err != nil {
				return nil, err
			}
			return starlark.Float(a + (b-a)*r.Float64()), nil
		}),
		"randint": fn("randint", func(args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var a, b int64
			if err := starlark.UnpackPositionalArgs("random.randint", args, kwargs, 2, &a, &b); err != nil {
				return nil, err
			}
			return intn(a, b+1)
		}),
		"randrange": fn("randrange", func(args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var a int64
			var b starlark.Value = starlark.None
			if err := starlark.UnpackPositionalArgs("random.randrange", args, kwargs, 1, &a, &b); err != nil {
				return nil, err
			}
			if b == starlark.None {
				return intn(0, a)
			}
			hi, err := starlark.AsInt32(b)
			if err != nil {
				return nil, err
			}
			return intn(a, int64(hi))
		}),
		"choice": fn("choice", func(args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var seq starlark.Value
			if err := starlark.UnpackPositionalArgs("random.choice", args, kwargs, 1, &seq); err != nil {
				return nil, err
			}
			xs, err := elems(seq)
			if err != nil {
				return nil, err
			}
			if len(xs) == 0 {
				return nil, Errorf("IndexError", "Cannot choose from an empty sequence")
			}
			return xs[r.IntN(len(xs))], nil
		}),
		"sample": fn("sample", func(args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var seq starlark.Value
			var k int
			if err := starlark.UnpackArgs("random.sample", args, kwargs, "population", &seq, "k", &k); err != nil {
				return nil, err
			}
			xs, err := elems(seq)
			if err != nil {
				return nil, err
			}
			if k < 0 || k > len(xs) {
				return nil, Errorf("ValueError", "Sample larger than population or is negative")
			}
			perm := r.Perm(len(xs))[:k]
			out := make([]starlark.Value, k)
			for i, p := range perm {
				out[i] = xs[p]
			}
			return starlark.NewList(out), nil
		}),
		"shuffle": fn("shuffle", func(args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var l *starlark.List
			if err := starlark.UnpackPositionalArgs("random.shuffle", args, kwargs, 1, &l); err != nil {
				return nil, err
			}
			var err error
			r.Shuffle(l.Len(), func(i, j int) {
				a, b := l.Index(i), l.Index(j)
				if e := l.SetIndex(i, b); e != nil {
					err = e
				}
				_ = l.SetIndex(j, a)
			})
			return starlark.None, err
		}),
	}}
}
