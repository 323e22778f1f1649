package durable

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/rlm-go/rlm/fault"
)

// A run is executed by one process at a time: every execution Run makes
// (a new run, a resume) holds the run's exclusive claim, a PostgreSQL
// session advisory lock on a connection of its own, from before DBOS
// launches until it returns. A second execution of the run is refused at
// once with run_in_progress; the claim ends with its session, so a killed
// process (its socket closed by the kernel) or a vanished machine (its
// session ended by the server's idle timeout and TCP keepalives, set below)
// does not keep it.

// claimCheck is how often a held claim's session is checked; the session
// is ended by the server when no check came for claimIdleTimeout (the
// server drops an idle session, where it supports idle_session_timeout).
// A check waits up to claimWait for the server (a slow answer is not a
// lost session).
var (
	claimCheck       = 2 * time.Second
	claimIdleTimeout = 20 * time.Second
	claimWait        = 10 * time.Second
)

// claimKey is the advisory lock key of run: 64 bits of a digest of its id
// (a collision, one in 2^64 for a pair of runs, would only make them
// exclude each other). The one-key form of the lock is a key space of its
// own besides the migration locks' (the same form, fixed small keys).
func claimKey(run string) int64 {
	h := sha256.Sum256([]byte("rlm.run\x00" + run))
	return int64(binary.BigEndian.Uint64(h[:8]))
}

// runClaim is a held claim on a run.
type runClaim struct {
	store *Store
	run   string
	key   int64
	lost  func(error)

	mu   sync.Mutex
	conn *pgx.Conn

	stop context.CancelFunc
	done chan struct{}
}

// claimRun takes run's exclusive claim, or refuses with run_in_progress
// when another session holds it. lost is called (at most once) if the
// claim is lost while held and another execution took it meanwhile: the
// holder must stop executing the run. release ends the claim.
//
// The claim is checked every claimCheck on its own goroutine; a claim
// whose session ended is taken again at the next check, and a claim
// another execution took in between is lost. So two executions overlap
// only for less than claimCheck, after the holder's session ended while it
// went on (the database restarted, or ended a session that missed its
// checks for claimIdleTimeout).
func (s *Store) claimRun(ctx context.Context, run string, lost func(error)) (*runClaim, error) {
	c := &runClaim{store: s, run: run, key: claimKey(run), lost: lost, done: make(chan struct{})}
	var conn *pgx.Conn
	// A statement whose connection broke may be tried again: the lock, if
	// it was taken, ended with that session.
	err := retryIdempotent(ctx, func(ctx context.Context) error {
		var err error
		conn, err = c.take(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	c.conn = conn
	wctx, stop := context.WithCancel(context.WithoutCancel(ctx))
	c.stop = stop
	go c.watch(wctx)
	return c, nil
}

// take opens the claim's session and takes the lock: a new session, so
// that the lock ends with it (a pooled connection outlives its use).
func (c *runClaim) take(ctx context.Context) (*pgx.Conn, error) {
	cfg := c.store.pool.Config().ConnConfig.Copy()
	host, _ := os.Hostname()
	app := fmt.Sprintf("rlm pid %d on %s", os.Getpid(), host)
	if len(app) > 63 {
		app = app[:63]
	}
	cfg.RuntimeParams["application_name"] = app
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	// The server ends the session of a process that stopped checking it
	// (idle_session_timeout, PostgreSQL 14+) or whose machine is gone (TCP
	// keepalives), and the lock with it. Best effort: a server without
	// the setting keeps the session until the connection is closed.
	for _, set := range []string{
		fmt.Sprintf("SET idle_session_timeout = %d", claimIdleTimeout.Milliseconds()),
		"SET tcp_keepalives_idle = 10", "SET tcp_keepalives_interval = 5", "SET tcp_keepalives_count = 2",
	} {
		if _, err := conn.Exec(ctx, set); err != nil && conn.IsClosed() {
			return nil, err
		}
	}
	var ok bool
	if err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock($1)`, c.key).Scan(&ok); err != nil {
		conn.Close(context.WithoutCancel(ctx))
		return nil, err
	}
	if !ok {
		holder := c.holder(ctx, conn)
		conn.Close(context.WithoutCancel(ctx))
		return nil, runInProgress(c.run, holder)
	}
	return conn, nil
}

// holder names the session that holds the claim (its application name,
// which names the process and machine), or "" when it cannot be read.
func (c *runClaim) holder(ctx context.Context, conn *pgx.Conn) string {
	var app string
	_ = conn.QueryRow(ctx, `SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
		WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1 AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
			AND l.classid::bigint = ($1::bigint >> 32) & 4294967295 AND l.objid::bigint = $1::bigint & 4294967295 LIMIT 1`,
		c.key).Scan(&app)
	return app
}

// watch checks the claim's session every claimCheck, which also keeps the
// server from ending it as idle, until the claim is released or lost.
func (c *runClaim) watch(ctx context.Context) {
	defer close(c.done)
	t := time.NewTicker(claimCheck)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if !c.check(ctx) {
			return
		}
	}
}

// check checks the claim's session once. A session that broke (the server
// restarted or ended it, the connection was cut) lost the lock: it is
// taken again on a new session; if another execution took it meanwhile,
// lost is called and check reports false (the claim is over).
func (c *runClaim) check(ctx context.Context) bool {
	c.mu.Lock()
	conn := c.conn
	c.mu.Unlock()
	if conn != nil {
		pctx, cancel := context.WithTimeout(ctx, claimWait)
		err := conn.Ping(pctx)
		cancel()
		if err == nil || ctx.Err() != nil {
			return true
		}
		conn.Close(context.Background())
		c.mu.Lock()
		c.conn = nil
		c.mu.Unlock()
	}
	// Take the claim again; while the database cannot be reached, the
	// execution's own statements fail too (db_unavailable), and the next
	// check tries again.
	tctx, cancel := context.WithTimeout(ctx, claimWait)
	conn, err := c.take(tctx)
	cancel()
	if fault.KindOf(err) == KindRunInProgress {
		if c.lost != nil {
			c.lost(fault.As(err).WithHint("this execution lost its claim on the run (its database session ended) and another execution took it: this one stopped and left the run to it"))
		}
		return false
	}
	if err == nil {
		c.mu.Lock()
		c.conn = conn
		c.mu.Unlock()
	}
	return true
}

// release ends the claim: the watching stops and the session is closed,
// which releases the lock (unlocked first, so that a close that cannot
// reach the server does not keep it).
func (c *runClaim) release() {
	c.stop()
	<-c.done
	c.mu.Lock()
	conn := c.conn
	c.conn = nil
	c.mu.Unlock()
	if conn == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, _ = conn.Exec(ctx, `SELECT pg_advisory_unlock($1)`, c.key)
	_ = conn.Close(ctx)
}

// runInProgress is the refusal of an execution of a run another one holds.
func runInProgress(run, holder string) error {
	e := fault.New(fault.PhaseConfig, KindRunInProgress, "another process is executing this durable run").With("run_id", run)
	if holder != "" {
		e = e.With("holder", holder)
	}
	return e.WithHint("a run is executed by one process at a time: wait for it (rlm status --db URL " + run + "), or resume it once that process is gone (a killed process releases the run at once)")
}
