package random

import (
	"errors"
	"math"
	"math/big"

	"github.com/rlm-go/rlm/repl/internal/python"
	"github.com/rlm-go/rlm/repl/internal/python/syntax"
)

// The module wrapper: code mode's random module over the kernel above.
//
// Each interpreter has its own module: the module functions are the bound
// methods of one hidden Random instance, seeded with 0 when the module is
// loaded (CPython seeds it from the operating system's entropy; here every
// run starts from the same state). seed() and Random() without an argument
// (CPython: entropy) seed from a second, private generator of the module,
// so that they are deterministic from run to run yet give independent
// streams. SystemRandom, which only draws from entropy, is refused.
//
// Random may be subclassed; a subclass that overrides random() or
// getrandbits() (which CPython's other methods then call) is refused when
// one of the inherited methods is called, rather than ignored.

type obj = python.Object

// Register makes random importable.
func Register() {
	python.Setup()
	python.RegisterModule("random", load)
}

// module is the per-interpreter state.
type module struct {
	randomType *python.Type
	entropy    *Random // draws the seeds of seed(None) and Random()
}

// rng is an instance of random.Random (or the Go part of an instance of a
// subclass).
type rng struct {
	cls *python.Type
	r   *Random
}

// Type returns random.Random.
func (g *rng) Type() *python.Type { return g.cls }

// methodNames are the methods the module exposes as functions.
var methodNames = []string{"betavariate", "binomialvariate", "choice", "choices", "expovariate",
	"gammavariate", "gauss", "getrandbits", "getstate", "lognormvariate", "normalvariate",
	"paretovariate", "randbytes", "randint", "random", "randrange", "sample", "seed", "setstate",
	"shuffle", "triangular", "uniform", "vonmisesvariate", "weibullvariate"}

func load(in *python.Interp) (*python.Module, error) {
	md := &module{entropy: New()}
	md.entropy.SeedUint64(0x5eed5eed)
	md.randomType = md.newRandomType()
	m := python.NewModule("random")
	inst := &rng{cls: md.randomType, r: New()}
	for _, name := range methodNames {
		f, err := python.GetAttr(nil, inst, name)
		if err != nil {
			return nil, err
		}
		m.Set(name, f)
	}
	m.Set("Random", md.randomType)
	sys := python.NewBuiltinType("SystemRandom", "random", md.randomType, func(t *python.Thread, cls *python.Type, args []obj, kwargs []python.Kwarg) (obj, error) {
		return nil, python.NotSupported("random.SystemRandom", "it draws from the operating system's entropy; use random.Random(seed) for a deterministic generator")
	})
	m.Set("SystemRandom", sys)
	m.Set("NV_MAGICCONST", python.Float(nvMagicConst))
	m.Set("LOG4", python.Float(log4))
	m.Set("SG_MAGICCONST", python.Float(sgMagicConst))
	m.Set("TWOPI", python.Float(twoPi))
	m.Set("BPF", python.MakeInt(53))
	m.Set("RECIP_BPF", python.Float(1.0/9007199254740992.0))
	all := []obj{python.NewStr("Random"), python.NewStr("SystemRandom")}
	for _, n := range methodNames {
		all = append(all, python.NewStr(n))
	}
	m.Set("__all__", python.NewList(all))
	return m, nil
}

// newSeed returns the seed of seed(None) and Random(): the next 128 bits
// of the module's private generator.
func (md *module) newSeed() *big.Int {
	v, _ := md.entropy.GetRandBits(128)
	return v
}

func (md *module) newRandomType() *python.Type {
	var c *python.Type
	c = python.NewBuiltinType("Random", "random", nil, func(t *python.Thread, cls *python.Type, args []obj, kwargs []python.Kwarg) (obj, error) {
		g := &rng{cls: c, r: New()}
		var self obj = g
		if cls != c {
			self = python.NewInstance(cls, g)
		}
		if own, _ := c.Dict().GetStr("__init__"); isInherited(cls, "__init__", own) {
			if err := md.initRandom(t, self, args, kwargs); err != nil {
				return nil, err
			}
		}
		return self, nil
	})
	c.SetAttr("VERSION", python.MakeInt(3))
	c.AddMethod("__init__", func(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
		return python.None, md.initRandom(t, args[0], args[1:], kwargs)
	})
	c.AddGetSet("gauss_next", func(t *python.Thread, self obj) (obj, error) {
		g, err := plain(self)
		if err != nil {
			return nil, err
		}
		if !g.r.hasGauss {
			return python.None, nil
		}
		return python.Float(g.r.gaussNext), nil
	}, func(t *python.Thread, self, v obj) error {
		g, err := plain(self)
		if err != nil {
			return err
		}
		return setGaussNext(g.r, v)
	})
	add := func(name string, fn func(t *python.Thread, g *rng, self obj, args []obj, kwargs []python.Kwarg) (obj, error)) {
		c.AddMethod(name, func(t *python.Thread, args []obj, kwargs []python.Kwarg) (obj, error) {
			g, err := receiver(args[0], name)
			if err != nil {
				return nil, err
			}
			return fn(t, g, args[0], args[1:], kwargs)
		})
	}
	add("seed", md.seedMethod)
	add("getstate", getstate)
	add("setstate", setstate)
	add("random", func(t *python.Thread, g *rng, self obj, args []obj, kwargs []python.Kwarg) (obj, error) {
		if err := noArgs("Random.random", args, kwargs); err != nil {
			return nil, err
		}
		return python.Float(g.r.Random()), nil
	})
	add("getrandbits", getrandbits)
	add("randbytes", randbytes)
	add("randrange", randrange)
	add("randint", randint)
	add("choice", choice)
	add("shuffle", shuffle)
	add("sample", sample)
	add("choices", choices)
	add("uniform", uniform)
	add("triangular", triangular)
	floatDist := func(name string, params []string, defaults []float64, fn func(r *Random, x []float64) (float64, error)) {
		s := &python.Signature{Name: "Random." + name, Pos: append([]string{"self"}, params...), Required: 1 + len(params) - len(defaults)}
		add(name, func(t *python.Thread, g *rng, self obj, args []obj, kwargs []python.Kwarg) (obj, error) {
			a, _, _, err := s.Bind(append([]obj{self}, args...), kwargs)
			if err != nil {
				return nil, err
			}
			x := make([]float64, len(params))
			for i := range params {
				v := a[i+1]
				if v == nil {
					x[i] = defaults[i-(len(params)-len(defaults))]
					continue
				}
				if x[i], err = realArg(v); err != nil {
					return nil, err
				}
			}
			f, err := fn(g.r, x)
			if err != nil {
				return nil, kernelErr(err)
			}
			return python.Float(f), nil
		})
	}
	floatDist("normalvariate", []string{"mu", "sigma"}, []float64{0, 1}, func(r *Random, x []float64) (float64, error) {
		return r.NormalVariate(x[0], x[1]), nil
	})
	floatDist("gauss", []string{"mu", "sigma"}, []float64{0, 1}, func(r *Random, x []float64) (float64, error) {
		return r.Gauss(x[0], x[1]), nil
	})
	floatDist("lognormvariate", []string{"mu", "sigma"}, nil, func(r *Random, x []float64) (float64, error) {
		return r.LogNormVariate(x[0], x[1])
	})
	floatDist("expovariate", []string{"lambd"}, []float64{1}, func(r *Random, x []float64) (float64, error) {
		return r.ExpoVariate(x[0])
	})
	floatDist("vonmisesvariate", []string{"mu", "kappa"}, nil, func(r *Random, x []float64) (float64, error) {
		return r.VonMisesVariate(x[0], x[1])
	})
	floatDist("gammavariate", []string{"alpha", "beta"}, nil, func(r *Random, x []float64) (float64, error) {
		return r.GammaVariate(x[0], x[1])
	})
	floatDist("betavariate", []string{"alpha", "beta"}, nil, func(r *Random, x []float64) (float64, error) {
		return r.BetaVariate(x[0], x[1])
	})
	floatDist("paretovariate", []string{"alpha"}, nil, func(r *Random, x []float64) (float64, error) {
		return r.ParetoVariate(x[0])
	})
	floatDist("weibullvariate", []string{"alpha", "beta"}, nil, func(r *Random, x []float64) (float64, error) {
		return r.WeibullVariate(x[0], x[1])
	})
	add("binomialvariate", binomialvariate)
	return c
}

// isInherited reports whether cls's attribute name is own (not overridden
// by a subclass).
func isInherited(cls *python.Type, name string, own obj) bool {
	v, ok := cls.Lookup(name)
	return ok && v == own
}

// plain returns the generator of a Random instance.
func plain(self obj) (*rng, error) {
	if g, ok := python.Unwrap(self).(*rng); ok {
		return g, nil
	}
	return nil, python.Errorf(python.TypeErrorType, "descriptor requires a 'random.Random' object but received a '%s'", python.TypeName(self))
}

// receiver returns the generator of the instance a method is called on,
// refusing subclasses whose overrides of random() or getrandbits() the
// method would have to call.
func receiver(self obj, method string) (*rng, error) {
	g, err := plain(self)
	if err != nil {
		return nil, err
	}
	if self == obj(g) {
		return g, nil
	}
	switch method {
	case "seed", "getstate", "setstate", "random", "getrandbits":
		return g, nil
	}
	for _, name := range []string{"random", "getrandbits"} {
		v, _ := self.Type().Lookup(name)
		own, _ := g.cls.Dict().GetStr(name)
		if v != own {
			return nil, python.NotSupported("calling Random."+method+"() on a subclass that overrides "+name+"()", "implement "+method+" in the subclass too")
		}
	}
	return g, nil
}

// initRandom is Random.__init__(self, x=None): self.seed(x).
func (md *module) initRandom(t *python.Thread, self obj, args []obj, kwargs []python.Kwarg) error {
	a, _, _, err := (&python.Signature{Name: "Random.__init__", Pos: []string{"self", "x"}, Required: 1}).Bind(append([]obj{self}, args...), kwargs)
	if err != nil {
		return err
	}
	x := a[1]
	if x == nil {
		x = python.None
	}
	if g, ok := self.(*rng); ok {
		return md.seed(t, g, x, python.MakeInt(2))
	}
	if _, err := python.CallMethod(t, self, "seed", []obj{x}, nil); err != nil {
		return err
	}
	g, err := plain(self)
	if err != nil {
		return err
	}
	g.r.hasGauss = false
	return nil
}

var seedSig = &python.Signature{Name: "Random.seed", Pos: []string{"self", "a", "version"}, Required: 1}

// seedMethod is Random.seed(self, a=None, version=2).
func (md *module) seedMethod(t *python.Thread, g *rng, self obj, args []obj, kwargs []python.Kwarg) (obj, error) {
	a, _, _, err := seedSig.Bind(append([]obj{self}, args...), kwargs)
	if err != nil {
		return nil, err
	}
	x, version := a[1], a[2]
	if x == nil {
		x = python.None
	}
	if version == nil {
		version = python.MakeInt(2)
	}
	return python.None, md.seed(t, g, x, version)
}

func (md *module) seed(t *python.Thread, g *rng, a, version obj) error {
	v1, err := python.Equal(t, version, python.MakeInt(1))
	if err != nil {
		return err
	}
	v2, err := python.Equal(t, version, python.MakeInt(2))
	if err != nil {
		return err
	}
	ua := python.Unwrap(a)
	b, isBytes := ua.(*python.Bytes)
	_, isByteArray := ua.(*python.ByteArray)
	switch {
	case v1 && (python.IsStr(a) || isBytes):
		var runes []rune
		if isBytes {
			for _, c := range []byte(b.String()) {
				runes = append(runes, rune(c))
			}
		} else {
			s, err := python.StrOf(t, ua)
			if err != nil {
				return err
			}
			runes = []rune(s)
		}
		g.r.SeedVersion1(runes)
		return nil
	case v2 && (python.IsStr(a) || isBytes || isByteArray):
		var data []byte
		switch {
		case isBytes:
			data = []byte(b.String())
		case isByteArray:
			r, err := python.Call(t, python.BytesType, []obj{ua}, nil)
			if err != nil {
				return err
			}
			data = []byte(r.(*python.Bytes).String())
		default:
			s, err := python.StrOf(t, ua)
			if err != nil {
				return err
			}
			data = []byte(s)
		}
		g.r.SeedBytes(data)
		return nil
	}
	if a == python.None {
		g.r.SeedInt(md.newSeed())
		return nil
	}
	if n := python.ToBig(a); n != nil {
		g.r.SeedInt(n)
		return nil
	}
	switch {
	case isFloat(a):
		h, err := python.Hash(t, a)
		if err != nil {
			return err
		}
		g.r.SeedHash(h)
		return nil
	case python.IsStr(a) || isBytes:
		return python.NotSupported("seeding with a "+python.TypeName(a)+" and version other than 2", "its hash varies from run to run; use version=2")
	case isByteArray:
		return python.Errorf(python.TypeErrorType, "unhashable type: 'bytearray'")
	}
	return python.Errorf(python.TypeErrorType, "The only supported seed types are: None,\nint, float, str, bytes, and bytearray.")
}

func isFloat(x obj) bool {
	_, ok := python.Unwrap(x).(python.Float)
	return ok
}

// getstate is Random.getstate(self).
func getstate(t *python.Thread, g *rng, self obj, args []obj, kwargs []python.Kwarg) (obj, error) {
	if _, _, _, err := (&python.Signature{Name: "Random.getstate", Pos: []string{"self"}, Required: 1}).Bind(append([]obj{self}, args...), kwargs); err != nil {
		return nil, err
	}
	st := g.r.GetState()
	items := make([]obj, StateSize)
	for i, w := range st.Words {
		items[i] = python.MakeInt(int64(w))
	}
	items[mtN] = python.MakeInt(int64(st.Index))
	var gauss obj = python.None
	if st.HasGauss {
		gauss = python.Float(st.GaussNext)
	}
	return python.NewTuple([]obj{python.MakeInt(3), python.NewTuple(items), gauss}), nil
}

// setstate is Random.setstate(self, state).
func setstate(t *python.Thread, g *rng, self obj, args []obj, kwargs []python.Kwarg) (obj, error) {
	a, _, _, err := (&python.Signature{Name: "Random.setstate", Pos: []string{"self", "state"}, Required: 2}).Bind(append([]obj{self}, args...), kwargs)
	if err != nil {
		return nil, err
	}
	state := a[1]
	version, err := python.GetItem(t, state, python.MakeInt(0))
	if err != nil {
		return nil, err
	}
	is3, err := python.Equal(t, version, python.MakeInt(3))
	if err != nil {
		return nil, err
	}
	is2, err := python.Equal(t, version, python.MakeInt(2))
	if err != nil {
		return nil, err
	}
	if !is3 && !is2 {
		vs, err := python.StrOf(t, version)
		if err != nil {
			return nil, err
		}
		return nil, python.Errorf(python.ValueErrorType, "state with version %s passed to Random.setstate() of version 3", vs)
	}
	parts, err := python.ToSlice(t, state)
	if err != nil {
		return nil, err
	}
	if len(parts) > 3 {
		return nil, python.Errorf(python.ValueErrorType, "too many values to unpack (expected 3)")
	}
	if len(parts) < 3 {
		return nil, python.Errorf(python.ValueErrorType, "not enough values to unpack (expected 3, got %d)", len(parts))
	}
	internal := parts[1]
	if is2 {
		xs, err := python.ToSlice(t, internal)
		if err != nil {
			return nil, err
		}
		mod := python.MakeBigInt(new(big.Int).Lsh(big.NewInt(1), 32))
		out := make([]obj, len(xs))
		for i, x := range xs {
			if out[i], err = python.Binary(t, syntax.Mod, x, mod); err != nil {
				return nil, err
			}
		}
		internal = python.NewTuple(out)
	}
	tu, ok := python.Unwrap(internal).(*python.Tuple)
	if !ok {
		return nil, python.Errorf(python.TypeErrorType, "state vector must be a tuple")
	}
	items := tu.Items()
	if len(items) != StateSize {
		return nil, python.Errorf(python.ValueErrorType, "state vector is the wrong size")
	}
	var st State
	for i := 0; i < mtN; i++ {
		n := python.ToBig(items[i])
		if n == nil {
			return nil, python.Errorf(python.TypeErrorType, "'%s' object cannot be interpreted as an integer", python.TypeName(items[i]))
		}
		if n.Sign() < 0 {
			return nil, python.Errorf(python.OverflowErrorType, "can't convert negative value to unsigned int")
		}
		if n.BitLen() > 64 {
			return nil, python.Errorf(python.OverflowErrorType, "Python int too large to convert to C unsigned long")
		}
		st.Words[i] = uint32(n.Uint64())
	}
	idx := python.ToBig(items[mtN])
	if idx == nil {
		return nil, python.Errorf(python.TypeErrorType, "'%s' object cannot be interpreted as an integer", python.TypeName(items[mtN]))
	}
	if !idx.IsInt64() {
		return nil, python.Errorf(python.OverflowErrorType, "Python int too large to convert to C long")
	}
	if idx.Int64() < 0 || idx.Int64() > mtN {
		return nil, python.Errorf(python.ValueErrorType, "invalid state")
	}
	st.Index = int(idx.Int64())
	saved := g.r.GetState()
	if err := g.r.SetState(st); err != nil {
		return nil, kernelErr(err)
	}
	if err := setGaussNext(g.r, parts[2]); err != nil {
		_ = g.r.SetState(saved)
		return nil, err
	}
	return python.None, nil
}

// setGaussNext sets the cached gauss value (None or a float).
func setGaussNext(r *Random, v obj) error {
	if v == python.None {
		r.hasGauss = false
		return nil
	}
	f, ok := python.Unwrap(v).(python.Float)
	if !ok {
		return python.NotSupported("a gauss_next of type "+python.TypeName(v), "use None or a float")
	}
	r.gaussNext, r.hasGauss = float64(f), true
	return nil
}

// getrandbits is Random.getrandbits(self, k, /).
func getrandbits(t *python.Thread, g *rng, self obj, args []obj, kwargs []python.Kwarg) (obj, error) {
	if len(kwargs) > 0 {
		return nil, python.Errorf(python.TypeErrorType, "Random.getrandbits() takes no keyword arguments")
	}
	if len(args) != 1 {
		return nil, python.Errorf(python.TypeErrorType, "Random.getrandbits() takes exactly one argument (%d given)", len(args))
	}
	k, err := bigIndex(t, args[0])
	if err != nil {
		return nil, err
	}
	return bitsOf(t, g.r, k)
}

func bitsOf(t *python.Thread, r *Random, k *big.Int) (obj, error) {
	if k.Sign() < 0 {
		return nil, python.Errorf(python.ValueErrorType, "number of bits must be non-negative")
	}
	if !k.IsInt64() || k.Int64() > MaxBits {
		return nil, python.NotSupported("getrandbits("+k.String()+")", "this interpreter draws at most 67108864 bits at a time")
	}
	if err := t.CheckSize(k.Int64() / 8); err != nil {
		return nil, err
	}
	v, err := r.GetRandBits(k.Int64())
	if err != nil {
		return nil, kernelErr(err)
	}
	return python.MakeBigInt(v), nil
}

// randbytes is Random.randbytes(self, n): getrandbits(n * 8) as n
// little-endian bytes.
func randbytes(t *python.Thread, g *rng, self obj, args []obj, kwargs []python.Kwarg) (obj, error) {
	a, _, _, err := (&python.Signature{Name: "Random.randbytes", Pos: []string{"self", "n"}, Required: 2}).Bind(append([]obj{self}, args...), kwargs)
	if err != nil {
		return nil, err
	}
	n8, err := python.Binary(t, syntax.Mult, a[1], python.MakeInt(8))
	if err != nil {
		return nil, err
	}
	k, err := bigIndex(t, n8)
	if err != nil {
		return nil, err
	}
	if k.Sign() < 0 {
		return nil, python.Errorf(python.ValueErrorType, "number of bits must be non-negative")
	}
	if !k.IsInt64() || k.Int64() > MaxBits {
		return nil, python.NotSupported("randbytes("+new(big.Int).Rsh(k, 3).String()+")", "this interpreter draws at most 8388608 bytes at a time")
	}
	if err := t.CheckSize(k.Int64() / 8); err != nil {
		return nil, err
	}
	b, err := g.r.RandBytes(k.Int64() / 8)
	if err != nil {
		return nil, kernelErr(err)
	}
	return python.NewBytes(string(b)), nil
}

// bigIndex is operator.index(x) as a *big.Int.
func bigIndex(t *python.Thread, x obj) (*big.Int, error) {
	if n := python.ToBig(x); n != nil {
		return n, nil
	}
	n, ok, err := python.IndexValue(t, x)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, python.Errorf(python.TypeErrorType, "'%s' object cannot be interpreted as an integer", python.TypeName(x))
	}
	return big.NewInt(n), nil
}

var randrangeSig = &python.Signature{Name: "Random.randrange", Pos: []string{"self", "start", "stop", "step"}, Required: 2}

// randrange is Random.randrange(self, start, stop=None, step=1).
func randrange(t *python.Thread, g *rng, self obj, args []obj, kwargs []python.Kwarg) (obj, error) {
	a, _, _, err := randrangeSig.Bind(append([]obj{self}, args...), kwargs)
	if err != nil {
		return nil, err
	}
	return doRandrange(t, g.r, a[1], a[2], a[3])
}

// doRandrange draws randrange(start, stop, step); nil stop and step are
// not given.
func doRandrange(t *python.Thread, r *Random, start, stop, step obj) (obj, error) {
	istart, err := bigIndex(t, start)
	if err != nil {
		return nil, err
	}
	var istop, istep *big.Int
	if stop != nil && stop != python.None {
		if istop, err = bigIndex(t, stop); err != nil {
			return nil, err
		}
	}
	if step != nil {
		// CPython tests `step is _ONE`: the int 1 is that object.
		if i, ok := step.(python.Int); ok && i == 1 {
			step = nil
		} else if istop == nil {
			return nil, python.Errorf(python.TypeErrorType, "Missing a non-None stop argument")
		} else if istep, err = bigIndex(t, step); err != nil {
			return nil, err
		}
	}
	if err := checkBits(istart, istop, istep); err != nil {
		return nil, err
	}
	v, err := r.RandRange(istart, istop, istep)
	if err != nil {
		var e *Error
		if errors.As(err, &e) && e.Type == ValueError && len(e.Msg) > 25 && e.Msg[:25] == "empty range in randrange(" {
			// The message shows the arguments as str() shows them.
			parts := []obj{start, stop}
			if istep != nil {
				parts = append(parts, step)
			}
			msg := "empty range in randrange("
			for i, p := range parts {
				s, err := python.StrOf(t, p)
				if err != nil {
					return nil, err
				}
				if i > 0 {
					msg += ", "
				}
				msg += s
			}
			return nil, python.Errorf(python.ValueErrorType, "%s)", msg)
		}
		return nil, kernelErr(err)
	}
	return python.MakeBigInt(v), nil
}

// checkBits refuses ranges wider than the kernel draws.
func checkBits(xs ...*big.Int) error {
	for _, x := range xs {
		if x != nil && x.BitLen() > MaxBits-2 {
			return python.NotSupported("a random range this wide", "use bounds below 2**67108862")
		}
	}
	return nil
}

// randint is Random.randint(self, a, b): randrange(a, b+1).
func randint(t *python.Thread, g *rng, self obj, args []obj, kwargs []python.Kwarg) (obj, error) {
	a, _, _, err := (&python.Signature{Name: "Random.randint", Pos: []string{"self", "a", "b"}, Required: 3}).Bind(append([]obj{self}, args...), kwargs)
	if err != nil {
		return nil, err
	}
	stop, err := python.Binary(t, syntax.Add, a[2], python.MakeInt(1))
	if err != nil {
		return nil, err
	}
	return doRandrange(t, g.r, a[1], stop, nil)
}

// choice is Random.choice(self, seq).
func choice(t *python.Thread, g *rng, self obj, args []obj, kwargs []python.Kwarg) (obj, error) {
	a, _, _, err := (&python.Signature{Name: "Random.choice", Pos: []string{"self", "seq"}, Required: 2}).Bind(append([]obj{self}, args...), kwargs)
	if err != nil {
		return nil, err
	}
	n, err := python.Len(t, a[1])
	if err != nil {
		return nil, err
	}
	i, err := g.r.Choice(n)
	if err != nil {
		return nil, kernelErr(err)
	}
	return itemAt(t, a[1], i)
}

// itemAt returns seq[i].
func itemAt(t *python.Thread, seq obj, i int) (obj, error) {
	switch s := seq.(type) {
	case *python.List:
		if items := s.Items(); i < len(items) {
			return items[i], nil
		}
	case *python.Tuple:
		if items := s.Items(); i < len(items) {
			return items[i], nil
		}
	}
	return python.GetItem(t, seq, python.MakeInt(int64(i)))
}

// shuffle is Random.shuffle(self, x).
func shuffle(t *python.Thread, g *rng, self obj, args []obj, kwargs []python.Kwarg) (obj, error) {
	a, _, _, err := (&python.Signature{Name: "Random.shuffle", Pos: []string{"self", "x"}, Required: 2}).Bind(append([]obj{self}, args...), kwargs)
	if err != nil {
		return nil, err
	}
	x := a[1]
	n, err := python.Len(t, x)
	if err != nil {
		return nil, err
	}
	if l, ok := x.(*python.List); ok {
		for i := n - 1; i > 0; i-- {
			if i&4095 == 0 {
				if err := t.Tick(1); err != nil {
					return nil, err
				}
			}
			j := g.r.RandbelowInt(i + 1)
			items := l.Items()
			if i >= len(items) {
				return nil, python.Errorf(python.IndexErrorType, "list index out of range")
			}
			items[i], items[j] = items[j], items[i]
		}
		return python.None, nil
	}
	for i := n - 1; i > 0; i-- {
		if i&1023 == 0 {
			if err := t.Tick(1); err != nil {
				return nil, err
			}
		}
		j := g.r.RandbelowInt(i + 1)
		ij, ii := python.MakeInt(int64(j)), python.MakeInt(int64(i))
		xj, err := python.GetItem(t, x, ij)
		if err != nil {
			return nil, err
		}
		xi, err := python.GetItem(t, x, ii)
		if err != nil {
			return nil, err
		}
		if err := python.SetItem(t, x, ii, xj); err != nil {
			return nil, err
		}
		if err := python.SetItem(t, x, ij, xi); err != nil {
			return nil, err
		}
	}
	return python.None, nil
}

// isSequence is isinstance(x, collections.abc.Sequence).
func isSequence(t *python.Thread, x obj) (bool, error) {
	switch python.Unwrap(x).(type) {
	case *python.List, *python.Tuple, *python.Range, *python.Bytes, *python.ByteArray:
		return true, nil
	case *python.Dict, *python.Set:
		return false, nil
	}
	if python.IsStr(x) {
		return true, nil
	}
	abc, err := t.Interp().Import(t, "collections.abc")
	if err != nil {
		if python.IsInstance(err, python.ImportErrorType) {
			return false, nil
		}
		return false, err
	}
	seq, err := python.GetAttr(t, abc, "Sequence")
	if err != nil {
		return false, nil
	}
	return python.IsInstanceOf(t, x, seq)
}

var sampleSig = &python.Signature{Name: "Random.sample", Pos: []string{"self", "population", "k"}, Required: 3, KwOnly: []string{"counts"}}

// sample is Random.sample(self, population, k, *, counts=None).
func sample(t *python.Thread, g *rng, self obj, args []obj, kwargs []python.Kwarg) (obj, error) {
	a, _, _, err := sampleSig.Bind(append([]obj{self}, args...), kwargs)
	if err != nil {
		return nil, err
	}
	pop, kObj, counts := a[1], a[2], a[3]
	ok, err := isSequence(t, pop)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, python.Errorf(python.TypeErrorType, "Population must be a sequence.  For dicts or sets, use sorted(d).")
	}
	n, err := python.Len(t, pop)
	if err != nil {
		return nil, err
	}
	if counts != nil && counts != python.None {
		return sampleCounts(t, g, pop, n, kObj, counts)
	}
	k, err := sampleK(t, kObj, int64(n))
	if err != nil {
		return nil, err
	}
	if err := t.CheckSize(k * 16); err != nil {
		return nil, err
	}
	idx, err := g.r.Sample(n, k)
	if err != nil {
		return nil, kernelErr(err)
	}
	var items []obj
	switch p := python.Unwrap(pop).(type) {
	case *python.List:
		items = p.Items()
	case *python.Tuple:
		items = p.Items()
	default:
		if int64(n) <= sampleSetSize(k) {
			if items, err = python.ToSlice(t, pop); err != nil {
				return nil, err
			}
		}
	}
	out := make([]obj, len(idx))
	for i, j := range idx {
		if items != nil && j < len(items) {
			out[i] = items[j]
			continue
		}
		if i&1023 == 0 {
			if err := t.Tick(1); err != nil {
				return nil, err
			}
		}
		if out[i], err = python.GetItem(t, pop, python.MakeInt(int64(j))); err != nil {
			return nil, err
		}
	}
	return python.NewList(out), nil
}

// sampleK checks sample's k as CPython does (0 <= k <= n, then [None] * k).
func sampleK(t *python.Thread, kObj obj, n int64) (int64, error) {
	k, ok, err := python.IndexValue(t, kObj)
	if err != nil {
		return 0, err
	}
	if !ok {
		f, isNum, err := python.FloatValue(kObj)
		if err != nil {
			return 0, err
		}
		if !isNum {
			return 0, python.Errorf(python.TypeErrorType, "'<=' not supported between instances of 'int' and '%s'", python.TypeName(kObj))
		}
		if !(0 <= f && f <= float64(n)) {
			return 0, python.Errorf(python.ValueErrorType, "Sample larger than population or is negative")
		}
		return 0, python.Errorf(python.TypeErrorType, "can't multiply sequence by non-int of type '%s'", python.TypeName(kObj))
	}
	if k < 0 || k > n {
		return 0, python.Errorf(python.ValueErrorType, "Sample larger than population or is negative")
	}
	if k > MaxDraws {
		return 0, python.NotSupported("a sample of more than 16777216 items", "draw in several calls")
	}
	return k, nil
}

// sampleCounts is sample(population, k, counts=counts).
func sampleCounts(t *python.Thread, g *rng, pop obj, n int, kObj, counts obj) (obj, error) {
	cs, err := python.ToSlice(t, counts)
	if err != nil {
		return nil, err
	}
	if len(cs) != n {
		return nil, python.Errorf(python.ValueErrorType, "The number of counts does not match the population")
	}
	ints := make([]*big.Int, len(cs))
	for i, c := range cs {
		v := python.ToBig(c)
		if v == nil {
			if _, ok := python.Unwrap(c).(python.Float); ok {
				return nil, python.Errorf(python.TypeErrorType, "Counts must be integers")
			}
			return nil, python.NotSupported("counts of type "+python.TypeName(c), "use ints")
		}
		ints[i] = v
	}
	if len(ints) > 0 {
		// The kernel checks the total; k is checked against it first as
		// sample(range(total), k) does.
		total := new(big.Int)
		for _, v := range ints {
			total.Add(total, v)
		}
		if total.Sign() > 0 && total.IsInt64() {
			if _, err := sampleK(t, kObj, total.Int64()); err != nil {
				return nil, err
			}
		}
	}
	k, ok, err := python.IndexValue(t, kObj)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, python.Errorf(python.TypeErrorType, "'%s' object cannot be interpreted as an integer", python.TypeName(kObj))
	}
	if err := t.CheckSize(k * 16); err != nil {
		return nil, err
	}
	idx, err := g.r.SampleCounts(ints, k)
	if err != nil {
		return nil, kernelErr(err)
	}
	out := make([]obj, len(idx))
	for i, j := range idx {
		if out[i], err = itemAt(t, pop, j); err != nil {
			return nil, err
		}
	}
	return python.NewList(out), nil
}

var choicesSig = &python.Signature{Name: "Random.choices", Pos: []string{"self", "population", "weights"}, Required: 2, KwOnly: []string{"cum_weights", "k"}}

// maxExactWeight bounds int weights: beyond 2**53 CPython compares them
// exactly with floats, which this wrapper's float cumulative weights
// cannot.
const maxExactWeight = 1 << 53

// choices is Random.choices(self, population, weights=None, *,
// cum_weights=None, k=1).
func choices(t *python.Thread, g *rng, self obj, args []obj, kwargs []python.Kwarg) (obj, error) {
	a, _, _, err := choicesSig.Bind(append([]obj{self}, args...), kwargs)
	if err != nil {
		return nil, err
	}
	pop, weights, cum, kObj := a[1], a[2], a[3], a[4]
	n, err := python.Len(t, pop)
	if err != nil {
		return nil, err
	}
	var cw []float64
	switch {
	case (cum == nil || cum == python.None) && (weights == nil || weights == python.None):
	case cum == nil || cum == python.None:
		ws, err := python.ToSlice(t, weights)
		if err != nil {
			if _, isInt := python.Unwrap(weights).(python.Int); isInt && python.IsInstance(err, python.TypeErrorType) {
				r, _ := python.Repr(t, weights)
				return nil, python.Errorf(python.TypeErrorType, "The number of choices must be a keyword argument: k=%s", r)
			}
			return nil, err
		}
		if cw, err = accumulate(t, ws); err != nil {
			return nil, err
		}
	case weights != nil && weights != python.None:
		return nil, python.Errorf(python.TypeErrorType, "Cannot specify both weights and cumulative weights")
	default:
		cs, err := python.ToSlice(t, cum)
		if err != nil {
			return nil, err
		}
		cw = make([]float64, len(cs))
		for i, c := range cs {
			if cw[i], err = weightValue(c); err != nil {
				return nil, err
			}
		}
	}
	k := int64(1)
	if kObj != nil {
		var ok bool
		if k, ok, err = python.IndexValue(t, kObj); err != nil {
			return nil, err
		} else if !ok {
			return nil, python.Errorf(python.TypeErrorType, "'%s' object cannot be interpreted as an integer", python.TypeName(kObj))
		}
	}
	if k > MaxDraws {
		return nil, python.NotSupported("choices of more than 16777216 items", "draw in several calls")
	}
	if err := t.CheckSize(k * 16); err != nil {
		return nil, err
	}
	if cw == nil && (cum != nil && cum != python.None || weights != nil && weights != python.None) {
		cw = []float64{}
	}
	idx, err := g.r.Choices(n, cw, k)
	if err != nil {
		return nil, kernelErr(err)
	}
	out := make([]obj, len(idx))
	for i, j := range idx {
		if i&1023 == 0 {
			if err := t.Tick(1); err != nil {
				return nil, err
			}
		}
		if out[i], err = itemAt(t, pop, j); err != nil {
			return nil, err
		}
	}
	return python.NewList(out), nil
}

// weightValue returns a weight as the float CPython's comparisons treat
// exactly: floats, and ints (bools) up to 2**53 in magnitude.
func weightValue(x obj) (float64, error) {
	switch v := python.Unwrap(x).(type) {
	case python.Float:
		return float64(v), nil
	case python.Bool:
		if v {
			return 1, nil
		}
		return 0, nil
	}
	if n := python.ToBig(x); n != nil {
		if n.CmpAbs(big.NewInt(maxExactWeight)) > 0 {
			return 0, python.NotSupported("int weights beyond 2**53", "use float weights")
		}
		return float64(n.Int64()), nil
	}
	return 0, python.NotSupported("weights of type "+python.TypeName(x), "use ints or floats")
}

// accumulate is list(itertools.accumulate(weights)) as floats: ints are
// summed exactly until a float comes, then as floats.
func accumulate(t *python.Thread, ws []obj) ([]float64, error) {
	out := make([]float64, len(ws))
	var isum int64
	var fsum float64
	isFloatSum := false
	for i, w := range ws {
		if _, ok := python.Unwrap(w).(python.Float); ok && !isFloatSum {
			isFloatSum = true
			fsum = float64(isum)
		}
		v, err := weightValue(w)
		if err != nil {
			return nil, err
		}
		if isFloatSum {
			fsum += v
			out[i] = fsum
			continue
		}
		isum += int64(v)
		if isum > maxExactWeight || isum < -maxExactWeight {
			return nil, python.NotSupported("int weights whose sum exceeds 2**53", "use float weights")
		}
		out[i] = float64(isum)
	}
	return out, nil
}

// realArg returns a float parameter of a distribution: a float, or an int
// small enough that CPython's mixed arithmetic gives what float arithmetic
// gives.
func realArg(x obj) (float64, error) {
	switch v := python.Unwrap(x).(type) {
	case python.Float:
		return float64(v), nil
	case python.Bool:
		if v {
			return 1, nil
		}
		return 0, nil
	}
	if n := python.ToBig(x); n != nil {
		if n.CmpAbs(big.NewInt(maxExactWeight)) > 0 {
			return 0, python.NotSupported("int arguments beyond 2**53 to random's distributions", "pass a float")
		}
		return float64(n.Int64()), nil
	}
	if _, isNum, _ := python.FloatValue(x); isNum {
		f, _, err := python.FloatValue(x)
		return f, err
	}
	return 0, python.NotSupported("arguments of type "+python.TypeName(x)+" to random's distributions", "pass a float")
}

// uniform is Random.uniform(self, a, b): a + (b - a) * random(), with
// Python's arithmetic on the arguments.
func uniform(t *python.Thread, g *rng, self obj, args []obj, kwargs []python.Kwarg) (obj, error) {
	a, _, _, err := (&python.Signature{Name: "Random.uniform", Pos: []string{"self", "a", "b"}, Required: 3}).Bind(append([]obj{self}, args...), kwargs)
	if err != nil {
		return nil, err
	}
	d, err := python.Binary(t, syntax.Sub, a[2], a[1])
	if err != nil {
		return nil, err
	}
	p, err := python.Binary(t, syntax.Mult, d, python.Float(g.r.Random()))
	if err != nil {
		return nil, err
	}
	return python.Binary(t, syntax.Add, a[1], p)
}

// triangular is Random.triangular(self, low=0.0, high=1.0, mode=None).
func triangular(t *python.Thread, g *rng, self obj, args []obj, kwargs []python.Kwarg) (obj, error) {
	a, _, _, err := (&python.Signature{Name: "Random.triangular", Pos: []string{"self", "low", "high", "mode"}, Required: 1}).Bind(append([]obj{self}, args...), kwargs)
	if err != nil {
		return nil, err
	}
	low, high := 0.0, 1.0
	if a[1] != nil {
		if low, err = realArg(a[1]); err != nil {
			return nil, err
		}
	}
	if a[2] != nil {
		if high, err = realArg(a[2]); err != nil {
			return nil, err
		}
	}
	mode, hasMode := 0.0, a[3] != nil && a[3] != python.None
	if hasMode {
		if mode, err = realArg(a[3]); err != nil {
			return nil, err
		}
	}
	v, lowReturned, err := g.r.Triangular(low, high, mode, hasMode)
	if err != nil {
		return nil, kernelErr(err)
	}
	if lowReturned {
		if a[1] == nil {
			return python.Float(0), nil
		}
		return a[1], nil
	}
	return python.Float(v), nil
}

// binomialvariate is Random.binomialvariate(self, n=1, p=0.5).
func binomialvariate(t *python.Thread, g *rng, self obj, args []obj, kwargs []python.Kwarg) (obj, error) {
	a, _, _, err := (&python.Signature{Name: "Random.binomialvariate", Pos: []string{"self", "n", "p"}, Required: 1}).Bind(append([]obj{self}, args...), kwargs)
	if err != nil {
		return nil, err
	}
	nObj := a[1]
	if nObj == nil {
		nObj = python.MakeInt(1)
	}
	n, ok, err := python.IndexValue(t, nObj)
	if err != nil || !ok {
		return nil, python.NotSupported("binomialvariate with n of type "+python.TypeName(nObj)+" or beyond 64 bits", "pass an int")
	}
	p := 0.5
	if a[2] != nil {
		if p, err = realArg(a[2]); err != nil {
			return nil, err
		}
	}
	if n >= 0 && p == 1.0 {
		return nObj, nil
	}
	v, err := g.r.BinomialVariate(n, p)
	if err != nil {
		return nil, kernelErr(err)
	}
	return python.MakeInt(v), nil
}

// noArgs refuses arguments to a C method taking none.
func noArgs(name string, args []obj, kwargs []python.Kwarg) error {
	if len(kwargs) > 0 {
		return python.Errorf(python.TypeErrorType, "%s() takes no keyword arguments", name)
	}
	if len(args) > 0 {
		return python.Errorf(python.TypeErrorType, "%s() takes no arguments (%d given)", name, len(args))
	}
	return nil
}

// kernelErr converts a kernel error into the Python exception it names.
func kernelErr(err error) error {
	var e *Error
	if !errors.As(err, &e) {
		return err
	}
	var cls *python.Type
	switch e.Type {
	case ValueError:
		cls = python.ValueErrorType
	case TypeError:
		cls = python.TypeErrorType
	case IndexError:
		cls = python.IndexErrorType
	case OverflowError:
		cls = python.OverflowErrorType
	case ZeroDivisionError:
		cls = python.ZeroDivisionErrorType
	case LimitError:
		return python.NotSupported("this random call ("+e.Msg+")", "use smaller arguments")
	default:
		cls = python.ValueErrorType
	}
	if e.Type == TypeError && e.Msg == "complex results of float ** are not supported" {
		return python.NotSupported("a complex intermediate result", "use other parameters")
	}
	return python.Errorf(cls, "%s", e.Msg)
}

var _ = math.Inf
