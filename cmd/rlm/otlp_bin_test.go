package main

import (
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	coltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/rlm-go/rlm/model/replay"
	"github.com/rlm-go/rlm/trace"
)

// TestRunOTLPEndpoint runs the binary with --otlp-endpoint against an
// in-test OTLP/HTTP receiver: the trace id is printed, every event of the
// written trace arrives as a span of that trace, and the key does not.
func TestRunOTLPEndpoint(t *testing.T) {
	const key = "sk-test-OTLP-BIN-0123456789abcdef"
	var mu sync.Mutex
	var spans int
	traceIDs := map[string]bool{}
	var bodies strings.Builder
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req coltrace.ExportTraceServiceRequest
		if r.URL.Path != "/v1/traces" || proto.Unmarshal(body, &req) != nil {
			http.Error(w, "bad export", http.StatusBadRequest)
			return
		}
		mu.Lock()
		defer mu.Unlock()
		bodies.Write(body)
		for _, rs := range req.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				for _, sp := range ss.Spans {
					spans++
					traceIDs[hex.EncodeToString(sp.TraceId)] = true
				}
			}
		}
	}))
	defer recv.Close()
	srv := replay.NewServer(&replay.Cassette{Version: replay.Version, Interactions: []replay.Interaction{
		{Response: completion(`{"steps":[{"op":"context","handle":{"ref":"input","name":"context"},"action":{"type":"peek","selector":"head","count":10},"bind":"h"}]}`)},
		{Response: completion(`{"answer":"done"}`)},
	}})
	defer srv.Close()
	dir := t.TempDir()
	ctxFile := filepath.Join(dir, "in.txt")
	if err := os.WriteFile(ctxFile, []byte("hello world\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tracePath := filepath.Join(dir, "t.jsonl")
	res := runBinary(t, nil, binaryEnv("RLM_TEST_API_KEY="+key), "run", "--context", ctxFile, "--base-url", srv.BaseURL(),
		"--api-key-env", "RLM_TEST_API_KEY", "--trace", tracePath, "--otlp-endpoint", recv.URL, "q")
	if res.code != 0 {
		t.Fatalf("exit %d: %s %s", res.code, res.stdout, res.stderr)
	}
	m := regexp.MustCompile(`rlm: OTLP trace id ([0-9a-f]{32})`).FindStringSubmatch(res.stderr)
	if m == nil {
		t.Fatalf("no trace id on stderr: %s", res.stderr)
	}
	f, err := os.Open(tracePath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	evs, err := trace.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(evs); i++ {
		if evs[i].Seq < evs[i-1].Seq {
			t.Fatal("the final trace file is not sorted by seq")
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if spans != len(evs) || len(traceIDs) != 1 || !traceIDs[m[1]] {
		t.Fatalf("received %d spans in traces %v, want %d in %s", spans, traceIDs, len(evs), m[1])
	}
	if strings.Contains(bodies.String(), key) {
		t.Fatal("the API key reached the OTLP export")
	}
}
