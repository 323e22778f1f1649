package plan

import (
	"context"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/fault"
)

// TestUnboundedPlanValues is issue 18 item 1: every value a plan builds is
// bounded by max_value_bytes, whatever builds it, and the check comes
// before the value is built.
func TestUnboundedPlanValues(t *testing.T) {
	const limit = 4096
	big := `"` + strings.Repeat("x", 3000) + `"`
	bind := `{"op":"tool","name":"echo","args":` + big + `,"bind":"a"}`
	a := `{"ref":"var","name":"a"}`
	tests := []struct {
		name string
		plan string
		env  *fakeEnv
		kind fault.Kind // "" means success
	}{
		{"join under the limit", `{"steps":[` + bind + `,{"op":"final","value":{"join":[` + a + `,"y"]}}]}`, nil, ""},
		{"join over the limit", `{"steps":[` + bind + `,{"op":"final","value":{"join":[` + a + `,` + a + `]}}]}`, nil, KindValueTooLarge},
		{"json over the limit", `{"steps":[` + bind + `,{"op":"final","value":{"json":[` + a + `,` + a + `]}}]}`, nil, KindValueTooLarge},
		{"list over the limit", `{"steps":[` + bind + `,{"op":"final","value":[` + a + `,` + a + `]}]}`, nil, KindValueTooLarge},
		{"object over the limit", `{"steps":[` + bind + `,{"op":"final","value":{"p":` + a + `,"q":` + a + `}}]}`, nil, KindValueTooLarge},
		{"nested lists of shared values", `{"steps":[` + bind + `,{"op":"final","value":[[` + a + `],[` + a + `]]}]}`, nil, KindValueTooLarge},
		{"prompt over the limit", `{"steps":[` + bind + `,{"op":"model","prompt":[` + a + `,` + a + `],"bind":"m"}]}`, nil, KindValueTooLarge},
		{"join inside retry fails once", `{"steps":[` + bind + `,{"op":"retry","attempts":10,"plan":{"steps":[{"op":"final","value":{"join":[` + a + `,` + a + `]}}]},"bind":"r"}]}`, nil, KindValueTooLarge},
		{"join inside map stops the map", `{"steps":[` + bind + `,{"op":"map","over":[1,2,3,4,5,6,7,8],"as":"i","plan":{"steps":[{"op":"final","value":{"join":[` + a + `,` + a + `]}}]},"bind":"m"}]}`, nil, KindValueTooLarge},
		{"map results together over the limit", `{"steps":[` + bind + `,{"op":"map","over":[1,2],"as":"i","plan":{"steps":[{"op":"final","value":` + a + `}]},"bind":"m"}]}`, nil, KindValueTooLarge},
		{"parallel results together over the limit", `{"steps":[` + bind + `,{"op":"parallel","plans":[{"steps":[{"op":"final","value":` + a + `}]},{"steps":[{"op":"final","value":` + a + `}]}],"bind":"m"}]}`, nil, KindValueTooLarge},
		{"env result over the limit", `{"steps":[{"op":"model","prompt":"p","bind":"m"}]}`, &fakeEnv{modelFn: func(context.Context, ModelCall) (string, error) { return strings.Repeat("z", limit+1), nil }}, KindValueTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := tt.env
			if env == nil {
				env = &fakeEnv{}
			}
			s := NewSession(map[string]Value{"query": "q"}, SessionOptions{MaxValueBytes: limit})
			out, r, err := execute(context.Background(), mustPlan(t, tt.plan), env, s)
			if tt.kind == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			fe := fault.As(err)
			if fe == nil || fe.Kind != tt.kind {
				t.Fatalf("err = %v, want kind %s", err, tt.kind)
			}
			if fe.Detail["max_value_bytes"] != limit || fe.Detail["path"] == nil || fe.Detail["path"] == "" {
				t.Fatalf("detail = %v", fe.Detail)
			}
			if out == nil {
				t.Fatal("no outcome")
			}
			if a, ok := fe.Detail["attempt"]; ok && a != 1 {
				t.Fatalf("retried a value_too_large: attempt %v", a)
			}
			// Nothing near the product of the attempts or items was built.
			if w := r.work.Load(); w > 8*limit {
				t.Fatalf("work = %d, want at most %d", w, 8*limit)
			}
		})
	}
}

// TestUnboundedPlanValuesDefault checks the default limit.
func TestUnboundedPlanValuesDefault(t *testing.T) {
	if got := newSession().MaxValueBytes(); got != DefaultMaxValueBytes {
		t.Fatalf("MaxValueBytes = %d", got)
	}
}

// TestUnboundedPlanValuesCancelled checks that building a value stops on a
// cancelled context.
func TestUnboundedPlanValuesCancelled(t *testing.T) {
	items := strings.Repeat(`"x",`, 1000)
	p := mustPlan(t, `{"steps":[{"op":"final","value":{"join":[`+items+`"y"]}}]}`)
	ctx, cancel := context.WithCancel(context.Background())
	env := &fakeEnv{}
	cancel()
	s := newSession()
	r := &runner{env: env, maxConc: 1, maxValue: DefaultMaxValueBytes}
	_, err := r.eval(ctx, p.Steps[0].Value, &scope{sess: s}, "steps[0].value")
	if fe := fault.As(err); fe == nil || fe.Kind != fault.KindCancelled {
		t.Fatalf("err = %v, want cancelled", err)
	}
}

// FuzzExecuteBounded is the watchdog of issue 18 item 1: executing any plan
// that validates does work (evaluation nodes, bytes built, nodes measured)
// bounded by the steps it runs times its text's size times the value
// limit, never more; a plan cannot make one step unboundedly expensive.
func FuzzExecuteBounded(f *testing.F) {
	addSeeds(f)
	big := `"` + strings.Repeat("x", 600) + `"`
	f.Add(`{"steps":[{"op":"tool","name":"echo","args":` + big + `,"bind":"a"},{"op":"retry","attempts":10,"plan":{"steps":[{"op":"map","over":[1,2,3,4,5,6,7,8],"as":"i","plan":{"steps":[{"op":"final","value":{"join":[{"ref":"var","name":"a"},{"ref":"var","name":"a"},{"ref":"var","name":"a"},{"ref":"var","name":"a"}]}}]}}]}}]}`)
	const limit = 2048
	f.Fuzz(func(t *testing.T, text string) {
		p, err := ParsePlan(text)
		if err != nil {
			return
		}
		cfg := baseConfig()
		cfg.Limits = Limits{Steps: 50, ModelCalls: 10, ToolCalls: 10, ContextOps: 10}
		if Validate(p, cfg) != nil {
			return
		}
		env := &fakeEnv{admitFn: func(est Estimate) error {
			if est.Steps > 200 {
				return fault.New(fault.PhaseBudget, "budget_exceeded", "too many")
			}
			return nil
		}}
		s := NewSession(map[string]Value{"query": "q", "context": newSession().inputs["context"]}, SessionOptions{MaxValueBytes: limit})
		_, r, _ := execute(context.Background(), p, env, s)
		if r == nil {
			return
		}
		steps, work := r.stepsRun.Load(), r.work.Load()
		if bound := (steps + 1) * int64(len(text)+1) * (3*limit + 64); work > bound {
			t.Fatalf("work %d > bound %d (steps %d, %d bytes of plan)", work, bound, steps, len(text))
		}
	})
}

// TestUnboundedPlanValuesIssuePlan is the shape of the issue's plan: joins
// that multiply a value inside retry and map. With the default limit the
// first join past 64 MiB fails before it copies anything, retry does not
// repeat it and map stops its other items, so the work stays near the
// largest value actually built (16 MiB), not the product of the repeats.
func TestUnboundedPlanValuesIssuePlan(t *testing.T) {
	sixteen := func(name string) string {
		return `{"join":[` + strings.TrimSuffix(strings.Repeat(`{"ref":"var","name":"`+name+`"},`, 16), ",") + `]}`
	}
	text := `{"steps":[
		{"op":"tool","name":"echo","args":"` + strings.Repeat("x", 4096) + `","bind":"a0"},
		{"op":"map","over":[1,2,3,4,5,6,7,8],"as":"i","concurrency":4,"plan":{"steps":[
			{"op":"retry","attempts":10,"plan":{"steps":[
				{"op":"final","value":` + sixteen("a0") + `}]},"bind":"a1"},
			{"op":"final","value":` + sixteen("a1") + `}]},"bind":"m1"},
		{"op":"tool","name":"echo","args":{"ref":"index","value":{"ref":"var","name":"m1"},"index":0},"bind":"a2"},
		{"op":"final","value":{"join":[` + strings.TrimSuffix(strings.Repeat(sixteen("a2")+",", 16), ",") + `]}}]}`
	_, r, err := execute(context.Background(), mustPlan(t, text), &fakeEnv{}, newSession())
	if fault.KindOf(err) != KindValueTooLarge {
		t.Fatalf("err = %v, want value_too_large", err)
	}
	if w := r.work.Load(); w > 3*DefaultMaxValueBytes {
		t.Fatalf("work %d bytes for a plan whose values stop at the limit", w)
	}
}

// TestStringResultAtTheLimit checks that a string an Env returns counts its
// bytes (docs/plan.md, Value bounds), whichever call returns it: a string
// of exactly max_value_bytes passes, one byte more fails.
func TestStringResultAtTheLimit(t *testing.T) {
	const limit = 4096
	for _, tt := range []struct {
		name, step string
	}{
		{"model", `{"op":"model","prompt":"p","bind":"r"}`},
		{"tool", `{"op":"tool","name":"t","bind":"r"}`},
	} {
		for _, n := range []int{limit, limit + 1} {
			t.Run(tt.name, func(t *testing.T) {
				s := strings.Repeat("z", n)
				env := &fakeEnv{
					modelFn: func(context.Context, ModelCall) (string, error) { return s, nil },
					toolFn:  func(context.Context, string, Value) (Value, error) { return s, nil },
				}
				sess := NewSession(map[string]Value{"query": "q"}, SessionOptions{MaxValueBytes: limit})
				_, err := Execute(context.Background(), mustPlan(t, `{"steps":[`+tt.step+`]}`), env, sess)
				if n <= limit && err != nil {
					t.Fatalf("%d-byte string with limit %d: %v", n, limit, err)
				}
				if n > limit && fault.KindOf(err) != KindValueTooLarge {
					t.Fatalf("%d-byte string with limit %d: err = %v, want value_too_large", n, limit, err)
				}
			})
		}
	}
}
