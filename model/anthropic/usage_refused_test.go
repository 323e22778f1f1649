package anthropic_test

import (
	"context"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
)

// TestImpossibleUsageRefused: adversarial usage reports (issue 30 item
// 6) in a JSON message, in a stream's message_start and in its
// message_delta are refused as malformed_response naming the field, the
// usage handed back unknown so that the budget charges the call's
// admitted worst case; huge counts are charged saturated, never wrapped
// to a negative total.
func TestImpossibleUsageRefused(t *testing.T) {
	const good = `{"input_tokens":10,"output_tokens":5}`
	tests := []struct {
		name       string
		start      string // message_start's usage (and the JSON message's)
		delta      string // message_delta's usage (streams only)
		refused    string
		wantTotal  int64
		streamOnly bool
	}{
		{"negative input", `{"input_tokens":-1000000,"output_tokens":1}`, `{"output_tokens":5}`, "usage.input_tokens", 0, false},
		{"negative output", `{"input_tokens":10,"output_tokens":-1000000}`, `{"output_tokens":5}`, "usage.output_tokens", 0, false},
		{"negative cache read", `{"input_tokens":10,"output_tokens":1,"cache_read_input_tokens":-5}`, `{"output_tokens":5}`, "usage.cache_read_input_tokens", 0, false},
		{"negative cache write", `{"input_tokens":10,"output_tokens":1,"cache_creation_input_tokens":-5}`, `{"output_tokens":5}`, "usage.cache_creation_input_tokens", 0, false},
		{"negative output in message_delta", good, `{"output_tokens":-1000000}`, "usage.output_tokens", 0, true},
		{"negative input in message_delta", good, `{"input_tokens":-1000000,"output_tokens":5}`, "usage.input_tokens", 0, true},
		{"negative iteration", `{"input_tokens":10,"output_tokens":1,"iterations":[{"input_tokens":-5,"output_tokens":1}]}`, `{"output_tokens":5}`, "usage.iterations[0].input_tokens", 0, false},
		{"negative iteration in message_delta", good, `{"output_tokens":5,"iterations":[{"input_tokens":1,"output_tokens":1},{"input_tokens":1,"output_tokens":-3}]}`, "usage.iterations[1].output_tokens", 0, true},
		{"counts overflow int64", `{"input_tokens":9223372036854775807,"output_tokens":9223372036854775807,"cache_read_input_tokens":9223372036854775807}`,
			`{"output_tokens":9223372036854775807}`, "", math.MaxInt64, false},
	}
	for _, tt := range tests {
		for _, stream := range []bool{false, true} {
			if tt.streamOnly && !stream {
				continue
			}
			name := tt.name + map[bool]string{false: "/json", true: "/stream"}[stream]
			t.Run(name, func(t *testing.T) {
				srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					io.Copy(io.Discard, r.Body)
					msg := `{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"ok"}],"stop_reason":"end_turn","usage":` + tt.start + `}`
					if !stream {
						w.Header().Set("Content-Type", "application/json")
						io.WriteString(w, msg)
						return
					}
					w.Header().Set("Content-Type", "text/event-stream")
					start := strings.Replace(msg, `[{"type":"text","text":"ok"}]`, `[]`, 1)
					for _, ev := range []string{
						`{"type":"message_start","message":` + start + `}`,
						`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
						`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"ok"}}`,
						`{"type":"content_block_stop","index":0}`,
						`{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":` + tt.delta + `}`,
						`{"type":"message_stop"}`,
					} {
						io.WriteString(w, "data: "+ev+"\n\n")
					}
				}))
				defer srv.Close()
				c := cfg(srv.URL)
				c.MaxRetries = -1
				resp, err := newP(t, c).Complete(context.Background(), req(stream))
				if tt.refused == "" {
					if err != nil {
						t.Fatal(err)
					}
					if u := resp.Usage; !u.TokensKnown || u.TotalTokens != tt.wantTotal || u.PromptTokens < 0 || math.IsInf(u.CostUSD, 0) || u.CostUSD < 0 {
						t.Fatalf("usage %+v, want total %d", u, tt.wantTotal)
					}
					return
				}
				fe := fault.As(err)
				if fe == nil || fe.Kind != model.KindMalformedResponse || fe.Phase != fault.PhaseProvider || fe.Detail["usage_field"] != tt.refused {
					t.Fatalf("err %v (detail %v), want malformed_response on %s", err, fe, tt.refused)
				}
				if resp == nil {
					t.Fatal("no response handed back: the refused call would be charged nothing")
				}
				if u := resp.Usage; u.TokensKnown || u.TokensEstimated || u.TotalTokens != 0 || u.CostKnown || u.CostEstimated || u.Calls != 1 {
					t.Fatalf("refused usage handed back as %+v, want unknown (charged the worst case)", u)
				}
			})
		}
	}
}
