package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxLineBytes bounds one line `rlm mcp serve` reads on stdin (one
// JSON-RPC message, its newline not counted). It admits MaxInlineBytes of
// context_text in its worst JSON escaping, six bytes per byte of content
// ("\u0001"; any character may be written as \uXXXX, and é as "\u00e9" is
// six bytes for two), plus 1 MiB for the rest of the message. A longer line
// is answered with an error; it is held only up to the limit, the rest is
// read and dropped.
const MaxLineBytes = 6*MaxInlineBytes + 1<<20

// lineHeadBytes of an over-long line are kept to find its request id.
const lineHeadBytes = 64 << 10

// JSON-RPC 2.0 error codes the stdio server answers itself.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
)

// maxExactID is the largest integer id echoed exactly: numbers pass
// through float64 in the SDK.
const maxExactID = 1 << 53

// lineTransport is `rlm mcp serve`'s stdio transport: newline-delimited
// JSON-RPC read a line at a time. Unlike the SDK's stdio transport, which
// ends the session on the first frame it cannot decode, it answers a line
// that is not a valid JSON-RPC 2.0 message with a JSON-RPC error (parse
// error -32700, invalid request -32600) and reads on; only the end of
// stdin, or a failed read or write, ends the session.
type lineTransport struct {
	r     io.ReadCloser
	w     io.Writer
	limit int
}

func (t *lineTransport) Connect(context.Context) (mcpsdk.Connection, error) {
	c := &lineConn{r: t.r, w: t.w, limit: t.limit, incoming: make(chan jsonrpc.Message), done: make(chan struct{}), closed: make(chan struct{})}
	go c.readLoop()
	return c, nil
}

type lineConn struct {
	r     io.ReadCloser
	w     io.Writer
	wmu   sync.Mutex
	limit int

	incoming chan jsonrpc.Message
	done     chan struct{} // closed when the read loop ends; err says why
	err      error

	closeOnce sync.Once
	closed    chan struct{}
}

func (c *lineConn) SessionID() string { return "" }

func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	default:
	}
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case m := <-c.incoming:
		return m, nil
	case <-c.done:
		return nil, c.err
	case <-c.closed:
		return nil, io.EOF
	}
}

func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	default:
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("encoding a message: %w", err)
	}
	if r, ok := msg.(*jsonrpc.Response); ok && !r.ID.IsValid() {
		// The SDK refuses a request reusing the id of one in flight with a
		// response without an id; JSON-RPC wants "id": null.
		data = append(append(data[:len(data)-1:len(data)-1], `,"id":null`...), '}')
	}
	return c.writeLine(data)
}

func (c *lineConn) writeLine(data []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err := c.w.Write(append(data, '\n'))
	return err
}

func (c *lineConn) Close() error {
	var err error
	c.closeOnce.Do(func() {
		close(c.closed)
		err = c.r.Close()
	})
	return err
}

// readLoop reads lines until stdin ends, passing valid messages on and
// answering the others.
func (c *lineConn) readLoop() {
	br := bufio.NewReaderSize(c.r, 64<<10)
	var buf []byte
	for {
		line, over, n, err := readLine(br, buf[:0], c.limit)
		var werr error
		switch {
		case over:
			werr = c.reply(headID(line), codeInvalidRequest, fmt.Sprintf("the message is longer than %d bytes", c.limit),
				map[string]any{"max_line_bytes": c.limit, "line_bytes": n})
		default:
			msg, id, code, why := parseLine(line)
			switch {
			case msg != nil:
				select {
				case c.incoming <- msg:
				case <-c.closed:
					return
				}
				line = nil // the SDK may keep parts of it
			case code != 0:
				werr = c.reply(id, code, why, nil)
			}
		}
		if cap(line) <= 1<<20 {
			buf = line
		} else {
			buf = nil // do not hold a huge buffer for the session
		}
		if err == nil && werr != nil {
			err = werr
		}
		if err != nil {
			c.err = err
			close(c.done)
			return
		}
	}
}

// readLine reads one line into buf, without its newline. A line longer
// than limit is over: only its first lineHeadBytes are returned, the rest
// is read and dropped; n is the line's length as far as it was read. err
// is the reader's (io.EOF after the last line).
func readLine(br *bufio.Reader, buf []byte, limit int) (line []byte, over bool, n int, err error) {
	for {
		chunk, rerr := br.ReadSlice('\n')
		body := bytes.TrimSuffix(chunk, []byte("\n"))
		n += len(body)
		switch {
		case over:
		case n > limit:
			over = true
			// Keep the head in a small buffer: the large one is garbage
			// while the rest of the line is read.
			buf = append(make([]byte, 0, lineHeadBytes), buf[:min(len(buf), lineHeadBytes)]...)
			buf = append(buf, body[:min(lineHeadBytes-len(buf), len(body))]...)
		default:
			buf = append(buf, body...)
		}
		if errors.Is(rerr, bufio.ErrBufferFull) {
			continue
		}
		return buf, over, n, rerr
	}
}

// reply writes a JSON-RPC error response; id is the raw id, nil for null.
func (c *lineConn) reply(id json.RawMessage, code int, message string, data any) error {
	if id == nil {
		id = json.RawMessage("null")
	}
	e := struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
		Data    any    `json:"data,omitempty"`
	}{code, message, data}
	b, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   any             `json:"error"`
	}{"2.0", id, e})
	if err != nil { // not expected: ids are checked; answer anyway
		b, _ = json.Marshal(struct {
			JSONRPC string `json:"jsonrpc"`
			ID      any    `json:"id"`
			Error   any    `json:"error"`
		}{"2.0", nil, e})
	}
	return c.writeLine(b)
}

// parseLine checks one line against JSON-RPC 2.0 as MCP uses it. A valid
// message is returned as decoded by the SDK. Otherwise code is the error to
// answer (0: nothing to answer, a blank line) with id, the raw id when the
// line is a request whose id could be read (nil: null).
func parseLine(line []byte) (msg jsonrpc.Message, id json.RawMessage, code int, why string) {
	if len(bytes.Trim(line, " \t\r")) == 0 {
		return nil, nil, 0, ""
	}
	if !json.Valid(line) {
		return nil, nil, codeParseError, "parse error: the line is not JSON"
	}
	members, ok := objectMembers(line, false)
	if !ok {
		if v := bytes.TrimLeft(line, " \t\r"); v[0] == '[' {
			return nil, nil, codeInvalidRequest, "invalid request: batches are not supported (MCP removed JSON-RPC batching in 2025-06-18); send one message per line"
		}
		return nil, nil, codeInvalidRequest, "invalid request: a message is a JSON object"
	}
	rawID, hasID := members["id"]
	method, isRequest := members["method"]
	if isRequest && hasID && validID(rawID) {
		id = rawID
	}
	var version string
	invalid := func(why string) (jsonrpc.Message, json.RawMessage, int, string) {
		return nil, id, codeInvalidRequest, "invalid request: " + why
	}
	if v, ok := members["jsonrpc"]; !ok || v[0] != '"' || json.Unmarshal(v, &version) != nil || version != "2.0" {
		return invalid(`"jsonrpc" must be "2.0"`)
	}
	if hasID && !validID(rawID) {
		return invalid(`"id" must be a string or an integer of at most 2^53 in magnitude (MCP: never null)`)
	}
	if isRequest {
		if len(method) == 0 || method[0] != '"' {
			return invalid(`"method" must be a string`)
		}
	} else {
		_, hasResult := members["result"]
		_, hasError := members["error"]
		switch {
		case !hasID:
			return invalid(`a message has "method" (a request or notification) or "id" (a response)`)
		case hasResult == hasError:
			return invalid(`a response has exactly one of "result" and "error"`)
		}
	}
	m, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		return invalid(err.Error())
	}
	return m, nil, 0, ""
}

// validID reports whether raw is an id MCP allows that the SDK echoes
// exactly: a string, or an integer of at most 2^53 in magnitude.
func validID(raw json.RawMessage) bool {
	if len(raw) == 0 {
		return false
	}
	if raw[0] == '"' {
		return json.Valid(raw) // the head of an over-long line is not checked
	}
	v, err := strconv.ParseInt(string(raw), 10, 64)
	return err == nil && v <= maxExactID && v >= -maxExactID
}

// headID returns the id of an over-long line when its head shows it is a
// request (a "method" member) and holds the whole id; nil otherwise.
func headID(head []byte) json.RawMessage {
	members, _ := objectMembers(head, true)
	id, hasID := members["id"]
	if _, isRequest := members["method"]; !isRequest || !hasID || !validID(id) {
		return nil
	}
	return id
}

// objectMembers returns the top-level members of the JSON object b (raw
// values, sharing b; a repeated name keeps its last value, as the SDK's
// decoder does). b is valid JSON unless partial is set: then b may be cut
// anywhere, and the members complete before the cut are returned (a member
// whose value is cut with a nil value), ok false.
func objectMembers(b []byte, partial bool) (members map[string]json.RawMessage, ok bool) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil, false
	}
	members = map[string]json.RawMessage{}
	i++
	for {
		i = skipSpace(b, i)
		if i >= len(b) {
			return members, false
		}
		if b[i] == '}' {
			return members, true
		}
		if b[i] == ',' {
			i = skipSpace(b, i+1)
		}
		if i >= len(b) || b[i] != '"' {
			return members, false
		}
		end, complete := skipString(b, i)
		if !complete {
			return members, false
		}
		var name string
		if err := json.Unmarshal(b[i:end], &name); err != nil {
			return members, false
		}
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return members, false
		}
		i = skipSpace(b, i+1)
		end, complete = skipValue(b, i)
		if !complete {
			if partial {
				members[name] = nil // present, its value cut
			}
			return members, false
		}
		members[name] = b[i:end:end]
		i = end
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// skipString returns the index past the string starting at b[i] == '"'.
func skipString(b []byte, i int) (int, bool) {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1, true
		}
	}
	return len(b), false
}

// skipValue returns the index past the JSON value starting at b[i], and
// whether the value is complete (a scalar is complete when a delimiter
// follows it).
func skipValue(b []byte, i int) (int, bool) {
	depth := 0
	for j := i; j < len(b); j++ {
		switch b[j] {
		case '"':
			end, ok := skipString(b, j)
			if !ok {
				return end, false
			}
			if depth == 0 {
				return end, true
			}
			j = end - 1
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 { // the end of the enclosing object: a scalar ends here
				return j, j > i
			}
			if depth--; depth == 0 {
				return j + 1, true
			}
		case ',', ' ', '\t', '\r', '\n':
			if depth == 0 {
				return j, j > i
			}
		}
	}
	return len(b), false
}
