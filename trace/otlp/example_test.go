package otlp_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"

	"github.com/rlm-go/rlm/trace"
	"github.com/rlm-go/rlm/trace/otlp"
)

// Export a run's events as OpenTelemetry spans while it goes: the exporter
// observes the recorder and sends batches to the collector's /v1/traces in
// the background; Shutdown flushes and reports what was sent. The test
// server stands in for a collector (Jaeger, Tempo, an OpenTelemetry
// Collector at http://localhost:4318).
func ExampleStart() {
	var mu sync.Mutex
	var got string
	collector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = r.Method + " " + r.URL.Path + " " + r.Header.Get("Content-Type")
		mu.Unlock()
	}))
	defer collector.Close()

	ctx := context.Background()
	exp, err := otlp.Start(ctx, otlp.Config{Endpoint: collector.URL, ServiceName: "example"})
	if err != nil {
		fmt.Println(err)
		return
	}
	rec := trace.NewRecorder(trace.WithObserver(exp.Observe))
	runCtx, run := trace.Start(trace.WithRecorder(ctx, rec), trace.KindRun, "question")
	_, call := trace.Start(runCtx, trace.KindModelCall, "gpt-4o-mini")
	call.SetTokens(900, 40, 940)
	call.End(nil)
	run.End(nil)

	st := exp.Shutdown(ctx)
	fmt.Println(len(exp.TraceID()), st.Spans, st.Failed, st.Dropped)
	mu.Lock()
	fmt.Println(got)
	mu.Unlock()
	// Output:
	// 32 2 0 0
	// POST /v1/traces application/x-protobuf
}
