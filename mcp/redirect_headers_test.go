package mcp

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rlm-go/rlm/tool"
)

// The configured headers (credentials for the configured URL) are added by
// a RoundTripper, so they are sent again on every redirect hop, to any
// origin the server redirects to (the http.Client's own stripping of
// Authorization on cross-origin redirects never sees them).
func TestHeadersNotSentToRedirectTarget(t *testing.T) {
	srv := mcpsdk.NewServer(&mcpsdk.Implementation{Name: "b", Version: "1"}, nil)
	srv.AddTool(&mcpsdk.Tool{Name: "echo", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcpsdk.CallToolRequest) (*mcpsdk.CallToolResult, error) {
			return &mcpsdk.CallToolResult{}, nil
		})
	sdkh := mcpsdk.NewStreamableHTTPHandler(func(*http.Request) *mcpsdk.Server { return srv }, nil)
	var mu sync.Mutex
	var leaked []string
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		if a := r.Header.Get("Authorization"); a != "" {
			leaked = append(leaked, a)
		}
		mu.Unlock()
		sdkh.ServeHTTP(w, r)
	}))
	defer other.Close()
	defer func() {
		for ss := range srv.Sessions() {
			ss.Close()
		}
	}()
	// The configured server redirects everything to another origin.
	target := strings.Replace(other.URL, "127.0.0.1", "localhost", 1)
	configured := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	defer configured.Close()
	h := NewHost(Config{Servers: map[string]ServerConfig{"s": {URL: configured.URL, Effect: "read",
		Headers: map[string]string{"Authorization": "Bearer s3cret-for-configured-origin"}}}}, Options{})
	defer h.Close()
	_, _ = h.Import(context.Background(), tool.NewRegistry())
	mu.Lock()
	defer mu.Unlock()
	if len(leaked) > 0 {
		t.Fatalf("the configured Authorization header reached the redirect target %s (%d requests): %q", target, len(leaked), leaked[0])
	}
}
