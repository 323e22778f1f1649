package openai_test

import (
	"context"
	"math"
	"net/http"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/openai"
)

// adversarialUsage are usage reports a server could send to lift a
// budget (issue 30 item 6). refused names the field a malformed_response
// must name; otherwise the report is possible and want is what the call
// is charged.
var adversarialUsage = []struct {
	name    string
	usage   string
	refused string
	want    budget.Usage // tokens and cost when not refused
}{
	{"negative total", `{"prompt_tokens":10,"completion_tokens":5,"total_tokens":-1000000}`, "usage.total_tokens", budget.Usage{}},
	{"negative prompt", `{"prompt_tokens":-1000000,"completion_tokens":5,"total_tokens":0}`, "usage.prompt_tokens", budget.Usage{}},
	{"negative completion", `{"prompt_tokens":10,"completion_tokens":-7,"total_tokens":3}`, "usage.completion_tokens", budget.Usage{}},
	{"negative cost", `{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15,"cost":-100}`, "usage.cost", budget.Usage{}},
	{"negative tiny cost", `{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15,"cost":-1e-300}`, "usage.cost", budget.Usage{}},
	{"negative xAI ticks", `{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15,"cost_in_usd_ticks":-1000000000000}`, "usage.cost_in_usd_ticks", budget.Usage{}},
	{"negative cached tokens", `{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15,"prompt_tokens_details":{"cached_tokens":-5}}`, "usage.prompt_tokens_details.cached_tokens", budget.Usage{}},
	{"negative DeepSeek cache hits", `{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15,"prompt_cache_hit_tokens":-5}`, "usage.prompt_cache_hit_tokens", budget.Usage{}},
	// Possible, if odd: charged conservatively, never wrapped.
	{"total below its parts", `{"prompt_tokens":1000,"completion_tokens":1000,"total_tokens":5}`, "",
		budget.Usage{PromptTokens: 1000, CompletionTokens: 1000, TotalTokens: 2000}},
	{"parts overflow int64", `{"prompt_tokens":9223372036854775807,"completion_tokens":9223372036854775807}`, "",
		budget.Usage{PromptTokens: math.MaxInt64, CompletionTokens: math.MaxInt64, TotalTokens: math.MaxInt64}},
	{"total above its parts (reasoning)", `{"prompt_tokens":10,"completion_tokens":5,"total_tokens":40}`, "",
		budget.Usage{PromptTokens: 10, CompletionTokens: 5, TotalTokens: 40}},
	{"negative zero cost", `{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15,"cost":-0}`, "",
		budget.Usage{PromptTokens: 10, CompletionTokens: 5, TotalTokens: 15, CostKnown: true}},
	{"cached above prompt", `{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15,"prompt_tokens_details":{"cached_tokens":50}}`, "",
		budget.Usage{PromptTokens: 10, CompletionTokens: 5, TotalTokens: 15, CachedTokens: 10}},
}

// TestImpossibleUsageRefused: every adversarial usage report, in a JSON
// completion and in a stream's usage chunk, is either refused as
// malformed_response naming the field, with the call's usage handed
// back unknown (the budget then charges the admitted worst case), or
// charged as a possible, non-negative, non-wrapped count.
func TestImpossibleUsageRefused(t *testing.T) {
	for _, tt := range adversarialUsage {
		for _, stream := range []bool{false, true} {
			name := tt.name + map[bool]string{false: "/json", true: "/stream"}[stream]
			t.Run(name, func(t *testing.T) {
				srv, _ := counting(func(w http.ResponseWriter, r *http.Request) {
					if !stream {
						writeCompletion(w, `{"id":"c1","object":"chat.completion","model":"gpt-4o-mini","choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}],"usage":`+tt.usage+`}`)
						return
					}
					w.Header().Set("Content-Type", "text/event-stream")
					for _, e := range []string{chunk(`{"role":"assistant","content":"ok"}`, "stop"),
						`{` + chunkHead + `,"choices":[],"usage":` + tt.usage + `}`, "[DONE]"} {
						w.Write([]byte("data: " + e + "\n\n"))
					}
				})
				defer srv.Close()
				cfg := fast(srv.URL)
				cfg.MaxRetries = -1
				resp, err := newProvider(t, cfg).Complete(context.Background(), userReq("hi", stream))
				if tt.refused != "" {
					fe := wantKind(t, err, model.KindMalformedResponse)
					if fe.Detail["usage_field"] != tt.refused {
						t.Fatalf("detail %v, want usage_field %s", fe.Detail, tt.refused)
					}
					if resp == nil {
						t.Fatal("no response handed back: the refused call would be charged nothing")
					}
					if u := resp.Usage; u.TokensKnown || u.TokensEstimated || u.TotalTokens != 0 || u.CostKnown || u.CostEstimated || u.CostUSD != 0 || u.Calls != 1 {
						t.Fatalf("refused usage handed back as %+v, want unknown (charged the worst case)", u)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				u := resp.Usage
				if !u.TokensKnown || u.PromptTokens != tt.want.PromptTokens || u.CompletionTokens != tt.want.CompletionTokens ||
					u.TotalTokens != tt.want.TotalTokens || u.CachedTokens != tt.want.CachedTokens {
					t.Fatalf("usage %+v, want %+v", u, tt.want)
				}
				if tt.want.CostKnown && (!u.CostKnown || u.CostUSD != 0) {
					t.Fatalf("cost %+v", u)
				}
				if u.CostUSD < 0 || math.IsNaN(u.CostUSD) || math.IsInf(u.CostUSD, 0) {
					t.Fatalf("cost %v", u.CostUSD)
				}
			})
		}
	}
}

// TestUsageCheck is the rule on the wire type itself.
func TestUsageCheck(t *testing.T) {
	nan, inf, neg := math.NaN(), math.Inf(1), -0.5
	for _, tt := range []struct {
		u     openai.Usage
		field string
	}{
		{openai.Usage{PromptTokens: 1, CompletionTokens: 2, TotalTokens: 3}, ""},
		{openai.Usage{}, ""},
		{openai.Usage{Cost: &nan}, "usage.cost"},
		{openai.Usage{Cost: &inf}, "usage.cost"},
		{openai.Usage{Cost: &neg}, "usage.cost"},
		{openai.Usage{TotalTokens: -1}, "usage.total_tokens"},
	} {
		err := tt.u.Check()
		if (err == nil) != (tt.field == "") || (err != nil && !strings.Contains(err.Error(), tt.field)) {
			t.Errorf("%+v: %v, want %q", tt.u, err, tt.field)
		}
	}
}
