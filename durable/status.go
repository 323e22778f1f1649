package durable

import (
	"context"
	"strings"
	"time"

	"github.com/dbos-inc/dbos-transact-golang/dbos"

	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
)

// KindRunNotFinished: the result of a run that has not finished was asked
// for.
const KindRunNotFinished fault.Kind = "run_not_finished"

// RunStatus describes a durable run.
type RunStatus struct {
	RunID string `json:"run_id"`
	// Status is "pending" (running, or interrupted: continue it with
	// --resume), "queued", or, once finished, the run's own status:
	// "completed", "failed" or "cancelled".
	Status string `json:"status"`
	// Steps are the checkpoints recorded so far.
	Steps     StepTotals `json:"steps"`
	CreatedAt time.Time  `json:"created_at"`
	UpdatedAt time.Time  `json:"updated_at"`
}

// Status returns the status of the run id and, for a finished run, its
// result, trajectory included.
func Status(ctx context.Context, url, id string) (RunStatus, *engine.Result, error) {
	return status(ctx, url, id, true)
}

// State returns the status of the run id without its result: for a
// finished run it does not read the recorded trajectory back.
func State(ctx context.Context, url, id string) (RunStatus, error) {
	st, _, err := status(ctx, url, id, false)
	return st, err
}

func status(ctx context.Context, url, id string, trajectory bool) (RunStatus, *engine.Result, error) {
	st := RunStatus{RunID: id}
	store, err := Open(ctx, url)
	if err != nil {
		return st, nil, err
	}
	defer store.Close()
	if ok, err := store.hasRun(ctx, id); err != nil || !ok {
		if err == nil {
			err = notFound(id)
		}
		return st, nil, err
	}
	client, err := dbos.NewClient(ctx, dbos.ClientConfig{DatabaseURL: url, AppName: AppName,
		Logger: quiet(), SystemDBStartupTimeout: 30 * time.Second})
	if err != nil {
		return st, nil, unavailable(ctx, err)
	}
	defer client.Shutdown(client, 5*time.Second)
	h, err := dbos.RetrieveWorkflow[*engine.Result](client, id)
	if err != nil {
		return st, nil, dbosError(ctx, err, id)
	}
	ws, err := h.GetStatus()
	if err != nil {
		return st, nil, dbosError(ctx, err, id)
	}
	st.CreatedAt, st.UpdatedAt = ws.CreatedAt, ws.UpdatedAt
	// Read after the status, so that a finished run reports all its steps.
	if st.Steps, err = store.Totals(ctx, id); err != nil {
		return st, nil, err
	}
	switch ws.Status {
	case dbos.WorkflowStatusSuccess:
		res, err := h.GetResult()
		if err != nil {
			return st, nil, dbosError(ctx, err, id)
		}
		if trajectory {
			if err := store.attachTrajectory(ctx, id, res); err != nil {
				return st, nil, err
			}
		}
		st.Status = res.Status
		return st, res, nil
	case dbos.WorkflowStatusError, dbos.WorkflowStatusMaxRecoveryAttemptsExceeded:
		st.Status = engine.StatusFailed
	case dbos.WorkflowStatusCancelled:
		st.Status = engine.StatusCancelled
	case dbos.WorkflowStatusEnqueued, dbos.WorkflowStatusDelayed:
		st.Status = "queued"
	default:
		st.Status = strings.ToLower(string(ws.Status))
	}
	return st, nil, nil
}
