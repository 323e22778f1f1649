package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rlm-go/rlm/fault"
)

// passEnv are the variables of rlm's own environment a stdio server
// inherits; everything else (API keys above all) stays with rlm. The
// server's "env" entries are added to these.
var passEnv = []string{"PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR", "TERM", "SHELL", "SYSTEMROOT"}

func serverEnv(cfg ServerConfig) []string {
	var env []string
	for _, k := range passEnv {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	for _, k := range sortedKeys(cfg.Env) {
		env = append(env, k+"="+cfg.Env[k])
	}
	return env
}

// failure records the first transport-level failure of a connection: what
// the framing reader saw, or how the process ended.
type failure struct{ p atomic.Pointer[fault.Error] }

func (f *failure) set(fe *fault.Error) { f.p.CompareAndSwap(nil, fe) }
func (f *failure) get() *fault.Error   { return f.p.Load() }

var (
	errTooLarge  = errors.New("mcp: message exceeds max_message_bytes")
	errMalformed = errors.New("mcp: the server wrote a line that is not a JSON message")
)

// frameReader sits between the server's stdout and the SDK: it reads one
// newline-delimited message at a time, refuses a message longer than limit
// and a line that is not a JSON object or array, and records why. The SDK
// then parses JSON-RPC from the validated bytes.
type frameReader struct {
	src     *bufio.Reader
	closer  io.Closer
	limit   int
	fail    *failure
	exited  <-chan struct{} // closed when the process has been waited for
	exitErr func() error
	pending []byte
	line    []byte
}

func (r *frameReader) Read(p []byte) (int, error) {
	for len(r.pending) == 0 {
		line, err := r.readLine()
		// JSON's white space only: a line that is blank but for a form
		// feed or a no-break space (which bytes.TrimSpace also trims) is
		// no JSON text, and is not passed on as one.
		if t := bytes.Trim(line, jsonSpace); len(t) > 0 {
			if (t[0] != '{' && t[0] != '[') || !json.Valid(t) {
				r.fail.set(newErr(KindMalformedMessage, "the server wrote a line that is not a JSON-RPC message").
					With("bytes", len(t)))
				return 0, errMalformed
			}
			r.pending = append(line, '\n')
			break
		}
		if err != nil {
			if errors.Is(err, errTooLarge) {
				r.fail.set(newErr(KindMessageTooLarge, "a message from the server exceeds max_message_bytes").With("max_message_bytes", r.limit).
					WithHint(`raise "max_message_bytes" for this server in the MCP configuration, or ask for less`))
				return 0, err
			}
			if errors.Is(err, io.EOF) && r.exited != nil {
				// stdout closed: the process is ending; say how.
				select {
				case <-r.exited:
					fe := newErr(KindServerCrashed, "the server process exited")
					if ee := (*exec.ExitError)(nil); errors.As(r.exitErr(), &ee) {
						fe.With("exit_code", ee.ExitCode())
					} else {
						fe.With("exit_code", 0)
					}
					r.fail.set(fe)
				case <-time.After(2 * time.Second):
					r.fail.set(newErr(KindServerCrashed, "the server closed its stdout"))
				}
			}
			return 0, err
		}
	}
	n := copy(p, r.pending)
	r.pending = r.pending[n:]
	return n, nil
}

// jsonSpace is JSON's white space (RFC 8259, section 2).
const jsonSpace = " \t\r\n"

// readLine returns the next line without its newline; a line longer than
// limit is errTooLarge.
func (r *frameReader) readLine() ([]byte, error) {
	r.line = r.line[:0]
	for {
		chunk, err := r.src.ReadSlice('\n')
		if len(r.line)+len(chunk)-1 > r.limit { // the newline is not counted; limit+1 could wrap
			r.line = nil // drop the buffer of a huge message
			return nil, errTooLarge
		}
		r.line = append(r.line, chunk...)
		if err == nil {
			return bytes.TrimSuffix(r.line, []byte("\n")), nil
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if len(r.line) > r.limit { // the last line has no newline to allow for
			r.line = nil
			return nil, errTooLarge
		}
		return r.line, err
	}
}

func (r *frameReader) Close() error { return r.closer.Close() }

// process is a running stdio server.
type process struct {
	cmd    *exec.Cmd
	exited chan struct{}
	err    error
	stdin  *os.File
	stdout *os.File
}

// startProcess starts the server's command with pipes it owns (never the
// exec package's copying goroutines), in its own process group.
func startProcess(cfg ServerConfig) (*process, error) {
	cmd := exec.Command(cfg.Command, cfg.Args...)
	cmd.Env = serverEnv(cfg)
	cmd.Dir = cfg.Cwd
	ownGroup(cmd)
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	cmd.Stdin, cmd.Stdout = inR, outW // stderr: the null device
	if err := cmd.Start(); err != nil {
		for _, f := range []*os.File{inR, inW, outR, outW} {
			f.Close()
		}
		return nil, err
	}
	inR.Close()
	outW.Close()
	p := &process{cmd: cmd, exited: make(chan struct{}), stdin: inW, stdout: outR}
	go func() {
		p.err = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

func (p *process) exitErr() error {
	<-p.exited
	return p.err
}

// stop ends the process: stdin is closed first (the MCP stdio shutdown),
// then SIGTERM to its group, then SIGKILL; it returns once the process has
// been waited for, so no zombie remains.
func (p *process) stop() {
	p.stdin.Close()
	p.stdout.Close()
	select {
	case <-p.exited:
	case <-time.After(time.Second):
		signalGroup(p.cmd, false)
		select {
		case <-p.exited:
		case <-time.After(2 * time.Second):
			signalGroup(p.cmd, true)
			<-p.exited
		}
	}
	// The leader is gone; stop what it left in its group.
	signalGroup(p.cmd, true)
}

func (p *process) transport(limit int, fail *failure) sdk.Transport {
	fr := &frameReader{src: bufio.NewReaderSize(p.stdout, 64<<10), closer: p.stdout, limit: limit, fail: fail,
		exited: p.exited, exitErr: p.exitErr}
	return &sdk.IOTransport{Reader: fr, Writer: p.stdin, MaxLineLength: -1}
}

// httpTransport is the streamable HTTP transport with the configured
// headers and a bound on each response body.
func httpTransport(cfg ServerConfig, limit int, fail *failure) sdk.Transport {
	rt := &headerRoundTripper{next: http.DefaultTransport, headers: cfg.Headers, limit: int64(limit), fail: fail}
	if u, err := url.Parse(cfg.URL); err == nil {
		rt.origin = u.Scheme + "://" + u.Host
	}
	return &sdk.StreamableClientTransport{Endpoint: cfg.URL, HTTPClient: &http.Client{Transport: rt}, MaxEventSize: limit}
}

type headerRoundTripper struct {
	next    http.RoundTripper
	headers map[string]string
	origin  string // the configured URL's: headers are sent there only
	limit   int64
	fail    *failure
}

func (h *headerRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	if req.URL.Scheme+"://"+req.URL.Host == h.origin { // never to a redirect's other origin
		for k, v := range h.headers {
			req.Header.Set(k, v)
		}
	}
	resp, err := h.next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	// Every body but an event stream (bounded per event by MaxEventSize)
	// is one message: a JSON reply, or an error body the SDK reads whole.
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt != "text/event-stream" {
		left := h.limit + 1
		if left < h.limit { // a limit of MaxInt64
			left = h.limit
		}
		resp.Body = &boundedBody{rc: resp.Body, left: left, fail: h.fail, limit: h.limit}
	}
	return resp, nil
}

// boundedBody fails a JSON response body longer than the message limit.
type boundedBody struct {
	rc    io.ReadCloser
	left  int64
	limit int64
	fail  *failure
	once  sync.Once
}

func (b *boundedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		b.once.Do(func() {
			b.fail.set(newErr(KindMessageTooLarge, "a message from the server exceeds max_message_bytes").With("max_message_bytes", b.limit))
		})
		return 0, errTooLarge
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	return n, err
}

func (b *boundedBody) Close() error { return b.rc.Close() }
