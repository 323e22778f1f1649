package engine

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/model"
)

// TestUnboundedPlanValuesPartial is issue 18 item 1 at the engine: when a
// run ends on a fatal error, details.partial is a bounded preview of the
// last bound variable, never the whole value.
func TestUnboundedPlanValuesPartial(t *testing.T) {
	big := strings.Repeat("y", 200_000)
	root := func(ctx context.Context, req model.Request) (*model.Response, error) {
		return &model.Response{Text: steps(
			map[string]any{"op": "model", "prompt": "first", "bind": "a"},
			map[string]any{"op": "model", "prompt": "second", "bind": "b"},
		), Usage: usageOf(10, "test-model")}, nil
	}
	var calls atomic.Int32
	sub := func(ctx context.Context, req model.Request) (*model.Response, error) {
		if calls.Add(1) == 1 {
			return &model.Response{Text: big, Usage: usageOf(10, "test-model")}, nil
		}
		// Reports far more than admitted: a fatal budget error.
		return &model.Response{Text: "x", Usage: usageOf(50_000_000, "test-model")}, nil
	}
	eng, h := funcEngine(t, haystack, Config{Limits: budget.Limits{MaxTotalTokens: 1_000_000}}, root, sub)
	res, err := eng.Run(context.Background(), "q", h)
	if err == nil || res.Status != StatusFailed {
		t.Fatalf("want a failed run, got %v (%s)", err, res.Status)
	}
	p, ok := res.Partial.(string)
	if !ok || p == "" || len(p) > 4096 {
		t.Fatalf("partial is %T of %d bytes, want a preview of at most 4096", res.Partial, len(p))
	}
}
