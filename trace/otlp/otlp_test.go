package otlp

import (
	"context"
	"encoding/hex"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	coltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"go.uber.org/goleak"
	"google.golang.org/protobuf/proto"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/trace"
)

const fakeKey = "sk-test-OTLP-4f1c9a7be2d84c03a5"

// receiver is an OTLP/HTTP trace receiver: it decodes every protobuf
// export request and keeps the spans and the raw bodies.
type receiver struct {
	mu     sync.Mutex
	spans  []*tracepb.Span
	raw    []byte
	status int
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	if r.URL.Path != "/v1/traces" || r.Header.Get("Content-Type") != "application/x-protobuf" {
		http.Error(w, "unexpected "+r.URL.Path+" "+r.Header.Get("Content-Type"), http.StatusBadRequest)
		return
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if rc.status != 0 {
		http.Error(w, "refused", rc.status)
		return
	}
	var req coltrace.ExportTraceServiceRequest
	if err := proto.Unmarshal(body, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	rc.raw = append(rc.raw, body...)
	for _, rs := range req.ResourceSpans {
		for _, ss := range rs.ScopeSpans {
			rc.spans = append(rc.spans, ss.Spans...)
		}
	}
	w.Header().Set("Content-Type", "application/x-protobuf")
	out, _ := proto.Marshal(&coltrace.ExportTraceServiceResponse{})
	_, _ = w.Write(out)
}

// record runs a small tree through a recorder that feeds exp: a run, a
// turn with a model call (tokens, a recorded reply, a secret-looking
// attribute), a plan step with a context search and a tool call, and a
// failed child.
func record(exp *Exporter) []trace.Event {
	rec := trace.NewRecorder(trace.WithObserver(exp.Observe))
	ctx := trace.WithRecorder(context.Background(), rec)
	ctx, run := trace.Start(ctx, trace.KindRun, "rlm")
	tctx, turn := trace.Start(ctx, trace.KindTurn, "turn 1")
	turn.Set("reply", "the secret plan is 42")
	_, call := trace.Start(tctx, trace.KindModelCall, "gpt-4o")
	call.Set("model", "gpt-4o")
	call.Set("finish_reason", "stop")
	call.Set("api_key", fakeKey)
	call.Set("thumbnails", []string{"data:image/png;base64,dGh1bWI="})
	call.Set("authorization", "Bearer "+fakeKey)
	call.SetTokens(1480, 162, 1642)
	call.SetCost(0.0053, false)
	call.End(nil)
	sctx, step := trace.Start(tctx, trace.KindPlanStep, "context")
	step.Set("bind", "hits")
	_, op := trace.Start(sctx, trace.KindContextOp, "search")
	op.Set("pattern", "ERROR payments")
	op.Set("items", 3)
	op.End(nil)
	_, tool := trace.Start(sctx, trace.KindToolCall, "fs_read")
	tool.End(nil)
	step.End(nil)
	cctx, child := trace.Start(trace.WithDepth(tctx, 1), trace.KindChild, "depth 1")
	_, sub := trace.Start(cctx, trace.KindModelCall, "gpt-4o-mini")
	sub.End(fault.New(fault.PhaseProvider, "rate_limited", "429"))
	child.End(fault.New(fault.PhaseExecute, "child_failed", "child failed"))
	turn.End(nil)
	run.End(nil)
	return rec.Events()
}

func attrs(sp *tracepb.Span) map[string]*commonpb.AnyValue {
	m := map[string]*commonpb.AnyValue{}
	for _, kv := range sp.Attributes {
		m[kv.Key] = kv.Value
	}
	return m
}

func TestExportSpansMatchTree(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreTopFunction("internal/poll.runtime_pollWait"), goleak.IgnoreTopFunction("net/http.(*persistConn).writeLoop"))
	for _, tc := range []struct {
		name    string
		content bool
	}{{"default", false}, {"content", true}} {
		t.Run(tc.name, func(t *testing.T) {
			rc := &receiver{}
			srv := httptest.NewServer(rc)
			defer srv.Close()
			exp, err := Start(context.Background(), Config{Endpoint: srv.URL, Content: tc.content})
			if err != nil {
				t.Fatal(err)
			}
			evs := record(exp)
			st := exp.Shutdown(context.Background())
			if st.Spans != int64(len(evs)) || st.Dropped != 0 || st.Failed != 0 {
				t.Fatalf("stats %+v, want %d spans", st, len(evs))
			}
			rc.mu.Lock()
			defer rc.mu.Unlock()
			if len(rc.spans) != len(evs) {
				t.Fatalf("received %d spans, want %d", len(rc.spans), len(evs))
			}
			byEvent := map[string]*tracepb.Span{}
			for _, sp := range rc.spans {
				if got := hex.EncodeToString(sp.TraceId); got != exp.TraceID() {
					t.Errorf("span %s has trace id %s, want %s", sp.Name, got, exp.TraceID())
				}
				byEvent[attrs(sp)["rlm.event.id"].GetStringValue()] = sp
			}
			for _, ev := range evs {
				sp := byEvent[ev.ID]
				if sp == nil {
					t.Fatalf("no span for %s", ev.ID)
				}
				if ev.Parent == "" {
					if len(sp.ParentSpanId) != 0 {
						t.Errorf("root %s has a parent", ev.ID)
					}
				} else if p := byEvent[ev.Parent]; p == nil || string(sp.ParentSpanId) != string(p.SpanId) {
					t.Errorf("span of %s is not a child of the span of %s", ev.ID, ev.Parent)
				}
				if sp.StartTimeUnixNano != uint64(ev.Start.UnixNano()) || sp.EndTimeUnixNano != uint64(ev.End.UnixNano()) {
					t.Errorf("span of %s has other times than the event", ev.ID)
				}
			}
			names := map[string]bool{}
			for _, sp := range rc.spans {
				names[sp.Name] = true
			}
			for _, n := range []string{"invoke_agent rlm", "turn 1", "chat gpt-4o", "plan_step context", "context_op search", "execute_tool fs_read", "invoke_agent rlm_child", "chat gpt-4o-mini"} {
				if !names[n] {
					t.Errorf("no span named %q in %v", n, names)
				}
			}
			call := attrs(byEvent[evs[2].ID])
			if byEvent[evs[2].ID].Kind != tracepb.Span_SPAN_KIND_CLIENT {
				t.Errorf("model call span kind %v", byEvent[evs[2].ID].Kind)
			}
			for k, want := range map[string]any{"gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-4o", "gen_ai.usage.input_tokens": int64(1480), "gen_ai.usage.output_tokens": int64(162), "rlm.depth": int64(0)} {
				v := call[k]
				if v == nil || (v.GetStringValue() != want && v.GetIntValue() != want) {
					t.Errorf("model call attribute %s = %v, want %v", k, v, want)
				}
			}
			if fr := call["gen_ai.response.finish_reasons"].GetArrayValue().GetValues(); len(fr) != 1 || fr[0].GetStringValue() != "stop" {
				t.Errorf("finish reasons %v", fr)
			}
			for id, want := range map[string]string{"e4": "rlm.plan.bind", "e5": "rlm.context.items", "e6": "gen_ai.tool.name"} {
				if attrs(byEvent[id])[want] == nil {
					t.Errorf("span of %s lacks %s", id, want)
				}
			}
			sub := byEvent["e8"]
			if sub.Status.GetCode() != tracepb.Status_STATUS_CODE_ERROR || attrs(sub)["error.type"].GetStringValue() != "rate_limited" || attrs(sub)["rlm.depth"].GetIntValue() != 1 {
				t.Errorf("failed sub-call span: status %v attrs %v", sub.Status, attrs(sub))
			}
			raw := string(rc.raw)
			if strings.Contains(raw, fakeKey) || strings.Contains(raw, "api_key") || strings.Contains(raw, "authorization") {
				t.Error("a secret reached the OTLP export")
			}
			reply := attrs(byEvent["e2"])["rlm.content.reply"]
			pattern := attrs(byEvent["e5"])["rlm.content.pattern"]
			thumbs := call["rlm.content.thumbnails"]
			if tc.content != (thumbs != nil) || tc.content != strings.Contains(raw, "dGh1bWI=") {
				t.Errorf("content %v: thumbnails %v", tc.content, thumbs)
			}
			if tc.content != (reply != nil) || tc.content != (pattern != nil) || tc.content != strings.Contains(raw, "the secret plan is 42") {
				t.Errorf("content %v: reply %v, pattern %v", tc.content, reply, pattern)
			}
		})
	}
}

// Every form of the endpoint reaches the receiver's /v1/traces: a base URL
// with or without a trailing slash, or the traces path itself, with or
// without one (it became /v1/traces/v1/traces).
func TestEndpointForms(t *testing.T) {
	for _, suffix := range []string{"", "/", "/v1/traces", "/v1/traces/"} {
		t.Run(suffix, func(t *testing.T) {
			rc := &receiver{}
			srv := httptest.NewServer(rc)
			defer srv.Close()
			exp, err := Start(context.Background(), Config{Endpoint: srv.URL + suffix})
			if err != nil {
				t.Fatal(err)
			}
			evs := record(exp)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if st := exp.Shutdown(ctx); st.Failed != 0 || st.Spans != int64(len(evs)) {
				t.Fatalf("endpoint %s: stats %+v", srv.URL+suffix, st)
			}
		})
	}
}

// TestExportErrorsAreCounted: a receiver that refuses every export does not
// fail the run; the failures are counted, and events after Shutdown are
// dropped and counted.
func TestExportErrorsAreCounted(t *testing.T) {
	rc := &receiver{status: http.StatusBadRequest}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	exp, err := Start(context.Background(), Config{Endpoint: srv.URL + "/"})
	if err != nil {
		t.Fatal(err)
	}
	evs := record(exp)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st := exp.Shutdown(ctx)
	if st.Failed != int64(len(evs)) || st.LastError == "" {
		t.Fatalf("stats %+v, want %d failed", st, len(evs))
	}
	exp.Observe(evs[0])
	if exp.Shutdown(ctx).Dropped != 1 {
		t.Fatal("an event after Shutdown was not counted as dropped")
	}
}

func TestBadEndpoint(t *testing.T) {
	for _, ep := range []string{"localhost:4318", "ftp://x/", "http://"} {
		_, err := Start(context.Background(), Config{Endpoint: ep})
		var fe *fault.Error
		if !errors.As(err, &fe) || fe.Kind != KindBadEndpoint {
			t.Errorf("%q: err %v, want %s", ep, err, KindBadEndpoint)
		}
	}
}

func TestEnabled(t *testing.T) {
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "")
	t.Setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "")
	if Enabled("") {
		t.Fatal("enabled with nothing set")
	}
	if !Enabled("http://x:4318") {
		t.Fatal("flag does not enable")
	}
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://x:4318")
	if !Enabled("") {
		t.Fatal("environment does not enable")
	}
	t.Setenv("OTEL_SDK_DISABLED", "true")
	if Enabled("") {
		t.Fatal("OTEL_SDK_DISABLED does not disable")
	}
}

// TestExportFromEnvironment: with no endpoint flag the standard
// OTEL_EXPORTER_OTLP_ENDPOINT is used (its /v1/traces path appended).
func TestExportFromEnvironment(t *testing.T) {
	rc := &receiver{}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", srv.URL)
	exp, err := Start(context.Background(), Config{})
	if err != nil {
		t.Fatal(err)
	}
	evs := record(exp)
	if st := exp.Shutdown(context.Background()); st.Failed != 0 {
		t.Fatalf("stats %+v", st)
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if len(rc.spans) != len(evs) {
		t.Fatalf("received %d spans, want %d", len(rc.spans), len(evs))
	}
}

// TestQueueBoundsAndDrops: while the collector hangs, Observe never
// blocks: beyond the bounded queue (and the few spans already in flight)
// events are dropped and counted, and every event is either exported or
// counted as dropped.
func TestQueueBoundsAndDrops(t *testing.T) {
	release := make(chan struct{})
	var once sync.Once
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-release
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
	defer srv.Close()
	defer once.Do(func() { close(release) })
	exp, err := Start(context.Background(), Config{Endpoint: srv.URL, Queue: 1})
	if err != nil {
		t.Fatal(err)
	}
	const n = 100
	for i := range n {
		exp.Observe(trace.Event{Seq: uint64(i + 1), ID: "e" + strconv.Itoa(i+1), Kind: trace.KindNote, Name: "n"})
	}
	// At most: one event in the queue, one being turned into a span, one
	// in the SDK's queue of 1 and one batch of 1 being sent.
	if d := exp.dropped.Load(); d < n-4 {
		t.Fatalf("%d of %d events dropped while the collector hangs, want at least %d", d, n, n-4)
	}
	once.Do(func() { close(release) })
	st := exp.Shutdown(context.Background())
	if st.Spans+st.Dropped != n || st.Failed != 0 {
		t.Fatalf("stats %+v: exported and dropped do not add up to %d", st, n)
	}
}
