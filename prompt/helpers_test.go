package prompt

import (
	"context"
	"encoding/json"
	"flag"
	"slices"
	"testing"

	"go.uber.org/goleak"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/pack"
)

var _ = flag.Bool("update", false, "rewrite golden files (read by internal/golden)")

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// specs decodes a JSON array of unit specs.
func specs(t testing.TB, js string) []Spec {
	t.Helper()
	var raws []json.RawMessage
	if err := json.Unmarshal([]byte(js), &raws); err != nil {
		t.Fatal(err)
	}
	out := make([]Spec, len(raws))
	for i, r := range raws {
		s, err := DecodeSpec(r)
		if err != nil {
			t.Fatalf("spec %d: %v", i, err)
		}
		out[i] = s
	}
	return out
}

func catalog(t testing.TB, js string) *Catalog {
	t.Helper()
	c, err := NewCatalog(specs(t, js))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func compile(t testing.TB, c *Catalog, in Input, opts Options) *Compiled {
	t.Helper()
	r, err := c.Compile(context.Background(), in, opts)
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	return r
}

func compileErr(t testing.TB, c *Catalog, in Input, opts Options, kind fault.Kind) *fault.Error {
	t.Helper()
	_, err := c.Compile(context.Background(), in, opts)
	if fault.KindOf(err) != kind {
		t.Fatalf("compile err = %v, want kind %s", err, kind)
	}
	return fault.As(err)
}

func text(s string) Input { return Input{Text: s} }

func (r *Compiled) selection(id UnitID) (Selection, bool) {
	i, ok := r.selected[id]
	if !ok {
		return Selection{}, false
	}
	return r.Selected[i], true
}

func mustSelected(t testing.TB, r *Compiled, id UnitID, reason string) Selection {
	t.Helper()
	s, ok := r.selection(id)
	if !ok {
		t.Fatalf("%s not selected; selected=%v rejected=%v", id, r.Selected, r.Rejected)
	}
	if reason != "" && !slices.Contains(s.Reasons, reason) {
		t.Fatalf("%s reasons %v lack %q", id, s.Reasons, reason)
	}
	return s
}

func mustRejected(t testing.TB, r *Compiled, id UnitID, reason string) {
	t.Helper()
	i, ok := r.rejected[id]
	if !ok {
		t.Fatalf("%s not rejected; selected=%v rejected=%v", id, r.Selected, r.Rejected)
	}
	if !slices.Contains(r.Rejected[i].Reasons, reason) {
		t.Fatalf("%s rejection reasons %v lack %q", id, r.Rejected[i].Reasons, reason)
	}
	ex, err := r.Explain(id)
	if err != nil || ex.State != StateRejected || !slices.Contains(ex.Reasons, reason) || slices.Contains(ex.Reasons, "no_matching_evidence") {
		t.Fatalf("explain %s = %+v, %v", id, ex, err)
	}
}

func mustHidden(t testing.TB, r *Compiled, id UnitID) {
	t.Helper()
	if _, ok := r.selected[id]; ok {
		t.Fatalf("%s selected, want hidden", id)
	}
	if _, ok := r.rejected[id]; ok {
		t.Fatalf("%s rejected, want hidden", id)
	}
	ex, err := r.Explain(id)
	if err != nil || ex.State != StateHidden {
		t.Fatalf("explain %s = %+v, %v", id, ex, err)
	}
}

func hasTool(r *Compiled, name string) bool {
	for _, ft := range r.ToolSchemas {
		if ft.Function.Name == name {
			return true
		}
	}
	return false
}

func isActive(r *Compiled, id UnitID) bool { return slices.Contains(r.ActiveUnits, id) }

func policy(max, reserve, safety int) *pack.Policy {
	return &pack.Policy{MaxContextTokens: max, ReserveOutputTokens: reserve, SafetyMarginTokens: safety}
}
