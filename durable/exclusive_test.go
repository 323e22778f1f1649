package durable_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/durable"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/pgtest"
	"github.com/rlm-go/rlm/model"
)

// gated answers the root with the fan-out plan and holds every sub-call
// until open is closed; it counts requests per prompt. One execution has at
// most 16 calls in flight (newEngine's MaxConcurrency), so more than 16
// held at once means two executions are sending.
type gated struct {
	mu    sync.Mutex
	seen  map[string]int
	held  int
	open  chan struct{}
	both  chan struct{} // closed when more than 16 calls are held
	bothO sync.Once
}

func (g *gated) Complete(ctx context.Context, req model.Request) (*model.Response, error) {
	prompt := req.Messages[len(req.Messages)-1].Content
	u := budget.Usage{PromptTokens: 10, CompletionTokens: 2, TotalTokens: 12, TokensKnown: true, Calls: 1}
	g.mu.Lock()
	g.seen[prompt]++
	root := req.Messages[0].Role == model.RoleSystem
	if !root {
		g.held++
		if g.held > 16 {
			g.bothO.Do(func() { close(g.both) })
		}
	}
	g.mu.Unlock()
	if root {
		return &model.Response{Text: fanOutPlan, Usage: u}, nil
	}
	select {
	case <-g.open:
	case <-ctx.Done():
		return nil, fault.FromContext(fault.PhaseProvider, ctx.Err())
	}
	return &model.Response{Text: "label " + strings.TrimSpace(strings.TrimPrefix(prompt, "classify ")), Usage: u}, nil
}

// Two resumes of one interrupted run started together: exactly one
// executes it, the other is refused at once with run_in_progress, and no
// call is sent twice. Before the run's exclusive claim, both executed it
// (more than one execution's worth of calls were held at once) and sent
// its remaining calls twice.
func TestConcurrentResumesAreExclusive(t *testing.T) {
	url := pgtest.Database(t)
	ctx := context.Background()
	const n = 60
	text := records(n)
	body := func(p model.Provider) durable.RunFunc {
		return func(ctx context.Context, x *durable.Executor) (*engine.Result, error) {
			eng, h := newEngine(t, p, x, text)
			return eng.Run(ctx, "classify", h)
		}
	}

	// An execution interrupted after 20 sub-calls: the run is pending.
	first := &counting{seen: map[string]int{}, stopAfter: 20}
	ictx, cancel := context.WithCancel(ctx)
	first.stop = cancel
	out, _ := durable.Run(ictx, durable.Config{DatabaseURL: url, Spec: "s", Query: "classify"}, body(first))
	cancel()
	if out == nil || !out.HandedBack {
		t.Fatalf("first execution: %+v", out)
	}

	g := &gated{seen: map[string]int{}, open: make(chan struct{}), both: make(chan struct{})}
	type ended struct {
		out *durable.Outcome
		err error
	}
	ends := make(chan ended, 2)
	for range 2 {
		go func() {
			o, err := durable.Run(ctx, durable.Config{DatabaseURL: url, RunID: out.RunID, Resume: true, Spec: "s"}, body(g))
			ends <- ended{o, err}
		}()
	}
	// The calls are held until one resume has ended (refused) or both
	// are sending; then every call is answered.
	var got []ended
	select {
	case e := <-ends:
		got = append(got, e)
	case <-g.both:
	}
	close(g.open)
	for len(got) < 2 {
		got = append(got, <-ends)
	}

	var done, refused int
	for _, e := range got {
		switch {
		case e.err == nil && e.out != nil && e.out.Result.Status == engine.StatusCompleted:
			done++
			if a := e.out.Result.Answer.([]any); len(a) != n || a[n-1] != fmt.Sprintf("label record %d", n-1) {
				t.Errorf("answer %v", a)
			}
		case fault.KindOf(e.err) == durable.KindRunInProgress:
			refused++
			if fault.As(e.err).Hint == "" {
				t.Error("run_in_progress without a hint")
			}
		default:
			t.Errorf("a resume ended with %v (%+v)", e.err, e.out)
		}
	}
	if done != 1 || refused != 1 {
		t.Errorf("%d resumes completed, %d refused with run_in_progress; want 1 and 1", done, refused)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	for prompt, k := range g.seen {
		if k != 1 {
			t.Errorf("%q sent %d times by the resumes", prompt, k)
		}
	}
	// Everything the first execution did not record, sent once: the root
	// turn and at least 40 sub-calls are recorded elsewhere or here.
	if len(g.seen) < n-20 || len(g.seen) > n {
		t.Errorf("the resumes sent %d distinct prompts", len(g.seen))
	}
	if st, err := durable.State(ctx, url, out.RunID); err != nil || st.Status != engine.StatusCompleted || st.Steps.ModelCalls != n+1 {
		t.Fatalf("state: %v, %+v", err, st)
	}
}
