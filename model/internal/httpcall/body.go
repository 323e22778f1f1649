package httpcall

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
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
func (b Body) reader() io.ReadCloser { return &bodyReader{parts: b} }

// bodyReader reads a Body: parts[i][off:] is what comes next.
type bodyReader struct {
	parts Body
	i     int
	off   int
}

func (r *bodyReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) && r.i < len(r.parts) {
		c := copy(p[n:], r.parts[r.i][r.off:])
		n += c
		r.off += c
		if r.off == len(r.parts[r.i]) {
			r.i, r.off = r.i+1, 0
		}
	}
	if n == 0 && len(p) > 0 {
		return 0, io.EOF
	}
	return n, nil
}

// WriteTo writes what is left of the body to w, part by part (io.Copy
// takes it when nothing wraps the reader).
func (r *bodyReader) WriteTo(w io.Writer) (int64, error) {
	var n int64
	for r.i < len(r.parts) {
		c, err := w.Write(r.parts[r.i][r.off:])
		n += int64(c)
		r.off += c
		if err != nil {
			return n, err
		}
		r.i, r.off = r.i+1, 0
	}
	return n, nil
}

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

// left is how many bytes r has not read.
func (r *bodyReader) left() int {
	n := 0
	for i := r.i; i < len(r.parts); i++ {
		n += len(r.parts[i])
	}
	return n - r.off
}

// skip moves r n bytes on.
func (r *bodyReader) skip(n int) {
	for n > 0 && r.i < len(r.parts) {
		c := min(n, len(r.parts[r.i])-r.off)
		n -= c
		r.off += c
		if r.off == len(r.parts[r.i]) {
			r.i, r.off = r.i+1, 0
		}
	}
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
		if br, ok := lr.R.(*bodyReader); ok && int64(br.left()) <= lr.N {
			bufs := make(net.Buffers, 0, len(br.parts)-br.i)
			for i := br.i; i < len(br.parts); i++ {
				bufs = append(bufs, br.parts[i])
			}
			if len(bufs) > 0 {
				bufs[0] = bufs[0][br.off:]
			}
			n, err := bufs.WriteTo(c.Conn)
			br.skip(int(n))
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
