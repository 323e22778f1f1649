package launcher

import (
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	coltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/rlm-go/rlm/model/replay"
	"github.com/rlm-go/rlm/trace"
)

// otlpReceiver is an in-test OTLP/HTTP collector: it decodes the protobuf
// export requests and keeps their spans and raw bodies.
type otlpReceiver struct {
	*httptest.Server
	mu     sync.Mutex
	spans  []*tracepb.Span
	bodies strings.Builder
}

func newOTLPReceiver(t *testing.T) *otlpReceiver {
	t.Helper()
	r := &otlpReceiver{}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		var ex coltrace.ExportTraceServiceRequest
		if req.URL.Path != "/v1/traces" || proto.Unmarshal(body, &ex) != nil {
			http.Error(w, "bad export", http.StatusBadRequest)
			return
		}
		r.mu.Lock()
		defer r.mu.Unlock()
		r.bodies.Write(body)
		for _, rs := range ex.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				r.spans = append(r.spans, ss.Spans...)
			}
		}
	}))
	t.Cleanup(r.Close)
	return r
}

// check compares the received spans with the trace file the run wrote:
// one span per event, all in the printed trace, parent spans matching the
// events' parents, and no key in any request. It returns the spans by
// event id.
func (r *otlpReceiver) check(t *testing.T, stderr, tracePath, key string) (map[string]*tracepb.Span, []trace.Event) {
	t.Helper()
	m := regexp.MustCompile(`rlm: OTLP trace id ([0-9a-f]{32})`).FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("no trace id on stderr: %s", stderr)
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
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.spans) != len(evs) {
		t.Fatalf("received %d spans, want one per event (%d)", len(r.spans), len(evs))
	}
	byEvent := map[string]*tracepb.Span{}
	for _, sp := range r.spans {
		if got := hex.EncodeToString(sp.TraceId); got != m[1] {
			t.Errorf("span %s in trace %s, want the printed %s", sp.Name, got, m[1])
		}
		for _, kv := range sp.Attributes {
			if kv.Key == "rlm.event.id" {
				byEvent[kv.Value.GetStringValue()] = sp
			}
		}
	}
	for _, ev := range evs {
		sp := byEvent[ev.ID]
		if sp == nil {
			t.Fatalf("no span for event %s %s", ev.ID, ev.Kind)
		}
		var want []byte
		if p := byEvent[ev.Parent]; ev.Parent != "" && p != nil {
			want = p.SpanId
		}
		if string(sp.ParentSpanId) != string(want) {
			t.Errorf("span %s (%s): parent %x, want %x (event parent %q)", sp.Name, ev.ID, sp.ParentSpanId, want, ev.Parent)
		}
	}
	if strings.Contains(r.bodies.String(), key) {
		t.Fatal("the API key reached the OTLP export")
	}
	return byEvent, evs
}

// TestRunOTLPEndpoint runs the binary with --otlp-endpoint against an
// in-test OTLP/HTTP receiver: the trace id is printed, every event of the
// written trace arrives as a span of that trace, and the key does not.
func TestRunOTLPEndpoint(t *testing.T) {
	t.Parallel()
	const key = "sk-test-OTLP-BIN-0123456789abcdef"
	recv := newOTLPReceiver(t)
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
	_, evs := recv.check(t, res.stderr, tracePath, key)
	for i := 1; i < len(evs); i++ {
		if evs[i].Seq < evs[i-1].Seq {
			t.Fatal("the final trace file is not sorted by seq")
		}
	}
}

// TestDirectOTLPEndpoint: rlm direct exports its spans like rlm run, with
// --otlp-endpoint or the standard OTEL_EXPORTER_OTLP_ENDPOINT: the run, one
// span per turn under it, and each turn's model call and tool call under
// the turn, with the GenAI names; the trace id is printed and the key is
// not exported.
func TestDirectOTLPEndpoint(t *testing.T) {
	t.Parallel()
	const key = "sk-test-OTLP-DIRECT-0123456789abcdef"
	for _, how := range []string{"flag", "env"} {
		t.Run(how, func(t *testing.T) {
			recv := newOTLPReceiver(t)
			srv := replay.NewServer(&replay.Cassette{Version: replay.Version, Interactions: []replay.Interaction{
				{Response: directReply("", [3]string{"c1", "fs_read", `{"path":"in.txt"}`})},
				{Response: directReply("the file says hello")},
			}})
			defer srv.Close()
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "in.txt"), []byte("hello world\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			tracePath := filepath.Join(dir, "t.jsonl")
			env := binaryEnv("RLM_TEST_API_KEY=" + key)
			args := []string{"direct", "--base-url", srv.BaseURL(), "--api-key-env", "RLM_TEST_API_KEY", "--workspace", dir,
				"--allow", "tool:fs_read", "--trace", tracePath, "read in.txt"}
			if how == "flag" {
				args = append(args, "--otlp-endpoint", recv.URL)
			} else {
				env = append(env, "OTEL_EXPORTER_OTLP_ENDPOINT="+recv.URL)
			}
			res := runBinary(t, nil, env, args...)
			if res.code != 0 || !strings.Contains(res.stdout, "the file says hello") {
				t.Fatalf("exit %d: %s %s", res.code, res.stdout, res.stderr)
			}
			byEvent, evs := recv.check(t, res.stderr, tracePath, key)
			// The shape: invoke_agent direct > turn 1 > {chat, execute_tool fs_read}, turn 2 > chat.
			var got []string
			for _, ev := range evs {
				line := byEvent[ev.ID].Name
				if p := byEvent[ev.Parent]; p != nil {
					line = p.Name + " > " + line
				}
				got = append(got, line)
			}
			want := []string{"invoke_agent direct", "invoke_agent direct > turn 1", "turn 1 > chat gpt-4o-mini", "turn 1 > execute_tool fs_read",
				"invoke_agent direct > turn 2", "turn 2 > chat gpt-4o-mini"}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("spans:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			// Chat spans name the server of --base-url: its host and port only.
			u, err := url.Parse(srv.BaseURL())
			if err != nil {
				t.Fatal(err)
			}
			for _, sp := range byEvent {
				if !strings.HasPrefix(sp.Name, "chat ") {
					continue
				}
				var host string
				var port int64
				for _, kv := range sp.Attributes {
					switch kv.Key {
					case "server.address":
						host = kv.Value.GetStringValue()
					case "server.port":
						port = kv.Value.GetIntValue()
					}
				}
				if host != u.Hostname() || strconv.FormatInt(port, 10) != u.Port() {
					t.Errorf("span %s: server.address %q server.port %d, want %s", sp.Name, host, port, u.Host)
				}
			}
		})
	}
}
