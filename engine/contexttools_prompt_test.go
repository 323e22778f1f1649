package engine

import (
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/corpus"
)

// TestPromptsNameDeclaredContextParameters: the plan protocol's action
// lines and code mode's context.search signature name the parameters the
// context tools declare (corpus.ContextTools), so the prompts cannot drift
// from the declaration.
func TestPromptsNameDeclaredContextParameters(t *testing.T) {
	for _, ct := range corpus.ContextTools() {
		line := regexp.MustCompile(`\{"type":"` + ct.Op + `"[^\n]*`).FindString(protocol)
		if line == "" {
			t.Errorf("the plan protocol has no %s action line", ct.Op)
			continue
		}
		for i := range ct.Args.NumField() {
			name, _, _ := strings.Cut(ct.Args.Field(i).Tag.Get("json"), ",")
			if !strings.Contains(line, `"`+name+`":`) {
				t.Errorf("the plan protocol's %s line %q does not name %q", ct.Op, line, name)
			}
		}
	}
	search := regexp.MustCompile(`context\.search\(([^)]*)\)`).FindStringSubmatch(codeContextLines)
	if search == nil {
		t.Fatal("the code protocol has no context.search signature")
	}
	params := map[string]bool{}
	for _, p := range strings.Split(search[1], ",") {
		name, _, _ := strings.Cut(strings.TrimSpace(p), "=")
		params[name] = true
	}
	st := reflect.TypeFor[corpus.SearchArgs]()
	for i := range st.NumField() {
		name, _, _ := strings.Cut(st.Field(i).Tag.Get("json"), ",")
		if !params[name] {
			t.Errorf("code mode's context.search(%s) does not take %q", search[1], name)
		}
	}
}
