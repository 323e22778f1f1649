package corpus

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// jsonNames returns the json names of t's fields.
func jsonNames(t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		out = append(out, name)
	}
	return out
}

// TestContextToolsOverActions: each context tool's arguments are a part of
// the plan language's Action (same json names), and Args.Action() is the
// action the same JSON decodes to with the tool's type.
func TestContextToolsOverActions(t *testing.T) {
	action := map[string]bool{}
	for _, n := range jsonNames(reflect.TypeFor[Action]()) {
		action[n] = true
	}
	samples := map[string]string{
		ActionSearch: `{"pattern":"ERROR","regex":true}`,
		ActionSlice:  `{"start":10,"length":20}`,
		ActionPeek:   `{"selector":"tail","count":5}`,
	}
	seen := map[string]bool{}
	for _, ct := range ContextTools() {
		if seen[ct.Name] || !strings.HasPrefix(ct.Name, "context_") || ct.Description == "" {
			t.Errorf("tool %+v", ct)
		}
		seen[ct.Name] = true
		for _, n := range jsonNames(ct.Args) {
			if !action[n] {
				t.Errorf("%s: argument %q is not an Action field", ct.Name, n)
			}
		}
		args := reflect.New(ct.Args)
		if err := json.Unmarshal([]byte(samples[ct.Op]), args.Interface()); err != nil {
			t.Fatal(err)
		}
		got := args.MethodByName("Action").Call(nil)[0].Interface().(Action)
		var want Action
		if err := json.Unmarshal([]byte(samples[ct.Op]), &want); err != nil {
			t.Fatal(err)
		}
		want.Type = ct.Op
		if got != want {
			t.Errorf("%s: %+v, want %+v", ct.Name, got, want)
		}
	}
	if len(seen) != 3 {
		t.Errorf("tools %v", seen)
	}
}
