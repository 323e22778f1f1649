package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/openai"
)

// lyingServer is a scripted OpenAI-compatible server for the budget
// attack of issue 30 item 6. The root's first reply is a plan mapping
// one model sub-call over each of 40 lines; each sub-call reply reports
// 2,000 tokens (and, with cost, $0.01). One reply carries the lie: the
// root's plan (rootLie) or the first sub-call's (subLie), as a raw JSON
// usage object.
type lyingServer struct {
	rootLie, subLie string
	cost            bool

	mu        sync.Mutex
	rootCalls int
	subCalls  int
}

const attackQuery = "ATTACK-QUERY-30-6"

func (s *lyingServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var req struct {
		Messages []struct {
			Content string `json:"content"`
		} `json:"messages"`
	}
	_ = json.Unmarshal(body, &req)
	root := false
	for _, m := range req.Messages {
		root = root || strings.Contains(m.Content, attackQuery)
	}
	cost := ""
	if s.cost {
		cost = `,"cost":0.01`
	}
	usage := `{"prompt_tokens":1000,"completion_tokens":1000,"total_tokens":2000` + cost + `}`
	text := "summary"
	s.mu.Lock()
	switch {
	case root && s.rootCalls == 0:
		text = steps(
			map[string]any{"op": "context", "handle": input("context"), "action": map[string]any{"type": "partition", "strategy": "lines", "size": 1}, "bind": "parts"},
			map[string]any{"op": "map", "over": ref("parts"), "as": "p", "bind": "out", "plan": map[string]any{"steps": []any{
				map[string]any{"op": "model", "prompt": "summarize", "bind": "a"},
				map[string]any{"op": "final", "value": ref("a")},
			}}},
		)
		usage = `{"prompt_tokens":100,"completion_tokens":100,"total_tokens":200}`
		if s.rootLie != "" {
			usage = s.rootLie
		}
		s.rootCalls++
	case root:
		text = `{"answer":"done"}`
		usage = `{"prompt_tokens":100,"completion_tokens":10,"total_tokens":110}`
		s.rootCalls++
	default:
		if s.subCalls == 0 && s.subLie != "" {
			usage = s.subLie
		}
		s.subCalls++
	}
	s.mu.Unlock()
	content, _ := json.Marshal(text)
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"id":"chatcmpl-x","object":"chat.completion","model":"test-model","choices":[{"index":0,"message":{"role":"assistant","content":%s},"finish_reason":"stop"}],"usage":%s}`, content, usage)
}

// TestLyingUsageCannotLiftBudgets is issue 30 item 6 end to end: one
// reply reporting total_tokens -1000000 let 40 sub-calls of 2,000 tokens
// through a 20,000-token limit, and cost -100 let 40 calls of $0.01
// through a $0.10 limit. The impossible usage is now refused
// (malformed_response, the call charged its admitted worst case), so
// the limit holds: at most what the limit leaves room for is served.
func TestLyingUsageCannotLiftBudgets(t *testing.T) {
	tests := []struct {
		name   string
		srv    *lyingServer
		limits budget.Limits
	}{
		{"root reports -1000000 tokens", &lyingServer{rootLie: `{"prompt_tokens":100,"completion_tokens":100,"total_tokens":-1000000}`},
			budget.Limits{MaxTotalTokens: 20000, MaxCostUSD: -1}},
		{"first sub-call reports -1000000 tokens", &lyingServer{subLie: `{"prompt_tokens":0,"completion_tokens":0,"total_tokens":-1000000}`},
			budget.Limits{MaxTotalTokens: 20000, MaxCostUSD: -1}},
		{"root reports cost -100", &lyingServer{cost: true, rootLie: `{"prompt_tokens":100,"completion_tokens":100,"total_tokens":200,"cost":-100}`},
			budget.Limits{MaxCostUSD: 0.1, MaxTotalTokens: -1}},
		{"first sub-call reports cost -100", &lyingServer{cost: true, subLie: `{"prompt_tokens":1000,"completion_tokens":1000,"total_tokens":2000,"cost":-100}`},
			budget.Limits{MaxCostUSD: 0.1, MaxTotalTokens: -1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hs := httptest.NewServer(tt.srv)
			defer hs.Close()
			prov, err := openai.New(openai.Config{BaseURL: hs.URL + "/v1", Model: "test-model", MaxRetries: -1})
			if err != nil {
				t.Fatal(err)
			}
			defer prov.CloseIdleConnections()
			lim := tt.limits
			lim.MaxModelCalls = 200
			lim.MaxConcurrency = 1 // sequential sub-calls: the count below is exact
			text := lines(40, func(i int) string { return fmt.Sprintf("row %d", i) })
			eng, h := scriptedEngine(t, text, Config{Limits: lim}, prov)
			res, err := eng.Run(context.Background(), attackQuery, h)
			tt.srv.mu.Lock()
			subs := tt.srv.subCalls
			tt.srv.mu.Unlock()
			t.Logf("sub-calls served %d, usage %+v, err %v", subs, res.Usage, err)
			// Each honest sub-call costs 2,000 tokens or $0.01: the limit
			// leaves room for 10 (the cost of an unpriced model cannot be
			// reserved ahead, and ten $0.01 add up to just below $0.10 in
			// floating point, so an eleventh may start). Before, all 40
			// were served.
			honest, most := subs, 10
			if tt.srv.subLie != "" {
				honest--
			}
			if tt.limits.MaxCostUSD > 0 {
				most = 11
			}
			if honest > most {
				t.Fatalf("%d sub-calls of 2,000 tokens / $0.01 served under %+v", honest, tt.limits)
			}
			if res.Usage.TotalTokens < 0 || res.Usage.CostUSD < 0 {
				t.Fatalf("negative usage recorded: %+v", res.Usage)
			}
			if err == nil {
				t.Fatalf("the run completed under the attack; usage %+v", res.Usage)
			}
			if k := fault.KindOf(err); k != budget.KindMaxTotalTokens && k != budget.KindMaxCost && k != "malformed_response" {
				t.Fatalf("run ended with %v", err)
			}
		})
	}
}

// TestLyingProviderCannotLiftBudgets: the tracker's own defence, below
// any provider's wire check. An in-process provider (model.ProviderFunc,
// no wire decoding) whose first sub-call reports total_tokens -1000000
// (or cost -100) still cannot lift the limit: the impossible report is
// charged the call's worst case, and what was counted never decreases.
func TestLyingProviderCannotLiftBudgets(t *testing.T) {
	plan := steps(
		map[string]any{"op": "context", "handle": input("context"), "action": map[string]any{"type": "partition", "strategy": "lines", "size": 1}, "bind": "parts"},
		map[string]any{"op": "map", "over": ref("parts"), "as": "p", "bind": "out", "plan": map[string]any{"steps": []any{
			map[string]any{"op": "model", "prompt": "summarize", "bind": "a"},
			map[string]any{"op": "final", "value": ref("a")},
		}}},
	)
	for _, tt := range []struct {
		name   string
		lie    budget.Usage
		limits budget.Limits
	}{
		{"tokens", budget.Usage{PromptTokens: 1, CompletionTokens: 1, TotalTokens: -1_000_000, TokensKnown: true},
			budget.Limits{MaxTotalTokens: 20000, MaxCostUSD: -1}},
		{"cost", budget.Usage{PromptTokens: 1000, CompletionTokens: 1000, TotalTokens: 2000, TokensKnown: true, CostUSD: -100, CostKnown: true},
			budget.Limits{MaxCostUSD: 0.1, MaxTotalTokens: -1}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var mu sync.Mutex
			subs, roots := 0, 0
			root := func(ctx context.Context, req model.Request) (*model.Response, error) {
				mu.Lock()
				defer mu.Unlock()
				roots++
				text := plan
				if roots > 1 {
					text = `{"answer":"done"}`
				}
				return &model.Response{Text: text, Usage: budget.Usage{PromptTokens: 100, CompletionTokens: 10, TotalTokens: 110, TokensKnown: true}}, nil
			}
			sub := func(ctx context.Context, req model.Request) (*model.Response, error) {
				mu.Lock()
				defer mu.Unlock()
				subs++
				u := budget.Usage{PromptTokens: 1000, CompletionTokens: 1000, TotalTokens: 2000, TokensKnown: true, CostUSD: 0.01, CostKnown: true}
				if subs == 1 {
					u = tt.lie
				}
				return &model.Response{Text: "summary", Usage: u}, nil
			}
			lim := tt.limits
			lim.MaxConcurrency = 1
			text := lines(40, func(i int) string { return fmt.Sprintf("row %d", i) })
			eng, h := funcEngine(t, text, Config{Limits: lim}, root, sub)
			res, err := eng.Run(context.Background(), "q", h)
			mu.Lock()
			honest := subs - 1
			mu.Unlock()
			t.Logf("honest sub-calls %d, usage %+v, err %v", honest, res.Usage, err)
			most := 10
			if lim.MaxCostUSD > 0 {
				most = 11
			}
			if honest > most || res.Usage.TotalTokens < 0 || res.Usage.CostUSD < 0 || err == nil {
				t.Fatalf("%d honest sub-calls served under %+v (usage %+v, err %v)", honest, tt.limits, res.Usage, err)
			}
		})
	}
}
