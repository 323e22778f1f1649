package anthropic_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/anthropic"
	"github.com/rlm-go/rlm/model/internal/msgcache/msgcachetest"
)

// textMessage is a Messages API answer of one text block.
const textMessage = `{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"ok"}],"stop_reason":"end_turn","usage":{"input_tokens":10,"output_tokens":2}}`

// TestConversationBodiesSurviveRetries sends a conversation's turns
// through Provider.Complete, streamed and not, with CachePrefix, to a
// server that answers each turn's first attempt with a 529 after reading
// only the start of the body, and the retry after reading it all: every
// body the server read whole is EncodeRequest's for its request (the
// retry sends the body of parts again from its start), and a fork of
// the conversation, sent afterwards, too.
func TestConversationBodiesSurviveRetries(t *testing.T) {
	var (
		mu     sync.Mutex
		bodies [][]byte
		calls  int
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		calls++
		first := calls%2 == 1
		mu.Unlock()
		if first {
			_, _ = io.ReadFull(r.Body, make([]byte, 100))
			w.Header().Set("retry-after", "0")
			w.Header().Set("Connection", "close")
			w.WriteHeader(529)
			_, _ = io.WriteString(w, `{"type":"error","error":{"type":"overloaded_error","message":"busy"}}`)
			return
		}
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, b)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, textMessage)
	}))
	defer srv.Close()
	c := cfg(srv.URL)
	c.MaxRetries = 2
	p := newP(t, c)
	msgs := msgcachetest.Turns(12)
	var want [][]byte
	send := func(req model.Request) {
		t.Helper()
		w, err := anthropic.EncodeRequest(req, "claude-sonnet-4-5")
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, w)
		if _, err := p.Complete(context.Background(), req); err != nil {
			t.Fatal(err)
		}
	}
	for n := 2; n <= len(msgs); n += 2 {
		send(model.Request{Messages: msgs[:n], CachePrefix: true, Stream: n%4 == 0})
	}
	fork := append(append([]model.Message(nil), msgs[:9]...), model.Message{Role: model.RoleUser, Content: "another way"})
	send(model.Request{Messages: fork, CachePrefix: true})
	if len(bodies) != len(want) {
		t.Fatalf("%d bodies read, want %d", len(bodies), len(want))
	}
	for i := range want {
		if !bytes.Equal(bodies[i], want[i]) {
			t.Fatalf("request %d: the server read\n%s\nwant\n%s", i, bodies[i], want[i])
		}
	}
}

// BenchmarkCompleteTurns sends the requests of a conversation of 40 and
// of 400 turns like bench/turnserver's, with CachePrefix as the engine
// sends them, each through Provider.Complete to a local server that
// reads and drops the body and answers with a fixed message
// (msgcachetest.BenchTurns): the encoding and the sending of a growing
// conversation. B/op and allocs/op are per 40 or 400 turns, the
// server's side included.
func BenchmarkCompleteTurns(b *testing.B) {
	for _, n := range []int{40, 400} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			msgcachetest.BenchTurns(b, n, true, textMessage, func(url string) (model.Provider, error) {
				return anthropic.New(anthropic.Config{BaseURL: url + "/v1", Model: "claude-sonnet-4-5", APIKey: testKey})
			})
		})
	}
}
