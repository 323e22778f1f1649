package replay

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
)

// TestImpossibleRecordedUsage: a cassette whose recorded usage no call
// can have (issue 30 item 6) is served as recorded on the OpenAI route,
// where the provider refuses it (malformed_response, the call's usage
// unknown: charged its worst case), JSON and streamed; the Messages
// route, which must translate the usage, refuses it as
// malformed_cassette instead of translating a clamped or negative count.
func TestImpossibleRecordedUsage(t *testing.T) {
	const comp = `{"id":"chatcmpl-neg","object":"chat.completion","model":"gpt-4o-mini",
		"choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}],
		"usage":{"prompt_tokens":10,"completion_tokens":-1000000,"total_tokens":-999990}}`
	c, err := Parse([]byte(`{"version":1,"interactions":[{"response":` + comp + `},{"response":` + comp + `},{"response":` + comp + `}]}`))
	if err != nil {
		t.Fatal(err)
	}
	srv := NewServer(c)
	defer srv.Close()
	p := provider(t, srv.BaseURL(), nil)
	defer p.CloseIdleConnections()
	for _, stream := range []bool{false, true} {
		resp, err := p.Complete(context.Background(), ask("hi", stream))
		fe := fault.As(err)
		if fe == nil || fe.Kind != model.KindMalformedResponse || fe.Detail["usage_field"] != "usage.completion_tokens" {
			t.Fatalf("stream %v: err %v", stream, err)
		}
		if resp == nil || resp.Usage.TokensKnown || resp.Usage.TotalTokens != 0 || resp.Usage.CostEstimated {
			t.Fatalf("stream %v: usage handed back %+v", stream, resp)
		}
	}
	res, err := http.Post(srv.BaseURL()+"/messages", "application/json",
		strings.NewReader(`{"model":"claude-haiku-4-5","max_tokens":64,"messages":[{"role":"user","content":"hi"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var body struct {
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	_ = json.Unmarshal(raw, &body)
	if res.StatusCode != http.StatusInternalServerError || body.Error.Code != string(KindMalformedCassette) {
		t.Fatalf("HTTP %d: %s", res.StatusCode, raw)
	}
}
