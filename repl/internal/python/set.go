package python

// Set is a Python set or frozenset. Its hash table follows CPython's layout
// (open addressing with the same probe sequence, fill and resize rules), so
// iteration order, and so printed sets, are CPython's.
type Set struct {
	identity
	frozen  bool
	cls     *Type
	table   []setEntry
	mask    int
	fill    int // active and dummy slots
	used    int // active slots
	finger  int // where pop looks next
	version uint64
	hash    int64
	hashed  bool
}

type setEntry struct {
	key  Object // nil: unused; setDummy: deleted
	hash int64
}

type dummyKey struct{}

func (dummyKey) Type() *Type { return ObjectType }

var setDummy Object = dummyKey{}

const (
	setMinSize    = 8
	linearProbes  = 9
	perturbShift  = 5
	setDummyHash  = -1
	setBigGrowth  = 50000
	setEntryBytes = 24
)

// NewSet returns an empty set (frozen: a frozenset).
func NewSet(frozen bool) *Set {
	return &Set{frozen: frozen, table: make([]setEntry, setMinSize), mask: setMinSize - 1}
}

// Type returns set or frozenset (or the subclass).
func (s *Set) Type() *Type {
	if s.cls != nil {
		return s.cls
	}
	if s.frozen {
		return FrozenSetType
	}
	return SetType
}

// Len returns the number of elements.
func (s *Set) Len() int { return s.used }

func keyEq(t *Thread, a, b Object) (bool, error) {
	if identical(a, b) { // identity first, as CPython (a NaN finds itself)
		return true, nil
	}
	if x, ok := a.(*Str); ok {
		if y, ok := b.(*Str); ok {
			return x.s == y.s, nil
		}
	}
	return Equal(t, a, b)
}

// addEntry inserts key with its hash (set_add_entry).
func (s *Set) addEntry(t *Thread, key Object, hash int64) error {
restart:
	mask := s.mask
	i := int(uint64(hash) & uint64(mask))
	free := -1
	perturb := uint64(hash)
	for {
		probes := 0
		if i+linearProbes <= mask {
			probes = linearProbes
		}
		j := i
		for {
			e := &s.table[j]
			if e.key == nil {
				if free >= 0 {
					s.table[free] = setEntry{key, hash}
					s.used++
					s.version++
					return nil
				}
				*e = setEntry{key, hash}
				s.fill++
				s.used++
				s.version++
				if s.fill*5 < mask*3 {
					return nil
				}
				n := s.used * 4
				if s.used > setBigGrowth {
					n = s.used * 2
				}
				return s.resize(t, n)
			}
			if e.hash == hash && e.key != setDummy {
				start := e.key
				table := s.table
				eq, err := keyEq(t, start, key)
				if err != nil {
					return err
				}
				if eq {
					return nil
				}
				if &table[0] != &s.table[0] || !identical(s.table[j].key, start) {
					goto restart
				}
			} else if e.key == setDummy && free < 0 {
				free = j
			}
			if probes == 0 {
				break
			}
			probes--
			j++
		}
		perturb >>= perturbShift
		i = (i*5 + 1 + int(perturb)) & mask
	}
}

// insertClean puts a key known to be absent into a table without dummies.
func insertClean(table []setEntry, mask int, key Object, hash int64) {
	perturb := uint64(hash)
	i := int(uint64(hash) & uint64(mask))
	for {
		if table[i].key == nil {
			table[i] = setEntry{key, hash}
			return
		}
		if i+linearProbes <= mask {
			for j := 1; j <= linearProbes; j++ {
				if table[i+j].key == nil {
					table[i+j] = setEntry{key, hash}
					return
				}
			}
		}
		perturb >>= perturbShift
		i = (i*5 + 1 + int(perturb)) & mask
	}
}

func (s *Set) resize(t *Thread, minUsed int) error {
	n := setMinSize
	for n <= minUsed {
		n <<= 1
	}
	if t != nil {
		if err := t.grow(int64(n) * setEntryBytes); err != nil {
			return err
		}
	}
	old := s.table
	s.table = make([]setEntry, n)
	s.mask = n - 1
	s.fill = s.used
	for _, e := range old {
		if e.key != nil && e.key != setDummy {
			insertClean(s.table, s.mask, e.key, e.hash)
		}
	}
	s.version++
	return nil
}

// lookup returns the slot holding key, or -1.
func (s *Set) lookup(t *Thread, key Object, hash int64) (int, error) {
restart:
	mask := s.mask
	i := int(uint64(hash) & uint64(mask))
	perturb := uint64(hash)
	for {
		probes := 0
		if i+linearProbes <= mask {
			probes = linearProbes
		}
		j := i
		for {
			e := &s.table[j]
			if e.key == nil {
				return -1, nil
			}
			if e.hash == hash && e.key != setDummy {
				start := e.key
				table := s.table
				eq, err := keyEq(t, start, key)
				if err != nil {
					return -1, err
				}
				if eq {
					return j, nil
				}
				if &table[0] != &s.table[0] || !identical(s.table[j].key, start) {
					goto restart
				}
			}
			if probes == 0 {
				break
			}
			probes--
			j++
		}
		perturb >>= perturbShift
		i = (i*5 + 1 + int(perturb)) & mask
	}
}

// Add adds key.
func (s *Set) Add(t *Thread, key Object) error {
	h, err := Hash(t, key)
	if err != nil {
		return err
	}
	return s.addEntry(t, key, h)
}

// Contains reports whether key is in s.
func (s *Set) Contains(t *Thread, key Object) (bool, error) {
	h, err := Hash(t, key)
	if err != nil {
		// A set as a key is looked up as the equal frozenset.
		if ks, ok := key.(*Set); ok && !ks.frozen {
			return s.Contains(t, ks.frozenCopy(t))
		}
		return false, err
	}
	i, err := s.lookup(t, key, h)
	return i >= 0, err
}

func (s *Set) containsEntry(t *Thread, key Object, hash int64) (bool, error) {
	i, err := s.lookup(t, key, hash)
	return i >= 0, err
}

// Discard removes key; found reports whether it was there.
func (s *Set) Discard(t *Thread, key Object) (bool, error) {
	h, err := Hash(t, key)
	if err != nil {
		if ks, ok := key.(*Set); ok && !ks.frozen {
			return s.Discard(t, ks.frozenCopy(t))
		}
		return false, err
	}
	return s.discardEntry(t, key, h)
}

func (s *Set) discardEntry(t *Thread, key Object, hash int64) (bool, error) {
	i, err := s.lookup(t, key, hash)
	if err != nil || i < 0 {
		return false, err
	}
	s.table[i] = setEntry{setDummy, setDummyHash}
	s.used--
	s.version++
	return true, nil
}

// Pop removes and returns an arbitrary element (CPython's choice).
func (s *Set) Pop() (Object, bool) {
	if s.used == 0 {
		return nil, false
	}
	i := s.finger & s.mask
	for s.table[i].key == nil || s.table[i].key == setDummy {
		i++
		if i > s.mask {
			i = 0
		}
	}
	k := s.table[i].key
	s.table[i] = setEntry{setDummy, setDummyHash}
	s.used--
	s.finger = i + 1
	s.version++
	return k, true
}

// Clear empties s.
func (s *Set) Clear() {
	s.table = make([]setEntry, setMinSize)
	s.mask = setMinSize - 1
	s.fill, s.used = 0, 0
	s.version++
}

// Items calls f for each element in table order.
func (s *Set) Items(f func(k Object) bool) {
	for _, e := range s.table {
		if e.key != nil && e.key != setDummy && !f(e.key) {
			return
		}
	}
}

// Elems returns the elements in iteration order.
func (s *Set) Elems() []Object {
	out := make([]Object, 0, s.used)
	s.Items(func(k Object) bool { out = append(out, k); return true })
	return out
}

// merge adds every element of o (set_merge).
func (s *Set) merge(t *Thread, o *Set) error {
	if o == s || o.used == 0 {
		return nil
	}
	if (s.fill+o.used)*5 >= s.mask*3 {
		if err := s.resize(t, (s.used+o.used)*2); err != nil {
			return err
		}
	}
	if s.fill == 0 && s.mask == o.mask && o.fill == o.used {
		copy(s.table, o.table)
		s.fill, s.used = o.fill, o.used
		s.version++
		return nil
	}
	if s.fill == 0 {
		s.fill, s.used = o.used, o.used
		for _, e := range o.table {
			if e.key != nil && e.key != setDummy {
				insertClean(s.table, s.mask, e.key, e.hash)
			}
		}
		s.version++
		return nil
	}
	for i := 0; i <= o.mask; i++ {
		e := o.table[i]
		if e.key != nil && e.key != setDummy {
			if err := s.addEntry(t, e.key, e.hash); err != nil {
				return err
			}
		}
	}
	return nil
}

// Update adds every element of an iterable (set_update_internal).
func (s *Set) Update(t *Thread, it Object) error {
	switch o := it.(type) {
	case *Set:
		return s.merge(t, o)
	case *Dict:
		if o.cls == nil {
			n := o.Len()
			if (s.fill+n)*5 >= s.mask*3 {
				if err := s.resize(t, (s.used+n)*2); err != nil {
					return err
				}
			}
			for _, k := range o.Keys() {
				if err := s.Add(t, k); err != nil {
					return err
				}
			}
			return nil
		}
	}
	return Iterate(t, it, func(k Object) error { return s.Add(t, k) })
}

// copySet returns a copy with the same kind (set_copy).
func (s *Set) copySet(t *Thread, frozen bool) *Set {
	c := NewSet(frozen)
	_ = c.merge(t, s)
	return c
}

func (s *Set) frozenCopy(t *Thread) *Set { return s.copySet(t, true) }

// union returns s | o.
func (s *Set) union(t *Thread, o Object) (*Set, error) {
	r := s.copySet(t, s.frozen)
	if o == Object(s) {
		return r, nil
	}
	return r, r.Update(t, o)
}

// intersection returns s & o (set_intersection).
func (s *Set) intersection(t *Thread, o Object) (*Set, error) {
	if o == Object(s) {
		return s.copySet(t, s.frozen), nil
	}
	r := NewSet(s.frozen)
	if os, ok := o.(*Set); ok {
		big, small := s, os
		if os.used > s.used {
			big, small = os, s
		}
		for _, e := range small.snapshot() {
			in, err := big.containsEntry(t, e.key, e.hash)
			if err != nil {
				return nil, err
			}
			if in {
				if err := r.addEntry(t, e.key, e.hash); err != nil {
					return nil, err
				}
			}
		}
		return r, nil
	}
	err := Iterate(t, o, func(k Object) error {
		h, err := Hash(t, k)
		if err != nil {
			return err
		}
		in, err := s.containsEntry(t, k, h)
		if err != nil || !in {
			return err
		}
		return r.addEntry(t, k, h)
	})
	return r, err
}

func (s *Set) snapshot() []setEntry {
	out := make([]setEntry, 0, s.used)
	for _, e := range s.table {
		if e.key != nil && e.key != setDummy {
			out = append(out, e)
		}
	}
	return out
}

// differenceUpdate removes o's elements from s.
func (s *Set) differenceUpdate(t *Thread, o Object) error {
	if o == Object(s) {
		s.Clear()
		return nil
	}
	if os, ok := o.(*Set); ok {
		for _, e := range os.snapshot() {
			if _, err := s.discardEntry(t, e.key, e.hash); err != nil {
				return err
			}
		}
	} else if err := Iterate(t, o, func(k Object) error { _, err := s.Discard(t, k); return err }); err != nil {
		return err
	}
	if s.fill-s.used <= s.mask/4 {
		return nil
	}
	n := s.used * 4
	if s.used > setBigGrowth {
		n = s.used * 2
	}
	return s.resize(t, n)
}

// difference returns s - o (set_difference).
func (s *Set) difference(t *Thread, o Object) (*Set, error) {
	var osize int
	switch x := o.(type) {
	case *Set:
		osize = x.used
	case *Dict:
		osize = x.Len()
	default:
		r := s.copySet(t, s.frozen)
		return r, r.differenceUpdate(t, o)
	}
	if s.used>>2 > osize {
		r := s.copySet(t, s.frozen)
		return r, r.differenceUpdate(t, o)
	}
	r := NewSet(s.frozen)
	for _, e := range s.snapshot() {
		var in bool
		var err error
		if os, ok := o.(*Set); ok {
			in, err = os.containsEntry(t, e.key, e.hash)
		} else {
			_, in, err = o.(*Dict).Get(t, e.key)
		}
		if err != nil {
			return nil, err
		}
		if !in {
			if err := r.addEntry(t, e.key, e.hash); err != nil {
				return nil, err
			}
		}
	}
	return r, nil
}

// symmetricDifferenceUpdate makes s the elements in exactly one of s, o.
func (s *Set) symmetricDifferenceUpdate(t *Thread, o Object) error {
	if o == Object(s) {
		s.Clear()
		return nil
	}
	os, ok := o.(*Set)
	if !ok {
		os = NewSet(false)
		if err := os.Update(t, o); err != nil {
			return err
		}
	}
	for _, e := range os.snapshot() {
		found, err := s.discardEntry(t, e.key, e.hash)
		if err != nil {
			return err
		}
		if !found {
			if err := s.addEntry(t, e.key, e.hash); err != nil {
				return err
			}
		}
	}
	return nil
}

// symmetricDifference returns s ^ o.
func (s *Set) symmetricDifference(t *Thread, o Object) (*Set, error) {
	r := NewSet(s.frozen)
	if err := r.Update(t, o); err != nil {
		return nil, err
	}
	return r, r.symmetricDifferenceUpdate(t, s)
}

// frozenHash returns hash(frozenset).
func (s *Set) frozenHash() int64 {
	if !s.hashed {
		hs := make([]int64, 0, s.used)
		for _, e := range s.table {
			if e.key != nil && e.key != setDummy {
				hs = append(hs, e.hash)
			}
		}
		s.hash = hashFrozenSetOf(hs)
		s.hashed = true
	}
	return s.hash
}
