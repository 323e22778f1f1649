package mcp

import (
	"context"
	"errors"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/jsonrpc"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/textcut"
	"github.com/rlm-go/rlm/tool"
)

// Restart policy defaults.
const (
	DefaultMaxRestarts = 5
	DefaultBackoffBase = 250 * time.Millisecond
	DefaultBackoffMax  = 30 * time.Second
)

// DefaultBackoff is the wait before start attempt n+1 after n consecutive
// failures: 250ms doubling up to 30s.
func DefaultBackoff(n int) time.Duration {
	d := DefaultBackoffBase
	for i := 1; i < n && d < DefaultBackoffMax; i++ {
		d *= 2
	}
	return min(d, DefaultBackoffMax)
}

// Options configure a Host.
type Options struct {
	// Backoff is the wait after n consecutive failures before the server
	// is started again; nil means DefaultBackoff.
	Backoff func(n int) time.Duration
	// MaxRestarts bounds how often a server is started again after it
	// died, over the Host's life (0: DefaultMaxRestarts; negative: none).
	MaxRestarts int
	// OnChange is called after a tools/list_changed re-import changed the
	// registry (for example to recompile a prompt catalog).
	OnChange func(server string)
	// Version is the client version sent in initialize.
	Version string
}

// Host is rlm's MCP client side: the configured servers, started lazily,
// restarted with back-off, and their tools imported into tool registries.
// It is safe for concurrent use. Close shuts every server down.
type Host struct {
	cfg     Config
	opts    Options
	servers map[string]*server
	ctx     context.Context // ends at Close: starts and refreshes
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	mu      sync.Mutex
	closed  bool
}

// NewHost returns a Host over cfg. Nothing starts until it is used.
func NewHost(cfg Config, opts Options) *Host {
	if opts.Backoff == nil {
		opts.Backoff = DefaultBackoff
	}
	if opts.MaxRestarts == 0 {
		opts.MaxRestarts = DefaultMaxRestarts
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	ctx, cancel := context.WithCancel(context.Background())
	h := &Host{cfg: cfg, opts: opts, servers: map[string]*server{}, ctx: ctx, cancel: cancel}
	for name, sc := range cfg.Servers {
		h.servers[name] = &server{h: h, name: name, cfg: sc, dirty: make(chan struct{}, 1), tools: map[string]*imported{}}
	}
	return h
}

// Servers returns the configured server names, sorted.
func (h *Host) Servers() []string { return h.cfg.Names() }

func (h *Host) server(name string) (*server, error) {
	s, ok := h.servers[name]
	if !ok {
		return nil, newErr(KindUnknownServer, "no MCP server with this name is configured").With("server", name).
			With("servers", h.cfg.Names()).WithHint("add the server to the mcpServers file given with --mcp")
	}
	return s, nil
}

// Close stops every server (stdin closed, then SIGTERM and SIGKILL to its
// process group) and waits for them and for the Host's goroutines. It is
// idempotent.
func (h *Host) Close() error {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil
	}
	h.closed = true
	h.mu.Unlock()
	h.cancel()
	for _, s := range h.servers {
		s.shutdown()
	}
	h.wg.Wait()
	return nil
}

// add registers a goroutine with the Host's wait group unless the Host is
// closed. Checked and added under h.mu, where Close sets closed before it
// waits, so no goroutine is added once Close may be waiting (a start that
// passed an earlier check and then added itself could outlive Close).
func (h *Host) add() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return false
	}
	h.wg.Add(1)
	return true
}

func (h *Host) isClosed() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.closed
}

// conn is one live session with a server.
type conn struct {
	sess *mcpsdk.ClientSession
	proc *process // stdio servers
	fail *failure
	dead chan struct{} // closed when the session ended
	once sync.Once
	// life ends when the connection is closed; every request is bound to
	// it (see bind), since the SDK's Close waits for requests in flight.
	life context.Context
	end  context.CancelFunc
}

// bind returns ctx, also cancelled when c is closed.
func (c *conn) bind(ctx context.Context) (context.Context, context.CancelFunc) {
	rctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(c.life, cancel)
	return rctx, func() { stop(); cancel() }
}

func (c *conn) close() {
	c.once.Do(func() {
		c.end() // requests in flight end now, so Close does not wait for them
		if c.proc != nil {
			// First: closing stdin fails a write blocked on a server that
			// stopped reading, which the session's Close would wait for.
			c.proc.stop()
		}
		_ = c.sess.Close()
	})
}

// attempt is a start in progress; callers wait for done or their context.
type attempt struct {
	done chan struct{}
	c    *conn
	err  error
}

type server struct {
	h     *Host
	name  string
	cfg   ServerConfig
	dirty chan struct{}

	mu       sync.Mutex
	conn     *conn
	pending  *attempt
	starts   int
	failures int // consecutive
	retryAt  time.Time
	lastErr  *fault.Error
	watching bool
	// connected: the server had a connection before; a new one is a
	// restart, after which its tools are listed again.
	connected bool

	// import state (s.mu; importMu serializes whole imports)
	importMu  sync.Mutex
	reg       *tool.Registry
	tools     map[string]*imported // registered name → tool
	refreshes atomic.Int64
}

// ensure returns a live connection, starting the server when there is
// none. The start runs under the Host's context with the start timeout, so
// a caller whose own deadline is short does not abort it for the next one.
func (s *server) ensure(ctx context.Context) (*conn, error) {
	s.mu.Lock()
	if s.conn != nil {
		c := s.conn
		s.mu.Unlock()
		return c, nil
	}
	if s.h.isClosed() {
		s.mu.Unlock()
		return nil, newErr(KindClosed, "the MCP host is closed").With("server", s.name)
	}
	a := s.pending
	if a == nil {
		if max := s.h.opts.MaxRestarts; max > 0 && s.starts > max {
			s.mu.Unlock()
			return nil, s.unavailable("the server died too often and is not started again in this run").With("restarts", max)
		}
		if wait := time.Until(s.retryAt); wait > 0 {
			s.mu.Unlock()
			return nil, s.unavailable("the server died recently and is waiting to be restarted").With("retry_after_ms", wait.Milliseconds())
		}
		if !s.h.add() {
			s.mu.Unlock()
			return nil, newErr(KindClosed, "the MCP host is closed").With("server", s.name)
		}
		a = &attempt{done: make(chan struct{})}
		s.pending = a
		s.starts++
		go s.start(a)
	}
	s.mu.Unlock()
	select {
	case <-a.done:
		return a.c, a.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (s *server) unavailable(msg string) *fault.Error {
	fe := newErr(KindServerUnavailable, msg).With("server", s.name)
	if s.lastErr != nil {
		fe.With("last_kind", string(s.lastErr.Kind))
		fe.Cause = s.lastErr
	}
	return fe.WithHint("check the server's command or url in the MCP configuration; rlm restarts it with back-off")
}

func (s *server) start(a *attempt) {
	defer s.h.wg.Done()
	c, err := s.connect()
	s.mu.Lock()
	s.pending = nil
	var orphan *conn
	if err != nil {
		s.noteFailure(err)
	} else if s.h.isClosed() {
		err = newErr(KindClosed, "the MCP host is closed").With("server", s.name)
		orphan, c = c, nil
	} else {
		s.conn = c
		s.h.wg.Add(1)
		go s.reap(c)
		if !s.watching {
			s.watching = true
			s.h.wg.Add(1)
			go s.watch()
		}
		// A restarted server may list other tools, and a tools/list_changed
		// sent while it was failing re-imported nothing: list them again.
		if s.connected && s.reg != nil {
			s.markDirty()
		}
		s.connected = true
	}
	s.mu.Unlock()
	if orphan != nil {
		// Stopped here, inside the Host's wait group, so Close returns
		// only once the process is gone.
		orphan.close()
	}
	a.c, a.err = c, err
	close(a.done)
}

// noteFailure records a failed start or a dead connection; s.mu is held.
func (s *server) noteFailure(err error) {
	s.failures++
	s.retryAt = time.Now().Add(s.h.opts.Backoff(s.failures))
	s.lastErr = fault.As(err)
}

// connect starts the process (or opens the HTTP session) and runs
// initialize.
func (s *server) connect() (*conn, error) {
	ctx, cancel := context.WithTimeout(s.h.ctx, s.cfg.startTimeout())
	defer cancel()
	c := &conn{fail: &failure{}, dead: make(chan struct{})}
	var tr mcpsdk.Transport
	if s.cfg.URL != "" {
		tr = httpTransport(s.cfg, s.cfg.maxMessage(), c.fail)
	} else {
		p, err := startProcess(s.cfg)
		if err != nil {
			return nil, fault.Wrap(err, Phase, KindStartFailed, "the server's command could not be started").With("server", s.name).
				With("command", s.cfg.Command).WithHint("check the command in the MCP configuration (is it on PATH?)")
		}
		c.proc = p
		tr = p.transport(s.cfg.maxMessage(), c.fail)
	}
	client := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "rlm", Version: s.h.opts.Version}, &mcpsdk.ClientOptions{
		Capabilities:           &mcpsdk.ClientCapabilities{},
		ToolListChangedHandler: func(context.Context, *mcpsdk.ToolListChangedRequest) { s.markDirty() },
	})
	sess, err := client.Connect(ctx, tr, nil)
	if err != nil {
		if c.proc != nil {
			c.proc.stop()
		}
		switch {
		case s.h.ctx.Err() != nil:
			return nil, newErr(KindClosed, "the MCP host is closed").With("server", s.name)
		case ctx.Err() != nil:
			return nil, newErr(KindStartTimeout, "the server did not complete initialize in time").With("server", s.name).
				With("start_timeout_ms", s.cfg.startTimeout().Milliseconds()).WithHint(`raise "start_timeout_ms" for this server, or check that it speaks MCP on stdio`)
		case c.fail.get() != nil:
			return nil, withServer(c.fail.get(), s.name)
		}
		return nil, fault.Wrap(err, Phase, KindStartFailed, "the server did not complete initialize").With("server", s.name).
			WithHint("run the server's command by hand to see its error")
	}
	c.sess = sess
	c.life, c.end = context.WithCancel(context.Background())
	return c, nil
}

func withServer(fe *fault.Error, name string) *fault.Error {
	cp := *fe
	cp.Detail = maps.Clone(fe.Detail)
	return cp.With("server", name)
}

// reap waits for the session to end, stops the process and marks the
// server for a restart with back-off (unless the Host is closing).
func (s *server) reap(c *conn) {
	defer s.h.wg.Done()
	_ = c.sess.Wait()
	fe := c.fail.get()
	if fe == nil {
		fe = newErr(KindServerCrashed, "the connection to the server closed")
	}
	s.forget(c, fe)
	c.close()
	close(c.dead)
}

// forget detaches c from the server after a failure, so that the next use
// starts the server again (after the back-off).
func (s *server) forget(c *conn, fe *fault.Error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.conn == c {
		s.conn = nil
		s.noteFailure(withServer(fe, s.name))
	}
}

// drop closes c after a failure that left it unusable.
func (s *server) drop(c *conn, fe *fault.Error) {
	c.fail.set(fe)
	s.forget(c, c.fail.get())
	c.close()
}

func (s *server) shutdown() {
	s.mu.Lock()
	c := s.conn
	s.mu.Unlock()
	if c != nil {
		c.close()
	}
}

// codeRejected is the code of the SDK's "rejected by transport" error.
const codeRejected = -32005

// classify turns an SDK error of a request on c into a typed error. The
// caller's context ending is returned as itself.
func (s *server) classify(ctx context.Context, c *conn, method string, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var we *sdk.Error
	if errors.As(err, &we) && we.Code == codeRejected && we.Message == "rejected by transport" {
		// The SDK's streamable HTTP client wraps a request that never got an
		// answer (connection refused, 502/503, ...) in this JSON-RPC error of
		// its own: the server did not answer, the connection is dead.
		fe := newErr(KindServerCrashed, "the server could not be reached").With("server", s.name).With("method", method).
			With("cause", textcut.Prefix(err.Error(), 512))
		s.drop(c, fe)
		return fe
	}
	if we != nil {
		return newErr(KindCallFailed, "the server answered with an error").With("server", s.name).With("method", method).
			With("code", we.Code).With("message", textcut.Prefix(we.Message, 512))
	}
	if s.h.isClosed() { // Close ended the request
		return newErr(KindClosed, "the MCP host is closed").With("server", s.name).With("method", method)
	}
	// A transport failure: the connection is closing or closed. Unless
	// the framing already said why, wait briefly for it to end so the
	// recorded cause (the process's exit) is known.
	if c.fail.get() == nil {
		select {
		case <-c.dead:
		case <-time.After(2 * time.Second):
		}
	}
	if fe := c.fail.get(); fe != nil {
		s.drop(c, fe)
		return withServer(fe, s.name).With("method", method)
	}
	select {
	case <-c.dead:
		return newErr(KindServerCrashed, "the connection to the server closed").With("server", s.name).With("method", method)
	default:
	}
	// Alive, yet the reply was unusable (a result that does not decode,
	// for one): drop the connection rather than trust it further.
	fe := fault.Wrap(err, Phase, KindMalformedMessage, "the server's reply could not be used").With("server", s.name).With("method", method)
	s.drop(c, fe)
	return fe
}

// succeeded resets the consecutive failure count after a good request.
func (s *server) succeeded() {
	s.mu.Lock()
	s.failures = 0
	s.mu.Unlock()
}

func (s *server) markDirty() {
	select {
	case s.dirty <- struct{}{}:
	default: // a refresh is already due: storms coalesce
	}
}

// watch re-imports the server's tools after tools/list_changed, one
// refresh at a time, until the Host closes.
func (s *server) watch() {
	defer s.h.wg.Done()
	for {
		select {
		case <-s.h.ctx.Done():
			return
		case <-s.dirty:
		}
		s.refreshes.Add(1)
		ctx, cancel := context.WithTimeout(s.h.ctx, s.cfg.callTimeout())
		_, changed, _ := s.importTools(ctx)
		cancel()
		if changed && s.h.opts.OnChange != nil {
			s.h.opts.OnChange(s.name)
		}
	}
}

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
