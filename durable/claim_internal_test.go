package durable

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/pgtest"
)

// deadWorker records a worker whose heartbeat is an hour old.
func deadWorker(t *testing.T, st *Store, exec string) {
	t.Helper()
	if _, err := st.pool.Exec(context.Background(), `INSERT INTO rlm.workers (executor_id, queue, dead_after, seen_at)
		VALUES ($1, 'q', '1 second', now() - interval '1 hour')`, exec); err != nil {
		t.Fatal(err)
	}
}

func workers(t *testing.T, st *Store) []string {
	t.Helper()
	rows, err := st.pool.Query(context.Background(), `SELECT executor_id FROM rlm.workers ORDER BY executor_id`)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return ids
}

// A claim whose answer is lost with the connection (its statement ran and
// committed) is made again and returns the same dead workers. Before, the
// claim deleted the rows: the lost answer left the dead worker's runs with
// no one to take them over, for good.
func TestClaimSurvivesLostAnswer(t *testing.T) {
	p, st := openViaProxy(t)
	ctx := context.Background()
	deadWorker(t, st, "w-dead")
	p.DropAnswer("UPDATE 1")
	dead, err := st.claimDead(ctx, "w-live")
	if err != nil || !slices.Equal(dead, []string{"w-dead"}) {
		t.Fatalf("claim after a lost answer: %v, %v; want [w-dead]", dead, err)
	}
	if p.Dropped() != 1 {
		t.Fatalf("the proxy dropped %d answers, want 1", p.Dropped())
	}
}

// A claim holds until its take-over is released: the claimer gets the dead
// worker again (a take-over that failed is tried again), another live
// worker does not, and a heartbeat of the worker thought dead withdraws
// the claim.
func TestClaimHoldsUntilReleased(t *testing.T) {
	_, st := openViaProxy(t)
	ctx := context.Background()
	deadWorker(t, st, "w-a")
	deadWorker(t, st, "w-b")
	deadWorker(t, st, "w-c")
	for range 2 {
		if dead, err := st.claimDead(ctx, "w-live"); err != nil || !slices.Equal(dead, []string{"w-a", "w-b", "w-c"}) {
			t.Fatalf("claim: %v, %v", dead, err)
		}
	}
	if dead, err := st.claimDead(ctx, "w-other"); err != nil || len(dead) != 0 {
		t.Fatalf("another worker claimed %v, %v: the claims are fresh", dead, err)
	}
	// w-c beats again: it is live, and its claim is withdrawn.
	if err := st.beat(ctx, "w-c", "q", DefaultDeadAfter); err != nil {
		t.Fatal(err)
	}
	if err := st.release(ctx, "w-live", []string{"w-a", "w-b", "w-c"}); err != nil {
		t.Fatal(err)
	}
	if got := workers(t, st); !slices.Equal(got, []string{"w-c"}) {
		t.Fatalf("after release the workers are %v, want [w-c]", got)
	}
}

// A claim older than the dead worker's dead_after (its claimer died before
// finishing the take-over) is taken by another worker.
func TestStaleClaimIsTakenOver(t *testing.T) {
	_, st := openViaProxy(t)
	ctx := context.Background()
	deadWorker(t, st, "w-dead")
	if _, err := st.pool.Exec(ctx, `UPDATE rlm.workers SET claimed_by = 'w-gone', claimed_at = now() - interval '1 minute'`); err != nil {
		t.Fatal(err)
	}
	if dead, err := st.claimDead(ctx, "w-live"); err != nil || !slices.Equal(dead, []string{"w-dead"}) {
		t.Fatalf("claim of a stale claim: %v, %v", dead, err)
	}
}

// A caller whose context ends while Open waits for the migration lock
// (another process is migrating) is told that it was cancelled or ran out
// of time, never to check PostgreSQL. Before, it got the driver's bare
// error, with no Kind.
func TestOpenEndedWhileMigrationLockedIsNotUnavailable(t *testing.T) {
	db := pgtest.Database(t)
	if _, err := Open(context.Background(), db); err != nil { // the tables exist
		t.Fatal(err)
	}
	holder, err := pgx.Connect(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close(context.Background())
	tx, err := holder.Begin(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(context.Background())
	if _, err := tx.Exec(context.Background(), `SELECT pg_advisory_xact_lock(727100015)`); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		ctx  func() (context.Context, context.CancelFunc)
		want fault.Kind
	}{
		{"cancelled", func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(200*time.Millisecond, cancel)
			return ctx, cancel
		}, fault.KindCancelled},
		{"deadline", func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), 200*time.Millisecond)
		}, fault.KindTimeout},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := tc.ctx()
			defer cancel()
			st, err := Open(ctx, db)
			if err == nil {
				st.Close()
			}
			if fault.KindOf(err) != tc.want {
				t.Fatalf("Open under an ended context: %v, want Kind %s", err, tc.want)
			}
		})
	}
}
