package httpturns

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	_ "github.com/rlm-go/rlm/bpe" // exact counts for OpenAI models, as the rlm command links them
	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/model/openai"
)

// BenchmarkTurnsHTTP is bench/token_turns.sh in one process: runs of
// `turns` root turns (each a context search of a 60 KB log, the last a
// final answer) through the OpenAI provider and a local HTTP server that
// answers at once, on gpt-4o-mini, so each prompt is counted exactly
// (o200k_base). It measures, per turn, the engine, trace, meter, token
// counting, request encoding and HTTP exchange, without a process's
// start-up (the server's share is small: it only counts the assistant
// messages of the request).
func BenchmarkTurnsHTTP(b *testing.B) {
	for _, turns := range []int{20, 40} {
		b.Run(fmt.Sprint(turns), func(b *testing.B) { benchTurns(b, turns) })
	}
}

func benchTurns(b *testing.B, turns int) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		done := bytes.Count(body, []byte(`{"role":"assistant"`))
		text := fmt.Sprintf(`{\"steps\":[{\"op\":\"context\",\"handle\":{\"ref\":\"input\",\"name\":\"context\"},\"action\":{\"type\":\"search\",\"pattern\":\"needle\"},\"bind\":\"hits%d\"}]}`, done)
		if done >= turns-1 {
			text = `{\"steps\":[{\"op\":\"final\",\"value\":\"done\"}]}`
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":"x","object":"chat.completion","model":"gpt-4o-mini","choices":[{"index":0,"finish_reason":"stop",`+
			`"message":{"role":"assistant","content":"%s"}}],"usage":{"prompt_tokens":10,"completion_tokens":2,"total_tokens":12}}`, text)
	}))
	b.Cleanup(srv.Close)
	prov, err := openai.New(openai.Config{BaseURL: srv.URL + "/v1", APIKey: "unused", Model: "gpt-4o-mini", MaxRetries: -1})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(prov.CloseIdleConnections)
	var sb strings.Builder
	for i := 1; i <= 2000; i++ {
		fmt.Fprintf(&sb, "routine line %d of a log file\n", i)
	}
	sb.WriteString("the needle is here\n")
	store := corpus.NewStore()
	b.Cleanup(func() { store.Close() })
	h, err := store.AddString("ctx.txt", sb.String())
	if err != nil {
		b.Fatal(err)
	}
	eng, err := engine.New(engine.Config{Provider: prov, Model: "gpt-4o-mini", Store: store,
		Limits: budget.Limits{MaxIterations: -1, MaxModelCalls: -1, MaxContextOps: -1, MaxTotalTokens: -1, MaxCostUSD: -1}})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		res, err := eng.Run(context.Background(), "find the needle", h)
		if err != nil || res.Answer != "done" || res.Turns != turns {
			b.Fatalf("%v %v after %d turns", err, res.Answer, res.Turns)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(turns)/1000, "µs/turn")
}
