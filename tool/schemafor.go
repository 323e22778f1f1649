package tool

import (
	"encoding"
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rlm-go/rlm/fault"
)

// SchemaFor derives a JSON Schema (draft 2020-12) from the Go type T, for
// use as Spec.Args or Spec.Result. Hand-written schemas remain fully
// supported; SchemaFor is a convenience for simple types.
//
// The schema describes what encoding/json produces for T, so a value
// marshalled from T always validates against it:
//
//   - bool, integers, floats and strings map to boolean, integer (with
//     minimum 0 for unsigned kinds), number and string; a ",string" tag
//     option maps the field to string;
//   - []byte maps to a base64 string; other slices to arrays (or null) of
//     their element; arrays to arrays of exactly their length;
//   - maps with string or integer keys map to objects (or null) whose
//     values match the element schema;
//   - pointers add null to their element's schema;
//   - structs map to closed objects (additionalProperties false) named by
//     their json tags; fields tagged "-" and unexported fields are left
//     out, fields of embedded structs are promoted, and every field without
//     omitempty or omitzero is required;
//   - interface types and json.RawMessage accept any value; time.Time is a
//     date-time string; other encoding.TextMarshaler types are strings;
//   - a `jsonschema:"..."` field tag adds keywords to the field's schema:
//     minLength=N, maxLength=N, minimum=X, maximum=X, enum=a|b|c, and
//     last, description=TEXT (TEXT is the rest of the tag, commas
//     included). An empty minimum= or maximum= removes the bound the Go
//     type implies, for a field whose decoder takes values beyond it.
//     This is the one meaning of the tag in this module: rlm mcp serve
//     publishes schemas derived here, not the MCP SDK's inference (which
//     reads the whole tag as a description).
//
// Types whose encoding cannot be derived (channels, functions, complex
// numbers, other json.Marshaler implementations, recursive types, maps
// with other key kinds, conflicting embedded field names) fail with Kind
// invalid_schema.
func SchemaFor[T any]() (json.RawMessage, error) {
	return SchemaOf(reflect.TypeFor[T]())
}

// MustSchemaFor is SchemaFor that panics on error; use it for package-level
// tool declarations over known types.
func MustSchemaFor[T any]() json.RawMessage {
	s, err := SchemaFor[T]()
	if err != nil {
		panic(err)
	}
	return s
}

// SchemaOf is SchemaFor for a reflect.Type.
func SchemaOf(t reflect.Type) (json.RawMessage, error) {
	if t == nil {
		return json.RawMessage(`{}`), nil
	}
	g := schemaGen{seen: map[reflect.Type]bool{}}
	s, err := g.schema(t)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(s)
	if err != nil {
		return nil, fault.Wrap(err, fault.PhaseTool, KindInvalidSchema, "derived schema does not encode")
	}
	return b, nil
}

var (
	typeTime          = reflect.TypeFor[time.Time]()
	typeRawMessage    = reflect.TypeFor[json.RawMessage]()
	typeJSONMarshaler = reflect.TypeFor[json.Marshaler]()
	typeTextMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
)

type schemaGen struct {
	seen map[reflect.Type]bool // types on the current path (cycle detection)
}

func unsupported(t reflect.Type, why string) error {
	return fault.New(fault.PhaseTool, KindInvalidSchema, "cannot derive a schema for this Go type; write it by hand").
		With("go_type", t.String()).With("reason", why)
}

func (g *schemaGen) schema(t reflect.Type) (map[string]any, error) {
	switch {
	case t == typeTime:
		return map[string]any{"type": "string", "format": "date-time"}, nil
	case t == typeRawMessage:
		return map[string]any{}, nil
	case t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface &&
		(t.Implements(typeJSONMarshaler) || reflect.PointerTo(t).Implements(typeJSONMarshaler)):
		return nil, unsupported(t, "json_marshaler")
	case t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface &&
		(t.Implements(typeTextMarshaler) || reflect.PointerTo(t).Implements(typeTextMarshaler)):
		return map[string]any{"type": "string"}, nil
	}
	switch t.Kind() {
	case reflect.Bool:
		return map[string]any{"type": "boolean"}, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		// The range of the Go type: encoding/json refuses to decode
		// anything outside it into an In.
		bits := t.Bits()
		return map[string]any{"type": "integer",
			"minimum": json.Number(strconv.FormatInt(-1<<(bits-1), 10)),
			"maximum": json.Number(strconv.FormatInt(1<<(bits-1)-1, 10))}, nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return map[string]any{"type": "integer", "minimum": 0,
			"maximum": json.Number(strconv.FormatUint(1<<t.Bits()-1, 10))}, nil
	case reflect.Float32:
		return map[string]any{"type": "number", "minimum": json.Number("-3.4028234663852886e38"), "maximum": json.Number("3.4028234663852886e38")}, nil
	case reflect.Float64:
		return map[string]any{"type": "number"}, nil
	case reflect.String:
		return map[string]any{"type": "string"}, nil
	case reflect.Interface:
		return map[string]any{}, nil
	}
	if g.seen[t] {
		return nil, unsupported(t, "recursive_type")
	}
	g.seen[t] = true
	defer delete(g.seen, t)
	switch t.Kind() {
	case reflect.Pointer:
		elem, err := g.schema(t.Elem())
		if err != nil {
			return nil, err
		}
		return nullable(elem), nil
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 && !reflect.PointerTo(t.Elem()).Implements(typeJSONMarshaler) &&
			!reflect.PointerTo(t.Elem()).Implements(typeTextMarshaler) {
			return map[string]any{"type": []any{"string", "null"}, "contentEncoding": "base64"}, nil
		}
		items, err := g.schema(t.Elem())
		if err != nil {
			return nil, err
		}
		return map[string]any{"type": []any{"array", "null"}, "items": items}, nil
	case reflect.Array:
		items, err := g.schema(t.Elem())
		if err != nil {
			return nil, err
		}
		return map[string]any{"type": "array", "items": items, "minItems": t.Len(), "maxItems": t.Len()}, nil
	case reflect.Map:
		s := map[string]any{"type": []any{"object", "null"}}
		switch k := t.Key(); {
		case k.Kind() == reflect.String:
		case k.Kind() >= reflect.Int && k.Kind() <= reflect.Uintptr:
			s["propertyNames"] = map[string]any{"pattern": `^-?[0-9]+$`}
		default:
			return nil, unsupported(t, "map_key")
		}
		vals, err := g.schema(t.Elem())
		if err != nil {
			return nil, err
		}
		s["additionalProperties"] = vals
		return s, nil
	case reflect.Struct:
		return g.object(t)
	}
	return nil, unsupported(t, "kind_"+t.Kind().String())
}

// nullable adds null to the accepted types of s.
func nullable(s map[string]any) map[string]any {
	if len(s) == 0 {
		return s // accepts anything already
	}
	switch ty := s["type"].(type) {
	case string:
		out := maps.Clone(s)
		out["type"] = []any{ty, "null"}
		return out
	case []any:
		if slices.Contains(ty, any("null")) {
			return s
		}
		out := maps.Clone(s)
		out["type"] = append(slices.Clone(ty), "null")
		return out
	}
	return map[string]any{"anyOf": []any{map[string]any{"type": "null"}, s}}
}

// field is one JSON property of a struct, with its embedding depth.
type field struct {
	name     string
	schema   map[string]any
	required bool
	depth    int
	tagged   bool
}

func (g *schemaGen) object(t reflect.Type) (map[string]any, error) {
	fields, err := g.fields(t, 0)
	if err != nil {
		return nil, err
	}
	// encoding/json: the shallowest field wins; at equal depth a tagged
	// field wins; otherwise the name is ambiguous and dropped. Ambiguity
	// is refused here instead of silently dropped.
	byName := map[string][]field{}
	var order []string
	for _, f := range fields {
		if _, ok := byName[f.name]; !ok {
			order = append(order, f.name)
		}
		byName[f.name] = append(byName[f.name], f)
	}
	props := map[string]any{}
	required := []string{}
	for _, name := range order {
		fs := byName[name]
		best := fs[0]
		ambiguous := false
		for _, f := range fs[1:] {
			switch {
			case f.depth < best.depth || f.depth == best.depth && f.tagged && !best.tagged:
				best, ambiguous = f, false
			case f.depth == best.depth && f.tagged == best.tagged:
				ambiguous = true
			}
		}
		if ambiguous {
			return nil, unsupported(t, "ambiguous_field_"+name)
		}
		props[name] = best.schema
		if best.required {
			required = append(required, name)
		}
	}
	slices.Sort(required)
	return map[string]any{"type": "object", "properties": props, "required": required, "additionalProperties": false}, nil
}

func (g *schemaGen) fields(t reflect.Type, depth int) ([]field, error) {
	var out []field
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		ft := sf.Type
		if sf.Anonymous && name == "" {
			et := ft
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				if !sf.IsExported() && ft.Kind() == reflect.Pointer {
					continue // encoding/json ignores these
				}
				if g.seen[et] {
					return nil, unsupported(et, "recursive_type")
				}
				g.seen[et] = true
				sub, err := g.fields(et, depth+1)
				delete(g.seen, et)
				if err != nil {
					return nil, err
				}
				if ft.Kind() == reflect.Pointer {
					// A nil embedded pointer omits its fields.
					for i := range sub {
						sub[i].required = false
					}
				}
				out = append(out, sub...)
				continue
			}
		}
		if !sf.IsExported() {
			continue
		}
		tagged := name != ""
		if !tagged {
			name = sf.Name
		}
		var s map[string]any
		var err error
		if hasOpt(opts, "string") && isStringable(ft) {
			s = map[string]any{"type": "string"}
			if ft.Kind() == reflect.Pointer {
				s = nullable(s)
			}
		} else if s, err = g.schema(ft); err != nil {
			return nil, err
		}
		if kw, ok := sf.Tag.Lookup("jsonschema"); ok {
			if s, err = withKeywords(s, kw, t); err != nil {
				return nil, err
			}
		}
		omit := hasOpt(opts, "omitempty") || hasOpt(opts, "omitzero")
		out = append(out, field{name: name, schema: s, required: !omit, depth: depth, tagged: tagged})
	}
	return out, nil
}

// withKeywords adds the keywords of a `jsonschema:"..."` field tag to s: a
// comma-separated list of minLength=N, maxLength=N, minimum=X, maximum=X
// (empty: no bound) and enum=a|b|c (string values), optionally ending with
// description=TEXT, whose TEXT runs to the end of the tag. Other keywords
// fail with invalid_schema.
func withKeywords(s map[string]any, tag string, t reflect.Type) (map[string]any, error) {
	out := maps.Clone(s) // s is never nil: schema returns a map on success
	tag, desc, hasDesc := cutDescription(tag)
	if hasDesc {
		out["description"] = desc
	}
	if strings.TrimSpace(tag) == "" && hasDesc {
		return out, nil
	}
	for kv := range strings.SplitSeq(tag, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(kv), "=")
		switch k {
		case "minLength", "maxLength":
			n, err := strconv.ParseUint(v, 10, 31)
			if err != nil {
				return nil, unsupported(t, "jsonschema_tag_"+k)
			}
			out[k] = n
		case "minimum", "maximum":
			if v == "" {
				delete(out, k)
				continue
			}
			if _, err := strconv.ParseFloat(v, 64); err != nil {
				return nil, unsupported(t, "jsonschema_tag_"+k)
			}
			out[k] = json.Number(v)
		case "enum":
			vals := []any{}
			for e := range strings.SplitSeq(v, "|") {
				vals = append(vals, e)
			}
			out[k] = vals
		default:
			return nil, unsupported(t, "jsonschema_tag_"+k)
		}
	}
	return out, nil
}

// cutDescription splits a jsonschema tag at its description=TEXT part,
// which is the whole tag or follows the last keyword's comma.
func cutDescription(tag string) (keywords, desc string, ok bool) {
	const key = "description="
	if rest, found := strings.CutPrefix(strings.TrimLeft(tag, " "), key); found {
		return "", rest, true
	}
	if i := strings.Index(tag, ","+key); i >= 0 {
		return tag[:i], tag[i+1+len(key):], true
	}
	if i := strings.Index(tag, ", "+key); i >= 0 {
		return tag[:i], tag[i+2+len(key):], true
	}
	return tag, "", false
}

func hasOpt(opts, want string) bool { return slices.Contains(strings.Split(opts, ","), want) }

// isStringable reports whether the ",string" option applies to t
// (booleans, numbers and strings, or a pointer to one).
func isStringable(t reflect.Type) bool {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.String:
		return true
	}
	return false
}
