package durable_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/rlm-go/rlm/durable"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/pgtest"
)

// A worker checks a submitted run's inputs before running it.
func TestSubmissionChecks(t *testing.T) {
	dir := t.TempDir()
	present := filepath.Join(dir, "a.txt")
	if err := os.WriteFile(present, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	sub := durable.Submission{RunID: "r", Spec: "spec", Content: "content", Contexts: []string{present}}
	missing := sub
	missing.Contexts = []string{present, filepath.Join(dir, "gone.txt")}
	for _, c := range []struct {
		name string
		err  error
		want fault.Kind
	}{
		{"readable", sub.CheckContexts(), ""},
		{"unreadable", missing.CheckContexts(), durable.KindContextUnreadable},
		{"same", sub.CheckSpec("content", "spec"), ""},
		{"content changed", sub.CheckSpec("other", "spec"), durable.KindContextMismatch},
		{"other configuration", sub.CheckSpec("content", "other"), durable.KindResumeMismatch},
	} {
		if got := fault.KindOf(c.err); got != c.want {
			t.Errorf("%s: kind %q, want %q (%v)", c.name, got, c.want, c.err)
		}
	}
}

// --resume of a submitted run that a live worker runs is refused.
func TestResumeOfRunningSubmissionRefused(t *testing.T) {
	url := pgtest.Database(t)
	ctx := context.Background()
	id, err := durable.Submit(ctx, url, durable.Submission{Spec: "spec", Query: "q", Queue: "q"})
	if err != nil {
		t.Fatal(err)
	}
	st, err := durable.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	// As if a live worker had dequeued it.
	for _, q := range []string{
		`INSERT INTO rlm.workers (executor_id, queue, dead_after) VALUES ('rlm-worker-live', 'q', '1 hour')`,
		`UPDATE dbos.workflow_status SET status = 'PENDING', executor_id = 'rlm-worker-live' WHERE workflow_uuid = '` + id + `'`,
	} {
		if _, err := st.Pool().Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	_, err = durable.Run(ctx, durable.Config{DatabaseURL: url, RunID: id, Resume: true, Spec: "spec"},
		func(context.Context, *durable.Executor) (*engine.Result, error) {
			t.Error("the run ran")
			return nil, nil
		})
	if fault.KindOf(err) != durable.KindRunInProgress {
		t.Fatalf("err %v", err)
	}
}
