package python

import (
	"math"
	"math/big"
	"strings"
	"sync"
)

// List is a Python list.
type List struct {
	identity
	items []Object
}

// Type returns list.
func (*List) Type() *Type { return ListType }

// NewList returns a list holding items (not copied).
func NewList(items []Object) *List { return &List{items: items} }

// Items returns the list's items (shared).
func (l *List) Items() []Object { return l.items }

// Append appends x.
func (l *List) Append(x Object) { l.items = append(l.items, x) }

// Tuple is a Python tuple.
type Tuple struct {
	identity
	items  []Object
	hashed bool
	hash   int64
}

// Type returns tuple.
func (*Tuple) Type() *Type { return TupleType }

var emptyTuple = &Tuple{}

// NewTuple returns a tuple holding items (not copied).
func NewTuple(items []Object) *Tuple {
	if len(items) == 0 {
		return emptyTuple
	}
	return &Tuple{items: items}
}

// Items returns the tuple's items (shared; do not modify).
func (t *Tuple) Items() []Object { return t.items }

// Range is a Python range.
type Range struct {
	start, stop, step int64
	n                 int64
}

// Type returns range.
func (*Range) Type() *Type { return RangeType }

func (r *Range) at(i int64) int64 { return r.start + i*r.step }

// Slice is a slice object (start:stop:step).
type Slice struct {
	Start, Stop, Step Object
}

// Type returns slice.
func (*Slice) Type() *Type { return SliceType }

// Bytes is a Python bytes value.
type Bytes struct {
	identity
	b      string
	hashed bool
	hash   int64
}

// Type returns bytes.
func (*Bytes) Type() *Type { return BytesType }

// NewBytes returns b as a bytes value.
func NewBytes(b string) *Bytes { return &Bytes{b: b} }

// String returns the bytes as a Go string.
func (b *Bytes) String() string { return b.b }

// ByteArray is a Python bytearray.
type ByteArray struct {
	identity
	b []byte
}

// Type returns bytearray.
func (*ByteArray) Type() *Type { return ByteArrayType }

// indexValue returns x as an index (__index__): ints and bools.
func indexValue(t *Thread, x Object) (int64, bool, error) {
	switch v := x.(type) {
	case Int:
		return int64(v), true, nil
	case Bool:
		if v {
			return 1, true, nil
		}
		return 0, true, nil
	case *BigInt:
		return 0, true, Errorf(IndexErrorType, "cannot fit 'int' into an index-sized integer")
	case *Instance:
		if v.base != nil {
			return indexValue(t, v.base)
		}
		if m := v.cls.userMethod("__index__"); m != nil {
			r, err := callMethod(t, m, v, nil, nil)
			if err != nil {
				return 0, true, err
			}
			return indexValue(t, r)
		}
	}
	return 0, false, nil
}

// sliceIndices normalizes a slice for a sequence of length n, as
// slice.indices: start, stop, step and the number of items.
func sliceIndices(t *Thread, s *Slice, n int) (int, int, int, int, error) {
	step := int64(1)
	if s.Step != None && s.Step != nil {
		v, ok, err := bigIndexValue(t, s.Step)
		if err != nil {
			return 0, 0, 0, 0, err
		}
		if !ok {
			return 0, 0, 0, 0, Errorf(TypeErrorType, "slice indices must be integers or None or have an __index__ method")
		}
		if v == 0 {
			return 0, 0, 0, 0, Errorf(ValueErrorType, "slice step cannot be zero")
		}
		step = v
	}
	var lower, upper int64
	if step < 0 {
		lower, upper = -1, int64(n)-1
	} else {
		lower, upper = 0, int64(n)
	}
	conv := func(x Object, def int64) (int64, error) {
		if x == None || x == nil {
			return def, nil
		}
		v, ok, err := bigIndexValue(t, x)
		if err != nil {
			return 0, err
		}
		if !ok {
			return 0, Errorf(TypeErrorType, "slice indices must be integers or None or have an __index__ method")
		}
		if v < 0 {
			v += int64(n)
			if v < lower {
				v = lower
			}
		} else if v > upper {
			v = upper
		}
		return v, nil
	}
	def1, def2 := lower, upper
	if step < 0 {
		def1, def2 = upper, lower
	}
	start, err := conv(s.Start, def1)
	if err != nil {
		return 0, 0, 0, 0, err
	}
	stop, err := conv(s.Stop, def2)
	if err != nil {
		return 0, 0, 0, 0, err
	}
	var count int64
	if step < 0 {
		if stop < start {
			count = (start-stop-1)/(-step) + 1
		}
	} else if start < stop {
		count = (stop-start-1)/step + 1
	}
	return int(start), int(stop), int(step), int(count), nil
}

// bigIndexValue is indexValue that clamps big ints to the int64 range
// (slice bounds beyond any length behave alike).
func bigIndexValue(t *Thread, x Object) (int64, bool, error) {
	if b, ok := x.(*BigInt); ok {
		if b.v.Sign() < 0 {
			return math.MinInt64 / 2, true, nil
		}
		return math.MaxInt64 / 2, true, nil
	}
	return indexValue(t, x)
}

// normIndex resolves a possibly negative index for length n.
func normIndex(t *Thread, x Object, n int, what string) (int, error) {
	i, ok, err := indexValue(t, x)
	if err != nil {
		// An int past the index range: IndexError "cannot fit 'int'
		// into an index-sized integer" (a range says it is out of range).
		if what == "range object" && IsInstance(err, IndexErrorType) {
			return 0, Errorf(IndexErrorType, "range object index out of range")
		}
		return 0, err
	}
	if !ok {
		switch what {
		case "string":
			return 0, Errorf(TypeErrorType, "string indices must be integers, not '%s'", typeName(x))
		case "index":
			what = "byte"
		case "range object":
			what = "range"
		}
		what = strings.TrimSuffix(what, " assignment")
		return 0, Errorf(TypeErrorType, "%s indices must be integers or slices, not %s", what, typeName(x))
	}
	if i < 0 {
		i += int64(n)
	}
	if i < 0 || i >= int64(n) {
		if what == "index" {
			return 0, Errorf(IndexErrorType, "index out of range")
		}
		return 0, Errorf(IndexErrorType, "%s index out of range", what)
	}
	return int(i), nil
}

var _ = big.NewInt

var (
	annotatedMu    sync.Mutex
	annotatedTypes = map[string]*Type{}
)

// NewAnnotatedList returns a list with attributes: an instance of a list
// subclass named class (a search's hits, with .truncated and .total).
func NewAnnotatedList(class string, items []Object, attrs []Kwarg) Object {
	if class == "" {
		class = "list"
	}
	if class == "list" && len(attrs) == 0 {
		return NewList(items)
	}
	annotatedMu.Lock()
	cls, ok := annotatedTypes[class]
	if !ok {
		cls = &Type{name: class, qualname: class, module: "builtins", bases: []*Type{ListType}, dict: NewDict(2), solid: ListType, new: ListType.new, builtin: false}
		cls.mro = append([]*Type{cls}, ListType.mro...)
		annotatedTypes[class] = cls
	}
	annotatedMu.Unlock()
	inst := &Instance{cls: cls, dict: NewDict(len(attrs)), base: NewList(items)}
	for _, kv := range attrs {
		inst.dict.SetStr(kv.Name, kv.Value)
	}
	return inst
}

// NewSliceObject returns slice(start, stop, step).
func NewSliceObject(start, stop, step Object) Object {
	return &Slice{Start: start, Stop: stop, Step: step}
}
