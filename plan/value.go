package plan

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/textcut"
)

// Value is a runtime value of the plan language: nil, bool, string,
// float64, int64, []any, map[string]any, or corpus.Handle (a context handle,
// possibly nested inside a list or object). Values are treated as
// immutable: an Env must not modify a Value it is given.
type Value = any

// Normalize converts v into the Value representation: json.Number becomes
// int64 (integers) or float64, other integer and float types become int64
// and float64, typed slices and maps with string keys become []any and
// map[string]any, *corpus.Handle becomes corpus.Handle, structs become
// objects field by field following their json tags (so a handle inside a
// struct, like corpus.Chunk's, stays a handle), and any other type (for
// example a json.Marshaler) is converted through its JSON encoding. Execute normalizes every
// value an Env returns. It fails with Kind type_error for values JSON
// cannot represent (NaN, infinities, channels, functions).
func Normalize(v any) (Value, error) {
	switch x := v.(type) {
	case nil, bool, string, int64, corpus.Handle:
		return x, nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, execErr(KindTypeError, "", "number is not finite")
		}
		return x, nil
	case int:
		return int64(x), nil
	case *corpus.Handle:
		if x == nil {
			return nil, nil
		}
		return *x, nil
	case json.Number:
		return numberValue(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			n, err := Normalize(e)
			if err != nil {
				return nil, err
			}
			out[i] = n
		}
		return out, nil
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			n, err := Normalize(e)
			if err != nil {
				return nil, err
			}
			out[k] = n
		}
		return out, nil
	}
	if _, ok := v.(json.Marshaler); ok {
		return marshalNormalized(v)
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return rv.Int(), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		u := rv.Uint()
		if u > math.MaxInt64 {
			return float64(u), nil
		}
		return int64(u), nil
	case reflect.Float32, reflect.Float64:
		return Normalize(rv.Float())
	case reflect.String:
		return rv.String(), nil
	case reflect.Bool:
		return rv.Bool(), nil
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			return nil, nil
		}
		return Normalize(rv.Elem().Interface())
	case reflect.Slice, reflect.Array:
		if rv.Kind() == reflect.Slice && rv.IsNil() {
			return []any{}, nil
		}
		if rv.Type().Elem().Kind() == reflect.Uint8 {
			break // []byte: JSON encodes it as base64, as encoding/json does
		}
		out := make([]any, rv.Len())
		for i := range out {
			n, err := Normalize(rv.Index(i).Interface())
			if err != nil {
				return nil, err
			}
			out[i] = n
		}
		return out, nil
	case reflect.Map:
		if rv.Type().Key().Kind() != reflect.String {
			break
		}
		out := make(map[string]any, rv.Len())
		it := rv.MapRange()
		for it.Next() {
			n, err := Normalize(it.Value().Interface())
			if err != nil {
				return nil, err
			}
			out[it.Key().String()] = n
		}
		return out, nil
	case reflect.Chan, reflect.Func, reflect.UnsafePointer, reflect.Complex64, reflect.Complex128:
		return nil, execErr(KindTypeError, "", "value has no JSON form").With("type", rv.Type().String())
	case reflect.Struct:
		if out, ok, err := normalizeStruct(rv); ok {
			return out, err
		}
	}
	return marshalNormalized(v)
}

// marshalNormalized converts v through encoding/json.
func marshalNormalized(v any) (Value, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, execErr(KindTypeError, "", "value has no JSON form").With("type", fmt.Sprintf("%T", v))
	}
	return decodeNormalized(b)
}

// normalizeStruct converts a struct field by field, following the json
// tags (name, "-", omitempty), so that handles inside it (for example a
// corpus.Chunk's *Handle) stay handles. It reports ok false for structs it
// leaves to encoding/json: those with embedded fields or the ",string"
// option. (Normalize sends json.Marshalers to encoding/json before.)
func normalizeStruct(rv reflect.Value) (Value, bool, error) {
	t := rv.Type()
	out := make(map[string]any, t.NumField())
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous {
			return nil, false, nil
		}
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = f.Name
		}
		fv := rv.Field(i)
		omitEmpty := false
		for _, o := range strings.Split(opts, ",") {
			switch o {
			case "omitempty":
				omitEmpty = true
			case "string":
				return nil, false, nil
			}
		}
		if omitEmpty && isEmptyJSON(fv) {
			continue
		}
		n, err := Normalize(fv.Interface())
		if err != nil {
			return nil, true, err
		}
		out[name] = n
	}
	return out, true, nil
}

// isEmptyJSON reports whether encoding/json's omitempty would omit v.
func isEmptyJSON(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// decodeNormalized decodes JSON produced by encoding/json into a Value.
// Objects of exactly the shape {"id":"ctx-N","version":V} stay plain
// objects; handles survive only when they are Go values.
func decodeNormalized(b []byte) (Value, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var raw any
	if err := dec.Decode(&raw); err != nil {
		return nil, execErr(KindTypeError, "", "value has no JSON form")
	}
	return Normalize(raw)
}

// numberValue converts a JSON number: integers that fit in int64 become
// int64, everything else float64. A number outside the float64 range (such
// as 1e999999) fails with Kind non_finite_number rather than being clamped.
func numberValue(n json.Number) (Value, error) {
	s := string(n)
	if !strings.ContainsAny(s, ".eE") {
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return i, nil
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		// JSON grammar guarantees the syntax, so this is a number out of
		// the float64 range.
		shown := s
		if len(shown) > 32 {
			shown = shown[:32] + "..."
		}
		return nil, execErr(KindNonFiniteNumber, "", "number is outside the float64 range").With("number", shown).
			WithHint("write numbers within ±1.8e308, or as a string")
	}
	return f, nil
}

// normalizeParsed is Normalize for values decoded from plan text: its
// errors have Phase validate and detail "path", like the AST's.
func normalizeParsed(v any, path string) (Value, error) {
	n, err := Normalize(v)
	if err != nil {
		fe := fault.As(err)
		if fe == nil {
			return nil, err
		}
		cp := *fe
		cp.Phase = fault.PhaseValidate
		cp.Detail = maps.Clone(fe.Detail)
		if cp.Detail == nil {
			cp.Detail = map[string]any{}
		}
		cp.Detail["path"] = path
		return nil, &cp
	}
	return n, nil
}

// EncodeJSON returns the canonical JSON encoding of v: object keys sorted,
// no insignificant whitespace, no HTML escaping, and handles encoded as
// {"handle":"ctx-3@1"}. It is the serialization used by {"json":E}, by
// join and by prompts built from non-string values. Values outside the
// Value representation are normalized first.
func EncodeJSON(v Value) (string, error) {
	var b strings.Builder
	if err := encodeValue(&b, v, 0); err != nil {
		return "", err
	}
	return b.String(), nil
}

// errTooLong stops a bounded encoding.
var errTooLong = errors.New("encoding exceeds its limit")

// encodeBounded is EncodeJSON that gives up (ok false) as soon as the
// encoding is longer than limit bytes, so previews of huge values cost
// O(limit) rather than O(size).
func encodeBounded(v Value, limit int) (string, bool) {
	var b strings.Builder
	if err := encodeValue(&b, v, limit); err != nil {
		return "", false
	}
	return b.String(), true
}

// encodeValue writes the canonical JSON of v; with limit > 0 it fails with
// errTooLong once more than limit bytes are written.
func encodeValue(b *strings.Builder, v Value, limit int) error {
	if limit > 0 && b.Len() > limit {
		return errTooLong
	}
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case string:
		if limit > 0 && b.Len()+len(x) > limit {
			return errTooLong
		}
		writeString(b, x)
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return execErr(KindTypeError, "", "number is not finite")
		}
		b.WriteString(formatFloat(x))
	case corpus.Handle:
		b.WriteString(`{"handle":`)
		writeString(b, x.String())
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := encodeValue(b, e, limit); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case map[string]any:
		b.WriteByte('{')
		for i, k := range slices.Sorted(maps.Keys(x)) {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, k)
			b.WriteByte(':')
			if err := encodeValue(b, x[k], limit); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	default:
		n, err := Normalize(v)
		if err != nil {
			return err
		}
		return encodeValue(b, n, limit)
	}
	if limit > 0 && b.Len() > limit {
		return errTooLong
	}
	return nil
}

func formatFloat(f float64) string {
	// The same format encoding/json uses: shortest representation, 'e'
	// notation for very large or small magnitudes.
	if f == 0 {
		// -0 would read back as the integer 0: the canonical form is "0".
		return "0"
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	s := strconv.FormatFloat(f, format, -1, 64)
	if format == 'e' {
		// clean up e-09 to e-9
		n := len(s)
		if n >= 4 && s[n-4] == 'e' && s[n-3] == '-' && s[n-2] == '0' {
			s = s[:n-2] + s[n-1:]
		}
	}
	return s
}

func writeString(b *strings.Builder, s string) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // strings always encode
	b.Write(bytes.TrimSuffix(buf.Bytes(), []byte{'\n'}))
}

// copyValue returns a deep copy of the lists and objects in v.
func copyValue(v Value) Value {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = copyValue(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = copyValue(e)
		}
		return out
	}
	return v
}

// typeName names the type of a Value for error details.
func typeName(v Value) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "bool"
	case string:
		return "string"
	case int64, float64:
		return "number"
	case []any:
		return "list"
	case map[string]any:
		return "object"
	case corpus.Handle:
		return "handle"
	}
	return fmt.Sprintf("%T", v)
}

// DefaultPreviewBytes is the preview size Preview uses when maxBytes is not
// positive.
const DefaultPreviewBytes = 512

// Preview renders v for an observation in at most maxBytes bytes (cut at a
// UTF-8 boundary). A value whose canonical JSON fits is rendered as that
// JSON. Otherwise strings render as their JSON-quoted prefix followed by
// "… (N bytes)", lists as "(N items) [" and a prefix of their items, objects
// as "(N keys) {" and a prefix of their fields in key order; handles render
// as {"handle":"ctx-3@1"}. The rendering is deterministic.
func Preview(v Value, maxBytes int) string {
	if maxBytes <= 0 {
		maxBytes = DefaultPreviewBytes
	}
	nv, err := Normalize(v)
	if err != nil {
		return textcut.Prefix(fmt.Sprintf("<%s>", typeName(v)), maxBytes)
	}
	return textcut.Prefix(preview(nv, maxBytes), maxBytes)
}

func preview(v Value, budget int) string {
	if full, ok := encodeBounded(v, budget); ok {
		return full
	}
	switch x := v.(type) {
	case string:
		suffix := fmt.Sprintf("… (%d bytes)", len(x))
		room := budget - len(suffix)
		if room < 2 {
			return suffix
		}
		// Quote a prefix long enough for room (escapes only lengthen it),
		// then cut the quoted form, never inside an escape sequence.
		q, _ := EncodeJSON(textcut.Prefix(x, room))
		return cutQuoted(q, room) + suffix
	case []any:
		head := fmt.Sprintf("(%d items) [", len(x))
		return head + previewItems(len(x), budget-len(head), func(i int) (string, Value) { return "", x[i] }) + "]"
	case map[string]any:
		head := fmt.Sprintf("(%d keys) {", len(x))
		keys := slices.Sorted(maps.Keys(x))
		return head + previewItems(len(keys), budget-len(head), func(i int) (string, Value) {
			k, _ := EncodeJSON(keys[i])
			return k + ":", x[keys[i]]
		}) + "}"
	}
	// A scalar or handle: short, so encode it whole and let the caller cut.
	full, _ := EncodeJSON(v)
	return full
}

// previewItems renders items while they fit in budget: an item whose JSON
// fits in what is left is rendered in full, a larger one is previewed in an
// even share of what is left (at least 48 bytes, and only when at least 32
// bytes are left). It ends with "…" when
// some items were left out.
func previewItems(n, budget int, item func(i int) (string, Value)) string {
	const more = ", …"
	var b strings.Builder
	for i := 0; i < n; i++ {
		sep := ""
		if i > 0 {
			sep = ","
		}
		prefix, v := item(i)
		room := budget - b.Len() - len(sep) - len(prefix) - len(more)
		full, ok := encodeBounded(v, room)
		var text string
		switch {
		case ok && len(full) <= room:
			text = full
		case room >= 32:
			text = preview(v, min(max(room/(n-i), 48), room))
			if strings.HasSuffix(text, "{…}") || strings.HasSuffix(text, "[…]") {
				text = "" // nothing of the item would show
			}
		}
		if text == "" {
			if i > 0 {
				b.WriteString(more)
			} else {
				b.WriteString("…")
			}
			break
		}
		b.WriteString(sep)
		b.WriteString(prefix)
		b.WriteString(text)
	}
	return b.String()
}

// cutQuoted cuts a JSON-quoted string to at most n bytes without splitting
// a UTF-8 character or an escape sequence.
func cutQuoted(q string, n int) string {
	if len(q) <= n {
		return q
	}
	i := 0
	for i < len(q) {
		step := 1
		if q[i] == '\\' {
			step = 2
			if i+1 < len(q) && q[i+1] == 'u' {
				step = 6
			}
		} else if q[i] >= utf8.RuneSelf {
			_, step = utf8.DecodeRuneInString(q[i:])
		}
		if i+step > n {
			break
		}
		i += step
	}
	return q[:i]
}
