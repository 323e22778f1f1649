package viewer

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/trace"
	"github.com/rlm-go/rlm/trace/rlmlog"
)

// maxFileBytes bounds what the viewer reads of one trace file, as
// trace.Read does. It is a variable for tests.
var maxFileBytes int64 = 1 << 30

// source is one trace file the viewer shows. A JSONL file is read
// incrementally: each refresh parses the complete lines appended since the
// last one (a trailing line without its newline waits for the next
// refresh), so a trace a running `rlm run --trace x.jsonl` is writing grows
// in the page. A file replaced (another inode) or truncated is read again
// from the start. Other files (the JSON envelope, and a log of the official
// Python RLM, converted with rlmlog.Import) are read whole whenever their
// size or modification time changes.
type source struct {
	path string
	name string
	wait bool // a missing file is waited for (Options.Wait), not an error

	mu       sync.Mutex
	info     os.FileInfo // of the last read
	off      int64       // bytes of a JSONL file consumed
	line     int         // lines of a JSONL file consumed
	events   []trace.Event
	started  map[string]int // id -> index in events of a span in flight (a start line not yet replaced)
	version  int            // bumped whenever events change
	err      error
	waiting  bool   // the file does not exist yet
	official bool   // the file is a log of the official Python RLM (read whole, converted)
	model    *Model // cached for version
	encoded  []byte // model as JSON, cached for version
	gzipped  []byte // encoded, gzip-compressed, cached for version
	runsJSON []byte // the Runs of /api/runs as JSON, cached for version
	runsGzip []byte // runsJSON, gzip-compressed, cached for version
}

func newSource(path string) *source {
	return &source{path: path, name: filepath.Base(path)}
}

func (s *source) jsonl() bool { return strings.EqualFold(filepath.Ext(s.path), ".jsonl") }

// refresh reads what changed in the file since the last refresh and
// reports the current version.
func (s *source) refresh() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	fi, err := os.Stat(s.path)
	if err != nil && s.wait && s.info == nil && errors.Is(err, fs.ErrNotExist) {
		if !s.waiting {
			s.waiting = true
			s.version++
		}
		return s.version
	}
	if s.waiting {
		s.waiting = false
		s.version++
	}
	if err != nil {
		s.setErr(fault.Wrap(err, fault.PhaseTrace, fault.KindIO, "cannot open trace file").With("file", s.name))
		return s.version
	}
	replaced := s.info == nil || !os.SameFile(s.info, fi) || fi.Size() < s.off
	if s.jsonl() && (replaced || s.off == 0) {
		s.official = sniffOfficial(s.path)
	}
	if !s.jsonl() || s.official {
		if !replaced && fi.Size() == s.info.Size() && fi.ModTime().Equal(s.info.ModTime()) {
			return s.version
		}
		s.info = fi
		s.readWhole()
		return s.version
	}
	if replaced {
		s.off, s.line, s.events, s.started, s.err = 0, 0, nil, nil, nil
		s.version++
	}
	s.info = fi
	if fi.Size() > s.off && s.err == nil {
		s.readTail()
	}
	return s.version
}

func (s *source) setErr(err error) {
	if s.err == nil || s.err.Error() != err.Error() {
		s.err = err
		s.version++
	}
}

func (s *source) readWhole() {
	f, err := os.Open(s.path)
	if err != nil {
		s.setErr(fault.Wrap(err, fault.PhaseTrace, fault.KindIO, "cannot open trace file").With("file", s.name))
		return
	}
	defer f.Close()
	var evs []trace.Event
	if s.official {
		// One byte past the bound tells a file over it, which is refused
		// as trace.Read refuses one, not shown cut at the bound.
		lr := &io.LimitedReader{R: f, N: maxFileBytes + 1}
		evs, err = rlmlog.Import(lr)
		if lr.N == 0 {
			evs, err = nil, fault.New(fault.PhaseTrace, trace.KindMalformedTrace, "trace is too large").With("limit_bytes", maxFileBytes)
		}
	} else {
		evs, err = trace.Read(f)
	}
	s.events, s.err = evs, err
	s.version++
}

// sniffOfficial reports whether the file at path starts like a log of the
// official Python RLM: its first line is a metadata entry, which that
// logger writes as {"type": "metadata", ...}.
func sniffOfficial(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 64)
	n, _ := io.ReadFull(f, head)
	return rlmlog.IsLog(head[:n])
}

func (s *source) readTail() {
	f, err := os.Open(s.path)
	if err != nil {
		s.setErr(fault.Wrap(err, fault.PhaseTrace, fault.KindIO, "cannot open trace file").With("file", s.name))
		return
	}
	defer f.Close()
	if s.info.Size() > maxFileBytes {
		s.setErr(fault.New(fault.PhaseTrace, trace.KindMalformedTrace, "trace is too large").With("limit_bytes", maxFileBytes))
		return
	}
	data, err := io.ReadAll(io.NewSectionReader(f, s.off, s.info.Size()-s.off))
	if err != nil {
		s.setErr(fault.Wrap(err, fault.PhaseTrace, fault.KindIO, "cannot read trace").With("file", s.name))
		return
	}
	end := bytes.LastIndexByte(data, '\n')
	if end < 0 {
		return // no complete line yet
	}
	lines := bytes.Split(data[:end], []byte("\n"))
	evs, bad, err := parseLines(lines)
	if s.started == nil {
		s.started = map[string]int{}
	}
	for _, ev := range evs {
		// A span's start line stays, in flight, until its end replaces it.
		s.events = trace.MergeStarted(s.events, s.started, ev)
	}
	for _, l := range lines[:bad] {
		s.off += int64(len(l)) + 1
	}
	s.line += bad
	if err != nil {
		s.setErr(fault.Wrap(err, fault.PhaseTrace, trace.KindMalformedTrace, "trace line is not an event").With("line", s.line+1).With("file", s.name))
	}
	if len(evs) > 0 {
		s.version++
	}
}

// parseLines decodes JSONL lines (blank ones skipped) on every CPU, in
// order. It returns the events of the lines before the first bad one, the
// number of lines consumed (all, or the index of the first bad line) and
// that line's error.
func parseLines(lines [][]byte) ([]trace.Event, int, error) {
	out := make([]trace.Event, len(lines))
	ok := make([]bool, len(lines))
	errs := make([]error, len(lines))
	workers := runtime.GOMAXPROCS(0)
	if len(lines) < 1024 {
		workers = 1
	}
	var wg sync.WaitGroup
	per := (len(lines) + workers - 1) / workers
	for w := 0; w < workers; w++ {
		lo, hi := w*per, min((w+1)*per, len(lines))
		if lo >= hi {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := lo; i < hi; i++ {
				l := bytes.TrimSpace(lines[i])
				if len(l) == 0 {
					continue
				}
				if errs[i] = json.Unmarshal(l, &out[i]); errs[i] == nil {
					ok[i] = true
				} else {
					return // later lines of this chunk are not needed
				}
			}
		}()
	}
	wg.Wait()
	evs := out[:0]
	for i := range lines {
		if errs[i] != nil {
			return evs, i, errs[i]
		}
		if ok[i] {
			evs = append(evs, out[i])
		}
	}
	return evs, len(lines), nil
}

// snapshot returns the current model, built once per version.
func (s *source) snapshot() *Model {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.snapshotLocked()
}

// view calls fn with the current model and the events it was built from,
// under the source's lock (fn must not keep events).
func (s *source) view(fn func(m *Model, events []trace.Event)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fn(s.snapshotLocked(), s.events)
}

// snapshotLocked is snapshot with s.mu held.
func (s *source) snapshotLocked() *Model {
	if s.model == nil || s.model.Version != s.version {
		s.model, s.encoded, s.gzipped = build(s.events, s.version), nil, nil
		s.runsJSON, s.runsGzip = nil, nil
		s.model.Name = s.name
		s.model.Waiting = s.waiting
		if s.err != nil {
			s.model.Error = fault.As(s.err)
			if s.model.Error == nil {
				s.model.Error = fault.Wrap(s.err, fault.PhaseTrace, fault.KindIO, s.err.Error())
			}
		}
	}
	return s.model
}

// treeJSON returns the current model as JSON, encoded once per version;
// with gz, gzip-compressed (also once per version).
func (s *source) treeJSON(gz bool) []byte {
	m := s.snapshot()
	s.mu.Lock()
	defer s.mu.Unlock()
	current := s.model == m
	plain := s.encoded
	if plain == nil || !current {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(m)
		plain = b.Bytes()
		if current {
			s.encoded = plain
		}
	}
	if !gz {
		return plain
	}
	if current && s.gzipped != nil {
		return s.gzipped
	}
	z := gzipBytes(plain)
	if current {
		s.gzipped = z
	}
	return z
}

// runs returns /api/runs's answer for the current version as JSON,
// gzip-compressed when gz; both forms are built once per version (a live
// page asks again on every change, and a large trace's runs are
// megabytes of JSON).
func (s *source) runs(gz bool) []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.snapshotLocked()
	if s.runsJSON == nil {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(Runs{Version: m.Version, Name: m.Name, Waiting: m.Waiting, Error: m.Error, Runs: m.runs(s.events)})
		s.runsJSON = b.Bytes()
	}
	if !gz {
		return s.runsJSON
	}
	if s.runsGzip == nil {
		s.runsGzip = gzipBytes(s.runsJSON)
	}
	return s.runsGzip
}

// gzipBytes compresses b at gzip.BestSpeed: the tree JSON is highly
// repetitive, so the fastest level already shrinks it about tenfold
// (docs/trace.md) in a fraction of the time of the default level.
func gzipBytes(b []byte) []byte {
	var out bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&out, gzip.BestSpeed)
	_, _ = zw.Write(b)
	_ = zw.Close()
	return out.Bytes()
}

// event returns a copy of the i-th event of the current model's order.
func (s *source) event(m *Model, pos int) (trace.Event, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if pos < 0 || pos >= len(m.Nodes) {
		return trace.Event{}, false
	}
	i := m.index[pos]
	if i >= len(s.events) || m.Version != s.version && s.events[i].ID != m.Nodes[pos].ID {
		return trace.Event{}, false
	}
	return s.events[i], true
}
