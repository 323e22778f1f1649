package mcp

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"

	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/effect"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/tool"
)

// zodInput is an input schema as zod-to-json-schema writes it for a
// TypeScript MCP server: draft 07, a tuple (items as an array with
// additionalItems), formats, and a "$ref" with siblings the draft
// ignores.
const zodInput = `{
  "$schema": "http://json-schema.org/draft-07/schema#",
  "type": "object",
  "properties": {
    "email": {"type": "string", "format": "email"},
    "site": {"type": "string", "format": "uri"},
    "when": {"type": "string", "format": "date-time"},
    "id": {"type": "string", "format": "uuid"},
    "point": {"type": "array", "minItems": 2, "maxItems": 2,
      "items": [{"type": "number"}, {"type": "number"}], "additionalItems": false},
    "owner": {"$ref": "#/definitions/person", "description": "who owns it", "type": "string"}
  },
  "required": ["email", "point"],
  "additionalProperties": false,
  "definitions": {
    "person": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
  }
}`

// zodOutput is a draft-07 output schema of the same server.
const zodOutput = `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object",
  "properties":{"at":{"type":"string","format":"date"},"pair":{"type":"array","items":[{"type":"string"},{"type":"integer"}]}},
  "required":["at"]}`

// TestImportZodDraft07Schema: a TypeScript server's draft-07 tool imports,
// and its arguments and results are validated with draft 07's meaning
// (formats asserted, tuples, "$ref" siblings ignored), as before the
// runtime's own validator.
func TestImportZodDraft07Schema(t *testing.T) {
	var out atomic.Value
	out.Store(`{"at":"2024-02-29","pair":["a",1,true]}`)
	h := rawServer(t, func(method string) string {
		if method == "tools/call" {
			return `{"content":[],"structuredContent":` + out.Load().(string) + `}`
		}
		return `{"tools":[{"name":"zod","description":"d","inputSchema":` + zodInput + `,"outputSchema":` + zodOutput + `}]}`
	})
	reg := tool.NewRegistry()
	skipped, err := h.Import(context.Background(), reg)
	if err != nil || len(skipped) != 0 {
		t.Fatalf("import: skipped %+v, err %v", skipped, err)
	}
	for _, c := range []struct {
		args  string
		valid bool
	}{
		{`{"email":"joe@example.com","point":[1,2]}`, true},
		{`{"email":"joe@example.com","site":"https://example.com/x","when":"2024-02-29T23:59:60Z","id":"123e4567-e89b-12d3-a456-426614174000","point":[1.5,-2],"owner":{"name":"ann"}}`, true},
		{`{"email":"not an email","point":[1,2]}`, false},
		{`{"email":"joe@example.com","site":"/relative","point":[1,2]}`, false},
		{`{"email":"joe@example.com","when":"2023-02-29T00:00:00Z","point":[1,2]}`, false},
		{`{"email":"joe@example.com","id":"123e4567","point":[1,2]}`, false},
		{`{"email":"joe@example.com","point":[1,"2"]}`, false},
		{`{"email":"joe@example.com","point":[1,2,3]}`, false},
		{`{"email":"joe@example.com","point":[1,2],"owner":{}}`, false},
		{`{"email":"joe@example.com","point":[1,2],"owner":"a string"}`, false},
	} {
		err := reg.Validate("mcp.raw.zod", json.RawMessage(c.args))
		if c.valid && err != nil {
			t.Errorf("%s: %v, want valid", c.args, err)
		}
		if !c.valid && fault.KindOf(err) != tool.KindSchemaValidation {
			t.Errorf("%s: %v, want %s", c.args, err, tool.KindSchemaValidation)
		}
	}
	j, err := effect.OpenDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	rt := tool.NewRuntime(reg, tool.Config{Journal: j})
	for _, c := range []struct {
		out  string
		kind fault.Kind
	}{
		{`{"at":"2024-02-29","pair":["a",1,true]}`, ""},
		{`{"at":"2023-02-29"}`, tool.KindInvalidResult},
		{`{"at":"2024-02-29","pair":[1,1]}`, tool.KindInvalidResult},
	} {
		out.Store(c.out)
		res, err := rt.Invoke(context.Background(), tool.Call{Name: "mcp.raw.zod", Args: json.RawMessage(`{"email":"a@b.co","point":[0,0]}`),
			Invocation: tool.Invocation{Capabilities: capability.MustSet("tool:mcp.raw.zod")}})
		if err != nil {
			t.Fatal(err)
		}
		if k := fault.KindOf(res.Error); k != c.kind {
			t.Errorf("result %s: %v (%s), want kind %q", c.out, res.Error, res.Status, c.kind)
		}
	}
}
