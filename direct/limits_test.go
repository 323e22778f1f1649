package direct

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/rlm-go/rlm/budget"
)

// The embedded budget.Limits' JSON methods must not drop the batch limit.
func TestLimitsJSONRoundTrip(t *testing.T) {
	for _, l := range []Limits{
		{},
		{Limits: budget.DefaultLimits, MaxNativeCallsPerBatch: DefaultMaxNativeCallsPerBatch},
		{Limits: budget.Limits{MaxToolCalls: -1, TimeLimit: 1500 * time.Millisecond}, MaxNativeCallsPerBatch: -1},
	} {
		b, err := json.Marshal(l)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil || m["max_native_calls_per_batch"] != float64(l.MaxNativeCallsPerBatch) ||
			m["time_limit_ms"] != float64(l.TimeLimit.Milliseconds()) {
			t.Fatalf("JSON %s, %v", b, err)
		}
		var got Limits
		if err := json.Unmarshal(b, &got); err != nil || got != l {
			t.Fatalf("%s: decoded %+v, %v, want %+v", b, got, err, l)
		}
	}
}
