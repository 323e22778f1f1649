package subagent

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rlm-go/rlm/agent"
	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/internal/inflight"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/tool"
)

// BenchmarkConcurrentSubagents1000 runs 1,000 concurrent rlm_subagent
// calls, each a full engine completion, against an in-process provider
// that answers at once (no HTTP), and reports the wall time of the batch
// and the peak heap in use.
func BenchmarkConcurrentSubagents1000(b *testing.B) {
	const n = 1000
	prov := model.ProviderFunc(func(ctx context.Context, req model.Request) (*model.Response, error) {
		return &model.Response{Text: `{"answer":"ok"}`, Usage: budget.Usage{PromptTokens: 100, CompletionTokens: 5, TotalTokens: 105, TokensKnown: true, Calls: 1}}, nil
	})
	store := corpus.NewStore()
	defer store.Close()
	h, err := store.AddString("input", "alpha\nbeta\n")
	if err != nil {
		b.Fatal(err)
	}
	parentCaps := capability.MustSet(append([]string{"tool:rlm_subagent"}, contextCaps...)...)
	comp := &EngineCompleter{Config: engine.Config{Provider: prov, Model: "bench", Store: store}, Context: h}

	var peak atomic.Uint64
	stop := make(chan struct{})
	var sampler sync.WaitGroup
	sampler.Go(func() {
		var ms runtime.MemStats
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > peak.Load() {
				peak.Store(ms.HeapInuse)
			}
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	})
	var wall time.Duration
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		rt, err := agent.New(agent.Options{RootCapabilities: parentCaps, MaxAgents: n + 1, Workers: 8, WorkerBacklog: n, MailboxSize: n, Retain: n})
		if err != nil {
			b.Fatal(err)
		}
		parent, _ := rt.Spawn("", agent.Spec{Name: "parent"}, parentCaps)
		reg := tool.NewRegistry()
		if err := Register(reg, Config{Runtime: rt, Parent: parent, ChildCapabilities: capability.MustSet(contextCaps...), Completer: comp}); err != nil {
			b.Fatal(err)
		}
		tools := tool.NewRuntime(reg, tool.Config{Authority: rt.Authority(), Pool: tool.NewPool(64, n)})
		var failed atomic.Int64
		b.StartTimer()
		start := time.Now()
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				res, err := tools.Invoke(context.Background(), tool.Call{Name: Name, Args: json.RawMessage(fmt.Sprintf(`{"query":"q%d"}`, i)),
					Invocation: tool.Invocation{Capabilities: parentCaps}})
				if err != nil || res.Status != tool.StatusOK {
					failed.Add(1)
					return
				}
				if env, err := Decode(res.Value); err != nil || env.Status != EnvelopeCompleted {
					failed.Add(1)
				}
			})
		}
		wg.Wait()
		got := 0
		for {
			pr, _ := rt.HandleNext(context.Background(), parent, 0)
			if pr.Status == agent.HandledNothing {
				break
			}
			got++
		}
		wall += time.Since(start)
		b.StopTimer()
		if failed.Load() != 0 || got != n {
			b.Fatalf("failed %d, parent received %d", failed.Load(), got)
		}
		rt.Close()
		b.StartTimer()
	}
	b.StopTimer()
	close(stop)
	sampler.Wait()
	b.ReportMetric(float64(wall.Milliseconds())/float64(b.N), "ms/1000-subagents")
	b.ReportMetric(float64(peak.Load())/(1<<20), "peak-heap-MB")
}

// BenchmarkSubagentsInFlight1000 runs 1,000 rlm_subagent children truly at
// once (a worker per child) and measures them while all 1,000 are blocked
// in their second model call: a scripted provider answers each child's
// first turn with a search plan and holds its second call on a barrier
// that opens once every child has arrived. Reported per running child:
// heap in use plus goroutine stacks over the idle baseline (B/child,
// after a GC, so it is what the waiting children keep alive), split as
// heap-B/child (live-heap-B/child of it in live objects) and
// stack-B/child, and the goroutines each child holds (goroutines/child).
func BenchmarkSubagentsInFlight1000(b *testing.B) {
	const n = 1000
	store := corpus.NewStore()
	defer store.Close()
	h, err := store.AddString("input", "alpha\nbeta\nthe needle\n")
	if err != nil {
		b.Fatal(err)
	}
	parentCaps := capability.MustSet(append([]string{"tool:rlm_subagent"}, contextCaps...)...)
	var per inflight.PerChild
	for range b.N {
		bar := inflight.NewBarrier(n)
		comp := &EngineCompleter{Config: engine.Config{Provider: secondTurnBarrier(bar), Model: "bench", Store: store}, Context: h}
		rt, err := agent.New(agent.Options{RootCapabilities: parentCaps, MaxAgents: n + 1, Workers: n, WorkerBacklog: n, MailboxSize: n, Retain: n})
		if err != nil {
			b.Fatal(err)
		}
		parent, _ := rt.Spawn("", agent.Spec{Name: "parent"}, parentCaps)
		reg := tool.NewRegistry()
		if err := Register(reg, Config{Runtime: rt, Parent: parent, ChildCapabilities: capability.MustSet(contextCaps...), Completer: comp}); err != nil {
			b.Fatal(err)
		}
		tools := tool.NewRuntime(reg, tool.Config{Authority: rt.Authority(), Pool: tool.NewPool(n, n)})
		base := inflight.InUse()
		var failed atomic.Int64
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				res, err := tools.Invoke(context.Background(), tool.Call{Name: Name, Args: json.RawMessage(fmt.Sprintf(`{"query":"q%d"}`, i)),
					Invocation: tool.Invocation{Capabilities: parentCaps}})
				if err != nil || res.Status != tool.StatusOK {
					failed.Add(1)
					return
				}
				if env, err := Decode(res.Value); err != nil || env.Status != EnvelopeCompleted {
					failed.Add(1)
				}
			})
		}
		bar.Wait()
		per.Add(inflight.InUse(), base, n)
		bar.Release()
		wg.Wait()
		if failed.Load() != 0 {
			b.Fatalf("%d children failed", failed.Load())
		}
		rt.Close()
	}
	per.Report(b)
}

// secondTurnBarrier answers a run's first turn with a search plan and
// holds its second call on bar before it answers.
func secondTurnBarrier(bar *inflight.Barrier) model.Provider {
	return model.ProviderFunc(func(ctx context.Context, req model.Request) (*model.Response, error) {
		usage := budget.Usage{PromptTokens: 100, CompletionTokens: 5, TotalTokens: 105, TokensKnown: true, Calls: 1}
		if len(req.Messages) <= 2 {
			return &model.Response{Text: `{"steps":[{"op":"context","handle":{"ref":"input","name":"context"},"action":{"type":"search","pattern":"needle"},"bind":"hits"}]}`, Usage: usage}, nil
		}
		if err := bar.Arrive(ctx); err != nil {
			return nil, err
		}
		return &model.Response{Text: `{"answer":"ok"}`, Usage: usage}, nil
	})
}
