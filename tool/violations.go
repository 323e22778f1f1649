package tool

import (
	"cmp"
	"encoding/json"
	"errors"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

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
	verr := v.sch.Validate(val)
	if verr == nil {
		return nil, nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(verr, &ve) {
		return []Violation{{Keyword: "schema"}}, nil
	}
	p := message.NewPrinter(language.English)
	var out []Violation
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(out) >= MaxViolations {
			return
		}
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		var ptr strings.Builder
		for _, tok := range e.InstanceLocation {
			ptr.WriteString("/" + strings.ReplaceAll(strings.ReplaceAll(tok, "~", "~0"), "/", "~1"))
		}
		vi := Violation{Pointer: ptr.String(), Message: e.ErrorKind.LocalizedString(p)}
		if kw := e.ErrorKind.KeywordPath(); len(kw) > 0 {
			vi.Keyword = kw[len(kw)-1]
		}
		if !slices.Contains(out, vi) {
			out = append(out, vi)
		}
	}
	walk(ve)
	slices.SortStableFunc(out, func(a, b Violation) int {
		return cmp.Or(cmp.Compare(a.Pointer, b.Pointer), cmp.Compare(a.Keyword, b.Keyword))
	})
	return out, nil
}
