package trace

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/rlm-go/rlm/fault"
)

// LiveFile appends every recorded event to a JSONL trace file as the event
// ends, so a viewer (rlm trace serve) can follow a run while it is going.
// The live file lists events in the order they ended; WriteFile replaces it
// at the end of the run with the ordinary export (sorted by seq), through a
// temporary file renamed over it, so a reader never sees a half-written
// final file. A nil *LiveFile is valid and writes nothing live.
type LiveFile struct {
	mu     sync.Mutex
	f      *os.File
	enc    *json.Encoder
	closed bool
}

// OpenLive creates (or truncates) path for live writing. It returns nil,
// without error, when path is not a .jsonl file or names something other
// than a regular file (a pipe, /dev/stdout): those get only the final
// export.
func OpenLive(path string) (*LiveFile, error) {
	if !strings.EqualFold(filepath.Ext(path), ".jsonl") {
		return nil, nil
	}
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fault.Wrap(err, fault.PhaseTrace, fault.KindIO, "cannot create trace file")
	}
	enc := json.NewEncoder(f)
	enc.SetEscapeHTML(false)
	return &LiveFile{f: f, enc: enc}, nil
}

// Observe appends ev as one line; use it with WithObserver. A write error
// stops live writing; the final WriteFile still runs.
func (l *LiveFile) Observe(ev Event) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return
	}
	if err := l.enc.Encode(ev); err != nil {
		l.closed = true
		_ = l.f.Close()
	}
}

// ObserveStart appends a span's start (Status StatusStarted) as one
// line; use it with WithStartObserver. A follower (rlm trace serve) shows
// the span in flight until its ended line, with the same id, replaces it;
// Read does the same, and the final export holds ended spans only.
func (l *LiveFile) ObserveStart(ev Event) {
	if ev.Status != StatusStarted {
		return
	}
	l.Observe(ev)
}

func (l *LiveFile) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.closed {
		l.closed = true
		_ = l.f.Close()
	}
}

// WriteFile ends live writing and writes the final export to path: for a
// nil LiveFile it is the package's WriteFile; otherwise the export is
// written to a temporary file beside path and renamed over it.
func (l *LiveFile) WriteFile(path, name string, events []Event, dropped int) error {
	if l == nil {
		return WriteFile(path, name, events, dropped)
	}
	l.close()
	tmpPath, err := createTemp(path)
	if err != nil {
		return fault.Wrap(err, fault.PhaseTrace, fault.KindIO, "cannot create trace file")
	}
	// An existing trace keeps its mode, as os.Create (the live file, and
	// WriteFile for other paths) keeps it.
	if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() {
		_ = os.Chmod(tmpPath, fi.Mode().Perm())
	}
	if err := WriteFile(tmpPath, name, events, dropped); err != nil {
		_ = os.Remove(tmpPath)
		return err
	}
	if err := os.Rename(tmpPath, path); err != nil {
		_ = os.Remove(tmpPath)
		return fault.Wrap(err, fault.PhaseTrace, fault.KindIO, "cannot write trace file")
	}
	return nil
}

// createTemp creates an empty temporary file beside path with the mode
// os.Create gives (0666 less the umask; os.CreateTemp's 0600 widened by a
// chmod would ignore the umask) and returns its name.
func createTemp(path string) (string, error) {
	var b [8]byte
	for range 100 {
		_, _ = rand.Read(b[:])
		name := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+"."+hex.EncodeToString(b[:])+".jsonl")
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		return name, f.Close()
	}
	return "", fs.ErrExist
}
