package meter_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"go.uber.org/goleak"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/meter"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/trace"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// fakeProvider answers with a fixed response and error and remembers the
// requests it was sent.
type fakeProvider struct {
	resp  *model.Response
	err   error
	calls atomic.Int64
	last  model.Request
}

func (p *fakeProvider) Complete(_ context.Context, req model.Request) (*model.Response, error) {
	p.calls.Add(1)
	p.last = req
	if p.resp == nil {
		return nil, p.err
	}
	r := *p.resp
	return &r, p.err
}

// sharer is a response cache holding one hit, or none.
type sharer struct {
	*fakeProvider
	hit      *model.Response
	released atomic.Int64
}

func (s *sharer) Share(context.Context, model.Request) (*model.Response, model.Lead, error) {
	if s.hit != nil {
		r := *s.hit
		return &r, nil, nil
	}
	return nil, lead{s}, nil
}

type lead struct{ s *sharer }

func (l lead) Complete(ctx context.Context, req model.Request) (*model.Response, error) {
	return l.s.fakeProvider.Complete(ctx, req)
}
func (l lead) Release() { l.s.released.Add(1) }

func usage(total int64) budget.Usage {
	return budget.Usage{PromptTokens: total / 2, CompletionTokens: total - total/2, TotalTokens: total, TokensKnown: true}
}

func limits(t *testing.T, l budget.Limits) budget.Limits {
	t.Helper()
	l, err := l.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func notes(rec *trace.Recorder) map[string]map[string]any {
	out := map[string]map[string]any{}
	for _, ev := range rec.Events() {
		if ev.Kind == trace.KindNote {
			out[ev.Name] = ev.Attrs
		}
	}
	return out
}

func TestModel(t *testing.T) {
	req := model.Request{Model: "test-model", MaxTokens: 4096, Messages: []model.Message{{Role: model.RoleUser, Content: "hello"}}}
	ok := &model.Response{Text: "hi", Usage: usage(100)}
	tests := []struct {
		name   string
		limits budget.Limits
		prov   *fakeProvider
		hit    *model.Response // a response cache's hit
		call   func(*meter.ModelCall)
		before func(*budget.Tracker) // spends before the call
		// want
		kind       fault.Kind // of the error; "" for none
		resp       bool       // a response returned
		sent       int64      // provider calls
		maxTokens  int        // sent max_tokens (when sent)
		modelCalls int64
		iterations int64
		calls      int64 // usage.calls charged
		savedCalls int64
		inFlight   int64 // MaxInFlight: a slot was held
		notes      []string
	}{
		{name: "admitted and settled", prov: &fakeProvider{resp: ok},
			resp: true, sent: 1, maxTokens: 4096, modelCalls: 1, calls: 1},
		{name: "refused before sending", limits: budget.Limits{MaxTotalTokens: 100},
			prov: &fakeProvider{resp: ok}, kind: budget.KindMaxTotalTokens},
		{name: "max_tokens shrunk", limits: budget.Limits{MaxTotalTokens: 1000},
			prov: &fakeProvider{resp: ok}, resp: true, sent: 1, modelCalls: 1, calls: 1,
			notes: []string{meter.NoteShrunk}},
		{name: "usage over the worst case crosses the limit", limits: budget.Limits{MaxTotalTokens: 1000},
			prov: &fakeProvider{resp: &model.Response{Text: "x", Usage: usage(5000)}},
			kind: budget.KindMaxTotalTokens, resp: true, sent: 1, modelCalls: 1, calls: 1,
			notes: []string{meter.NoteShrunk, meter.NoteOverWorstCase}},
		{name: "usage over the worst case within the limit",
			prov: &fakeProvider{resp: &model.Response{Text: "x", Usage: usage(10000)}},
			resp: true, sent: 1, maxTokens: 4096, modelCalls: 1, calls: 1, notes: []string{meter.NoteOverWorstCase}},
		{name: "cache hit charges its savings only", prov: &fakeProvider{resp: ok},
			hit:  &model.Response{Text: "cached", Usage: usage(100).Saved(), Meta: model.Meta{Cache: "memory"}},
			resp: true, savedCalls: 1},
		{name: "cache hit of a loop turn counts the turn", prov: &fakeProvider{resp: ok},
			hit:  &model.Response{Text: "cached", Usage: usage(100).Saved(), Meta: model.Meta{Cache: "memory"}},
			call: func(c *meter.ModelCall) { c.Turn = true }, resp: true, iterations: 1, savedCalls: 1},
		{name: "failed call charged as one call",
			prov: &fakeProvider{err: fault.New(fault.PhaseProvider, "http_error", "boom")},
			kind: "http_error", sent: 1, maxTokens: 4096, modelCalls: 1, calls: 1},
		{name: "usage reported with a failure is charged",
			prov: &fakeProvider{resp: &model.Response{Usage: usage(300)}, err: fault.New(fault.PhaseProvider, "stream_error", "cut")},
			kind: "stream_error", resp: true, sent: 1, maxTokens: 4096, modelCalls: 1, calls: 1},
		{name: "neither response nor error", prov: &fakeProvider{},
			kind: model.KindMalformedResponse, sent: 1, maxTokens: 4096, modelCalls: 1, calls: 1},
		{name: "a turn counts the call and the iteration", prov: &fakeProvider{resp: ok},
			call: func(c *meter.ModelCall) { c.Turn = true },
			resp: true, sent: 1, maxTokens: 4096, modelCalls: 1, iterations: 1, calls: 1},
		{name: "a turn refused by max_iterations is no model call", limits: budget.Limits{MaxIterations: 1},
			before: func(tr *budget.Tracker) { _ = tr.Iteration() },
			prov:   &fakeProvider{resp: ok}, call: func(c *meter.ModelCall) { c.Turn = true },
			kind: budget.KindMaxIterations, iterations: 1},
		{name: "refused by max_model_calls", limits: budget.Limits{MaxModelCalls: 1},
			before: func(tr *budget.Tracker) { _ = tr.ModelCall() },
			prov:   &fakeProvider{resp: ok}, kind: budget.KindMaxModelCalls, modelCalls: 1},
		{name: "a cache hit of a turn refused by max_iterations", limits: budget.Limits{MaxIterations: 1},
			before: func(tr *budget.Tracker) { _ = tr.Iteration() },
			prov:   &fakeProvider{resp: ok}, call: func(c *meter.ModelCall) { c.Turn = true },
			hit:  &model.Response{Text: "cached", Usage: usage(100).Saved(), Meta: model.Meta{Cache: "memory"}},
			kind: budget.KindMaxIterations, iterations: 1},
		{name: "a sub-call holds a slot", prov: &fakeProvider{resp: ok},
			call: func(c *meter.ModelCall) { c.Slot, c.Depth = true, 1 },
			resp: true, sent: 1, maxTokens: 4096, modelCalls: 1, calls: 1, inFlight: 1},
		{name: "send through the caller's seam", prov: &fakeProvider{resp: ok},
			call: func(c *meter.ModelCall) {
				c.Send = func(ctx context.Context, p model.Provider, req model.Request) (*model.Response, error) {
					req.Model = "via-seam"
					return p.Complete(ctx, req)
				}
			},
			resp: true, sent: 1, maxTokens: 4096, modelCalls: 1, calls: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := budget.NewTracker(limits(t, tt.limits))
			if tt.before != nil {
				tt.before(tr)
			}
			rec := trace.NewRecorder()
			ctx := trace.WithRecorder(context.Background(), rec)
			sh := &sharer{fakeProvider: tt.prov, hit: tt.hit}
			c := meter.ModelCall{Provider: sh, Request: req}
			if tt.call != nil {
				tt.call(&c)
			}
			resp, err := meter.New(tr).Model(ctx, c)
			if got := fault.KindOf(err); got != tt.kind {
				t.Fatalf("error kind %q, want %q (%v)", got, tt.kind, err)
			}
			if (resp != nil) != tt.resp {
				t.Fatalf("response %v, want one: %v", resp, tt.resp)
			}
			if n := tt.prov.calls.Load(); n != tt.sent {
				t.Fatalf("sent %d requests, want %d", n, tt.sent)
			}
			if tt.sent > 0 && tt.maxTokens != 0 && tt.prov.last.MaxTokens != tt.maxTokens {
				t.Fatalf("sent max_tokens %d, want %d", tt.prov.last.MaxTokens, tt.maxTokens)
			}
			if tt.hit == nil && sh.released.Load() != 1 {
				t.Fatalf("the lead was released %d times, want 1", sh.released.Load())
			}
			cn := tr.Counters()
			if cn.ModelCalls != tt.modelCalls || cn.Iterations != tt.iterations || cn.MaxInFlight != tt.inFlight || cn.InFlight != 0 {
				t.Fatalf("counters %+v, want model calls %d, iterations %d, max in flight %d", cn, tt.modelCalls, tt.iterations, tt.inFlight)
			}
			u := tr.Usage()
			if u.Calls != tt.calls || u.SavedCalls != tt.savedCalls {
				t.Fatalf("usage %+v, want calls %d, saved calls %d", u, tt.calls, tt.savedCalls)
			}
			got := notes(rec)
			if len(got) != len(tt.notes) {
				t.Fatalf("notes %v, want %v", got, tt.notes)
			}
			for _, n := range tt.notes {
				if _, ok := got[n]; !ok {
					t.Fatalf("notes %v, want %q", got, n)
				}
			}
			// Nothing stays held: the whole token limit is admissible again
			// but for what was charged.
			if lim := tr.Limits().MaxTotalTokens; lim > 0 && u.TotalTokens < lim {
				r, err := tr.Reserve(budget.Worst{Model: "test-model", MaxTokens: lim - u.TotalTokens, MinTokens: lim - u.TotalTokens})
				if err != nil {
					t.Fatalf("a worst case stayed held: %v", err)
				}
				r.Release()
			}
		})
	}
}

func TestModelShrinkNote(t *testing.T) {
	tr := budget.NewTracker(limits(t, budget.Limits{MaxTotalTokens: 1000}))
	rec := trace.NewRecorder()
	p := &fakeProvider{resp: &model.Response{Text: "hi", Usage: usage(100)}}
	req := model.Request{Model: "test-model", MaxTokens: 4096, Messages: []model.Message{{Role: model.RoleUser, Content: "hello"}}}
	if _, err := meter.New(tr).Model(trace.WithRecorder(context.Background(), rec), meter.ModelCall{Provider: p, Request: req}); err != nil {
		t.Fatal(err)
	}
	sent := p.last.MaxTokens
	if sent >= 4096 || sent < budget.MinReplyTokens {
		t.Fatalf("sent max_tokens %d, want it shrunk below 4096 and at least %d", sent, budget.MinReplyTokens)
	}
	n := notes(rec)[meter.NoteShrunk]
	if n["requested"] != 4096 || n["admitted"] != int64(sent) {
		t.Fatalf("shrink note %v, want requested 4096, admitted %d", n, sent)
	}
	// The stable prefix is marked for prompt caching, and the caller's
	// conversation is sent as it is, not copied to be marked.
	if !p.last.CachePrefix {
		t.Fatal("the stable prefix is not marked for prompt caching")
	}
	if &p.last.Messages[0] != &req.Messages[0] || p.last.Messages[0].CacheBreakpoint {
		t.Fatal("the conversation was copied or marked")
	}
}

func TestModelCancelledWaitingForSlot(t *testing.T) {
	tr := budget.NewTracker(limits(t, budget.Limits{MaxConcurrency: 1}))
	release, err := tr.Acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p := &fakeProvider{resp: &model.Response{Text: "hi"}}
	_, err = meter.New(tr).Model(ctx, meter.ModelCall{Provider: p, Request: model.Request{Model: "m"}, Slot: true, Depth: 1})
	if fault.KindOf(err) != fault.KindCancelled {
		t.Fatalf("err %v, want cancelled", err)
	}
	if p.calls.Load() != 0 || tr.Counters().ModelCalls != 0 {
		t.Fatal("a call cancelled while waiting for a slot was sent or counted")
	}
}

func TestContext(t *testing.T) {
	granted := capability.MustSet("context:slice", "context:search", "context:peek")
	tests := []struct {
		name   string
		limits budget.Limits
		caps   capability.Set
		op     meter.ContextOp
		kind   fault.Kind
		count  int64
		span   string // the span's name ("" for none)
		handle any
	}{
		{name: "search", caps: granted, op: meter.ContextOp{Op: "search", Handle: "h1"}, count: 1, span: "search", handle: "h1"},
		{name: "direct names its span after the tool", caps: granted, op: meter.ContextOp{Op: "peek", Name: "context_peek"}, count: 1, span: "context_peek"},
		{name: "code mode's regex needs search", caps: capability.MustSet("context:slice"), op: meter.ContextOp{Op: "regex"}, kind: capability.KindDenied},
		{name: "code mode's text is a slice", caps: capability.MustSet("context:slice"), op: meter.ContextOp{Op: "text"}, count: 1, span: "text"},
		{name: "partition not granted", caps: granted, op: meter.ContextOp{Op: "partition"}, kind: capability.KindDenied},
		{name: "unlimited context operations", limits: budget.Limits{MaxContextOps: -1}, caps: granted, op: meter.ContextOp{Op: "slice"}, count: 1, span: "slice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := budget.NewTracker(limits(t, tt.limits))
			rec := trace.NewRecorder()
			_, sp, err := meter.New(tr).Context(trace.WithRecorder(context.Background(), rec), tt.caps, tt.op)
			sp.End(err)
			if got := fault.KindOf(err); got != tt.kind {
				t.Fatalf("error kind %q, want %q (%v)", got, tt.kind, err)
			}
			if tt.kind == capability.KindDenied && fault.As(err).Detail["capability"] != string(meter.ContextCapability(tt.op.Op)) {
				t.Fatalf("denial %v does not name the capability", err)
			}
			if n := tr.Counters().ContextOps; n != tt.count {
				t.Fatalf("counted %d context operations, want %d", n, tt.count)
			}
			evs := rec.Events()
			if tt.span == "" {
				if len(evs) != 0 {
					t.Fatalf("a refused operation was traced: %+v", evs)
				}
				return
			}
			if len(evs) != 1 || evs[0].Kind != trace.KindContextOp || evs[0].Name != tt.span || evs[0].Attrs["handle"] != tt.handle {
				t.Fatalf("events %+v, want one context_op span %q", evs, tt.span)
			}
		})
	}
}

func TestContextLimit(t *testing.T) {
	tr := budget.NewTracker(limits(t, budget.Limits{MaxContextOps: 1}))
	m := meter.New(tr)
	caps := capability.MustSet("context:slice")
	if _, sp, err := m.Context(context.Background(), caps, meter.ContextOp{Op: "slice"}); err != nil {
		t.Fatal(err)
	} else {
		sp.End(nil)
	}
	_, _, err := m.Context(context.Background(), caps, meter.ContextOp{Op: "slice"})
	if fault.KindOf(err) != budget.KindMaxContextOps {
		t.Fatalf("err %v, want %s", err, budget.KindMaxContextOps)
	}
}

func TestContextCapability(t *testing.T) {
	for op, want := range map[string]capability.Cap{
		"slice": "context:slice", "text": "context:slice", "iterate": "context:slice",
		"search": "context:search", "regex": "context:search",
		"peek": "context:peek", "partition": "context:partition",
	} {
		if got := meter.ContextCapability(op); got != want {
			t.Errorf("ContextCapability(%q) = %q, want %q", op, got, want)
		}
	}
}

func TestDenied(t *testing.T) {
	err := error(meter.Denied(capability.RLM))
	var fe *fault.Error
	if !errors.As(err, &fe) || fe.Phase != fault.PhaseValidate || fe.Kind != capability.KindDenied || fe.Detail["capability"] != "rlm" {
		t.Fatalf("Denied = %+v", fe)
	}
}

// A call is admitted against its model's window: refused before anything
// is sent or counted when the prompt and the reserved output cannot fit,
// max_tokens shrunk (with a note) when only the requested output cannot.
func TestModelWindowAdmission(t *testing.T) {
	req, n := windowRequest()
	for _, c := range windowCases(n) {
		t.Run(c.name, func(t *testing.T) {
			tr := budget.NewTracker(limits(t, budget.Limits{}))
			rec := trace.NewRecorder()
			p := &fakeProvider{resp: &model.Response{Text: "hi", Usage: usage(10)}}
			ws := model.NewWindows(model.Info{Prefix: "small", Window: c.window})
			_, err := meter.New(tr).Model(trace.WithRecorder(context.Background(), rec), meter.ModelCall{Provider: p, Request: req, Windows: ws})
			if fault.KindOf(err) != c.kind {
				t.Fatalf("err %v, want kind %q", err, c.kind)
			}
			if c.maxTokens == 0 {
				fe := fault.As(err)
				if p.calls.Load() != 0 || tr.Usage().Calls != 0 || fe.Detail["window"] != c.window || fe.Detail["prompt_tokens"] != n {
					t.Fatalf("refused call: %d sent, usage %+v, detail %v", p.calls.Load(), tr.Usage(), fe.Detail)
				}
				return
			}
			if p.last.MaxTokens != c.maxTokens {
				t.Fatalf("sent max_tokens %d, want %d", p.last.MaxTokens, c.maxTokens)
			}
			if _, noted := notes(rec)[meter.NoteWindowShrunk]; noted != (c.maxTokens != 4096) {
				t.Fatalf("window note %v", notes(rec))
			}
		})
	}
}
