package plan

import (
	"context"
	"testing"

	"github.com/rlm-go/rlm/trace"
)

// BenchmarkMap1000 runs a map of 1,000 items, 64 at a time, each a model
// step answered at once, traced: the cost of the fan-out itself (the
// pool, branch spans, scopes, result sizes) per item.
func BenchmarkMap1000(b *testing.B) {
	p, err := ParsePlan(mapPlan(1000, 64, false, `{"ref":"var","name":"i"}`))
	if err != nil {
		b.Fatal(err)
	}
	env := &fakeEnv{}
	b.ReportAllocs()
	for b.Loop() {
		env.calls = env.calls[:0]
		ctx := trace.WithRecorder(context.Background(), trace.NewRecorder())
		out, err := Execute(ctx, p, env, NewSession(nil, SessionOptions{MaxConcurrency: 64}))
		if err != nil || len(out.Final.([]any)) != 1000 {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1000, "ns/item")
}
