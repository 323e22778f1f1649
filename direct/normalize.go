package direct

import (
	"bytes"
	"encoding/json"
	"slices"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/fingerprint"
	"github.com/rlm-go/rlm/internal/jsonstrict"
	"github.com/rlm-go/rlm/model"
)

// MaxTokenLen is the longest protocol token (call id or function name).
const MaxTokenLen = 128

// ValidToken reports whether s is a protocol token: 1-128 bytes of
// [A-Za-z0-9_.:-].
func ValidToken(s string) bool {
	if len(s) == 0 || len(s) > MaxTokenLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == ':' || c == '-') {
			return false
		}
	}
	return true
}

// Call is one tool call of a batch after normalization.
type Call struct {
	// ID is the provider's call id, a protocol token.
	ID string `json:"id"`
	// Type is always "function".
	Type string `json:"type"`
	// Name is the called function, a protocol token.
	Name string `json:"name"`
	// Raw is the argument text exactly as the provider sent it.
	Raw string `json:"raw"`
	// Args is the canonical JSON object of the arguments; nil when the
	// argument text is not exactly one JSON object.
	Args json.RawMessage `json:"args,omitempty"`
	// value is the decoded form of Args, kept so validation does not
	// decode again.
	value any
}

// Entry is one normalized call: either Fault is nil and Call.Args holds
// the canonical arguments, or Fault is the recoverable
// normalize/malformed_arguments fault and Call.Raw keeps the text.
type Entry struct {
	Call  Call
	Fault *fault.Error
}

func batchFatal(kind fault.Kind, msg string) *fault.Error {
	return fault.New(PhaseNativeCall, kind, msg)
}

// Normalize checks a complete batch as the provider decoded it. A call
// with a missing or malformed id or name, a type other than "function", or
// an id repeated in the batch makes the whole batch fatal (phase
// native_call). Arguments that are not exactly one JSON object (arrays,
// scalars, invalid JSON, duplicate keys, empty text) give that call the
// recoverable fault normalize/malformed_arguments and keep the raw text.
func Normalize(calls []model.ToolCall) ([]Entry, error) {
	out := make([]Entry, 0, len(calls))
	ids := make(map[string]struct{}, len(calls))
	for i, tc := range calls {
		switch {
		case tc.ID == "":
			return nil, batchFatal(fault.KindMissingField, "a tool call has no id").With("index", i).With("field", "id")
		case !ValidToken(tc.ID):
			return nil, batchFatal(KindMalformedCallID, "a tool call id is not a protocol token").With("index", i)
		case tc.Type != "function":
			return nil, batchFatal(KindUnsupportedCallType, "a tool call type is not function").With("index", i).With("call_id", tc.ID)
		case tc.Name == "":
			return nil, batchFatal(fault.KindMissingField, "a tool call has no function name").With("index", i).With("call_id", tc.ID).With("field", "name")
		case !ValidToken(tc.Name):
			return nil, batchFatal(KindMalformedProtocolToken, "a function name is not a protocol token").With("index", i).With("call_id", tc.ID)
		}
		if _, dup := ids[tc.ID]; dup {
			return nil, batchFatal(KindDuplicateCallID, "a call id repeats in the batch").With("call_id", tc.ID)
		}
		ids[tc.ID] = struct{}{}
		e := Entry{Call: Call{ID: tc.ID, Type: tc.Type, Name: tc.Name, Raw: tc.Arguments}}
		e.Call.Args, e.Call.value, e.Fault = normalizeArgs(tc.Arguments)
		out = append(out, e)
	}
	return out, nil
}

// normalizeArgs returns the canonical JSON object of raw, or the
// recoverable fault with an argument-level reason and pointer.
func normalizeArgs(raw string) (json.RawMessage, any, *fault.Error) {
	bad := func(reason string, ptr any) *fault.Error {
		fe := fault.New(PhaseNormalize, KindMalformedArguments, "arguments must be exactly one JSON object").With("reason", reason)
		if p, ok := ptr.(string); ok {
			fe.With("pointer", p)
		}
		return fe
	}
	v, err := jsonstrict.Decode([]byte(raw))
	if err != nil {
		fe := fault.As(err)
		if fe == nil {
			return nil, nil, bad(string(jsonstrict.KindMalformedJSON), nil)
		}
		return nil, nil, bad(string(fe.Kind), fe.Detail["pointer"])
	}
	if _, ok := v.(map[string]any); !ok {
		return nil, nil, bad("not_an_object", "")
	}
	canon, err := fingerprint.AppendCanonicalValue(nil, v)
	if err != nil {
		return nil, nil, bad("number_out_of_range", nil)
	}
	return canon, v, nil
}

// NormalizeEnvelope decodes a raw "tool_calls" JSON envelope strictly and
// normalizes it. Beyond Normalize it rejects, batch-fatally: an envelope
// that is not a list (malformed_tool_calls), a call that is not an object
// or has keys outside {id, type, function, index} (unexpected_fields) or
// lacks one of id, type, function (missing_field), a function with keys
// outside {name, arguments} or without a name, and fields of the wrong
// JSON type (malformed_field). Arguments may be a string (the OpenAI form)
// or an object, which is taken as its JSON text.
func NormalizeEnvelope(raw []byte) ([]Entry, error) {
	// An object given as arguments is argument text like a string's: its
	// exact bytes are kept and judged by Normalize (duplicate keys and
	// out-of-range numbers are the call's recoverable fault), and the
	// envelope checks see it as {}.
	raw, argText := maskArguments(raw)
	v, err := jsonstrict.Decode(raw)
	if err != nil {
		return nil, fault.Wrap(err, PhaseNativeCall, KindMalformedToolCalls, "the tool-call envelope is not valid JSON")
	}
	list, ok := v.([]any)
	if !ok {
		return nil, batchFatal(KindMalformedToolCalls, "the tool-call envelope is not a list")
	}
	calls := make([]model.ToolCall, 0, len(list))
	for i, item := range list {
		tc, fe := envelopeCall(item)
		if fe != nil {
			return nil, fe.With("index", i)
		}
		if t, ok := argText[i]; ok {
			tc.Arguments = t
		}
		calls = append(calls, tc)
	}
	return Normalize(calls)
}

// maskArguments returns raw with each call's object-valued
// function.arguments replaced by {}, and those objects' exact text by call
// index. When raw is not a list of objects it is returned unchanged (the
// strict decode then reports it).
func maskArguments(raw []byte) ([]byte, map[int]string) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('[') {
		return raw, nil
	}
	var out []byte
	texts := map[int]string{}
	last := 0
	// object walks an object's members; at depth 0 (a call) it descends
	// into "function", at depth 1 (a function) it takes "arguments".
	var object func(i, depth int) bool
	object = func(i, depth int) bool {
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return false
			}
			key, _ := k.(string)
			if depth == 0 && key == "function" {
				if t, err := dec.Token(); err != nil {
					return false
				} else if t == json.Delim('{') {
					if !object(i, 1) {
						return false
					}
					continue
				} else if t == json.Delim('[') {
					return false // not an object: the strict checks report it
				}
				continue
			}
			at := int(dec.InputOffset())
			var v json.RawMessage
			if err := dec.Decode(&v); err != nil {
				return false
			}
			if depth == 1 && key == "arguments" && len(v) > 0 && v[0] == '{' {
				end := int(dec.InputOffset())
				start := at + bytes.IndexByte(raw[at:end], '{')
				out = append(append(out, raw[last:start]...), "{}"...)
				last = end
				texts[i] = string(v)
			}
		}
		t, err := dec.Token()
		return err == nil && t == json.Delim('}')
	}
	for i := 0; dec.More(); i++ {
		t, err := dec.Token()
		if err != nil {
			return raw, nil
		}
		if t == json.Delim('[') {
			return raw, nil // not a call object: the strict checks report it
		}
		if t != json.Delim('{') {
			continue
		}
		if !object(i, 0) {
			return raw, nil
		}
	}
	if len(texts) == 0 {
		return raw, nil
	}
	return append(out, raw[last:]...), texts
}

func envelopeCall(item any) (model.ToolCall, *fault.Error) {
	obj, ok := item.(map[string]any)
	if !ok {
		return model.ToolCall{}, batchFatal(KindMalformedField, "a tool call is not an object")
	}
	if fe := onlyKeys(obj, "id", "type", "function", "index"); fe != nil {
		return model.ToolCall{}, fe
	}
	var tc model.ToolCall
	var fe *fault.Error
	if tc.ID, fe = stringField(obj, "id"); fe != nil {
		return tc, fe
	}
	if tc.Type, fe = stringField(obj, "type"); fe != nil {
		return tc, fe
	}
	if idx, ok := obj["index"]; ok {
		if _, num := idx.(json.Number); !num {
			return tc, batchFatal(KindMalformedField, "index is not a number").With("field", "index")
		}
	}
	fnv, ok := obj["function"]
	if !ok {
		return tc, batchFatal(fault.KindMissingField, "a tool call has no function").With("field", "function")
	}
	fn, ok := fnv.(map[string]any)
	if !ok {
		return tc, batchFatal(KindMalformedField, "function is not an object").With("field", "function")
	}
	if fe := onlyKeys(fn, "name", "arguments"); fe != nil {
		return tc, fe
	}
	if tc.Name, fe = stringField(fn, "name"); fe != nil {
		return tc, fe
	}
	switch a := fn["arguments"].(type) {
	case string:
		tc.Arguments = a
	case map[string]any:
		b, err := fingerprint.AppendCanonicalValue(nil, a)
		if err != nil {
			return tc, batchFatal(KindMalformedField, "arguments object is not representable").With("field", "arguments")
		}
		tc.Arguments = string(b)
	default:
		if _, present := fn["arguments"]; !present {
			return tc, batchFatal(fault.KindMissingField, "a function has no arguments").With("field", "arguments")
		}
		return tc, batchFatal(KindMalformedField, "arguments are neither a string nor an object").With("field", "arguments")
	}
	return tc, nil
}

func onlyKeys(obj map[string]any, allowed ...string) *fault.Error {
	extra := 0
	for k := range obj {
		if !slices.Contains(allowed, k) {
			extra++
		}
	}
	if extra > 0 {
		return batchFatal(KindUnexpectedFields, "a tool call has unexpected fields").With("count", extra)
	}
	return nil
}

func stringField(obj map[string]any, key string) (string, *fault.Error) {
	v, ok := obj[key]
	if !ok {
		return "", batchFatal(fault.KindMissingField, "a tool call lacks a field").With("field", key)
	}
	s, ok := v.(string)
	if !ok {
		return "", batchFatal(KindMalformedField, "a field is not a string").With("field", key)
	}
	return s, nil
}

// sameBatch reports whether the assistant message's tool calls are exactly
// the normalized batch: same order, ids, types, names and raw argument text.
func sameBatch(msg []model.ToolCall, batch []Entry) bool {
	return slices.EqualFunc(msg, batch, func(tc model.ToolCall, e Entry) bool {
		c := e.Call
		return tc.ID == c.ID && tc.Type == c.Type && tc.Name == c.Name && tc.Arguments == c.Raw
	})
}
