package openai_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/openai"
)

// BenchmarkCompleteTurns sends the requests of a conversation of 40 turns
// like bench/turnserver's (a system prompt, the question, then per turn a
// plan and an observation), each through Provider.Complete to a local
// server that reads and drops the body and answers with a fixed
// completion: the encoding and the sending of a growing conversation. One
// iteration is the 40 requests of a new conversation (B/op and allocs/op
// are per 40 turns, the server's side included).
func BenchmarkCompleteTurns(b *testing.B) {
	const turns = 40
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, textCompletion)
	}))
	defer srv.Close()
	p, err := openai.New(openai.Config{BaseURL: srv.URL + "/v1", Model: "gpt-4o-mini", APIKey: "sk-test-key"})
	if err != nil {
		b.Fatal(err)
	}
	defer p.CloseIdleConnections()
	msgs := []model.Message{
		{Role: model.RoleSystem, Content: strings.Repeat("You answer questions about a large input held in a store. Use <plans>.\n", 60)},
		{Role: model.RoleUser, Content: "find the needle"},
	}
	for i := range turns {
		msgs = append(msgs,
			model.Message{Role: model.RoleAssistant, Content: fmt.Sprintf(`{"steps":[{"op":"context","handle":{"ref":"input","name":"context"},"action":{"type":"search","pattern":"needle"},"bind":"hits%d"}]}`, i)},
			model.Message{Role: model.RoleUser, Content: fmt.Sprintf("Observation %d:\n%s", i, strings.Repeat(`{"line":2001,"text":"the needle is here","offset":63892} `, 12))})
	}
	ctx := context.Background()
	// One conversation sent once before timing, so that the connection
	// is open and the first iteration's encodings are not all new.
	for t := range turns {
		if _, err := p.Complete(ctx, model.Request{Messages: msgs[:2+2*t]}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		// Each iteration a new conversation (its own system prompt), as
		// the runs of bench/token_turns.sh are.
		n++
		system := fmt.Sprint(n, msgs[0].Content)
		for t := range turns {
			// A new slice each turn, as the engine's cache marks make one.
			req := model.Request{Messages: append([]model.Message(nil), msgs[:2+2*t]...)}
			req.Messages[0].Content = system
			if _, err := p.Complete(ctx, req); err != nil {
				b.Fatal(err)
			}
		}
	}
}
