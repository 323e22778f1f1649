package python

import (
	"maps"
	"math"
	"slices"
)

// Dict is a Python dict: insertion-ordered, keyed by Python hash and
// equality (1, 1.0 and True are one key). Str keys and int-valued keys have
// Go-map fast paths; other keys are kept by their Python hash.
type Dict struct {
	identity
	cls     *Type // nil for a plain dict; a native subclass (Counter, defaultdict, OrderedDict)
	entries []dictEntry
	live    int
	strs    map[string]int32
	// shared: entries and strs are shared with other dicts (the builtins
	// of every interpreter) and are copied before this dict changes any
	// entry (Dict.own).
	shared  bool
	ints    map[int64]int32
	others  map[int64][]int32
	version uint64 // changes when keys are added or removed
	// missing, for defaultdict and Counter, supplies a missing key's value.
	missing func(t *Thread, d *Dict, key Object) (Object, error)
	// extra is a subclass's own state (defaultdict's factory).
	extra any
}

// smallDict is how many entries a dict may hold and still find its str
// keys by scanning them: the str index (a Go map, a few hundred bytes) is
// built with the first str key that is not an exact str or when the dict
// grows past this. Small dicts of str keys are the common case (a dict
// display per record, keyword arguments).
const smallDict = 8

// strIndex returns the entry of str key s.
func (d *Dict) strIndex(s string) (int32, bool) {
	if d.strs != nil {
		i, ok := d.strs[s]
		return i, ok
	}
	// Small: every str key is an exact str (addStr).
	for i := range d.entries {
		if k, ok := d.entries[i].key.(*Str); ok && k.s == s {
			return int32(i), true
		}
	}
	return 0, false
}

// addStr indexes entry idx (about to be added or rebuilt) under str key
// s, whose object is key. d must be owned.
func (d *Dict) addStr(key Object, s string, idx int32) {
	if d.strs == nil {
		if _, exact := key.(*Str); exact && len(d.entries) < smallDict {
			return
		}
		d.strs = make(map[string]int32, len(d.entries)+1)
		for i, e := range d.entries {
			if k, ok := e.key.(*Str); ok {
				d.strs[k.s] = int32(i)
			}
		}
	}
	d.strs[s] = idx
}

type dictEntry struct {
	key, value Object // key nil: deleted
}

// own gives d its own copies of shared entries and str index before a
// change.
func (d *Dict) own() {
	if d.shared {
		d.entries = slices.Clone(d.entries)
		d.strs = maps.Clone(d.strs)
		d.shared = false
	}
}

// NewDict returns an empty dict with room for n entries.
func NewDict(n int) *Dict {
	return &Dict{entries: make([]dictEntry, 0, n)}
}

// newDisplayDict is NewDict for a dict display of n keys: a display of
// one to three keys (a dict per record) has its entries in the same block
// as the dict until it outgrows them. That block is no larger than the
// two apart (112 + 32n bytes).
func newDisplayDict(n int) *Dict {
	switch n {
	case 1:
		x := &struct {
			Dict
			buf [1]dictEntry
		}{}
		x.entries = x.buf[:0]
		return &x.Dict
	case 2:
		x := &struct {
			Dict
			buf [2]dictEntry
		}{}
		x.entries = x.buf[:0]
		return &x.Dict
	case 3:
		x := &struct {
			Dict
			buf [3]dictEntry
		}{}
		x.entries = x.buf[:0]
		return &x.Dict
	}
	return NewDict(n)
}

// Type returns dict or the subclass.
func (d *Dict) Type() *Type {
	if d.cls != nil {
		return d.cls
	}
	return DictType
}

// Len returns the number of items.
func (d *Dict) Len() int { return d.live }

// keyKind classifies a key for the index maps.
type keyKind uint8

const (
	keyStr keyKind = iota + 1
	keyInt
	keyOther
)

// classify returns the key's index: a str, an int64 value (ints, bools,
// floats and complexes equal to one), or the Python hash.
func classify(t *Thread, key Object) (keyKind, string, int64, error) {
	switch k := key.(type) {
	case *Str:
		return keyStr, k.s, 0, nil
	case Int:
		return keyInt, "", int64(k), nil
	case Bool:
		if k {
			return keyInt, "", 1, nil
		}
		return keyInt, "", 0, nil
	case Float:
		f := float64(k)
		if f == math.Trunc(f) && f >= -9.223372036854775808e18 && f < 9.223372036854775808e18 {
			return keyInt, "", int64(f), nil
		}
		return keyOther, "", hashFloat(f), nil
	case Complex:
		if imag(k) == 0 {
			return classify(t, Float(real(k)))
		}
	case *Instance:
		switch b := k.base.(type) {
		case *Str:
			if !k.cls.overrides("__hash__", StrType) {
				return keyStr, b.s, 0, nil
			}
		case Int:
			if !k.cls.overrides("__hash__", IntType) && !k.cls.overrides("__eq__", IntType) {
				return keyInt, "", int64(b), nil
			}
		case Bool:
			if !k.cls.overrides("__hash__", IntType) && !k.cls.overrides("__eq__", IntType) && bool(b) {
				return keyInt, "", 1, nil
			}
		}
	}
	h, err := Hash(t, key)
	if err != nil {
		return 0, "", 0, err
	}
	return keyOther, "", h, nil
}

func (d *Dict) find(t *Thread, key Object) (int, error) {
	kind, s, n, err := classify(t, key)
	if err != nil {
		return -1, err
	}
	return d.findClassified(t, key, kind, s, n)
}

// findClassified finds a classified key. A key of one kind can equal a key of another (Fraction(1) and 1, a user
// class hashing like a str): a miss in the key's own table probes the
// others by hash, as CPython's single table would.
func (d *Dict) findClassified(t *Thread, key Object, kind keyKind, s string, n int64) (int, error) {
	switch kind {
	case keyStr:
		if i, ok := d.strIndex(s); ok {
			return int(i), nil
		}
		if len(d.others) > 0 {
			return d.findOther(t, key, hashStr(s, isASCII(s)))
		}
	case keyInt:
		if i, ok := d.ints[n]; ok {
			return int(i), nil
		}
		if len(d.others) > 0 {
			return d.findOther(t, key, hashInt(n))
		}
	default:
		i, err := d.findOther(t, key, n)
		if err != nil || i >= 0 || len(d.ints) == 0 {
			return i, err
		}
		return d.findIntByHash(t, key, n)
	}
	return -1, nil
}

// findOther finds key among the keys held by hash h.
func (d *Dict) findOther(t *Thread, key Object, h int64) (int, error) {
	for _, i := range d.others[h] {
		k := d.entries[i].key
		if identical(k, key) { // identity first, as CPython (a NaN finds itself)
			return int(i), nil
		}
		eq, err := Equal(t, k, key)
		if err != nil {
			return -1, err
		}
		if eq {
			return int(i), nil
		}
	}
	return -1, nil
}

// findIntByHash finds key among the int keys whose hash is h: the int64
// values n with hash(n) == h are h + k*(2**61 - 1) for small k (and -1 when
// h is -2).
func (d *Dict) findIntByHash(t *Thread, key Object, h int64) (int, error) {
	const p = 1<<61 - 1
	try := func(c int64) (int, error) {
		i, ok := d.ints[c]
		if !ok || hashInt(c) != h {
			return -1, nil
		}
		eq, err := Equal(t, d.entries[i].key, key)
		if err != nil || !eq {
			return -1, err
		}
		return int(i), nil
	}
	var starts [2]int64
	starts[0] = h
	m := 1
	if h == -2 {
		starts[1] = -1
		m = 2
	}
	for _, c := range starts[:m] {
		for k := int64(0); k <= 4; k++ {
			var v int64
			if c >= 0 {
				if c > math.MaxInt64-k*p {
					break
				}
				v = c + k*p
			} else {
				if c < math.MinInt64+k*p {
					break
				}
				v = c - k*p
			}
			if i, err := try(v); err != nil || i >= 0 {
				return i, err
			}
		}
	}
	return -1, nil
}

// Get returns d[key] without the missing-key hook.
func (d *Dict) Get(t *Thread, key Object) (Object, bool, error) {
	i, err := d.find(t, key)
	if err != nil || i < 0 {
		return nil, false, err
	}
	return d.entries[i].value, true, nil
}

// GetStr returns d[s] for a str key.
func (d *Dict) GetStr(s string) (Object, bool) {
	if i, ok := d.strIndex(s); ok {
		return d.entries[i].value, true
	}
	return nil, false
}

// SetStr sets d[s] for a str key.
func (d *Dict) SetStr(s string, v Object) {
	if i, ok := d.strIndex(s); ok {
		d.own()
		d.entries[i].value = v
		return
	}
	d.own()
	k := NewStr(s)
	d.addStr(k, s, int32(len(d.entries)))
	d.entries = append(d.entries, dictEntry{k, v})
	d.live++
	d.version++
}

// Set sets d[key] = v.
func (d *Dict) Set(t *Thread, key, v Object) error {
	kind, s, n, err := classify(t, key)
	if err != nil {
		return err
	}
	i, err := d.findClassified(t, key, kind, s, n)
	if err != nil {
		return err
	}
	if i >= 0 {
		d.own()
		d.entries[i].value = v
		return nil
	}
	if t != nil {
		if err := t.grow(int64(len(d.entries)+1) * 48); err != nil {
			return err
		}
	}
	d.own()
	idx := int32(len(d.entries))
	switch kind {
	case keyStr:
		d.addStr(key, s, idx)
	case keyInt:
		if d.ints == nil {
			d.ints = map[int64]int32{}
		}
		d.ints[n] = idx
	default:
		if d.others == nil {
			d.others = map[int64][]int32{}
		}
		d.others[n] = append(d.others[n], idx)
	}
	d.entries = append(d.entries, dictEntry{key, v})
	d.live++
	d.version++
	return nil
}

// Delete removes key; found reports whether it was there.
func (d *Dict) Delete(t *Thread, key Object) (Object, bool, error) {
	kind, s, n, err := classify(t, key)
	if err != nil {
		return nil, false, err
	}
	i, err := d.findClassified(t, key, kind, s, n)
	if err != nil || i < 0 {
		return nil, false, err
	}
	v := d.entries[i].value
	d.own()
	switch kind {
	case keyStr:
		delete(d.strs, s)
	case keyInt:
		delete(d.ints, n)
	default:
		list := d.others[n]
		for j, x := range list {
			if int(x) == i {
				list = append(list[:j:j], list[j+1:]...)
				break
			}
		}
		if len(list) == 0 {
			delete(d.others, n)
		} else {
			d.others[n] = list
		}
	}
	d.entries[i] = dictEntry{}
	d.live--
	d.version++
	if len(d.entries) > 16 && d.live < len(d.entries)/2 {
		d.compact(t)
	}
	return v, true, nil
}

// compact drops deleted entries and rebuilds the index.
func (d *Dict) compact(t *Thread) {
	old := d.entries
	d.entries = make([]dictEntry, 0, max(d.live, 8))
	d.strs, d.ints, d.others, d.shared = nil, nil, nil, false
	d.live = 0
	v := d.version
	for _, e := range old {
		if e.key != nil {
			_ = d.Set(t, e.key, e.value) // keys were hashable before
		}
	}
	d.version = v + 1
}

// Clear removes every item.
func (d *Dict) Clear() {
	d.own()
	d.entries = d.entries[:0]
	d.strs, d.ints, d.others, d.shared = nil, nil, nil, false
	d.live = 0
	d.version++
}

// Items calls f for each item in order; f may not change d.
func (d *Dict) Items(f func(k, v Object) bool) {
	for _, e := range d.entries {
		if e.key != nil && !f(e.key, e.value) {
			return
		}
	}
}

// Keys returns the keys in order.
func (d *Dict) Keys() []Object {
	out := make([]Object, 0, d.live)
	for _, e := range d.entries {
		if e.key != nil {
			out = append(out, e.key)
		}
	}
	return out
}

// Copy returns a shallow copy with the same class hooks.
func (d *Dict) Copy() *Dict {
	c := &Dict{entries: make([]dictEntry, 0, d.live)}
	for _, e := range d.entries {
		if e.key != nil {
			c.entries = append(c.entries, e)
		}
	}
	c.live = d.live
	c.reindex()
	return c
}

func (d *Dict) reindex() {
	d.strs, d.ints, d.others, d.shared = nil, nil, nil, false
	for i, e := range d.entries {
		kind, s, n, _ := classify(nil, e.key)
		switch kind {
		case keyStr:
			d.addStr(e.key, s, int32(i))
		case keyInt:
			if d.ints == nil {
				d.ints = map[int64]int32{}
			}
			d.ints[n] = int32(i)
		default:
			if d.others == nil {
				d.others = map[int64][]int32{}
			}
			d.others[n] = append(d.others[n], int32(i))
		}
	}
}

// PopLast removes and returns the last item (dict.popitem).
func (d *Dict) PopLast(t *Thread) (Object, Object, bool) {
	for i := len(d.entries) - 1; i >= 0; i-- {
		if e := d.entries[i]; e.key != nil {
			_, _, _ = d.Delete(t, e.key)
			d.reindexIfTrimmed()
			return e.key, e.value, true
		}
	}
	return nil, nil, false
}

func (d *Dict) reindexIfTrimmed() {
	// Trailing deleted entries may be cut; indexes of earlier entries are
	// unchanged, so nothing to rebuild.
	for len(d.entries) > 0 && d.entries[len(d.entries)-1].key == nil {
		d.entries = d.entries[:len(d.entries)-1]
	}
}
