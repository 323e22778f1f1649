// Package sse parses server-sent event streams as sent by OpenAI-compatible
// chat-completion servers.
//
// The parser follows the WHATWG event-stream grammar: lines end with LF, CR
// or CRLF; lines starting with a colon are comments; "field: value" lines set
// a field, with one leading space of the value removed; several data lines
// are joined with LF; an empty line dispatches the event. Unlike browsers, a
// final event that is not followed by an empty line is still dispatched at
// end of input, because some servers close the stream right after the last
// data line.
package sse

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// DefaultMaxLine bounds the length of one line. Longer lines make Next fail
// with ErrLineTooLong instead of buffering without limit.
const DefaultMaxLine = 8 << 20

// ErrLineTooLong reports a line longer than the reader's limit.
var ErrLineTooLong = errors.New("sse: line too long")

// Event is one dispatched server-sent event.
type Event struct {
	// Type is the value of the "event" field; empty means "message".
	Type string
	// Data is the value of the data lines, joined with "\n".
	Data string
	// ID is the value of the last "id" field, if any.
	ID string
	// Error is the value of an "error" field. The grammar ignores unknown
	// fields, but llama.cpp's server reports a failure inside a stream as
	// a line "error: {json}" with no data line; an event carrying one is
	// dispatched even without data.
	Error string
}

// Reader reads events from a stream.
type Reader struct {
	sc    *bufio.Scanner
	split *lineSplitter
}

// NewReader returns a Reader over r with lines bounded by maxLine bytes
// (DefaultMaxLine when maxLine is not positive).
func NewReader(r io.Reader, maxLine int) *Reader {
	if maxLine <= 0 {
		maxLine = DefaultMaxLine
	}
	sc := bufio.NewScanner(r)
	// The buffer also holds the line ending (up to CRLF) and, on the first
	// line, a byte-order mark; the split function enforces maxLine on the
	// line itself.
	sc.Buffer(make([]byte, 0, min(4096, maxLine+len(bom)+2)), maxLine+len(bom)+2)
	ls := &lineSplitter{max: maxLine}
	sc.Split(ls.split)
	return &Reader{sc: sc, split: ls}
}

// Next returns the next event. It returns io.EOF once the stream ended with
// no further event, and the underlying read error (or ErrLineTooLong)
// otherwise. Events with no data lines (and no error field) are skipped, as
// the grammar requires.
func (r *Reader) Next() (Event, error) {
	var (
		ev      Event
		data    bytes.Buffer
		hasData bool
	)
	for r.sc.Scan() {
		line := r.sc.Bytes()
		if len(line) == 0 {
			if hasData || ev.Error != "" {
				ev.Data = data.String()
				return ev, nil
			}
			ev.Type = ""
			continue
		}
		if line[0] == ':' {
			continue // comment, e.g. ": OPENROUTER PROCESSING"
		}
		field, value := line, []byte(nil)
		if i := bytes.IndexByte(line, ':'); i >= 0 {
			field, value = line[:i], line[i+1:]
			if len(value) > 0 && value[0] == ' ' {
				value = value[1:]
			}
		}
		switch string(field) {
		case "data":
			if hasData {
				data.WriteByte('\n')
			}
			data.Write(value)
			hasData = true
		case "event":
			ev.Type = string(value)
		case "id":
			if bytes.IndexByte(value, 0) < 0 {
				ev.ID = string(value)
			}
		case "error":
			if ev.Error != "" {
				ev.Error += "\n"
			}
			ev.Error += string(value)
		}
		// "retry" and unknown fields are ignored.
	}
	if err := r.sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return Event{}, ErrLineTooLong
		}
		return Event{}, err
	}
	if hasData || ev.Error != "" {
		ev.Data = data.String()
		return ev, nil
	}
	return Event{}, io.EOF
}

// lineSplitter is a bufio.SplitFunc for LF, CR and CRLF line endings that
// remembers how much of the pending line it has already searched, so a long
// line arriving a few bytes at a time costs linear, not quadratic, time:
// the Scanner passes the same unconsumed bytes again, extended, until a
// token is returned. steps counts the bytes searched (for tests). A line
// longer than max bytes (without its ending) is ErrLineTooLong.
type lineSplitter struct {
	scanned int
	steps   int
	max     int
	begun   bool // the leading byte-order mark check is done
	off     int  // length of the mark at the start of the first line
}

// bom is the UTF-8 byte-order mark, skipped once at the start of a stream
// as the grammar requires.
const bom = "\xef\xbb\xbf"

func (l *lineSplitter) split(data []byte, atEOF bool) (advance int, token []byte, err error) {
	if atEOF && len(data) == 0 {
		return 0, nil, nil
	}
	if !l.begun {
		if !atEOF && len(data) < len(bom) && bytes.HasPrefix([]byte(bom), data) {
			return 0, nil, nil // may still be the mark
		}
		l.begun = true
		if bytes.HasPrefix(data, []byte(bom)) {
			// Skipped as part of the first line: a token must come with
			// the advance, or a scanner at end of input stops.
			l.off = len(bom)
		}
	}
	off := l.off
	from := max(min(l.scanned, len(data)), off)
	j := bytes.IndexAny(data[from:], "\r\n")
	if j >= 0 {
		l.steps += j + 1
	} else {
		l.steps += len(data) - from
	}
	if j >= 0 {
		i := from + j
		if i-off > l.max {
			return 0, nil, ErrLineTooLong
		}
		if data[i] == '\n' {
			l.scanned, l.off = 0, 0
			return i + 1, data[off:i], nil
		}
		// CR: a following LF belongs to the same line ending.
		if i+1 < len(data) {
			l.scanned, l.off = 0, 0
			if data[i+1] == '\n' {
				return i + 2, data[off:i], nil
			}
			return i + 1, data[off:i], nil
		}
		if atEOF {
			l.scanned, l.off = 0, 0
			return i + 1, data[off:i], nil
		}
		l.scanned = i // need one more byte to decide
		return 0, nil, nil
	}
	if len(data)-off > l.max {
		return 0, nil, ErrLineTooLong
	}
	if atEOF {
		l.scanned, l.off = 0, 0
		return len(data), data[off:], nil
	}
	l.scanned = len(data)
	return 0, nil, nil
}
