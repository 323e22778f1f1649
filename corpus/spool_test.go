package corpus

import (
	"context"
	"io"
	"os"
	"sync"
	"testing"

	"go.uber.org/goleak"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/fault"
)

// enteredReader closes entered when Read is called for the n-th time,
// before delegating: the load is then in (or about to be in) a read that
// blocks until the writer sends more or closes.
type enteredReader struct {
	r       io.Reader
	n       int
	entered chan struct{}
	once    sync.Once
}

func (e *enteredReader) Read(p []byte) (int, error) {
	e.n--
	if e.n == 0 {
		e.once.Do(func() { close(e.entered) })
	}
	return e.r.Read(p)
}

// endCtx is a context ended by hand with a chosen error (context.Canceled
// or context.DeadlineExceeded), so a deadline can end it without a timer.
type endCtx struct {
	context.Context
	done chan struct{}
	mu   sync.Mutex
	err  error
}

func newEndCtx() *endCtx {
	return &endCtx{Context: context.Background(), done: make(chan struct{})}
}

func (c *endCtx) Done() <-chan struct{} { return c.done }

func (c *endCtx) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

func (c *endCtx) end(err error) {
	c.mu.Lock()
	c.err = err
	c.mu.Unlock()
	close(c.done)
}

// loadFunc registers the text of r in s (dir is the spool directory).
type loadFunc func(s *Store, ctx context.Context, dir string, r io.Reader) error

// TestAddStreamStalledPipeCancel: a pipe whose writer sent some bytes and
// then stalls (keeping it open) must not keep AddStream (or AddReader) from
// returning when the context ends: Ctrl-C on `rlm run --context -` did
// nothing until the writer sent data or closed. The read blocked on the
// pipe returns only when the writer closes it, at the end of the test; no
// goroutine may be left after that.
func TestAddStreamStalledPipeCancel(t *testing.T) {
	loads := []struct {
		name string
		load loadFunc
	}{
		{"AddStream", func(s *Store, ctx context.Context, dir string, r io.Reader) error {
			_, err := s.AddStream(ctx, "stdin", dir, r)
			return err
		}},
		{"AddReader", func(s *Store, ctx context.Context, _ string, r io.Reader) error {
			_, err := s.AddReader(ctx, "stdin", r)
			return err
		}},
	}
	for _, tc := range []struct {
		name string
		err  error
		kind fault.Kind
	}{
		{"cancelled", context.Canceled, fault.KindCancelled},
		{"deadline", context.DeadlineExceeded, budget.KindTimeLimit},
	} {
		for _, ld := range loads {
			t.Run(ld.name+"/"+tc.name, func(t *testing.T) { stalledPipe(t, ld.load, tc.err, tc.kind) })
		}
	}
}

// stalledPipe runs load on a pipe that got some bytes and then stalls, ends
// its context with end once the load waits on the pipe, and checks that the
// load fails with kind, leaves no spool file and, once the writer closes,
// no goroutine.
func stalledPipe(t *testing.T, load loadFunc, end error, kind fault.Kind) {
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	if _, err := pw.Write([]byte("some bytes\nthen nothing")); err != nil {
		t.Fatal(err)
	}
	s := NewStore()
	defer s.Close()
	dir := t.TempDir()
	ctx := newEndCtx()
	r := &enteredReader{r: pr, n: 2, entered: make(chan struct{})}
	res := make(chan error, 1)
	go func() { res <- load(s, ctx, dir, r) }()
	<-r.entered // the first read got the bytes; the second stalls
	ctx.end(end)
	wantKind(t, <-res, kind)
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("spool dir holds %d entries after the failure", len(ents))
	}
	pw.Close() // the stalled read returns; its goroutine ends
	goleak.VerifyNone(t)
}
