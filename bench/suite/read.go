package suite

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"strconv"

	"github.com/rlm-go/rlm/fault"
)

// record is one JSON object of a benchmark file, with where it was read.
type record struct {
	fields map[string]json.RawMessage
	file   string
	line   int // 1-based line of a JSON-lines file, 0 in a JSON array
	index  int // 1-based position of the record in the file
}

// fail returns the suite_malformed error for field of r.
func (r *record) fail(field, msg string) *fault.Error {
	e := fault.New(fault.PhaseParse, KindMalformed, msg).With("file", r.file).With("field", field)
	if r.line > 0 {
		e.With("line", r.line)
	} else {
		e.With("record", r.index)
	}
	return e
}

func (r *record) raw(field string) (json.RawMessage, bool) {
	v, ok := r.fields[field]
	if !ok || string(v) == "null" {
		return nil, false
	}
	return v, true
}

// str returns the required string field.
func (r *record) str(field string) (string, error) {
	v, ok := r.raw(field)
	if !ok {
		return "", r.fail(field, "missing field "+field)
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		return "", r.fail(field, "field "+field+" is not a string")
	}
	return s, nil
}

// optStr returns the string field, "" when it is absent or null.
func (r *record) optStr(field string) (string, error) {
	if _, ok := r.raw(field); !ok {
		return "", nil
	}
	return r.str(field)
}

// id returns the required field written as a string or an integer.
func (r *record) id(field string) (string, error) {
	v, ok := r.raw(field)
	if !ok {
		return "", r.fail(field, "missing field "+field)
	}
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s, nil
	}
	var n json.Number
	if json.Unmarshal(v, &n) == nil {
		if _, err := strconv.ParseInt(n.String(), 10, 64); err == nil {
			return n.String(), nil
		}
	}
	return "", r.fail(field, "field "+field+" is neither a string nor an integer")
}

// integer returns the required integer field.
func (r *record) integer(field string) (int64, error) {
	v, ok := r.raw(field)
	if !ok {
		return 0, r.fail(field, "missing field "+field)
	}
	var n int64
	if err := json.Unmarshal(v, &n); err != nil {
		return 0, r.fail(field, "field "+field+" is not an integer")
	}
	return n, nil
}

// docs returns the optional array of {docid, text} objects field.
func (r *record) docs(field string) ([]Doc, error) {
	v, ok := r.raw(field)
	if !ok {
		return nil, nil
	}
	var items []map[string]json.RawMessage
	if err := json.Unmarshal(v, &items); err != nil {
		return nil, r.fail(field, "field "+field+" is not an array of documents")
	}
	out := make([]Doc, 0, len(items))
	for _, it := range items {
		sub := &record{fields: it, file: r.file, line: r.line, index: r.index}
		id, err := sub.id("docid")
		if err != nil {
			return nil, r.fail(field+".docid", "a document of "+field+" has no docid")
		}
		text, err := sub.optStr("text")
		if err != nil {
			return nil, r.fail(field+".text", "a document of "+field+" has a text that is not a string")
		}
		out = append(out, Doc{ID: id, Text: text})
	}
	return out, nil
}

// parquetMagic starts (and ends) every Parquet file.
var parquetMagic = []byte("PAR1")

// readRecords calls each for every JSON object of the file at path, which
// holds either one JSON array of objects or JSON lines (one object per
// line; blank lines are skipped). each's error stops the reading.
func readRecords(path string, each func(*record) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fault.Wrap(err, fault.PhaseConfig, KindFileMissing, "cannot open the benchmark file").With("file", path).
			WithHint("download the benchmark's files and pass their local path")
	}
	defer f.Close()
	head := make([]byte, len(parquetMagic))
	if n, _ := f.ReadAt(head, 0); n == len(head) && bytes.Equal(head, parquetMagic) {
		st, err := f.Stat()
		if err != nil {
			return fault.Wrap(err, fault.PhaseConfig, KindFileMissing, "cannot stat the benchmark file").With("file", path)
		}
		return decodeParquet(path, f, st.Size(), each)
	}
	return decodeRecords(path, f, each)
}

// decodeBytes is readRecords on the content of a file.
func decodeBytes(path string, data []byte, each func(*record) error) error {
	if bytes.HasPrefix(data, parquetMagic) {
		return decodeParquet(path, bytes.NewReader(data), int64(len(data)), each)
	}
	return decodeRecords(path, bytes.NewReader(data), each)
}

// decodeRecords reads JSON lines or a JSON array from rd.
func decodeRecords(path string, rd io.Reader, each func(*record) error) error {
	br := bufio.NewReaderSize(rd, 1<<16)
	first, err := firstByte(br)
	if err != nil {
		return fault.New(fault.PhaseParse, KindMalformed, "the file is empty").With("file", path).With("record", 1).With("field", "")
	}
	if first == '[' {
		return decodeArray(path, br, each)
	}
	if first != '{' {
		return fault.New(fault.PhaseParse, KindMalformed, "not JSON lines nor a JSON array").With("file", path).With("line", 1).With("field", "")
	}
	return decodeLines(path, br, each)
}

// firstByte returns the first byte that is not white space, unread.
func firstByte(br *bufio.Reader) (byte, error) {
	for {
		c, err := br.ReadByte()
		if err != nil {
			return 0, err
		}
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		case 0xEF: // UTF-8 byte order mark
			if b, _ := br.Peek(2); bytes.Equal(b, []byte{0xBB, 0xBF}) {
				_, _ = br.Discard(2)
				continue
			}
		}
		return c, br.UnreadByte()
	}
}

func decodeLines(path string, br *bufio.Reader, each func(*record) error) error {
	line, index := 0, 0
	for {
		b, err := br.ReadBytes('\n')
		if len(b) > 0 {
			line++
			if t := bytes.TrimSpace(b); len(t) > 0 {
				index++
				r := &record{file: path, line: line, index: index}
				if jerr := json.Unmarshal(t, &r.fields); jerr != nil || r.fields == nil {
					msg := "the line is not a JSON object"
					if err == io.EOF && jerr != nil {
						msg = "the last line is not a complete JSON object (truncated file?)"
					}
					return r.fail("", msg)
				}
				if err := each(r); err != nil {
					return err
				}
			}
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fault.Wrap(err, fault.PhaseParse, KindMalformed, "reading failed").With("file", path).With("line", line+1).With("field", "")
		}
	}
	if index == 0 {
		return fault.New(fault.PhaseParse, KindMalformed, "the file holds no record").With("file", path).With("line", 1).With("field", "")
	}
	return nil
}

func decodeArray(path string, br *bufio.Reader, each func(*record) error) error {
	dec := json.NewDecoder(br)
	if _, err := dec.Token(); err != nil {
		return fault.New(fault.PhaseParse, KindMalformed, "bad JSON array").With("file", path).With("record", 1).With("field", "")
	}
	index := 0
	for dec.More() {
		index++
		r := &record{file: path, index: index}
		if err := dec.Decode(&r.fields); err != nil || r.fields == nil {
			return r.fail("", "the record is not a complete JSON object (truncated file?)")
		}
		if err := each(r); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil {
		return fault.New(fault.PhaseParse, KindMalformed, "the JSON array is not closed (truncated file?)").
			With("file", path).With("record", index+1).With("field", "")
	}
	if index == 0 {
		return fault.New(fault.PhaseParse, KindMalformed, "the file holds no record").With("file", path).With("record", 1).With("field", "")
	}
	return nil
}
