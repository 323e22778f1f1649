package jsonschema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"math/big"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/rlm-go/rlm/internal/jsonstrict"
)

// CompileError is a schema this package does not compile: one that breaks
// a rule of the draft's meta-schemas or of reference resolution, or
// (Refused) one that is valid but whose meaning this package does not
// implement exactly.
type CompileError struct {
	// Pointer is the JSON pointer of the offending schema in the document.
	Pointer string
	// Keyword is the offending keyword ("" for the schema itself).
	Keyword string
	// Reason says what is wrong, in English.
	Reason string
	// Refused is true for a valid schema this package refuses.
	Refused bool
}

func (e *CompileError) Error() string {
	at := e.Pointer
	if e.Keyword != "" {
		at += "/" + jsonstrict.EscapeToken(e.Keyword)
	}
	if at == "" {
		at = "the schema"
	}
	return at + ": " + e.Reason
}

// Schema is a compiled schema.
type Schema struct {
	root *node
	// track: some keyword of the document needs the evaluated properties
	// and items (unevaluatedProperties, unevaluatedItems).
	track bool
}

// node is one compiled (sub)schema.
type node struct {
	ptr    string
	always *bool // a boolean schema

	types    jtype
	hasTypes bool
	typeList []string
	hasConst bool
	constV   any
	hasEnum  bool
	enum     []any

	ref *node

	minProps, maxProps int // -1: absent
	required           []string
	dependencies       []dep
	props              map[string]*node
	patterns           []pattern
	additional         *node
	noAdditional       bool // additionalProperties: false
	propertyNames      *node
	dependentSchemas   []dep
	dependentRequired  []dep
	unevalProps        *node

	minItems, maxItems int
	unique             bool
	prefix             []*node // prefixItems; drafts 07, 2019-09: items as an array
	items              *node   // drafts 07, 2019-09: additionalItems after an array
	noAdditionalItems  bool    // drafts 07, 2019-09: additionalItems false after an array
	contains           *node
	containsEvaluates  bool // 2020-12: items contains matched count as evaluated
	minContains        int
	maxContains        int

	unevalItems *node

	minLen, maxLen int
	pattern        *regexp.Regexp
	format         func(string) bool // draft 07 asserts formats
	formatName     string

	minimum, maximum, exMin, exMax, multipleOf *big.Rat

	allOf, anyOf, oneOf []*node
	not, ifS, then, els *node
}

type dep struct {
	name     string
	required []string // dependencies (array form), dependentRequired
	schema   *node    // dependencies (schema form), dependentSchemas
}

type pattern struct {
	src string
	re  *regexp.Regexp
	s   *node
}

// Compile compiles a schema document (draft 2020-12 unless its "$schema"
// says otherwise) whose base URI is base.
func Compile(raw []byte, base string) (*Schema, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil, &CompileError{Reason: "not JSON: " + err.Error()}
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, &CompileError{Reason: "not JSON: data after the schema"}
	}
	b, err := url.Parse(base)
	if err != nil || !b.IsAbs() {
		return nil, &CompileError{Reason: "the base URI is not absolute"}
	}
	b.Fragment, b.RawFragment = "", ""
	c := &compiler{
		doc:       doc,
		nodes:     map[string]*node{},
		bases:     map[string]scope{},
		resources: map[string]string{},
		resBase:   map[string]scope{},
		anchors:   map[string]string{},
	}
	draft, err := draftOf(doc)
	if err != nil {
		return nil, err
	}
	c.resources[b.String()] = ""
	if err := c.scan("", doc, scope{b, draft}, true); err != nil {
		return nil, err
	}
	root, err := c.compile("")
	if err != nil {
		return nil, err
	}
	if err := c.cycles(); err != nil {
		return nil, err
	}
	return &Schema{root: root, track: c.track}, nil
}

type compiler struct {
	doc   any
	track bool
	nodes map[string]*node
	// bases: the scope of each scanned schema location.
	bases map[string]scope
	// resources: absolute URI (no fragment) → pointer of its root;
	// resBase: that root's scope.
	resources map[string]string
	resBase   map[string]scope
	anchors   map[string]string // URI#anchor → pointer
}

func refuse(ptr, kw, reason string) *CompileError {
	return &CompileError{Pointer: ptr, Keyword: kw, Reason: reason, Refused: true}
}

func invalid(ptr, kw, reason string) *CompileError {
	return &CompileError{Pointer: ptr, Keyword: kw, Reason: reason}
}

// draftURL normalizes a "$schema" value: scheme and empty fragment
// dropped.
func draftURL(s string) string {
	s = strings.TrimSuffix(s, "#")
	if t, ok := strings.CutPrefix(s, "https://"); ok {
		return t
	}
	t, _ := strings.CutPrefix(s, "http://")
	return t
}

// drafts are the dialects "$schema" may name; 6 and 4 are known and
// refused at a resource's root.
var drafts = map[string]int{
	"json-schema.org/draft/2020-12/schema": 2020,
	"json-schema.org/schema":               2020,
	"json-schema.org/draft/2019-09/schema": 2019,
	"json-schema.org/draft-07/schema":      7,
	"json-schema.org/draft-06/schema":      6,
	"json-schema.org/draft-04/schema":      4,
}

// scope is what a schema location inherits from its resource: the base
// URI and the dialect (2020, 2019 or 7).
type scope struct {
	base  *url.URL
	draft int
}

// draftOf is the dialect of a resource's root schema: its "$schema", or
// 2020-12.
func draftOf(doc any) (int, error) {
	obj, ok := doc.(map[string]any)
	if !ok {
		return 2020, nil
	}
	v, ok := obj["$schema"]
	if !ok {
		return 2020, nil
	}
	s, ok := v.(string)
	if !ok {
		return 0, invalid("", "$schema", "must be a string")
	}
	d, ok := drafts[draftURL(s)]
	if !ok {
		return 0, invalid("", "$schema", fmt.Sprintf("dialect %q is unknown", s))
	}
	if d < 7 {
		return 0, refuse("", "$schema", fmt.Sprintf("dialect %q is not supported (draft 2020-12, and 2019-09 or 07 where they mean the same)", s))
	}
	return d, nil
}

// Keywords whose value is one schema, an array of schemas or an object of
// schemas (draft 2020-12 with its meta-schema's legacy keywords).
var (
	oneSchema = []string{"additionalProperties", "propertyNames", "unevaluatedProperties", "unevaluatedItems",
		"items", "contains", "not", "if", "then", "else", "contentSchema"}
	schemaArrays = []string{"prefixItems", "allOf", "anyOf", "oneOf"}
	schemaMaps   = []string{"$defs", "definitions", "properties", "patternProperties", "dependentSchemas"}
)

// anchorName reports whether s is an anchor name of the 2020-12
// meta-schema: ^[A-Za-z_][-A-Za-z0-9._]*$ (checked by hand, so that the
// package compiles no regular expression at init).
func anchorName(s string) bool {
	for i, c := range []byte(s) {
		letter := c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '_'
		if !letter && (i == 0 || !(c >= '0' && c <= '9' || c == '-' || c == '.')) {
			return false
		}
	}
	return s != ""
}

// scan checks the schema at ptr against the meta-schema rules, records its
// base URI, resources and anchors, and scans its subschemas.
func (c *compiler) scan(ptr string, v any, sc scope, root bool) error {
	if _, done := c.bases[ptr]; done {
		return nil
	}
	if _, ok := v.(bool); ok {
		c.bases[ptr] = sc
		return nil
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return invalid(ptr, "", "a schema must be an object or a boolean")
	}
	if _, ok := obj["$id"]; ok && !root {
		// An embedded resource: its own "$schema", or its parent's dialect.
		if _, ok := obj["$schema"]; ok {
			d, err := draftOf(obj)
			if err != nil {
				err.(*CompileError).Pointer = ptr
				return err
			}
			sc.draft = d
		}
	}
	base := sc.base
	if id, ok := obj["$id"]; ok {
		s, ok := id.(string)
		if !ok {
			return invalid(ptr, "$id", "must be a string")
		}
		u, err := uriReference(s)
		if err != nil {
			return invalid(ptr, "$id", "not a URI reference: "+err.Error())
		}
		if i := strings.IndexByte(s, '#'); i >= 0 && i != len(s)-1 {
			if sc.draft == 7 {
				return refuse(ptr, "$id", "an anchor in \"$id\" (draft 07) is not supported")
			}
			return invalid(ptr, "$id", "must not have a fragment")
		}
		if sc.draft == 7 {
			if _, ok := obj["$ref"]; ok {
				return refuse(ptr, "$id", `"$id" beside "$ref" is ignored in draft 07`)
			}
		}
		base = base.ResolveReference(u)
		base.Fragment, base.RawFragment = "", ""
		key := base.String()
		if p, dup := c.resources[key]; dup && p != ptr {
			return invalid(ptr, "$id", fmt.Sprintf("%q is also the $id of %q", key, p))
		}
		c.resources[key] = ptr
	}
	sc.base = base
	if root {
		c.resBase[ptr] = sc
	} else if _, ok := obj["$id"]; ok {
		c.resBase[ptr] = sc
	}
	c.bases[ptr] = sc
	if err := c.checkKeywords(ptr, obj, sc); err != nil {
		return err
	}
	sub := func(p string, v any) error { return c.scan(p, v, sc, false) }
	for _, kw := range oneSchema {
		if s, ok := obj[kw]; ok {
			if kw == "items" && sc.draft != 2020 {
				if arr, ok := s.([]any); ok {
					if len(arr) == 0 {
						return invalid(ptr, kw, "must be a schema or a non-empty array of schemas")
					}
					for i, e := range arr {
						if err := sub(ptr+"/items/"+strconv.Itoa(i), e); err != nil {
							return err
						}
					}
					continue
				}
			}
			if err := sub(ptr+"/"+jsonstrict.EscapeToken(kw), s); err != nil {
				return err
			}
		}
	}
	if s, ok := obj["additionalItems"]; ok && sc.draft != 2020 {
		if err := sub(ptr+"/additionalItems", s); err != nil {
			return err
		}
	}
	for _, kw := range schemaArrays {
		if s, ok := obj[kw]; ok {
			arr, ok := s.([]any)
			if !ok || len(arr) == 0 {
				return invalid(ptr, kw, "must be a non-empty array of schemas")
			}
			for i, e := range arr {
				if err := sub(ptr+"/"+kw+"/"+strconv.Itoa(i), e); err != nil {
					return err
				}
			}
		}
	}
	for _, kw := range schemaMaps {
		if s, ok := obj[kw]; ok {
			m, ok := s.(map[string]any)
			if !ok {
				return invalid(ptr, kw, "must be an object of schemas")
			}
			for _, k := range slices.Sorted(maps.Keys(m)) {
				if kw == "patternProperties" {
					if _, err := regexp.Compile(k); err != nil {
						return invalid(ptr, kw, fmt.Sprintf("%q is not a regular expression: %v", k, err))
					}
				}
				if err := sub(ptr+"/"+kw+"/"+jsonstrict.EscapeToken(k), m[k]); err != nil {
					return err
				}
			}
		}
	}
	if s, ok := obj["dependencies"]; ok {
		m, ok := s.(map[string]any)
		if !ok {
			return invalid(ptr, "dependencies", "must be an object")
		}
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if arr, ok := m[k].([]any); ok {
				if err := stringArray(arr); err != nil {
					return invalid(ptr, "dependencies", k+": "+err.Error())
				}
				continue
			}
			if err := sub(ptr+"/dependencies/"+jsonstrict.EscapeToken(k), m[k]); err != nil {
				return err
			}
		}
	}
	return nil
}

func (c *compiler) checkKeywords(ptr string, obj map[string]any, sc scope) error {
	base := sc.base
	for _, kw := range []string{"$dynamicRef", "$dynamicAnchor", "$recursiveRef", "$recursiveAnchor"} {
		if _, ok := obj[kw]; ok {
			return refuse(ptr, kw, "dynamic references are not supported")
		}
	}
	if sc.draft != 2020 {
		if err := compatible(ptr, obj, sc.draft); err != nil {
			return err
		}
	}
	for _, kw := range slices.Sorted(maps.Keys(obj)) {
		v := obj[kw]
		str := func() (string, error) {
			s, ok := v.(string)
			if !ok {
				return "", invalid(ptr, kw, "must be a string")
			}
			return s, nil
		}
		switch kw {
		case "$schema":
			s, err := str()
			if err != nil {
				return err
			}
			// At a resource's root it set the dialect (scan); elsewhere it
			// is ignored, as long as it names a known one.
			if _, ok := drafts[draftURL(s)]; !ok {
				return invalid(ptr, kw, fmt.Sprintf("dialect %q is unknown", s))
			}
		case "$ref":
			s, err := str()
			if err != nil {
				return err
			}
			if _, err := uriReference(s); err != nil {
				return invalid(ptr, kw, "not a URI reference: "+err.Error())
			}
		case "$anchor":
			s, err := str()
			if err != nil {
				return err
			}
			if !anchorName(s) {
				return invalid(ptr, kw, fmt.Sprintf("%q is not an anchor name", s))
			}
			res := *base
			res.Fragment, res.RawFragment = s, ""
			key := res.String()
			if p, dup := c.anchors[key]; dup && p != ptr {
				return invalid(ptr, kw, fmt.Sprintf("anchor %q is also at %q", s, p))
			}
			c.anchors[key] = ptr
		case "$vocabulary":
			m, ok := v.(map[string]any)
			if !ok {
				return invalid(ptr, kw, "must be an object")
			}
			for k, b := range m {
				if u, err := uriReference(k); err != nil || !u.IsAbs() {
					return invalid(ptr, kw, fmt.Sprintf("%q is not a URI", k))
				}
				if _, ok := b.(bool); !ok {
					return invalid(ptr, kw, "values must be booleans")
				}
			}
		case "$comment", "title", "description", "format", "contentEncoding", "contentMediaType":
			if _, err := str(); err != nil {
				return err
			}
		case "deprecated", "readOnly", "writeOnly", "uniqueItems":
			if _, ok := v.(bool); !ok {
				return invalid(ptr, kw, "must be a boolean")
			}
		case "examples", "enum":
			if _, ok := v.([]any); !ok {
				return invalid(ptr, kw, "must be an array")
			}
		case "type":
			switch t := v.(type) {
			case string:
				if typeByName(t) == tInvalid {
					return invalid(ptr, kw, fmt.Sprintf("%q is not a JSON type", t))
				}
			case []any:
				if len(t) == 0 {
					return invalid(ptr, kw, "must not be empty")
				}
				for i, e := range t {
					s, ok := e.(string)
					if !ok || typeByName(s) == tInvalid {
						return invalid(ptr, kw, "must list JSON type names")
					}
					for _, p := range t[:i] {
						if p == e {
							return invalid(ptr, kw, "must not repeat a type")
						}
					}
				}
			default:
				return invalid(ptr, kw, "must be a type name or an array of them")
			}
		case "multipleOf":
			r, ok := number(v)
			if !ok || r.Sign() <= 0 {
				return invalid(ptr, kw, "must be a number greater than 0")
			}
		case "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum":
			if !isNumber(v) {
				return invalid(ptr, kw, "must be a number")
			}
		case "maxLength", "minLength", "maxItems", "minItems", "maxContains", "minContains", "maxProperties", "minProperties":
			if _, err := count(v); errors.Is(err, errTooLarge) {
				return refuse(ptr, kw, err.Error())
			} else if err != nil {
				return invalid(ptr, kw, err.Error())
			}
		case "pattern":
			s, err := str()
			if err != nil {
				return err
			}
			if _, err := regexp.Compile(s); err != nil {
				return invalid(ptr, kw, fmt.Sprintf("%q is not a regular expression: %v", s, err))
			}
		case "required":
			arr, ok := v.([]any)
			if !ok {
				return invalid(ptr, kw, "must be an array of strings")
			}
			if err := stringArray(arr); err != nil {
				return invalid(ptr, kw, err.Error())
			}
		case "dependentRequired":
			m, ok := v.(map[string]any)
			if !ok {
				return invalid(ptr, kw, "must be an object of string arrays")
			}
			for k, e := range m {
				arr, ok := e.([]any)
				if !ok {
					return invalid(ptr, kw, k+": must be an array of strings")
				}
				if err := stringArray(arr); err != nil {
					return invalid(ptr, kw, k+": "+err.Error())
				}
			}
		case "unevaluatedProperties", "unevaluatedItems":
			c.track = true
		}
	}
	return nil
}

// compatible refuses a keyword whose meaning in the document's draft (07
// or 2019-09, as santhosh-tekuri/jsonschema implements them) differs from
// its meaning in 2020-12.
func compatible(ptr string, obj map[string]any, draft int) error {
	differ := []string{"prefixItems"}
	if draft == 7 {
		differ = []string{"prefixItems", "$anchor", "dependentRequired", "dependentSchemas",
			"unevaluatedProperties", "unevaluatedItems", "minContains", "maxContains"}
		_, ref := obj["$ref"]
		if _, ok := obj["const"]; ok && ref {
			// The draft ignores it; the reference asserts it.
			return refuse(ptr, "const", `"const" beside "$ref" in draft 07 is not supported`)
		}
	}
	for _, kw := range differ {
		if _, ok := obj[kw]; ok {
			return refuse(ptr, kw, fmt.Sprintf("%q means something else in this dialect than in draft 2020-12", kw))
		}
	}
	return nil
}

var errTooLarge = errors.New("is larger than 2147483647")

func stringArray(arr []any) error {
	for i, e := range arr {
		if _, ok := e.(string); !ok {
			return errors.New("must be an array of strings")
		}
		if slices.Contains(arr[:i], e) {
			return errors.New("must not repeat a string")
		}
	}
	return nil
}

// count is a non-negative integer keyword's value (1.0 and 1e2 are
// integers); one past the range of int is refused rather than wrapped.
func count(v any) (int, error) {
	r, ok := number(v)
	if !ok || !r.IsInt() || r.Sign() < 0 {
		return 0, errors.New("must be a non-negative integer")
	}
	if !r.Num().IsInt64() || r.Num().Int64() > math.MaxInt32 {
		return 0, errTooLarge
	}
	return int(r.Num().Int64()), nil
}

// uriReference parses a URI reference as the "uri-reference" format does:
// no backslash, and an IPv6 host in brackets.
func uriReference(s string) (*url.URL, error) {
	if strings.Contains(s, `\`) {
		return nil, errors.New(`contains \`)
	}
	return parseURI(s)
}

// parseURI parses a URI reference with net/url, which does not check an
// IPv6 host: it must be in brackets and an address without a zone.
func parseURI(s string) (*url.URL, error) {
	u, err := url.Parse(s)
	if err != nil {
		return nil, err
	}
	if h := u.Hostname(); strings.Contains(h, ":") {
		if !strings.Contains(u.Host, "[") || !strings.Contains(u.Host, "]") {
			return nil, errors.New("IPv6 address not in brackets")
		}
		if !isIPv6(h) {
			return nil, errors.New("invalid IPv6 address")
		}
	}
	return u, nil
}

// at returns the document's value at a JSON pointer.
func (c *compiler) at(ptr string) (any, bool) {
	v := c.doc
	if ptr == "" {
		return v, true
	}
	if !strings.HasPrefix(ptr, "/") {
		return nil, false
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = jsonstrict.UnescapeToken(tok)
		switch t := v.(type) {
		case map[string]any:
			e, ok := t[tok]
			if !ok {
				return nil, false
			}
			v = e
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(t) || strconv.Itoa(i) != tok {
				return nil, false
			}
			v = t[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// baseFor is the base URI of a location no scan reached: that of the
// innermost resource containing it.
func (c *compiler) baseFor(ptr string) scope {
	best, bestLen := c.resBase[""], -1
	for p, b := range c.resBase {
		if (p == ptr || strings.HasPrefix(ptr, p+"/")) && len(p) > bestLen {
			best, bestLen = b, len(p)
		}
	}
	return best
}

// compile builds the node of the schema at ptr (scanned before).
func (c *compiler) compile(ptr string) (*node, error) {
	if n, ok := c.nodes[ptr]; ok {
		return n, nil
	}
	v, ok := c.at(ptr)
	if !ok {
		return nil, invalid(ptr, "", "no schema at this location")
	}
	sc, scanned := c.bases[ptr]
	if !scanned {
		if err := c.scan(ptr, v, c.baseFor(ptr), false); err != nil {
			return nil, err
		}
		sc = c.bases[ptr]
	}
	n := &node{ptr: ptr, minProps: -1, maxProps: -1, minItems: -1, maxItems: -1, minContains: -1, maxContains: -1, minLen: -1, maxLen: -1}
	c.nodes[ptr] = n
	if b, ok := v.(bool); ok {
		n.always = &b
		return n, nil
	}
	obj := v.(map[string]any)
	sub := func(kw string) (*node, error) {
		if _, ok := obj[kw]; !ok {
			return nil, nil
		}
		return c.compile(ptr + "/" + jsonstrict.EscapeToken(kw))
	}
	arr := func(kw string) ([]*node, error) {
		a, _ := obj[kw].([]any)
		var out []*node
		for i := range a {
			s, err := c.compile(ptr + "/" + kw + "/" + strconv.Itoa(i))
			if err != nil {
				return nil, err
			}
			out = append(out, s)
		}
		return out, nil
	}
	var err error
	if r, ok := obj["$ref"]; ok && sc.draft == 7 {
		// Draft 07: "$ref" alone applies; its siblings are ignored. The
		// reference still compiles these, so a broken one fails here too.
		if n.ref, err = c.ref(ptr, sc, r.(string)); err != nil {
			return nil, err
		}
		for _, kw := range []string{"contains", "propertyNames", "if", "then", "else"} {
			if _, err := sub(kw); err != nil {
				return nil, err
			}
		}
		return n, nil
	}
	if t, ok := obj["type"]; ok {
		n.hasTypes = true
		switch t := t.(type) {
		case string:
			n.types = typeByName(t)
			n.typeList = []string{t}
		case []any:
			for _, e := range t {
				n.types |= typeByName(e.(string))
				n.typeList = append(n.typeList, e.(string))
			}
		}
	}
	if cv, ok := obj["const"]; ok {
		n.hasConst, n.constV = true, cv
	}
	if e, ok := obj["enum"]; ok {
		n.hasEnum, n.enum = true, e.([]any)
	}
	if r, ok := obj["$ref"]; ok {
		if n.ref, err = c.ref(ptr, sc, r.(string)); err != nil {
			return nil, err
		}
	}
	if f, ok := obj["format"].(string); ok && sc.draft == 7 {
		n.format, n.formatName = formatChecks[f], f
	}
	ints := []struct {
		kw  string
		dst *int
	}{{"minProperties", &n.minProps}, {"maxProperties", &n.maxProps}, {"minItems", &n.minItems}, {"maxItems", &n.maxItems},
		{"minLength", &n.minLen}, {"maxLength", &n.maxLen}}
	for _, i := range ints {
		if v, ok := obj[i.kw]; ok {
			*i.dst, _ = count(v)
		}
	}
	if a, ok := obj["required"].([]any); ok {
		for _, e := range a {
			n.required = append(n.required, e.(string))
		}
	}
	if m, ok := obj["dependencies"].(map[string]any); ok {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			d := dep{name: k}
			if a, ok := m[k].([]any); ok {
				d.required = strs(a)
			} else if d.schema, err = c.compile(ptr + "/dependencies/" + jsonstrict.EscapeToken(k)); err != nil {
				return nil, err
			}
			n.dependencies = append(n.dependencies, d)
		}
	}
	if m, ok := obj["properties"].(map[string]any); ok {
		n.props = make(map[string]*node, len(m))
		for k := range m {
			if n.props[k], err = c.compile(ptr + "/properties/" + jsonstrict.EscapeToken(k)); err != nil {
				return nil, err
			}
		}
	}
	if m, ok := obj["patternProperties"].(map[string]any); ok {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			p := pattern{src: k, re: regexp.MustCompile(k)}
			if p.s, err = c.compile(ptr + "/patternProperties/" + jsonstrict.EscapeToken(k)); err != nil {
				return nil, err
			}
			n.patterns = append(n.patterns, p)
		}
	}
	if b, ok := obj["additionalProperties"].(bool); ok && !b {
		n.noAdditional = true
	} else if n.additional, err = sub("additionalProperties"); err != nil {
		return nil, err
	}
	if n.propertyNames, err = sub("propertyNames"); err != nil {
		return nil, err
	}
	if m, ok := obj["dependentSchemas"].(map[string]any); ok {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			d := dep{name: k}
			if d.schema, err = c.compile(ptr + "/dependentSchemas/" + jsonstrict.EscapeToken(k)); err != nil {
				return nil, err
			}
			n.dependentSchemas = append(n.dependentSchemas, d)
		}
	}
	if m, ok := obj["dependentRequired"].(map[string]any); ok {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			n.dependentRequired = append(n.dependentRequired, dep{name: k, required: strs(m[k].([]any))})
		}
	}
	if n.unevalProps, err = sub("unevaluatedProperties"); err != nil {
		return nil, err
	}
	if b, ok := obj["uniqueItems"].(bool); ok {
		n.unique = b
	}
	if n.prefix, err = arr("prefixItems"); err != nil {
		return nil, err
	}
	if _, ok := obj["items"].([]any); ok {
		// Drafts 07 and 2019-09 (scan refuses it in 2020-12): prefixItems
		// and items of draft 2020-12, under other names.
		if n.prefix, err = arr("items"); err != nil {
			return nil, err
		}
		if b, ok := obj["additionalItems"].(bool); ok && !b {
			n.noAdditionalItems = true
		} else if n.items, err = sub("additionalItems"); err != nil {
			return nil, err
		}
	} else if n.items, err = sub("items"); err != nil {
		return nil, err
	}
	if n.contains, err = sub("contains"); err != nil {
		return nil, err
	}
	n.containsEvaluates = sc.draft == 2020
	if n.contains != nil {
		if v, ok := obj["minContains"]; ok {
			n.minContains, _ = count(v)
		}
		if v, ok := obj["maxContains"]; ok {
			n.maxContains, _ = count(v)
		}
	}
	if n.unevalItems, err = sub("unevaluatedItems"); err != nil {
		return nil, err
	}
	if p, ok := obj["pattern"].(string); ok {
		n.pattern = regexp.MustCompile(p)
	}
	for _, r := range []struct {
		kw  string
		dst **big.Rat
	}{{"minimum", &n.minimum}, {"maximum", &n.maximum}, {"exclusiveMinimum", &n.exMin}, {"exclusiveMaximum", &n.exMax}, {"multipleOf", &n.multipleOf}} {
		if v, ok := obj[r.kw]; ok {
			*r.dst, _ = number(v)
		}
	}
	if n.allOf, err = arr("allOf"); err != nil {
		return nil, err
	}
	if n.anyOf, err = arr("anyOf"); err != nil {
		return nil, err
	}
	if n.oneOf, err = arr("oneOf"); err != nil {
		return nil, err
	}
	if n.not, err = sub("not"); err != nil {
		return nil, err
	}
	if n.ifS, err = sub("if"); err != nil {
		return nil, err
	}
	if n.ifS != nil {
		if n.then, err = sub("then"); err != nil {
			return nil, err
		}
		if n.els, err = sub("else"); err != nil {
			return nil, err
		}
	}
	// definitions, $defs and contentSchema are compiled when a reference
	// reaches them; scan has checked them.
	return n, nil
}

func strs(a []any) []string {
	out := make([]string, len(a))
	for i, e := range a {
		out[i] = e.(string)
	}
	return out
}

// ref compiles the target of the "$ref" at ptr.
func (c *compiler) ref(ptr string, sc scope, ref string) (*node, error) {
	target, err := c.resolve(ptr, sc.base, ref)
	if err != nil {
		return nil, err
	}
	return c.compile(target)
}

// resolve returns the document pointer a "$ref" at ptr names.
func (c *compiler) resolve(ptr string, base *url.URL, ref string) (string, error) {
	r, err := uriReference(ref)
	if err != nil {
		return "", invalid(ptr, "$ref", "not a URI reference")
	}
	u := base.ResolveReference(r)
	frag := u.Fragment
	u.Fragment, u.RawFragment = "", ""
	res, ok := c.resources[u.String()]
	if !ok {
		return "", refuse(ptr, "$ref", fmt.Sprintf("%q is outside the schema: external schema references are not allowed", ref))
	}
	switch {
	case frag == "":
		return res, nil
	case strings.HasPrefix(frag, "/"):
		target := res + frag
		if _, ok := c.at(target); !ok {
			return "", invalid(ptr, "$ref", fmt.Sprintf("%q names no location of the schema", ref))
		}
		return target, nil
	default:
		u.Fragment = frag
		target, ok := c.anchors[u.String()]
		if !ok {
			return "", invalid(ptr, "$ref", fmt.Sprintf("%q names no anchor of the schema", ref))
		}
		return target, nil
	}
}

// cycles refuses a schema in which applying a subschema to the same value
// can reach that subschema again ("$ref": "#" at the root, or through
// allOf and the like): such a schema never finishes validating.
func (c *compiler) cycles() error {
	const (
		white = iota
		grey
		black
	)
	color := map[*node]int{}
	var visit func(n *node) error
	visit = func(n *node) error {
		switch color[n] {
		case grey:
			return refuse(n.ptr, "$ref", "a reference cycle that never reaches a child value")
		case black:
			return nil
		}
		color[n] = grey
		next := []*node{n.ref, n.not, n.ifS, n.then, n.els}
		next = append(next, n.allOf...)
		next = append(next, n.anyOf...)
		next = append(next, n.oneOf...)
		for _, d := range n.dependencies {
			next = append(next, d.schema)
		}
		for _, d := range n.dependentSchemas {
			next = append(next, d.schema)
		}
		for _, s := range next {
			if s != nil {
				if err := visit(s); err != nil {
					return err
				}
			}
		}
		color[n] = black
		return nil
	}
	for _, p := range sortedNodeKeys(c.nodes) {
		if err := visit(c.nodes[p]); err != nil {
			return err
		}
	}
	return nil
}

func sortedNodeKeys(m map[string]*node) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}
