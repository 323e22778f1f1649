package budget

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/rlm-go/rlm/internal/jsontest"
)

// Every Limits type encodes a duration as whole milliseconds (*_ms) and
// decodes what it encodes: docs/budget.md, "One rule for every limit".
func TestLimitsJSONRoundTrip(t *testing.T) {
	cases := []struct {
		name string
		in   Limits
		wire string
		back Limits // what decoding wire gives when not in
	}{
		{"defaults", DefaultLimits,
			`{"max_iterations":100,"max_depth":1,"max_model_calls":500,"max_tool_calls":200,"max_context_ops":2000,"max_total_tokens":5000000,"max_cost_usd":5,"max_output_bytes":1048576,"max_concurrency":8,"time_limit_ms":600000}`, DefaultLimits},
		{"zero is the default", Limits{},
			`{"max_iterations":0,"max_depth":0,"max_model_calls":0,"max_tool_calls":0,"max_context_ops":0,"max_total_tokens":0,"max_cost_usd":0,"max_output_bytes":0,"max_concurrency":0,"time_limit_ms":0}`, Limits{}},
		{"negative is unlimited", Limits{MaxIterations: -1, MaxTotalTokens: -1, MaxCostUSD: -1, TimeLimit: -time.Second},
			`{"max_iterations":-1,"max_depth":0,"max_model_calls":0,"max_tool_calls":0,"max_context_ops":0,"max_total_tokens":-1,"max_cost_usd":-1,"max_output_bytes":0,"max_concurrency":0,"time_limit_ms":-1000}`,
			Limits{MaxIterations: -1, MaxTotalTokens: -1, MaxCostUSD: -1, TimeLimit: -time.Second}},
		{"below a millisecond stays nonzero", Limits{TimeLimit: 300 * time.Microsecond},
			`{"max_iterations":0,"max_depth":0,"max_model_calls":0,"max_tool_calls":0,"max_context_ops":0,"max_total_tokens":0,"max_cost_usd":0,"max_output_bytes":0,"max_concurrency":0,"time_limit_ms":1}`,
			Limits{TimeLimit: time.Millisecond}},
		{"negative below a millisecond stays unlimited", Limits{TimeLimit: -1},
			`{"max_iterations":0,"max_depth":0,"max_model_calls":0,"max_tool_calls":0,"max_context_ops":0,"max_total_tokens":0,"max_cost_usd":0,"max_output_bytes":0,"max_concurrency":0,"time_limit_ms":-1}`,
			Limits{TimeLimit: -time.Millisecond}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { jsontest.RoundTrip(t, c.in, c.wire, c.back) })
	}
}

// Earlier versions wrote time_limit in nanoseconds (rlm_run's limits):
// it is still read, and time_limit_ms wins when both are present.
func TestLimitsJSONReadsNanoseconds(t *testing.T) {
	cases := []struct {
		in   string
		want time.Duration
	}{
		{`{"max_iterations":3,"time_limit":1500000000}`, 1500 * time.Millisecond},
		{`{"time_limit":1500000000,"time_limit_ms":20}`, 20 * time.Millisecond},
		{`{"max_iterations":3}`, 0},
	}
	for _, c := range cases {
		var l Limits
		if err := json.Unmarshal([]byte(c.in), &l); err != nil || l.TimeLimit != c.want {
			t.Errorf("%s: %v, %v, want %v", c.in, l.TimeLimit, err, c.want)
		}
	}
	if err := json.Unmarshal([]byte(`{"time_limit_ms":"10s"}`), new(Limits)); err == nil {
		t.Error("a string time_limit_ms decoded")
	}
}

func TestMillis(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want int64
	}{{0, 0}, {1, 1}, {time.Millisecond, 1}, {1999 * time.Microsecond, 1}, {time.Minute, 60000}, {-1, -1}, {-time.Second, -1000}} {
		if got := Millis(c.d); got != c.want {
			t.Errorf("Millis(%v) = %d, want %d", c.d, got, c.want)
		}
	}
}

func TestDeadlineUnlimited(t *testing.T) {
	l, err := Limits{TimeLimit: -1}.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := NewTracker(l).Deadline(); ok {
		t.Fatal("an unlimited time limit has a deadline")
	}
	d, ok := NewTracker(DefaultLimits).Deadline()
	if !ok || time.Until(d) <= 0 {
		t.Fatalf("deadline %v, %v", d, ok)
	}
}
