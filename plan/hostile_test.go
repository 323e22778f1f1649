package plan

import (
	"fmt"
	"testing"

	"github.com/rlm-go/rlm/fault"
)

// nestedRetries is a plan of depth retry steps with 10 attempts each,
// nested, around one model step, each followed by a model step: its worst case is more
// than 10^depth model calls.
func nestedRetries(depth int) string {
	inner := `{"steps":[{"op":"model","prompt":"p","bind":"m"}]}`
	for i := range depth {
		inner = fmt.Sprintf(`{"steps":[{"op":"retry","attempts":10,"plan":%s,"bind":"r%d"},{"op":"model","prompt":"p","bind":"after%d"}]}`, inner, i, i)
	}
	return inner
}

// A plan whose worst case does not fit an int (nested retries) is still
// refused by the static estimate; the count saturates, it never wraps to
// a small or negative number that passes the check.
func TestValidateEstimateDoesNotWrap(t *testing.T) {
	for _, depth := range []int{18, 19, 24, 30, 40} {
		t.Run(fmt.Sprint(depth), func(t *testing.T) {
			p := mustPlan(t, nestedRetries(depth))
			est := p.Estimate()
			if est.ModelCalls <= 0 || est.Steps <= 0 {
				t.Errorf("estimate wrapped: %+v", est)
			}
			cfg := baseConfig()
			cfg.Limits = Limits{ModelCalls: 500}
			err := Validate(p, cfg)
			if fe := fault.As(err); fe == nil || fe.Kind != KindBudgetExceeded {
				t.Fatalf("want budget_exceeded, got %v", err)
			}
			// A map over such a plan asks Admit for a count that does not
			// wrap either.
			if s := est.Scale(1000); s.ModelCalls < est.ModelCalls || s.Steps < est.Steps {
				t.Errorf("scaled estimate wrapped: %+v", s)
			}
		})
	}
}
