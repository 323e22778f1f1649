// Package fingerprint computes stable identities: SHA-256 over canonical
// JSON.
//
// Canonical JSON here means: object keys sorted by their UTF-8 bytes, no
// insignificant whitespace, numbers in the shortest form that round-trips
// (integers without exponent or fraction), strings escaped as encoding/json
// does without HTML escaping. The same value always yields the same bytes and
// so the same fingerprint, whatever Go type carried it.
package fingerprint

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
)

// Canonical returns the canonical JSON encoding of v. v is first encoded with
// encoding/json (so struct tags apply), then decoded generically and
// re-encoded canonically.
func Canonical(v any) ([]byte, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return CanonicalizeJSON(raw)
}

// CanonicalizeJSON re-encodes a JSON document canonically. It fails on
// invalid JSON.
func CanonicalizeJSON(raw []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var generic any
	if err := dec.Decode(&generic); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("fingerprint: trailing data after JSON value")
	}
	var buf bytes.Buffer
	if err := encode(&buf, generic); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// CanonicalValue returns the canonical JSON of v, which must already be in
// the generic decoded form (nil, bool, json.Number, string, []any,
// map[string]any) as produced by a decoder with UseNumber. It skips the
// encode/decode round trip of Canonical; any other type is an error.
func CanonicalValue(v any) ([]byte, error) {
	var buf bytes.Buffer
	if err := encode(&buf, v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
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
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

func encode(buf *bytes.Buffer, v any) error {
	switch x := v.(type) {
	case nil:
		buf.WriteString("null")
	case bool:
		if x {
			buf.WriteString("true")
		} else {
			buf.WriteString("false")
		}
	case json.Number:
		s, err := canonicalNumber(x)
		if err != nil {
			return err
		}
		buf.WriteString(s)
	case string:
		encodeString(buf, x)
	case []any:
		buf.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := encode(buf, e); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		buf.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				buf.WriteByte(',')
			}
			encodeString(buf, k)
			buf.WriteByte(':')
			if err := encode(buf, x[k]); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
	default:
		return fmt.Errorf("fingerprint: unexpected type %T", v)
	}
	return nil
}

func canonicalNumber(n json.Number) (string, error) {
	if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
		return strconv.FormatInt(i, 10), nil
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return "", fmt.Errorf("fingerprint: bad number %q", string(n))
	}
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return strconv.FormatInt(int64(f), 10), nil
	}
	return strconv.FormatFloat(f, 'g', -1, 64), nil
}

func encodeString(buf *bytes.Buffer, s string) {
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
		buf.WriteByte('"')
		buf.WriteString(s)
		buf.WriteByte('"')
		return
	}
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // strings always encode
	buf.Truncate(buf.Len() - 1)
}
