package capability

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/rlm-go/rlm/fault"
)

func TestParse(t *testing.T) {
	good := []string{"rlm", "map", "code", "tool:fs_read", "context:search", "model:gpt-4o-mini", "model:*", "mcp:github/issues", "network:api.example.com", "tool:mcp.gh.*", "tool:mcp.*"}
	for _, s := range good {
		if _, err := Parse(s); err != nil {
			t.Errorf("%q: %v", s, err)
		}
	}
	bad := []string{"", "root", "tool:", "tool:a b", "exec:ls", "tool:fs*", "tool:mcp.*.x", "tool:mcp*", "tool:mcp.gh.**", "model:" + string(make([]byte, 129))}
	for _, s := range bad {
		if _, err := Parse(s); fault.KindOf(err) != KindInvalidCapability {
			t.Errorf("%q: want invalid_capability, got %v", s, err)
		}
	}
}

func TestSetNormalizes(t *testing.T) {
	s := MustSet("tool:b", "rlm", "tool:a", "rlm")
	if got := s.Strings(); !slices.Equal(got, []string{"rlm", "tool:a", "tool:b"}) {
		t.Fatalf("got %v", got)
	}
	b, _ := json.Marshal(s)
	if string(b) != `["rlm","tool:a","tool:b"]` {
		t.Fatalf("json %s", b)
	}
	var back Set
	if err := json.Unmarshal(b, &back); err != nil || !slices.Equal(back.Strings(), s.Strings()) {
		t.Fatalf("round trip: %v %v", back, err)
	}
	if err := json.Unmarshal([]byte(`["bogus"]`), &back); fault.KindOf(err) != KindInvalidCapability {
		t.Fatalf("want invalid, got %v", err)
	}
}

func TestNarrow(t *testing.T) {
	parent := MustSet("rlm", "tool:a", "model:*")
	if _, err := parent.Narrow(MustSet("tool:a", "model:x")); err != nil {
		t.Fatal(err)
	}
	_, err := parent.Narrow(MustSet("tool:a", "tool:b", "map"))
	e := fault.As(err)
	if e == nil || e.Kind != KindWideningDenied {
		t.Fatalf("want widening_denied, got %v", err)
	}
	if extra := e.Detail["extra"].([]string); !slices.Equal(extra, []string{"map", "tool:b"}) {
		t.Fatalf("extra %v", extra)
	}
	if got := parent.Intersect(MustSet("tool:a", "tool:b")).Strings(); !slices.Equal(got, []string{"tool:a"}) {
		t.Fatalf("intersect %v", got)
	}
}

// Property: for random subsets, Narrow succeeds exactly when Missing is empty,
// and a narrowed set is always a subset of its parent.
func TestNarrowProperty(t *testing.T) {
	universe := []string{"rlm", "map", "parallel", "retry", "checkpoint", "tool:a", "tool:b", "context:search", "model:m"}
	for mask := 0; mask < 1<<len(universe); mask += 7 {
		var parent, child []string
		for i, c := range universe {
			if mask&(1<<i) != 0 {
				parent = append(parent, c)
			}
			if (mask>>1)&(1<<i) != 0 || (i%3 == 0 && mask&(1<<i) != 0) {
				child = append(child, c)
			}
		}
		p, c := MustSet(parent...), MustSet(child...)
		n, err := p.Narrow(c)
		if (err == nil) != (len(p.Missing(c)) == 0) {
			t.Fatalf("mask %d: narrow/missing disagree", mask)
		}
		if err == nil && len(p.Missing(n)) != 0 {
			t.Fatalf("mask %d: narrowed set wider than parent", mask)
		}
	}
}

// Code is a bare capability and narrows like any other: a child scope
// cannot gain it when its parent lacks it.
func TestCodeNarrows(t *testing.T) {
	if c, err := Parse("code"); err != nil || c != Code {
		t.Fatalf("%v %v", c, err)
	}
	if _, err := MustSet("rlm").Narrow(MustSet("code")); fault.KindOf(err) != KindWideningDenied {
		t.Fatalf("want widening_denied, got %v", err)
	}
	if _, err := MustSet("rlm", "code").Narrow(MustSet("code")); err != nil {
		t.Fatal(err)
	}
}

func TestDottedWildcard(t *testing.T) {
	s := MustSet("tool:mcp.gh.*")
	for _, c := range []struct {
		cap  Cap
		want bool
	}{
		{"tool:mcp.gh.create_issue", true},
		{"tool:mcp.gh.a.b", true},
		{"tool:mcp.gh.*", true},
		{"tool:mcp.ghx.create_issue", false},
		{"tool:mcp.other.x", false},
		{"tool:mcp.gh", false},
		{"model:mcp.gh.x", false},
	} {
		if got := s.Has(c.cap); got != c.want {
			t.Errorf("Has(%s) = %v, want %v", c.cap, got, c.want)
		}
	}
	if !MustSet("tool:mcp.*").Has("tool:mcp.gh.x") {
		t.Error("tool:mcp.* must grant every MCP tool")
	}
	if _, err := MustSet("tool:mcp.gh.*").Narrow(MustSet("tool:mcp.*")); err == nil {
		t.Error("narrowing to a wider wildcard must fail")
	}
}

func TestSetEqual(t *testing.T) {
	a := MustSet("tool:a", "rlm", "model:*")
	cp := a
	for _, tc := range []struct {
		name string
		x, y Set
		want bool
	}{
		{"zero values", Set{}, Set{}, true},
		{"zero and empty", Set{}, MustSet(), true},
		{"copy", a, cp, true},
		{"same content, other storage", a, MustSet("model:*", "rlm", "tool:a", "rlm"), true},
		{"other content, same length", a, MustSet("tool:b", "rlm", "model:*"), false},
		{"subset", a, MustSet("tool:a", "rlm"), false},
		{"superset", a, a.Union(MustSet("map")), false},
		{"empty and non-empty", Set{}, a, false},
	} {
		if got := tc.x.Equal(tc.y); got != tc.want {
			t.Errorf("%s: %v.Equal(%v) = %v, want %v", tc.name, tc.x.Strings(), tc.y.Strings(), got, tc.want)
		}
		if got := tc.y.Equal(tc.x); got != tc.want {
			t.Errorf("%s (swapped): got %v, want %v", tc.name, got, tc.want)
		}
	}
}
