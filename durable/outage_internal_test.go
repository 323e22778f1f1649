package durable

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/pgtest"
	"github.com/rlm-go/rlm/model"
)

// openViaProxy opens a Store on a fresh database through a proxy that can
// break its connections; both are closed when t ends.
func openViaProxy(t *testing.T) (*pgtest.Proxy, *Store) {
	t.Helper()
	p, viaProxy := pgtest.NewProxy(t, pgtest.Database(t))
	st, err := Open(context.Background(), viaProxy)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	return p, st
}

// A record whose statement committed but whose answer was lost with the
// connection (a server restart at that moment) is written again on a new
// connection: the save succeeds and the record exists once. Before, the
// lost answer ("unexpected EOF") was not retried and the run holding the
// response ended as if cancelled.
func TestSaveSurvivesLostAnswer(t *testing.T) {
	p, st := openViaProxy(t)
	p.DropAnswer("INSERT 0 1") // the reply of the first record's statement
	if err := st.save(context.Background(), "r", "k1", "model", json.RawMessage(`{"text":"paid for"}`), budget.Usage{TotalTokens: 7}); err != nil {
		t.Fatalf("save after a lost answer: %v", err)
	}
	if p.Dropped() != 1 {
		t.Fatalf("the proxy dropped %d answers, want 1", p.Dropped())
	}
	tot, err := st.Totals(context.Background(), "r")
	if err != nil || tot.Steps != 1 || tot.Tokens != 7 {
		t.Fatalf("totals %+v, %v: want one record of 7 tokens", tot, err)
	}
	if rec, ok, err := st.lookup(context.Background(), "r", "k1"); err != nil || !ok || string(rec.Result) != `{"text": "paid for"}` {
		t.Fatalf("record %s, %v, %v", rec.Result, ok, err)
	}
}

// Saves and reads go on through a short outage (new connections refused,
// open ones cut), and one that outlasts the retry window fails with Kind
// db_unavailable, never with the driver's bare error.
func TestOutage(t *testing.T) {
	p, st := openViaProxy(t)
	ctx := context.Background()
	if err := st.save(ctx, "r", "before", "model", json.RawMessage(`{}`), budget.Usage{}); err != nil {
		t.Fatal(err)
	}

	t.Run("short", func(t *testing.T) {
		end := p.Outage()
		time.AfterFunc(300*time.Millisecond, end)
		var wg sync.WaitGroup
		for i := range 20 {
			wg.Go(func() {
				if err := st.save(ctx, "r", fmt.Sprint("short", i), "model", json.RawMessage(`{}`), budget.Usage{}); err != nil {
					t.Errorf("save %d through a 300 ms outage: %v", i, err)
				}
			})
		}
		wg.Wait()
		if tot, err := st.Totals(ctx, "r"); err != nil || tot.Steps != 21 {
			t.Fatalf("totals %+v, %v: want 21 records", tot, err)
		}
	})

	t.Run("long", func(t *testing.T) {
		SetRetryWindow(t, 400*time.Millisecond)
		p.DropAnswer("INSERT 0 1")
		end := p.OutageAfterDrop()
		defer end()
		err := st.save(ctx, "r", "long", "model", json.RawMessage(`{}`), budget.Usage{})
		if fault.KindOf(err) != KindDBUnavailable {
			t.Fatalf("save through an outage longer than the retries: %v, want Kind %s", err, KindDBUnavailable)
		}
		if fe := fault.As(err); fe.Hint == "" {
			t.Fatalf("error %+v: want a hint", fe)
		}
	})
}

// A sub-call that fails because the database cannot be reached (the run's
// queue, when its calls are queued) ends the execution, as a record that
// cannot be written does; any other failed call is the run's to handle.
// Before, each queued call of a fan-out failed on its own during an
// outage and became an error value, and the run went on with them.
func TestUnreachableQueueEndsTheExecution(t *testing.T) {
	st := openStore(t)
	for _, tc := range []struct {
		err  error
		ends bool
	}{
		{unavailable(context.Background(), errors.New("connection refused")), true},
		{fault.New(fault.PhaseProvider, fault.KindTimeout, "the model did not answer"), false},
	} {
		var ended error
		x := NewExecutor(st, "r", func(err error) { ended = err })
		p := model.ProviderFunc(func(context.Context, model.Request) (*model.Response, error) { return nil, tc.err })
		_, err := x.Model(context.Background(), engine.Call{Kind: engine.CallModel, Turn: 1}, model.Request{Model: "m"}, p)
		if fault.KindOf(err) != fault.KindOf(tc.err) {
			t.Errorf("%v: the call returned %v", tc.err, err)
		}
		if got := ended != nil; got != tc.ends || tc.ends && fault.KindOf(ended) != KindDBUnavailable {
			t.Errorf("%v: execution ended with %v, want ended=%v", tc.err, ended, tc.ends)
		}
	}
}

// A call whose record cannot be looked up because the database stays
// unreachable ends the execution, as a record that cannot be written
// does, and is neither sent nor run: in a resumed run every call looks its
// record up, and a fan-out would otherwise turn each into an error value
// and finish the run with them, recorded as its final outcome.
func TestUnreachableLookupEndsTheExecution(t *testing.T) {
	SetRetryWindow(t, 300*time.Millisecond)
	for _, kind := range []string{engine.CallModel, engine.CallTool} {
		t.Run(kind, func(t *testing.T) {
			p, st := openViaProxy(t)
			ctx := context.Background()
			var ended error
			x := NewExecutor(st, "r", func(err error) { ended = err })
			sent := 0
			prov := model.ProviderFunc(func(context.Context, model.Request) (*model.Response, error) {
				sent++
				return &model.Response{Text: "ok"}, nil
			})
			tool := func(context.Context) (json.RawMessage, error) { sent++; return json.RawMessage(`{}`), nil }
			call := func(turn int) error {
				c := engine.Call{Kind: kind, Turn: turn}
				if kind == engine.CallModel {
					_, err := x.Model(ctx, c, model.Request{Model: "m"}, prov)
					return err
				}
				_, err := x.Tool(ctx, c, "t", json.RawMessage(`{}`), tool)
				return err
			}
			if err := call(1); err != nil { // the run has a record now
				t.Fatal(err)
			}
			// A new execution of the run, which has records.
			x = NewExecutor(st, "r", func(err error) { ended = err })
			if err := call(1); err != nil || sent != 1 {
				t.Fatalf("replay: %v, sent %d", err, sent)
			}
			end := p.Outage()
			defer end()
			err := call(2)
			if fault.KindOf(err) != KindDBUnavailable {
				t.Fatalf("the call returned %v, want Kind %s", err, KindDBUnavailable)
			}
			if sent != 1 {
				t.Fatalf("sent %d calls, want 1", sent)
			}
			if fault.KindOf(ended) != KindDBUnavailable {
				t.Fatalf("execution ended with %v, want Kind %s", ended, KindDBUnavailable)
			}
		})
	}
}
