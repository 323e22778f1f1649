// Package answer holds what typed final answers share between the engine
// (plan and code mode) and the direct runtime (docs/engine.md, "Typed
// answers"): the rule that says which JSON value an answer is, the check
// against a JSON Schema, the answer_invalid error and the repair message
// a model gets for an answer that does not match.
//
// It links no schema library: the checking is done by a Validator, which
// rlm.CompileAnswerSchema builds over package tool's (the project's one
// JSON Schema validator, draft 2020-12), so the engine stays light.
package answer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/jsonstrict"
	"github.com/rlm-go/rlm/internal/textcut"
)

// KindInvalid reports a final answer that still did not match the answer
// schema after the last repair the run allowed (detail: pointer and
// keyword of the first violation, violations, repairs).
const KindInvalid fault.Kind = "answer_invalid"

// Violation is one way an answer fails the schema: the JSON pointer of the
// failing value ("" for the whole answer), the schema keyword that failed,
// and the validator's sentence about it (shown to the model in the repair
// message, never put in an error: it may quote the answer).
type Violation struct {
	Pointer string `json:"pointer"`
	Keyword string `json:"keyword"`
	Message string `json:"-"`
}

// Validator checks one JSON value against a compiled schema: nil when it
// matches, else its violations (at least one). An error means raw is not
// one JSON value.
type Validator interface {
	Violations(raw json.RawMessage) ([]Violation, error)
}

// MaxSchemaBytes bounds an answer schema: it is shown to the model in the
// root's first message.
const MaxSchemaBytes = 64 << 10

// Schema is a compiled answer schema.
type Schema struct {
	raw       json.RawMessage
	v         Validator
	keepsText bool
}

// New is the Schema whose JSON text is schema (already compiled into v).
// It reads the schema's top-level "type" for the string rule (Value).
func New(schema json.RawMessage, v Validator) (*Schema, error) {
	var buf bytes.Buffer
	if err := json.Compact(&buf, schema); err != nil {
		return nil, err
	}
	s := &Schema{raw: buf.Bytes(), v: v}
	var top struct {
		Type json.RawMessage `json:"type"`
	}
	if json.Unmarshal(s.raw, &top) == nil && len(top.Type) > 0 {
		var one string
		var many []string
		switch {
		case json.Unmarshal(top.Type, &one) == nil:
			s.keepsText = one == "string"
		case json.Unmarshal(top.Type, &many) == nil:
			for _, t := range many {
				s.keepsText = s.keepsText || t == "string"
			}
		}
	}
	return s, nil
}

// JSON is the schema's compact JSON text.
func (s *Schema) JSON() json.RawMessage { return s.raw }

// KeepsText reports whether a string answer is checked as the string
// itself: the schema's top-level "type" is "string" or a list naming it.
func (s *Schema) KeepsText() bool { return s.keepsText }

// TextValue is the JSON value of a string answer (the direct runtime's
// final text, a FINAL("...") or {"answer": "..."} string). It is the
// string itself when the schema's top-level type admits strings
// (KeepsText). Otherwise, when the text, without surrounding white space
// and one enclosing Markdown code fence (```json ... ``` or ``` ... ```),
// is exactly one JSON value (strictly: no duplicate keys), it is that
// value; else it is the string itself, which a schema that wants an
// object, an array or a number then refuses (keyword type).
func (s *Schema) TextValue(text string) json.RawMessage {
	if !s.keepsText {
		body := unfence(strings.TrimSpace(text))
		if _, err := jsonstrict.Decode([]byte(body)); err == nil {
			var buf bytes.Buffer
			if json.Compact(&buf, []byte(body)) == nil {
				return buf.Bytes()
			}
		}
	}
	raw, _ := json.Marshal(text)
	return raw
}

// unfence removes one Markdown code fence enclosing all of s.
func unfence(s string) string {
	if !strings.HasPrefix(s, "```") || !strings.HasSuffix(s, "```") || len(s) < 6 {
		return s
	}
	body := s[3 : len(s)-3]
	nl := strings.IndexByte(body, '\n')
	if nl < 0 {
		return s
	}
	if lang := strings.TrimSpace(body[:nl]); lang != "" && !strings.EqualFold(lang, "json") {
		return s
	}
	return strings.TrimSpace(body[nl+1:])
}

// Check validates the answer value raw: nil, or its violations and the
// error that ends the run if no repair is left (KindInvalid, phase
// validate).
func (s *Schema) Check(raw json.RawMessage) ([]Violation, *fault.Error) {
	vs, err := s.v.Violations(raw)
	if err != nil {
		vs = []Violation{{Keyword: "json", Message: "the answer is not one JSON value"}}
	}
	if len(vs) == 0 {
		return nil, nil
	}
	list := make([]map[string]any, len(vs))
	for i, v := range vs {
		list[i] = map[string]any{"pointer": v.Pointer, "keyword": v.Keyword}
	}
	fe := fault.New(fault.PhaseValidate, KindInvalid, "the final answer does not match the answer schema").
		With("pointer", vs[0].Pointer).With("keyword", vs[0].Keyword).With("violations", list).
		WithHint("the model's answer did not match the answer schema after its repairs: raise --max-repairs, describe the format in the query, or check that the schema is what you meant")
	return vs, fe
}

// maxMessageBytes bounds each violation's sentence in a repair message.
const maxMessageBytes = 240

// RepairMessage tells the model why its final answer was not accepted:
// each violation's pointer, keyword and sentence, and the schema. finish
// says how to answer again in the loop's own terms; repair and maxRepairs
// count the repairs.
func (s *Schema) RepairMessage(vs []Violation, finish string, repair, maxRepairs int) string {
	var b strings.Builder
	b.WriteString("Your final answer was not accepted: it does not match the answer schema.\n")
	for _, v := range vs {
		at := v.Pointer
		if at == "" {
			at = "the answer itself"
		}
		fmt.Fprintf(&b, "- at %s (keyword %s)", at, v.Keyword)
		if v.Message != "" {
			b.WriteString(": " + textcut.Prefix(v.Message, maxMessageBytes))
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "The answer must be JSON matching this JSON Schema: %s\n%s (Repair %d of %d.)", s.raw, finish, repair, maxRepairs)
	return b.String()
}

// Repair counts one more answer the schema refused (vs and fe, from
// Check) against maxRepairs (below 0: none): it returns the repair message
// to send (RepairMessage) and counts it in *repairs, or, when *repairs
// already reached maxRepairs, fe with detail "repairs": the error that
// ends the run.
func (s *Schema) Repair(vs []Violation, fe *fault.Error, repairs *int, maxRepairs int, finish string) (string, error) {
	maxRepairs = max(maxRepairs, 0)
	if *repairs >= maxRepairs {
		return "", fe.With("repairs", *repairs)
	}
	*repairs++
	return s.RepairMessage(vs, finish, *repairs, maxRepairs), nil
}

// Instructions tell the model, in the root's first message, what its
// final answer must be.
func (s *Schema) Instructions() string {
	rule := "Give the final answer as a JSON value (an object, a list, a number...), not as prose; a string answer is read as the JSON text it holds."
	if s.keepsText {
		rule = "The final answer is a string."
	}
	return "\n\nThe final answer must be JSON matching this JSON Schema (draft 2020-12): " + string(s.raw) + "\n" + rule
}
