package tool

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/fault"
)

// TestSchemaForTagDescription: the one meaning of a `jsonschema:"..."` tag
// is tool.SchemaFor's keywords, with description=TEXT last (TEXT runs to
// the end of the tag, commas and equals signs included), and an empty
// minimum=/maximum= dropping the Go type's bound.
func TestSchemaForTagDescription(t *testing.T) {
	type args struct {
		Only    string `json:"only" jsonschema:"description=the text, with a comma, and a=b"`
		Mixed   int64  `json:"mixed" jsonschema:"minimum=1,maximum=9,description=between 1 and 9"`
		Spaced  string `json:"spaced" jsonschema:"enum=a|b, description=a or b"`
		Open    int64  `json:"open" jsonschema:"minimum=0,maximum="`
		Bare    int8   `json:"bare"`
		Keyword string `json:"keyword" jsonschema:"minLength=2"`
	}
	raw, err := SchemaFor[args]()
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Properties map[string]map[string]any `json:"properties"`
	}
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]any{
		"only":    {"type": "string", "description": "the text, with a comma, and a=b"},
		"mixed":   {"type": "integer", "minimum": 1.0, "maximum": 9.0, "description": "between 1 and 9"},
		"spaced":  {"type": "string", "enum": []any{"a", "b"}, "description": "a or b"},
		"open":    {"type": "integer", "minimum": 0.0},
		"bare":    {"type": "integer", "minimum": -128.0, "maximum": 127.0},
		"keyword": {"type": "string", "minLength": 2.0},
	}
	for name, w := range want {
		if !reflect.DeepEqual(got.Properties[name], w) {
			t.Errorf("%s: %v, want %v", name, got.Properties[name], w)
		}
	}
	if _, _, err := compileSchema("tags", "arguments", raw); err != nil {
		t.Fatalf("derived schema does not compile: %v", err)
	}
}

// TestSchemaForTagErrors: what is not a keyword (a description without
// description=, as the MCP SDK's inference read the tag) is invalid_schema.
func TestSchemaForTagErrors(t *testing.T) {
	type sdkStyle struct {
		Q string `json:"q" jsonschema:"the question to answer"`
	}
	type badBound struct {
		N int `json:"n" jsonschema:"minimum=x,description=n"`
	}
	type descFirst struct {
		N int `json:"n" jsonschema:"description=n,minimum=1"` // the description is "n,minimum=1"
	}
	for _, c := range []struct {
		name string
		t    reflect.Type
		ok   bool
	}{
		{"sdk_style", reflect.TypeFor[sdkStyle](), false},
		{"bad_bound", reflect.TypeFor[badBound](), false},
		{"description_first", reflect.TypeFor[descFirst](), true},
	} {
		_, err := SchemaOf(c.t)
		if c.ok != (err == nil) || !c.ok && fault.KindOf(err) != KindInvalidSchema {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

// TestJSONSchemaTagsInTreeParse: every `jsonschema:"..."` field tag in the
// module's non-test Go files is in tool.SchemaFor's syntax, so the tag has
// one meaning across the tree (tests keep deliberately bad ones).
func TestJSONSchemaTagsInTreeParse(t *testing.T) {
	root := filepath.Join("..")
	n := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(node ast.Node) bool {
			fld, ok := node.(*ast.Field)
			if !ok || fld.Tag == nil {
				return true
			}
			tag, err := strconv.Unquote(fld.Tag.Value)
			if err != nil {
				return true
			}
			kw, ok := reflect.StructTag(tag).Lookup("jsonschema")
			if !ok {
				return true
			}
			n++
			if _, err := withKeywords(map[string]any{}, kw, reflect.TypeFor[struct{}]()); err != nil {
				t.Errorf("%s: jsonschema tag %q is not tool.SchemaFor's syntax: %v", path, kw, err)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 10 {
		t.Fatalf("found only %d jsonschema tags: is the walk rooted at the module?", n)
	}
}
