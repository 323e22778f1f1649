package anthropic_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
)

// F3 (Anthropic). A non-streamed message with more tool_use blocks than
// the cap: the usage the server billed must come back with
// too_many_tool_calls, as it does for the streamed message.
func TestNonStreamTooManyToolCallsHandsBackUsage(t *testing.T) {
	var blocks []string
	for i := range 3 {
		blocks = append(blocks, fmt.Sprintf(`{"type":"tool_use","id":"toolu_%d","name":"f","input":{}}`, i))
	}
	body := `{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5","stop_reason":"tool_use",` +
		`"content":[` + strings.Join(blocks, ",") + `],"usage":{"input_tokens":1000,"output_tokens":60}}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, body)
	}))
	defer srv.Close()
	c := cfg(srv.URL)
	c.MaxToolCalls = 2
	resp, err := newP(t, c).Complete(context.Background(), req(false))
	if fault.KindOf(err) != model.KindTooManyToolCalls {
		t.Fatalf("err %v", err)
	}
	if resp == nil || !resp.Usage.TokensKnown || resp.Usage.TotalTokens != 1060 {
		t.Fatalf("billed usage not handed back: resp %+v", resp)
	}
}
