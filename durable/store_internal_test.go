package durable

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/internal/pgtest"
)

func TestRedactedHidesURLPasswords(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"system database postgres://rlm:s3cret@db:5432/x is at version 0", "system database postgres://rlm:REDACTED@db:5432/x is at version 0"},
		{"postgresql://u:p@h/d and postgres://v:q@h/d", "postgresql://u:REDACTED@h/d and postgres://v:REDACTED@h/d"},
		{"postgres://rlm@h/d has no password", "postgres://rlm@h/d has no password"},
	} {
		got := redacted(errors.New(tc.in)).Error()
		if got != tc.want {
			t.Errorf("%q: got %q", tc.in, got)
		}
		if strings.Contains(got, "s3cret") {
			t.Errorf("password kept: %q", got)
		}
	}
}

// openStore opens a Store on a fresh database, closed when t ends.
func openStore(t *testing.T) *Store {
	t.Helper()
	st, err := Open(context.Background(), pgtest.Database(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	return st
}

// Concurrent records are committed together, each save returns once its
// own record is committed, and a key saved twice keeps one record.
func TestConcurrentSavesAllRecorded(t *testing.T) {
	st := openStore(t)
	const n = 300
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			key := fmt.Sprintf("k%d", i%(n-10)) // the last ten repeat earlier keys
			if err := st.save(context.Background(), "r", key, "model", json.RawMessage(`{"i":1}`), budget.Usage{TotalTokens: 2}); err != nil {
				t.Error(err)
				return
			}
			if _, ok, err := st.lookup(context.Background(), "r", key); err != nil || !ok {
				t.Errorf("%s not readable after its save returned: %v", key, err)
			}
		})
	}
	wg.Wait()
	tot, err := st.Totals(context.Background(), "r")
	if err != nil || tot.Steps != n-10 || tot.Tokens != 2*(n-10) {
		t.Fatalf("%+v %v; want %d records", tot, err, n-10)
	}
}

// The statement that records several calls' checkpoints is not ended by
// the cancellation of the caller that writes it: another caller's record
// waiting in the same batch is committed, and so is the cancelled
// caller's own (its response was paid for).
func TestCancelledWriterRecordsTheBatch(t *testing.T) {
	st := openStore(t)
	other := &pendingStep{run: "r", key: "other", kind: "model", result: `{}`, tokens: 1, done: make(chan error, 1)}
	st.steps.pending = append(st.steps.pending, other) // waiting when the writer starts
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := st.save(ctx, "r", "mine", "model", json.RawMessage(`{}`), budget.Usage{TotalTokens: 1}); err != nil {
		t.Fatalf("the cancelled writer's own record: %v", err)
	}
	if err := <-other.done; err != nil {
		t.Fatalf("the other caller's record: %v", err)
	}
	if tot, err := st.Totals(context.Background(), "r"); err != nil || tot.Steps != 2 {
		t.Fatalf("%+v %v; want 2 records", tot, err)
	}
}
