package main

import (
	"encoding/json"
	"testing"

	"github.com/rlm-go/rlm/budget"
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
