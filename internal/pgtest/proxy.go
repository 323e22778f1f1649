package pgtest

import (
	"bytes"
	"net"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
)

// Proxy stands between a client and the PostgreSQL server on loopback, so
// a test can break connections the way a server restart does: DropAnswer
// cuts the connection that carries the next server reply containing a
// marker, after the server sent it (the statement ran and committed) and
// before the client reads it; Outage closes the open connections and
// every new one until it ends.
type Proxy struct {
	ln     net.Listener
	target string

	mu     sync.Mutex
	conns  map[net.Conn]bool
	refuse bool
	// outageOnDrop makes a dropped answer start an outage (OutageAfterDrop).
	outageOnDrop bool
	dropAfter    []byte
	dropped      atomic.Int64 // answers dropped
	wg           sync.WaitGroup
}

// NewProxy returns a proxy to the database at dbURL and the URL that
// reaches the database through it; it is closed when t ends.
func NewProxy(t testing.TB, dbURL string) (*Proxy, string) {
	t.Helper()
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{ln: ln, target: u.Host, conns: map[net.Conn]bool{}}
	p.wg.Go(p.accept)
	t.Cleanup(p.close)
	u.Host = ln.Addr().String()
	return p, u.String()
}

func (p *Proxy) accept() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		refuse := p.refuse
		p.mu.Unlock()
		if refuse {
			c.Close()
			continue
		}
		s, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		p.conns[c], p.conns[s] = true, true
		p.mu.Unlock()
		p.wg.Go(func() { p.pipe(s, c, false) })
		p.wg.Go(func() { p.pipe(c, s, true) })
	}
}

// pipe copies from src to dst; fromServer marks the server's replies,
// which dropAfter watches.
func (p *Proxy) pipe(dst, src net.Conn, fromServer bool) {
	defer func() { p.kill(dst, src) }()
	buf := make([]byte, 64<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 && fromServer {
			p.mu.Lock()
			drop := p.dropAfter != nil && bytes.Contains(buf[:n], p.dropAfter)
			if drop {
				p.dropAfter = nil
				if p.outageOnDrop {
					p.startOutageLocked()
				}
			}
			p.mu.Unlock()
			if drop {
				p.dropped.Add(1)
				return // the reply is lost with the connection
			}
		}
		if n > 0 {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

func (p *Proxy) kill(conns ...net.Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range conns {
		c.Close()
		delete(p.conns, c)
	}
}

// Outage refuses new connections and cuts the open ones until the
// returned function is called.
func (p *Proxy) Outage() (end func()) {
	p.mu.Lock()
	p.startOutageLocked()
	p.mu.Unlock()
	return func() {
		p.mu.Lock()
		p.refuse = false
		p.mu.Unlock()
	}
}

// startOutageLocked refuses new connections and cuts the open ones; p.mu
// is held.
func (p *Proxy) startOutageLocked() {
	p.refuse = true
	for c := range p.conns {
		c.Close()
		delete(p.conns, c)
	}
}

// DropAnswer makes the proxy drop, with its connection, the next server
// reply that contains marker (a command tag such as "INSERT 0 1").
func (p *Proxy) DropAnswer(marker string) {
	p.mu.Lock()
	p.dropAfter = []byte(marker)
	p.mu.Unlock()
}

func (p *Proxy) close() {
	p.ln.Close()
	p.Outage()
	p.wg.Wait()
}

// OutageAfterDrop makes the drop of the answer DropAnswer armed start an
// Outage at once, under the same lock, so that the statement's connection
// is lost mid-statement and every retry is refused, until end is called.
func (p *Proxy) OutageAfterDrop() (end func()) {
	p.mu.Lock()
	p.outageOnDrop = true
	p.mu.Unlock()
	return func() {
		p.mu.Lock()
		p.outageOnDrop, p.refuse = false, false
		p.mu.Unlock()
	}
}

// Dropped counts the answers dropped so far.
func (p *Proxy) Dropped() int64 { return p.dropped.Load() }
