package mcp

import (
	"testing"
	"time"

	"github.com/rlm-go/rlm/budget"
)

// A zero ceiling is the default and a negative one unlimited
// (docs/budget.md): a caller lowers either, never raises a default.
func TestNarrowZeroCeilingIsTheDefault(t *testing.T) {
	d := budget.DefaultLimits
	cases := []struct {
		name    string
		ceiling budget.Limits
		args    RunArgs
		check   func(budget.Limits) bool
	}{
		{"zero ceiling, higher ask", budget.Limits{}, RunArgs{MaxIterations: d.MaxIterations * 10, MaxTotalTokens: d.MaxTotalTokens * 2, TimeLimitMS: 24 * 3600 * 1000},
			func(l budget.Limits) bool {
				return l.MaxIterations == d.MaxIterations && l.MaxTotalTokens == d.MaxTotalTokens && l.TimeLimit == d.TimeLimit
			}},
		{"zero ceiling, lower ask", budget.Limits{}, RunArgs{MaxIterations: 3, TimeLimitMS: 1000},
			func(l budget.Limits) bool { return l.MaxIterations == 3 && l.TimeLimit == time.Second }},
		{"unlimited ceiling", budget.Limits{MaxIterations: -1, MaxCostUSD: -1, TimeLimit: -1}, RunArgs{MaxIterations: 1000, MaxCostUSD: 9, TimeLimitMS: 5},
			func(l budget.Limits) bool {
				return l.MaxIterations == 1000 && l.MaxCostUSD == 9 && l.TimeLimit == 5*time.Millisecond
			}},
		{"unlimited ceiling, no ask", budget.Limits{MaxIterations: -1, TimeLimit: -1}, RunArgs{},
			func(l budget.Limits) bool { return l.MaxIterations == -1 && l.TimeLimit == -1 }},
	}
	for _, c := range cases {
		if got := c.args.Narrow(c.ceiling); !c.check(got) {
			t.Errorf("%s: %+v", c.name, got)
		}
	}
}
