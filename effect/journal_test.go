package effect

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"go.uber.org/goleak"

	"github.com/rlm-go/rlm/fault"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func openTemp(t *testing.T) (*Journal, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "effects.db")
	j, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	return j, path
}

func req(args string) Request {
	return Request{Kind: "tool", Payload: map[string]any{"tool": "w", "args": json.RawMessage(args)}, Semantics: map[string]any{"effect": "write"}}
}

var ok = Observation{Status: ObservedSucceeded, Value: json.RawMessage(`{"n":1}`), OutputBytes: 7}

// run drives one full execution and returns the decision that started it.
func run(t *testing.T, j *Journal, r Request) Decision {
	t.Helper()
	ctx := context.Background()
	d, err := j.Prepare(ctx, r)
	if err != nil || d.Action != ActionExecute {
		t.Fatalf("prepare: %+v %v", d, err)
	}
	b, err := j.Begin(ctx, d.Ticket)
	if err != nil || b.Action != ActionExecute {
		t.Fatalf("begin: %+v %v", b, err)
	}
	if err := j.Dispatch(ctx, d.Ticket); err != nil {
		t.Fatal(err)
	}
	if err := j.Observe(ctx, d.Ticket, ok); err != nil {
		t.Fatal(err)
	}
	return d
}

func TestIdentityDeterministic(t *testing.T) {
	j, _ := openTemp(t)
	a, _ := j.identityFor(req(`{"a":1,"b":2}`))
	b, _ := j.identityFor(req(`{"b":2,"a":1}`))
	c, _ := j.identityFor(req(`{"a":1,"b":3}`))
	if a != b {
		t.Fatal("key order changed identity")
	}
	if a.CallID == c.CallID || a.Fingerprint == c.Fingerprint {
		t.Fatal("changed payload kept identity")
	}
	k1 := req(`{"a":1}`)
	k1.LogicalKey = "k"
	k2 := req(`{"a":2}`)
	k2.LogicalKey = "k"
	x, _ := j.identityFor(k1)
	y, _ := j.identityFor(k2)
	if x.CallID == y.CallID {
		t.Fatal("changed payload under one logical key is the same call")
	}
	i1 := j.withAttempt(a, 1, ModeInitial, "")
	i2 := j.withAttempt(a, 2, ModeRetry, i1.AttemptID)
	if i1.IdempotencyKey == i2.IdempotencyKey || i1.IdempotencyKey != j.withAttempt(a, 1, ModeInitial, "").IdempotencyKey {
		t.Fatal("idempotency key not stable and distinct")
	}
}

func TestReplayAfterObservation(t *testing.T) {
	j, _ := openTemp(t)
	first := run(t, j, req(`{"a":1}`))
	d, err := j.Prepare(context.Background(), req(`{"a":1}`))
	if err != nil || d.Action != ActionReplay || d.Observation == nil || string(d.Observation.Value) != `{"n":1}` {
		t.Fatalf("%+v %v", d, err)
	}
	if d.Ticket.AttemptID != first.Ticket.AttemptID {
		t.Fatal("replay from another attempt")
	}
	if err := j.Observe(context.Background(), first.Ticket, Observation{Status: ObservedFailed}); fault.KindOf(err) != KindObservationChanged {
		t.Fatalf("observation mutated: %v", err)
	}
	if err := j.Observe(context.Background(), first.Ticket, ok); err != nil {
		t.Fatalf("identical observation: %v", err)
	}
}

func TestStateMachine(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name   string
		steps  func(j *Journal, tk Ticket)
		state  State
		action Action // of a fresh Prepare afterwards
	}{
		{"cancel before claim", func(j *Journal, tk Ticket) { j.Cancel(ctx, tk, "x") }, StateCancelledBeforeClaim, ActionExecute},
		{"cancel after claim", func(j *Journal, tk Ticket) { j.Begin(ctx, tk); j.Cancel(ctx, tk, "x") }, StateCancelledPreDispatch, ActionExecute},
		{"cancel while dispatching", func(j *Journal, tk Ticket) { j.Begin(ctx, tk); j.Dispatch(ctx, tk); j.Cancel(ctx, tk, "x") }, StateIndeterminate, ActionReconcile},
		{"claimed, in progress", func(j *Journal, tk Ticket) { j.Begin(ctx, tk) }, StateAdmitted, ActionInProgress},
		{"dispatching, in progress", func(j *Journal, tk Ticket) { j.Begin(ctx, tk); j.Dispatch(ctx, tk) }, StateDispatching, ActionInProgress},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			j, _ := openTemp(t)
			d, err := j.Prepare(ctx, req(`{}`))
			if err != nil {
				t.Fatal(err)
			}
			c.steps(j, d.Ticket)
			a, err := j.Attempt(ctx, d.Ticket.AttemptID)
			if err != nil || a.State != c.state {
				t.Fatalf("state %s want %s (%v)", a.State, c.state, err)
			}
			again, err := j.Prepare(ctx, req(`{}`))
			if err != nil || again.Action != c.action {
				t.Fatalf("prepare after: %+v %v", again, err)
			}
			if c.action == ActionExecute && (again.Ticket.Mode != ModeRetry || again.Ticket.Parent != d.Ticket.AttemptID) {
				t.Fatalf("expected linked retry attempt: %+v", again.Ticket)
			}
			// A cancelled ticket can never be dispatched.
			if c.state != StateAdmitted && c.state != StateDispatching {
				if err := j.Dispatch(ctx, d.Ticket); fault.KindOf(err) != KindInvalidTransition {
					t.Fatalf("dispatch after cancel: %v", err)
				}
			}
		})
	}
}

func TestCrashWindowNeedsReconciliation(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "effects.db")
	j, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	d, _ := j.Prepare(ctx, req(`{"x":1}`))
	j.Begin(ctx, d.Ticket)
	if err := j.Dispatch(ctx, d.Ticket); err != nil {
		t.Fatal(err)
	}
	// A second Journal on the same file while the owner is alive: the
	// attempt is in progress, never indeterminate, never runnable.
	live, err := Open(path)
	if err != nil {
		t.Fatalf("second journal on one file: %v", err)
	}
	if got, err := live.Prepare(ctx, req(`{"x":1}`)); err != nil || got.Action != ActionInProgress {
		t.Fatalf("live owner's attempt: %+v %v", got, err)
	}
	if un, err := live.Unresolved(ctx); err != nil || len(un) != 0 {
		t.Fatalf("live owner's attempt listed as unresolved: %+v %v", un, err)
	}
	if _, err := live.Resolve(ctx, d.Ticket.AttemptID, Resolution{Retry: true}); fault.KindOf(err) != KindInProgress {
		t.Fatalf("resolved a live owner's attempt: %v", err)
	}
	live.Close()
	j.Close() // simulates the process going away mid-handler

	j2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer j2.Close()
	if j2.StoreID() != j.StoreID() {
		t.Fatal("store id not durable")
	}
	un, err := j2.Unresolved(ctx)
	if err != nil || len(un) != 1 {
		t.Fatalf("unresolved %v %v", un, err)
	}
	again, err := j2.Prepare(ctx, req(`{"x":1}`))
	if err != nil || again.Action != ActionReconcile || fault.KindOf(again.Err()) != KindReconciliation {
		t.Fatalf("%+v %v", again, err)
	}
	// Host reconciliation recovers the original observation, then replays.
	if _, err := j2.Resolve(ctx, d.Ticket.AttemptID, Resolution{Observation: &ok}); err != nil {
		t.Fatal(err)
	}
	rp, _ := j2.Prepare(ctx, req(`{"x":1}`))
	if rp.Action != ActionReplay {
		t.Fatalf("after reconcile: %+v", rp)
	}
}

func TestHostDecisions(t *testing.T) {
	ctx := context.Background()
	for _, retry := range []bool{true, false} {
		j, _ := openTemp(t)
		d, _ := j.Prepare(ctx, req(`{}`))
		j.Begin(ctx, d.Ticket)
		j.Dispatch(ctx, d.Ticket)
		j.MarkIndeterminate(ctx, d.Ticket, "timeout")
		if _, err := j.Resolve(ctx, d.Ticket.AttemptID, Resolution{Retry: retry}); err != nil {
			t.Fatal(err)
		}
		next, err := j.Prepare(ctx, req(`{}`))
		if err != nil {
			t.Fatal(err)
		}
		if retry && (next.Action != ActionExecute || next.Ticket.Parent != d.Ticket.AttemptID) {
			t.Fatalf("retry: %+v", next)
		}
		if !retry && next.Action != ActionTerminal {
			t.Fatalf("abandon: %+v", next)
		}
	}
}

func TestExplicitRetryAndResample(t *testing.T) {
	ctx := context.Background()
	j, _ := openTemp(t)
	first := run(t, j, req(`{}`))
	r := req(`{}`)
	r.Mode, r.Parent = ModeRetry, first.Ticket.AttemptID
	if _, err := j.Prepare(ctx, r); fault.KindOf(err) != KindInvalidRetry {
		t.Fatalf("retry of success allowed: %v", err)
	}
	r.Mode = ModeResample
	d1, err := j.Prepare(ctx, r)
	if err != nil || d1.Action != ActionExecute || d1.Ticket.Mode != ModeResample {
		t.Fatalf("%+v %v", d1, err)
	}
	d2, err := j.Prepare(ctx, r)
	if err != nil || d2.Ticket.AttemptID != d1.Ticket.AttemptID {
		t.Fatalf("re-entering resample made a new attempt: %+v %v", d2, err)
	}
}

func TestConcurrentBeginOneOwner(t *testing.T) {
	ctx := context.Background()
	j, _ := openTemp(t)
	var wins atomic.Int32
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d, err := j.Prepare(ctx, req(`{"same":true}`))
			if err != nil {
				t.Error(err)
				return
			}
			if d.Action != ActionExecute {
				return
			}
			b, err := j.Begin(ctx, d.Ticket)
			if err == nil && b.Action == ActionExecute {
				wins.Add(1)
			}
		}()
	}
	wg.Wait()
	if wins.Load() != 1 {
		t.Fatalf("%d owners", wins.Load())
	}
}

func TestStaleTicket(t *testing.T) {
	ctx := context.Background()
	j, _ := openTemp(t)
	d, _ := j.Prepare(ctx, req(`{}`))
	bad := d.Ticket
	bad.Epoch++
	if _, err := j.Begin(ctx, bad); fault.KindOf(err) != KindStaleTicket {
		t.Fatal(err)
	}
	bad = d.Ticket
	bad.Fingerprint = "sha256:00"
	if _, err := j.Begin(ctx, bad); fault.KindOf(err) != KindStaleTicket {
		t.Fatal(err)
	}
	j.Close()
	if _, err := j.Prepare(ctx, req(`{}`)); fault.KindOf(err) != KindClosed {
		t.Fatal(err)
	}
}

func runReq(run, call, args string) Request {
	r := req(args)
	r.RunID, r.RunCallID = run, call
	return r
}

// TestRunScopedIdentity: the same payload in another run, or under another
// call id of one run, is another call; only the same (run, call id,
// payload) replays. Calls without a run keep the payload identity.
func TestRunScopedIdentity(t *testing.T) {
	ctx := context.Background()
	j, _ := openTemp(t)
	first := run(t, j, runReq("run-a", "1", `{"x":1}`))
	for _, c := range []struct {
		name string
		r    Request
		want Action
	}{
		{"same run and call", runReq("run-a", "1", `{"x":1}`), ActionReplay},
		{"same run, next call", runReq("run-a", "2", `{"x":1}`), ActionExecute},
		{"another run", runReq("run-b", "1", `{"x":1}`), ActionExecute},
		{"no run", req(`{"x":1}`), ActionExecute},
		{"same run and call, other payload", runReq("run-a", "1", `{"x":2}`), ActionExecute},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, err := j.Prepare(ctx, c.r)
			if err != nil || d.Action != c.want {
				t.Fatalf("%+v %v", d, err)
			}
			if c.want == ActionExecute && d.Ticket.CallID == first.Ticket.CallID {
				t.Fatal("same call id")
			}
		})
	}
	if n, err := j.RunEffects(ctx, "run-a"); err != nil || n != 3 {
		t.Fatalf("run-a effects: %d %v", n, err)
	}
	if _, err := j.RunEffects(ctx, "run-z"); fault.KindOf(err) != KindUnknownRun {
		t.Fatalf("unknown run: %v", err)
	}
	if err := j.StartRun(ctx, "run-empty"); err != nil {
		t.Fatal(err)
	}
	if n, err := j.RunEffects(ctx, "run-empty"); err != nil || n != 0 {
		t.Fatalf("empty run: %d %v", n, err)
	}
}

// TestParallelJournals: four Journals on one file (as four processes would
// open it) record four runs at once; none fails with journal_locked, and
// every run's effect is recorded once.
func TestParallelJournals(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "effects.db")
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			j, err := Open(path)
			if err != nil {
				errs <- err
				return
			}
			defer j.Close()
			for k := range 5 {
				r := runReq(fmt.Sprintf("run-%d", i), fmt.Sprint(k), fmt.Sprintf(`{"file":%d}`, k))
				d, err := j.Prepare(ctx, r)
				if err == nil && d.Action != ActionExecute {
					err = fmt.Errorf("prepare %+v", d)
				}
				if err == nil {
					var b Decision
					if b, err = j.Begin(ctx, d.Ticket); err == nil && b.Action != ActionExecute {
						err = fmt.Errorf("begin %+v", b)
					}
				}
				if err == nil {
					err = j.Dispatch(ctx, d.Ticket)
				}
				if err == nil {
					err = j.Observe(ctx, d.Ticket, ok)
				}
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("parallel journal: %v (kind %s)", err, fault.KindOf(err))
	}
	j, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	for i := range 4 {
		if n, err := j.RunEffects(ctx, fmt.Sprintf("run-%d", i)); err != nil || n != 5 {
			t.Errorf("run-%d: %d effects, %v", i, n, err)
		}
	}
	if entries, _ := os.ReadDir(path + ".owners"); len(entries) != 1 {
		t.Errorf("owner leases left behind: %d", len(entries))
	}
}

func BenchmarkJournalCycle(b *testing.B) {
	path := filepath.Join(b.TempDir(), "effects.db")
	j, err := Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer j.Close()
	ctx := context.Background()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		r := Request{Kind: "tool", Payload: map[string]any{"i": i}}
		d, err := j.Prepare(ctx, r)
		if err != nil {
			b.Fatal(err)
		}
		j.Begin(ctx, d.Ticket)
		if err := j.Dispatch(ctx, d.Ticket); err != nil {
			b.Fatal(err)
		}
		if err := j.Observe(ctx, d.Ticket, ok); err != nil {
			b.Fatal(err)
		}
	}
}
