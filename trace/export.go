package trace

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rlm-go/rlm/fault"
)

// Envelope is the JSON export format: {"schema","name","generated_at","payload"}.
type Envelope struct {
	Schema      string    `json:"schema"`
	Name        string    `json:"name"`
	GeneratedAt time.Time `json:"generated_at"`
	Payload     Payload   `json:"payload"`
}

// Payload is the body of an exported trace.
type Payload struct {
	Events  []Event `json:"events"`
	Dropped int     `json:"dropped,omitempty"`
}

// Error kinds of the trace package.
const (
	// KindMalformedTrace: a trace file or payload that cannot be read as
	// one (not JSON, an unknown version, too large).
	KindMalformedTrace fault.Kind = "malformed_trace"
	// KindCellException marks the span of a code cell that raised a
	// Python exception (detail exception, its type, and line): the
	// engine's code mode ends a cell's span with it (the model sees the
	// exception and the run goes on; in the trace the cell is a failed
	// step, like a plan step that failed), and an imported official log's
	// cell whose stderr is not empty ends with it (trace/rlmlog).
	KindCellException fault.Kind = "cell_exception"
)

// WriteJSON writes events as one JSON envelope.
//
// The output is byte for byte what an indenting json.Encoder writes for
// the whole Envelope, but it is written an event at a time: the envelope
// with no events is encoded once, and each event is encoded, indented at
// its depth, into its empty array. A large trace is never held as one
// buffer, nor re-scanned whole to indent it (that pass was 16% of the CPU
// of a 1,000-sub-call run traced to a .json file).
func WriteJSON(w io.Writer, name string, events []Event, dropped int) error {
	env := Envelope{Schema: Schema, Name: name, GeneratedAt: time.Now().UTC(), Payload: Payload{Events: []Event{}, Dropped: dropped}}
	var frame bytes.Buffer
	enc := json.NewEncoder(&frame)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(env); err != nil {
		return err
	}
	// The one unescaped `"events": []` of the frame: a quote inside a
	// string (the name) is escaped.
	const empty = `"events": []`
	at := bytes.Index(frame.Bytes(), []byte(empty))
	if at < 0 {
		return errors.New("trace: the envelope has no events array")
	}
	head, tail := frame.Bytes()[:at+len(empty)-1], frame.Bytes()[at+len(empty)-1:] // split before ']'
	if _, err := w.Write(head); err != nil {
		return err
	}
	if len(events) > 0 {
		// Events sit at depth 3 (envelope, payload, events): 6 spaces.
		const elemIndent = "      "
		var ev bytes.Buffer
		evEnc := json.NewEncoder(&ev)
		evEnc.SetIndent(elemIndent, "  ")
		evEnc.SetEscapeHTML(false)
		for i := range events {
			ev.Reset()
			if i > 0 {
				ev.WriteByte(',')
			}
			ev.WriteString("\n" + elemIndent)
			if err := evEnc.Encode(events[i]); err != nil {
				return err
			}
			ev.Truncate(ev.Len() - 1) // Encode's newline
			if _, err := w.Write(ev.Bytes()); err != nil {
				return err
			}
		}
		if _, err := io.WriteString(w, "\n    "); err != nil {
			return err
		}
	}
	_, err := w.Write(tail)
	return err
}

// WriteJSONL writes one event per line.
func WriteJSONL(w io.Writer, events []Event) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, ev := range events {
		if err := enc.Encode(ev); err != nil {
			return err
		}
	}
	return nil
}

// WriteFile exports events to path: JSONL when the extension is .jsonl,
// the JSON envelope otherwise.
func WriteFile(path, name string, events []Event, dropped int) error {
	f, err := os.Create(path)
	if err != nil {
		return fault.Wrap(err, fault.PhaseTrace, fault.KindIO, "cannot create trace file")
	}
	bw := bufio.NewWriter(f)
	if strings.EqualFold(filepath.Ext(path), ".jsonl") {
		err = WriteJSONL(bw, events)
	} else {
		err = WriteJSON(bw, name, events, dropped)
	}
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fault.Wrap(err, fault.PhaseTrace, fault.KindIO, "cannot write trace file")
	}
	return nil
}

// ReadFile opens path and decodes it with Read; a file that cannot be
// opened is Kind io_error.
func ReadFile(path string) ([]Event, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fault.Wrap(err, fault.PhaseTrace, fault.KindIO, "cannot open trace file")
	}
	defer f.Close()
	return Read(f)
}

// maxTraceBytes bounds the input Read accepts. It is a variable for tests.
var maxTraceBytes int64 = 1 << 30

// Read decodes a trace in either format: a JSON envelope (detected by its
// "schema" field) or JSONL. Input larger than 1 GiB fails with Kind
// malformed_trace (detail limit_bytes) after reading only that much.
func Read(r io.Reader) ([]Event, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxTraceBytes+1))
	if err != nil {
		return nil, fault.Wrap(err, fault.PhaseTrace, fault.KindIO, "cannot read trace")
	}
	if int64(len(data)) > maxTraceBytes {
		return nil, fault.New(fault.PhaseTrace, KindMalformedTrace, "trace is too large").With("limit_bytes", maxTraceBytes)
	}
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return nil, nil
	}
	var env Envelope
	if err := json.Unmarshal(trimmed, &env); err == nil && env.Schema != "" {
		if env.Schema != Schema {
			return nil, fault.New(fault.PhaseTrace, KindMalformedTrace, "unsupported trace schema").With("schema", env.Schema)
		}
		return env.Payload.Events, nil
	}
	var out []Event
	started := map[string]int{} // id of a start line (StatusStarted) -> its index in out
	// Lines are numbered from the start of the input, leading blank lines
	// included (as the viewer numbers them).
	for i, line := range bytes.Split(data, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		var ev Event
		if err := json.Unmarshal(line, &ev); err != nil {
			return nil, fault.Wrap(err, fault.PhaseTrace, KindMalformedTrace, "trace line is not an event").With("line", i+1)
		}
		if ev.ID == "" || ev.Kind == "" {
			// Any JSON object decodes; an event has an id and a kind.
			return nil, fault.New(fault.PhaseTrace, KindMalformedTrace, "trace line is not an event (no id or kind)").With("line", i+1).
				WithHint("rlm reads its own traces; convert a log of the official RLM with rlm trace import")
		}
		out = MergeStarted(out, started, ev)
	}
	return out, nil
}

// MergeStarted appends ev to events as a reader of a live file
// (LiveFile.ObserveStart) must: a span's start line (Status
// StatusStarted) is kept, at its place, until a later line with the same
// id (the span ended) replaces it. started maps the id of each start line
// still in events to its index; it is updated.
func MergeStarted(events []Event, started map[string]int, ev Event) []Event {
	if i, ok := started[ev.ID]; ok {
		delete(started, ev.ID)
		events[i] = ev
		if ev.Status == StatusStarted {
			started[ev.ID] = i
		}
		return events
	}
	if ev.Status == StatusStarted {
		started[ev.ID] = len(events)
	}
	return append(events, ev)
}
