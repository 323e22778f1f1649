package direct

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
)

// batchFromBytes builds a batch of tool calls from fuzz input: valid,
// malformed, duplicated, effectful and read calls mixed.
func batchFromBytes(data []byte) ([]model.ToolCall, BatchState) {
	next := func() byte {
		if len(data) == 0 {
			return 0
		}
		b := data[0]
		data = data[1:]
		return b
	}
	names := []string{"reader", "mutator", "ctx", "nope", "bad name"}
	args := map[string][]string{
		"reader":  {`{"q":"x"}`, `{}`, `{"q":`, `{"q":1,"q":2}`, `[]`, `7`, `""`, `{"q":"x","extra":{"a":[1,2]}}`},
		"mutator": {`{"n":1}`, `{}`, `{"n":`, `{"n":1,"n":1}`, `null`, `{"n":"x"}`},
		"ctx":     {`{"query":"a"}`, `{}`, `[`, `{"query":"a","query":"b"}`},
	}
	n := int(next() % 12)
	calls := make([]model.ToolCall, 0, n)
	for range n {
		sel := next()
		name := names[int(sel)%len(names)]
		pool := args[name]
		if pool == nil {
			pool = args["reader"]
		}
		id := fmt.Sprintf("c%d", next()%16)
		if sel&0x80 != 0 && sel&0x40 != 0 {
			id = "bad id"
		}
		typ := "function"
		if sel == 0xff {
			typ = "custom"
		}
		calls = append(calls, model.ToolCall{ID: id, Type: typ, Name: name, Arguments: pool[int(next())%len(pool)]})
	}
	seenByte := next()
	st := BatchState{
		Seen:             func(id string) bool { return seenByte&0x80 != 0 && id == fmt.Sprintf("c%d", seenByte%16) },
		MaxCalls:         int(next()%12) + 1,
		ToolCallsLeft:    int(next()%8) - 1,
		ContextCallsLeft: int(next()%8) - 1,
	}
	return calls, st
}

// FuzzClassify runs random batches through normalization and the
// classification pass and checks the invariants on every input: a fatal
// batch yields no statuses (nothing can execute), each call is resolved
// exactly once and validated at most once, an effectful call never
// survives in a multi-call batch, budgets hold over resolved calls, and no
// observation carries internals.
func FuzzClassify(f *testing.F) {
	f.Add([]byte{2, 1, 1, 1, 0, 0, 0, 0, 11, 7, 7})
	f.Add([]byte{3, 0, 1, 0, 3, 2, 2, 1, 3, 1, 0, 11, 7, 7})
	f.Add([]byte{1, 1, 1, 1, 0, 11, 7, 7})
	f.Add([]byte{4, 0, 1, 0, 0, 1, 3, 3, 1, 1, 4, 5, 6, 0x81, 2, 1, 1})
	f.Add([]byte{5, 0xff, 1, 0, 2, 3, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		calls, st := batchFromBytes(data)
		entries, err := Normalize(calls)
		if err != nil {
			if fault.PhaseOf(err) != PhaseNativeCall {
				t.Fatalf("normalize error outside native_call: %v", err)
			}
			return
		}
		cat := counting(fakeCatalog{})
		statuses, err := Classify(entries, cat, st)
		effectful := false
		for _, c := range calls {
			if c.Name == "mutator" {
				effectful = true
			}
		}
		if err != nil {
			if statuses != nil {
				t.Fatal("statuses returned with a batch-fatal error")
			}
			if fault.PhaseOf(err) != PhaseNativeCall {
				t.Fatalf("fatal error outside native_call: %v", err)
			}
			return
		}
		if effectful && len(calls) > 1 {
			t.Fatal("an effectful call survived in a multi-call batch")
		}
		if len(statuses) != len(entries) {
			t.Fatalf("%d statuses for %d calls", len(statuses), len(entries))
		}
		resolves, validates := 0, 0
		for _, n := range cat.resolved {
			resolves += n
		}
		for _, n := range cat.validated {
			validates += n
		}
		wantValidates := 0
		tools, ctxs := 0, 0
		for i, s := range statuses {
			if s.Call.ID != entries[i].Call.ID {
				t.Fatal("statuses out of provider order")
			}
			if _, ok := (fakeCatalog{}).Resolve(s.Call.Name); ok && entries[i].Fault == nil {
				wantValidates++
			}
			switch s.Kind {
			case StatusResolved:
				if s.Binding == nil || s.Cause != nil || s.Call.Args == nil {
					t.Fatalf("resolved status without binding or with cause: %+v", s)
				}
				if s.Binding.Kind == BindContext {
					ctxs++
				} else {
					tools++
				}
			case StatusPreflight:
				if !Recoverable(s.Cause.Phase, s.Cause.Kind) {
					t.Fatalf("unrecoverable fault became a status: %v", s.Cause)
				}
				content := repairObservation(s).encode()
				checkObservation(t, s.Call.ID, content)
				for _, bad := range []string{validatorSecret, "network_write", `"validator"`} {
					if strings.Contains(content, bad) {
						t.Fatalf("observation leaks %q: %s", bad, content)
					}
				}
			default:
				t.Fatalf("unknown status kind %q", s.Kind)
			}
		}
		if resolves != len(entries) || validates != wantValidates {
			t.Fatalf("resolves=%d validates=%d for %d calls (want %d validations)", resolves, validates, len(entries), wantValidates)
		}
		if (st.ToolCallsLeft >= 0 && tools > st.ToolCallsLeft) || (st.ContextCallsLeft >= 0 && ctxs > st.ContextCallsLeft) {
			t.Fatal("batch admitted over budget")
		}
	})
}

// FuzzNormalizeEnvelope feeds arbitrary bytes as a tool_calls envelope.
func FuzzNormalizeEnvelope(f *testing.F) {
	f.Add([]byte(`[{"id":"a","type":"function","function":{"name":"r","arguments":"{\"q\":1}"}}]`))
	f.Add([]byte(`[{"id":"a","type":"function","function":{"name":"r","arguments":{"q":1}}},{"id":"a"}]`))
	f.Add([]byte(`{"id":"a"}`))
	f.Add([]byte(`[{"id":"a","type":"function","function":{"name":"r","arguments":"{\"q\":1,\"q\":2}"}}]`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		entries, err := NormalizeEnvelope(raw)
		if err != nil {
			if fault.PhaseOf(err) != PhaseNativeCall || entries != nil {
				t.Fatalf("bad error %v", err)
			}
			return
		}
		ids := map[string]bool{}
		for _, e := range entries {
			if !ValidToken(e.Call.ID) || !ValidToken(e.Call.Name) || e.Call.Type != "function" || ids[e.Call.ID] {
				t.Fatalf("entry %+v passed normalization", e.Call)
			}
			ids[e.Call.ID] = true
			if (e.Fault == nil) == (e.Call.Args == nil) {
				t.Fatalf("entry %+v: args and fault disagree", e)
			}
			if e.Fault != nil && !Recoverable(e.Fault.Phase, e.Fault.Kind) {
				t.Fatalf("per-call fault %v is not recoverable", e.Fault)
			}
		}
	})
}

// benchBatch is 64 valid read calls (registry tools and context tools)
// against the real session catalog with compiled JSON Schema validators.
func benchBatch(b *testing.B) ([]model.ToolCall, *session) {
	f := newFixture(b, fixOpts{})
	sess, err := newSession(context.Background(), &f.cfg, "probe")
	if err != nil {
		b.Fatal(err)
	}
	calls := make([]model.ToolCall, 64)
	for i := range calls {
		id := fmt.Sprintf("call_%02d", i)
		switch i % 4 {
		case 0:
			calls[i] = mc(id, "probe_read", `{"q":"needle"}`)
		case 1:
			calls[i] = mc(id, "fs_read", `{"path":"docs/readme.md"}`)
		case 2:
			calls[i] = mc(id, "context_search", `{"query":"ERROR","regex":false}`)
		default:
			calls[i] = mc(id, "context_slice", `{"start":128,"length":4096}`)
		}
	}
	return calls, sess
}

// BenchmarkClassify64 measures the classification pass alone.
func BenchmarkClassify64(b *testing.B) {
	calls, sess := benchBatch(b)
	entries, err := Normalize(calls)
	if err != nil {
		b.Fatal(err)
	}
	st := BatchState{MaxCalls: 64, ToolCallsLeft: -1, ContextCallsLeft: -1, Seen: func(string) bool { return false }}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Classify(entries, sess, st); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNormalizeClassify64 measures normalization plus classification.
func BenchmarkNormalizeClassify64(b *testing.B) {
	calls, sess := benchBatch(b)
	st := BatchState{MaxCalls: 64, ToolCallsLeft: -1, ContextCallsLeft: -1, Seen: func(string) bool { return false }}
	b.ReportAllocs()
	for b.Loop() {
		entries, err := Normalize(calls)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Classify(entries, sess, st); err != nil {
			b.Fatal(err)
		}
	}
}
