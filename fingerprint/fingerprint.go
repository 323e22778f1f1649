// Package fingerprint computes stable identities: SHA-256 over canonical
// JSON.
//
// Canonical JSON here means: object keys sorted by their UTF-8 bytes, no
// insignificant whitespace, numbers in the shortest form that round-trips
// (integers in the int64 range without exponent or fraction, however they
// were written: 1e15, 1.0e15 and 1000000000000000 are one number), strings escaped as encoding/json
// does without HTML escaping. The same value always yields the same bytes and
// so the same fingerprint, whatever Go type carried it.
package fingerprint

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"io"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// Canonical returns the canonical JSON encoding of v. A json.RawMessage is
// the JSON document it holds, re-encoded canonically without a detour
// through encoding/json (invalid JSON or trailing data is an error; nil is
// null). Any other value is encoded with encoding/json first (so struct
// tags apply), then decoded generically and re-encoded canonically.
func Canonical(v any) ([]byte, error) {
	if raw, ok := v.(json.RawMessage); ok && raw != nil {
		return canonicalizeJSON(raw)
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return canonicalizeJSON(raw)
}

// canonicalizeJSON re-encodes a JSON document canonically. It fails on
// invalid JSON.
func canonicalizeJSON(raw []byte) ([]byte, error) {
	if out, ok := fastCanonicalize(make([]byte, 0, len(raw)), raw); ok {
		return out, nil
	}
	return canonicalizeGeneric(raw)
}

// canonicalizeGeneric is canonicalizeJSON through a generic decoded value.
func canonicalizeGeneric(raw []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var generic any
	if err := dec.Decode(&generic); err != nil {
		return nil, err
	}
	// dec.More is false for a stray "]" or "}" too, so ask for the next
	// token: only the end of the input is no trailing data.
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("fingerprint: trailing data after JSON value")
	}
	out, err := encode(nil, generic)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// AppendCanonicalValue appends the canonical JSON of v, which must already
// be in the generic decoded form (nil, bool, json.Number, string, []any,
// map[string]any, as a decoder with UseNumber produces it), to dst and
// returns the extended buffer. It skips Canonical's encode/decode round
// trip and gives the same bytes for every such value decoded from JSON;
// any other type is an error, and dst is then returned unchanged in length.
// (A string built in Go with invalid UTF-8, which no decoder produces, is
// written with the escape \ufffd where Canonical writes U+FFFD itself;
// both are persisted in fingerprints, so neither changes.)
func AppendCanonicalValue(dst []byte, v any) ([]byte, error) {
	out, err := encode(dst, v)
	if err != nil {
		return dst, err
	}
	return out, nil
}

// Of returns "sha256:" followed by the lowercase hex SHA-256 of the canonical
// JSON of v.
func Of(v any) (string, error) {
	c, err := Canonical(v)
	if err != nil {
		return "", err
	}
	return Bytes(c), nil
}

// MustOf is Of for values known to be encodable; it panics otherwise.
func MustOf(v any) string {
	s, err := Of(v)
	if err != nil {
		panic(err)
	}
	return s
}

// Bytes returns "sha256:" followed by the lowercase hex SHA-256 of b.
func Bytes(b []byte) string {
	h := NewHasher()
	h.Write(b)
	return h.Sum()
}

const prefix = "sha256:"

// Hasher computes Bytes of a document written to it in pieces, so a large
// canonical document never has to be held whole.
type Hasher struct{ h hash.Hash }

// NewHasher returns an empty Hasher.
func NewHasher() *Hasher { return &Hasher{h: sha256.New()} }

// Write appends b to the document.
func (h *Hasher) Write(b []byte) { h.h.Write(b) }

// Clone returns a Hasher that goes on from what h was written, and that
// h's later writes do not change, or false where the hash cannot be
// cloned (crypto/sha256 always can, except under GOFIPS140=v1.0.0).
func (h *Hasher) Clone() (*Hasher, bool) {
	c, ok := h.h.(hash.Cloner)
	if !ok {
		return nil, false
	}
	d, err := c.Clone()
	if err != nil {
		return nil, false
	}
	return &Hasher{h: d}, true
}

// Sum returns the fingerprint of the document written so far, the same
// string Bytes returns for the whole document.
func (h *Hasher) Sum() string {
	var sum [sha256.Size]byte
	h.h.Sum(sum[:0])
	var out [len(prefix) + 2*sha256.Size]byte
	copy(out[:], prefix)
	hex.Encode(out[len(prefix):], sum[:])
	return string(out[:])
}

func encode(dst []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		dst = append(dst, "null"...)
	case bool:
		if x {
			dst = append(dst, "true"...)
		} else {
			dst = append(dst, "false"...)
		}
	case json.Number:
		s, err := canonicalNumber(x)
		if err != nil {
			return dst, err
		}
		dst = append(dst, s...)
	case string:
		dst = appendString(dst, x)
	case []any:
		dst = append(dst, '[')
		for i, e := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = encode(dst, e); err != nil {
				return dst, err
			}
		}
		dst = append(dst, ']')
	case map[string]any:
		var small [8]string
		keys := small[:0]
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		dst = append(dst, '{')
		for i, k := range keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendString(dst, k)
			dst = append(dst, ':')
			var err error
			if dst, err = encode(dst, x[k]); err != nil {
				return dst, err
			}
		}
		dst = append(dst, '}')
	default:
		return dst, fmt.Errorf("fingerprint: unexpected type %v", reflect.TypeOf(v))
	}
	return dst, nil
}

func canonicalNumber(n json.Number) (string, error) {
	if isPlainInt(string(n)) {
		return string(n), nil
	}
	if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
		return strconv.FormatInt(i, 10), nil
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return "", fmt.Errorf("fingerprint: bad number %q", strings.Clone(string(n)))
	}
	if s, ok := exactInt(string(n)); ok {
		return s, nil
	}
	// An integral float in the int64 range is written as an integer, as
	// exactInt writes it, so the canonical form is a fixed point.
	if f == math.Trunc(f) && f > -(1<<63) && f < 1<<63 {
		return strconv.FormatInt(int64(f), 10), nil
	}
	return strconv.FormatFloat(f, 'g', -1, 64), nil
}

// exactInt returns the integer digits of a number written with a fraction
// or an exponent ("1e15", "1.5e15", "25.0") whose exact decimal value is an
// integer in the int64 range, so that it has the canonical form of the same
// integer written plainly. Anything else reports false.
func exactInt(s string) (string, bool) {
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	mant, exp := s, 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(s[i+1:])
		if err != nil {
			return "", false
		}
		mant, exp = s[:i], e
	}
	whole, frac, _ := strings.Cut(mant, ".")
	digits := strings.TrimLeft(whole+frac, "0")
	trimmed := strings.TrimRight(digits, "0")
	exp += len(digits) - len(trimmed) - len(frac)
	if trimmed == "" {
		return "0", true
	}
	if exp < 0 || len(trimmed)+exp > 19 {
		return "", false
	}
	v := trimmed + strings.Repeat("0", exp)
	if neg {
		v = "-" + v
	}
	i, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return "", false
	}
	return strconv.FormatInt(i, 10), true
}

// isPlainInt reports whether s is an integer already in canonical form: an
// optional minus sign and 1-18 digits without a leading zero, other than "0"
// itself; such a value always fits in an int64.
func isPlainInt(s string) bool {
	d := s
	if len(d) > 0 && d[0] == '-' {
		d = d[1:]
		if d == "0" {
			return false
		}
	}
	if len(d) == 0 || len(d) > 18 || len(d) > 1 && d[0] == '0' {
		return false
	}
	for i := 0; i < len(d); i++ {
		if d[i] < '0' || d[i] > '9' {
			return false
		}
	}
	return true
}

// AppendString appends s as a canonical JSON string: escaped as
// encoding/json does, without HTML escaping, invalid UTF-8 replaced by
// U+FFFD.
func AppendString(dst []byte, s string) []byte { return appendString(dst, s) }

func appendString(dst []byte, s string) []byte {
	// Fast path: printable ASCII without quote or backslash encodes as
	// itself, exactly as encoding/json would write it.
	plain := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			plain = false
			break
		}
	}
	if plain {
		dst = append(dst, '"')
		dst = append(dst, s...)
		return append(dst, '"')
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(strings.Clone(s)) // strings always encode; the clone keeps s from escaping
	return append(dst, buf.Bytes()[:buf.Len()-1]...)
}
