package corpus

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strconv"
	"time"
)

// streamFlush is how long a streamed match may wait in the output buffer.
const streamFlush = 100 * time.Millisecond

// WriteSearch runs a list search of pattern (regex: RE2) on h and writes
// its Result as indented JSON (two spaces, HTML not escaped: what
// json.Encoder with SetIndent("", "  ") writes, byte for byte), but writes
// each match as the search finds it (through a 32 KiB buffer, flushed at
// least every streamFlush) instead of collecting the list: memory is one
// match and the buffer, whatever the limits (rlm context search). A search
// that fails before anything was written writes nothing; one that fails
// after matches reached w leaves the document unterminated, and the error
// is returned.
func (s *Store) WriteSearch(ctx context.Context, out io.Writer, h Handle, pattern string, regex bool, lim Limits) error {
	cw := &countingWriter{w: out}
	w := bufio.NewWriterSize(cw, 32<<10)
	var item bytes.Buffer
	enc := json.NewEncoder(&item)
	enc.SetIndent("    ", "  ")
	enc.SetEscapeHTML(false)
	n, last := 0, time.Now()
	r, err := s.SearchEach(ctx, h, pattern, regex, lim, func(m Match) error {
		item.Reset()
		if err := enc.Encode(m); err != nil {
			return err
		}
		if n == 0 {
			w.WriteString("{\n  \"value\": [")
		} else {
			w.WriteByte(',')
		}
		n++
		w.WriteString("\n    ")
		w.Write(bytes.TrimSuffix(item.Bytes(), []byte("\n")))
		if now := time.Now(); now.Sub(last) >= streamFlush {
			last = now
			return w.Flush()
		}
		return nil
	})
	if err != nil {
		if cw.n > 0 {
			w.Flush() // what was found so far is out already: the rest too
		}
		return err
	}
	if n == 0 {
		w.WriteString("{\n  \"value\": []")
	} else {
		w.WriteString("\n  ]")
	}
	w.WriteString(",\n  \"truncated\": " + strconv.FormatBool(r.Truncated) + ",\n  \"accounting\": ")
	item.Reset()
	enc.SetIndent("  ", "  ")
	if err := enc.Encode(r.Accounting); err != nil {
		return err
	}
	w.Write(bytes.TrimSuffix(item.Bytes(), []byte("\n")))
	w.WriteString("\n}\n")
	return w.Flush()
}

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	k, err := c.w.Write(p)
	c.n += int64(k)
	return k, err
}
