package prompt

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/textcut"
)

// triggerJSON is the JSON shape of a Trigger (Trigger.UnmarshalJSON).
type triggerJSON struct {
	Phrase  *string `json:"phrase"`
	Keyword *string `json:"keyword"`
	Signal  *string `json:"signal"`
	Weight  *int    `json:"weight"`
}

var (
	triggerType     = reflect.TypeFor[Trigger]()
	triggerJSONType = reflect.TypeFor[triggerJSON]()
	scopeType       = reflect.TypeFor[Scope]()
	scopeItemsType  = reflect.TypeFor[[]ScopeItem]()
	rawMessageType  = reflect.TypeFor[json.RawMessage]()
	fieldCache      sync.Map // reflect.Type → map[string]reflect.Type
)

// exactFields walks v, the generic decoding of a document, alongside the
// type t it was decoded into, and fails on an object key that is not
// exactly the JSON name of a field. encoding/json matches names
// case-insensitively, so without this check {"activation": "relevant",
// "Activation": "always"} would pass the duplicate-key check and the last
// spelling would silently win. Map keys and raw JSON are data and are not
// checked; a trigger's keys are invalid_trigger and a scope item's
// invalid_discovery_scope, as their own decoders report them.
func exactFields(v any, t reflect.Type, phase fault.Phase, kind fault.Kind) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t {
	case rawMessageType:
		return nil
	case triggerType:
		t, phase, kind = triggerJSONType, PhaseCatalog, KindInvalidTrigger
	case scopeType:
		t, phase, kind = scopeItemsType, PhaseInput, KindInvalidDiscoveryScope
	}
	switch t.Kind() {
	case reflect.Struct:
		obj, ok := v.(map[string]any)
		if !ok {
			return nil // a type mismatch, reported by the decoder
		}
		fields := jsonFields(t)
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			ft, ok := fields[k]
			if !ok {
				return fault.New(phase, kind, "unknown field (field names are case-sensitive)").With("field", textcut.Prefix(k, 200))
			}
			if err := exactFields(obj[k], ft, phase, kind); err != nil {
				return err
			}
		}
	case reflect.Slice, reflect.Array:
		arr, _ := v.([]any)
		for _, e := range arr {
			if err := exactFields(e, t.Elem(), phase, kind); err != nil {
				return err
			}
		}
	case reflect.Map:
		obj, _ := v.(map[string]any)
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if err := exactFields(obj[k], t.Elem(), phase, kind); err != nil {
				return err
			}
		}
	}
	return nil
}

// jsonFields returns the JSON names of struct type t's fields and their
// types.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	if m, ok := fieldCache.Load(t); ok {
		return m.(map[string]reflect.Type)
	}
	m := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		m[name] = f.Type
	}
	fieldCache.Store(t, m)
	return m
}
