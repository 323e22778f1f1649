package durable

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
)

// claimOrFail takes run's claim, failing t on an error.
func claimOrFail(t *testing.T, st *Store, run string, lost func(error)) *runClaim {
	t.Helper()
	c, err := st.claimRun(context.Background(), run, lost)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// refused checks that run's claim is held by another session.
func refused(t *testing.T, st *Store, run string) {
	t.Helper()
	c, err := st.claimRun(context.Background(), run, nil)
	if err == nil {
		c.release()
		t.Fatal("a second claim of the run was granted")
	}
	fe := fault.As(err)
	if fe == nil || fe.Kind != KindRunInProgress || fe.Hint == "" || !strings.HasPrefix(fmt.Sprint(fe.Detail["holder"]), "rlm pid ") {
		t.Fatalf("second claim: %v (%+v)", err, fe)
	}
}

// claimWhenFree takes run's claim once the server has ended its previous
// holder's session (asynchronously, after the holder went away).
func claimWhenFree(t *testing.T, st *Store, run string) *runClaim {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		c, err := st.claimRun(context.Background(), run, nil)
		if err == nil {
			return c
		}
		if fault.KindOf(err) != KindRunInProgress || time.Now().After(deadline) {
			t.Fatalf("the claim was not freed: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A run's claim is exclusive and does not outlive its holder, whichever
// way the holder ends: released, its process killed (the socket closed
// without a goodbye), its session ended by the server, or its machine gone
// (no more checks: the server ends the idle session).
func TestRunClaimEndsWithItsHolder(t *testing.T) {
	st := openStore(t)
	oldIdle, oldCheck := claimIdleTimeout, claimCheck
	claimIdleTimeout, claimCheck = time.Second, 100*time.Millisecond
	t.Cleanup(func() { claimIdleTimeout, claimCheck = oldIdle, oldCheck })
	// The holder's checks stop at once in every case: a dead process
	// checks nothing, and a check would take the claim back.
	quiet := func(c *runClaim) { c.stop(); <-c.done }
	for _, tc := range []struct {
		name string
		end  func(t *testing.T, c *runClaim)
	}{
		{"released", func(t *testing.T, c *runClaim) { c.release() }},
		{"process killed", func(t *testing.T, c *runClaim) {
			quiet(c)
			_ = c.conn.PgConn().Conn().Close()
		}},
		{"session terminated", func(t *testing.T, c *runClaim) {
			quiet(c)
			if _, err := st.pool.Exec(context.Background(), `SELECT pg_terminate_backend($1)`, c.conn.PgConn().PID()); err != nil {
				t.Fatal(err)
			}
		}},
		{"holder stopped checking", func(t *testing.T, c *runClaim) { quiet(c) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run := "claim-" + strings.ReplaceAll(tc.name, " ", "-")
			c := claimOrFail(t, st, run, nil)
			refused(t, st, run)
			tc.end(t, c)
			next := claimWhenFree(t, st, run)
			refused(t, st, run)
			next.release()
			if c.conn != nil {
				c.conn.Close(context.Background())
			}
		})
	}
}

// A holder whose session ended takes its claim again at its next check;
// if another execution took it meanwhile, the holder is told it lost the
// run (run_in_progress), and stops checking.
func TestRunClaimLostToAnother(t *testing.T) {
	st := openStore(t)
	ctx := context.Background()
	end := func(c *runClaim) {
		c.stop()
		<-c.done
		if _, err := st.pool.Exec(ctx, `SELECT pg_terminate_backend($1)`, c.conn.PgConn().PID()); err != nil {
			t.Fatal(err)
		}
	}

	// Nobody took it: the holder takes it again.
	var lost atomic.Value
	a := claimOrFail(t, st, "retaken", func(err error) { lost.Store(err) })
	end(a)
	deadline := time.Now().Add(time.Minute)
	for a.conn == nil || a.conn.Ping(ctx) != nil {
		if !a.check(ctx) || time.Now().After(deadline) {
			t.Fatalf("the holder did not take its claim again: %v", lost.Load())
		}
	}
	refused(t, st, "retaken")
	a.conn.Close(ctx)

	// Another took it: the holder loses it.
	b := claimOrFail(t, st, "taken", func(err error) { lost.Store(err) })
	end(b)
	other := claimWhenFree(t, st, "taken")
	defer other.release()
	if b.check(ctx) {
		t.Fatal("the holder kept checking a claim another execution holds")
	}
	err, _ := lost.Load().(error)
	if fault.KindOf(err) != KindRunInProgress {
		t.Fatalf("lost with %v", err)
	}
}

// Run releases the run's claim when it returns, however the execution
// ended: completed, failed, or interrupted (handed back).
func TestRunReleasesItsClaim(t *testing.T) {
	st := openStore(t)
	url := st.pool.Config().ConnString()
	for _, tc := range []struct {
		name string
		fn   func(ctx context.Context, cancel context.CancelFunc) (*engine.Result, error)
	}{
		{"completed", func(context.Context, context.CancelFunc) (*engine.Result, error) {
			return &engine.Result{Status: engine.StatusCompleted, Answer: "ok"}, nil
		}},
		{"failed", func(context.Context, context.CancelFunc) (*engine.Result, error) {
			return nil, errors.New("the run function failed")
		}},
		{"interrupted", func(ctx context.Context, cancel context.CancelFunc) (*engine.Result, error) {
			cancel()
			<-ctx.Done()
			return &engine.Result{Status: engine.StatusCancelled, Error: fault.New(fault.PhaseExecute, fault.KindCancelled, "cancelled")}, nil
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run := "released-" + tc.name
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			held := make(chan bool, 1)
			_, _ = Run(ctx, Config{DatabaseURL: url, RunID: run, Spec: "s"}, func(rctx context.Context, x *Executor) (*engine.Result, error) {
				c, err := st.claimRun(context.Background(), run, nil)
				if err == nil {
					c.release()
				}
				held <- fault.KindOf(err) == KindRunInProgress
				return tc.fn(rctx, cancel)
			})
			if !<-held {
				t.Fatal("the run's claim was not held while it ran")
			}
			c := claimOrFail(t, st, run, nil)
			c.release()
		})
	}
}

// An execution whose claim session ends (as in a database restart) while
// another execution takes the claim stops at its next check: Run hands the
// run back (left pending) with run_in_progress.
func TestRunStopsWhenItsClaimIsTaken(t *testing.T) {
	st := openStore(t)
	url := st.pool.Config().ConnString()
	old := claimCheck
	claimCheck = 50 * time.Millisecond
	t.Cleanup(func() { claimCheck = old })
	ctx := context.Background()
	key := claimKey("taken-over")
	other, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close(ctx)
	out, err := Run(ctx, Config{DatabaseURL: url, RunID: "taken-over", Spec: "s"}, func(rctx context.Context, x *Executor) (*engine.Result, error) {
		// Another session waits for the claim, then the holder's session
		// is ended: the waiter gets the lock before the holder's next
		// check can take it back.
		got := make(chan error, 1)
		go func() {
			_, err := other.Exec(ctx, `SELECT pg_advisory_lock($1)`, key)
			got <- err
		}()
		for waiting := false; !waiting && rctx.Err() == nil; {
			if err := st.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted
				AND classid::bigint = ($1::bigint >> 32) & 4294967295 AND objid::bigint = $1::bigint & 4294967295)`, key).Scan(&waiting); err != nil {
				return nil, err
			}
		}
		if rctx.Err() == nil { // else this execution's claim was already lost
			if _, err := st.pool.Exec(ctx, `SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND granted
				AND classid::bigint = ($1::bigint >> 32) & 4294967295 AND objid::bigint = $1::bigint & 4294967295`, key); err != nil {
				return nil, err
			}
		}
		if err := <-got; err != nil {
			return nil, err
		}
		<-rctx.Done()
		return &engine.Result{Status: engine.StatusCancelled, Error: fault.New(fault.PhaseExecute, fault.KindCancelled, "cancelled")}, nil
	})
	if err != nil || out == nil || !out.HandedBack || fault.KindOf(out.Result.Error) != KindRunInProgress {
		t.Fatalf("Run: %v, %+v", err, out)
	}
	if s, err := State(ctx, url, "taken-over"); err != nil || s.Status != "pending" {
		t.Fatalf("the run is %+v (%v), want pending", s, err)
	}
}
