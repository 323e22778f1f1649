package launcher

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// typedRun is the --json result of a typed run, as far as the tests read
// it.
type typedRun struct {
	Status     string          `json:"status"`
	Answer     any             `json:"answer"`
	AnswerJSON json.RawMessage `json:"answer_json"`
	Error      *struct {
		Phase  string         `json:"phase"`
		Kind   string         `json:"kind"`
		Detail map[string]any `json:"detail"`
		Hint   string         `json:"hint"`
	} `json:"error"`
	Details struct {
		Turns int `json:"turns"`
	} `json:"details"`
	Turns int `json:"turns"` // rlm direct's
}

const binIncidentSchema = `{"type": "object", "properties": {"service": {"type": "string"}, "errors": {"type": "integer", "minimum": 0}},
  "required": ["service", "errors"], "additionalProperties": false}`

// typedInputs writes the context and the incident schema of the typed
// answer tests into dir.
func typedInputs(t *testing.T, dir string) (ctxFile, schema string) {
	t.Helper()
	ctxFile = filepath.Join(dir, "app.log")
	if err := os.WriteFile(ctxFile, []byte("10:01 billing ERROR refused\n10:02 api ERROR upstream\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	schema = filepath.Join(dir, "incident.schema.json")
	if err := os.WriteFile(schema, []byte(binIncidentSchema), 0o644); err != nil {
		t.Fatal(err)
	}
	return ctxFile, schema
}

// rlm run --answer-schema FILE: an answer that does not match gets a
// repair message naming the pointer and keyword, the repaired answer is
// in answer_json; past --max-repairs the run fails with answer_invalid;
// a schema that does not compile is refused before any model call.
func TestAnswerSchemaThroughTheBinary(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ctxFile, schema := typedInputs(t, dir)
	badSchema := filepath.Join(dir, "bad.schema.json")
	if err := os.WriteFile(badSchema, []byte(`{"type": "objekt"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	const query = "Which service failed first, and how many errors?"
	cell := func(code string) string { return "```python\n" + code + "\n```" }
	repaired := cassetteOf(t, dir, "repaired.json",
		answer(query, cell(`FINAL({"service": "billing", "errors": "2"})`)),
		answer("at /errors (keyword type)", cell(`FINAL({"service": "billing", "errors": 2})`)))
	stubborn := cassetteOf(t, dir, "stubborn.json",
		answer(query, cell(`FINAL({"service": "billing", "errors": -1})`)),
		answer("Repair 1 of 1", cell(`FINAL({"service": "billing", "errors": -2})`)))
	direct := cassetteOf(t, dir, "direct.json",
		answer(query, "```json\n{\"service\": \"billing\", \"errors\": \"two\"}\n```"),
		answer("at /errors (keyword type)", `{"service": "billing", "errors": 2}`))
	empty := cassetteOf(t, dir, "empty.json")

	decode := func(t *testing.T, r binResult) typedRun {
		t.Helper()
		var out typedRun
		if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
			t.Fatalf("exit %d, not JSON: %s\n%s", r.code, r.stdout, r.stderr)
		}
		if out.AnswerJSON != nil {
			// The binary indents its JSON.
			var buf bytes.Buffer
			if err := json.Compact(&buf, out.AnswerJSON); err != nil {
				t.Fatal(err)
			}
			out.AnswerJSON = buf.Bytes()
		}
		return out
	}
	t.Run("repaired", func(t *testing.T) {
		r := runBinary(t, nil, nil, "run", "--mode", "code", "--context", ctxFile, "--replay", repaired, "--answer-schema", schema, "--json", query)
		out := decode(t, r)
		if r.code != 0 || out.Status != "completed" || out.Details.Turns != 2 {
			t.Fatalf("exit %d %+v\n%s", r.code, out, r.stderr)
		}
		if string(out.AnswerJSON) != `{"errors":2,"service":"billing"}` {
			t.Fatalf("answer_json %s", out.AnswerJSON)
		}
		if a, _ := out.Answer.(map[string]any); a["service"] != "billing" {
			t.Fatalf("answer %v", out.Answer)
		}
	})
	t.Run("text mode", func(t *testing.T) {
		r := runBinary(t, nil, nil, "run", "--mode", "code", "--context", ctxFile, "--replay", repaired, "--answer-schema", schema, query)
		if r.code != 0 || !strings.Contains(r.stdout, "billing") {
			t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
		}
	})
	t.Run("gives up", func(t *testing.T) {
		r := runBinary(t, nil, nil, "run", "--mode", "code", "--context", ctxFile, "--replay", stubborn, "--answer-schema", schema, "--max-repairs", "1", "--json", query)
		out := decode(t, r)
		if r.code != 1 || out.Status != "failed" || out.Error == nil || out.Error.Kind != "answer_invalid" || out.Error.Phase != "validate" {
			t.Fatalf("exit %d %+v\n%s", r.code, out, r.stderr)
		}
		if d := out.Error.Detail; d["pointer"] != "/errors" || d["keyword"] != "minimum" || d["repairs"] != float64(1) || out.Error.Hint == "" {
			t.Fatalf("%+v %q", d, out.Error.Hint)
		}
		if out.AnswerJSON != nil {
			t.Fatalf("answer_json %s", out.AnswerJSON)
		}
	})
	t.Run("direct", func(t *testing.T) {
		r := runBinary(t, nil, nil, "direct", "--context", ctxFile, "--allow", "context:search", "--replay", direct, "--answer-schema", schema, "--json", query)
		out := decode(t, r)
		if r.code != 0 || out.Status != "completed" || out.Turns != 2 || string(out.AnswerJSON) != `{"service":"billing","errors":2}` {
			t.Fatalf("exit %d %+v\n%s", r.code, out, r.stderr)
		}
	})
	for _, c := range []struct{ name, file string }{{"schema does not compile", badSchema}, {"schema file missing", filepath.Join(dir, "none.json")}} {
		t.Run(c.name, func(t *testing.T) {
			r := runBinary(t, nil, nil, "run", "--context", ctxFile, "--replay", empty, "--answer-schema", c.file, "--json", query)
			out := decode(t, r)
			if r.code == 0 || out.Error == nil || out.Error.Kind != "answer_schema_invalid" || out.Error.Detail["file"] != c.file || out.Error.Hint == "" {
				t.Fatalf("exit %d %+v\n%s", r.code, out, r.stderr)
			}
		})
	}
}

// rlm chat takes --answer-schema and the root window flags as rlm run
// does: each query's answer must match the schema (a repair, then
// answer_json on its --json line), and --context-window, --compact-at
// reach the session.
func TestChatAnswerSchemaAndWindowFlags(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ctxFile, schema := typedInputs(t, dir)
	cell := func(code string) string { return "```python\n" + code + "\n```" }
	cas := cassetteOf(t, dir, "chat.json",
		answer("which failed first?", cell(`FINAL({"service": "billing", "errors": "2"})`)),
		answer("at /errors (keyword type)", cell(`FINAL({"service": "billing", "errors": 2})`)),
		answer("and last?", cell(`FINAL({"service": "api", "errors": 1})`)))
	r := execBinary(t, builtBinary(t), strings.NewReader("which failed first?\nand last?\n"), nil,
		"chat", "--context", ctxFile, "--replay", cas, "--answer-schema", schema, "--context-window", "100000", "--compact-at", "0.7", "--json")
	if r.code != 0 {
		t.Fatalf("exit %d: %s\n%s", r.code, r.stdout, r.stderr)
	}
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	want := []string{`{"errors":2,"service":"billing"}`, `{"errors":1,"service":"api"}`}
	if len(lines) != len(want) {
		t.Fatalf("want one JSON line per query:\n%s", r.stdout)
	}
	for i, line := range lines {
		var out typedRun
		if err := json.Unmarshal([]byte(line), &out); err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if out.Status != "completed" || json.Compact(&buf, out.AnswerJSON) != nil || buf.String() != want[i] {
			t.Errorf("query %d: %s, answer_json %s, want %s", i+1, out.Status, out.AnswerJSON, want[i])
		}
	}
	// A --compact-at outside (0, 1] is refused when the flags are parsed.
	bad := execBinary(t, builtBinary(t), strings.NewReader(""), nil, "chat", "--context", ctxFile, "--replay", cas, "--compact-at", "1.5")
	if bad.code == 0 || !strings.Contains(bad.stderr, "compact-at") {
		t.Fatalf("--compact-at 1.5: exit %d\n%s", bad.code, bad.stderr)
	}
}
