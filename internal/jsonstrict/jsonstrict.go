// Package jsonstrict decodes JSON from untrusted sources strictly: exactly
// one value, no duplicate object keys, bounded nesting depth, and numbers kept
// exact as json.Number.
//
// encoding/json silently keeps the last of duplicate keys, which lets two
// readers of the same text disagree about its meaning; model output, tool
// arguments and plan documents are therefore decoded here.
package jsonstrict

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/rlm-go/rlm/fault"
)

// Error kinds.
const (
	KindMalformedJSON fault.Kind = "malformed_json"
	KindDuplicateKey  fault.Kind = "duplicate_key"
	KindTooDeep       fault.Kind = "too_deep"
	KindTrailingData  fault.Kind = "trailing_data"
)

// MaxDepth is the maximum nesting depth of arrays and objects.
const MaxDepth = 128

// Decode parses data as exactly one JSON value. Objects become
// map[string]any, arrays []any, numbers json.Number. Errors carry Phase
// parse, a Kind above, and detail "pointer" (the JSON pointer of the
// offending location) where known.
func Decode(data []byte) (any, error) {
	if v, ok := decodeFast(data, false); ok {
		return v, nil
	}
	return decodeReference(data)
}

// decodeReference is Decode on top of the token API of encoding/json. It
// defines the accepted language and every error; decodeFast only shortcuts
// inputs on which both agree.
func decodeReference(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec, "", 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fault.New(fault.PhaseParse, KindTrailingData, "unexpected data after the JSON value")
	}
	return v, nil
}

// DecodeObject is Decode that also requires the value to be a JSON object.
func DecodeObject(data []byte) (map[string]any, error) {
	v, err := Decode(data)
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fault.New(fault.PhaseParse, KindMalformedJSON, "expected a JSON object").With("pointer", "")
	}
	return m, nil
}

// DecodeStandard decodes data as exactly one JSON value the way
// encoding/json does with UseNumber into an any: a duplicate key keeps its
// last value, and there is no depth limit beyond encoding/json's own. It is
// meant for trusted JSON produced by Go code (for example handler results);
// errors are those of encoding/json.
func DecodeStandard(data []byte) (any, error) {
	if v, ok := decodeFast(data, true); ok {
		return v, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("invalid character after top-level value")
	}
	return v, nil
}

// CheckDuplicates reports a typed error if data is not exactly one valid
// JSON value or contains an object with a repeated key. It is meant to run
// before json.Unmarshal into typed structs.
func CheckDuplicates(data []byte) error {
	_, err := Decode(data)
	return err
}

// Unmarshal checks data with CheckDuplicates and then decodes it into v with
// encoding/json.
func Unmarshal(data []byte, v any) error {
	if err := CheckDuplicates(data); err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fault.Wrap(err, fault.PhaseParse, KindMalformedJSON, "JSON does not match the expected shape")
	}
	return nil
}

func malformed(err error, ptr string) error {
	return fault.Wrap(err, fault.PhaseParse, KindMalformedJSON, "invalid JSON").With("pointer", ptr)
}

func decodeValue(dec *json.Decoder, ptr string, depth int) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, malformed(err, ptr)
	}
	switch t := tok.(type) {
	case json.Delim:
		if depth >= MaxDepth {
			return nil, fault.New(fault.PhaseParse, KindTooDeep, "JSON nesting is too deep").With("pointer", ptr).With("max_depth", MaxDepth)
		}
		switch t {
		case '{':
			obj := make(map[string]any)
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, malformed(err, ptr)
				}
				key, ok := kt.(string)
				if !ok {
					return nil, malformed(errors.New("object key is not a string"), ptr)
				}
				child := ptr + "/" + EscapeToken(key)
				if _, dup := obj[key]; dup {
					return nil, fault.New(fault.PhaseParse, KindDuplicateKey, "object has a duplicate key").With("pointer", child)
				}
				v, err := decodeValue(dec, child, depth+1)
				if err != nil {
					return nil, err
				}
				obj[key] = v
			}
			if _, err := dec.Token(); err != nil {
				return nil, malformed(err, ptr)
			}
			return obj, nil
		case '[':
			arr := make([]any, 0)
			for i := 0; dec.More(); i++ {
				v, err := decodeValue(dec, ptr+"/"+strconv.Itoa(i), depth+1)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, malformed(err, ptr)
			}
			return arr, nil
		}
		return nil, malformed(errors.New("unexpected delimiter"), ptr)
	default:
		return t, nil
	}
}

// EscapeToken escapes s as one reference token of a JSON pointer (RFC
// 6901): "~" as "~0", "/" as "~1". The module's JSON pointers (these
// errors', the schema validator's) are built with it.
func EscapeToken(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// UnescapeToken is EscapeToken's inverse.
func UnescapeToken(s string) string {
	if !strings.Contains(s, "~") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}
