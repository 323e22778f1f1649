package pystr

import "unicode/utf8"

// MapKind says what a translate table maps a code point to.
type MapKind uint8

const (
	// Keep: the table has no entry (its lookup raised LookupError); the
	// code point is kept.
	Keep MapKind = iota
	// Delete: the entry is None.
	Delete
	// ToRune: the entry is an int, Mapping.Rune.
	ToRune
	// ToString: the entry is a str, Mapping.Str.
	ToString
)

// Mapping is a translate table's entry for one code point.
type Mapping struct {
	Kind MapKind
	Rune rune
	Str  string
}

// Translate returns s with each code point replaced through lookup, as
// Python's str.translate: lookup performs table[ord(c)] and returns its
// entry (Keep when the lookup raised LookupError), or the error to raise
// (such as TypeError "character mapping must return integer, None or
// str"). Translate checks ToRune values: ValueError "character mapping
// must be in range(0x110000)"; a surrogate is an *UnsupportedError.
//
// It calls lookup as CPython does, which a table with side effects can
// observe: for an ASCII string, each distinct code point is looked up
// once while the entries are None, missing, or one ASCII code point; after
// a code point mapped to None, the following code points are looked up
// once more to find the end of the run of deletions. The result may not
// exceed limit bytes (a *LimitError).
func Translate(s string, lookup func(r rune) (Mapping, error), limit int) (string, error) {
	get := func(r rune) (Mapping, error) {
		m, err := lookup(r)
		if err == nil && m.Kind == ToRune && (m.Rune < 0 || m.Rune > utf8.MaxRune) {
			err = valueError("character mapping must be in range(0x110000)")
		}
		return m, err
	}
	var out []byte
	add := func(p string) error {
		if len(p) > limit-len(out) {
			return &LimitError{Op: "translate", Need: addSize(len(out), len(p)), Limit: limit}
		}
		out = append(out, p...)
		return nil
	}
	addRune := func(r rune) error {
		if utf8.RuneLen(r) > limit-len(out) {
			return &LimitError{Op: "translate", Need: addSize(len(out), utf8.RuneLen(r)), Limit: limit}
		}
		out = appendRune(out, r)
		return nil
	}
	i := 0
	surrogate := false
	if IsASCII(s) {
		// The fast path: a cache of the ASCII results.
		const unknown, deleted = 0xff, 0xfe
		var cache [128]byte
		for k := range cache {
			cache[k] = unknown
		}
		out = make([]byte, 0, min(len(s), limit))
	fast:
		for ; i < len(s); i++ {
			c := s[i]
			o := cache[c]
			if o == unknown {
				m, err := get(rune(c))
				if err != nil {
					return "", err
				}
				switch {
				case m.Kind == Keep:
					o = c
				case m.Kind == Delete:
					o = deleted
				case m.Kind == ToRune && m.Rune < utf8.RuneSelf:
					o = byte(m.Rune)
				case m.Kind == ToString && len(m.Str) == 1 && m.Str[0] < utf8.RuneSelf:
					o = m.Str[0]
				default:
					break fast // not cacheable: the general path from here
				}
				cache[c] = o
			}
			if o != deleted {
				if len(out) >= limit {
					return "", &LimitError{Op: "translate", Need: len(out) + 1, Limit: limit}
				}
				out = append(out, o)
			}
		}
	}
	for i < len(s) {
		r, size := decodeAt(s, i)
		m, err := get(r)
		if err != nil {
			return "", err
		}
		switch m.Kind {
		case Keep:
			err = addRune(r)
		case ToRune:
			if 0xD800 <= m.Rune && m.Rune < 0xE000 {
				// Python goes on; the result cannot hold it.
				surrogate = true
			}
			err = addRune(m.Rune)
		case ToString:
			err = add(m.Str)
		case Delete:
			// A run of deletions: find its end, looking each code
			// point up once more.
			i += size
			for i < len(s) {
				r, size := decodeAt(s, i)
				m, err := get(r)
				if err != nil {
					return "", err
				}
				if m.Kind != Delete {
					break
				}
				i += size
			}
			continue
		}
		if err != nil {
			return "", err
		}
		i += size
	}
	if surrogate {
		return "", &UnsupportedError{"translate to a lone surrogate"}
	}
	return bytesString(out), nil
}

// TransPair is one entry of the table str.maketrans builds: Key maps to
// Value, or to None when Delete is set.
type TransPair struct {
	Key    rune
	Value  rune
	Delete bool
}

// MakeTrans returns the entries of str.maketrans(x, y, z) for string
// arguments (z "" when absent), in the order Python inserts them in the
// dict (a later entry for the same key replaces the value in place):
// ValueError "the first two maketrans arguments must have equal length".
//
// The other rules of maketrans are the caller's: with one argument, it
// must be a dict (TypeError "if you give only one argument to maketrans it
// must be a dict"), whose int keys are kept, str keys converted by
// MakeTransKey, others refused (TypeError "keys in translate table must be
// strings or integers"); with two or three, x must be a str (TypeError
// "first maketrans argument must be a string if there is a second
// argument").
func MakeTrans(x, y, z string) ([]TransPair, error) {
	xs, ys := []rune(sanitize(x)), []rune(sanitize(y))
	if len(xs) != len(ys) {
		return nil, valueError("the first two maketrans arguments must have equal length")
	}
	pairs := make([]TransPair, 0, len(xs)+Len(z))
	for i := range xs {
		pairs = append(pairs, TransPair{Key: xs[i], Value: ys[i]})
	}
	for _, r := range z {
		pairs = append(pairs, TransPair{Key: r, Delete: true})
	}
	return pairs, nil
}

// MakeTransKey returns the code point for a str key of the dict passed to
// str.maketrans: ValueError "string keys in translate table must be of
// length 1" unless key is one code point.
func MakeTransKey(key string) (rune, error) {
	r, size := firstRune(key)
	if size == 0 || size != len(key) {
		return 0, valueError("string keys in translate table must be of length 1")
	}
	return r, nil
}
