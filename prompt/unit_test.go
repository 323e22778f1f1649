package prompt

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/fingerprint"
	"github.com/rlm-go/rlm/internal/golden"
	"github.com/rlm-go/rlm/tool"
)

func TestNormalizeErrors(t *testing.T) {
	long := func(n int) string { return `"` + strings.Repeat("x", n) + `"` }
	tests := []struct {
		name string
		spec string
		kind fault.Kind
	}{
		{"missing unit", `{}`, KindInvalidUnitSpec},
		{"unknown field", `{"unit": "tool:x", "colour": 1}`, KindInvalidUnitSpec},
		{"wrong type", `{"unit": "tool:x", "available": "yes"}`, KindInvalidUnitSpec},
		{"duplicate key", `{"unit": "tool:x", "unit": "tool:y"}`, KindInvalidUnitSpec},
		{"bad kind", `{"unit": "widget:x"}`, KindInvalidUnitID},
		{"bad name", `{"unit": "tool:has space"}`, KindInvalidUnitID},
		{"mcp without server", `{"unit": "mcp_tool:x"}`, KindInvalidUnitID},
		{"kind mismatch", `{"unit": "tool:x", "kind": "skill"}`, KindUnitKindMismatch},
		{"invalid activation", `{"unit": "tool:x", "activation": "sometimes"}`, KindInvalidActivation},
		{"description too large", `{"unit": "tool:x", "description": ` + long(MaxDescription+1) + `}`, KindDescriptionTooLarge},
		{"content too large", `{"unit": "skill:x", "content": ` + long(MaxContent+1) + `}`, KindContentTooLarge},
		{"alias too large", `{"unit": "tool:x", "aliases": [` + long(MaxAlias+1) + `]}`, KindAliasTooLarge},
		{"too many aliases", `{"unit": "tool:x", "aliases": [` + strings.Repeat(`"a",`, MaxAliases) + `"b"]}`, KindTooManyAliases},
		{"empty alias", `{"unit": "tool:x", "aliases": [" "]}`, KindInvalidAlias},
		{"two trigger kinds", `{"unit": "tool:x", "triggers": [{"phrase": "a", "keyword": "b", "weight": 1}]}`, KindInvalidTrigger},
		{"trigger weight", `{"unit": "tool:x", "triggers": [{"keyword": "a", "weight": 100001}]}`, KindInvalidTrigger},
		{"trigger no letters", `{"unit": "tool:x", "triggers": [{"phrase": "!!!"}]}`, KindInvalidTrigger},
		{"trigger unknown field", `{"unit": "tool:x", "triggers": [{"verb": "a"}]}`, KindInvalidTrigger},
		{"bad requires", `{"unit": "tool:x", "requires": ["x"]}`, KindInvalidUnitID},
		{"self reference", `{"unit": "tool:x", "conflicts": ["tool:x"]}`, KindSelfReference},
		{"bad capability", `{"unit": "tool:x", "requires_capability": "a(b)"}`, capability.KindInvalidCapability},
		{"negative priority", `{"unit": "tool:x", "priority": -1}`, KindInvalidPriority},
		{"schema on skill", `{"unit": "skill:x", "schema": {}}`, KindSchemaOnlyValidForTools},
		{"schema name mismatch", `{"unit": "tool:x", "schema": {"name": "y"}}`, tool.KindInvalidSchema},
		{"schema params not object", `{"unit": "tool:x", "schema": {"parameters": [1]}}`, tool.KindInvalidSchema},
		{"omitted representation", `{"unit": "skill:x", "representations": [{"kind": "omitted", "text": "", "utility": 1}]}`, KindInvalidRepresentation},
		{"negative utility", `{"unit": "skill:x", "representations": [{"kind": "full", "text": "", "utility": -1}]}`, KindInvalidRepresentation},
		{"bad category", `{"unit": "tool:x", "category": "a b"}`, KindInvalidName},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := DecodeSpec([]byte(tt.spec))
			if err == nil {
				_, err = Normalize(s)
			}
			if fault.KindOf(err) != tt.kind {
				t.Fatalf("err = %v, want kind %s", err, tt.kind)
			}
		})
	}
}

func TestNormalizeDefaults(t *testing.T) {
	for _, tt := range []struct {
		spec   string
		golden string
	}{
		{`{"unit": "mcp_server:github"}`, "normalize_mcp_server.golden"},
		{`{"unit": "tool:git_diff", "description": "Show a diff", "aliases": ["b", "a", "a"],
		   "triggers": [{"keyword": "Git  Diff"}, {"keyword": "git diff", "weight": 40}, {"signal": " verb:review "}],
		   "requires": ["tool:z", "tool:a", "tool:z"], "requires_capability": "none",
		   "schema": {"parameters": {"type": "object", "properties": {"b": {}, "a": {}}}},
		   "provenance": {"source": "test", "n": 1}}`, "normalize_tool.golden"},
	} {
		s, err := DecodeSpec([]byte(tt.spec))
		if err != nil {
			t.Fatal(err)
		}
		u, err := Normalize(s)
		if err != nil {
			t.Fatal(err)
		}
		golden.CheckJSON(t, tt.golden, u)
	}
}

func TestDuplicateUnit(t *testing.T) {
	same := specs(t, `[{"unit": "tool:x"}, {"unit": "tool:x", "priority": 100}]`)
	if _, err := NewCatalog(same); err != nil {
		t.Fatalf("identical specs must collapse: %v", err)
	}
	diff := specs(t, `[{"unit": "tool:x"}, {"unit": "tool:x", "priority": 1}]`)
	if _, err := NewCatalog(diff); fault.KindOf(err) != KindDuplicateUnit {
		t.Fatalf("err = %v", err)
	}
}

func TestEveryFieldIsMaterialToCatalogFingerprint(t *testing.T) {
	base := `"unit": "tool:x"`
	variants := []string{
		``, `, "category": "c"`, `, "description": "d"`, `, "available": false`, `, "activation": "always"`,
		`, "aliases": ["a"]`, `, "triggers": [{"keyword": "k"}]`, `, "requires": ["tool:y"]`, `, "suggests": ["tool:y"]`,
		`, "conflicts": ["tool:y"]`, `, "supersedes": ["tool:y"]`, `, "requires_capability": "tool:c"`, `, "priority": 1`,
		`, "provider_visible": false`, `, "mandatory_context": false`, `, "schema": {}`, `, "content": "c"`,
		`, "representations": [{"kind": "full", "text": "t", "utility": 1}]`, `, "provenance": "p"`,
	}
	seen := map[string]string{}
	for _, v := range variants {
		c := catalog(t, `[{`+base+v+`}]`)
		if prev, dup := seen[c.Fingerprint()]; dup {
			t.Fatalf("%q and %q share a fingerprint", prev, v)
		}
		seen[c.Fingerprint()] = v
	}
}

func TestSearchReturnsSanitizedMetadataOnly(t *testing.T) {
	c := catalog(t, `[
	 {"unit": "tool:project_search", "description": "Search the project files", "content": "handler preflight transport secret",
	  "schema": {"parameters": {"type": "object", "properties": {"transport": {"type": "string"}}}}},
	 {"unit": "tool:web_search", "description": "Search the web"},
	 {"unit": "tool:hidden_search", "description": "Search hidden things", "available": false}
	]`)
	res, err := c.Search(context.Background(), "project search", SearchOptions{Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Results) != 1 || res.Results[0].Unit != "tool:project_search" || !res.Truncated {
		t.Fatalf("res = %+v", res)
	}
	b, _ := json.Marshal(res)
	for _, secret := range []string{"handler", "preflight", "transport", "secret", "parameters"} {
		if strings.Contains(string(b), secret) {
			t.Fatalf("search leaked %q: %s", secret, b)
		}
	}
	all, _ := c.Search(context.Background(), "search", SearchOptions{Limit: 100})
	if len(all.Results) != 2 || all.Truncated {
		t.Fatalf("all = %+v", all)
	}
	withUnavailable, _ := c.Search(context.Background(), "search", SearchOptions{IncludeUnavailable: true})
	if len(withUnavailable.Results) != 3 {
		t.Fatalf("with unavailable = %+v", withUnavailable)
	}
	scoped, _ := c.Search(context.Background(), "search", SearchOptions{DiscoveryScope: ScopeOf(ScopeItem{Unit: "tool:web_search"})})
	if len(scoped.Results) != 1 || scoped.Results[0].Unit != "tool:web_search" {
		t.Fatalf("scoped = %+v", scoped)
	}
	for _, q := range []string{"", strings.Repeat("q", MaxSearchQuery+1)} {
		if _, err := c.Search(context.Background(), q, SearchOptions{}); fault.KindOf(err) != KindInvalidSearchQuery {
			t.Fatalf("query %d chars: err = %v", len(q), err)
		}
	}
	if _, err := c.Search(context.Background(), "x", SearchOptions{Limit: -1}); fault.KindOf(err) != KindInvalidSearchLimit {
		t.Fatalf("err = %v", err)
	}
	_, err = c.Search(context.Background(), "x", SearchOptions{ParentDiscoveryScope: ScopeOf(ScopeItem{Kind: KindSkill}), DiscoveryScope: ScopeOf(ScopeItem{Kind: KindTool})})
	if fault.KindOf(err) != KindScopeWideningDenied {
		t.Fatalf("err = %v", err)
	}
}

func TestDecodeInputAndOptions(t *testing.T) {
	in, err := DecodeInput([]byte(`{"text": "hi", "signals": ["b", "a", "a"], "selected": ["tool:x"], "denied": []}`))
	if err != nil || !slices.Equal(in.Signals, []string{"a", "b"}) || in.Selected[0] != "tool:x" {
		t.Fatalf("in = %+v, %v", in, err)
	}
	if in, err := DecodeInput([]byte(`"just text"`)); err != nil || in.Text != "just text" {
		t.Fatalf("in = %+v, %v", in, err)
	}
	for _, bad := range []string{`{"text": 1}`, `{"txt": "x"}`, `{"selected": ["nope"]}`, `[]`, `{"text": "a"} x`} {
		if _, err := DecodeInput([]byte(bad)); fault.KindOf(err) != KindInvalidInput {
			t.Fatalf("%s: err = %v", bad, err)
		}
	}
	o, err := DecodeOptions([]byte(`{"capabilities": ["rlm"], "discovery_scope": [{"kind": "tool"}], "parent_discovery_scope": "all",
	  "candidate_limit": 3, "mode": "all_tools", "pack": false, "policy": {"max_context_tokens": 1000}}`))
	if err != nil || !o.NoPack || o.Policy.MaxContextTokens != 1000 || o.Policy.ReserveOutputTokens != 16384 || o.DiscoveryScope.All() || !o.ParentDiscoveryScope.All() {
		t.Fatalf("o = %+v, %v", o, err)
	}
	for _, bad := range []string{`{"discovery_scope": [{"kind": "widget"}]}`, `{"discovery_scope": [{"kind": "tool", "unit": "tool:x"}]}`, `{"discovery_scope": "some"}`} {
		if _, err := DecodeOptions([]byte(bad)); fault.KindOf(err) != KindInvalidDiscoveryScope {
			t.Fatalf("%s: err = %v", bad, err)
		}
	}
	// Grants use capability's closed vocabulary (moved from
	// TestCompileErrors: a capability.Set cannot hold a bad grant).
	for _, bad := range []string{`{"capabilities": ["a b"]}`, `{"capabilities": ["vcs.read"]}`} {
		if _, err := DecodeOptions([]byte(bad)); fault.KindOf(err) != capability.KindInvalidCapability {
			t.Fatalf("%s: err = %v", bad, err)
		}
	}
	if _, err := DecodeOptions([]byte(`{"colour": 1}`)); fault.KindOf(err) != KindInvalidOptions {
		t.Fatalf("err = %v", err)
	}
}

func TestCatalogFileBuild(t *testing.T) {
	f, err := DecodeCatalogFile([]byte(`{"units": [{"unit": "instruction:core", "activation": "always", "content": "Be brief."}],
	  "tools": [{"name": "git_diff", "description": "Show a diff", "parameters": {"type": "object"}, "capability": "tool:vcs.read", "effect": "read"}],
	  "import": {"always_visible_tools": ["git_diff"], "category": "vcs", "aliases": {"git_diff": ["diff"]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	c, err := f.Build()
	if err != nil {
		t.Fatal(err)
	}
	u, ok := c.Lookup("tool:git_diff")
	if !ok || u.Activation != Always || u.Category != "vcs" || u.RequiresCapability != "tool:vcs.read" || !slices.Equal(u.Aliases, []string{"diff"}) {
		t.Fatalf("u = %+v", u)
	}
	if len(u.Triggers) != 2 {
		t.Fatalf("triggers = %+v", u.Triggers)
	}
}

// FuzzNormalizeUnit decodes and normalizes arbitrary unit JSON: it must
// never panic, failures must be typed, and normalization must be
// idempotent (the normalized unit re-normalizes to itself).
func FuzzNormalizeUnit(f *testing.F) {
	for _, s := range []string{
		`{"unit": "tool:x"}`,
		`{"unit": "mcp_tool:s/x", "schema": {"parameters": {"type": "object"}}, "activation": "always"}`,
		`{"unit": "skill:x", "triggers": [{"phrase": "Review PR", "weight": 3}, {"signal": "s"}], "aliases": ["A", "a"]}`,
		`{"unit": "instruction:x", "representations": [{"kind": "full", "text": "t", "utility": 2}], "provenance": [1, {"b": 2, "a": 1}]}`,
		`{"unit": "tool:x", "requires": ["tool:y"], "priority": 7, "available": false, "provider_visible": false}`,
		`{"unit": "tool:\u00e9t\u00e9", "description": "caf\u00e9"}`,
		`not json`, `[]`, `{"unit": 5}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := DecodeSpec(data)
		if err != nil {
			if fault.As(err) == nil {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		u, err := Normalize(s)
		if err != nil {
			if fault.As(err) == nil {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		b, err := json.Marshal(u.Spec())
		if err != nil {
			t.Fatal(err)
		}
		s2, err := DecodeSpec(b)
		if err != nil {
			t.Fatalf("re-decode %s: %v", b, err)
		}
		u2, err := Normalize(s2)
		if err != nil {
			t.Fatalf("re-normalize %s: %v", b, err)
		}
		a, _ := json.Marshal(u)
		b2, _ := json.Marshal(u2)
		if string(a) != string(b2) {
			t.Fatalf("not idempotent:\n%s\n%s", a, b2)
		}
		if _, err := NewCatalog([]Spec{s}); err != nil {
			t.Fatalf("catalog of a valid unit: %v", err)
		}
	})
}

// FuzzDecodeInput decodes arbitrary compile input and compiles it against a
// small catalog: no panic, typed errors only, and the indexed evidence must
// agree with the per-unit evidence for every unit.
func FuzzDecodeInput(f *testing.F) {
	for _, s := range []string{
		`{"text": "review pull request without github", "signals": ["verb:review", "deny:tool:git_diff"], "needs": ["source_search"]}`,
		`{"text": "do not use task", "selected": ["skill:review"], "denied": ["tool:task"]}`,
		`"plain text git diff"`, `{}`, `{"text": 3}`, `{"selected": ["bad"]}`, `null`,
	} {
		f.Add([]byte(s))
	}
	c, err := NewCatalog(append(specs(f, refFixture), specs(f, alwaysFixture)[0]))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := DecodeInput(data)
		if err != nil {
			if fault.As(err) == nil {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		r, err := c.Compile(context.Background(), in, allCaps)
		if err != nil {
			if fault.As(err) == nil {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		checkEvidenceAgrees(t, c, r)
	})
}

// checkEvidenceAgrees recomputes the indexed accumulation and compares it
// with the per-unit evidence used for reasons.
func checkEvidenceAgrees(t *testing.T, c *Catalog, r *Compiled) {
	t.Helper()
	sc := c.getScratch()
	defer func() { sc.reset(); c.scratch.Put(sc) }()
	e, _, err := c.newEnv(sc, r.input, r.opts)
	if err != nil {
		t.Fatal(err)
	}
	c.accumulate(e)
	for u := range c.units {
		base, _, _ := e.evidence(int32(u))
		if base != sc.score[u] {
			t.Fatalf("unit %s: indexed %d, per-unit %d", c.units[u].ID, sc.score[u], base)
		}
	}
}

func TestCatalogFingerprintIsCanonicalJSONOfUnits(t *testing.T) {
	c := catalog(t, refFixture)
	if want := fingerprint.MustOf(c.Units()); c.Fingerprint() != want {
		t.Fatalf("fingerprint %s, want %s", c.Fingerprint(), want)
	}
}
