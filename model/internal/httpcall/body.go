package httpcall

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"slices"
)

// Body is a request body in parts, sent one after the other as if they
// were one slice. The parts are not copied: a provider hands the
// encodings of a conversation's earlier messages, shared between the
// conversation's requests, with the few bytes new to this one, so that a
// turn does not allocate a body the size of the whole conversation. The
// bytes of every part must never change once the Body is built: net/http
// may still be reading them after the call returned (a server that
// answered before it read the whole request), and a retry, or a
// connection net/http replaced, sends them again (Request.GetBody).
type Body [][]byte

// Len is the body's length in bytes, its Content-Length.
func (b Body) Len() int {
	n := 0
	for _, p := range b {
		n += len(p)
	}
	return n
}

// Bytes returns the body as one slice: the part itself when there is
// one, else a new slice.
func (b Body) Bytes() []byte {
	switch len(b) {
	case 0:
		return nil
	case 1:
		return b[0]
	}
	out := make([]byte, 0, b.Len())
	for _, p := range b {
		out = append(out, p...)
	}
	return out
}

// reader returns an io.ReadCloser reading b from its start.
func (b Body) reader() io.ReadCloser { return &bodyReader{slices.Clone(net.Buffers(b))} }

// bodyReader reads a Body as net.Buffers does, which moves on through
// its own list of the parts (a copy: the parts' bytes are never written)
// and writes what is left with one writev on a TCP connection (WriteTo).
type bodyReader struct{ net.Buffers }

func (r *bodyReader) Close() error { return nil }

// inMemoryBelow is the size under which a body of several parts is sent
// joined, as one *bytes.Reader. net/http writes the headers and a body
// it knows to be in memory (a *bytes.Reader among a few) through its
// 4 KiB write buffer, in one write when they fit; any other body is
// written after the headers were flushed on their own, through an
// io.Copy buffer of up to 32 KiB allocated per request. A short body is
// cheaper copied than sent so.
const inMemoryBelow = 3 << 10

// newRequest returns the POST of b to url under ctx: a body of one part,
// or shorter than inMemoryBelow, as a *bytes.Reader; a longer one read
// from its parts, with its Content-Length and a GetBody that reads it
// again from the start (for net/http's retry of a request on a
// connection that went away, and its redirects).
func newRequest(ctx context.Context, url string, b Body) (*http.Request, error) {
	if len(b) <= 1 || b.Len() < inMemoryBelow {
		return http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(b.Bytes()))
	}
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	if err != nil {
		return nil, err
	}
	hreq.ContentLength = int64(b.Len())
	hreq.Body = b.reader()
	hreq.GetBody = func() (io.ReadCloser, error) { return b.reader(), nil }
	return hreq, nil
}

// conn is a connection Transport dialled. net/http writes a request body
// it does not know to be in memory (a Body of several parts) with
// io.Copy to the connection, from behind an io.LimitedReader: through a
// buffer of up to 32 KiB allocated per request, and the body's bytes
// copied into it. ReadFrom writes such a body's parts as they are
// instead, in one writev on a TCP connection; any other reader goes to
// the connection's own ReadFrom, or io.Copy.
type conn struct{ net.Conn }

func (c conn) ReadFrom(r io.Reader) (int64, error) {
	if lr, ok := r.(*io.LimitedReader); ok {
		if br, ok := lr.R.(*bodyReader); ok && int64(Body(br.Buffers).Len()) <= lr.N {
			n, err := br.WriteTo(c.Conn)
			lr.N -= n
			return n, err
		}
	}
	if rf, ok := c.Conn.(io.ReaderFrom); ok {
		return rf.ReadFrom(r)
	}
	return io.Copy(struct{ io.Writer }{c.Conn}, r)
}

// CloseWrite closes the connection's writing side, when it has one (as
// net/http's bodies of protocol switches expect).
func (c conn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return errors.ErrUnsupported
}
