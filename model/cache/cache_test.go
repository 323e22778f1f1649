package cache

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"go.uber.org/goleak"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// counting is a provider that answers with the request's last message and
// counts its calls; gate, when set, holds every call until it is closed.
type counting struct {
	calls atomic.Int64
	gate  chan struct{}
	fail  atomic.Int64 // the next fail calls fail
}

func (p *counting) Complete(ctx context.Context, req model.Request) (*model.Response, error) {
	n := p.calls.Add(1)
	if p.gate != nil {
		select {
		case <-p.gate:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if p.fail.Load() > 0 {
		p.fail.Add(-1)
		return nil, fault.New(fault.PhaseProvider, model.KindTransport, "down")
	}
	return &model.Response{
		Text:      "re: " + req.Messages[len(req.Messages)-1].Content,
		ToolCalls: []model.ToolCall{{ID: "c1", Type: "function", Name: "f", Arguments: "{}"}},
		Usage:     budget.Usage{PromptTokens: 90, CompletionTokens: 10, TotalTokens: 100, TokensKnown: true, CostUSD: 0.5, CostKnown: true, Calls: 1},
		Meta:      model.Meta{Provider: "counting", Attempts: 1, HTTPStatus: 200, ID: fmt.Sprint(n)},
	}, nil
}

func zero() *float64 { z := 0.0; return &z }

func req(text string) model.Request {
	return model.Request{Model: "m", Temperature: zero(), Messages: []model.Message{{Role: model.RoleUser, Content: text}}}
}

func newCache(t *testing.T, opts Options) *Cache {
	t.Helper()
	c, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestIdenticalRequestsAnsweredOnce(t *testing.T) {
	base := &counting{}
	c := newCache(t, Options{})
	p := c.Wrap(base, "scope-a")
	ctx := context.Background()
	first, err := p.Complete(ctx, req("q"))
	if err != nil || first.Meta.Cache != "" || first.Usage.TotalTokens != 100 {
		t.Fatalf("first = %+v, %v", first, err)
	}
	var deltas []string
	r2 := req("q")
	r2.Stream, r2.OnDelta = true, func(s string) { deltas = append(deltas, s) } // transport choices are not material
	second, err := p.Complete(ctx, r2)
	if err != nil {
		t.Fatal(err)
	}
	if base.calls.Load() != 1 {
		t.Fatalf("%d provider calls, want 1", base.calls.Load())
	}
	if second.Text != first.Text || second.Meta.Cache != model.CacheMemory || len(second.ToolCalls) != 1 {
		t.Fatalf("second = %+v", second)
	}
	want := budget.Usage{SavedCalls: 1, SavedTokens: 100, SavedCostUSD: 0.5}
	if second.Usage != want {
		t.Fatalf("hit usage %+v, want %+v", second.Usage, want)
	}
	if len(deltas) != 1 || deltas[0] != first.Text {
		t.Fatalf("deltas %q", deltas)
	}
	second.ToolCalls[0].Name = "mutated"
	third, _ := p.Complete(ctx, req("q"))
	if third.ToolCalls[0].Name != "f" {
		t.Fatal("a caller's mutation reached the cache")
	}
	st := c.Stats()
	if st.Hits[model.CacheMemory] != 2 || st.Calls != 1 || st.Saved.SavedCalls != 2 || st.Saved.SavedTokens != 200 {
		t.Fatalf("stats %+v", st)
	}
}

// TestMaterialFieldsSeparate checks that every material change of the
// request, and a different scope, is a different key.
func TestMaterialFieldsSeparate(t *testing.T) {
	base := &counting{}
	c := newCache(t, Options{})
	p := c.Wrap(base, "scope-a")
	ctx := context.Background()
	variants := []func(*model.Request){
		func(*model.Request) {},
		func(r *model.Request) { r.Model = "other" },
		func(r *model.Request) { r.Messages[0].Content = "q2" },
		func(r *model.Request) { r.Messages[0].Role = model.RoleSystem },
		func(r *model.Request) { r.MaxTokens = 7 },
		func(r *model.Request) { r.ReasoningEffort = "low" },
		func(r *model.Request) { r.Tools = []model.Tool{{Name: "t"}} },
		func(r *model.Request) { r.ToolChoice = model.ToolChoice{Mode: "none"} },
		func(r *model.Request) { r.Extra = map[string]any{"seed": 1} },
	}
	for _, v := range variants {
		r := req("q")
		v(&r)
		if _, err := p.Complete(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.Wrap(base, "scope-b").Complete(ctx, req("q")); err != nil {
		t.Fatal(err)
	}
	if got, want := base.calls.Load(), int64(len(variants)+1); got != want {
		t.Fatalf("%d calls, want %d (one per distinct request and scope)", got, want)
	}
}

func TestTemperatureRule(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		temp  *float64
		any   bool
		calls int64
	}{
		{"zero", zero(), false, 1},
		{"unset", nil, false, 2},
		{"nonzero", func() *float64 { v := 0.7; return &v }(), false, 2},
		{"unset opt-in", nil, true, 1},
		{"nonzero opt-in", func() *float64 { v := 0.7; return &v }(), true, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := &counting{}
			p := newCache(t, Options{AnyTemperature: tc.any}).Wrap(base, "s")
			for range 2 {
				r := req("q")
				r.Temperature = tc.temp
				if _, err := p.Complete(ctx, r); err != nil {
					t.Fatal(err)
				}
			}
			if base.calls.Load() != tc.calls {
				t.Fatalf("%d calls, want %d", base.calls.Load(), tc.calls)
			}
		})
	}
}

// waitFor yields until n requests wait for a flight.
func waitFor(c *Cache, n int) {
	for {
		c.mu.Lock()
		w := c.wait
		c.mu.Unlock()
		if w >= n {
			return
		}
		runtime.Gosched()
	}
}

func TestConcurrentDuplicatesWaitForTheFirst(t *testing.T) {
	const n = 16
	base := &counting{gate: make(chan struct{})}
	c := newCache(t, Options{})
	p := c.Wrap(base, "s")
	var wg sync.WaitGroup
	out := make([]*model.Response, n)
	for i := range n {
		wg.Go(func() {
			r, err := p.Complete(context.Background(), req("q"))
			if err != nil {
				t.Error(err)
			}
			out[i] = r
		})
	}
	waitFor(c, n-1)
	close(base.gate)
	wg.Wait()
	if base.calls.Load() != 1 {
		t.Fatalf("%d calls, want 1", base.calls.Load())
	}
	real, shared := 0, 0
	for _, r := range out {
		switch r.Meta.Cache {
		case "":
			real++
		case model.CacheInFlight:
			shared++
		}
		if r.Text != "re: q" {
			t.Fatalf("text %q", r.Text)
		}
	}
	if real != 1 || shared != n-1 {
		t.Fatalf("real %d shared %d", real, shared)
	}
}

func TestFailedCallIsNotShared(t *testing.T) {
	base := &counting{gate: make(chan struct{})}
	base.fail.Store(1)
	c := newCache(t, Options{})
	p := c.Wrap(base, "s")
	errs := make(chan error, 2)
	for range 2 {
		go func() {
			_, err := p.Complete(context.Background(), req("q"))
			errs <- err
		}()
	}
	waitFor(c, 1)
	close(base.gate)
	failed := 0
	for range 2 {
		if err := <-errs; err != nil {
			if fault.KindOf(err) != model.KindTransport {
				t.Fatalf("err %v", err)
			}
			failed++
		}
	}
	if failed != 1 || base.calls.Load() != 2 {
		t.Fatalf("failed %d calls %d: the waiter must make its own call after the failure", failed, base.calls.Load())
	}
}

func TestReleaseHandsTheCallOver(t *testing.T) {
	base := &counting{}
	c := newCache(t, Options{})
	p := c.Wrap(base, "s")
	ctx := context.Background()
	resp, lead, err := p.Share(ctx, req("q"))
	if err != nil || resp != nil || lead == nil {
		t.Fatalf("share: %v %v %v", resp, lead, err)
	}
	done := make(chan *model.Response)
	go func() {
		r, _ := p.Complete(ctx, req("q"))
		done <- r
	}()
	waitFor(c, 1)
	lead.Release()
	lead.Release() // idempotent
	if r := <-done; r == nil || r.Meta.Cache != "" || base.calls.Load() != 1 {
		t.Fatalf("the waiter did not make the call: %+v", r)
	}
	// A lead completed with another request (max_tokens shrunk by a
	// budget) makes that call without sharing it.
	_, lead, _ = p.Share(ctx, req("other"))
	shrunk := req("other")
	shrunk.MaxTokens = 5
	if _, err := lead.Complete(ctx, shrunk); err != nil {
		t.Fatal(err)
	}
	if r, lead, _ := p.Share(ctx, req("other")); r != nil {
		t.Fatal("a response to a different request was shared")
	} else {
		lead.Release()
	}
}

func TestWaiterCancelled(t *testing.T) {
	base := &counting{gate: make(chan struct{})}
	c := newCache(t, Options{})
	p := c.Wrap(base, "s")
	first := make(chan error)
	go func() {
		_, err := p.Complete(context.Background(), req("q"))
		first <- err
	}()
	for base.calls.Load() == 0 {
		runtime.Gosched()
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Complete(ctx, req("q")); fault.KindOf(err) != fault.KindCancelled {
		t.Fatalf("err %v, want cancelled", err)
	}
	close(base.gate)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
}

func TestDiskSurvivesTheProcess(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	base := &counting{}
	if _, err := newCache(t, Options{Dir: dir}).Wrap(base, "s").Complete(ctx, req("q")); err != nil {
		t.Fatal(err)
	}
	c2 := newCache(t, Options{Dir: dir})
	r, err := c2.Wrap(base, "s").Complete(ctx, req("q"))
	if err != nil || r.Meta.Cache != model.CacheDisk || r.Text != "re: q" || r.Usage.SavedTokens != 100 || r.Usage.TotalTokens != 0 {
		t.Fatalf("rerun: %+v %v", r, err)
	}
	if base.calls.Load() != 1 {
		t.Fatalf("%d calls", base.calls.Load())
	}
	// Another scope (another key owner or base URL) does not see it.
	if r, _ := newCache(t, Options{Dir: dir}).Wrap(base, "other-owner").Complete(ctx, req("q")); r.Meta.Cache != "" {
		t.Fatal("a response crossed scopes")
	}
	// A damaged file is a miss and is written again.
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.json"))
	if len(files) != 2 {
		t.Fatalf("files %v", files)
	}
	for _, f := range files {
		if err := os.WriteFile(f, []byte(`{"version":1,"key":"x"`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if r, _ := newCache(t, Options{Dir: dir}).Wrap(base, "s").Complete(ctx, req("q")); r.Meta.Cache != "" {
		t.Fatal("a damaged entry was served")
	}
	if r, _ := newCache(t, Options{Dir: dir}).Wrap(base, "s").Complete(ctx, req("q")); r.Meta.Cache != model.CacheDisk {
		t.Fatal("the entry was not written again")
	}
}

func TestUnusableDir(t *testing.T) {
	f := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(f, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := New(Options{Dir: filepath.Join(f, "sub")})
	var fe *fault.Error
	if !errors.As(err, &fe) || fe.Kind != KindCacheUnusable || fe.Phase != fault.PhaseConfig {
		t.Fatalf("err %v", err)
	}
}

// TestCachePrefixKeepsTheKey: a request asking for the cache marks with
// CachePrefix has the key the same request had when the meter wrote the
// marks into a copy of its messages (the golden key was computed by the
// version before CachePrefix), so a cache on disk stays valid.
func TestCachePrefixKeepsTheKey(t *testing.T) {
	const golden = "sha256:b3869cfc049ce772b7b61d2fdda83c8b4acc2caa454252cb3f65db78800b1936"
	msgs := []model.Message{
		{Role: model.RoleSystem, Content: "You are terse."},
		{Role: model.RoleUser, Content: "Query: 2+2"},
		{Role: model.RoleAssistant, Content: "4?"},
		{Role: model.RoleUser, Content: "Sure?"},
	}
	p := newCache(t, Options{}).Wrap(&counting{}, "s")
	for _, r := range []model.Request{
		{Model: "m", Temperature: zero(), Messages: msgs, CachePrefix: true},
		{Model: "m", Temperature: zero(), Messages: model.MarkCachePrefix(msgs)},
	} {
		if k, ok := p.Key(r); !ok || k != golden {
			t.Errorf("key %q (cacheable %v), want %q", k, ok, golden)
		}
	}
	if k, _ := p.Key(model.Request{Model: "m", Temperature: zero(), Messages: msgs}); k == golden {
		t.Error("a request without the marks has the marked request's key")
	}
	for i, m := range msgs {
		if m.CacheBreakpoint {
			t.Errorf("message %d of the caller was marked", i)
		}
	}
}
