package httpcall

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/iotest"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model/internal/scrub"
)

// statusError is the ErrorBody of the tests' requests.
func statusError(msg string, status int, raw []byte) *fault.Error {
	return fault.New(fault.PhaseProvider, "http_status", msg)
}

var bodies = []struct {
	name string
	body Body
}{
	{"none", nil},
	{"one empty part", Body{{}}},
	{"one part", Body{[]byte(`{"a":1}`)}},
	{"empty parts between", Body{[]byte(`{"model":"m","messages":[`), nil, []byte(`{"role":"user"}`), {}, []byte(`]}`)}},
	{"large parts", Body{bytes.Repeat([]byte("x"), 70_000), []byte(","), bytes.Repeat([]byte("y"), 33_000)}},
	{"parts just long enough to be read as parts", Body{bytes.Repeat([]byte("x"), inMemoryBelow-1), nil, []byte("y")}},
}

// TestBodyReads reads every body through its reader as net/http may (small
// reads, one byte at a time, WriteTo), and through GetBody again.
func TestBodyReads(t *testing.T) {
	for _, tc := range bodies {
		t.Run(tc.name, func(t *testing.T) {
			want := bytes.Join(tc.body, nil)
			if n := tc.body.Len(); n != len(want) {
				t.Fatalf("Len %d, want %d", n, len(want))
			}
			if !bytes.Equal(tc.body.Bytes(), want) {
				t.Fatal("Bytes is not the parts joined")
			}
			if err := iotest.TestReader(tc.body.reader(), want); err != nil {
				t.Fatal(err)
			}
			if got, err := io.ReadAll(iotest.OneByteReader(tc.body.reader())); err != nil || !bytes.Equal(got, want) {
				t.Fatalf("one byte at a time: %d bytes, %v", len(got), err)
			}
			var w bytes.Buffer
			if n, err := tc.body.reader().(io.WriterTo).WriteTo(&w); err != nil || n != int64(len(want)) || !bytes.Equal(w.Bytes(), want) {
				t.Fatalf("WriteTo: %d bytes, %v", n, err)
			}
			hreq, err := newRequest(context.Background(), "http://example.invalid/", tc.body)
			if err != nil {
				t.Fatal(err)
			}
			if _, parts := hreq.Body.(*bodyReader); parts != (len(tc.body) > 1 && len(want) >= inMemoryBelow) {
				t.Fatalf("read as parts: %t, for %d parts of %d bytes", parts, len(tc.body), len(want))
			}
			if hreq.ContentLength != int64(len(want)) {
				t.Fatalf("ContentLength %d, want %d", hreq.ContentLength, len(want))
			}
			for range 2 {
				rc, err := hreq.GetBody()
				if err != nil {
					t.Fatal(err)
				}
				if got, _ := io.ReadAll(rc); !bytes.Equal(got, want) {
					t.Fatalf("GetBody read %d bytes, want %d", len(got), len(want))
				}
			}
		})
	}
}

// TestExchangeResendsBody checks that every attempt of a retried call
// sends the same bytes with their Content-Length.
func TestExchangeResendsBody(t *testing.T) {
	for _, tc := range bodies[2:] {
		t.Run(tc.name, func(t *testing.T) {
			var (
				mu   sync.Mutex
				got  []string
				lens []int64
			)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				b, _ := io.ReadAll(r.Body)
				mu.Lock()
				got, lens = append(got, string(b)), append(lens, r.ContentLength)
				n := len(got)
				mu.Unlock()
				if n < 3 {
					w.WriteHeader(http.StatusServiceUnavailable)
					return
				}
				io.WriteString(w, "ok")
			}))
			defer srv.Close()
			c := &Caller{Name: "test", Host: "127.0.0.1", Secrets: new(scrub.Set), HTTP: Client(srv.Client()), Retry: Policy{MaxRetries: 3}}
			r := Request{URL: srv.URL, Header: http.Header{}, Body: tc.body, ErrorBody: statusError}
			v, n, fe := Call(context.Background(), c, "m", r, func(_ context.Context, hres *http.Response) (string, *fault.Error) {
				b, _ := io.ReadAll(hres.Body)
				return string(b), nil
			}, nil)
			if fe != nil || v != "ok" || n != 3 {
				t.Fatalf("call: %q after %d attempts, %v", v, n, fe)
			}
			want := string(bytes.Join(tc.body, nil))
			for i := range got {
				if got[i] != want || lens[i] != int64(len(want)) {
					t.Fatalf("attempt %d sent %d bytes (Content-Length %d), want %d: %.40q", i+1, len(got[i]), lens[i], len(want), strings.TrimPrefix(got[i], want))
				}
			}
		})
	}
}

// writes is a net.Conn that records each Write.
type writes struct {
	net.Conn
	got [][]byte
}

func (w *writes) Write(p []byte) (int, error) {
	w.got = append(w.got, bytes.Clone(p))
	return len(p), nil
}

// TestConnWritesParts checks that a Transport connection writes a Body
// that net/http hands it behind an io.LimitedReader part by part, as
// they are (not copied through io.Copy's buffer), from where the reader
// was, and anything else as io.Copy would.
func TestConnWritesParts(t *testing.T) {
	body := Body{bytes.Repeat([]byte("h"), 10), bytes.Repeat([]byte("m"), 40_000), []byte("]}")}
	br := body.reader().(*bodyReader)
	if _, err := io.ReadFull(br, make([]byte, 4)); err != nil {
		t.Fatal(err)
	}
	w := &writes{}
	lr := &io.LimitedReader{R: br, N: int64(body.Len() - 4)}
	n, err := conn{w}.ReadFrom(lr)
	if err != nil || n != int64(body.Len()-4) || lr.N != 0 || Body(br.Buffers).Len() != 0 {
		t.Fatalf("wrote %d bytes (%v), %d left to the limit, %d to the reader", n, err, lr.N, Body(br.Buffers).Len())
	}
	if len(w.got) != 3 || !bytes.Equal(bytes.Join(w.got, nil), body.Bytes()[4:]) {
		t.Fatalf("%d writes of %d bytes, want the 3 parts from byte 4", len(w.got), len(bytes.Join(w.got, nil)))
	}
	w = &writes{}
	if n, err := (conn{w}).ReadFrom(strings.NewReader("plain")); err != nil || n != 5 || string(bytes.Join(w.got, nil)) != "plain" {
		t.Fatalf("another reader: %d bytes, %v", n, err)
	}
}

// TestTransportSendsParts sends bodies of parts through Transport (its
// connections write them with ReadFrom) and checks what the server read.
func TestTransportSendsParts(t *testing.T) {
	var (
		mu  sync.Mutex
		got []byte
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = b
		mu.Unlock()
	}))
	defer srv.Close()
	defer Transport.CloseIdleConnections()
	for _, tc := range bodies {
		hreq, err := newRequest(context.Background(), srv.URL, tc.body)
		if err != nil {
			t.Fatal(err)
		}
		hres, err := Client(nil).Do(hreq)
		if err != nil {
			t.Fatal(err)
		}
		hres.Body.Close()
		mu.Lock()
		if !bytes.Equal(got, tc.body.Bytes()) {
			t.Errorf("%s: the server read %d bytes, want %d", tc.name, len(got), tc.body.Len())
		}
		mu.Unlock()
	}
}

// TestCancelWhileWritingParts cancels a call while its connection is
// blocked writing a body of parts that the server does not read: the
// call ends, Kind cancelled, and the connection's writev with it.
func TestCancelWhileWritingParts(t *testing.T) {
	release, entered := make(chan struct{}), make(chan struct{})
	var once sync.Once
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The headers came (flushed before the body): the client is
		// writing the body, which is never read.
		once.Do(func() { close(entered) })
		<-release
	}))
	defer srv.Close()
	defer close(release)
	defer Transport.CloseIdleConnections()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-entered
		cancel()
	}()
	c := &Caller{Name: "test", Host: "127.0.0.1", Secrets: new(scrub.Set), HTTP: Client(nil)}
	// Far more than the sockets' buffers hold, so the write blocks.
	big := bytes.Repeat([]byte("x"), 64<<20)
	r := Request{URL: srv.URL, Header: http.Header{}, Body: Body{[]byte("["), big, []byte("]")}, ErrorBody: statusError}
	_, _, fe := Exchange(ctx, c, r, func(context.Context, *http.Response) (string, *fault.Error) { return "", nil })
	if fe == nil || fe.Kind != fault.KindCancelled {
		t.Fatalf("got %v, want Kind cancelled", fe)
	}
	select {
	case <-entered:
	default:
		t.Fatal("the call ended before the server had the request")
	}
}
