package tool

import (
	"context"
	"encoding/json"
	"path/filepath"
	"sync"
	"testing"

	"github.com/rlm-go/rlm/authority"
)

// TestEditedApprovalStealsOccurrence: an approval edited to v="b"
// keeps the call id ("occ:1") of the original operation v="a". The run's
// first direct request for v="b" then also gets "occ:1" and is answered
// with the edited approval's recorded outcome instead of running: the
// sequence b (edited approval), c, b leaves "c" in place.
func TestEditedApprovalStealsOccurrence(t *testing.T) {
	ctx := context.Background()
	var mu sync.Mutex
	var log []string
	rt := identityRuntime(t, filepath.Join(t.TempDir(), "effects.db"), "/ws", &log, &mu)
	rt.Authority().Set("session:t", authority.ApproveDiff)

	res, _ := rt.Invoke(ctx, putCall("a"))
	if res.Status != StatusApprovalRequired {
		t.Fatalf("%+v", res)
	}
	rec, err := rt.Edit(res.ApprovalID, json.RawMessage(`{"v":"b"}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rt.Approve(ctx, rec.ID); err != nil {
		t.Fatal(err)
	}
	if out, _ := rt.AwaitApproval(ctx, rec.ID); out.Status != StatusOK {
		t.Fatalf("%+v", out)
	}
	rt.Authority().Set("session:t", authority.AllowSession)
	for _, v := range []string{"c", "b"} {
		res, _ := rt.Invoke(ctx, putCall(v))
		if res.Status != StatusOK || res.Replayed {
			t.Errorf("fresh request v=%s: status %s replayed %v", v, res.Status, res.Replayed)
		}
	}
	if len(log) != 3 {
		t.Fatalf("executions %v, want b, c, b", log)
	}
}
