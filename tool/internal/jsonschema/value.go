package jsonschema

import (
	"encoding/json"
	"maps"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
)

// A JSON type as the draft names them; integer is a number whose value is
// integral.
type jtype uint8

const (
	tNull jtype = 1 << iota
	tBoolean
	tNumber
	tInteger
	tString
	tArray
	tObject
	tInvalid jtype = 0
)

var typeNames = [...]struct {
	name string
	t    jtype
}{
	{"array", tArray}, {"boolean", tBoolean}, {"integer", tInteger}, {"null", tNull},
	{"number", tNumber}, {"object", tObject}, {"string", tString},
}

func typeByName(s string) jtype {
	for _, n := range typeNames {
		if n.name == s {
			return n.t
		}
	}
	return tInvalid
}

func (t jtype) String() string {
	for _, n := range typeNames {
		if n.t == t {
			return n.name
		}
	}
	return "invalid"
}

// typeOf is the JSON type of a decoded value (numbers are tNumber, whatever
// their value).
func typeOf(v any) jtype {
	switch v.(type) {
	case nil:
		return tNull
	case bool:
		return tBoolean
	case string:
		return tString
	case []any:
		return tArray
	case map[string]any:
		return tObject
	}
	if _, ok := number(v); ok {
		return tNumber
	}
	return tInvalid
}

// number is the exact value of a decoded number (json.Number, a float or
// an integer of any Go type); false for anything else and for NaN or an
// infinity.
func number(v any) (*big.Rat, bool) {
	var s string
	switch n := v.(type) {
	case json.Number:
		s = string(n)
	case float64:
		if math.IsNaN(n) || math.IsInf(n, 0) {
			return nil, false
		}
		return new(big.Rat).SetFloat64(n), true
	case float32:
		f := float64(n)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, false
		}
		return new(big.Rat).SetFloat64(f), true
	case int:
		return new(big.Rat).SetInt64(int64(n)), true
	case int8:
		return new(big.Rat).SetInt64(int64(n)), true
	case int16:
		return new(big.Rat).SetInt64(int64(n)), true
	case int32:
		return new(big.Rat).SetInt64(int64(n)), true
	case int64:
		return new(big.Rat).SetInt64(n), true
	case uint:
		return new(big.Rat).SetUint64(uint64(n)), true
	case uint8:
		return new(big.Rat).SetUint64(uint64(n)), true
	case uint16:
		return new(big.Rat).SetUint64(uint64(n)), true
	case uint32:
		return new(big.Rat).SetUint64(uint64(n)), true
	case uint64:
		return new(big.Rat).SetUint64(n), true
	default:
		return nil, false
	}
	r, ok := new(big.Rat).SetString(s)
	return r, ok
}

// smallInt is the value of an integer literal that fits an int64 without
// computing a big.Rat: a json.Number of an optional minus and at most 18
// digits, or a Go integer; false otherwise (the caller takes the exact
// path).
func smallInt(v any) (int64, bool) {
	switch n := v.(type) {
	case json.Number:
		s := string(n)
		digits := strings.TrimPrefix(s, "-")
		if len(digits) == 0 || len(digits) > 18 {
			return 0, false
		}
		var x int64
		for i := 0; i < len(digits); i++ {
			c := digits[i]
			if c < '0' || c > '9' {
				return 0, false
			}
			x = x*10 + int64(c-'0')
		}
		if len(digits) != len(s) {
			x = -x
		}
		return x, true
	case int:
		return int64(n), true
	case int32:
		return int64(n), true
	case int64:
		return n, true
	}
	return 0, false
}

// isNumber reports whether v is a number without computing its value.
func isNumber(v any) bool {
	switch v.(type) {
	case json.Number, float64, float32, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		_, ok := number(v)
		return ok
	}
	return false
}

// equal is the draft's equality of JSON values: numbers by value, arrays
// element by element, objects by their members regardless of order.
func equal(a, b any) bool {
	switch a := a.(type) {
	case nil:
		return b == nil
	case bool:
		bb, ok := b.(bool)
		return ok && a == bb
	case string:
		bs, ok := b.(string)
		return ok && a == bs
	case []any:
		bs, ok := b.([]any)
		if !ok || len(a) != len(bs) {
			return false
		}
		for i := range a {
			if !equal(a[i], bs[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		bm, ok := b.(map[string]any)
		if !ok || len(a) != len(bm) {
			return false
		}
		for k, av := range a {
			bv, ok := bm[k]
			if !ok || !equal(av, bv) {
				return false
			}
		}
		return true
	}
	ra, ok := number(a)
	if !ok {
		return false
	}
	rb, ok := number(b)
	return ok && ra.Cmp(rb) == 0
}

// canonical writes a key of v such that two values have the same key
// exactly when they are equal.
func canonical(b *strings.Builder, v any) {
	switch v := v.(type) {
	case nil:
		b.WriteString("n")
	case bool:
		if v {
			b.WriteString("t")
		} else {
			b.WriteString("f")
		}
	case string:
		b.WriteString(strconv.Quote(v))
	case []any:
		b.WriteString("[")
		for _, e := range v {
			canonical(b, e)
			b.WriteString(",")
		}
		b.WriteString("]")
	case map[string]any:
		b.WriteString("{")
		for _, k := range slices.Sorted(maps.Keys(v)) {
			b.WriteString(strconv.Quote(k))
			b.WriteString(":")
			canonical(b, v[k])
			b.WriteString(",")
		}
		b.WriteString("}")
	default:
		if r, ok := number(v); ok {
			b.WriteString("#" + r.RatString())
		} else {
			b.WriteString("?")
		}
	}
}

// duplicate returns the indexes i < j of the first pair of equal items
// (the pair whose later item comes first), or -1, -1.
func duplicate(arr []any) (int, int) {
	if len(arr) <= 20 {
		for j := 1; j < len(arr); j++ {
			for i := 0; i < j; i++ {
				if equal(arr[i], arr[j]) {
					return i, j
				}
			}
		}
		return -1, -1
	}
	seen := make(map[string]int, len(arr))
	var b strings.Builder
	for j, v := range arr {
		b.Reset()
		canonical(&b, v)
		if i, ok := seen[b.String()]; ok {
			return i, j
		}
		seen[b.String()] = j
	}
	return -1, -1
}
