package viewer

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/trace"
)

func TestMain(m *testing.M) {
	if spec := os.Getenv(appendEnv); spec != "" {
		appendHelper(spec) // the helper process of TestBrowserLive
		os.Exit(0)
	}
	goleak.VerifyTestMain(m)
}

func serve(t *testing.T, opts Options, paths ...string) *httptest.Server {
	t.Helper()
	s, err := New(paths, opts)
	if err != nil {
		t.Fatal(err)
	}
	// Live streams end with the test: their context is cancelled before
	// the server closes (Close waits for active connections).
	ctx, cancel := context.WithCancel(context.Background())
	srv := httptest.NewUnstartedServer(s.Handler())
	srv.Config.BaseContext = func(net.Listener) context.Context { return ctx }
	srv.Start()
	t.Cleanup(func() { cancel(); srv.Close() })
	return srv
}

func get(t *testing.T, url string, v any) int {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if v != nil && resp.StatusCode == http.StatusOK {
		if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
			t.Fatal(err)
		}
	}
	return resp.StatusCode
}

// TestAPITree: the tree lists every event once, in walk order, with
// subtree totals that add up to the file's figures.
func TestAPITree(t *testing.T) {
	evs := genTrace(600)
	dir := t.TempDir()
	srv := serve(t, Options{}, writeTrace(t, dir, "a.jsonl", evs), writeTrace(t, dir, "b.json", evs[:1]))
	var files []FileInfo
	if get(t, srv.URL+"/api/files", &files) != 200 || len(files) != 2 || files[0].Events != len(evs) || files[1].Events != 1 || files[0].Name != "a.jsonl" {
		t.Fatalf("files %+v", files)
	}
	var m Model
	if code := get(t, srv.URL+"/api/tree?file=0", &m); code != 200 {
		t.Fatalf("status %d", code)
	}
	tokens, cost, failed := totals(evs)
	root := m.Nodes[0]
	if len(m.Nodes) != len(evs) || root.Size != len(evs) || root.SubTok != tokens || math.Abs(root.SubUSD-cost) > 1e-9 || root.SubErr != failed || failed == 0 {
		t.Fatalf("root %+v; want %d events, %d tokens, %f USD, %d failed", root, len(evs), tokens, cost, failed)
	}
	s := m.Summary
	if s.Events != len(evs) || s.Tokens != tokens || s.Failed != failed || s.Turns != 4 || s.ModelCalls == 0 || s.MaxDepth != 1 || s.WallMS <= 0 {
		t.Fatalf("summary %+v", s)
	}
	// Per-depth usage, counted here from the events: model calls, tokens
	// and cost at each depth, in depth order, adding up to the totals.
	want := map[int]DepthUsage{}
	for _, ev := range evs {
		d := want[ev.Depth]
		d.Depth = ev.Depth
		if ev.Kind == trace.KindModelCall {
			d.ModelCalls++
		}
		if ev.Tokens != nil {
			d.Tokens += ev.Tokens.Total
		}
		d.CostUSD += ev.CostUSD
		want[ev.Depth] = d
	}
	if len(s.ByDepth) != 2 || len(want) != 2 {
		t.Fatalf("by depth %+v, want %+v", s.ByDepth, want)
	}
	for i, d := range s.ByDepth {
		w := want[i]
		if d.Depth != i || d.ModelCalls != w.ModelCalls || d.Tokens != w.Tokens || math.Abs(d.CostUSD-w.CostUSD) > 1e-9 || d.ModelCalls == 0 {
			t.Fatalf("depth %d: %+v, want %+v", i, d, w)
		}
	}
	seen := map[string]bool{}
	for pos, n := range m.Nodes {
		if seen[n.ID] || (pos > 0 && (n.Parent < 0 || n.Parent >= pos || m.Nodes[n.Parent].Level != n.Level-1)) {
			t.Fatalf("node %d %+v out of tree order", pos, n)
		}
		seen[n.ID] = true
		// A subtree is the next Size-1 rows.
		if end := pos + n.Size; end < len(m.Nodes) && m.Nodes[end].Level > n.Level {
			t.Fatalf("subtree of %s does not end after %d rows", n.ID, n.Size)
		}
	}
	if get(t, srv.URL+"/api/tree?file=2", nil) != http.StatusNotFound || get(t, srv.URL+"/api/tree?file=x", nil) != http.StatusNotFound {
		t.Fatal("an unknown file is not 404")
	}
}

// TestAPINodeRedacts: the detail of a node carries the full event, with
// secret-looking attributes and error details redacted even when the file
// itself was not.
func TestAPINodeRedacts(t *testing.T) {
	const key = "sk-test-VIEWER-0123456789abcdef"
	dir := t.TempDir()
	path := filepath.Join(dir, "raw.jsonl")
	raw := `{"seq":1,"id":"e1","kind":"run","name":"rlm","status":"error","attrs":{"api_key":"` + key + `","reply":"hello"},"error":{"phase":"provider","kind":"unauthorized","message":"bad key","detail":{"authorization":"Bearer ` + key + `"}}}` + "\n"
	if err := os.WriteFile(path, []byte(raw), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := serve(t, Options{}, path)
	resp, err := http.Get(srv.URL + "/api/node?file=0&pos=0")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var d Detail
	if err := json.Unmarshal(body, &d); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(body), key) || d.Event.Attrs["reply"] != "hello" || d.Event.Error.Kind != "unauthorized" || d.Node.Err != "provider/unauthorized" {
		t.Fatalf("detail: %s", body)
	}
	for _, q := range []string{"pos=1", "pos=-1", "pos=x"} {
		if code := get(t, srv.URL+"/api/node?file=0&"+q, nil); code == http.StatusOK {
			t.Errorf("%s: status %d", q, code)
		}
	}
}

// TestAPIMalformedLine: the events before a bad line are shown, with the
// error (Kind malformed_trace, its line).
func TestAPIMalformedLine(t *testing.T) {
	dir := t.TempDir()
	path := writeTrace(t, dir, "m.jsonl", genTrace(20)[:2])
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("{not an event\n")
	f.Close()
	srv := serve(t, Options{}, path)
	var m Model
	get(t, srv.URL+"/api/tree?file=0", &m)
	if len(m.Nodes) != 2 || m.Error == nil || m.Error.Kind != trace.KindMalformedTrace || m.Error.Detail["line"] != float64(3) {
		t.Fatalf("model %d nodes, error %+v", len(m.Nodes), m.Error)
	}
}

// sse reads server-sent "version" events.
type sse struct {
	body io.ReadCloser
	sc   *bufio.Scanner
}

func openSSE(t *testing.T, url string) *sse {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	return &sse{resp.Body, bufio.NewScanner(resp.Body)}
}

// next returns the data of the next version event.
func (s *sse) next(t *testing.T) string {
	t.Helper()
	for s.sc.Scan() {
		if d, ok := strings.CutPrefix(s.sc.Text(), "data: "); ok {
			return d
		}
	}
	t.Fatal("the event stream ended")
	return ""
}

// TestAPILive follows a growing JSONL file: appended lines (a partial last
// line waits for its newline) and a replaced file each produce a version
// event and show up in the tree.
func TestAPILive(t *testing.T) {
	evs := genTrace(40)
	dir := t.TempDir()
	path := writeTrace(t, dir, "live.jsonl", evs[:3])
	srv := serve(t, Options{Poll: 5 * time.Millisecond}, path)
	stream := openSSE(t, srv.URL+"/api/live?file=0")
	defer stream.body.Close()
	v1 := stream.next(t)
	lines, err := os.ReadFile(writeTrace(t, t.TempDir(), "all.jsonl", evs))
	if err != nil {
		t.Fatal(err)
	}
	all := strings.SplitAfter(string(lines), "\n")
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	// Line 4 whole, line 5 without its newline: only line 4 counts.
	f.WriteString(all[3] + strings.TrimSuffix(all[4], "\n"))
	v2 := stream.next(t)
	var m Model
	get(t, srv.URL+"/api/tree?file=0", &m)
	if v2 == v1 || len(m.Nodes) != 4 || m.Error != nil {
		t.Fatalf("after append: version %s→%s, %d nodes, error %v", v1, v2, len(m.Nodes), m.Error)
	}
	f.WriteString("\n")
	f.Close()
	stream.next(t)
	get(t, srv.URL+"/api/tree?file=0", &m)
	if len(m.Nodes) != 5 {
		t.Fatalf("after the newline: %d nodes", len(m.Nodes))
	}
	// The run ends: the file is replaced by the final export.
	final := writeTrace(t, dir, "final.jsonl", evs[:2])
	if err := os.Rename(final, path); err != nil {
		t.Fatal(err)
	}
	stream.next(t)
	get(t, srv.URL+"/api/tree?file=0", &m)
	if len(m.Nodes) != 2 {
		t.Fatalf("after the replacement: %d nodes", len(m.Nodes))
	}
}

// TestHostAndAddress: the server answers only loopback Host names and
// listens only on loopback addresses, unless remote access is allowed.
func TestHostAndAddress(t *testing.T) {
	dir := t.TempDir()
	srv := serve(t, Options{}, writeTrace(t, dir, "a.jsonl", genTrace(10)))
	req, _ := http.NewRequest("GET", srv.URL+"/api/files", nil)
	req.Host = "rebind.example:80"
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("foreign Host: status %d", resp.StatusCode)
	}
	if resp.Header.Get("Content-Security-Policy") != "" {
		t.Fatal("a refused request got the page headers")
	}
	for _, tc := range []struct {
		addr   string
		remote bool
		kind   fault.Kind
	}{
		{"0.0.0.0:0", false, KindNotLoopback},
		{":0", false, KindNotLoopback},
		{"example.com:0", false, KindNotLoopback},
		{"nonsense", false, KindListen},
		{"127.0.0.1:0", false, ""},
		{"localhost:0", false, ""},
		{"[::1]:0", false, ""},
		{"0.0.0.0:0", true, ""},
	} {
		ln, err := Listen(tc.addr, tc.remote)
		if ln != nil {
			ln.Close()
		}
		var fe *fault.Error
		if tc.kind == "" && err != nil && !strings.Contains(err.Error(), "::1") {
			t.Errorf("%s: %v", tc.addr, err)
		}
		if tc.kind != "" && (!errors.As(err, &fe) || fe.Kind != tc.kind) {
			t.Errorf("%s: err %v, want %s", tc.addr, err, tc.kind)
		}
	}
	if _, err := New([]string{filepath.Join(dir, "missing.jsonl")}, Options{}); fault.KindOf(err) != fault.KindIO {
		t.Fatalf("missing file: %v", err)
	}
}

// TestPageAssets: the page and its scripts are served from the binary,
// with no reference to another origin.
func TestPageAssets(t *testing.T) {
	dir := t.TempDir()
	srv := serve(t, Options{}, writeTrace(t, dir, "a.jsonl", genTrace(10)))
	for _, p := range []string{"/", "/app.js", "/app.css"} {
		resp, err := http.Get(srv.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || len(body) == 0 || strings.Contains(string(body), "http://") || strings.Contains(string(body), "https://") {
			t.Errorf("%s: status %d, %d bytes (or an external reference)", p, resp.StatusCode, len(body))
		}
		if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'self'") {
			t.Errorf("%s: CSP %q", p, csp)
		}
	}
}

// BenchmarkBuild100k lays out a 100k-event trace (the work /api/tree does
// once per file version).
func BenchmarkBuild100k(b *testing.B) {
	evs := genTrace(100_000)
	b.ReportAllocs()
	for b.Loop() {
		build(evs, 1)
	}
}

// TestAPIOfficialLog: a log of the official Python RLM is shown converted.
func TestAPIOfficialLog(t *testing.T) {
	srv := serve(t, Options{}, "../trace/rlmlog/testdata/official.jsonl")
	var m Model
	get(t, srv.URL+"/api/tree?file=0", &m)
	if m.Error != nil || m.Summary.Turns != 3 || m.Summary.Answer != "billing" || m.Summary.Failed != 1 {
		t.Fatalf("summary %+v, error %v", m.Summary, m.Error)
	}
}
