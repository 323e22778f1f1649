package otlp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/rlm-go/rlm/trace"
)

// TestShutdownTimeoutNotReported: when the flush deadline passes
// while the collector has not answered, the spans were not exported, but
// Stats reports them as exported and nothing as dropped or failed, so the
// command prints no warning.
func TestShutdownTimeoutNotReported(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-release // a collector that hangs
	}))
	defer srv.Close()
	defer close(release)
	exp, err := Start(context.Background(), Config{Endpoint: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	exp.Observe(trace.Event{Seq: 1, ID: "e1", Kind: trace.KindRun, Name: "rlm", Start: time.Now(), End: time.Now()})
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	st := exp.Shutdown(ctx)
	t.Logf("stats after timed-out flush: %+v (%s)", st, st)
	if st.Dropped == 0 && st.Failed == 0 {
		t.Fatalf("flush timed out with the span unsent, yet stats say %q: cmd/rlm prints no warning", st)
	}
}
