package corpus

import (
	"testing"
	"time"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/jsontest"
)

func TestLimitsJSONRoundTrip(t *testing.T) {
	cases := []struct {
		in   Limits
		wire string
		back Limits
	}{
		{Limits{}, `{}`, Limits{}},
		{Limits{MaxResults: 5, MaxBytes: 6, TimeLimit: 7 * time.Millisecond}, `{"max_results":5,"max_bytes":6,"time_limit_ms":7}`,
			Limits{MaxResults: 5, MaxBytes: 6, TimeLimit: 7 * time.Millisecond}},
		// Nonzero never encodes as zero, which would read back as the default.
		{Limits{TimeLimit: 10 * time.Microsecond}, `{"time_limit_ms":1}`, Limits{TimeLimit: time.Millisecond}},
		{Limits{MaxResults: -1, TimeLimit: -1}, `{"max_results":-1,"time_limit_ms":-1}`, Limits{MaxResults: -1, TimeLimit: -time.Millisecond}},
	}
	for _, c := range cases {
		jsontest.RoundTrip(t, c.in, c.wire, c.back)
	}
}

// The rule: zero takes the default, negative or above the cap is refused
// (an operation's limits cannot be lifted); the detail is in JSON units.
func TestLimitsResolveRule(t *testing.T) {
	l, err := Limits{}.Resolve()
	if err != nil || l != (Limits{DefaultMaxResults, DefaultMaxBytes, DefaultTimeLimit}) {
		t.Fatalf("zero: %+v, %v", l, err)
	}
	for _, bad := range []Limits{{MaxResults: -1}, {MaxBytes: -1}, {TimeLimit: -time.Second}, {MaxResults: MaxMaxResults + 1}, {TimeLimit: 6 * time.Minute}} {
		if _, err := bad.Resolve(); fault.KindOf(err) != KindInvalidLimit {
			t.Errorf("%+v: %v, want %s", bad, err, KindInvalidLimit)
		}
	}
	_, err = Limits{TimeLimit: 6 * time.Minute}.Resolve()
	if d := fault.As(err).Detail; d["limit"] != "time_limit_ms" || d["value"] != int64(360000) || d["max"] != int64(300000) {
		t.Fatalf("detail %v: want milliseconds", d)
	}
}
