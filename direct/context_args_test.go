package direct

import (
	"encoding/json"
	"testing"

	"github.com/rlm-go/rlm/corpus"
)

// TestContextSliceStartBeyondInt64: a context_slice call whose start is a
// non-negative integer beyond int64 passes the tool's schema, so it must
// run like any other out-of-range start (an error observation with the
// corpus kind) instead of ending the run with execute/internal.
func TestContextSliceStartBeyondInt64(t *testing.T) {
	for _, args := range []string{`{"start":1e20,"length":10}`, `{"start":99999999999999999999,"length":10}`} {
		t.Run(args, func(t *testing.T) {
			f := newFixture(t, fixOpts{}, completion("", call("a", "context_slice", args)), final("done"))
			res, err := f.run(t, "probe")
			if err != nil {
				t.Fatalf("run failed: %v", err)
			}
			if res.Answer != "done" || res.ContextCalls != 1 {
				t.Fatalf("result %+v", res)
			}
			var obs struct {
				Status string `json:"status"`
				Error  struct {
					Kind string `json:"kind"`
				} `json:"error"`
			}
			if err := json.Unmarshal([]byte(f.srv.toolMessages(t)["a"]), &obs); err != nil {
				t.Fatal(err)
			}
			if obs.Status != ObsError || obs.Error.Kind != string(corpus.KindOutOfRange) {
				t.Fatalf("observation %+v", obs)
			}
		})
	}
}
