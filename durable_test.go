package rlm

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/durable"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/fingerprint"
)

// Run specs are persisted fingerprints: the limits in them keep the JSON
// budget.Limits had when durable runs were introduced (time_limit in
// nanoseconds), although budget.Limits now writes time_limit_ms.
func TestRunSpecLimitsKeepTheirFingerprint(t *testing.T) {
	const recorded = `{"max_iterations":100,"max_depth":1,"max_model_calls":500,"max_tool_calls":200,"max_context_ops":2000,` +
		`"max_total_tokens":5000000,"max_cost_usd":5,"max_output_bytes":1048576,"max_concurrency":8,"time_limit":600000000000}`
	want, err := fingerprint.Of(json.RawMessage(recorded))
	if err != nil {
		t.Fatal(err)
	}
	if got := fingerprint.MustOf(specLimits(budget.DefaultLimits)); got != want {
		t.Fatalf("run-spec limits fingerprint %s, recorded runs have %s", got, want)
	}
}

// Audit: the durable run fingerprints the --context text with
// Store.Bytes, reading the mapping outside the store's guard. A context file
// truncated after it was mapped (logrotate copytruncate, an editor saving)
// then kills the process with SIGBUS instead of failing with
// context_changed. debug.SetPanicOnFault turns that SIGBUS into a panic
// here so the test can report it.
func TestFingerprintRunTruncatedContext(t *testing.T) {
	p := filepath.Join(t.TempDir(), "ctx.log")
	if err := os.WriteFile(p, bytes.Repeat([]byte("a line of the log\n"), 1<<16), 0o644); err != nil {
		t.Fatal(err)
	}
	store := corpus.NewStore()
	defer store.Close()
	h, err := AddContexts(context.Background(), store, []string{p}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(p, 0); err != nil {
		t.Fatal(err)
	}
	old := debug.SetPanicOnFault(true)
	defer debug.SetPanicOnFault(old)
	var fault_ any
	func() {
		defer func() { fault_ = recover() }()
		_, _, err = fingerprintRun(engine.Config{Store: store}, h, "q")
	}()
	if fault_ != nil {
		t.Fatalf("fingerprintRun faulted reading the truncated mapping (the rlm process dies of SIGBUS): %v", fault_)
	}
	if k := fault.KindOf(err); k != corpus.KindContextChanged {
		t.Fatalf("fingerprintRun error kind = %q, want context_changed (err %v)", k, err)
	}
}

// A run submitted by an older rlm carries a command line, not a Spec: a
// worker refuses it with invalid_spec and a hint, before opening anything.
func TestRunSubmittedRefusesCommandLine(t *testing.T) {
	run := RunSubmitted("postgres://unused")
	_, err := run(context.Background(), durable.Submission{RunID: "r1", Args: []string{"--context=/x", "--", "q"}}, nil)
	if fault.KindOf(err) != KindInvalidSpec || fault.As(err).Hint == "" {
		t.Fatalf("want invalid_spec with a hint, got %v", err)
	}
}

// A Spec survives the trip through a submission: what the worker decodes
// is what was submitted (the database aside, which is the worker's).
func TestSubmissionCarriesSpec(t *testing.T) {
	in := Spec{Context: []string{"/data/app.log"}, Mode: "code", Model: "m", Limits: budget.Limits{MaxCostUSD: 1}}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	sub := durable.Submission{RunID: "r1", RunSpec: b}
	wire, err := json.Marshal(sub)
	if err != nil {
		t.Fatal(err)
	}
	var back durable.Submission
	if err := json.Unmarshal(wire, &back); err != nil {
		t.Fatal(err)
	}
	var out Spec
	if err := json.Unmarshal(back.RunSpec, &out); err != nil {
		t.Fatal(err)
	}
	if out.Mode != "code" || out.Model != "m" || out.Context[0] != "/data/app.log" || out.Limits.MaxCostUSD != 1 {
		t.Fatalf("%+v", out)
	}
}
