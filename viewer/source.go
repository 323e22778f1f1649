package viewer

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/trace"
)

// maxFileBytes bounds what the viewer reads of one trace file, as
// trace.Read does. It is a variable for tests.
var maxFileBytes int64 = 1 << 30

// source is one trace file the viewer shows. A JSONL file is read
// incrementally: each refresh parses the complete lines appended since the
// last one (a trailing line without its newline waits for the next
// refresh), so a trace a running `rlm run --trace x.jsonl` is writing grows
// in the page. A file replaced (another inode) or truncated is read again
// from the start. Other files (the JSON envelope) are read whole whenever
// their size or modification time changes.
type source struct {
	path string
	name string

	mu      sync.Mutex
	info    os.FileInfo // of the last read
	off     int64       // bytes of a JSONL file consumed
	line    int         // lines of a JSONL file consumed
	events  []trace.Event
	version int // bumped whenever events change
	err     error
	model   *Model // cached for version
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
	if err != nil {
		s.setErr(fault.Wrap(err, fault.PhaseTrace, trace.KindIO, "cannot open trace file").With("file", s.name))
		return s.version
	}
	replaced := s.info == nil || !os.SameFile(s.info, fi) || fi.Size() < s.off
	if !s.jsonl() {
		if !replaced && fi.Size() == s.info.Size() && fi.ModTime().Equal(s.info.ModTime()) {
			return s.version
		}
		s.info = fi
		s.readWhole()
		return s.version
	}
	if replaced {
		s.off, s.line, s.events, s.err = 0, 0, nil, nil
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
		s.setErr(fault.Wrap(err, fault.PhaseTrace, trace.KindIO, "cannot open trace file").With("file", s.name))
		return
	}
	defer f.Close()
	evs, err := trace.Read(f)
	s.events, s.err = evs, err
	s.version++
}

func (s *source) readTail() {
	f, err := os.Open(s.path)
	if err != nil {
		s.setErr(fault.Wrap(err, fault.PhaseTrace, trace.KindIO, "cannot open trace file").With("file", s.name))
		return
	}
	defer f.Close()
	if s.info.Size() > maxFileBytes {
		s.setErr(fault.New(fault.PhaseTrace, trace.KindMalformedTrace, "trace is too large").With("limit_bytes", maxFileBytes))
		return
	}
	data, err := io.ReadAll(io.NewSectionReader(f, s.off, s.info.Size()-s.off))
	if err != nil {
		s.setErr(fault.Wrap(err, fault.PhaseTrace, trace.KindIO, "cannot read trace").With("file", s.name))
		return
	}
	end := bytes.LastIndexByte(data, '\n')
	if end < 0 {
		return // no complete line yet
	}
	before := len(s.events)
	for _, line := range bytes.Split(data[:end], []byte("\n")) {
		s.line++
		s.off += int64(len(line)) + 1
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		var ev trace.Event
		if err := json.Unmarshal(line, &ev); err != nil {
			s.setErr(fault.Wrap(err, fault.PhaseTrace, trace.KindMalformedTrace, "trace line is not an event").With("line", s.line).With("file", s.name))
			break
		}
		s.events = append(s.events, ev)
	}
	if len(s.events) != before {
		s.version++
	}
}

// snapshot returns the current model, built once per version.
func (s *source) snapshot() *Model {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.model == nil || s.model.Version != s.version {
		s.model = build(s.events, s.version)
		s.model.Name = s.name
		if s.err != nil {
			s.model.Error = fault.As(s.err)
			if s.model.Error == nil {
				s.model.Error = fault.Wrap(s.err, fault.PhaseTrace, trace.KindIO, s.err.Error())
			}
		}
	}
	return s.model
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
