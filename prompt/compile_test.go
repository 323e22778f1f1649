package prompt

import (
	"context"
	"slices"
	"strings"
	"testing"

	_ "github.com/rlm-go/rlm/bpe" // exact counts for OpenAI models, as the rlm command links them
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/golden"
	"github.com/rlm-go/rlm/pack"
)

// Reference behaviours beyond the always-activation matrix.

const refFixture = `[
 {"unit": "tool:git_diff", "description": "Show the diff between the working tree and HEAD", "category": "vcs",
  "requires_capability": "tool:vcs.read", "aliases": ["github"],
  "triggers": [{"phrase": "review pull request", "weight": 30}, {"signal": "verb:review", "weight": 30}], "schema": {}},
 {"unit": "tool:source_search", "description": "Search source files for a pattern", "category": "search",
  "requires_capability": "tool:fs.read", "triggers": [{"signal": "need:source_search", "weight": 40}], "schema": {}},
 {"unit": "skill:review", "description": "How to review a change", "content": "Review carefully.",
  "requires": ["tool:git_diff"], "suggests": ["instruction:style"]},
 {"unit": "instruction:style", "content": "Prefer small diffs."},
 {"unit": "skill:broken", "description": "needs a missing tool", "requires": ["tool:missing"], "triggers": [{"keyword": "broken", "weight": 10}]},
 {"unit": "mcp_server:github", "description": "GitHub MCP server"},
 {"unit": "mcp_tool:github/repo_search", "description": "Search GitHub repositories", "requires": ["mcp_server:github"], "schema": {}}
]`

var allCaps = Options{Capabilities: capability.MustSet("tool:vcs.read", "tool:fs.read")}

func TestPhraseTriggerActivatesUnit(t *testing.T) {
	r := compile(t, catalog(t, refFixture), text("Please REVIEW pull-request #4"), allCaps)
	mustSelected(t, r, "tool:git_diff", "trigger(phrase:review pull request)")
}

func TestSignalTriggerActivatesUnit(t *testing.T) {
	r := compile(t, catalog(t, refFixture), Input{Text: "hmm", Signals: []string{"verb:review"}}, allCaps)
	s := mustSelected(t, r, "tool:git_diff", "trigger(signal:verb:review)")
	if s.Score != 30+DefaultPriority {
		t.Fatalf("score = %d: each trigger counts once", s.Score)
	}
}

func TestKeywordTriggerUsesSameTokenizer(t *testing.T) {
	c := catalog(t, `[{"unit": "tool:git_diff", "triggers": [{"keyword": "git_diff", "weight": 40}], "schema": {}}]`)
	r := compile(t, c, text("show the git diff"), Options{})
	mustSelected(t, r, "tool:git_diff", "trigger(keyword:git_diff)")
	mustSelected(t, r, "tool:git_diff", "lexical(diff,git)")
}

func TestExplicitSelectionWithoutLexicalMatch(t *testing.T) {
	r := compile(t, catalog(t, refFixture), Input{Text: "weather", Selected: []UnitID{"tool:git_diff"}}, allCaps)
	mustSelected(t, r, "tool:git_diff", "explicit_selection")
}

func TestNaturalLanguageNegativeEvidenceWins(t *testing.T) {
	r := compile(t, catalog(t, refFixture), text("review pull request without github"), allCaps)
	mustRejected(t, r, "tool:git_diff", "text_negation(github)")
	// A relevant unit requiring the negated one goes too.
	mustRejected(t, r, "skill:review", "dependency_negated(tool:git_diff)")
	// Trusted selection outranks untrusted prose.
	r = compile(t, catalog(t, refFixture), Input{Text: "review pull request without github", Selected: []UnitID{"tool:git_diff"}}, allCaps)
	mustSelected(t, r, "tool:git_diff", "explicit_selection")
}

func TestUntrustedSignalDenialRejectsRelevant(t *testing.T) {
	c := catalog(t, refFixture)
	r := compile(t, c, Input{Text: "review pull request", Signals: []string{"deny:tool:git_diff"}}, allCaps)
	mustRejected(t, r, "tool:git_diff", "signal_denial(deny:tool:git_diff)")
	r = compile(t, c, Input{Text: "review pull request", Signals: []string{"negated:category:vcs"}}, allCaps)
	mustRejected(t, r, "tool:git_diff", "signal_denial(negated:category:vcs)")
}

func TestTransitiveDependencyClosure(t *testing.T) {
	r := compile(t, catalog(t, refFixture), Input{Text: "x", Selected: []UnitID{"skill:review"}}, allCaps)
	mustSelected(t, r, "skill:review", "explicit_selection")
	mustSelected(t, r, "tool:git_diff", "dependency_of(skill:review)")
	mustSelected(t, r, "instruction:style", "suggested_by(skill:review)")
	want := []Edge{{"skill:review", "instruction:style", "suggests"}, {"skill:review", "tool:git_diff", "requires"}}
	if !slices.Equal(r.Dependencies, want) {
		t.Fatalf("edges = %v", r.Dependencies)
	}
	if !strings.Contains(r.Text, "Review carefully.") || !strings.Contains(r.Text, "Prefer small diffs.") {
		t.Fatalf("text = %q", r.Text)
	}
}

func TestMissingRequiredDependencyRejectsRoot(t *testing.T) {
	r := compile(t, catalog(t, refFixture), text("this is broken"), allCaps)
	mustRejected(t, r, "skill:broken", "missing_dependency(tool:missing)")
}

func TestDependencyPolicyFailuresNameTheDependency(t *testing.T) {
	c := catalog(t, refFixture)
	in := Input{Text: "x", Selected: []UnitID{"skill:review"}}
	r := compile(t, c, in, Options{})
	mustRejected(t, r, "skill:review", "dependency_capability_denied(tool:git_diff,tool:vcs.read)")
	in.Denied = []UnitID{"tool:git_diff"}
	r = compile(t, c, in, allCaps)
	mustRejected(t, r, "skill:review", "dependency_denied(tool:git_diff)")
}

func TestMCPDependencyClosureKeepsServerHostOnly(t *testing.T) {
	r := compile(t, catalog(t, refFixture), Input{Text: "x", Selected: []UnitID{"mcp_tool:github/repo_search"}}, allCaps)
	mustSelected(t, r, "mcp_server:github", "dependency_of(mcp_tool:github/repo_search)")
	if !slices.Equal(r.ActiveUnits, []UnitID{"mcp_tool:github/repo_search"}) || len(r.ToolSchemas) != 1 {
		t.Fatalf("active = %v tools = %v", r.ActiveUnits, r.ToolSchemas)
	}
	if ex, _ := r.Explain("mcp_server:github"); ex.State != StateSelectedNotVisible {
		t.Fatalf("explain = %+v", ex)
	}
}

func TestConflictKeepsHigherScoredCandidate(t *testing.T) {
	c := catalog(t, `[
	 {"unit": "tool:alpha", "conflicts": ["tool:beta"], "triggers": [{"keyword": "go", "weight": 80}], "schema": {}},
	 {"unit": "tool:beta", "triggers": [{"keyword": "go", "weight": 20}], "schema": {}}
	]`)
	r := compile(t, c, text("go"), Options{})
	mustSelected(t, r, "tool:alpha", "")
	mustRejected(t, r, "tool:beta", "conflict_with(tool:alpha)")
}

func TestConflictTieBrokenByUnitID(t *testing.T) {
	c := catalog(t, `[
	 {"unit": "tool:b", "triggers": [{"keyword": "go", "weight": 20}], "schema": {}},
	 {"unit": "tool:a", "conflicts": ["tool:b"], "triggers": [{"keyword": "go", "weight": 20}], "schema": {}}
	]`)
	r := compile(t, c, text("go"), Options{})
	mustSelected(t, r, "tool:a", "")
	mustRejected(t, r, "tool:b", "conflict_with(tool:a)")
}

func TestSupersessionRemovesSupersededUnit(t *testing.T) {
	c := catalog(t, `[
	 {"unit": "tool:new", "supersedes": ["tool:old"], "triggers": [{"keyword": "go", "weight": 10}], "schema": {}},
	 {"unit": "tool:old", "triggers": [{"keyword": "go", "weight": 50}], "schema": {}}
	]`)
	r := compile(t, c, text("go"), Options{})
	mustSelected(t, r, "tool:new", "")
	mustRejected(t, r, "tool:old", "superseded_by(tool:new)")
}

func TestAlwaysSupersedingAlwaysFailsStructurally(t *testing.T) {
	c := catalog(t, `[
	 {"unit": "instruction:alpha", "activation": "always", "content": "a", "supersedes": ["instruction:beta"]},
	 {"unit": "instruction:beta", "activation": "always", "content": "b"}
	]`)
	e := compileErr(t, c, text("x"), Options{}, KindSupersedingAlwaysUnits)
	if e.Detail["superseder"] != "instruction:alpha" || e.Detail["superseded"] != "instruction:beta" {
		t.Fatalf("detail = %v", e.Detail)
	}
}

func TestDependencyRemovedAfterConflictIsRejected(t *testing.T) {
	c := catalog(t, `[
	 {"unit": "instruction:core", "activation": "always", "content": "core", "conflicts": ["tool:helper"]},
	 {"unit": "skill:fancy", "content": "fancy", "requires": ["tool:helper"], "triggers": [{"keyword": "fancy", "weight": 50}]},
	 {"unit": "tool:helper", "schema": {}}
	]`)
	r := compile(t, c, text("fancy"), Options{})
	mustSelected(t, r, "instruction:core", "activation(always)")
	mustRejected(t, r, "tool:helper", "conflict_with(instruction:core)")
	mustRejected(t, r, "skill:fancy", "dependency_removed(tool:helper)")
}

func TestNeedsDoesNotWidenCapabilities(t *testing.T) {
	r := compile(t, catalog(t, refFixture), Input{Text: "find it", Needs: []string{"source_search"}}, Options{})
	mustRejected(t, r, "tool:source_search", "capability_denied(tool:fs.read)")
}

func TestNeedsRecompileExposesEligibleMatchingTool(t *testing.T) {
	c := catalog(t, refFixture)
	r := compile(t, c, text("where is the bug"), allCaps)
	if isActive(r, "tool:source_search") {
		t.Fatal("active before the need")
	}
	r, err := r.Recompile(context.Background(), Event{Needs: []string{"source_search"}}, allCaps)
	if err != nil {
		t.Fatal(err)
	}
	s := mustSelected(t, r, "tool:source_search", "need(source_search)")
	if !slices.Contains(s.Reasons, "trigger(signal:need:source_search)") || !isActive(r, "tool:source_search") {
		t.Fatalf("selection = %+v", s)
	}
}

func TestChildDiscoveryScopeCannotWiden(t *testing.T) {
	c := catalog(t, refFixture)
	opts := Options{ParentDiscoveryScope: ScopeOf(ScopeItem{Kind: KindSkill}), DiscoveryScope: ScopeOf(ScopeItem{Kind: KindTool}, ScopeItem{Kind: KindSkill})}
	e := compileErr(t, c, text("x"), opts, KindScopeWideningDenied)
	if !slices.Equal(e.Detail["items"].([]string), []string{"kind:tool"}) {
		t.Fatalf("detail = %v", e.Detail)
	}
	// A unit item covered by the parent's category narrows.
	opts = Options{ParentDiscoveryScope: ScopeOf(ScopeItem{Category: "vcs"}), DiscoveryScope: ScopeOf(ScopeItem{Unit: "tool:git_diff"})}
	compile(t, c, text("x"), opts)
}

func TestOptionalToolPackedOutIsAbsentFromToolSchemas(t *testing.T) {
	c := catalog(t, `[{"unit": "tool:big", "mandatory_context": false, "triggers": [{"keyword": "big", "weight": 10}], "schema": {}}]`)
	r := compile(t, c, text("big"), Options{Policy: policy(5, 0, 0)})
	mustSelected(t, r, "tool:big", "trigger(keyword:big)")
	if len(r.ActiveUnits) != 0 || len(r.ToolSchemas) != 0 {
		t.Fatalf("active %v tools %v", r.ActiveUnits, r.ToolSchemas)
	}
	if ex, _ := r.Explain("tool:big"); ex.State != StateSelectedNotVisible {
		t.Fatalf("explain = %+v", ex)
	}
}

func TestOverBudgetMandatoryToolFailsStructurally(t *testing.T) {
	c := catalog(t, `[{"unit": "tool:big", "triggers": [{"keyword": "big", "weight": 10}], "schema": {}}]`)
	e := compileErr(t, c, text("big"), Options{Policy: policy(8, 0, 0)}, pack.KindContextBudgetExceeded)
	if e.Detail["unit"] != "tool:big" {
		t.Fatalf("detail %v", e.Detail)
	}
}

func TestCompactRepresentationUnderPressure(t *testing.T) {
	c := catalog(t, `[{"unit": "skill:long", "activation": "always", "representations": [
	  {"kind": "full", "text": "`+strings.Repeat("detail ", 200)+`", "utility": 100},
	  {"kind": "compact", "text": "short summary", "utility": 10}]}]`)
	r := compile(t, c, text("x"), Options{Policy: policy(100, 0, 0)})
	if r.Text != "short summary" || r.Ledger.Charges[0].Variant != "compact" {
		t.Fatalf("text %q ledger %+v", r.Text, r.Ledger)
	}
	r = compile(t, c, text("x"), Options{})
	if !strings.HasPrefix(r.Text, "detail") {
		t.Fatalf("text %q", r.Text)
	}
}

func TestPackFalseStillRenders(t *testing.T) {
	r := compile(t, catalog(t, refFixture), text("review pull request"), Options{Capabilities: capability.MustSet("tool:vcs.read"), NoPack: true})
	if r.Ledger != nil || !isActive(r, "tool:git_diff") || !hasTool(r, "git_diff") || !strings.Contains(r.Text, "Review carefully.") {
		t.Fatalf("%+v", r)
	}
}

func TestDroppingIrrelevantToolChangesLedger(t *testing.T) {
	c := catalog(t, refFixture)
	a := compile(t, c, text("review pull request"), allCaps)
	b := compile(t, c, text("review pull request and search source files"), allCaps)
	if b.Ledger.SelectedTokens <= a.Ledger.SelectedTokens {
		t.Fatalf("ledgers %d %d", a.Ledger.SelectedTokens, b.Ledger.SelectedTokens)
	}
}

func TestExactTokenizerWhenModelKnown(t *testing.T) {
	c := catalog(t, alwaysFixture)
	r := compile(t, c, text("x"), Options{Model: "gpt-4o"})
	if r.Ledger.Method != "exact" || r.Ledger.Encoding != "o200k_base" {
		t.Fatalf("ledger = %+v", r.Ledger)
	}
	e := compile(t, c, text("x"), Options{})
	if e.Ledger.Method != "estimated" || e.Ledger.SelectedTokens < r.Ledger.SelectedTokens || e.Fingerprint == r.Fingerprint {
		t.Fatalf("estimate %+v exact %+v", e.Ledger, r.Ledger)
	}
}

func TestAllToolsMode(t *testing.T) {
	r := compile(t, catalog(t, refFixture), text("nothing relevant"), Options{Mode: ModeAllTools, Capabilities: capability.MustSet("tool:vcs.read")})
	mustSelected(t, r, "tool:git_diff", "compatibility_mode(all_tools)")
	mustRejected(t, r, "tool:source_search", "capability_denied(tool:fs.read)")
	mustRejected(t, r, "skill:broken", "missing_dependency(tool:missing)")
}

func TestIdenticalMaterialInputsHaveIdenticalFingerprint(t *testing.T) {
	c := catalog(t, refFixture)
	a := compile(t, c, text("review"), allCaps)
	b := compile(t, c, Input{Text: "review", Signals: []string{}}, Options{Capabilities: capability.MustSet("tool:fs.read", "tool:vcs.read", "tool:vcs.read")})
	w := compile(t, c, text("weather"), allCaps)
	if a.Fingerprint != b.Fingerprint || a.Fingerprint == w.Fingerprint {
		t.Fatalf("%s %s %s", a.Fingerprint, b.Fingerprint, w.Fingerprint)
	}
}

func TestCapabilityWildcard(t *testing.T) {
	c := catalog(t, `[{"unit": "tool:fs_read", "requires_capability": "tool:fs_read", "activation": "always", "schema": {}}]`)
	if r := compile(t, c, text("x"), Options{Capabilities: capability.MustSet("tool:*")}); !isActive(r, "tool:fs_read") {
		t.Fatal("tool:* should grant tool:fs_read")
	}
}

func TestCompileErrors(t *testing.T) {
	c := catalog(t, refFixture)
	tests := []struct {
		name string
		in   Input
		opts Options
		kind fault.Kind
	}{
		{"negative limit", Input{}, Options{CandidateLimit: -1}, KindInvalidCandidateLimit},
		{"bad mode", Input{}, Options{Mode: "everything"}, KindInvalidMode},
		{"bad policy", Input{}, Options{Policy: policy(10, 20, 0)}, pack.KindInvalidPolicy},
		{"huge text", Input{Text: strings.Repeat("x", MaxInputText+1)}, Options{}, KindInputTooLarge},
		{"bad selected", Input{Selected: []UnitID{"nope"}}, Options{}, KindInvalidInput},
		{"bad cutoff", Input{}, Options{LexicalCutoff: 101}, KindInvalidOptions},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { compileErr(t, c, tt.in, tt.opts, tt.kind) })
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Compile(ctx, Input{}, Options{}); fault.KindOf(err) != fault.KindCancelled {
		t.Fatalf("err = %v", err)
	}
}

func TestDuplicateActiveToolNameFails(t *testing.T) {
	c := catalog(t, `[
	 {"unit": "mcp_tool:a/search", "activation": "always", "schema": {}},
	 {"unit": "mcp_tool:b/search", "activation": "always", "schema": {}}
	]`)
	compileErr(t, c, text("x"), Options{}, KindDuplicateToolName)
}

func TestExplainUnknownUnit(t *testing.T) {
	r := compile(t, catalog(t, refFixture), text("x"), Options{})
	if _, err := r.Explain("tool:nope"); fault.KindOf(err) != KindUnknownUnit {
		t.Fatalf("err = %v", err)
	}
	ex, _ := r.Explain("tool:source_search")
	if !slices.Equal(ex.Reasons, []string{"no_matching_evidence", "capability_denied(tool:fs.read)"}) {
		t.Fatalf("explain = %+v", ex)
	}
}

func TestLexicalCutoff(t *testing.T) {
	c := catalog(t, `[
	 {"unit": "tool:git_diff", "description": "show git diff", "schema": {}},
	 {"unit": "tool:git_log", "description": "show git log", "schema": {}},
	 {"unit": "tool:weather", "description": "show the weather", "schema": {}}
	]`)
	full := compile(t, c, text("show git diff"), Options{})
	cut := compile(t, c, text("show git diff"), Options{LexicalCutoff: 60})
	if len(full.Selected) != 3 || len(cut.Selected) != 1 {
		t.Fatalf("full %v cut %v", full.Selected, cut.Selected)
	}
	if ex, _ := cut.Explain("tool:weather"); ex.Reasons[0] != "below_lexical_cutoff" {
		t.Fatalf("explain %+v", ex)
	}
}

func TestCompileGolden(t *testing.T) {
	c := catalog(t, refFixture)
	r := compile(t, c, Input{Text: "review pull request on github", Selected: []UnitID{"skill:review"}, Needs: []string{"source_search"}}, allCaps)
	golden.CheckJSON(t, "compile_review.golden", r)
}

func TestConcurrentCompilesAgree(t *testing.T) {
	c := catalog(t, refFixture)
	want := compile(t, c, text("review pull request and search source files"), Options{Capabilities: capability.MustSet("tool:vcs.read", "tool:fs.read"), Model: "gpt-4o"})
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			r, err := c.Compile(context.Background(), text("review pull request and search source files"), Options{Capabilities: capability.MustSet("tool:vcs.read", "tool:fs.read"), Model: "gpt-4o"})
			if err == nil && (r.Fingerprint != want.Fingerprint || r.Ledger.TotalTokens != want.Ledger.TotalTokens || r.Text != want.Text) {
				err = fault.New(PhaseCompile, fault.KindInternal, "concurrent compile differs")
			}
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}
