package tool

import (
	"cmp"
	"encoding/json"
	"slices"

	"github.com/rlm-go/rlm/internal/jsonstrict"
)

// Violation is one way a value fails a schema: the JSON pointer of the
// failing value (RFC 6901, "" for the whole value), the schema keyword
// that failed ("required", "type", "enum"...) and the validator's own
// sentence about it, in English (it may quote the value).
type Violation struct {
	Pointer string `json:"pointer"`
	Keyword string `json:"keyword"`
	Message string `json:"message,omitempty"`
}

// MaxViolations bounds the violations Violations reports.
const MaxViolations = 16

// Violations decodes raw strictly (as Validate does) and lists every
// failing leaf of the schema's verdict (at most MaxViolations, sorted by
// pointer, then keyword); nil when the value is valid. raw that is not exactly
// one JSON value is package jsonstrict's error (phase parse).
func (v *Validator) Violations(raw json.RawMessage) ([]Violation, error) {
	val, err := jsonstrict.Decode(raw)
	if err != nil {
		return nil, err
	}
	var out []Violation
	for _, l := range v.sch.Validate(val) {
		if len(out) >= MaxViolations {
			break
		}
		vi := Violation{Pointer: l.Pointer(), Keyword: l.Keyword, Message: l.Message}
		if !slices.Contains(out, vi) {
			out = append(out, vi)
		}
	}
	if out == nil {
		return nil, nil
	}
	slices.SortStableFunc(out, func(a, b Violation) int {
		return cmp.Or(cmp.Compare(a.Pointer, b.Pointer), cmp.Compare(a.Keyword, b.Keyword))
	})
	return out, nil
}
