package openai_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/openai"
)

// unresolvable is a base URL on a reserved name (RFC 2606: .invalid never
// resolves).
const unresolvable = "http://rlm-test.invalid/v1"

// dnsClient is a client whose every dial fails as a resolver would: with
// a *net.DNSError for name (IsNotFound, or IsTemporary when not notFound).
// It counts the dials.
func dnsClient(name string, notFound bool, dials *int) *http.Client {
	return &http.Client{Transport: &http.Transport{
		Proxy: nil,
		DialContext: func(context.Context, string, string) (net.Conn, error) {
			*dials++
			return nil, &net.DNSError{Err: "no such host", Name: name, IsNotFound: notFound, IsTemporary: !notFound}
		},
	}}
}

// A host the resolver says does not exist fails at once with
// host_not_found, naming the host, with a hint at --base-url: one
// attempt, no OnRetry. A resolver that could not answer (temporary) is
// still a retried transport error. The name that failed is the proxy's
// when a proxy is in the way: then the hint names the proxy settings.
func TestUnresolvableHostNotRetried(t *testing.T) {
	for _, tc := range []struct {
		name      string
		lookup    string
		notFound  bool
		wantKind  fault.Kind
		wantDials int
		wantHint  string
	}{
		{name: "no such host", lookup: "rlm-test.invalid", notFound: true, wantKind: openai.KindHostNotFound, wantDials: 1, wantHint: "--base-url"},
		{name: "no such proxy", lookup: "proxy.invalid", notFound: true, wantKind: openai.KindHostNotFound, wantDials: 1, wantHint: "HTTPS_PROXY"},
		{name: "resolver unavailable", lookup: "rlm-test.invalid", notFound: false, wantKind: model.KindTransport, wantDials: 4, wantHint: "rlm-test.invalid"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var dials, retries int
			cfg := fast(unresolvable)
			cfg.MaxRetries = 3
			cfg.OnRetry = func(openai.Retry) { retries++ }
			cfg.HTTPClient = dnsClient(tc.lookup, tc.notFound, &dials)
			p := newProvider(t, cfg)
			defer p.CloseIdleConnections()
			_, err := p.Complete(context.Background(), userReq("hi", false))
			fe := wantKind(t, err, tc.wantKind)
			if dials != tc.wantDials || retries != tc.wantDials-1 || fe.Detail["attempts"] != tc.wantDials {
				t.Errorf("dials %d, OnRetry %d, attempts %v; want %d dials", dials, retries, fe.Detail["attempts"], tc.wantDials)
			}
			if fe.Detail["host"] != "rlm-test.invalid" || !strings.Contains(fe.Hint, tc.wantHint) {
				t.Errorf("detail %v, hint %q (want it to mention %q)", fe.Detail, fe.Hint, tc.wantHint)
			}
			if tc.notFound {
				if fe.Detail["lookup"] != tc.lookup || !strings.Contains(fe.Message, tc.lookup) {
					t.Errorf("message %q, detail %v: want the name %s", fe.Message, fe.Detail, tc.lookup)
				}
				var dns *net.DNSError
				if !errors.As(err, &dns) {
					t.Errorf("the cause is not the *net.DNSError: %v", err)
				}
			}
		})
	}
}

// The same through the machine's resolver, when it answers NXDOMAIN for
// the reserved name (a sandbox without DNS answers otherwise: skipped).
func TestUnresolvableHostRealResolver(t *testing.T) {
	_, err := net.DefaultResolver.LookupHost(context.Background(), "rlm-test.invalid")
	var dns *net.DNSError
	if !errors.As(err, &dns) || !dns.IsNotFound {
		t.Skipf("the resolver does not answer NXDOMAIN for rlm-test.invalid here: %v", err)
	}
	var retries int
	cfg := fast(unresolvable)
	cfg.MaxRetries = 3
	cfg.OnRetry = func(openai.Retry) { retries++ }
	p := newProvider(t, cfg)
	defer p.CloseIdleConnections()
	_, err = p.Complete(context.Background(), userReq("hi", true))
	fe := wantKind(t, err, openai.KindHostNotFound)
	if retries != 0 || fe.Detail["attempts"] != 1 || fe.Detail["host"] != "rlm-test.invalid" || !strings.Contains(fe.Hint, "--base-url") {
		t.Errorf("OnRetry %d, detail %v, hint %q", retries, fe.Detail, fe.Hint)
	}
}
