package prompt

import (
	"context"
	"slices"
	"testing"

	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/pack"
	"github.com/rlm-go/rlm/tool"
)

// The sixteen tests of the design issue for activation "always", by name.

const alwaysFixture = `[
 {"unit": "tool:task", "description": "Delegate a subtask to a background worker", "activation": "always",
  "aliases": ["core policy", "delegate"],
  "schema": {"parameters": {"type": "object", "properties": {"goal": {"type": "string"}}, "required": ["goal"]}}},
 {"unit": "tool:git_diff", "description": "Show the diff between the working tree and HEAD", "requires_capability": "tool:vcs.read",
  "aliases": ["github"], "triggers": [{"phrase": "review pull request", "weight": 30}], "schema": {}},
 {"unit": "tool:weather", "description": "Forecast the weather for a city", "schema": {}}
]`

var vcs = Options{Capabilities: capability.MustSet("tool:vcs.read")}

func withActivation(a Activation) string {
	return `[{"unit": "tool:task", "description": "Delegate a subtask to a background worker", "activation": "` + string(a) + `", "schema": {}}]`
}

func TestAlwaysActivationWithoutLexicalMatchIsSelected(t *testing.T) {
	c := catalog(t, alwaysFixture)
	r := compile(t, c, text("what is the capital of France"), vcs)
	s := mustSelected(t, r, "tool:task", "activation(always)")
	if s.Activation != Always || !hasTool(r, "task") || !isActive(r, "tool:task") {
		t.Fatalf("selection %+v, tools %v", s, r.ToolSchemas)
	}
	ex, _ := r.Explain("tool:task")
	if ex.State != StateActive || ex.Activation != Always || !slices.Contains(ex.Reasons, "activation(always)") || ex.CapabilityAuthority != AuthorityRecheck {
		t.Fatalf("explain = %+v", ex)
	}
}

func TestRelevantActivationWithoutEvidenceRemainsHidden(t *testing.T) {
	c := catalog(t, withActivation(Relevant))
	r := compile(t, c, text("what is the capital of France"), Options{})
	mustHidden(t, r, "tool:task")
	if len(r.ToolSchemas) != 0 || len(r.ActiveUnits) != 0 {
		t.Fatalf("tools %v active %v", r.ToolSchemas, r.ActiveUnits)
	}
	ex, _ := r.Explain("tool:task")
	if !slices.Equal(ex.Reasons, []string{"no_matching_evidence"}) {
		t.Fatalf("explain = %+v", ex)
	}
}

func TestAlwaysToolSurvivesUnrelatedTurnWithoutReregistration(t *testing.T) {
	c := catalog(t, alwaysFixture)
	fp, n := c.Fingerprint(), c.Len()
	turns := []string{"please review pull request 42", "weather in Paris tomorrow", "tell me a joke about cats"}
	r := compile(t, c, text(turns[0]), vcs)
	for i, turn := range turns {
		if i > 0 {
			msg := turn
			var err error
			if r, err = r.Recompile(context.Background(), Event{Message: &msg}, vcs); err != nil {
				t.Fatal(err)
			}
		}
		if !isActive(r, "tool:task") || !hasTool(r, "task") {
			t.Fatalf("turn %d: task not active: %v", i, r.ActiveUnits)
		}
	}
	if !isActive(compile(t, c, text(turns[0]), vcs), "tool:git_diff") || isActive(r, "tool:git_diff") {
		t.Fatal("git_diff should follow relevance")
	}
	if c.Fingerprint() != fp || c.Len() != n {
		t.Fatal("compiles changed the catalog")
	}
}

func TestCandidateLimitDoesNotEvictAlwaysTool(t *testing.T) {
	js := `[{"unit": "tool:task", "activation": "always", "description": "Delegate", "schema": {}}`
	for _, n := range []string{"a", "b", "c", "d", "e"} {
		js += `, {"unit": "tool:search_` + n + `", "description": "search files", "triggers": [{"keyword": "search", "weight": 500}], "schema": {}}`
	}
	c := catalog(t, js+`]`)
	r := compile(t, c, text("search the files"), Options{CandidateLimit: 2})
	mustSelected(t, r, "tool:task", "activation(always)")
	relevant := 0
	for _, s := range r.Selected {
		if s.Activation == Relevant {
			relevant++
		}
	}
	if relevant != 2 || len(r.Selected) != 3 {
		t.Fatalf("selected %v, want task + 2 relevant", r.Selected)
	}
	mustSelected(t, r, "tool:search_a", "trigger(keyword:search)")
	mustSelected(t, r, "tool:search_b", "")
	ex, _ := r.Explain("tool:search_c")
	if ex.State != StateHidden || ex.Reasons[0] != "outside_candidate_limit" {
		t.Fatalf("explain = %+v", ex)
	}
}

func TestNaturalLanguageNegationDoesNotHideAlwaysTool(t *testing.T) {
	c := catalog(t, alwaysFixture)
	for _, s := range []string{"do the work without task", "do not use core policy", "don't use delegate", "dont use task please"} {
		in := Input{Text: s, Signals: []string{"deny:tool:task", "negated:category:tool"}}
		r := compile(t, c, in, vcs)
		if !isActive(r, "tool:task") || !hasTool(r, "task") {
			t.Fatalf("%q: task hidden: %v %v", s, r.Selected, r.Rejected)
		}
	}
}

func TestTrustedExplicitDenialCanRejectAlwaysTool(t *testing.T) {
	c := catalog(t, alwaysFixture)
	r := compile(t, c, Input{Text: "anything", Denied: []UnitID{"tool:task"}}, vcs)
	mustRejected(t, r, "tool:task", "explicit_denial")
	if hasTool(r, "task") {
		t.Fatal("denied tool in schemas")
	}
}

func TestCapabilityDeniedAlwaysToolIsNotExposed(t *testing.T) {
	c := catalog(t, `[{"unit": "tool:task", "activation": "always", "requires_capability": "tool:agent.spawn", "schema": {}}]`)
	r := compile(t, c, text("anything"), Options{})
	mustRejected(t, r, "tool:task", "capability_denied(tool:agent.spawn)")
	if hasTool(r, "task") {
		t.Fatal("capability-denied tool exposed")
	}
	r = compile(t, c, text("anything"), Options{Capabilities: capability.MustSet("tool:agent.spawn")})
	if ex, _ := r.Explain("tool:task"); ex.State != StateActive || ex.CapabilityAuthority != AuthorityRecheck {
		t.Fatalf("explain = %+v", ex)
	}
}

func TestDiscoveryScopeDeniedAlwaysToolIsNotExposed(t *testing.T) {
	c := catalog(t, alwaysFixture)
	opts := vcs
	opts.ParentDiscoveryScope = ScopeOf(ScopeItem{Kind: KindTool}, ScopeItem{Kind: KindSkill})
	opts.DiscoveryScope = ScopeOf(ScopeItem{Unit: "tool:git_diff"})
	r := compile(t, c, text("review pull request"), opts)
	mustRejected(t, r, "tool:task", "discovery_scope_denied")
	mustSelected(t, r, "tool:git_diff", "trigger(phrase:review pull request)")
	if hasTool(r, "task") {
		t.Fatal("out-of-scope tool exposed")
	}
}

func TestUnavailableAlwaysToolIsNotExposed(t *testing.T) {
	c := catalog(t, `[{"unit": "tool:task", "activation": "always", "available": false, "schema": {}}]`)
	r := compile(t, c, text("task"), Options{})
	mustRejected(t, r, "tool:task", "unavailable")
	if hasTool(r, "task") {
		t.Fatal("unavailable tool exposed")
	}
}

func TestAlwaysToolOverBudgetFailsStructurallyWhenMandatory(t *testing.T) {
	c := catalog(t, alwaysFixture)
	e := compileErr(t, c, text("hello"), Options{Policy: policy(20, 0, 0)}, pack.KindContextBudgetExceeded)
	if e.Detail["unit"] != "tool:task" {
		t.Fatalf("detail = %v", e.Detail)
	}
}

func TestAlwaysToolSchemaIsRenderedAndCallableSurfacePresent(t *testing.T) {
	c := catalog(t, alwaysFixture)
	r := compile(t, c, text("what rhymes with orange"), vcs)
	want := FunctionTool{Type: "function", Function: FunctionSchema{
		Name: "task", Description: "Delegate a subtask to a background worker",
		Parameters: []byte(`{"properties":{"goal":{"type":"string"}},"required":["goal"],"type":"object"}`),
	}}
	if len(r.ToolSchemas) != 1 || r.ToolSchemas[0].Function.Name != want.Function.Name ||
		r.ToolSchemas[0].Function.Description != want.Function.Description ||
		string(r.ToolSchemas[0].Function.Parameters) != string(want.Function.Parameters) || r.ToolSchemas[0].Type != "function" {
		t.Fatalf("tool schemas = %+v", r.ToolSchemas)
	}
	if r.Ledger == nil || r.Ledger.SelectedTokens <= 0 {
		t.Fatalf("schema not charged: %+v", r.Ledger)
	}
}

func TestRelevantConflictCannotEvictAlwaysTool(t *testing.T) {
	c := catalog(t, `[
	 {"unit": "tool:task", "activation": "always", "schema": {}},
	 {"unit": "tool:solo", "conflicts": ["tool:task"], "triggers": [{"phrase": "solo mode", "weight": 1000}], "schema": {}}
	]`)
	r := compile(t, c, text("enter solo mode"), Options{})
	mustSelected(t, r, "tool:task", "activation(always)")
	mustRejected(t, r, "tool:solo", "conflict_with(tool:task)")
}

func TestConflictingAlwaysUnitsFailStructurally(t *testing.T) {
	c := catalog(t, `[
	 {"unit": "instruction:beta", "activation": "always", "content": "b"},
	 {"unit": "instruction:alpha", "activation": "always", "content": "a", "conflicts": ["instruction:beta"]}
	]`)
	e := compileErr(t, c, text("x"), Options{}, KindConflictingAlwaysUnits)
	if e.Detail["a"] != "instruction:alpha" || e.Detail["b"] != "instruction:beta" {
		t.Fatalf("detail = %v", e.Detail)
	}
}

func TestRelevantSupersederCannotRemoveAlwaysTool(t *testing.T) {
	c := catalog(t, `[
	 {"unit": "tool:task", "activation": "always", "schema": {}},
	 {"unit": "tool:task_v2", "supersedes": ["tool:task"], "triggers": [{"keyword": "delegate", "weight": 1000}], "schema": {}}
	]`)
	r := compile(t, c, text("delegate this"), Options{})
	mustSelected(t, r, "tool:task", "activation(always)")
	mustSelected(t, r, "tool:task_v2", "trigger(keyword:delegate)")
}

func TestActivationChangesFingerprint(t *testing.T) {
	rel, alw := catalog(t, withActivation(Relevant)), catalog(t, withActivation(Always))
	if rel.Fingerprint() == alw.Fingerprint() {
		t.Fatal("catalog fingerprint ignores activation")
	}
	a, b := compile(t, rel, text("x"), Options{}), compile(t, alw, text("x"), Options{})
	if a.Fingerprint == b.Fingerprint || a.CatalogFingerprint == b.CatalogFingerprint {
		t.Fatal("compiled fingerprint ignores activation")
	}
	ea, _ := a.Explain("tool:task")
	eb, _ := b.Explain("tool:task")
	if ea.Activation != Relevant || eb.Activation != Always {
		t.Fatalf("explain activations %s %s", ea.Activation, eb.Activation)
	}
}

func TestToolRegistryImportCanMarkSelectedToolAlwaysVisible(t *testing.T) {
	tools := []ToolSchema{
		{Name: "task", Description: "Delegate a subtask", Capability: "tool:agent.spawn", Effect: "write"},
		{Name: "search_tools", Description: "Search the tool catalog", Effect: "read"},
		{Name: "git_diff", Description: "Show a diff", Capability: "tool:vcs.read", Effect: "read"},
	}
	specs, err := ImportTools(tools, ImportOptions{AlwaysVisibleTools: []string{"task", "search_tools"}})
	if err != nil {
		t.Fatal(err)
	}
	// The import yields ordinary specs; activation is the ordinary field.
	for _, s := range specs {
		want := Relevant
		if s.Unit == "tool:task" || s.Unit == "tool:search_tools" {
			want = Always
		}
		u, err := Normalize(s)
		if err != nil || u.Activation != want || u.Provenance != ImportProvenance || u.Category != DefaultImportCategory {
			t.Fatalf("%s: %+v %v", s.Unit, u, err)
		}
	}
	c, err := NewCatalog(specs)
	if err != nil {
		t.Fatal(err)
	}
	r := compile(t, c, text("unrelated chatter"), Options{Capabilities: capability.MustSet("tool:agent.spawn", "tool:vcs.read")})
	if !slices.Equal(r.ActiveUnits, []UnitID{"tool:search_tools", "tool:task"}) || !hasTool(r, "task") || !hasTool(r, "search_tools") {
		t.Fatalf("active = %v", r.ActiveUnits)
	}
	plain, _ := ImportTools(tools, ImportOptions{})
	pc, _ := NewCatalog(plain)
	if pc.Fingerprint() == c.Fingerprint() {
		t.Fatal("import option not material")
	}
	if len(compile(t, pc, text("unrelated chatter"), Options{}).ActiveUnits) != 0 {
		t.Fatal("default import must be relevant")
	}
	if _, err := ImportTools(tools, ImportOptions{AlwaysVisibleTools: []string{"nope"}}); fault.KindOf(err) != tool.KindUnknownTool {
		t.Fatalf("err = %v", err)
	}
}
