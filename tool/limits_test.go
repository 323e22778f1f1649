package tool

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/rlm-go/rlm/internal/jsontest"
)

func TestLimitsJSONRoundTrip(t *testing.T) {
	cases := []struct {
		in   Limits
		wire string
		back Limits
	}{
		{Limits{}, `{"time_limit_ms":0,"max_output_bytes":0}`, Limits{}},
		{Limits{TimeLimit: DefaultTimeLimit, MaxOutputBytes: DefaultMaxOutputBytes}, `{"time_limit_ms":1000,"max_output_bytes":4096}`,
			Limits{TimeLimit: DefaultTimeLimit, MaxOutputBytes: DefaultMaxOutputBytes}},
		{Limits{TimeLimit: 1500 * time.Microsecond, MaxOutputBytes: 1}, `{"time_limit_ms":1,"max_output_bytes":1}`,
			Limits{TimeLimit: time.Millisecond, MaxOutputBytes: 1}},
		{Limits{TimeLimit: 50 * time.Microsecond}, `{"time_limit_ms":1,"max_output_bytes":0}`, Limits{TimeLimit: time.Millisecond}},
	}
	for _, c := range cases {
		jsontest.RoundTrip(t, c.in, c.wire, c.back)
	}
	// A Schema, as discovery returns it, round-trips its limits too.
	var s Schema
	if err := json.Unmarshal([]byte(`{"name":"a","limits":{"time_limit_ms":30,"max_output_bytes":64}}`), &s); err != nil ||
		s.Limits != (Limits{TimeLimit: 30 * time.Millisecond, MaxOutputBytes: 64}) {
		t.Fatalf("schema limits %+v, %v", s.Limits, err)
	}
}
