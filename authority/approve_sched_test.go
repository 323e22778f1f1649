package authority

import (
	"context"
	"errors"
	"testing"
)

// Approve whose scheduler fails puts the record back to pending. If the
// same operation was asked for again while the record was approved (a
// retry racing the approval), the store now holds two pending records of
// one operation, and approving both runs it twice.
func TestApproveSchedulerFailureLeavesTwoPendingRecords(t *testing.T) {
	s := NewStore()
	n, cont := counter()
	first, _ := s.Authorize(op(`{"a":1}`), cont, nil)
	var second Decision
	_, err := s.Approve(first.Record.ID, func(fn func(ctx context.Context)) error {
		// The same operation asked for while the record is approved.
		second, _ = s.Authorize(op(`{"a":1}`), cont, nil)
		return errors.New("pool full")
	})
	if err == nil {
		t.Fatal("scheduler error not returned")
	}
	pending := 0
	for _, r := range s.List("session:s") {
		if r.State == StatePending {
			pending++
		}
	}
	ids := []string{first.Record.ID}
	if second.Record.ID != first.Record.ID {
		ids = append(ids, second.Record.ID)
	}
	for _, id := range ids {
		if _, err := s.Approve(id, nil); err == nil {
			s.Await(context.Background(), id)
		}
	}
	if pending != 1 || n.Load() != 1 {
		t.Fatalf("%d pending records of one operation (%v); approving them ran it %d times", pending, ids, n.Load())
	}
}
