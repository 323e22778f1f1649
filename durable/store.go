// Package durable runs RLM runs as durable DBOS workflows on PostgreSQL:
// every model request and tool call of a run is a checkpoint keyed by its
// place in the run tree, so that a run whose process died is resumed from
// its checkpoints: completed calls are answered from their records, never
// sent or executed again, and charged once, from the record.
//
// The engine does not import this package: it sees only its Executor (see
// engine.Executor), so a program that does not import durable links neither
// DBOS nor the PostgreSQL driver. See docs/distributed.md.
package durable

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/dbos-inc/dbos-transact-golang/dbos"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/fault"
)

// Error kinds reported by durable runs.
const (
	// KindDBUnavailable: the database cannot be reached (after retries).
	KindDBUnavailable fault.Kind = "db_unavailable"
	// KindRunNotFound: --resume or a status query names an unknown run.
	KindRunNotFound fault.Kind = "run_not_found"
	// KindResumeMismatch: a resume's query, context or configuration is
	// not the recorded run's.
	KindResumeMismatch fault.Kind = "resume_mismatch"
	// KindCheckpointCorrupt: a recorded checkpoint cannot be decoded.
	KindCheckpointCorrupt fault.Kind = "checkpoint_corrupt"
)

// Schema is the PostgreSQL schema of rlm's own tables (DBOS keeps its
// tables in schema "dbos").
const Schema = "rlm"

// migrations create rlm's tables; each statement is idempotent, and all
// run in one transaction under an advisory lock, so concurrent starts are
// safe.
var migrations = []string{
	`CREATE SCHEMA IF NOT EXISTS rlm`,
	`CREATE TABLE IF NOT EXISTS rlm.runs (
		run_id      text PRIMARY KEY,
		spec        text NOT NULL,
		query       text NOT NULL,
		created_at  timestamptz NOT NULL DEFAULT now()
	)`,
	`CREATE TABLE IF NOT EXISTS rlm.steps (
		run_id      text NOT NULL,
		key         text NOT NULL,
		kind        text NOT NULL,
		result      jsonb NOT NULL,
		tokens      bigint NOT NULL DEFAULT 0,
		cost_usd    double precision NOT NULL DEFAULT 0,
		created_at  timestamptz NOT NULL DEFAULT now(),
		PRIMARY KEY (run_id, key)
	)`,
	`CREATE TABLE IF NOT EXISTS rlm.trajectories (
		run_id      text PRIMARY KEY,
		events      bytea NOT NULL,
		created_at  timestamptz NOT NULL DEFAULT now()
	)`,
	`CREATE TABLE IF NOT EXISTS rlm.workers (
		executor_id text PRIMARY KEY,
		queue       text NOT NULL,
		dead_after  interval NOT NULL,
		seen_at     timestamptz NOT NULL DEFAULT now(),
		started_at  timestamptz NOT NULL DEFAULT now()
	)`,
	// A dead worker is claimed by the live worker taking over its work,
	// and its row deleted only once that take-over is done (claimDead).
	`ALTER TABLE rlm.workers ADD COLUMN IF NOT EXISTS claimed_by text`,
	`ALTER TABLE rlm.workers ADD COLUMN IF NOT EXISTS claimed_at timestamptz`,
}

// Store is the connection to the database holding rlm's checkpoints.
type Store struct {
	pool  *pgxpool.Pool
	steps stepWriter
}

// Open connects to the database at url (a postgres:// URL), retrying a
// refused connection for up to 10 s, and runs the migrations.
func Open(ctx context.Context, url string) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fault.Wrap(err, fault.PhaseConfig, fault.KindInvalid, "the database URL is not valid").
			WithHint("use postgres://USER@HOST:PORT/DB?sslmode=disable")
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, unavailable(ctx, err)
	}
	s := &Store{pool: pool}
	if err := retryIdempotent(ctx, s.migrate); err != nil {
		pool.Close()
		return nil, err
	}
	return s, nil
}

// Close closes the connections.
func (s *Store) Close() { s.pool.Close() }

// Pool returns the connection pool (shared with DBOS).
func (s *Store) Pool() *pgxpool.Pool { return s.pool }

func (s *Store) migrate(ctx context.Context) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(727100015)`); err != nil {
		return err
	}
	for _, m := range migrations {
		if _, err := tx.Exec(ctx, m); err != nil {
			return err
		}
	}
	return tx.Commit(ctx)
}

// newDBOS creates the DBOS context of cfg, which creates or migrates
// DBOS's schema, under a session advisory lock: DBOS's migrations are not
// safe against concurrent starts on a fresh database (several workers
// started at once fail on duplicate catalog entries or deadlocks). The
// lock is polled with pg_try_advisory_lock, never waited for inside a
// statement: DBOS builds indexes CONCURRENTLY, which waits for every
// running statement, a blocked pg_advisory_lock included.
func (s *Store) newDBOS(ctx context.Context, cfg dbos.Config) (dbos.Context, error) {
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return nil, unavailable(ctx, err)
	}
	defer conn.Release()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		var ok bool
		if err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock(727100016)`).Scan(&ok); err != nil {
			return nil, unavailable(ctx, err)
		}
		if ok {
			break
		}
		if time.Now().After(deadline) {
			return nil, unavailable(ctx, errors.New("another process held the DBOS migration lock for 2 minutes"))
		}
		select {
		case <-ctx.Done():
			return nil, fault.FromContext(fault.PhaseExecute, ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
	defer conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock(727100016)`)
	return dbos.NewContext(context.WithoutCancel(ctx), cfg)
}

// retryWindow is how long a connection failure is retried.
var retryWindow = 10 * time.Second

// retry runs op, retrying for about 10 s the connection failures that
// left nothing done (transient); a connection lost while op's statement
// was on its way (lost) is not retried, since the statement may have run.
// A connection failure that remains is Kind db_unavailable; a failure
// after ctx ended is Kind cancelled or timeout.
func retry(ctx context.Context, op func(context.Context) error) error {
	return retryWhile(ctx, op, transient)
}

// retryIdempotent is retry for an op whose statements may run twice with
// the effect of once (a read, an INSERT ... ON CONFLICT, an upsert, a
// migration of IF NOT EXISTS statements): it also retries a connection
// lost mid-statement, as when the server restarts after the statement
// committed and before its answer came back.
func retryIdempotent(ctx context.Context, op func(context.Context) error) error {
	return retryWhile(ctx, op, func(err error) bool { return transient(err) || lost(err) })
}

func retryWhile(ctx context.Context, op func(context.Context) error, again func(error) bool) error {
	delay := 50 * time.Millisecond
	deadline := time.Now().Add(retryWindow)
	for {
		err := op(ctx)
		if err == nil || !again(err) || ctx.Err() != nil || time.Now().After(deadline) {
			if err != nil && fault.As(err) == nil && (transient(err) || lost(err) || ctx.Err() != nil) {
				return unavailable(ctx, err)
			}
			return err
		}
		select {
		case <-ctx.Done():
			return fault.FromContext(fault.PhaseExecute, ctx.Err())
		case <-time.After(delay):
		}
		delay = min(delay*2, time.Second)
	}
}

// transient reports a connection-level failure before anything was done,
// worth retrying: no connection, a connection closed before the statement
// was sent, or a server shutting down or starting up.
func transient(err error) bool {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		// Class 08: connection exception; 57P0x: operator intervention.
		return len(pe.Code) == 5 && (pe.Code[:2] == "08" || pe.Code[:4] == "57P0")
	}
	var ce *pgconn.ConnectError
	return errors.As(err, &ce) || pgconn.SafeToRetry(err) || pgconn.Timeout(err)
}

// lost reports a connection that broke while a statement was in flight
// (the server went away: end of stream, reset, broken pipe): the
// statement may or may not have run.
func lost(err error) bool {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	return errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) || errors.Is(err, net.ErrClosed) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ECONNABORTED)
}

// reachable waits until the database answers a ping, trying with backoff
// up to every 5 s; it returns ctx's error if ctx ends first.
func (s *Store) reachable(ctx context.Context) error {
	delay := 100 * time.Millisecond
	for {
		pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		err := s.pool.Ping(pctx)
		cancel()
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(delay):
		}
		delay = min(delay*2, 5*time.Second)
	}
}

// unavailable is err, a failure to reach the database, as Kind
// db_unavailable with a hint. When ctx has ended, the failure is the
// caller's, not the database's: it is Kind cancelled or timeout, as ctx's
// end.
func unavailable(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return fault.FromContext(fault.PhaseExecute, errors.Join(ctx.Err(), redacted(err)))
	}
	return fault.Wrap(redacted(err), fault.PhaseExecute, KindDBUnavailable, "the database cannot be reached").
		WithHint("check that PostgreSQL is running and the --db URL is right")
}

// dsnPassword matches the password of a database URL in an error's text.
var dsnPassword = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(postgres(?:ql)?://[^:/@\s]*:)[^@\s]*@`) })

// redacted returns err with the passwords of database URLs in its text
// replaced (DBOS's errors quote the URL).
func redacted(err error) error {
	msg := err.Error()
	if clean := dsnPassword().ReplaceAllString(msg, "${1}REDACTED@"); clean != msg {
		return errors.New(clean)
	}
	return err
}

// hasRun reports whether run is registered.
func (s *Store) hasRun(ctx context.Context, run string) (bool, error) {
	var ok bool
	err := retryIdempotent(ctx, func(ctx context.Context) error {
		return s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM rlm.runs WHERE run_id = $1)`, run).Scan(&ok)
	})
	return ok, err
}

// record is one checkpoint.
type record struct {
	Kind   string
	Result json.RawMessage
}

// lookup returns the checkpoint of (run, key), or ok false.
func (s *Store) lookup(ctx context.Context, run, key string) (rec record, ok bool, err error) {
	err = retryIdempotent(ctx, func(ctx context.Context) error {
		row := s.pool.QueryRow(ctx, `SELECT kind, result FROM rlm.steps WHERE run_id = $1 AND key = $2`, run, key)
		var raw []byte
		switch err := row.Scan(&rec.Kind, &raw); {
		case errors.Is(err, pgx.ErrNoRows):
			ok = false
			return nil
		case err != nil:
			return err
		}
		rec.Result, ok = raw, true
		return nil
	})
	if err == nil && ok {
		if rec.Result, err = decodeResult(rec.Result); err != nil {
			return record{}, false, fault.Wrap(err, fault.PhaseExecute, KindCheckpointCorrupt, "a recorded checkpoint cannot be decoded").
				With("run_id", run).With("key", key)
		}
	}
	return rec, ok, err
}

// wrapKey names the one field of the object a record is stored as when
// jsonb cannot hold its JSON as it is: a NUL character (\u0000), an
// unpaired surrogate escape or bytes that are not UTF-8, all of which
// PostgreSQL refuses (a response or tool result may carry any of them).
// The field holds the JSON's bytes in base64.
const wrapKey = "rlm_base64"

// encodeResult returns the text stored for the record raw: raw itself, or
// its wrapped form when jsonb cannot hold raw, or when raw would read back
// as a wrapped form.
func encodeResult(raw []byte) string {
	if jsonbSafe(raw) && !wrapped(raw) {
		return string(raw)
	}
	return wrap(raw)
}

// wrap returns the wrapped form of raw, which jsonb always accepts.
func wrap(raw []byte) string {
	return `{"` + wrapKey + `":"` + base64.StdEncoding.EncodeToString(raw) + `"}`
}

// decodeResult returns the record stored as raw (see encodeResult).
func decodeResult(raw []byte) (json.RawMessage, error) {
	if !bytes.Contains(raw, []byte(wrapKey)) {
		return raw, nil
	}
	var w map[string]string
	if json.Unmarshal(raw, &w) != nil || len(w) != 1 {
		return raw, nil
	}
	b64, ok := w[wrapKey]
	if !ok {
		return raw, nil
	}
	return base64.StdEncoding.DecodeString(b64)
}

// wrapped reports whether raw is an object of the wrapped form's shape.
func wrapped(raw []byte) bool {
	if !bytes.Contains(raw, []byte("base64")) && !bytes.Contains(raw, []byte(`\u`)) {
		return false
	}
	var w map[string]json.RawMessage
	if json.Unmarshal(raw, &w) != nil || len(w) != 1 {
		return false
	}
	_, ok := w[wrapKey]
	return ok
}

// jsonbSafe reports whether jsonb accepts raw (valid JSON assumed): UTF-8
// without \u0000 or surrogate escapes (encoding/json never writes
// surrogate escapes; an escaped backslash before "u" is counted too,
// which only wraps a record that needed no wrapping).
func jsonbSafe(raw []byte) bool {
	if !utf8.Valid(raw) {
		return false
	}
	for rest := raw; ; {
		i := bytes.Index(rest, []byte(`\u`))
		if i < 0 || i+6 > len(rest) {
			return true
		}
		h := rest[i+2 : i+6]
		if string(h) == "0000" || (h[0]|0x20 == 'd' && bytes.IndexByte([]byte("89abcdefABCDEF"), h[1]) >= 0) {
			return false
		}
		rest = rest[i+2:]
	}
}

// save records a checkpoint; an existing one for the key is kept (the first
// record wins, so a call completed twice is charged from one record).
func (s *Store) save(ctx context.Context, run, key, kind string, result json.RawMessage, u budget.Usage) error {
	st := &pendingStep{run: run, key: key, kind: kind, result: string(result), tokens: u.TotalTokens, cost: u.CostUSD, done: make(chan error, 1)}
	s.steps.mu.Lock()
	s.steps.pending = append(s.steps.pending, st)
	lead := !s.steps.busy
	s.steps.busy = true
	s.steps.mu.Unlock()
	if lead {
		// The statement carries other callers' records too, so no one
		// caller's cancellation may end it (retry bounds it).
		s.writeSteps(context.WithoutCancel(ctx), true)
	}
	return <-st.done
}

// stepWriter commits the records of concurrent calls together: the first
// caller to find it idle writes every record pending then in one
// statement (one commit), and records that arrive meanwhile go in the
// next, written by a goroutine that ends when none is left. A call waits
// for its own record's commit, as with one INSERT per record, at a
// fraction of the commits.
type stepWriter struct {
	mu      sync.Mutex
	pending []*pendingStep
	busy    bool
}

type pendingStep struct {
	run, key, kind, result string // result: the record's JSON
	tokens                 int64
	cost                   float64
	done                   chan error
}

// maxStepRows bounds the records of one statement.
const maxStepRows = 512

// writeSteps writes pending records until none is left; the caller's own
// (first) batch is written on its goroutine, later ones on another.
func (s *Store) writeSteps(ctx context.Context, first bool) {
	for {
		s.steps.mu.Lock()
		n := min(len(s.steps.pending), maxStepRows)
		if n == 0 {
			s.steps.busy = false
			s.steps.mu.Unlock()
			return
		}
		batch := s.steps.pending[:n:n]
		s.steps.pending = s.steps.pending[n:]
		s.steps.mu.Unlock()
		err := s.insertSteps(ctx, batch)
		for _, st := range batch {
			st.done <- err
		}
		if first {
			go s.writeSteps(ctx, false)
			return
		}
	}
}

func (s *Store) insertSteps(ctx context.Context, batch []*pendingStep) error {
	runs, keys, kinds, results := make([]string, len(batch)), make([]string, len(batch)), make([]string, len(batch)), make([]string, len(batch))
	tokens, costs := make([]int64, len(batch)), make([]float64, len(batch))
	for i, st := range batch {
		runs[i], keys[i], kinds[i], results[i], tokens[i], costs[i] = st.run, st.key, st.kind, encodeResult([]byte(st.result)), st.tokens, st.cost
	}
	insert := func(ctx context.Context) error {
		_, err := s.pool.Exec(ctx, `INSERT INTO rlm.steps (run_id, key, kind, result, tokens, cost_usd)
			SELECT r, k, kd, res::jsonb, t, c FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::float8[]) AS u(r, k, kd, res, t, c)
			ON CONFLICT (run_id, key) DO NOTHING`, runs, keys, kinds, results, tokens, costs)
		return err
	}
	err := retryIdempotent(ctx, insert)
	if pe := (*pgconn.PgError)(nil); errors.As(err, &pe) && strings.HasPrefix(pe.Code, "22") {
		// A record jsonb refuses that encodeResult did not foresee (a
		// number beyond numeric's range): one record must not cost the
		// others theirs, so the batch is stored wrapped.
		for i, st := range batch {
			results[i] = wrap([]byte(st.result))
		}
		err = retryIdempotent(ctx, insert)
	}
	return err
}

// StepTotals are the recorded checkpoints of a run.
type StepTotals struct {
	Steps      int64   `json:"steps"`
	ModelCalls int64   `json:"model_calls"`
	ToolCalls  int64   `json:"tool_calls"`
	Tokens     int64   `json:"tokens"`
	CostUSD    float64 `json:"cost_usd"`
}

// Totals sums the checkpoints recorded for run.
func (s *Store) Totals(ctx context.Context, run string) (StepTotals, error) {
	var t StepTotals
	err := retryIdempotent(ctx, func(ctx context.Context) error {
		return s.pool.QueryRow(ctx, `SELECT count(*), count(*) FILTER (WHERE kind = 'model'), count(*) FILTER (WHERE kind = 'tool'),
			coalesce(sum(tokens), 0), coalesce(sum(cost_usd), 0) FROM rlm.steps WHERE run_id = $1`, run).
			Scan(&t.Steps, &t.ModelCalls, &t.ToolCalls, &t.Tokens, &t.CostUSD)
	})
	return t, err
}

// register records a run's spec (the fingerprint of its query, context and
// configuration), or checks it against the recorded one on resume.
func (s *Store) register(ctx context.Context, run, spec, query string, resume bool) error {
	return retryIdempotent(ctx, func(ctx context.Context) error {
		if !resume {
			// A new run's id is fresh, so a row already there is this
			// registration's own, committed by an attempt whose answer
			// was lost; it is checked like a resume's.
			tag, err := s.pool.Exec(ctx, `INSERT INTO rlm.runs (run_id, spec, query) VALUES ($1, $2, $3)
				ON CONFLICT (run_id) DO NOTHING`, run, spec, query)
			if err != nil || tag.RowsAffected() == 1 {
				return err
			}
		}
		var got string
		err := s.pool.QueryRow(ctx, `SELECT spec FROM rlm.runs WHERE run_id = $1`, run).Scan(&got)
		if errors.Is(err, pgx.ErrNoRows) {
			return notFound(run)
		}
		if err != nil {
			return err
		}
		if got != spec {
			return fault.New(fault.PhaseConfig, KindResumeMismatch, "the resumed run had another query, context or configuration").
				With("run_id", run).With("recorded_spec", got).With("spec", spec).
				WithHint("resume with the same query, --context files and flags as the original run")
		}
		return nil
	})
}
