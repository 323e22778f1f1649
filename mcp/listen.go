package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/rlm-go/rlm/fault"
)

// ListenAndServe serves the server's streamable HTTP handler
// (HTTPHandler(token)) on addr (host:port; an empty host means 127.0.0.1,
// port 0 picks one) until ctx ends, then shuts down (waiting at most 5 s
// for calls in flight) and returns nil. A non-loopback address needs a
// bearer token: without one it is refused with Kind invalid before
// anything listens. The bound address is written to announce
// ("rlm: mcp: serving streamable HTTP on http://ADDR/"), so a caller that
// asked for port 0 learns the port.
func (s *Server) ListenAndServe(ctx context.Context, addr, token string, announce io.Writer) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fault.Wrap(err, fault.PhaseConfig, fault.KindInvalid, "--http must be host:port").With("http", addr)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	if ip := net.ParseIP(host); token == "" && ((ip == nil && host != "localhost") || (ip != nil && !ip.IsLoopback())) {
		return fault.New(fault.PhaseConfig, fault.KindInvalid, "a non-loopback --http address needs a bearer token").With("http", addr).
			WithHint("bind 127.0.0.1, or set --bearer-token-env VAR")
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(host, port))
	if err != nil {
		return fault.Wrap(err, fault.PhaseConfig, fault.KindInvalid, "cannot listen on --http").With("http", addr)
	}
	hs := &http.Server{Handler: s.HTTPHandler(token), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(announce, "rlm: mcp: serving streamable HTTP on http://%s/\n", ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = hs.Shutdown(sctx)
		<-errc
		return nil
	case err := <-errc:
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return err
	}
}
