package prompt

import (
	"strconv"

	"github.com/rlm-go/rlm/fingerprint"
)

// appendCanonical appends the canonical JSON of a normalized unit: the same
// bytes as fingerprint.Canonical(u) (TestUnitCanonicalMatchesGeneric and
// FuzzUnitCanonical check it), written field by field without the
// encode-decode-encode round trip, which dominated catalog builds. Keys are
// in sorted order; nil slices are null as encoding/json writes them; the
// schema's parameters are canonical already (normalization made them so).
func (u *Unit) appendCanonical(b []byte) []byte {
	str := fingerprint.AppendString
	strs := appendStrings[string]
	ids := appendStrings[UnitID]
	boolean := func(b []byte, key string, v bool) []byte {
		return strconv.AppendBool(append(b, key...), v)
	}
	b = append(b, `{"activation":`...)
	b = str(b, string(u.Activation))
	b = strs(b, `,"aliases":`, u.Aliases)
	b = boolean(b, `,"available":`, u.Available)
	b = str(append(b, `,"category":`...), u.Category)
	b = ids(b, `,"conflicts":`, u.Conflicts)
	b = str(append(b, `,"content":`...), u.Content)
	b = str(append(b, `,"description":`...), u.Description)
	b = str(append(b, `,"kind":`...), string(u.Kind))
	b = boolean(b, `,"mandatory_context":`, u.MandatoryContext)
	b = str(append(b, `,"name":`...), u.Name)
	b = strconv.AppendInt(append(b, `,"priority":`...), int64(u.Priority), 10)
	b = str(append(b, `,"provenance":`...), u.Provenance)
	b = boolean(b, `,"provider_visible":`, u.ProviderVisible)
	b = appendList(b, `,"representations":`, u.Representations, func(b []byte, r Representation) []byte {
		b = str(append(b, `{"kind":`...), r.Kind)
		b = str(append(b, `,"text":`...), r.Text)
		b = strconv.AppendInt(append(b, `,"utility":`...), r.Utility, 10)
		return append(b, '}')
	})
	b = ids(b, `,"requires":`, u.Requires)
	b = str(append(b, `,"requires_capability":`...), u.RequiresCapability)
	b = append(b, `,"schema":`...)
	if u.Schema == nil {
		b = append(b, "null"...)
	} else {
		b = str(append(b, `{"description":`...), u.Schema.Description)
		b = str(append(b, `,"name":`...), u.Schema.Name)
		b = append(b, `,"parameters":`...)
		if u.Schema.Parameters == nil {
			b = append(b, "null"...)
		} else {
			b = append(b, u.Schema.Parameters...)
		}
		b = append(b, '}')
	}
	b = ids(b, `,"suggests":`, u.Suggests)
	b = ids(b, `,"supersedes":`, u.Supersedes)
	b = appendList(b, `,"triggers":`, u.Triggers, func(b []byte, t Trigger) []byte {
		b = append(b, '{')
		if t.Keyword != "" {
			b = str(append(b, `"keyword":`...), t.Keyword)
			b = append(b, ',')
		}
		if t.Phrase != "" {
			b = str(append(b, `"phrase":`...), t.Phrase)
			b = append(b, ',')
		}
		if t.Signal != "" {
			b = str(append(b, `"signal":`...), t.Signal)
			b = append(b, ',')
		}
		b = strconv.AppendInt(append(b, `"weight":`...), int64(t.Weight), 10)
		return append(b, '}')
	})
	b = str(append(b, `,"unit":`...), string(u.ID))
	return append(b, '}')
}

// appendList appends `key` and the list as a JSON array of elements
// written by elem, or null for a nil list, as encoding/json writes it.
func appendList[T any](b []byte, key string, list []T, elem func([]byte, T) []byte) []byte {
	b = append(b, key...)
	if list == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, v := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = elem(b, v)
	}
	return append(b, ']')
}

// appendStrings is appendList for a list of strings.
func appendStrings[S ~string](b []byte, key string, list []S) []byte {
	return appendList(b, key, list, func(b []byte, s S) []byte { return fingerprint.AppendString(b, string(s)) })
}
