package direct

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/golden"
	"github.com/rlm-go/rlm/model"
)

var _ = flag.Bool("update", false, "rewrite golden files (read by internal/golden)")

// countingCatalog wraps a Resolver and counts resolutions and validations
// per call name.
type countingCatalog struct {
	inner               Resolver
	resolved, validated map[string]int
}

func counting(c Resolver) *countingCatalog {
	return &countingCatalog{inner: c, resolved: map[string]int{}, validated: map[string]int{}}
}

func (c *countingCatalog) Resolve(name string) (Binding, bool) {
	c.resolved[name]++
	return c.inner.Resolve(name)
}

func (c *countingCatalog) Validate(b Binding, call Call) *fault.Error {
	c.validated[b.Name]++
	return c.inner.Validate(b, call)
}

// fakeCatalog is a lean catalog: a read tool "reader" (needs key "q"), an
// effectful tool "mutator" (needs key "n"), and a validator whose
// internal text must never reach an observation.
type fakeCatalog struct {
	// fault, when set, replaces the schema fault of a failing validation.
	fault func() *fault.Error
}

const validatorSecret = "VALIDATOR-INTERNAL-TEXT"

func (fakeCatalog) Resolve(name string) (Binding, bool) {
	switch name {
	case "reader":
		return Binding{Name: name, Kind: BindTool, Effect: "read"}, true
	case "mutator":
		return Binding{Name: name, Kind: BindTool, Effect: "network_write"}, true
	case "ctx":
		return Binding{Name: name, Kind: BindContext, Op: "search", Effect: "read"}, true
	}
	return Binding{}, false
}

func (f fakeCatalog) Validate(b Binding, c Call) *fault.Error {
	args := c.Args
	need := map[string]string{"reader": `"q"`, "mutator": `"n"`, "ctx": `"query"`}[b.Name]
	if bytes.Contains(args, []byte(need)) {
		return nil
	}
	if f.fault != nil {
		return f.fault()
	}
	return fault.New(PhaseSchema, KindMalformedArguments, validatorSecret).With("pointer", "").With("keyword", "required").
		With("missing", []string{strings.Trim(need, `"`)}).With("validator", validatorSecret).With("effect", b.Effect)
}

func mc(id, name, args string) model.ToolCall {
	return model.ToolCall{ID: id, Type: "function", Name: name, Arguments: args}
}

func classify(t *testing.T, cat Resolver, st BatchState, calls ...model.ToolCall) ([]Status, error) {
	t.Helper()
	entries, err := Normalize(calls)
	if err != nil {
		t.Fatalf("normalize: %v", err)
	}
	if st.MaxCalls == 0 {
		st.MaxCalls = 64
	}
	return Classify(entries, cat, st)
}

var unlimited = BatchState{ToolCallsLeft: -1, ContextCallsLeft: -1}

func TestValidToken(t *testing.T) {
	cases := map[string]bool{
		"a": true, "call_1.x:y-z": true, strings.Repeat("a", 128): true,
		"": false, strings.Repeat("a", 129): false, "a b": false, "a/b": false, "é": false, "a\x00": false,
	}
	for s, want := range cases {
		if ValidToken(s) != want {
			t.Errorf("ValidToken(%q) = %v", s, !want)
		}
	}
}

func TestNormalize(t *testing.T) {
	cases := []struct {
		name   string
		calls  []model.ToolCall
		fatal  fault.Kind
		faults []string // per call: "" or reason of normalize/malformed_arguments
	}{
		{"valid", []model.ToolCall{mc("a", "reader", `{"q": 1, "b": [2]}`)}, "", []string{""}},
		{"array", []model.ToolCall{mc("a", "reader", `[]`)}, "", []string{"not_an_object"}},
		{"scalar", []model.ToolCall{mc("a", "reader", `7`)}, "", []string{"not_an_object"}},
		{"string", []model.ToolCall{mc("a", "reader", `"{}"`)}, "", []string{"not_an_object"}},
		{"invalid", []model.ToolCall{mc("a", "reader", `{"q":`)}, "", []string{"malformed_json"}},
		{"empty", []model.ToolCall{mc("a", "reader", ``)}, "", []string{"malformed_json"}},
		{"duplicate_keys", []model.ToolCall{mc("a", "reader", `{"q":"a","q":"b"}`)}, "", []string{"duplicate_key"}},
		{"nested_duplicate_keys", []model.ToolCall{mc("a", "reader", `{"q":{"x":1,"x":1}}`)}, "", []string{"duplicate_key"}},
		{"trailing", []model.ToolCall{mc("a", "reader", `{} {}`)}, "", []string{"trailing_data"}},
		{"missing_id", []model.ToolCall{mc("", "reader", `{}`)}, fault.KindMissingField, nil},
		{"bad_id", []model.ToolCall{mc("a", "reader", `{}`), mc("a b", "reader", `{}`)}, KindMalformedCallID, nil},
		{"bad_type", []model.ToolCall{{ID: "a", Type: "custom", Name: "reader", Arguments: `{}`}}, KindUnsupportedCallType, nil},
		{"missing_name", []model.ToolCall{mc("a", "", `{}`)}, fault.KindMissingField, nil},
		{"bad_name", []model.ToolCall{mc("a", "read/er", `{}`)}, KindMalformedProtocolToken, nil},
		{"duplicate_id", []model.ToolCall{mc("a", "reader", `{}`), mc("a", "reader", `[]`)}, KindDuplicateCallID, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			entries, err := Normalize(c.calls)
			if c.fatal != "" {
				if fault.PhaseOf(err) != PhaseNativeCall || fault.KindOf(err) != c.fatal {
					t.Fatalf("err = %v, want native_call/%s", err, c.fatal)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for i, e := range entries {
				if e.Call.Raw != c.calls[i].Arguments {
					t.Errorf("raw text not kept: %q", e.Call.Raw)
				}
				if c.faults[i] == "" {
					if e.Fault != nil || e.Call.Args == nil {
						t.Errorf("entry %d: %v", i, e.Fault)
					}
					continue
				}
				if e.Fault == nil || e.Fault.Phase != PhaseNormalize || e.Fault.Kind != KindMalformedArguments || e.Fault.Detail["reason"] != c.faults[i] {
					t.Errorf("entry %d fault = %v, want reason %s", i, e.Fault, c.faults[i])
				}
			}
		})
	}
	entries, _ := Normalize([]model.ToolCall{mc("a", "reader", `{ "z":1, "a" : [ 1.50 ] }`)})
	if got := string(entries[0].Call.Args); got != `{"a":[1.5],"z":1}` {
		t.Errorf("canonical args = %s", got)
	}
}

func TestNormalizeEnvelope(t *testing.T) {
	cases := []struct {
		name, raw string
		kind      fault.Kind // "" means ok
	}{
		{"ok", `[{"id":"a","type":"function","index":0,"function":{"name":"reader","arguments":"{\"q\":1}"}}]`, ""},
		{"object_arguments", `[{"id":"a","type":"function","function":{"name":"reader","arguments":{"q":1}}}]`, ""},
		{"empty_list", `[]`, ""},
		{"not_a_list", `{"id":"a"}`, KindMalformedToolCalls},
		{"null", `null`, KindMalformedToolCalls},
		{"invalid_json", `[{`, KindMalformedToolCalls},
		{"duplicate_envelope_keys", `[{"id":"a","id":"b","type":"function","function":{"name":"r","arguments":"{}"}}]`, KindMalformedToolCalls},
		{"call_not_object", `["x"]`, KindMalformedField},
		{"extra_call_field", `[{"id":"a","type":"function","function":{"name":"r","arguments":"{}"},"x":1}]`, KindUnexpectedFields},
		{"extra_function_field", `[{"id":"a","type":"function","function":{"name":"r","arguments":"{}","strict":true}}]`, KindUnexpectedFields},
		{"missing_id", `[{"type":"function","function":{"name":"r","arguments":"{}"}}]`, fault.KindMissingField},
		{"missing_type", `[{"id":"a","function":{"name":"r","arguments":"{}"}}]`, fault.KindMissingField},
		{"missing_function", `[{"id":"a","type":"function"}]`, fault.KindMissingField},
		{"missing_arguments", `[{"id":"a","type":"function","function":{"name":"r"}}]`, fault.KindMissingField},
		{"numeric_id", `[{"id":1,"type":"function","function":{"name":"r","arguments":"{}"}}]`, KindMalformedField},
		{"function_string", `[{"id":"a","type":"function","function":"r"}]`, KindMalformedField},
		{"arguments_array", `[{"id":"a","type":"function","function":{"name":"r","arguments":[1]}}]`, KindMalformedField},
		{"arguments_null", `[{"id":"a","type":"function","function":{"name":"r","arguments":null}}]`, KindMalformedField},
		{"index_string", `[{"id":"a","type":"function","index":"0","function":{"name":"r","arguments":"{}"}}]`, KindMalformedField},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := NormalizeEnvelope([]byte(c.raw))
			if c.kind == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if fault.PhaseOf(err) != PhaseNativeCall || fault.KindOf(err) != c.kind {
				t.Fatalf("err = %v, want native_call/%s", err, c.kind)
			}
		})
	}
}

// TestRecoverableWhitelist: exactly three (phase, kind) pairs recover;
// the same kind from another phase and unknown kinds are fatal.
func TestRecoverableWhitelist(t *testing.T) {
	phases := []fault.Phase{PhaseSchema, PhaseNormalize, PhaseCatalog, PhaseNativeCall, "runtime", "tool", "context", "provider", ""}
	kinds := []fault.Kind{KindMalformedArguments, KindUnavailableToolSchema, "schema_validation_failed", "unknown_tool", "future_kind", ""}
	var got []string
	for _, p := range phases {
		for _, k := range kinds {
			if Recoverable(p, k) {
				got = append(got, string(p)+"/"+string(k))
			}
		}
	}
	want := "schema/malformed_arguments normalize/malformed_arguments catalog/unavailable_tool_schema"
	if strings.Join(got, " ") != want {
		t.Fatalf("recoverable = %v", got)
	}
}

// TestUnlistedFaultsAreBatchFatal: a validator fault outside the
// whitelist, including the same kind from another phase, rejects the
// whole batch.
func TestUnlistedFaultsAreBatchFatal(t *testing.T) {
	cases := []struct {
		name  string
		fault *fault.Error
	}{
		{"same_kind_runtime_phase", fault.New("runtime", KindMalformedArguments, "x")},
		{"same_kind_native_call_phase", fault.New(PhaseNativeCall, KindMalformedArguments, "x")},
		{"catalog_kind_from_schema", fault.New(PhaseSchema, KindUnavailableToolSchema, "x")},
		{"tool_validator_kind", fault.New("tool", "schema_validation_failed", "x")},
		{"future_kind", fault.New(PhaseSchema, "brand_new_kind", "x")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cat := fakeCatalog{fault: func() *fault.Error { return c.fault }}
			st, err := classify(t, cat, unlimited, mc("a", "reader", `{"q":1}`), mc("b", "reader", `{}`))
			if st != nil || fault.PhaseOf(err) != PhaseNativeCall || fault.KindOf(err) != c.fault.Kind {
				t.Fatalf("statuses %v err %v", st, err)
			}
			if cause := fault.As(fault.As(err).Cause); cause == nil || cause.Phase != c.fault.Phase {
				t.Errorf("cause not kept: %v", err)
			}
		})
	}
	// The whitelisted pair from the same validator is recoverable.
	st, err := classify(t, fakeCatalog{}, unlimited, mc("a", "reader", `{"q":1}`), mc("b", "reader", `{}`))
	if err != nil || st[0].Kind != StatusResolved || st[1].Kind != StatusPreflight {
		t.Fatalf("statuses %+v err %v", st, err)
	}
}

// TestClassifyKeepsBindings: a preflight fault keeps the binding it
// resolved to; an unknown name has none.
func TestClassifyKeepsBindings(t *testing.T) {
	st, err := classify(t, fakeCatalog{}, unlimited, mc("a", "mutator", `{}`))
	if err != nil {
		t.Fatal(err)
	}
	if st[0].Kind != StatusPreflight || st[0].Binding == nil || st[0].Binding.Effect != "network_write" || st[0].Cause.Phase != PhaseSchema {
		t.Fatalf("status %+v", st[0])
	}
	st, err = classify(t, fakeCatalog{}, unlimited, mc("a", "mutator", `[`))
	if err != nil || st[0].Binding == nil || st[0].Cause.Phase != PhaseNormalize {
		t.Fatalf("status %+v err %v", st, err)
	}
	st, err = classify(t, fakeCatalog{}, unlimited, mc("a", "nope", `[`))
	if err != nil || st[0].Binding != nil || st[0].Cause.Phase != PhaseCatalog || st[0].Cause.Kind != KindUnavailableToolSchema {
		t.Fatalf("status %+v err %v", st, err)
	}
	// Multi-call batches with any effectful binding are fatal, faulted or not.
	for _, calls := range [][]model.ToolCall{
		{mc("a", "mutator", `{}`), mc("b", "reader", `{"q":1}`)},
		{mc("a", "reader", `{"q":1}`), mc("b", "mutator", `[`)},
		{mc("a", "mutator", `{"n":1}`), mc("b", "nope", `{}`)},
	} {
		if _, err := classify(t, fakeCatalog{}, unlimited, calls...); fault.KindOf(err) != KindEffectfulBatchUnsupported {
			t.Errorf("%v: err %v", calls, err)
		}
	}
}

// TestClassificationIsOnePass instruments the real session catalog: each
// call is resolved exactly once and validated at most once (only when it
// resolved and its arguments normalized).
func TestClassificationIsOnePass(t *testing.T) {
	f := newFixture(t, fixOpts{})
	sess, err := newSession(context.Background(), &f.cfg, "probe")
	if err != nil {
		t.Fatal(err)
	}
	cat := counting(sess)
	calls := []model.ToolCall{
		mc("1", "probe_read", `{"q":"x"}`), mc("2", "probe_read", `{"q":1}`), mc("3", "probe_read", `[`),
		mc("4", "nope", `{}`), mc("5", "nope", `[`), mc("6", "context_search", `{"query":"a"}`),
		mc("7", "context_slice", `{"start":-1,"length":1}`), mc("8", "fs_read", `{"path":"a"}`),
	}
	st, err := classify(t, cat, unlimited, calls...)
	if err != nil {
		t.Fatal(err)
	}
	wantResolved := map[string]int{"probe_read": 3, "nope": 2, "context_search": 1, "context_slice": 1, "fs_read": 1}
	wantValidated := map[string]int{"probe_read": 2, "context_search": 1, "context_slice": 1, "fs_read": 1}
	if fmt.Sprint(cat.resolved) != fmt.Sprint(wantResolved) || fmt.Sprint(cat.validated) != fmt.Sprint(wantValidated) {
		t.Fatalf("resolved %v validated %v", cat.resolved, cat.validated)
	}
	var kinds []string
	for _, s := range st {
		kinds = append(kinds, string(s.Kind))
	}
	want := "resolved_call preflight_fault preflight_fault preflight_fault preflight_fault resolved_call preflight_fault resolved_call"
	if strings.Join(kinds, " ") != want {
		t.Errorf("statuses %v", kinds)
	}
}

// TestBatchInvariantOrder: cardinality and id freshness are checked before
// any resolution, budgets after classification over resolved calls only.
func TestBatchInvariantOrder(t *testing.T) {
	cat := counting(fakeCatalog{})
	calls := []model.ToolCall{mc("a", "reader", `{"q":1}`), mc("b", "reader", `{"q":1}`), mc("c", "nope", `{}`)}
	if _, err := classify(t, cat, BatchState{MaxCalls: 2, ToolCallsLeft: -1, ContextCallsLeft: -1}, calls...); fault.KindOf(err) != KindBatchTooLarge {
		t.Fatalf("err %v", err)
	}
	seen := BatchState{ToolCallsLeft: -1, ContextCallsLeft: -1, Seen: func(id string) bool { return id == "c" }}
	if _, err := classify(t, cat, seen, calls...); fault.KindOf(err) != KindDuplicateCallID {
		t.Fatalf("err %v", err)
	}
	if len(cat.resolved) != 0 {
		t.Errorf("resolution ran before the cheap invariants: %v", cat.resolved)
	}
	if _, err := classify(t, cat, BatchState{ToolCallsLeft: 1, ContextCallsLeft: -1}, calls...); fault.KindOf(err) != KindToolCallBudget {
		t.Fatalf("err %v", err)
	}
	if _, err := classify(t, cat, BatchState{ToolCallsLeft: 2, ContextCallsLeft: 0}, calls...); err != nil {
		t.Fatalf("faulted call charged: %v", err)
	}
	ctx := []model.ToolCall{mc("a", "ctx", `{"query":1}`), mc("b", "ctx", `{"query":1}`)}
	if _, err := classify(t, cat, BatchState{ToolCallsLeft: -1, ContextCallsLeft: 1}, ctx...); fault.KindOf(err) != KindContextCallBudget {
		t.Fatalf("err %v", err)
	}
}

// TestRepairObservationGolden pins the exact bytes of repair observations.
func TestRepairObservationGolden(t *testing.T) {
	st, err := classify(t, fakeCatalog{}, unlimited,
		mc("a", "reader", `{}`), mc("b", "reader", `{"q":1,"q":2}`), mc("c", "nope", `{"q":1}`),
		mc("d", "reader", strings.Repeat("[", 200)))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, s := range st {
		content := repairObservation(s).encode()
		checkObservation(t, s.Call.ID, content)
		if strings.Contains(content, validatorSecret) {
			t.Errorf("validator text leaked: %s", content)
		}
		b.WriteString(content)
		b.WriteByte('\n')
	}
	golden.Check(t, "repair_observations.golden", []byte(b.String()))
}

func TestSameBatch(t *testing.T) {
	calls := []model.ToolCall{mc("a", "reader", `{"q":1}`), mc("b", "reader", `[`)}
	entries, err := Normalize(calls)
	if err != nil {
		t.Fatal(err)
	}
	if !sameBatch(calls, entries) {
		t.Fatal("identical batch rejected")
	}
	changed := []model.ToolCall{calls[0], mc("b", "reader", `[ `)}
	if sameBatch(changed, entries) || sameBatch(calls[:1], entries) {
		t.Fatal("different raw fault text accepted")
	}
}
