package collections

import (
	"strconv"

	"github.com/rlm-go/rlm/repl/internal/python"
	"github.com/rlm-go/rlm/repl/internal/python/syntax"
)

// deque is collections.deque: a ring buffer.
type deque struct {
	st     *state
	buf    []obj // len(buf) is a power of two (or 0)
	head   int
	n      int
	maxlen int // -1: unbounded
	state  uint64
	owner  obj // the instance of a deque subclass holding d, or nil
}

func (d *deque) Type() *python.Type { return d.st.deque }

func (d *deque) at(i int) obj { return d.buf[(d.head+i)&(len(d.buf)-1)] }

func (d *deque) set(i int, v obj) { d.buf[(d.head+i)&(len(d.buf)-1)] = v }

func (d *deque) grow(t *python.Thread) error {
	if d.n < len(d.buf) {
		return nil
	}
	size := max(8, 2*len(d.buf))
	if t != nil {
		if err := t.CheckSize(int64(size) * 16); err != nil {
			return err
		}
	}
	nb := make([]obj, size)
	for i := 0; i < d.n; i++ {
		nb[i] = d.at(i)
	}
	d.buf, d.head = nb, 0
	return nil
}

func (d *deque) pushBack(t *python.Thread, v obj) error {
	if d.maxlen == 0 {
		return nil
	}
	if d.maxlen > 0 && d.n >= d.maxlen {
		d.popFront()
	}
	if err := d.grow(t); err != nil {
		return err
	}
	d.buf[(d.head+d.n)&(len(d.buf)-1)] = v
	d.n++
	d.state++
	return nil
}

func (d *deque) pushFront(t *python.Thread, v obj) error {
	if d.maxlen == 0 {
		return nil
	}
	if d.maxlen > 0 && d.n >= d.maxlen {
		d.popBack()
	}
	if err := d.grow(t); err != nil {
		return err
	}
	d.head = (d.head - 1) & (len(d.buf) - 1)
	d.buf[d.head] = v
	d.n++
	d.state++
	return nil
}

func (d *deque) popBack() obj {
	if d.n == 0 {
		return nil
	}
	i := (d.head + d.n - 1) & (len(d.buf) - 1)
	v := d.buf[i]
	d.buf[i] = nil
	d.n--
	d.state++
	return v
}

func (d *deque) popFront() obj {
	if d.n == 0 {
		return nil
	}
	v := d.buf[d.head]
	d.buf[d.head] = nil
	d.head = (d.head + 1) & (len(d.buf) - 1)
	d.n--
	d.state++
	return v
}

func (d *deque) items() []obj {
	out := make([]obj, d.n)
	for i := range out {
		out[i] = d.at(i)
	}
	return out
}

func (d *deque) clear() {
	d.buf, d.head, d.n = nil, 0, 0
	d.state++
}

// extend appends (or, with left, prepends) the items of it.
func (d *deque) extend(t *python.Thread, it obj, left bool) error {
	if python.Unwrap(it) == obj(d) {
		it = python.NewList(d.items())
	}
	i := 0
	return python.Iterate(t, it, func(v obj) error {
		i++
		if i&1023 == 0 {
			if err := t.Tick(1); err != nil {
				return err
			}
		}
		if left {
			return d.pushFront(t, v)
		}
		return d.pushBack(t, v)
	})
}

// rotate rotates right by k.
func (d *deque) rotate(k int64) {
	if d.n <= 1 {
		return
	}
	k %= int64(d.n)
	if k < 0 {
		k += int64(d.n)
	}
	if k == 0 {
		return
	}
	items := d.items()
	n := len(items)
	for i := range items {
		d.set((i+int(k))%n, items[i])
	}
	d.state++
}

// PyLen is len(d).
func (d *deque) PyLen(*python.Thread) (int, error) { return d.n, nil }

// PyBool is bool(d).
func (d *deque) PyBool(*python.Thread) (bool, error) { return d.n > 0, nil }

// PyIter returns a _deque_iterator.
func (d *deque) PyIter(*python.Thread) (python.Object, error) {
	return &dequeIter{d: d, state: d.state, typ: d.st.dequeIter}, nil
}

func (d *deque) index(t *python.Thread, key obj) (int, error) {
	if _, ok := key.(*python.Slice); ok {
		return 0, python.Errorf(python.TypeErrorType, "sequence index must be integer, not 'slice'")
	}
	i, ok, err := python.IndexValue(t, key)
	if err != nil {
		return 0, python.Errorf(python.IndexErrorType, "deque index out of range")
	}
	if !ok {
		return 0, python.Errorf(python.TypeErrorType, "sequence index must be integer, not '%s'", python.TypeName(key))
	}
	if i < 0 {
		i += int64(d.n)
	}
	if i < 0 || i >= int64(d.n) {
		return 0, python.Errorf(python.IndexErrorType, "deque index out of range")
	}
	return int(i), nil
}

// PyGetItem is d[i].
func (d *deque) PyGetItem(t *python.Thread, key obj) (obj, error) {
	i, err := d.index(t, key)
	if err != nil {
		return nil, err
	}
	return d.at(i), nil
}

// PySetItem is d[i] = v.
func (d *deque) PySetItem(t *python.Thread, key, v obj) error {
	i, err := d.index(t, key)
	if err != nil {
		return err
	}
	d.set(i, v)
	return nil
}

// PyDelItem is del d[i].
func (d *deque) PyDelItem(t *python.Thread, key obj) error {
	i, err := d.index(t, key)
	if err != nil {
		return err
	}
	d.delAt(i)
	return nil
}

func (d *deque) delAt(i int) {
	items := d.items()
	items = append(items[:i], items[i+1:]...)
	d.reset(items)
}

func (d *deque) reset(items []obj) {
	size := 8
	for size < len(items) {
		size *= 2
	}
	d.buf = make([]obj, size)
	copy(d.buf, items)
	d.head, d.n = 0, len(items)
	d.state++
}

// PyContains is x in d.
func (d *deque) PyContains(t *python.Thread, x obj) (bool, error) {
	st := d.state
	for i := 0; i < d.n; i++ {
		v := d.at(i)
		eq, err := eqOrIs(t, v, x)
		if err != nil {
			return false, err
		}
		if st != d.state {
			return false, python.Errorf(python.RuntimeErrorType, "deque mutated during iteration")
		}
		if eq {
			return true, nil
		}
	}
	return false, nil
}

// PyRepr renders deque([1, 2], maxlen=3).
func (d *deque) PyRepr(t *python.Thread) (string, error) {
	return d.repr(t, d, "deque")
}

func (d *deque) repr(t *python.Thread, self obj, name string) (string, error) {
	if !d.st.reprs.enter(d) {
		return "[...]", nil
	}
	defer d.st.reprs.leave(d)
	body, err := python.ReprItems(t, d, "[", "]", d.items())
	if err != nil {
		return "", err
	}
	if d.maxlen >= 0 {
		return name + "(" + body + ", maxlen=" + strconv.Itoa(d.maxlen) + ")", nil
	}
	return name + "(" + body + ")", nil
}

// PyCompare compares deques as sequences.
func (d *deque) PyCompare(t *python.Thread, op python.CmpOp, other obj) (obj, error) {
	o, ok := python.Unwrap(other).(*deque)
	if !ok {
		return python.NotImplemented, nil
	}
	if op == python.CmpEq || op == python.CmpNe {
		if d.n != o.n {
			return python.MakeBool(op == python.CmpNe), nil
		}
	}
	return python.Compare(t, op, python.NewList(d.items()), python.NewList(o.items()))
}

// PyBinary implements d + other, d * n and n * d.
func (d *deque) PyBinary(t *python.Thread, op syntax.Operator, other obj, reflected bool) (obj, error) {
	var self obj = d
	if d.owner != nil {
		self = d.owner
	}
	return d.st.dequeBinary(t, self, d, op, other, reflected)
}

func (st *state) dequeBinary(t *python.Thread, self obj, d *deque, op syntax.Operator, other obj, reflected bool) (obj, error) {
	switch op {
	case syntax.Add:
		if reflected {
			return python.NotImplemented, nil
		}
		o, ok := python.Unwrap(other).(*deque)
		if !ok {
			return nil, python.Errorf(python.TypeErrorType, "can only concatenate deque (not \"%s\") to deque", python.TypeName(other))
		}
		r, err := st.dequeCopy(t, self)
		if err != nil {
			return nil, err
		}
		rd := python.Unwrap(r).(*deque)
		return r, rd.extend(t, python.NewList(o.items()), false)
	case syntax.Mult:
		n, ok, err := python.IndexValue(t, other)
		if err != nil {
			return nil, err
		}
		if !ok {
			if reflected {
				return python.NotImplemented, nil
			}
			return nil, python.Errorf(python.TypeErrorType, "can't multiply sequence by non-int of type '%s'", python.TypeName(other))
		}
		r, err := st.dequeCopy(t, self)
		if err != nil {
			return nil, err
		}
		return r, python.Unwrap(r).(*deque).repeat(t, n)
	}
	return python.NotImplemented, nil
}

// repeat makes d its items n times over (keeping the last maxlen).
func (d *deque) repeat(t *python.Thread, n int64) error {
	items := d.items()
	if n <= 0 || len(items) == 0 {
		d.clear()
		return nil
	}
	total := int64(len(items)) * n
	if n > 1<<40 || total > 1<<40 {
		return t.CheckSize(1 << 62)
	}
	if d.maxlen >= 0 && total > int64(d.maxlen) {
		total = int64(d.maxlen)
	}
	if err := t.CheckSize(total * 16); err != nil {
		return err
	}
	out := make([]obj, 0, total)
	// The last total items of items repeated n times.
	full := int64(len(items)) * n
	for i := full - total; i < full; i++ {
		out = append(out, items[i%int64(len(items))])
	}
	d.reset(out)
	return nil
}

// PyInplace implements d += iterable and d *= n.
func (d *deque) PyInplace(t *python.Thread, op syntax.Operator, other obj) (obj, error) {
	switch op {
	case syntax.Add:
		return d, d.extend(t, other, false)
	case syntax.Mult:
		n, ok, err := python.IndexValue(t, other)
		if err != nil {
			return nil, err
		}
		if !ok {
			return python.NotImplemented, nil
		}
		return d, d.repeat(t, n)
	}
	return python.NotImplemented, nil
}

// dequeCopy is d.copy(): the same type with the same maxlen.
func (st *state) dequeCopy(t *python.Thread, self obj) (obj, error) {
	d := python.Unwrap(self).(*deque)
	if _, ok := self.(*deque); ok {
		c := &deque{st: st, maxlen: d.maxlen}
		c.reset(d.items())
		return c, nil
	}
	args := []obj{self}
	if d.maxlen >= 0 {
		args = append(args, python.MakeInt(int64(d.maxlen)))
	}
	return python.Call(t, self.Type(), args, nil)
}

type dequeIter struct {
	ident
	typ   *python.Type
	d     *deque
	i     int
	state uint64
	rev   bool
}

func (it *dequeIter) Type() *python.Type { return it.typ }

func (it *dequeIter) Next(*python.Thread) (obj, error) {
	d := it.d
	if d == nil {
		return nil, nil
	}
	if d.state != it.state {
		it.d = nil
		return nil, python.Errorf(python.RuntimeErrorType, "deque mutated during iteration")
	}
	if it.i >= d.n {
		it.d = nil
		return nil, nil
	}
	var v obj
	if it.rev {
		v = d.at(d.n - 1 - it.i)
	} else {
		v = d.at(it.i)
	}
	it.i++
	return v, nil
}

// dequeOf returns the deque behind a method's receiver.
func dequeOf(x obj) *deque {
	d, _ := python.Unwrap(x).(*deque)
	return d
}

// noArgs and oneArg check the arguments of the C methods.
func noArgs(fn string, args []obj, kwargs []kwarg) error {
	if len(kwargs) > 0 {
		return python.Errorf(python.TypeErrorType, "%s() takes no keyword arguments", fn)
	}
	if len(args) != 1 {
		return python.Errorf(python.TypeErrorType, "%s() takes no arguments (%d given)", fn, len(args)-1)
	}
	return nil
}

func oneArg(fn string, args []obj, kwargs []kwarg) error {
	if len(kwargs) > 0 {
		return python.Errorf(python.TypeErrorType, "%s() takes no keyword arguments", fn)
	}
	if len(args) != 2 {
		return python.Errorf(python.TypeErrorType, "%s() takes exactly one argument (%d given)", fn, len(args)-1)
	}
	return nil
}

// dequeInit parses deque(iterable, maxlen) into d.
func (st *state) dequeInit(t *python.Thread, d *deque, args []obj, kwargs []kwarg) error {
	if len(args) > 2 {
		return python.Errorf(python.TypeErrorType, "deque() takes at most 2 arguments (%d given)", len(args))
	}
	var iterable, maxlen obj
	if len(args) > 0 {
		iterable = args[0]
	}
	if len(args) > 1 {
		maxlen = args[1]
	}
	for _, kw := range kwargs {
		switch kw.Name {
		case "iterable":
			if iterable != nil {
				return python.Errorf(python.TypeErrorType, "argument for deque() given by name ('iterable') and position (1)")
			}
			iterable = kw.Value
		case "maxlen":
			if maxlen != nil {
				return python.Errorf(python.TypeErrorType, "argument for deque() given by name ('maxlen') and position (2)")
			}
			maxlen = kw.Value
		default:
			return python.Errorf(python.TypeErrorType, "'%s' is an invalid keyword argument for deque()", kw.Name)
		}
	}
	d.maxlen = -1
	if maxlen != nil && maxlen != python.None {
		v, ok := python.IntValue(maxlen)
		if !ok {
			return python.Errorf(python.TypeErrorType, "an integer is required")
		}
		n, ok := python.AsInt64(v)
		if !ok {
			return python.Errorf(python.OverflowErrorType, "Python int too large to convert to C ssize_t")
		}
		if n < 0 {
			return python.Errorf(python.ValueErrorType, "maxlen must be non-negative")
		}
		d.maxlen = int(n)
	}
	if d.n > 0 {
		d.clear()
	}
	if iterable != nil {
		return d.extend(t, iterable, false)
	}
	return nil
}

// hasUserInit reports whether a subclass of deque defines __init__.
func hasUserInit(cls, stop *python.Type) bool { return userDefines(cls, stop, "__init__") }

func (st *state) makeDeque() {
	var c *python.Type
	c = python.NewBuiltinType("deque", "collections", nil, func(t *python.Thread, cls *python.Type, args []obj, kwargs []kwarg) (obj, error) {
		d := &deque{st: st, maxlen: -1}
		if cls == c {
			return d, st.dequeInit(t, d, args, kwargs)
		}
		inst := python.NewInstance(cls, d)
		d.owner = inst
		if !hasUserInit(cls, c) {
			return inst, st.dequeInit(t, d, args, kwargs)
		}
		return inst, nil
	})
	st.deque = c
	st.dequeIter = python.NewBuiltinType("_deque_iterator", "collections", nil, nil)
	st.dequeRevIter = python.NewBuiltinType("_deque_reverse_iterator", "collections", nil, nil)
	for _, it := range []*python.Type{st.dequeIter, st.dequeRevIter} {
		it.SetFinal()
		it.AddMethod("__iter__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) { return args[0], nil })
		it.AddMethod("__next__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			v, err := args[0].(*dequeIter).Next(t)
			if err == nil && v == nil {
				err = python.NewException(python.StopIterationType)
			}
			return v, err
		})
	}
	c.SetAttr("__hash__", python.None)
	c.AddMethod("__init__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		return python.None, st.dequeInit(t, dequeOf(args[0]), args[1:], kwargs)
	})
	c.AddMethod("append", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if err := oneArg("deque.append", args, kwargs); err != nil {
			return nil, err
		}
		return python.None, dequeOf(args[0]).pushBack(t, args[1])
	})
	c.AddMethod("appendleft", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if err := oneArg("deque.appendleft", args, kwargs); err != nil {
			return nil, err
		}
		return python.None, dequeOf(args[0]).pushFront(t, args[1])
	})
	pop := func(name string, left bool) {
		c.AddMethod(name, func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if err := noArgs("deque."+name, args, kwargs); err != nil {
				return nil, err
			}
			d := dequeOf(args[0])
			var v obj
			if left {
				v = d.popFront()
			} else {
				v = d.popBack()
			}
			if v == nil {
				return nil, python.Errorf(python.IndexErrorType, "pop from an empty deque")
			}
			return v, nil
		})
	}
	pop("pop", false)
	pop("popleft", true)
	c.AddMethod("extend", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if err := oneArg("deque.extend", args, kwargs); err != nil {
			return nil, err
		}
		return python.None, dequeOf(args[0]).extend(t, args[1], false)
	})
	c.AddMethod("extendleft", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if err := oneArg("deque.extendleft", args, kwargs); err != nil {
			return nil, err
		}
		return python.None, dequeOf(args[0]).extend(t, args[1], true)
	})
	c.AddMethod("rotate", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if len(kwargs) > 0 {
			return nil, python.Errorf(python.TypeErrorType, "deque.rotate() takes no keyword arguments")
		}
		if len(args) > 2 {
			return nil, python.Errorf(python.TypeErrorType, "deque.rotate expected at most 1 argument, got %d", len(args)-1)
		}
		k := int64(1)
		if len(args) == 2 {
			var err error
			if k, err = python.ArgInt(t, "rotate", args[1]); err != nil {
				return nil, err
			}
		}
		dequeOf(args[0]).rotate(k)
		return python.None, nil
	})
	c.AddMethod("count", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if err := oneArg("deque.count", args, kwargs); err != nil {
			return nil, err
		}
		d := dequeOf(args[0])
		st := d.state
		n := int64(0)
		for i := 0; i < d.n; i++ {
			eq, err := eqOrIs(t, d.at(i), args[1])
			if err != nil {
				return nil, err
			}
			if st != d.state {
				return nil, python.Errorf(python.RuntimeErrorType, "deque mutated during iteration")
			}
			if eq {
				n++
			}
		}
		return python.MakeInt(n), nil
	})
	c.AddMethod("index", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if len(kwargs) > 0 {
			return nil, python.Errorf(python.TypeErrorType, "index() takes no keyword arguments")
		}
		if len(args) < 2 || len(args) > 4 {
			if len(args) < 2 {
				return nil, python.Errorf(python.TypeErrorType, "index() takes at least 1 argument (0 given)")
			}
			return nil, python.Errorf(python.TypeErrorType, "index() takes at most 3 arguments (%d given)", len(args)-1)
		}
		d := dequeOf(args[0])
		start, stop := int64(0), int64(d.n)
		bound := func(x obj) (int64, error) {
			n, err := python.ArgInt(t, "index", x)
			if err != nil {
				return 0, err
			}
			if n < 0 {
				n += int64(d.n)
				if n < 0 {
					n = 0
				}
			}
			return min(n, int64(d.n)), nil
		}
		var err error
		if len(args) > 2 {
			if start, err = bound(args[2]); err != nil {
				return nil, err
			}
		}
		if len(args) > 3 {
			if stop, err = bound(args[3]); err != nil {
				return nil, err
			}
		}
		st := d.state
		for i := start; i < stop && i < int64(d.n); i++ {
			eq, err := eqOrIs(t, d.at(int(i)), args[1])
			if err != nil {
				return nil, err
			}
			if st != d.state {
				return nil, python.Errorf(python.RuntimeErrorType, "deque mutated during iteration")
			}
			if eq {
				return python.MakeInt(i), nil
			}
		}
		r, err := python.Repr(t, args[1])
		if err != nil {
			return nil, err
		}
		return nil, python.Errorf(python.ValueErrorType, "%s is not in deque", r)
	})
	c.AddMethod("remove", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if err := oneArg("deque.remove", args, kwargs); err != nil {
			return nil, err
		}
		d := dequeOf(args[0])
		st := d.state
		for i := 0; i < d.n; i++ {
			eq, err := eqOrIs(t, d.at(i), args[1])
			if err != nil {
				return nil, err
			}
			if st != d.state {
				return nil, python.Errorf(python.IndexErrorType, "deque mutated during remove().")
			}
			if eq {
				d.delAt(i)
				return python.None, nil
			}
		}
		r, err := python.Repr(t, args[1])
		if err != nil {
			return nil, err
		}
		return nil, python.Errorf(python.ValueErrorType, "%s is not in deque", r)
	})
	c.AddMethod("insert", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if len(kwargs) > 0 {
			return nil, python.Errorf(python.TypeErrorType, "insert() takes no keyword arguments")
		}
		if len(args) != 3 {
			return nil, python.Errorf(python.TypeErrorType, "insert() takes exactly 2 arguments (%d given)", len(args)-1)
		}
		d := dequeOf(args[0])
		i, err := python.ArgInt(t, "insert", args[1])
		if err != nil {
			return nil, err
		}
		if d.maxlen >= 0 && d.n >= d.maxlen {
			return nil, python.Errorf(python.IndexErrorType, "deque already at its maximum size")
		}
		if i < 0 {
			i += int64(d.n)
			if i < 0 {
				i = 0
			}
		}
		if i > int64(d.n) {
			i = int64(d.n)
		}
		if err := t.CheckSize(int64(d.n+1) * 16); err != nil {
			return nil, err
		}
		items := d.items()
		items = append(items[:i], append([]obj{args[2]}, items[i:]...)...)
		d.reset(items)
		return python.None, nil
	})
	c.AddMethod("reverse", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if err := noArgs("deque.reverse", args, kwargs); err != nil {
			return nil, err
		}
		d := dequeOf(args[0])
		items := d.items()
		for i, j := 0, len(items)-1; i < j; i, j = i+1, j-1 {
			items[i], items[j] = items[j], items[i]
		}
		d.reset(items)
		return python.None, nil
	})
	c.AddMethod("clear", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if err := noArgs("deque.clear", args, kwargs); err != nil {
			return nil, err
		}
		dequeOf(args[0]).clear()
		return python.None, nil
	})
	c.AddMethod("copy", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if err := noArgs("deque.copy", args, kwargs); err != nil {
			return nil, err
		}
		return st.dequeCopy(t, args[0])
	})
	c.AddMethod("__copy__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		return st.dequeCopy(t, args[0])
	})
	c.AddMethod("__reversed__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		d := dequeOf(args[0])
		return &dequeIter{d: d, state: d.state, rev: true, typ: st.dequeRevIter}, nil
	})
	c.AddMethod("__iter__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		return dequeOf(args[0]).PyIter(t)
	})
	c.AddMethod("__len__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		return python.MakeInt(int64(dequeOf(args[0]).n)), nil
	})
	c.AddMethod("__getitem__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if err := wrapperArgs(args, kwargs, 1); err != nil {
			return nil, err
		}
		return dequeOf(args[0]).PyGetItem(t, args[1])
	})
	c.AddMethod("__contains__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if err := wrapperArgs(args, kwargs, 1); err != nil {
			return nil, err
		}
		b, err := dequeOf(args[0]).PyContains(t, args[1])
		return python.MakeBool(b), err
	})
	c.AddMethod("__repr__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		s, err := dequeOf(args[0]).repr(t, args[0], typeName(args[0]))
		return python.NewStr(s), err
	})
	// str(d) is repr(d), with the class's name for a subclass.
	c.AddMethod("__str__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		s, err := dequeOf(args[0]).repr(t, args[0], typeName(args[0]))
		return python.NewStr(s), err
	})
	c.AddMethod("__add__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if err := wrapperArgs(args, kwargs, 1); err != nil {
			return nil, err
		}
		return st.dequeBinary(t, args[0], dequeOf(args[0]), syntax.Add, args[1], false)
	})
	c.AddMethod("__mul__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if err := wrapperArgs(args, kwargs, 1); err != nil {
			return nil, err
		}
		return st.dequeBinary(t, args[0], dequeOf(args[0]), syntax.Mult, args[1], false)
	})
	c.AddMethod("__iadd__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if err := wrapperArgs(args, kwargs, 1); err != nil {
			return nil, err
		}
		if err := dequeOf(args[0]).extend(t, args[1], false); err != nil {
			return nil, err
		}
		return args[0], nil
	})
	c.AddMethod("__reduce__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		d := dequeOf(args[0])
		var state obj = python.None
		if inst, ok := args[0].(*python.Instance); ok && inst.Attrs().Len() > 0 {
			state = inst.Attrs()
		}
		cargs := python.NewTuple(nil)
		if d.maxlen >= 0 {
			cargs = python.NewTuple([]obj{python.NewTuple(nil), python.MakeInt(int64(d.maxlen))})
		}
		it, err := d.PyIter(t)
		if err != nil {
			return nil, err
		}
		return python.NewTuple([]obj{args[0].Type(), cargs, state, it}), nil
	})
	c.AddGetSet("maxlen", func(t *python.Thread, x obj) (obj, error) {
		d := dequeOf(x)
		if d.maxlen < 0 {
			return python.None, nil
		}
		return python.MakeInt(int64(d.maxlen)), nil
	}, nil)
	c.AddClassMethod("__class_getitem__", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if err := wrapperArgs(args, kwargs, 1); err != nil {
			return nil, err
		}
		return python.NewGenericAlias(args[0], args[1]), nil
	})
	i := infoOf(st.abc["MutableSequence"])
	i.registry = append(i.registry, c)
}

// wrapperArgs checks the arguments of a special method of a built-in type
// called directly (CPython's slot wrappers).
func wrapperArgs(args []obj, kwargs []kwarg, n int) error {
	if len(kwargs) > 0 {
		return python.Errorf(python.TypeErrorType, "expected %d argument%s, got %d", n, plural(n), len(args)-1+len(kwargs))
	}
	if len(args)-1 != n {
		return python.Errorf(python.TypeErrorType, "expected %d argument%s, got %d", n, plural(n), len(args)-1)
	}
	return nil
}
