package jsonschema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	santhosh "github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/rlm-go/rlm/internal/jsonstrict"
)

// The reference: santhosh-tekuri/jsonschema/v6, set up as package tool set
// it up before this package replaced it (draft 2020-12 by default, no
// loader, formats and content not asserted).

type noLoader struct{}

func (noLoader) Load(string) (any, error) { return nil, errors.New("no external references") }

const testBase = "https://rlm.invalid/tools/t/arguments.json"

func refCompile(raw string) (*santhosh.Schema, error) {
	doc, err := santhosh.UnmarshalJSON(strings.NewReader(raw))
	if err != nil {
		return nil, err
	}
	c := santhosh.NewCompiler()
	c.DefaultDraft(santhosh.Draft2020)
	c.UseLoader(noLoader{})
	if err := c.AddResource(testBase, doc); err != nil {
		return nil, err
	}
	return c.Compile(testBase)
}

// leafKey is what the tool runtime reads of a leaf.
type leafKey struct{ Pointer, Keyword string }

func refLeaves(err error) []leafKey {
	var ve *santhosh.ValidationError
	if !errors.As(err, &ve) {
		return []leafKey{{"?", "?"}}
	}
	var out []leafKey
	var walk func(e *santhosh.ValidationError)
	walk = func(e *santhosh.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		var p strings.Builder
		for _, t := range e.InstanceLocation {
			p.WriteString("/" + jsonstrict.EscapeToken(t))
		}
		k := leafKey{Pointer: p.String()}
		if kw := e.ErrorKind.KeywordPath(); len(kw) > 0 {
			k.Keyword = kw[len(kw)-1]
		}
		// Deliberate difference: the keyword of these is the keyword.
		switch e.ErrorKind.(type) {
		case *kind.DependentRequired:
			k.Keyword = "dependentRequired"
		case *kind.Dependency:
			k.Keyword = "dependencies"
		case *kind.Not:
			k.Keyword = "not"
		}
		out = append(out, k)
	}
	walk(ve)
	return canon(out)
}

func ourLeaves(ls []Leaf) []leafKey {
	out := make([]leafKey, len(ls))
	for i, l := range ls {
		out[i] = leafKey{l.Pointer(), l.Keyword}
	}
	return canon(out)
}

func canon(ks []leafKey) []leafKey {
	slices.SortFunc(ks, func(a, b leafKey) int {
		return strings.Compare(a.Pointer+"\x00"+a.Keyword, b.Pointer+"\x00"+b.Keyword)
	})
	return slices.Compact(ks)
}

func decode(t testing.TB, raw string) any {
	d := json.NewDecoder(strings.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("instance %s: %v", raw, err)
	}
	return v
}

// agree compares one schema and instance with the reference: both compile
// or ours refuses explicitly; same verdict; same set of leaves (pointers
// aside where propertyNames is used, whose leaves the reference places at
// the root).
func agree(t testing.TB, schema string, instances ...string) {
	t.Helper()
	ref, rerr := refCompile(schema)
	ours, oerr := Compile([]byte(schema), testBase)
	if oerr != nil {
		var ce *CompileError
		if !errors.As(oerr, &ce) {
			t.Fatalf("%s: error %v is not a CompileError", schema, oerr)
		}
		if rerr == nil && !ce.Refused {
			t.Fatalf("%s: ours does not compile (%v), the reference does", schema, oerr)
		}
		return
	}
	if rerr != nil {
		t.Fatalf("%s: ours compiles, the reference does not: %v", schema, rerr)
	}
	for _, instance := range instances {
		agreeOn(t, ref, ours, schema, instance)
	}
}

func agreeOn(t testing.TB, ref *santhosh.Schema, ours *Schema, schema, instance string) {
	t.Helper()
	v := decode(t, instance)
	rv := ref.Validate(v)
	ol := ours.Validate(v)
	if (rv == nil) != (ol == nil) {
		t.Fatalf("schema %s\ninstance %s\nreference valid=%v, ours valid=%v (%+v)", schema, instance, rv == nil, ol == nil, ol)
	}
	if ours.Valid(v) != (ol == nil) {
		t.Fatalf("schema %s\ninstance %s\nValid disagrees with Validate", schema, instance)
	}
	if rv == nil {
		return
	}
	want, got := refLeaves(rv), ourLeaves(ol)
	if strings.Contains(schema, "propertyNames") {
		for i := range want {
			want[i].Pointer = ""
		}
		for i := range got {
			got[i].Pointer = ""
		}
		want, got = canon(want), canon(got)
	}
	if !slices.Equal(want, got) {
		t.Fatalf("schema %s\ninstance %s\nreference leaves %v\nours %v", schema, instance, want, got)
	}
}

// TestAgreesOnKeywords: every keyword, valid and invalid instances.
func TestAgreesOnKeywords(t *testing.T) {
	instances := []string{`null`, `true`, `0`, `1`, `1.0`, `2.5`, `-3`, `1e2`, `""`, `"ab"`, `"héllo"`, `[]`, `[1]`, `[1,1]`,
		`[1,"a",null]`, `[[1],[1.0]]`, `{}`, `{"a":1}`, `{"a":"x","b":2}`, `{"a":1,"b":{"c":[1,2]}}`, `{"x~/":0,"a":null}`,
		`{"aa":1,"ab":"s","c":true}`, `{"n":1,"id":2,"tags":["a","c"]}`}
	schemas := []string{
		`true`, `false`, `{}`,
		`{"type":"integer"}`, `{"type":["string","null"]}`, `{"type":"number"}`, `{"type":"object"}`,
		`{"const":1}`, `{"const":{"a":1}}`, `{"enum":[1,"ab",null,[1]]}`,
		`{"minimum":1}`, `{"maximum":1}`, `{"exclusiveMinimum":1}`, `{"exclusiveMaximum":1.0}`, `{"multipleOf":0.5}`, `{"multipleOf":2}`,
		`{"minLength":2}`, `{"maxLength":1}`, `{"pattern":"^a"}`, `{"pattern":"b"}`,
		`{"minItems":2}`, `{"maxItems":1}`, `{"uniqueItems":true}`, `{"prefixItems":[{"type":"integer"},{"type":"string"}]}`,
		`{"items":{"type":"integer"}}`, `{"prefixItems":[true],"items":false}`, `{"contains":{"type":"string"}}`,
		`{"contains":{"type":"integer"},"minContains":2}`, `{"contains":{"type":"integer"},"maxContains":1}`, `{"contains":{"type":"integer"},"minContains":0}`,
		`{"minProperties":2}`, `{"maxProperties":1}`, `{"required":["a","b"]}`,
		`{"properties":{"a":{"type":"integer"},"b":false}}`, `{"patternProperties":{"^a":{"type":"string"}}}`,
		`{"properties":{"a":true},"additionalProperties":false}`, `{"properties":{"a":true},"patternProperties":{"^b":true},"additionalProperties":{"type":"string"}}`,
		`{"propertyNames":{"maxLength":1}}`, `{"propertyNames":{"pattern":"^a"}}`,
		`{"dependentRequired":{"a":["b","c"]}}`, `{"dependentSchemas":{"a":{"required":["b"]}}}`, `{"dependencies":{"a":["b"],"b":{"minProperties":3}}}`,
		`{"allOf":[{"type":"object"},{"required":["a"]}]}`, `{"anyOf":[{"type":"string"},{"type":"integer","minimum":1}]}`,
		`{"oneOf":[{"type":"integer"},{"minimum":1}]}`, `{"not":{"type":"object"}}`,
		`{"if":{"type":"integer"},"then":{"minimum":1},"else":{"type":"string"}}`, `{"if":true,"then":false}`, `{"if":false,"else":{"const":1}}`,
		`{"$defs":{"i":{"type":"integer"}},"properties":{"a":{"$ref":"#/$defs/i"}}}`,
		`{"$defs":{"i":{"$anchor":"int","type":"integer"}},"items":{"$ref":"#int"}}`,
		`{"$defs":{"x":{"$id":"x.json","$defs":{"y":{"type":"string"}},"$ref":"#/$defs/y"}},"properties":{"a":{"$ref":"x.json"}}}`,
		`{"properties":{"b":{"$ref":"#"}},"type":"object","required":["a"]}`,
		`{"$defs":{"x":{"$anchor":"_A.b-9","type":"string"}},"$ref":"#_A.b-9"}`,
		`{"$ref":"#/$defs/o","$defs":{"o":{"properties":{"a":true}}},"unevaluatedProperties":false}`,
		`{"allOf":[{"properties":{"a":true}}],"unevaluatedProperties":{"type":"integer"}}`,
		`{"anyOf":[{"properties":{"a":{"type":"integer"}}},{"properties":{"b":true}}],"unevaluatedProperties":false}`,
		`{"if":{"required":["a"],"properties":{"a":true}},"else":{"properties":{"b":true}},"unevaluatedProperties":false}`,
		`{"prefixItems":[true],"unevaluatedItems":{"type":"integer"}}`, `{"contains":{"type":"integer"},"unevaluatedItems":false}`,
		`{"allOf":[{"prefixItems":[true,true]}],"unevaluatedItems":false}`,
		`{"type":"object","properties":{"n":{"type":"integer"},"id":{},"tags":{"type":"array","items":{"enum":["a","b"]}}},"required":["n","id"],"additionalProperties":false}`,
		`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object"}`,
		`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"a":{"type":"integer"}},"required":["a"]}`,
		`{"$schema":"http://json-schema.org/draft-07/schema#","items":[{"type":"integer"}]}`,
		`{"$schema":"http://json-schema.org/draft-07/schema#","format":"email"}`,
		`{"definitions":{"a":{"type":"string"}},"properties":{"a":{"$ref":"#/definitions/a"}}}`,
		// Draft 07 as zod-to-json-schema writes it.
		`{"$schema":"http://json-schema.org/draft-07/schema#","items":[{"type":"integer"},{"type":"string"}]}`,
		`{"$schema":"http://json-schema.org/draft-07/schema#","items":[{"type":"integer"}],"additionalItems":false}`,
		`{"$schema":"http://json-schema.org/draft-07/schema#","items":[true],"additionalItems":{"type":"string"}}`,
		`{"$schema":"http://json-schema.org/draft-07/schema#","items":{"type":"integer"},"additionalItems":false}`,
		`{"$schema":"http://json-schema.org/draft-07/schema#","items":[{"type":"integer"},{"type":"string"}],"minItems":2,"maxItems":2}`,
		`{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"i":{"type":"integer"}},"properties":{"a":{"$ref":"#/definitions/i","type":"string","minimum":5,"description":"x"}}}`,
		`{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"o":{"type":"object"}},"$ref":"#/definitions/o","required":["zz"],"properties":{"a":false},"contains":true,"if":true,"then":false}`,
		`{"$schema":"http://json-schema.org/draft-07/schema#","properties":{"a":{"format":"email"},"b":{"format":"date-time","type":"string"},"aa":{"format":"uuid"},"c":{"format":"nonesuch"}}}`,
		`{"$schema":"http://json-schema.org/draft-07/schema#","format":"ipv4","enum":["a",1]}`,
		`{"$schema":"http://json-schema.org/draft-07/schema#","dependencies":{"a":["b"],"b":{"required":["c"]}},"properties":{"b":{"format":"uri"}}}`,
		`{"$schema":"https://json-schema.org/draft/2019-09/schema","format":"email"}`,
		`{"$schema":"https://json-schema.org/draft/2019-09/schema","items":[{"type":"integer"}],"additionalItems":false}`,
		`{"$schema":"https://json-schema.org/draft/2019-09/schema","items":[{"type":"integer"}],"additionalItems":{"type":"string"}}`,
		`{"$schema":"https://json-schema.org/draft/2019-09/schema","items":[true],"unevaluatedItems":false}`,
		`{"$schema":"https://json-schema.org/draft/2019-09/schema","allOf":[{"items":[true]}],"unevaluatedItems":{"type":"integer"}}`,
		`{"$schema":"https://json-schema.org/draft/2019-09/schema","allOf":[{"items":[true],"additionalItems":true}],"unevaluatedItems":false}`,
		`{"$schema":"https://json-schema.org/draft/2019-09/schema","contains":{"type":"integer"},"unevaluatedItems":false}`,
		`{"$schema":"https://json-schema.org/draft/2019-09/schema","$ref":"#/$defs/a","$defs":{"a":{"items":[true]}},"unevaluatedItems":false,"type":"array"}`,
		// Dialects of embedded resources, and "$schema" where it sets none.
		`{"properties":{"a":{"$schema":"http://json-schema.org/draft-07/schema#","$id":"a.json","type":"object","properties":{"b":{"type":"integer"}}}}}`,
		`{"$schema":"http://json-schema.org/draft-07/schema#","properties":{"a":{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"a.json","unevaluatedProperties":false}}}`,
		`{"properties":{"a":{"$schema":"http://json-schema.org/draft-04/schema#","type":"integer"}}}`,
		`{"properties":{"a":{"$schema":"http://json-schema.org/draft-07/schema#","$id":"a.json","unevaluatedProperties":false}}}`,
		`{"properties":{"a":{"$schema":"http://json-schema.org/draft-07/schema#","$id":"a.json","format":"email"}}}`,
		`{"title":"x","description":"y","default":1,"examples":[1],"deprecated":true,"readOnly":false,"writeOnly":false,"$comment":"c","format":"email","contentMediaType":"application/json","contentEncoding":"base64","contentSchema":{"type":"object"}}`,
	}
	for _, s := range schemas {
		agree(t, s, instances...)
	}
}

// formatStrings are tricky strings for every format the reference
// asserts in draft 07.
var formatStrings = []string{
	"", " ", "a", "A", "0", "-", "\u00e9", "\u0000",
	// date, time, date-time, duration, period
	"2024-02-29", "2023-02-29", "2023-13-01", "2023-00-10", "2023-1-01", "02023-01-01", "2023-01-32", "2023-04-31", "2023-01-01x",
	"23:59:60Z", "23:59:60+00:00", "12:00:60Z", "00:59:60+01:00", "22:59:60-01:00", "23:59:59.123456789Z", "23:59:59.Z", "23:59:59z",
	"+1:00:00Z", "-0:00:00Z", "-1:00:00Z", "24:00:00Z", "12:60:00Z", "12:00:00+24:00", "12:00:00+23:60", "12:00:00+0100",
	"12:00:00", "12:00:00 Z", "12:00:00+01:00x", "00:00:60-23:59", "23:59:60+23:59", "1:00:00Z", "12:00:00+-1:00", "12:00:00+01:+1",
	"2023-06-01T12:00:00Z", "2023-06-01t12:00:00z", "2023-06-01 12:00:00Z", "2023-06-01T12:00:00", "2023-06-01T12:00:00.5+05:30",
	"2016-12-31T23:59:60Z", "2016-12-31T23:59:60+01:00", "2023-02-30T00:00:00Z", "2023-06-01T25:00:00Z",
	"P1D", "P", "PT", "P1DT", "PT1H", "P1Y2M3DT4H5M6S", "P1M1Y", "P1W", "PW", "P1DW", "P1.5D", "PT1H1H", "P1DT1HT1M", "P1H", "PT1D", "P1D2", "Px",
	"2023-06-01T12:00:00Z/P1D", "P1D/2023-06-01T12:00:00Z", "2023-06-01T12:00:00Z/2023-06-02T12:00:00Z", "P1D/P2D", "/", "2023-06-01T12:00:00Z/",
	// email, hostname
	"joe@example.com", "joe.bloggs@example.co.uk", "\"joe bloggs\"@example.com", "\"a\\b\"@example.com", "\"\"@example.com", "\"@example.com",
	".joe@example.com", "joe.@example.com", "jo..e@example.com", "joe@", "@example.com", "joe", "joe@@example.com", "a@b@example.com",
	"joe@[127.0.0.1]", "joe@[IPv6:::1]", "joe@[IPv6:fe80::1%25e]", "joe@[256.0.0.1]", "joe@[example.com]", "joe@-example.com", "joe@example-.com",
	"joe@ex_ample.com", "jo e@example.com", "j\u00f6e@example.com", "joe+tag@example.com", "{joe}|~@example.com", "joe@example.com.",
	"example.com", "example.com.", "a..b", ".a", "a-.b", "xn--bcher-kva.example", "a_b.com", "1.2.3.4", "localhost",
	"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.com", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.com",
	// ipv4, ipv6
	"127.0.0.1", "255.255.255.255", "256.0.0.1", "01.2.3.4", "0.0.0.0", "1.2.3", "1.2.3.4.5", "+1.2.3.4", "-0.2.3.4", "1.2.3.4 ", "1.2.3.", "0x1.2.3.4",
	"::1", "::", "1::2::3", "fe80::1%eth0", "::ffff:1.2.3.4", "1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8:9", "12345::", "::ffff:256.1.2.3", "[::1]", "1:2:3:4:5:6:1.2.3.4",
	// uuid
	"123e4567-e89b-12d3-a456-426614174000", "123E4567-E89B-12D3-A456-426614174000", "123e4567e89b12d3a456426614174000",
	"123e4567-e89b-12d3-a456-42661417400g", "123e4567-e89b-12d3-a456-4266141740000", "{123e4567-e89b-12d3-a456-426614174000}", "123e4567-e89b-12d3-a4564-26614174000",
	// uri, uri-reference, iri, json pointers
	"https://example.com/a?b#c", "mailto:joe@example.com", "urn:isbn:0451450523", "//example.com/x", "/a/b", "a/b", "#frag", "?q", "http://[::1]:80/",
	"http://::1/", "http://[fe80::1%25eth0]/", "http://[1.2.3.4]/", "http://ex ample.com/", "http://example.com/%zz", "http://example.com/\\x", "\\a",
	"http://example.com:port/", "http://[::1", "1http://x", "http:", "h\u00e9llo:x", "http://ex\u00e4mple.com/\u00fc",
	"/a~0b/c~1d", "/a~2", "/a~", "a/b", "/", "//", "/~01", "0", "1/a", "01/a", "0#", "1#/", "12/a~1", "-1/a", "0/",
	// semver, regex
	"1.2.3", "1.2.3-alpha.1+build.5", "1.2", "01.2.3", "1.2.3-01", "1.2.3-0a", "1.2.3-", "1.2.3+", "1.2.3+a..b", "1.2.3-a_b", "v1.2.3", "1.2.3-alpha+",
	"http://example.com/{a}", "/{a}/{b}", "/{a{b}}", "/%7Ba", "http://x/%7B{a}", "/a%2F{b", "/a%2F{b}", "/%7B%7D{", "{", "}", "/{a}}",
	"/%7b{a}", "/x%zz", "http://x/{a}%20", "/%7Ba%7D/{", "/%41{b", "/%41{b}}", "/%41}",
	"^a+$", "(", "a{2,1}", "(?P<n>x)", "\\d", "[[:alpha:]]", "(?=x)", "\\", "a**",
}

// TestAgreesOnFormats: every format the reference asserts in draft 07, on
// the tricky strings and a few non-strings (never asserted).
func TestAgreesOnFormats(t *testing.T) {
	names := []string{"nonesuch", "color"}
	for f := range formatChecks {
		names = append(names, f)
	}
	slices.Sort(names)
	instances := []string{`1`, `null`, `["a"]`}
	for _, s := range formatStrings {
		b, _ := json.Marshal(s)
		instances = append(instances, string(b))
	}
	for _, f := range names {
		agree(t, fmt.Sprintf(`{"$schema":"http://json-schema.org/draft-07/schema#","format":%q}`, f), instances...)
		// Draft 2020-12: an annotation.
		agree(t, fmt.Sprintf(`{"format":%q}`, f), instances...)
	}
}

// TestRefuses: schemas ours refuses explicitly (Refused) or rejects as
// invalid, like the reference.
func TestRefuses(t *testing.T) {
	for _, c := range []struct {
		schema, keyword string
		refused         bool
	}{
		{`{"$ref":"https://example.com/x.json"}`, "$ref", true},
		{`{"$ref":"other.json"}`, "$ref", true},
		{`{"$ref":"#"}`, "$ref", true},
		{`{"allOf":[{"$ref":"#"}]}`, "$ref", true},
		{`{"$dynamicRef":"#meta"}`, "$dynamicRef", true},
		{`{"$schema":"http://json-schema.org/draft-04/schema#"}`, "$schema", true},
		{`{"$schema":"https://example.com/my-dialect"}`, "$schema", false},
		{`{"properties":{"a":{"$schema":"bogus","type":"integer"}}}`, "$schema", false},
		{`{"properties":{"a":{"$id":"a.json","$schema":"http://json-schema.org/draft-06/schema#"}}}`, "$schema", true},
		{`{"$schema":"http://json-schema.org/draft-07/schema#","$id":"x.json#a"}`, "$id", true},
		{`{"$schema":"http://json-schema.org/draft-07/schema#","$ref":"#/definitions/a","const":1,"definitions":{"a":true}}`, "const", true},
		{`{"$schema":"http://json-schema.org/draft-07/schema#","items":[]}`, "items", false},
		{`{"$schema":"https://json-schema.org/draft/2019-09/schema","prefixItems":[true]}`, "prefixItems", true},
		{`{"type":"strin"}`, "type", false},
		{`{"minLength":-1}`, "minLength", false},
		{`{"minLength":1.5}`, "minLength", false},
		{`{"maxItems":1e12}`, "maxItems", true},
		{`{"pattern":"("}`, "pattern", false},
		{`{"patternProperties":{"(":true}}`, "patternProperties", false},
		{`{"required":["a","a"]}`, "required", false},
		{`{"allOf":[]}`, "allOf", false},
		{`{"properties":{"a":1}}`, "", false},
		{`{"$ref":"#/$defs/missing"}`, "$ref", false},
		{`{"$ref":"#nowhere"}`, "$ref", false},
		{`{"$id":"x.json#frag"}`, "$id", false},
		{`{"$anchor":"1a"}`, "$anchor", false},
		{`{"$anchor":""}`, "$anchor", false},
		{`{"$anchor":"a b"}`, "$anchor", false},
		{`{"$anchor":"-a"}`, "$anchor", false},
		{`{"multipleOf":0}`, "multipleOf", false},
		{`[]`, "", false},
	} {
		_, err := Compile([]byte(c.schema), testBase)
		var ce *CompileError
		if !errors.As(err, &ce) || ce.Keyword != c.keyword || ce.Refused != c.refused {
			t.Errorf("%s: %#v, want keyword %q refused %v", c.schema, err, c.keyword, c.refused)
			continue
		}
		if _, rerr := refCompile(c.schema); !c.refused && rerr == nil {
			t.Errorf("%s: the reference compiles it", c.schema)
		}
	}
}

// gen builds random schemas and instances from a small vocabulary, so that
// keywords meet each other often.
type gen struct {
	r *rand.Rand
	// draft of the schemas: 2020 (12), 2019 (09) or 7 (as
	// zod-to-json-schema writes them).
	draft int
}

func (g gen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

func (g gen) instance(depth int) string {
	if depth > 2 {
		if g.draft == 7 && g.r.IntN(3) == 0 {
			b, _ := json.Marshal(formatStrings[g.r.IntN(len(formatStrings))])
			return string(b)
		}
		return g.pick(`null`, `true`, `0`, `1`, `2.5`, `-1`, `""`, `"a"`, `"ab"`, `"abc"`)
	}
	switch g.r.IntN(4) {
	case 0:
		n := g.r.IntN(4)
		parts := make([]string, n)
		for i := range parts {
			parts[i] = g.instance(depth + 1)
		}
		return "[" + strings.Join(parts, ",") + "]"
	case 1:
		n := g.r.IntN(4)
		seen := map[string]bool{}
		var parts []string
		for range n {
			k := g.pick("a", "b", "c", "aa", "x/y")
			if seen[k] {
				continue
			}
			seen[k] = true
			parts = append(parts, fmt.Sprintf("%q:%s", k, g.instance(depth+1)))
		}
		return "{" + strings.Join(parts, ",") + "}"
	default:
		return g.instance(3)
	}
}

func (g gen) schema(depth int) string {
	if depth > 2 || g.r.IntN(6) == 0 {
		if g.draft == 7 {
			return g.pick(`true`, `false`, `{}`, `{"type":"integer"}`, `{"type":"string"}`, `{"minimum":1}`, `{"$ref":"#/definitions/d"}`,
				`{"$ref":"#/definitions/e","type":"object","minItems":5}`, `{"format":"email"}`, `{"type":"string","format":"date-time"}`, `{"format":"uuid"}`)
		}
		return g.pick(`true`, `false`, `{}`, `{"type":"integer"}`, `{"type":"string"}`, `{"minimum":1}`, `{"$ref":"#/$defs/d"}`, `{"$ref":"#an"}`)
	}
	n := 1 + g.r.IntN(3)
	var kws []string
	seen := map[string]bool{}
	for range n {
		kw, val := g.keyword(depth)
		if seen[kw] {
			continue
		}
		seen[kw] = true
		kws = append(kws, fmt.Sprintf("%q:%s", kw, val))
	}
	return "{" + strings.Join(kws, ",") + "}"
}

func (g gen) keyword(depth int) (string, string) {
	s := func() string { return g.schema(depth + 1) }
	if g.draft != 2020 {
		switch g.r.IntN(12) {
		case 0:
			return "items", "[" + s() + "," + s() + "]"
		case 1:
			return "additionalItems", s()
		}
	}
	if g.draft == 7 {
		switch g.r.IntN(12) {
		case 2:
			return "format", g.pick(`"email"`, `"uri"`, `"uri-reference"`, `"date-time"`, `"date"`, `"time"`, `"uuid"`, `"ipv4"`, `"ipv6"`,
				`"hostname"`, `"duration"`, `"json-pointer"`, `"relative-json-pointer"`, `"semver"`, `"regex"`, `"period"`, `"iri"`, `"unknown"`)
		case 3:
			return "$ref", g.pick(`"#/definitions/d"`, `"#/definitions/e"`)
		}
	}
	switch g.r.IntN(30) {
	case 0:
		return "type", g.pick(`"integer"`, `"number"`, `"string"`, `"object"`, `"array"`, `["string","null"]`, `"boolean"`)
	case 1:
		return "enum", g.pick(`[1,"a",null]`, `[[1],{"a":1}]`, `["ab"]`)
	case 2:
		return "const", g.pick(`1`, `"a"`, `{"a":1}`, `null`)
	case 3:
		return g.pick("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"), g.pick(`0`, `1`, `1.5`)
	case 4:
		return "multipleOf", g.pick(`2`, `0.5`)
	case 5:
		return g.pick("minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties"), g.pick(`0`, `1`, `2`)
	case 6:
		return "pattern", g.pick(`"^a"`, `"b$"`)
	case 7:
		return "uniqueItems", `true`
	case 8:
		return "prefixItems", "[" + s() + "," + s() + "]"
	case 9:
		return "items", s()
	case 10:
		return "contains", s()
	case 11:
		return g.pick("minContains", "maxContains"), g.pick(`0`, `1`, `2`)
	case 12:
		return "required", g.pick(`["a"]`, `["a","b"]`)
	case 13:
		return "properties", fmt.Sprintf(`{"a":%s,"b":%s}`, s(), s())
	case 14:
		return "patternProperties", fmt.Sprintf(`{"^a":%s}`, s())
	case 15:
		return "additionalProperties", s()
	case 16:
		return "propertyNames", g.pick(`{"maxLength":1}`, `{"pattern":"^a"}`, `false`)
	case 17:
		return "dependentRequired", `{"a":["b"]}`
	case 18:
		return "dependentSchemas", fmt.Sprintf(`{"a":%s}`, s())
	case 19:
		return "allOf", "[" + s() + "," + s() + "]"
	case 20:
		return "anyOf", "[" + s() + "," + s() + "]"
	case 21:
		return "oneOf", "[" + s() + "," + s() + "]"
	case 22:
		return "not", s()
	case 23:
		return "if", s()
	case 24:
		return "then", s()
	case 25:
		return "else", s()
	case 26:
		return "unevaluatedProperties", s()
	case 27:
		return "unevaluatedItems", s()
	case 28:
		return "dependencies", fmt.Sprintf(`{"a":["c"],"b":%s}`, s())
	default:
		return "additionalProperties", `false`
	}
}

// wrap adds the definitions the generated references name.
func (g gen) wrap(body string) string {
	defs := fmt.Sprintf(`"$defs":{"d":%s,"e":{"$anchor":"an","type":"array"}}`, g.schema(2))
	switch g.draft {
	case 2019:
		defs = `"$schema":"https://json-schema.org/draft/2019-09/schema",` + defs
	case 7:
		defs = fmt.Sprintf(`"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"d":%s,"e":{"type":"array","items":[{"type":"integer"}]}}`, g.schema(2))
	}
	if body == "{}" {
		return "{" + defs + "}"
	}
	if body[0] != '{' {
		return fmt.Sprintf(`{"allOf":[%s],%s}`, body, defs)
	}
	return "{" + defs + "," + body[1:]
}

func TestAgreesOnRandomSchemas(t *testing.T) {
	n := 2000
	if testing.Short() {
		n = 300
	}
	for _, draft := range []int{2020, 2019, 7} {
		g := gen{rand.New(rand.NewPCG(1, 2)), draft}
		for range n {
			schema := g.wrap(g.schema(0))
			agree(t, schema, g.instance(0), g.instance(0), g.instance(0), g.instance(0), g.instance(0), g.instance(0))
		}
	}
}

// FuzzAgreesWithSanthosh drives the generator from fuzzed seeds, and also
// tries the fuzzed bytes themselves as a schema.
func FuzzAgreesWithSanthosh(f *testing.F) {
	f.Add(uint64(1), uint64(2), []byte(`{"type":"object","required":["a"]}`), []byte(`{"b":1}`))
	f.Add(uint64(7), uint64(9), []byte(`{"items":{"$ref":"#"},"maxItems":1}`), []byte(`[[[1,2]]]`))
	f.Add(uint64(3), uint64(4), []byte(`{"$schema":"http://json-schema.org/draft-07/schema#","items":[{"type":"string","format":"date-time"}],"additionalItems":false}`), []byte(`["2024-01-01T00:00:00Z",1]`))
	f.Add(uint64(5), uint64(6), []byte(`{"$schema":"http://json-schema.org/draft-07/schema#","properties":{"a":{"$ref":"#/definitions/b","minimum":3}},"definitions":{"b":{"format":"email"}}}`), []byte(`{"a":"x@y.z"}`))
	f.Fuzz(func(t *testing.T, a, b uint64, schema, instance []byte) {
		g := gen{rand.New(rand.NewPCG(a, b)), 2020}
		agree(t, g.wrap(g.schema(0)), g.instance(0))
		g.draft = 2019
		agree(t, g.wrap(g.schema(0)), g.instance(0))
		g.draft = 7
		agree(t, g.wrap(g.schema(0)), g.instance(0), g.instance(0))
		if !json.Valid(schema) || !json.Valid(instance) {
			return
		}
		// "$schema" only as draft 07's, the one dialect other than the
		// default whose own meaning this package implements in full.
		if bytes.Count(schema, []byte(`"$schema"`)) != bytes.Count(schema, []byte(`"$schema":"http://json-schema.org/draft-07/schema#"`)) {
			return
		}
		agree(t, string(schema), string(instance))
	})
}

// TestAgreesOnGoNumbers: values decoded without UseNumber (float64) or
// built by Go code (int, float32) get the verdicts of their JSON numbers.
func TestAgreesOnGoNumbers(t *testing.T) {
	values := []any{0, 1, -7, int64(1 << 40), 2.5, 3.0, -0.5, 1e300, float32(1.5), float32(4), uint8(9), json.Number("1e2"), json.Number("-12345678901234567890")}
	for _, schema := range []string{`{"type":"integer"}`, `{"minimum":1}`, `{"exclusiveMaximum":3}`, `{"multipleOf":2}`, `{"multipleOf":0.5}`, `{"maximum":1e301}`, `{"enum":[3,1.5]}`} {
		ref, err := refCompile(schema)
		if err != nil {
			t.Fatal(err)
		}
		ours, err := Compile([]byte(schema), testBase)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range values {
			if want, got := ref.Validate(v) == nil, ours.Validate(v) == nil; want != got {
				t.Errorf("%s on %T %v: valid=%v, the reference says %v", schema, v, v, got, want)
			}
		}
	}
}
