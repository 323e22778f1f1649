// Package effect is the durable journal for effectful calls.
//
// Every effectful call gets an Identity: the journal's store id and epoch, a
// call id derived from the operation (the caller's run id and its call id
// within the run, the payload fingerprint and an optional logical key), an
// attempt id with lineage (sequence, mode, parent) and an idempotency key
// for providers. Attempts move through
//
//	prepared → admitted → dispatching → observed
//
// The dispatching record is written and synced to disk before the handler
// runs, so a crash can never lose the fact that an external effect may have
// happened. After a restart, an attempt found dispatching without an
// observation becomes indeterminate and its call reports
// reconciliation_required: it is never run again until a trusted host
// resolves it (Resolve). A repeat of an observed call (same run, same call
// id, same payload) replays the observation. A changed payload, another run
// or another call id is a new call, never a retry.
//
// The journal is a SQLite file (pure Go, no cgo) in WAL mode. Any number of
// Journals, in one process or many, may share a file: SQLite serializes the
// writes (BEGIN IMMEDIATE, busy timeout). Each open Journal holds an owner
// lease (an advisory lock on a file under "<path>.owners/"), so an attempt
// left dispatching by an owner whose lease is gone is known to be
// abandoned, while one held by a live owner is in progress.
package effect

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	_ "modernc.org/sqlite" // database/sql driver "sqlite"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/fingerprint"
)

// PhaseEffect is the phase of errors from this package.
const PhaseEffect fault.Phase = "effect"

// Error kinds reported by this package.
const (
	KindStoreRequired      fault.Kind = "effect_store_required"   // no journal is open
	KindJournalLocked      fault.Kind = "journal_locked"          // the journal stayed busy past the busy timeout
	KindJournalIO          fault.Kind = "journal_io"              // SQLite or file failure
	KindStaleTicket        fault.Kind = "stale_ticket"            // ticket from another store or epoch, or unknown attempt
	KindInvalidTransition  fault.Kind = "invalid_transition"      // the attempt is not in a state that allows the step
	KindInvalidRequest     fault.Kind = "invalid_effect_request"  // the request cannot be normalized
	KindInvalidRetry       fault.Kind = "invalid_retry"           // retry/resample without an allowed parent
	KindObservationChanged fault.Kind = "observation_immutable"   // a second, different observation
	KindClosed             fault.Kind = "journal_closed"          // the journal was closed
	KindReconciliation     fault.Kind = "reconciliation_required" // outcome unknown; host must resolve
	KindInProgress         fault.Kind = "effect_in_progress"      // another owner is executing the attempt
	KindTerminal           fault.Kind = "effect_terminal"         // the call was abandoned
	KindUnknownRun         fault.Kind = "unknown_run"             // a resumed run id has no record in the journal
)

// State is the state of an attempt.
type State string

// Attempt states.
const (
	StatePrepared             State = "prepared"
	StateAdmitted             State = "admitted"
	StateDispatching          State = "dispatching"
	StateObserved             State = "observed"
	StateCancelledBeforeClaim State = "cancelled_before_claim"
	StateCancelledPreDispatch State = "cancelled_pre_dispatch"
	StateIndeterminate        State = "indeterminate"
	StateRetryAuthorized      State = "retry_authorized"
	StateAbandoned            State = "abandoned"
)

// Mode is how an attempt relates to its call.
type Mode string

// Attempt modes.
const (
	ModeInitial  Mode = "initial"
	ModeRetry    Mode = "retry"
	ModeResample Mode = "resample"
)

// Request describes one effectful call. Payload and Semantics are encoded
// as canonical JSON; together with Kind they form the payload fingerprint.
// The call id is derived from RunID, RunCallID, LogicalKey and the
// fingerprint: the same payload in another run, or under another call id of
// the same run, is another call. Metadata never enters the identity.
type Request struct {
	Kind       string // for example "tool"
	RunID      string // the run or session the call belongs to ("" for none)
	RunCallID  string // the caller's id of this call within the run
	Payload    any    // what is executed: tool name, arguments, details, target
	Semantics  any    // how: effect class, executor identity
	LogicalKey string // optional caller-chosen key scoping the call id
	Mode       Mode   // "" or ModeInitial, ModeRetry, ModeResample
	Parent     string // parent attempt id for retry and resample
}

// Identity is the durable identity of one attempt.
type Identity struct {
	StoreID        string `json:"store_id"`
	Epoch          int64  `json:"epoch"`
	RunID          string `json:"run_id,omitempty"`
	RunCallID      string `json:"run_call_id,omitempty"`
	CallID         string `json:"call_id"`
	Fingerprint    string `json:"fingerprint"`
	AttemptID      string `json:"attempt_id"`
	Sequence       int64  `json:"sequence"`
	Mode           Mode   `json:"mode"`
	Parent         string `json:"parent,omitempty"`
	IdempotencyKey string `json:"idempotency_key"`
}

// Ticket authorizes the owner of an attempt to drive it. It is plain data;
// the journal re-checks it against the durable record at every step.
type Ticket struct {
	Identity
}

// Observation is the immutable outcome of a dispatched attempt.
type Observation struct {
	Status      string          `json:"status"` // "succeeded" or "failed"
	Value       json.RawMessage `json:"value,omitempty"`
	Error       *fault.Error    `json:"error,omitempty"`
	OutputBytes int64           `json:"output_bytes"`
	Provenance  string          `json:"provenance,omitempty"`
}

// Observation statuses.
const (
	ObservedSucceeded = "succeeded"
	ObservedFailed    = "failed"
)

// Action is what the caller must do after Prepare or Begin.
type Action string

// Actions.
const (
	ActionExecute    Action = "execute"                 // run it (after Begin: you own it)
	ActionReplay     Action = "replay"                  // use Decision.Observation
	ActionInProgress Action = "in_progress"             // another owner is running it
	ActionReconcile  Action = "reconciliation_required" // outcome unknown; do not run
	ActionTerminal   Action = "terminal"                // abandoned; do not run
)

// Decision is the journal's answer for a call.
type Decision struct {
	Action      Action       `json:"action"`
	Ticket      Ticket       `json:"ticket"`
	State       State        `json:"state"`
	Observation *Observation `json:"observation,omitempty"`
}

// Err returns the structured error for the non-runnable actions
// in_progress, reconciliation_required and terminal, and nil otherwise.
func (d Decision) Err() error {
	var k fault.Kind
	switch d.Action {
	case ActionInProgress:
		k = KindInProgress
	case ActionReconcile:
		k = KindReconciliation
	case ActionTerminal:
		k = KindTerminal
	default:
		return nil
	}
	fe := fault.New(PhaseEffect, k, "the effect cannot run now").
		With("attempt_id", d.Ticket.AttemptID).With("state", string(d.State))
	switch d.Action {
	case ActionInProgress:
		fe.WithHint("another live process is running this effect; wait for it to finish")
	case ActionReconcile:
		fe.WithHint("the process running this effect stopped before recording its outcome: check the target; " +
			"a host resolves the attempt (Journal.Resolve), or a new run (without --resume) performs it again")
	case ActionTerminal:
		fe.WithHint("the effect was abandoned; a new run performs it again")
	}
	return fe
}

// Attempt is the durable record of one attempt.
type Attempt struct {
	Identity
	State       State        `json:"state"`
	Reason      string       `json:"reason,omitempty"`
	Observation *Observation `json:"observation,omitempty"`
	Revision    int64        `json:"revision"`
}

// Journal is an open effect journal. It is safe for concurrent use; the
// writes of one Journal are serialized, and SQLite serializes those of
// Journals sharing the file.
type Journal struct {
	mu        sync.Mutex
	db        *sql.DB
	conn      *sql.Conn
	lease     *os.File
	leasePath string
	owners    string // directory of owner leases
	storeID   string
	epoch     int64
	session   string // this Journal's owner id
	closed    bool
	runs      map[string]bool // run ids this Journal has recorded (under mu)
}

// DefaultFile is the journal file name inside a state directory.
const DefaultFile = "effects.db"

// DefaultStateDir returns $XDG_STATE_HOME/rlm, or ~/.local/state/rlm.
func DefaultStateDir() (string, error) {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "rlm"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fault.Wrap(err, PhaseEffect, KindJournalIO, "no home directory for the default state directory")
	}
	return filepath.Join(home, ".local", "state", "rlm"), nil
}

// OpenDir creates dir if needed and opens dir/effects.db.
func OpenDir(dir string) (*Journal, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fault.Wrap(err, PhaseEffect, KindJournalIO, "cannot create state directory")
	}
	return Open(filepath.Join(dir, DefaultFile))
}

const schema = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS calls (
	call_id     TEXT PRIMARY KEY,
	epoch       INTEGER NOT NULL,
	kind        TEXT NOT NULL,
	fingerprint TEXT NOT NULL,
	logical_key TEXT NOT NULL,
	created_at  INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS attempts (
	attempt_id      TEXT PRIMARY KEY,
	call_id         TEXT NOT NULL REFERENCES calls(call_id),
	sequence        INTEGER NOT NULL,
	mode            TEXT NOT NULL,
	parent          TEXT NOT NULL,
	idempotency_key TEXT NOT NULL,
	state           TEXT NOT NULL,
	owner           TEXT NOT NULL,
	reason          TEXT NOT NULL DEFAULT '',
	observation     TEXT,
	revision        INTEGER NOT NULL,
	updated_at      INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS attempts_by_call ON attempts(call_id, sequence);
CREATE TABLE IF NOT EXISTS runs (
	run_id     TEXT PRIMARY KEY,
	created_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS approvals (
	run_id      TEXT NOT NULL,
	approval_id TEXT NOT NULL,
	call_id     TEXT NOT NULL,
	run_call_id TEXT NOT NULL,
	fingerprint TEXT NOT NULL,
	context     TEXT NOT NULL,
	tool        TEXT NOT NULL,
	effect      TEXT NOT NULL,
	args        TEXT NOT NULL,
	details     TEXT NOT NULL,
	state       TEXT NOT NULL,
	reason      TEXT NOT NULL,
	created_at  INTEGER NOT NULL,
	decided_at  INTEGER,
	PRIMARY KEY (run_id, approval_id)
);
CREATE INDEX IF NOT EXISTS approvals_by_call ON approvals(call_id);
`

// BusyTimeout is how long a write waits for another writer of the same
// file before failing with Kind journal_locked.
const BusyTimeout = 10 * time.Second

// Open opens (creating if needed) the journal file at path. Any number of
// Journals may have the same file open; each takes its own owner lease.
func Open(path string) (*Journal, error) {
	owners := path + ".owners"
	if err := os.MkdirAll(owners, 0o700); err != nil {
		return nil, ioErr(err, "create owner lease directory")
	}
	session := randomID("owner-")
	leasePath := filepath.Join(owners, session+".lock")
	lease, err := takeLease(leasePath)
	if err != nil {
		return nil, err
	}
	j, err := openRetry(path, session)
	if err != nil {
		releaseLease(lease, leasePath)
		return nil, err
	}
	j.lease, j.leasePath, j.owners = lease, leasePath, owners
	j.collectLeases()
	return j, nil
}

// openRetry is open, retried while the file is busy: SQLite does not call
// its busy handler for every lock taken while connecting (switching a new
// file to WAL, recovering the WAL index), so concurrent first opens can
// fail with SQLITE_BUSY at once.
func openRetry(path, session string) (*Journal, error) {
	deadline := time.Now().Add(BusyTimeout)
	for wait := time.Millisecond; ; wait = min(2*wait, 50*time.Millisecond) {
		j, err := open(path, session)
		if err == nil || fault.KindOf(err) != KindJournalLocked || time.Now().After(deadline) {
			return j, err
		}
		time.Sleep(wait)
	}
}

func open(path, session string) (*Journal, error) {
	dsn := "file:" + path + fmt.Sprintf("?_txlock=immediate&_pragma=busy_timeout(%d)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=foreign_keys(1)", BusyTimeout.Milliseconds())
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, ioErr(err, "open journal")
	}
	db.SetMaxOpenConns(1)
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		db.Close()
		return nil, ioErr(err, "open journal")
	}
	j := &Journal{db: db, conn: conn, session: session}
	if err := j.init(ctx); err != nil {
		conn.Close()
		db.Close()
		return nil, err
	}
	return j, nil
}

// collectLeases removes the lease files of owners that are gone. Their
// attempts keep their owner id; a missing lease means the owner is gone.
func (j *Journal) collectLeases() {
	entries, err := os.ReadDir(j.owners)
	if err != nil {
		return
	}
	for _, e := range entries {
		name := e.Name()
		if filepath.Ext(name) != ".lock" || name == j.session+".lock" {
			continue
		}
		collectLease(filepath.Join(j.owners, name))
	}
}

// alive reports whether owner (an owner id recorded on an attempt) is this
// Journal or another open Journal.
func (j *Journal) alive(owner string) bool {
	if owner == j.session {
		return true
	}
	if j.owners == "" || owner == "" || filepath.Base(owner) != owner {
		return false
	}
	return leaseHeld(filepath.Join(j.owners, owner+".lock"))
}

func (j *Journal) init(ctx context.Context) error {
	tx, err := j.conn.BeginTx(ctx, nil) // immediate: one initializer at a time
	if err != nil {
		return ioErr(err, "begin")
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, schema); err != nil {
		return ioErr(err, "create schema")
	}
	if err := migrate(ctx, tx); err != nil {
		return err
	}
	get := func(key, def string) (string, error) {
		var v string
		err := tx.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = ?`, key).Scan(&v)
		if errors.Is(err, sql.ErrNoRows) {
			_, err = tx.ExecContext(ctx, `INSERT INTO meta(key, value) VALUES(?, ?)`, key, def)
			return def, err
		}
		return v, err
	}
	if j.storeID, err = get("store_id", randomID("store-")); err != nil {
		return ioErr(err, "read store id")
	}
	epoch, err := get("epoch", "1")
	if err != nil {
		return ioErr(err, "read epoch")
	}
	if _, err := fmt.Sscan(epoch, &j.epoch); err != nil {
		return ioErr(err, "parse epoch")
	}
	if err := tx.Commit(); err != nil {
		return ioErr(err, "commit")
	}
	return nil
}

// migrate adds the columns newer versions need to a journal written by an
// older one. Calls recorded before runs existed keep run_id "" and can never
// match a call of a run. Tables newer versions add (runs, approvals) are
// created by the schema itself (CREATE TABLE IF NOT EXISTS).
func migrate(ctx context.Context, tx *sql.Tx) error {
	rows, err := tx.QueryContext(ctx, `SELECT name FROM pragma_table_info('calls')`)
	if err != nil {
		return ioErr(err, "read schema")
	}
	has := map[string]bool{}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			rows.Close()
			return ioErr(err, "read schema")
		}
		has[name] = true
	}
	rows.Close()
	for _, col := range []string{"run_id", "run_call_id"} {
		if has[col] {
			continue
		}
		if _, err := tx.ExecContext(ctx, `ALTER TABLE calls ADD COLUMN `+col+` TEXT NOT NULL DEFAULT ''`); err != nil {
			return ioErr(err, "migrate schema")
		}
	}
	if _, err := tx.ExecContext(ctx, `CREATE INDEX IF NOT EXISTS calls_by_run ON calls(run_id)`); err != nil {
		return ioErr(err, "migrate schema")
	}
	return nil
}

// Close closes the journal and releases its owner lease. Close is
// idempotent.
func (j *Journal) Close() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.closed {
		return nil
	}
	j.closed = true
	err := errors.Join(j.conn.Close(), j.db.Close())
	releaseLease(j.lease, j.leasePath)
	if err != nil {
		return ioErr(err, "close journal")
	}
	return nil
}

// StoreID returns the durable random namespace of this journal.
func (j *Journal) StoreID() string { return j.storeID }

// Epoch returns the journal epoch.
func (j *Journal) Epoch() int64 { return j.epoch }

// ioErr wraps a file or SQLite failure. A writer that stayed busy past the
// busy timeout is reported as journal_locked.
func ioErr(err error, what string) error {
	var ce interface{ Code() int }
	if errors.As(err, &ce) {
		switch ce.Code() & 0xff {
		case 5, 6: // SQLITE_BUSY, SQLITE_LOCKED
			return fault.Wrap(err, PhaseEffect, KindJournalLocked, "the effect journal stayed busy: "+what).
				With("busy_timeout_ms", BusyTimeout.Milliseconds()).
				WithHint("another rlm process is writing the same journal; retry, or give this run its own --state-dir")
		}
	}
	return fault.Wrap(err, PhaseEffect, KindJournalIO, what)
}

func randomID(prefix string) string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return prefix + hex.EncodeToString(b[:])
}

func hashOf(v any) string {
	s := fingerprint.MustOf(v)
	return s[len("sha256:"):]
}

// identityFor computes the call part of the identity of req.
func (j *Journal) identityFor(req Request) (Identity, error) {
	if req.Kind == "" {
		return Identity{}, fault.New(PhaseEffect, KindInvalidRequest, "request kind is required")
	}
	fp, err := fingerprint.Of(map[string]any{"kind": req.Kind, "payload": req.Payload, "semantics": req.Semantics})
	if err != nil {
		return Identity{}, fault.Wrap(err, PhaseEffect, KindInvalidRequest, "request is not canonical JSON")
	}
	key := map[string]any{"store": j.storeID, "epoch": j.epoch, "logical_key": req.LogicalKey, "fingerprint": fp}
	if req.RunID != "" || req.RunCallID != "" {
		// Calls without a run keep the identity they had before runs
		// existed.
		key["run"], key["run_call"] = req.RunID, req.RunCallID
	}
	callID := "call-" + hashOf(key)
	return Identity{StoreID: j.storeID, Epoch: j.epoch, RunID: req.RunID, RunCallID: req.RunCallID, CallID: callID, Fingerprint: fp}, nil
}

func (j *Journal) withAttempt(id Identity, seq int64, mode Mode, parent string) Identity {
	id.Sequence, id.Mode, id.Parent = seq, mode, parent
	id.AttemptID = "att-" + hashOf(map[string]any{"call": id.CallID, "seq": seq, "mode": string(mode), "parent": parent})
	id.IdempotencyKey = "idem-" + hashOf(map[string]any{"store": id.StoreID, "attempt": id.AttemptID})[:32]
	return id
}

type txn struct {
	*sql.Tx
	ctx context.Context
	j   *Journal
}

// write runs fn in one transaction under the journal mutex. When durable is
// set the commit is synced to disk (synchronous=FULL) before write returns.
func (j *Journal) write(ctx context.Context, durable bool, fn func(tx txn) error) error {
	ctx = context.WithoutCancel(ctx) // a started journal write always completes
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.closed {
		return fault.New(PhaseEffect, KindClosed, "the effect journal is closed")
	}
	if durable {
		if _, err := j.conn.ExecContext(ctx, `PRAGMA synchronous=FULL`); err != nil {
			return ioErr(err, "set synchronous")
		}
		defer j.conn.ExecContext(ctx, `PRAGMA synchronous=NORMAL`)
	}
	tx, err := j.conn.BeginTx(ctx, nil)
	if err != nil {
		return ioErr(err, "begin")
	}
	if err := fn(txn{Tx: tx, ctx: ctx, j: j}); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return ioErr(err, "commit")
	}
	return nil
}

func (tx txn) load(attemptID string) (Attempt, string, bool, error) {
	var a Attempt
	var owner string
	var obs sql.NullString
	err := tx.QueryRowContext(tx.ctx, `
		SELECT a.attempt_id, a.call_id, a.sequence, a.mode, a.parent, a.idempotency_key, a.state, a.owner, a.reason, a.observation, a.revision, c.fingerprint, c.epoch, c.run_id, c.run_call_id
		FROM attempts a JOIN calls c ON c.call_id = a.call_id WHERE a.attempt_id = ?`, attemptID).
		Scan(&a.AttemptID, &a.CallID, &a.Sequence, &a.Mode, &a.Parent, &a.IdempotencyKey, &a.State, &owner, &a.Reason, &obs, &a.Revision, &a.Fingerprint, &a.Epoch, &a.RunID, &a.RunCallID)
	if errors.Is(err, sql.ErrNoRows) {
		return Attempt{}, "", false, nil
	}
	if err != nil {
		return Attempt{}, "", false, ioErr(err, "load attempt")
	}
	a.StoreID = tx.j.storeID
	if obs.Valid {
		a.Observation = new(Observation)
		if err := json.Unmarshal([]byte(obs.String), a.Observation); err != nil {
			return Attempt{}, "", false, ioErr(err, "decode observation")
		}
	}
	return a, owner, true, nil
}

func (tx txn) latest(callID string) (string, bool, error) {
	var id string
	err := tx.QueryRowContext(tx.ctx, `SELECT attempt_id FROM attempts WHERE call_id = ? ORDER BY sequence DESC LIMIT 1`, callID).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, ioErr(err, "find attempt")
	}
	return id, true, nil
}

func (tx txn) insertAttempt(id Identity) error {
	_, err := tx.ExecContext(tx.ctx, `
		INSERT INTO attempts(attempt_id, call_id, sequence, mode, parent, idempotency_key, state, owner, revision, updated_at)
		VALUES(?, ?, ?, ?, ?, ?, ?, ?, 1, ?)`,
		id.AttemptID, id.CallID, id.Sequence, string(id.Mode), id.Parent, id.IdempotencyKey, string(StatePrepared), tx.j.session, time.Now().UnixMilli())
	if err != nil {
		return ioErr(err, "insert attempt")
	}
	return nil
}

func (tx txn) setState(attemptID string, from, to State, reason string) error {
	res, err := tx.ExecContext(tx.ctx, `
		UPDATE attempts SET state = ?, owner = ?, reason = ?, revision = revision + 1, updated_at = ?
		WHERE attempt_id = ? AND state = ?`,
		string(to), tx.j.session, reason, time.Now().UnixMilli(), attemptID, string(from))
	if err != nil {
		return ioErr(err, "update attempt")
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return fault.New(PhaseEffect, KindInvalidTransition, "attempt changed state concurrently").With("from", string(from)).With("to", string(to))
	}
	return nil
}

// decide maps an existing attempt to a decision, taking over or
// transitioning it where the rules allow. It is the heart of the journal:
// an attempt claimed by a live owner (this Journal or another one holding
// its lease) is in progress; one claimed but never dispatched by an owner
// that is gone may be prepared again; one dispatched by an owner that is
// gone becomes indeterminate.
func (tx txn) decide(a Attempt, owner string) (Decision, error) {
	mine := owner == tx.j.session
	live := func() bool { return mine || tx.j.alive(owner) }
	d := Decision{Ticket: Ticket{a.Identity}, State: a.State}
	switch a.State {
	case StatePrepared:
		if !mine {
			if err := tx.setState(a.AttemptID, StatePrepared, StatePrepared, ""); err != nil {
				return Decision{}, err
			}
		}
		d.Action = ActionExecute
	case StateAdmitted:
		if live() {
			d.Action = ActionInProgress
			break
		}
		// Claimed by a process that is gone, but never dispatched: nothing
		// external happened, so the attempt may be prepared again.
		if err := tx.setState(a.AttemptID, StateAdmitted, StatePrepared, "owner_lost_before_dispatch"); err != nil {
			return Decision{}, err
		}
		d.Action, d.State = ActionExecute, StatePrepared
	case StateDispatching:
		if live() {
			d.Action = ActionInProgress
			break
		}
		if err := tx.setState(a.AttemptID, StateDispatching, StateIndeterminate, "owner_lost_while_dispatching"); err != nil {
			return Decision{}, err
		}
		d.Action, d.State = ActionReconcile, StateIndeterminate
	case StateObserved:
		d.Action, d.Observation = ActionReplay, a.Observation
	case StateIndeterminate:
		d.Action = ActionReconcile
	case StateAbandoned:
		d.Action = ActionTerminal
	default:
		// retry_authorized and the cancelled states: the caller decides
		// whether to open a new attempt.
		d.Action = ActionTerminal
	}
	return d, nil
}

// Prepare records the call and returns what to do: execute (with a ticket
// for a prepared attempt), replay an observation, or a non-runnable state.
// Prepare never claims the attempt; Begin does. Preparing the same call
// again returns the same attempt.
//
// For a call whose latest attempt was cancelled before anything was
// dispatched, or was marked retry_authorized by the host, Prepare opens a
// new linked attempt in mode retry. Explicit retry and resample requests
// (req.Mode) need req.Parent to be the latest attempt of the call, in state
// retry_authorized or cancelled (retry) or observed (resample).
func (j *Journal) Prepare(ctx context.Context, req Request) (Decision, error) {
	base, err := j.identityFor(req)
	if err != nil {
		return Decision{}, err
	}
	var out Decision
	err = j.write(ctx, false, func(tx txn) error {
		now := time.Now().UnixMilli()
		if _, err := tx.ExecContext(tx.ctx, `INSERT OR IGNORE INTO calls(call_id, epoch, kind, fingerprint, logical_key, created_at, run_id, run_call_id) VALUES(?, ?, ?, ?, ?, ?, ?, ?)`,
			base.CallID, base.Epoch, req.Kind, base.Fingerprint, req.LogicalKey, now, req.RunID, req.RunCallID); err != nil {
			return ioErr(err, "insert call")
		}
		if req.RunID != "" && !j.runs[req.RunID] {
			if err := tx.recordRun(req.RunID, now); err != nil {
				return err
			}
		}
		latestID, found, err := tx.latest(base.CallID)
		if err != nil {
			return err
		}
		mode := req.Mode
		if mode == "" {
			mode = ModeInitial
		}
		if mode != ModeInitial {
			return tx.prepareExplicit(base, req, mode, latestID, found, &out)
		}
		if !found {
			id := j.withAttempt(base, 1, ModeInitial, "")
			if err := tx.insertAttempt(id); err != nil {
				return err
			}
			out = Decision{Action: ActionExecute, Ticket: Ticket{id}, State: StatePrepared}
			return nil
		}
		a, owner, _, err := tx.load(latestID)
		if err != nil {
			return err
		}
		switch a.State {
		case StateRetryAuthorized, StateCancelledBeforeClaim, StateCancelledPreDispatch:
			return tx.openChild(base, a, ModeRetry, &out)
		}
		out, err = tx.decide(a, owner)
		return err
	})
	return out, err
}

func (tx txn) prepareExplicit(base Identity, req Request, mode Mode, latestID string, found bool, out *Decision) error {
	if mode != ModeRetry && mode != ModeResample {
		return fault.New(PhaseEffect, KindInvalidRequest, "unknown attempt mode").With("mode", string(mode))
	}
	if !found || req.Parent == "" {
		return fault.New(PhaseEffect, KindInvalidRetry, "retry and resample need the call's latest attempt as parent")
	}
	// Re-entering the same explicit retry reuses its attempt.
	parent, _, ok, err := tx.load(req.Parent)
	if err != nil {
		return err
	}
	if !ok || parent.CallID != base.CallID {
		return fault.New(PhaseEffect, KindInvalidRetry, "parent attempt belongs to another call").With("parent", req.Parent)
	}
	child := tx.j.withAttempt(base, parent.Sequence+1, mode, parent.AttemptID)
	if latestID == child.AttemptID {
		a, owner, _, err := tx.load(latestID)
		if err != nil {
			return err
		}
		*out, err = tx.decide(a, owner)
		return err
	}
	if latestID != parent.AttemptID {
		return fault.New(PhaseEffect, KindInvalidRetry, "parent is not the latest attempt").With("parent", req.Parent)
	}
	allowed := false
	switch mode {
	case ModeRetry:
		allowed = parent.State == StateRetryAuthorized || parent.State == StateCancelledBeforeClaim ||
			parent.State == StateCancelledPreDispatch ||
			(parent.State == StateObserved && parent.Observation != nil && parent.Observation.Status == ObservedFailed)
	case ModeResample:
		allowed = parent.State == StateObserved
	}
	if !allowed {
		return fault.New(PhaseEffect, KindInvalidRetry, "parent attempt does not allow this mode").
			With("parent", parent.AttemptID).With("state", string(parent.State)).With("mode", string(mode))
	}
	return tx.openChild(base, parent, mode, out)
}

func (tx txn) openChild(base Identity, parent Attempt, mode Mode, out *Decision) error {
	id := tx.j.withAttempt(base, parent.Sequence+1, mode, parent.AttemptID)
	if err := tx.insertAttempt(id); err != nil {
		return err
	}
	*out = Decision{Action: ActionExecute, Ticket: Ticket{id}, State: StatePrepared}
	return nil
}

func (tx txn) checkTicket(t Ticket) (Attempt, string, error) {
	if t.StoreID != tx.j.storeID || t.Epoch != tx.j.epoch {
		return Attempt{}, "", fault.New(PhaseEffect, KindStaleTicket, "ticket belongs to another store or epoch")
	}
	a, owner, ok, err := tx.load(t.AttemptID)
	if err != nil {
		return Attempt{}, "", err
	}
	if !ok || a.CallID != t.CallID || a.Fingerprint != t.Fingerprint || a.IdempotencyKey != t.IdempotencyKey {
		return Attempt{}, "", fault.New(PhaseEffect, KindStaleTicket, "ticket does not match a durable attempt")
	}
	return a, owner, nil
}

// Begin claims the ticket's attempt for this caller: prepared → admitted.
// Exactly one caller wins the claim; Begin returns ActionExecute only to
// that caller. Everyone else gets the attempt's current decision (replay,
// in_progress, reconciliation_required or terminal).
func (j *Journal) Begin(ctx context.Context, t Ticket) (Decision, error) {
	var out Decision
	err := j.write(ctx, false, func(tx txn) error {
		a, owner, err := tx.checkTicket(t)
		if err != nil {
			return err
		}
		if a.State == StatePrepared {
			if err := tx.setState(a.AttemptID, StatePrepared, StateAdmitted, ""); err != nil {
				return err
			}
			out = Decision{Action: ActionExecute, Ticket: Ticket{a.Identity}, State: StateAdmitted}
			return nil
		}
		out, err = tx.decide(a, owner)
		if err == nil && out.Action == ActionExecute {
			out.Action = ActionInProgress // defensive: only prepared can be claimed
		}
		return err
	})
	return out, err
}

// Dispatch moves an admitted attempt to dispatching and syncs that record
// to disk. Call it immediately before the external effect; it is the
// journal's promise that the attempt is never executed again blindly.
func (j *Journal) Dispatch(ctx context.Context, t Ticket) error {
	return j.write(ctx, true, func(tx txn) error {
		a, owner, err := tx.checkTicket(t)
		if err != nil {
			return err
		}
		if a.State != StateAdmitted {
			return fault.New(PhaseEffect, KindInvalidTransition, "only an admitted attempt can be dispatched").With("state", string(a.State))
		}
		if owner != j.session {
			return fault.New(PhaseEffect, KindInProgress, "another owner claimed the attempt").With("attempt_id", a.AttemptID)
		}
		return tx.setState(a.AttemptID, StateAdmitted, StateDispatching, "")
	})
}

// Observe records the outcome of a dispatched attempt. Observations are
// immutable: recording an identical observation again is a no-op, a
// different one fails with Kind observation_immutable.
func (j *Journal) Observe(ctx context.Context, t Ticket, obs Observation) error {
	raw, err := json.Marshal(obs)
	if err != nil {
		return fault.Wrap(err, PhaseEffect, KindInvalidRequest, "observation is not JSON")
	}
	return j.write(ctx, false, func(tx txn) error {
		a, _, err := tx.checkTicket(t)
		if err != nil {
			return err
		}
		switch a.State {
		case StateDispatching, StateIndeterminate:
		case StateObserved:
			// Compared as recorded: a decoded observation re-encoded may
			// differ (large numbers become floats).
			var prev sql.NullString
			if err := tx.QueryRowContext(tx.ctx, `SELECT observation FROM attempts WHERE attempt_id = ?`, a.AttemptID).Scan(&prev); err != nil {
				return ioErr(err, "load observation")
			}
			if prev.String == string(raw) {
				return nil
			}
			return fault.New(PhaseEffect, KindObservationChanged, "an observation is already recorded")
		default:
			return fault.New(PhaseEffect, KindInvalidTransition, "only a dispatched attempt can be observed").With("state", string(a.State))
		}
		res, err := tx.ExecContext(tx.ctx, `UPDATE attempts SET state = ?, observation = ?, reason = '', revision = revision + 1, updated_at = ? WHERE attempt_id = ? AND state = ?`,
			string(StateObserved), string(raw), time.Now().UnixMilli(), a.AttemptID, string(a.State))
		if err != nil {
			return ioErr(err, "record observation")
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return fault.New(PhaseEffect, KindInvalidTransition, "attempt changed state concurrently")
		}
		return nil
	})
}

// Cancel records a cancellation of the ticket's attempt and returns the
// resulting state: prepared → cancelled_before_claim, admitted →
// cancelled_pre_dispatch, dispatching → indeterminate (the remote effect
// may or may not have happened). Other states are left unchanged.
func (j *Journal) Cancel(ctx context.Context, t Ticket, reason string) (State, error) {
	var out State
	err := j.write(ctx, true, func(tx txn) error {
		a, _, err := tx.checkTicket(t)
		if err != nil {
			return err
		}
		out = a.State
		var to State
		switch a.State {
		case StatePrepared:
			to = StateCancelledBeforeClaim
		case StateAdmitted:
			to = StateCancelledPreDispatch
		case StateDispatching:
			to = StateIndeterminate
		default:
			return nil
		}
		if err := tx.setState(a.AttemptID, a.State, to, reason); err != nil {
			return err
		}
		out = to
		return nil
	})
	return out, err
}

// MarkIndeterminate records that a dispatched attempt's outcome is unknown
// (for example the handler outlived its time limit).
func (j *Journal) MarkIndeterminate(ctx context.Context, t Ticket, reason string) error {
	return j.write(ctx, true, func(tx txn) error {
		a, _, err := tx.checkTicket(t)
		if err != nil {
			return err
		}
		if a.State != StateDispatching {
			return fault.New(PhaseEffect, KindInvalidTransition, "only a dispatched attempt can become indeterminate").With("state", string(a.State))
		}
		return tx.setState(a.AttemptID, StateDispatching, StateIndeterminate, reason)
	})
}

// Resolution is a trusted host decision about an indeterminate attempt.
type Resolution struct {
	// Observation, when set, records the reconciled outcome.
	Observation *Observation
	// Retry authorizes a new attempt when no observation is given;
	// otherwise the attempt is abandoned.
	Retry bool
	// Reason is recorded with the decision.
	Reason string
}

// Resolve settles an indeterminate attempt (including one found
// dispatching by a process that is gone): observed, retry_authorized or
// abandoned.
func (j *Journal) Resolve(ctx context.Context, attemptID string, r Resolution) (Attempt, error) {
	var t Ticket
	err := j.write(ctx, true, func(tx txn) error {
		a, owner, ok, err := tx.load(attemptID)
		if err != nil {
			return err
		}
		if !ok {
			return fault.New(PhaseEffect, KindStaleTicket, "unknown attempt").With("attempt_id", attemptID)
		}
		if a.State == StateDispatching && owner != j.session {
			if j.alive(owner) {
				return fault.New(PhaseEffect, KindInProgress, "the attempt is being dispatched by a live owner").With("attempt_id", attemptID)
			}
			if err := tx.setState(a.AttemptID, StateDispatching, StateIndeterminate, "owner_lost_while_dispatching"); err != nil {
				return err
			}
			a.State = StateIndeterminate
		}
		if a.State != StateIndeterminate {
			return fault.New(PhaseEffect, KindInvalidTransition, "only an indeterminate attempt can be resolved").With("state", string(a.State))
		}
		t = Ticket{a.Identity}
		switch {
		case r.Observation != nil:
			return nil // recorded below through Observe
		case r.Retry:
			return tx.setState(a.AttemptID, StateIndeterminate, StateRetryAuthorized, r.Reason)
		default:
			return tx.setState(a.AttemptID, StateIndeterminate, StateAbandoned, r.Reason)
		}
	})
	if err != nil {
		return Attempt{}, err
	}
	if r.Observation != nil {
		if err := j.Observe(ctx, t, *r.Observation); err != nil {
			return Attempt{}, err
		}
	}
	return j.Attempt(ctx, attemptID)
}

// Attempt returns the durable record of an attempt.
func (j *Journal) Attempt(ctx context.Context, attemptID string) (Attempt, error) {
	var out Attempt
	err := j.write(ctx, false, func(tx txn) error {
		a, _, ok, err := tx.load(attemptID)
		if err != nil {
			return err
		}
		if !ok {
			return fault.New(PhaseEffect, KindStaleTicket, "unknown attempt").With("attempt_id", attemptID)
		}
		out = a
		return nil
	})
	return out, err
}

// Unresolved lists attempts that need a host decision: indeterminate ones,
// and dispatching ones left by an owner that is gone. Sorted by attempt id.
func (j *Journal) Unresolved(ctx context.Context) ([]Attempt, error) {
	var out []Attempt
	err := j.write(ctx, false, func(tx txn) error {
		rows, err := tx.QueryContext(tx.ctx, `SELECT attempt_id, state, owner FROM attempts WHERE state = ? OR (state = ? AND owner != ?) ORDER BY attempt_id`,
			string(StateIndeterminate), string(StateDispatching), j.session)
		if err != nil {
			return ioErr(err, "list attempts")
		}
		var ids []string
		for rows.Next() {
			var id, state, owner string
			if err := rows.Scan(&id, &state, &owner); err != nil {
				rows.Close()
				return ioErr(err, "list attempts")
			}
			if State(state) == StateDispatching && j.alive(owner) {
				continue // in progress elsewhere
			}
			ids = append(ids, id)
		}
		rows.Close()
		for _, id := range ids {
			a, _, _, err := tx.load(id)
			if err != nil {
				return err
			}
			out = append(out, a)
		}
		return nil
	})
	return out, err
}

// StartRun records a new run id, so that it can be resumed later even if it
// records no effect. Recording an id twice is not an error.
func (j *Journal) StartRun(ctx context.Context, runID string) error {
	if runID == "" {
		return fault.New(PhaseEffect, KindInvalidRequest, "run id is required")
	}
	return j.write(ctx, false, func(tx txn) error { return tx.recordRun(runID, time.Now().UnixMilli()) })
}

// recordRun inserts a run row once; the Journal remembers it. A rolled back
// transaction may lose a row the Journal remembers; that is harmless, since
// RunEffects also counts a run known by its calls.
func (tx txn) recordRun(runID string, now int64) error {
	if _, err := tx.ExecContext(tx.ctx, `INSERT OR IGNORE INTO runs(run_id, created_at) VALUES(?, ?)`, runID, now); err != nil {
		return ioErr(err, "insert run")
	}
	if tx.j.runs == nil {
		tx.j.runs = make(map[string]bool)
	}
	tx.j.runs[runID] = true
	return nil
}

// RunEffects returns how many calls a recorded run has in the journal. It
// fails with Kind unknown_run when the run id was never recorded.
func (j *Journal) RunEffects(ctx context.Context, runID string) (int, error) {
	var n int
	err := j.write(ctx, false, func(tx txn) error {
		var known int
		if err := tx.QueryRowContext(tx.ctx, `SELECT COUNT(*) FROM runs WHERE run_id = ?`, runID).Scan(&known); err != nil {
			return ioErr(err, "find run")
		}
		if err := tx.QueryRowContext(tx.ctx, `SELECT COUNT(*) FROM calls WHERE run_id = ?`, runID).Scan(&n); err != nil {
			return ioErr(err, "count run calls")
		}
		if known == 0 && n == 0 {
			return unknownRun(runID)
		}
		return nil
	})
	return n, err
}
