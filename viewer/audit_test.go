package viewer

import (
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/rlm-go/rlm/trace"
)

// TestHostWithoutPort: a loopback Host header without a port (a server on
// port 80, or a client that omits the default port) is a loopback name
// and is served; a foreign one is still refused.
func TestHostWithoutPort(t *testing.T) {
	srv := serve(t, Options{}, writeTrace(t, t.TempDir(), "a.jsonl", genTrace(10)))
	for host, want := range map[string]int{
		"localhost":         http.StatusOK,
		"127.0.0.1":         http.StatusOK,
		"[::1]":             http.StatusOK,
		"rebind.example":    http.StatusForbidden,
		"rebind.example:80": http.StatusForbidden,
		"127.0.0.1:80":      http.StatusOK,
	} {
		req, _ := http.NewRequest("GET", srv.URL+"/api/files", nil)
		req.Host = host
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("Host %q: status %d, want %d", host, resp.StatusCode, want)
		}
	}
}

// TestBrowserEscapesFileStrings: a hand-edited or imported file's status
// and kind are text, not markup: the tree and the timeline insert them
// escaped, so they cannot add elements to the page.
func TestBrowserEscapesFileStrings(t *testing.T) {
	ctx := browser(t)
	const inject = `"><b id="pwn">x</b><i class="`
	path := filepath.Join(t.TempDir(), "hostile.jsonl")
	line := `{"seq":1,"id":"e1","kind":"note` + strings.ReplaceAll(inject, `"`, `\"`) + `","name":"n","status":"ok` +
		strings.ReplaceAll(inject, `"`, `\"`) + `","start":"2026-01-01T00:00:00Z","end":"2026-01-01T00:00:01Z","duration_ms":1000}` + "\n"
	if err := os.WriteFile(path, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := serve(t, Options{}, path)
	run(t, ctx, chromedp.Navigate(srv.URL+"/#tree"))
	waitVersion(t, ctx)
	if got := attr(t, ctx, `document.querySelectorAll(".row").length + "/" + document.querySelectorAll("#pwn").length`); got != "1/0" {
		t.Fatalf("tree: rows/injected elements = %s", got)
	}
	run(t, ctx, chromedp.Click(chromedp.CSS(`button[data-view="timeline"]`)), chromedp.WaitVisible(chromedp.CSS(`.timeline .bar`)))
	if got := attr(t, ctx, `document.querySelectorAll(".timeline .bar").length + "/" + document.querySelectorAll("#pwn").length`); got != "1/0" {
		t.Fatalf("timeline: bars/injected elements = %s", got)
	}
}

// TestOfficialLogTooLarge: an official log over the read bound is
// reported as too large (trace/malformed_trace, limit_bytes), as a trace
// file is, rather than shown cut at the bound without an error.
func TestOfficialLogTooLarge(t *testing.T) {
	data, err := os.ReadFile("../trace/rlmlog/testdata/official.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	defer func(n int64) { maxFileBytes = n }(maxFileBytes)
	// The bound falls on a line end: the first two lines fit, the rest not.
	maxFileBytes = int64(len(lines[0]) + len(lines[1]))
	path := filepath.Join(t.TempDir(), "official.jsonl")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	srv := serve(t, Options{}, path)
	var m Model
	if code := get(t, srv.URL+"/api/tree?file=0", &m); code != http.StatusOK {
		t.Fatalf("status %d", code)
	}
	if m.Error == nil || m.Error.Kind != trace.KindMalformedTrace || m.Error.Detail["limit_bytes"] == nil {
		t.Fatalf("%d nodes, %d turns, error %+v; want trace/malformed_trace with limit_bytes", len(m.Nodes), m.Summary.Turns, m.Error)
	}
}

// TestAPINodeStalePosition: a position taken from a tree fetched before
// the file changed is refused (404) rather than answered with whatever
// node now sits at that position. The page sends the version of its tree.
func TestAPINodeStalePosition(t *testing.T) {
	dir := t.TempDir()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ev := func(seq int, parent string) trace.Event {
		return trace.Event{Seq: uint64(seq), ID: "e" + strconv.Itoa(seq), Parent: parent, Kind: trace.KindNote, Name: "n", Status: trace.StatusOK, Start: t0, End: t0}
	}
	// A live file lists events as they end: the child before its parent.
	path := writeTrace(t, dir, "live.jsonl", []trace.Event{ev(2, "e1")})
	srv := serve(t, Options{}, path)
	var m Model
	get(t, srv.URL+"/api/tree?file=0", &m)
	if len(m.Nodes) != 1 || m.Nodes[0].ID != "e2" {
		t.Fatalf("first tree %+v", m.Nodes)
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	_ = trace.WriteJSONL(f, []trace.Event{ev(1, "")}) // the parent: e2 moves under it
	f.Close()
	var d Detail
	url := srv.URL + "/api/node?file=0&pos=0&version=" + strconv.Itoa(m.Version)
	if code := get(t, url, &d); code != http.StatusNotFound {
		t.Fatalf("stale position: status %d, node %s (the page showed e2 there)", code, d.Event.ID)
	}
	var m2 Model
	get(t, srv.URL+"/api/tree?file=0", &m2)
	url = srv.URL + "/api/node?file=0&pos=1&version=" + strconv.Itoa(m2.Version)
	if code := get(t, url, &d); code != http.StatusOK || d.Event.ID != "e2" {
		t.Fatalf("current position: status %d, node %s", code, d.Event.ID)
	}
}
