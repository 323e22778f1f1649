package trace

import (
	"context"
	"reflect"
	"testing"
)

// TestSetAfterEndChangesNoRecord checks that the event End records keeps
// the attributes as they were at End, redacted: End hands the span's own
// map to the event (issue 35: no copy per ended span), so a Set after End
// must go elsewhere.
func TestSetAfterEndChangesNoRecord(t *testing.T) {
	rec := NewRecorder()
	ctx := WithRecorder(context.Background(), rec)
	_, sp := Start(ctx, KindModelCall, "m")
	sp.Set("api_key", "sk-FAKE-end-1234")
	sp.Set("n", 1)
	sp.End(nil)
	sp.Set("n", 2)
	sp.Set("late", true)
	sp.End(nil) // only the first End counts
	evs := rec.Events()
	if len(evs) != 1 {
		t.Fatalf("%d events, want 1", len(evs))
	}
	if want := map[string]any{"api_key": Redacted, "n": 1}; !reflect.DeepEqual(evs[0].Attrs, want) {
		t.Fatalf("attrs = %v, want %v", evs[0].Attrs, want)
	}
}
