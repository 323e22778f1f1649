package durable

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"time"

	"github.com/dbos-inc/dbos-transact-golang/dbos"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
)

// Error kinds of submitted runs.
const (
	// KindContextUnreadable: a worker cannot read a --context path of a
	// submitted run (submitted runs name their inputs by path).
	KindContextUnreadable fault.Kind = "context_unreadable"
	// KindContextMismatch: a --context path of a submitted run holds other
	// content on the worker than it did at submission.
	KindContextMismatch fault.Kind = "context_mismatch"
	// KindContextNotShared: rlm submit was given an input no worker can
	// read (stdin, an MCP resource).
	KindContextNotShared fault.Kind = "context_not_shared"
	// KindRunInProgress: --resume names a run another process is
	// executing (a live worker, or another rlm run --db).
	KindRunInProgress fault.Kind = "run_in_progress"
)

// Submission is a run enqueued by Submit: everything a worker needs to run
// it. It is also the input of every run workflow (a run started by rlm run
// --db has only RunID and Spec).
type Submission struct {
	RunID string `json:"run_id"`
	Spec  string `json:"spec"`
	// RunSpec is the run's specification (the JSON of rlm.Spec, without
	// the database): the worker opens it as rlm run would.
	RunSpec json.RawMessage `json:"run_spec,omitempty"`
	// Args is the command line older versions recorded instead of RunSpec;
	// a worker refuses such a run with a hint to submit it again.
	Args []string `json:"args,omitempty"`
	// Contexts are the absolute --context paths, which every worker must
	// be able to read; Content is the fingerprint of their content at
	// submission.
	Contexts []string `json:"contexts,omitempty"`
	Content  string   `json:"content,omitempty"`
	// Query is recorded with the run, for people reading the database.
	Query string `json:"query,omitempty"`
	// Queue is the queue the run was submitted to; its sub-model calls go
	// through it too.
	Queue string `json:"queue,omitempty"`
}

// RunsQueue is the DBOS queue of the runs submitted to the calls queue
// name: rlm worker serves both.
func RunsQueue(name string) string { return name + ".runs" }

// Submit enqueues sub as a run for the workers serving sub.Queue (default
// DefaultQueue) and returns its id (sub.RunID, or a fresh one). The run is
// registered first, so rlm status reports it queued at once.
func Submit(ctx context.Context, url string, sub Submission) (string, error) {
	if sub.Queue == "" {
		sub.Queue = DefaultQueue
	}
	if sub.RunID == "" {
		sub.RunID = uuid.NewString()
	}
	store, err := Open(ctx, url)
	if err != nil {
		return "", err
	}
	defer store.Close()
	if err := store.register(ctx, sub.RunID, sub.Spec, sub.Query, false); err != nil {
		return "", err
	}
	// A DBOS context, not a client: on a database no worker has used yet,
	// it creates DBOS's schema (a client only checks it).
	client, err := store.newDBOS(ctx, dbos.Config{AppName: AppName, DatabaseURL: url,
		ExecutorID: "rlm-submit-" + sub.RunID, ApplicationVersion: CallsVersion, Logger: quiet(), SystemDBStartupTimeout: 30 * time.Second})
	if err != nil {
		return "", unavailable(ctx, err)
	}
	defer client.Shutdown(client, 5*time.Second)
	if _, err := dbos.Enqueue[*engine.Result](client, RunsQueue(sub.Queue), WorkflowName, sub,
		dbos.WithEnqueueWorkflowID(sub.RunID), dbos.WithEnqueueApplicationVersion(CallsVersion)); err != nil {
		return "", unavailable(ctx, err)
	}
	return sub.RunID, nil
}

// CheckContexts reports, before a worker runs a submitted run, a --context
// path it cannot read.
func (s Submission) CheckContexts() error {
	for _, p := range s.Contexts {
		f, err := os.Open(p)
		if err != nil {
			return fault.Wrap(err, fault.PhaseConfig, KindContextUnreadable, "this worker cannot read a --context path of the submitted run").
				With("run_id", s.RunID).With("path", p).
				WithHint("submitted runs read their --context paths on the worker: put them on storage every worker mounts at the same path")
		}
		f.Close()
	}
	return nil
}

// CheckSpec compares what a worker is about to run (the fingerprint of
// its contexts' content and its spec) with the submission.
func (s Submission) CheckSpec(content, spec string) error {
	if s.Content != "" && content != s.Content {
		return fault.New(fault.PhaseConfig, KindContextMismatch, "a --context path of the submitted run holds other content on this worker").
			With("run_id", s.RunID).With("paths", s.Contexts).With("recorded", s.Content).With("content", content).
			WithHint("submitted runs read their --context paths on the worker: every worker must see the same files, unchanged until the run ends")
	}
	if spec != s.Spec {
		return fault.New(fault.PhaseConfig, KindResumeMismatch, "the worker computes another run than the one submitted").
			With("run_id", s.RunID).With("recorded_spec", s.Spec).With("spec", spec).
			WithHint("run workers of the same rlm version")
	}
	return nil
}

// takeOver hands a submitted run whose worker is gone (or that no worker
// has taken yet) to the process about to resume it as executor: the run
// leaves its queue and becomes that process's own, as an rlm run --db run
// is, so DBOS recovers it there on launch. A run that is not a submitted
// one is left alone; one a live worker runs is refused.
func (s *Store) takeOver(ctx context.Context, run, executor string) error {
	return retry(ctx, func(ctx context.Context) error {
		var (
			queue, exec *string
			status      string
			live        bool
		)
		err := s.pool.QueryRow(ctx, `SELECT w.queue_name, w.status, w.executor_id,
				EXISTS (SELECT 1 FROM rlm.workers k WHERE k.executor_id = w.executor_id AND k.seen_at > now() - k.dead_after)
			FROM dbos.workflow_status w WHERE w.workflow_uuid = $1`, run).Scan(&queue, &status, &exec, &live)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		if queue == nil || *queue == "" || (status != string(dbos.WorkflowStatusPending) && status != string(dbos.WorkflowStatusEnqueued)) {
			return nil
		}
		if status == string(dbos.WorkflowStatusPending) && live {
			return inProgress(run, *exec)
		}
		tag, err := s.pool.Exec(ctx, `UPDATE dbos.workflow_status SET status = $2, executor_id = $3, application_version = $3,
				queue_name = NULL, queue_partition_key = NULL, deduplication_id = NULL, started_at_epoch_ms = NULL, owner_xid = NULL
			WHERE workflow_uuid = $1 AND status = $4 AND executor_id IS NOT DISTINCT FROM $5`,
			run, dbos.WorkflowStatusPending, executor, status, exec)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return inProgress(run, "")
		}
		return nil
	})
}

func inProgress(run, worker string) error {
	return fault.New(fault.PhaseConfig, KindRunInProgress, "a live worker is running this submitted run").
		With("run_id", run).With("worker", worker).
		WithHint("wait for it (rlm status --db URL RUN_ID); --resume continues a run only once its worker is gone")
}
