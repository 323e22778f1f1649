package rlm

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"strings"

	"github.com/rlm-go/rlm/answer"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/tool"
)

// KindAnswerSchemaInvalid reports an answer schema (Spec.AnswerSchema,
// Spec.AnswerSchemaFile, --answer-schema) that cannot be read or does not
// compile as JSON Schema draft 2020-12, found when the session opens.
const KindAnswerSchemaInvalid fault.Kind = "answer_schema_invalid"

// KindAnswerDecode reports a result whose answer DecodeAnswer could not
// decode into the type asked for.
const KindAnswerDecode fault.Kind = "answer_decode_failed"

// CompileAnswerSchema compiles schema (JSON Schema draft 2020-12,
// self-contained: no external $ref) with the project's one validator
// (package tool's), for engine.Config.AnswerSchema and
// direct.Config.AnswerSchema. A schema that is not JSON, is larger than
// answer.MaxSchemaBytes or does not compile is answer_schema_invalid,
// with the validator's reason in detail "reason".
func CompileAnswerSchema(schema json.RawMessage) (*answer.Schema, error) {
	bad := func(err error, msg string) *fault.Error {
		fe := fault.Wrap(err, fault.PhaseConfig, KindAnswerSchemaInvalid, msg).
			WithHint("give a self-contained JSON Schema (draft 2020-12), e.g. {\"type\": \"object\", \"properties\": {...}, \"required\": [...]}")
		if err != nil {
			fe = fe.With("reason", firstLine(err.Error()))
		}
		return fe
	}
	if len(bytes.TrimSpace(schema)) == 0 {
		return nil, bad(nil, "the answer schema is empty")
	}
	if len(schema) > answer.MaxSchemaBytes {
		return nil, bad(nil, "the answer schema is too large").With("bytes", len(schema)).With("max", answer.MaxSchemaBytes)
	}
	v, err := tool.NewValidator("answer", schema)
	if err != nil {
		cause := err
		if fe := fault.As(err); fe != nil && fe.Cause != nil {
			cause = fe.Cause
		}
		return nil, bad(cause, "the answer schema does not compile")
	}
	s, err := answer.New(schema, answerValidator{v})
	if err != nil {
		return nil, bad(err, "the answer schema is not JSON")
	}
	return s, nil
}

// firstLine bounds a validator's message to its first line.
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 300 {
		s = s[:300]
	}
	return s
}

// answerValidator is package tool's validator as an answer.Validator.
type answerValidator struct{ v *tool.Validator }

func (a answerValidator) Violations(raw json.RawMessage) ([]answer.Violation, error) {
	vs, err := a.v.Violations(raw)
	if err != nil {
		return nil, err
	}
	out := make([]answer.Violation, len(vs))
	for i, v := range vs {
		out[i] = answer.Violation{Pointer: v.Pointer, Keyword: v.Keyword, Message: v.Message}
	}
	return out, nil
}

// answerSchema is the Spec's answer schema, read and compiled (nil
// without one): Spec.AnswerSchema, or the file Spec.AnswerSchemaFile.
func (s Spec) answerSchema() (*answer.Schema, error) {
	raw := s.AnswerSchema
	if s.AnswerSchemaFile != "" {
		b, err := os.ReadFile(s.AnswerSchemaFile)
		if err != nil {
			return nil, fault.Wrap(err, fault.PhaseConfig, KindAnswerSchemaInvalid, "the answer schema file cannot be read").
				With("file", s.AnswerSchemaFile).WithHint("give the path of a JSON Schema file (--answer-schema FILE)")
		}
		raw = b
	}
	if raw == nil {
		return nil, nil
	}
	sch, err := CompileAnswerSchema(raw)
	if err != nil && s.AnswerSchemaFile != "" {
		if fe := fault.As(err); fe != nil {
			fe.With("file", s.AnswerSchemaFile)
		}
	}
	return sch, err
}

// WithAnswerSchema types the session's answers with schema (JSON Schema
// draft 2020-12): it sets Spec.AnswerSchema, replacing Spec.AnswerSchemaFile.
// tool.SchemaFor derives a schema from a Go type, for DecodeAnswer:
//
//	rlm.Open(ctx, spec, rlm.WithAnswerSchema(tool.MustSchemaFor[Incident]()))
func WithAnswerSchema(schema json.RawMessage) Option {
	return func(o *options) { o.answerSchema = schema }
}

// Answered is a result with an answer: *Result and *DirectResult.
type Answered interface {
	// AnswerValue is the answer's JSON: AnswerJSON when the run had an
	// answer schema; else a string answer's JSON text (without
	// surrounding white space and one enclosing Markdown code fence), or
	// any other answer's JSON encoding.
	AnswerValue() (json.RawMessage, error)
}

// AnswerValue implements Answered.
func (r *Result) AnswerValue() (json.RawMessage, error) {
	if r == nil || r.Result == nil {
		return nil, noAnswer()
	}
	if r.AnswerJSON != nil {
		return r.AnswerJSON, nil
	}
	if r.Status != StatusCompleted {
		return nil, noAnswer().With("status", r.Status)
	}
	if text, ok := r.Answer.(string); ok {
		return textJSON(text), nil
	}
	raw, err := json.Marshal(r.Answer)
	if err != nil {
		return nil, fault.Wrap(err, fault.PhaseParse, KindAnswerDecode, "the answer is not JSON-encodable")
	}
	return raw, nil
}

// AnswerValue implements Answered.
func (r *DirectResult) AnswerValue() (json.RawMessage, error) {
	if r == nil || r.Result == nil {
		return nil, noAnswer()
	}
	if r.AnswerJSON != nil {
		return r.AnswerJSON, nil
	}
	if r.Error != nil {
		return nil, noAnswer().With("status", StatusOf(r.Error))
	}
	return textJSON(r.Answer), nil
}

func noAnswer() *fault.Error {
	return fault.New(fault.PhaseParse, KindAnswerDecode, "the result has no answer").WithHint("decode the answer of a completed run")
}

// textJSON is the JSON text a string answer holds, by the string rule of
// a schema that does not keep text (answer.Schema.TextValue).
func textJSON(text string) json.RawMessage {
	s, _ := answer.New(json.RawMessage(`{}`), nil)
	return s.TextValue(text)
}

// DecodeAnswer decodes the answer of res into a T (encoding/json rules,
// unknown object keys refused): with an answer schema the validated value
// (Result.AnswerJSON), without one the JSON the answer holds (Answered).
// A result without an answer, or an answer that does not decode into a
// T, is answer_decode_failed (and T's zero value).
//
//	type Incident struct{ Service string `json:"service"`; Count int `json:"count"` }
//	inc, err := rlm.DecodeAnswer[Incident](res)
func DecodeAnswer[T any](res Answered) (T, error) {
	var out T
	raw, err := res.AnswerValue()
	if err != nil {
		return out, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&out); err != nil {
		var zero T
		return zero, fault.Wrap(err, fault.PhaseParse, KindAnswerDecode, "the answer does not decode into the type asked for").
			With("type", reflect.TypeFor[T]().String()).With("reason", firstLine(err.Error())).
			WithHint("type the run's answer with an answer schema for this type (rlm.WithAnswerSchema(tool.MustSchemaFor[T]()))")
	}
	return out, nil
}
