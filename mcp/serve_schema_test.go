package mcp

import (
	"context"
	"encoding/json"
	"maps"
	"os"
	"reflect"
	"slices"
	"testing"

	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/tool"
)

// listedTools returns each served tool's description and input schema,
// decoded.
func listedTools(t *testing.T) map[string]struct {
	Description string         `json:"description"`
	InputSchema map[string]any `json:"inputSchema"`
} {
	t.Helper()
	f := newServeFixture(t, true)
	out := map[string]struct {
		Description string         `json:"description"`
		InputSchema map[string]any `json:"inputSchema"`
	}{}
	for tl, err := range f.sess.Tools(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(tl)
		if err != nil {
			t.Fatal(err)
		}
		e := out[tl.Name]
		if err := json.Unmarshal(b, &e); err != nil {
			t.Fatal(err)
		}
		out[tl.Name] = e
	}
	return out
}

func decodeSchema(t *testing.T, raw json.RawMessage) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestServeInputSchemasDerived: the published input schemas are
// tool.SchemaFor's of the argument types (one deriver, not the SDK's
// inference), and the context tools' arguments are the corpus
// declarations composed with a path.
func TestServeInputSchemasDerived(t *testing.T) {
	got := listedTools(t)
	want := map[string]json.RawMessage{
		ToolRun:             tool.MustSchemaFor[RunArgs](),
		ToolDirect:          tool.MustSchemaFor[RunArgs](),
		ToolContextMetadata: tool.MustSchemaFor[PathArgs](),
		ToolContextSearch:   tool.MustSchemaFor[SearchArgs](),
		ToolContextSlice:    tool.MustSchemaFor[SliceArgs](),
	}
	if !slices.Equal(slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want))) {
		t.Fatalf("tools %v", slices.Sorted(maps.Keys(got)))
	}
	for name, w := range want {
		if !reflect.DeepEqual(got[name].InputSchema, decodeSchema(t, w)) {
			t.Errorf("%s: served %v, derived %s", name, got[name].InputSchema, w)
		}
	}
	// The declared context arguments appear with their declared schemas.
	for name, decl := range map[string]reflect.Type{ToolContextSearch: reflect.TypeFor[corpus.SearchArgs](), ToolContextSlice: reflect.TypeFor[corpus.SliceArgs]()} {
		d, err := tool.SchemaOf(decl)
		if err != nil {
			t.Fatal(err)
		}
		props := got[name].InputSchema["properties"].(map[string]any)
		for k, v := range decodeSchema(t, d)["properties"].(map[string]any) {
			if !reflect.DeepEqual(props[k], v) {
				t.Errorf("%s.%s: %v, declared %v", name, k, props[k], v)
			}
		}
	}
}

// TestServeInputSchemasEquivalent: against the schemas the SDK inferred
// before MCP serve used tool.SchemaFor (testdata/serve_tools_sdk_inferred.json),
// every tool keeps its description, properties, property types and
// descriptions, required set and closedness. The only additions are
// bounds: an integer's Go range (a value outside it never decoded), and
// minimum 0 on a slice's start and length and minLength 1 on a search
// pattern, values the store already refused.
func TestServeInputSchemasEquivalent(t *testing.T) {
	b, err := os.ReadFile("testdata/serve_tools_sdk_inferred.json")
	if err != nil {
		t.Fatal(err)
	}
	var before map[string]struct {
		Description string         `json:"description"`
		InputSchema map[string]any `json:"inputSchema"`
	}
	if err := json.Unmarshal(b, &before); err != nil {
		t.Fatal(err)
	}
	now := listedTools(t)
	bounds := []string{"minimum", "maximum", "minLength"}
	for name, old := range before {
		cur, ok := now[name]
		if !ok {
			t.Errorf("%s is no longer served", name)
			continue
		}
		if cur.Description != old.Description {
			t.Errorf("%s: description %q, was %q", name, cur.Description, old.Description)
		}
		for _, k := range []string{"type", "additionalProperties"} {
			if !reflect.DeepEqual(cur.InputSchema[k], old.InputSchema[k]) {
				t.Errorf("%s: %s %v, was %v", name, k, cur.InputSchema[k], old.InputSchema[k])
			}
		}
		req := func(s map[string]any) []string {
			var out []string
			for _, r := range s["required"].([]any) {
				out = append(out, r.(string))
			}
			slices.Sort(out)
			return out
		}
		if !slices.Equal(req(cur.InputSchema), req(old.InputSchema)) {
			t.Errorf("%s: required %v, was %v", name, req(cur.InputSchema), req(old.InputSchema))
		}
		oldProps := old.InputSchema["properties"].(map[string]any)
		curProps := cur.InputSchema["properties"].(map[string]any)
		if !slices.Equal(slices.Sorted(maps.Keys(curProps)), slices.Sorted(maps.Keys(oldProps))) {
			t.Errorf("%s: properties %v, were %v", name, slices.Sorted(maps.Keys(curProps)), slices.Sorted(maps.Keys(oldProps)))
			continue
		}
		for p, ov := range oldProps {
			cv := maps.Clone(curProps[p].(map[string]any))
			for _, k := range bounds {
				if _, had := ov.(map[string]any)[k]; !had {
					delete(cv, k)
				}
			}
			if !reflect.DeepEqual(cv, ov) {
				t.Errorf("%s.%s: %v, was %v", name, p, curProps[p], ov)
			}
		}
	}
}
