package replay

import (
	"context"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/anthropic"
	"github.com/rlm-go/rlm/model/openai"
)

// TestRecordKeepsCacheWrites (issue 34 item 4): a --record cassette of an
// Anthropic call that read 1,111 prompt tokens from the cache and wrote
// 418 to it keeps both (prompt_tokens_details.cached_tokens and
// .cache_write_tokens), so replaying it, on the Messages route and on
// the chat-completions route, streamed or not, gives the same usage and
// prices the call with the cache-write premium, as the live call was.
// The cassette used to hold 1,532 prompt with 1,111 cached, and the
// replay priced the 418 written tokens at the input price.
func TestRecordKeepsCacheWrites(t *testing.T) {
	// A Messages API body in the shape of a real prompt-caching reply.
	const body = `{"content":[{"text":"Cached answer.","type":"text"}],"id":"msg_01CacheWriteRec","model":"claude-sonnet-4-5-20250929",` +
		`"role":"assistant","stop_reason":"end_turn","stop_sequence":null,"type":"message","usage":{"cache_creation":` +
		`{"ephemeral_1h_input_tokens":0,"ephemeral_5m_input_tokens":418},"cache_creation_input_tokens":418,` +
		`"cache_read_input_tokens":1111,"input_tokens":3,"output_tokens":33,"service_tier":"standard"}}`
	live := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, body)
	}))
	defer live.Close()
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	newAnthropic := func(base string) *anthropic.Provider {
		p, err := anthropic.New(anthropic.Config{BaseURL: base, Model: "claude-sonnet-4-5", APIKey: "sk-ant-record-test-0123456789",
			HTTPClient: &http.Client{Transport: tr}, Timeout: 5 * time.Second, MaxRetries: -1})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	rec := NewRecorder(newAnthropic(live.URL + "/v1"))
	first, err := rec.Complete(context.Background(), ask("what is Go?", false))
	if err != nil {
		t.Fatal(err)
	}
	// claude-sonnet-4: input 3, cache read 0.30, cache write 3.75, output 15 per million.
	want := budget.Usage{PromptTokens: 1532, CachedTokens: 1111, CacheWriteTokens: 418, CompletionTokens: 33, TotalTokens: 1565}
	wantCost := (3*3.0 + 1111*0.30 + 418*3.75 + 33*15.0) / 1e6
	check := func(name string, u budget.Usage) {
		t.Helper()
		if u.PromptTokens != want.PromptTokens || u.CachedTokens != want.CachedTokens || u.CacheWriteTokens != want.CacheWriteTokens ||
			u.CompletionTokens != want.CompletionTokens || u.TotalTokens != want.TotalTokens || !u.TokensKnown {
			t.Errorf("%s: usage %+v, want %+v", name, u, want)
		}
		if !u.CostEstimated || math.Abs(u.CostUSD-wantCost) > 1e-12 {
			t.Errorf("%s: cost %v, want %v (with the cache-write premium)", name, u.CostUSD, wantCost)
		}
	}
	check("live", first.Usage)

	path := filepath.Join(t.TempDir(), "cassette.json")
	if err := rec.Save(path); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(path)
	if !strings.Contains(string(raw), `"cache_write_tokens": 418`) || !strings.Contains(string(raw), `"cached_tokens": 1111`) {
		t.Fatalf("cassette lost a cache figure:\n%s", raw)
	}
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, route := range []string{"messages", "chat.completions"} {
		for _, stream := range []bool{false, true} {
			srv := NewServer(c)
			var p model.Provider
			if route == "messages" {
				p = newAnthropic(srv.BaseURL())
			} else {
				op := provider(t, srv.BaseURL(), func(oc *openai.Config) { oc.Model = "claude-sonnet-4-5"; oc.HTTPClient = &http.Client{Transport: tr} })
				p = op
			}
			resp, err := p.Complete(context.Background(), ask("what is Go?", stream))
			srv.Close()
			if err != nil {
				t.Fatalf("%s stream %v: %v", route, stream, err)
			}
			if resp.Text != "Cached answer." {
				t.Errorf("%s stream %v: text %q", route, stream, resp.Text)
			}
			check(route+map[bool]string{false: "", true: " (stream)"}[stream], resp.Usage)
		}
	}
}
