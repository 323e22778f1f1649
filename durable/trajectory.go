package durable

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"io"

	"github.com/jackc/pgx/v5"

	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/trace"
)

// A run's trajectory (its trace events: 50,000 for a run of 10,000
// sub-calls, 16 MB of JSON) is kept apart from the rest of its result, in
// rlm.trajectories as gzip-compressed JSON: as part of the workflow's
// output DBOS encoded it as JSON and then base64 and PostgreSQL wrote all
// of it, which took a second at the end of such a run. The workflow's
// output is the result without it, and reading a result (Status, for rlm
// result; a resume of a finished run) puts it back. When storing it fails,
// the output keeps it, as before: nothing is lost.

// detachTrajectory stores res's trajectory and returns a copy of res
// without it; res itself when it has none or storing it failed.
func (s *Store) detachTrajectory(ctx context.Context, run string, res *engine.Result) *engine.Result {
	if len(res.Trajectory) == 0 {
		return res
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	if err := json.NewEncoder(zw).Encode(res.Trajectory); err != nil || zw.Close() != nil {
		return res
	}
	err := retryIdempotent(ctx, func(ctx context.Context) error {
		_, err := s.pool.Exec(ctx, `INSERT INTO rlm.trajectories (run_id, events) VALUES ($1, $2)
			ON CONFLICT (run_id) DO UPDATE SET events = EXCLUDED.events, created_at = now()`, run, buf.Bytes())
		return err
	})
	if err != nil {
		return res
	}
	out := *res
	out.Trajectory = nil
	return &out
}

// attachTrajectory puts the stored trajectory of run into res when res has
// none.
func (s *Store) attachTrajectory(ctx context.Context, run string, res *engine.Result) error {
	if res == nil || res.Trajectory != nil {
		return nil
	}
	var raw []byte
	err := retryIdempotent(ctx, func(ctx context.Context) error {
		err := s.pool.QueryRow(ctx, `SELECT events FROM rlm.trajectories WHERE run_id = $1`, run).Scan(&raw)
		if errors.Is(err, pgx.ErrNoRows) {
			raw = nil
			return nil
		}
		return err
	})
	if err != nil || raw == nil {
		return err
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err == nil {
		var evs []trace.Event
		if err = json.NewDecoder(zr).Decode(&evs); err == nil {
			if _, err = io.Copy(io.Discard, zr); err == nil {
				res.Trajectory = evs
				return nil
			}
		}
	}
	return fault.Wrap(err, fault.PhaseExecute, KindCheckpointCorrupt, "the recorded trajectory of the run cannot be decoded").With("run_id", run)
}
