package durable

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/rlm-go/rlm/budget"
)

// A record that jsonb refuses does not cost the other records written in
// the same statement theirs: every one is committed and reads back as it
// was saved. Before, the statement failed as a whole.
func TestRefusedRecordKeepsTheBatch(t *testing.T) {
	st := openStore(t)
	ctx := context.Background()
	other := &pendingStep{run: "r", key: "other", kind: "model", result: `{"text":"paid for"}`, tokens: 1, done: make(chan error, 1)}
	st.steps.pending = append(st.steps.pending, other) // waiting when the writer starts
	bad := json.RawMessage(`{"n":1e999999}`)
	if err := st.save(ctx, "r", "bad", "tool", bad, budget.Usage{}); err != nil {
		t.Fatalf("the refused record: %v", err)
	}
	if err := <-other.done; err != nil {
		t.Fatalf("the other record of the statement: %v", err)
	}
	// The statement's records are stored wrapped: each reads back byte
	// for byte.
	for key, want := range map[string]string{"other": other.result, "bad": string(bad)} {
		rec, ok, err := st.lookup(ctx, "r", key)
		if err != nil || !ok || string(rec.Result) != want {
			t.Errorf("%s: %s, %v, %v; want %s", key, rec.Result, ok, err, want)
		}
	}
}
