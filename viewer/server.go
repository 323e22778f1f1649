// Package viewer serves a local web page that shows trace files: each run
// as a summary and a strip of its iterations (the model's reply, each
// cell's code, output and exception, sub-calls, child RLMs as nested
// runs; computed in runs.go), the recursion tree with per-node figures
// and subtree totals, a timeline, a
// node's detail, search and filters, a side-by-side comparison of several
// files, and live following of a JSONL trace that a running `rlm run
// --trace x.jsonl` is writing. Every asset is embedded in the binary (plain
// JavaScript, no build step, no CDN); the page talks to a small JSON API on
// the same server (see docs/trace.md).
package viewer

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/trace"
)

//go:embed assets
var assets embed.FS

// Error kinds of the viewer.
const (
	// KindNotLoopback: the listen address is not a loopback address and
	// remote access was not allowed.
	KindNotLoopback fault.Kind = "addr_not_loopback"
	// KindListen: the address is malformed or cannot be listened on.
	KindListen fault.Kind = "listen_failed"
)

// DefaultPoll is how often a followed file is checked for new lines.
const DefaultPoll = 250 * time.Millisecond

// Options configures a Server.
type Options struct {
	Poll        time.Duration // how often /api/live checks a file; DefaultPoll when zero
	AllowRemote bool          // accept requests for any Host (Listen also allows any address)
	// Wait shows a file that does not exist yet as waiting (the page says
	// so, and follows it once it appears: a run about to write its trace)
	// instead of refusing it. Its directory must exist.
	Wait bool
}

// Server shows a fixed list of trace files.
type Server struct {
	sources []*source
	opts    Options
}

// New returns a server for the trace files at paths. Every file must exist
// when the server starts (Kind io_error otherwise), unless opts.Wait,
// which waits for a file that does not exist yet in a directory that
// does; its content is read on demand and may still be growing.
func New(paths []string, opts Options) (*Server, error) {
	if opts.Poll <= 0 {
		opts.Poll = DefaultPoll
	}
	s := &Server{opts: opts}
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil {
			if !opts.Wait || !errors.Is(err, fs.ErrNotExist) {
				return nil, fault.Wrap(err, fault.PhaseTrace, fault.KindIO, "cannot open trace file").With("file", p)
			}
			if fi, derr := os.Stat(filepath.Dir(p)); derr != nil || !fi.IsDir() {
				return nil, fault.Wrap(err, fault.PhaseTrace, fault.KindIO, "cannot wait for the trace file: its directory does not exist").
					With("file", p).WithHint("create the directory, or check the path")
			}
		}
		src := newSource(p)
		src.wait = opts.Wait
		s.sources = append(s.sources, src)
	}
	return s, nil
}

// WaitFile waits until a file exists at path, checking every poll
// (DefaultPoll when zero), for at most as long as ctx lasts: nil once it
// exists, ctx's error otherwise.
func WaitFile(ctx context.Context, path string, poll time.Duration) error {
	if poll <= 0 {
		poll = DefaultPoll
	}
	tick := time.NewTicker(poll)
	defer tick.Stop()
	for {
		if _, err := os.Stat(path); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
}

// Listen opens a TCP listener on addr. Unless allowRemote, addr must name a
// loopback host (127.0.0.1, ::1, localhost); an empty host means every
// interface and is refused too (Kind addr_not_loopback).
func Listen(addr string, allowRemote bool) (net.Listener, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fault.Wrap(err, fault.PhaseConfig, KindListen, "invalid listen address").With("addr", addr)
	}
	if !allowRemote && !isLoopbackHost(host) {
		return nil, fault.New(fault.PhaseConfig, KindNotLoopback, "the viewer listens on loopback addresses only").
			With("addr", addr).WithHint("use --addr 127.0.0.1:PORT, or pass --allow-remote to listen on " + addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fault.Wrap(err, fault.PhaseConfig, KindListen, "cannot listen").With("addr", addr)
	}
	return ln, nil
}

func isLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// requestHost returns the host of a Host header, which has no port when
// the port is the scheme's default (a server on port 80).
func requestHost(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return strings.TrimSuffix(strings.TrimPrefix(hostport, "["), "]")
}

// Handler returns the page and its API:
//
//	GET /                      the page (index.html, app.js, app.css)
//	GET /api/files             [{"file","name","events","version","summary","error"}]
//	GET /api/tree?file=N       the file's Model: summary and nodes in tree order
//	GET /api/node?file=N&pos=P[&version=V] {"node": Node, "event": the full event (redacted)};
//	                           404 when the file is no longer at version V
//	GET /api/live?file=N       server-sent events: "version" whenever the file changed
//	GET /api/runs?file=N       {"version", "runs": [RunView]}: every root run, summary and iteration strip (gzip as /api/tree)
//	GET /api/run?file=N&pos=P[&version=V]       RunView of the run or child RLM at P
//	GET /api/iteration?file=N&pos=P[&version=V] Iteration: the turn at P, its reply, cells or steps, sub-calls, children
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	static, _ := fs.Sub(assets, "assets")
	mux.Handle("GET /", http.FileServerFS(static))
	mux.HandleFunc("GET /api/files", s.files)
	mux.HandleFunc("GET /api/tree", s.tree)
	mux.HandleFunc("GET /api/node", s.node)
	mux.HandleFunc("GET /api/live", s.live)
	mux.HandleFunc("GET /api/runs", s.runs)
	mux.HandleFunc("GET /api/run", s.run)
	mux.HandleFunc("GET /api/iteration", s.iteration)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// A page elsewhere cannot read the API through DNS rebinding:
		// only loopback Host names are served unless remote access is on.
		if !s.opts.AllowRemote && !isLoopbackHost(requestHost(r.Host)) {
			http.Error(w, "forbidden host", http.StatusForbidden)
			return
		}
		w.Header().Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Cache-Control", "no-store")
		mux.ServeHTTP(w, r)
	})
}

// FileInfo is one row of /api/files.
type FileInfo struct {
	File    int          `json:"file"`
	Name    string       `json:"name"`
	Events  int          `json:"events"`
	Version int          `json:"version"`
	Summary Summary      `json:"summary"`
	Waiting bool         `json:"waiting,omitempty"` // the file does not exist yet (Options.Wait)
	Error   *fault.Error `json:"error,omitempty"`
}

func (s *Server) files(w http.ResponseWriter, r *http.Request) {
	out := make([]FileInfo, len(s.sources))
	for i, src := range s.sources {
		src.refresh()
		m := src.snapshot()
		out[i] = FileInfo{File: i, Name: m.Name, Events: len(m.Nodes), Version: m.Version, Summary: m.Summary, Waiting: m.Waiting, Error: m.Error}
	}
	writeJSON(w, out)
}

func (s *Server) source(w http.ResponseWriter, r *http.Request) *source {
	n, err := strconv.Atoi(r.URL.Query().Get("file"))
	if err != nil || n < 0 || n >= len(s.sources) {
		http.Error(w, "unknown file", http.StatusNotFound)
		return nil
	}
	return s.sources[n]
}

func (s *Server) tree(w http.ResponseWriter, r *http.Request) {
	src := s.source(w, r)
	if src == nil {
		return
	}
	src.refresh()
	writeEncoded(w, r, src.treeJSON)
}

// writeEncoded writes the JSON body encode gives, gzip-compressed when the
// request accepts it.
func writeEncoded(w http.ResponseWriter, r *http.Request, encode func(gz bool) []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Vary", "Accept-Encoding")
	gz := acceptsGzip(r.Header.Values("Accept-Encoding"))
	body := encode(gz)
	if gz {
		h.Set("Content-Encoding", "gzip")
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	_, _ = w.Write(body)
}

// acceptsGzip reports whether Accept-Encoding values allow gzip: a "gzip"
// (or "*") coding whose q is not 0, "gzip" deciding over "*".
func acceptsGzip(values []string) bool {
	star := false
	for _, v := range values {
		for part := range strings.SplitSeq(v, ",") {
			coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
			coding = strings.ToLower(strings.TrimSpace(coding))
			if coding != "gzip" && coding != "*" {
				continue
			}
			ok := true
			for p := range strings.SplitSeq(params, ";") {
				k, val, _ := strings.Cut(strings.TrimSpace(p), "=")
				if strings.EqualFold(strings.TrimSpace(k), "q") {
					q, err := strconv.ParseFloat(strings.TrimSpace(val), 64)
					ok = err == nil && q > 0
				}
			}
			if coding == "gzip" {
				return ok
			}
			star = ok
		}
	}
	return star
}

// Detail is what /api/node returns.
type Detail struct {
	Node  Node        `json:"node"`
	Event trace.Event `json:"event"`
}

func (s *Server) node(w http.ResponseWriter, r *http.Request) {
	src := s.source(w, r)
	if src == nil {
		return
	}
	src.refresh()
	m := src.snapshot()
	pos, err := strconv.Atoi(r.URL.Query().Get("pos"))
	if err != nil {
		http.Error(w, "bad pos", http.StatusBadRequest)
		return
	}
	// pos is a position in the tree the page fetched (version, which the
	// page sends): in a file changed since, it may name another node.
	stale := false
	if v := r.URL.Query().Get("version"); v != "" {
		stale = v != strconv.Itoa(m.Version)
	}
	ev, ok := src.event(m, pos)
	if stale || !ok || ev.ID != m.Nodes[pos].ID {
		http.Error(w, "unknown node (the file changed: reload the tree)", http.StatusNotFound)
		return
	}
	// Recorded traces are redacted when written; an imported or
	// hand-edited file is redacted again here.
	ev.Attrs = trace.Redact(ev.Attrs)
	ev.Error = trace.RedactError(ev.Error)
	writeJSON(w, Detail{Node: m.Nodes[pos], Event: ev})
}

func (s *Server) live(w http.ResponseWriter, r *http.Request) {
	src := s.source(w, r)
	if src == nil {
		return
	}
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	tick := time.NewTicker(s.opts.Poll)
	defer tick.Stop()
	last := -1
	for {
		if v := src.refresh(); v != last {
			if _, err := fmt.Fprintf(w, "event: version\ndata: %d\n\n", v); err != nil {
				return
			}
			fl.Flush()
			last = v
		}
		select {
		case <-r.Context().Done():
			return
		case <-tick.C:
		}
	}
}

// Runs is what /api/runs returns.
type Runs struct {
	Version int          `json:"version"`
	Name    string       `json:"name"`
	Waiting bool         `json:"waiting,omitempty"` // the file does not exist yet (Options.Wait)
	Error   *fault.Error `json:"error,omitempty"`   // the file could not be read (wholly or from some line on)
	Runs    []RunView    `json:"runs"`
}

func (s *Server) runs(w http.ResponseWriter, r *http.Request) {
	src := s.source(w, r)
	if src == nil {
		return
	}
	src.refresh()
	writeEncoded(w, r, src.runs)
}

// at resolves the request's pos (and version) to a node of the current
// model whose kind is one of kinds; it writes the error itself.
func at(w http.ResponseWriter, r *http.Request, m *Model, kinds ...trace.Kind) (int, bool) {
	pos, err := strconv.Atoi(r.URL.Query().Get("pos"))
	if err != nil {
		http.Error(w, "bad pos", http.StatusBadRequest)
		return 0, false
	}
	if v := r.URL.Query().Get("version"); v != "" && v != strconv.Itoa(m.Version) || pos < 0 || pos >= len(m.Nodes) {
		http.Error(w, "unknown node (the file changed: reload)", http.StatusNotFound)
		return 0, false
	}
	if !slices.Contains(kinds, m.Nodes[pos].Kind) {
		http.Error(w, "the node is not a "+string(kinds[0]), http.StatusNotFound)
		return 0, false
	}
	return pos, true
}

func (s *Server) run(w http.ResponseWriter, r *http.Request) {
	src := s.source(w, r)
	if src == nil {
		return
	}
	src.refresh()
	src.view(func(m *Model, events []trace.Event) {
		if pos, ok := at(w, r, m, trace.KindRun, trace.KindChild); ok {
			writeJSON(w, m.runView(events, pos))
		}
	})
}

func (s *Server) iteration(w http.ResponseWriter, r *http.Request) {
	src := s.source(w, r)
	if src == nil {
		return
	}
	src.refresh()
	src.view(func(m *Model, events []trace.Event) {
		if pos, ok := at(w, r, m, trace.KindTurn); ok {
			writeJSON(w, m.iteration(events, pos))
		}
	})
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}
