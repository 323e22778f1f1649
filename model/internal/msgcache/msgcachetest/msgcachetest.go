// Package msgcachetest checks a provider's shared request encodings
// (msgcache) against its reference encoding: random conversations grown,
// forked, edited in place, cut and sent again, from one goroutine or
// many, every body compared with the reference and, at the end, with
// the bytes it had when it was made.
package msgcachetest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/internal/httpcall"
)

// Sent is a body a request was encoded to, with the bytes the reference
// encoding gave for it.
type Sent struct {
	Body httpcall.Body
	Want []byte
}

// Encode encodes msgs through the cache under test, with r for any
// choice of its own (the request's other fields), and returns the body
// and the reference's bytes, or an error (also when they differ).
type Encode func(r *rand.Rand, msgs []model.Message) (Sent, error)

// Gen makes random conversations: messages of every kind the wire
// encodings treat apart (text with escapes, tool calls, tool results
// with images, runs of them, user images). With Marks, also blank
// messages, system messages late, and messages marked CacheBreakpoint
// (an edit may move a mark).
type Gen struct {
	R     *rand.Rand
	Marks bool
}

// Text returns random text.
func (g Gen) Text() string {
	words := []string{"plan", "needle", "<b>", "&", "\"q\"", "\\", "\n", "é", "😀", "\u2028", "\xff", "{\"line\":2001}"}
	var b strings.Builder
	for range g.R.IntN(40) {
		b.WriteString(words[g.R.IntN(len(words))])
		b.WriteByte(' ')
	}
	return b.String()
}

// Message returns the messages of a random turn; n numbers its tool
// calls.
func (g Gen) Message(n int) []model.Message {
	msgs := g.message(n)
	if g.Marks {
		switch g.R.IntN(8) {
		case 0:
			msgs = append(msgs, model.Message{Role: []model.Role{model.RoleUser, model.RoleAssistant, model.RoleSystem}[g.R.IntN(3)], Content: " \n"[:g.R.IntN(3)]})
		case 1:
			msgs = append(msgs, model.Message{Role: model.RoleSystem, Content: "late " + g.Text()})
		}
		for i := range msgs {
			msgs[i].CacheBreakpoint = g.R.IntN(12) == 0
		}
	}
	return msgs
}

func (g Gen) message(n int) []model.Message {
	img := model.Image{MediaType: "image/png", Data: fmt.Appendf(nil, "\x89PNG%d", g.R.IntN(3))}
	switch g.R.IntN(6) {
	case 0:
		id := fmt.Sprint("call_", n)
		return []model.Message{
			{Role: model.RoleAssistant, ToolCalls: []model.ToolCall{{ID: id, Name: "peek", Arguments: g.Text()}}},
			{Role: model.RoleTool, ToolCallID: id, Content: g.Text(), Images: []model.Image{img}[:g.R.IntN(2)]},
		}
	case 1:
		return []model.Message{{Role: model.RoleUser, Content: g.Text(), Images: []model.Image{img}}}
	case 5:
		// A run of tool results with images.
		a, b := fmt.Sprint("call_", n, "a"), fmt.Sprint("call_", n, "b")
		img2 := img
		img2.Detail = "low"
		return []model.Message{
			{Role: model.RoleAssistant, ToolCalls: []model.ToolCall{{ID: a, Name: "peek"}, {ID: b, Name: "grep", Arguments: g.Text()}}},
			{Role: model.RoleTool, ToolCallID: a, Content: g.Text(), Images: []model.Image{img}},
			{Role: model.RoleTool, ToolCallID: b, Content: g.Text(), Images: []model.Image{img2}[:g.R.IntN(2)]},
		}
	case 2:
		return []model.Message{{Role: model.RoleAssistant, Content: g.Text(), Name: "al<i>ce"}}
	default:
		return []model.Message{{Role: model.RoleAssistant, Content: g.Text()}, {Role: model.RoleUser, Content: g.Text()}}
	}
}

// Conversations is the differential test of shared encodings: for each
// of seeds random runs (newCache makes each its cache, encode encodes
// through it), conversations grown, forked at a random message, edited
// in place (the caller's slice changed after a request: a text, a tool
// call's arguments, an image's bytes, with Marks a mark), cut, and sent
// again unchanged. Every body must be the reference's (encode checks),
// and, at the end, every body must still hold the bytes it had.
func Conversations(t *testing.T, seeds int, marks bool, newCache func() Encode) {
	for seed := range uint64(seeds) {
		g := Gen{R: rand.New(rand.NewPCG(seed, 35)), Marks: marks}
		encode := newCache()
		convs := [][]model.Message{{{Role: model.RoleSystem, Content: "sys " + g.Text()}, {Role: model.RoleUser, Content: "q"}}}
		var log []Sent
		for step := range 300 {
			c := g.R.IntN(len(convs))
			msgs := convs[c]
			switch op := g.R.IntN(10); {
			case op < 5: // grow
				msgs = append(msgs, g.Message(step)...)
			case op == 5: // fork at a random message
				msgs = append(slices.Clone(msgs[:1+g.R.IntN(len(msgs))]), g.Message(step)...)
				convs = append(convs, nil)
				c = len(convs) - 1
			case op == 6: // edit a message in place
				i := g.R.IntN(len(msgs))
				switch m := &msgs[i]; {
				case marks && g.R.IntN(3) == 0:
					m.CacheBreakpoint = !m.CacheBreakpoint
				case len(m.ToolCalls) > 0:
					m.ToolCalls[0].Arguments = g.Text()
				case len(m.Images) > 0:
					m.Images[0].Data[len(m.Images[0].Data)-1]++
				case m.Content != "":
					m.Content = g.Text()
				}
			case op == 7: // cut
				msgs = msgs[:1+g.R.IntN(len(msgs))]
			}
			convs[c] = msgs
			s, err := encode(g.R, msgs)
			if err != nil {
				t.Fatalf("seed %d, step %d: %v", seed, step, err)
			}
			log = append(log, s)
		}
		CheckLog(t, fmt.Sprint("seed ", seed), log)
	}
}

// CheckLog fails t when a body of log no longer holds the bytes it had.
func CheckLog(t testing.TB, name string, log []Sent) {
	t.Helper()
	for i, s := range log {
		if !bytes.Equal(s.Body.Bytes(), s.Want) {
			t.Fatalf("%s: the body of request %d changed after it was made", name, i)
		}
	}
}

// FanOut encodes, from workers goroutines at once, requests that go on
// from root each its own way (a fan-out of sub-calls continuing one
// conversation) through encode's cache, root encoded first, in rounds
// (each a conversation of its own, root's first message changed), the
// workers' first requests released together to race for root's
// arrays: every body is the reference's and stays so to the end (for
// the race detector: the appends in place never touch bytes another
// request was given, and only one request appends at a time).
func FanOut(t *testing.T, root []model.Message, workers int, marks bool, encode Encode) {
	r := rand.New(rand.NewPCG(1, 2))
	for round := range 20 {
		root := slices.Clone(root)
		root[0].Content += fmt.Sprint(round)
		if _, err := encode(r, root); err != nil {
			t.Fatal(err)
		}
		logs := make([][]Sent, workers)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for w := range workers {
			wg.Go(func() {
				<-start
				g := Gen{R: rand.New(rand.NewPCG(uint64(w), uint64(round))), Marks: marks}
				msgs := slices.Clip(root)
				for step := range 8 {
					msgs = append(msgs, g.Message(step)...)
					s, err := encode(g.R, msgs)
					if err != nil {
						t.Errorf("round %d, worker %d, step %d: %v", round, w, step, err)
						return
					}
					logs[w] = append(logs[w], s)
				}
			})
		}
		close(start)
		wg.Wait()
		for w, log := range logs {
			CheckLog(t, fmt.Sprint("round ", round, ", worker ", w), log)
		}
	}
}

// Compare returns the Sent of body, encoded through a cache with the
// error err, or an error unless they are want and wantErr, the
// reference's (errors compared by their text).
func Compare(body httpcall.Body, err error, want []byte, wantErr error) (Sent, error) {
	if fmt.Sprint(err) != fmt.Sprint(wantErr) {
		return Sent{}, fmt.Errorf("error %v, the reference's %v", err, wantErr)
	}
	if !bytes.Equal(body.Bytes(), want) {
		return Sent{}, fmt.Errorf("shared encoding\n%s\nwant\n%s", body.Bytes(), want)
	}
	return Sent{Body: body, Want: want}, nil
}

// Turns returns the messages of a conversation of n turns like
// bench/turnserver's: a system prompt, the question, then per turn a
// plan and an observation.
func Turns(n int) []model.Message {
	msgs := []model.Message{
		{Role: model.RoleSystem, Content: strings.Repeat("You answer questions about a large input held in a store. Use <plans>.\n", 60)},
		{Role: model.RoleUser, Content: "find the needle"},
	}
	for i := range n {
		msgs = append(msgs,
			model.Message{Role: model.RoleAssistant, Content: fmt.Sprintf(`{"steps":[{"op":"context","handle":{"ref":"input","name":"context"},"action":{"type":"search","pattern":"needle"},"bind":"hits%d"}]}`, i)},
			model.Message{Role: model.RoleUser, Content: fmt.Sprintf("Observation %d:\n%s", i, strings.Repeat(`{"line":2001,"text":"the needle is here","offset":63892} `, 12))})
	}
	return msgs
}

// BenchTurns sends the requests of a conversation of n turns (Turns),
// with CachePrefix when prefix is set, each through the Provider
// newProvider returns for the URL of a local server that reads and
// drops the body and answers with answer (JSON): the encoding and the
// sending of a growing conversation. One conversation is sent once
// before timing, so that the connection is open; then each iteration is
// the n requests of a new conversation (its own system prompt, a new
// slice of messages each turn as the engine makes), so B/op and
// allocs/op are per n turns, the server's side included.
func BenchTurns(b *testing.B, n int, prefix bool, answer string, newProvider func(url string) (model.Provider, error)) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, answer)
	}))
	defer srv.Close()
	p, err := newProvider(srv.URL)
	if err != nil {
		b.Fatal(err)
	}
	if c, ok := p.(interface{ CloseIdleConnections() }); ok {
		defer c.CloseIdleConnections()
	}
	ctx := context.Background()
	complete := func(req model.Request) error {
		_, err := p.Complete(ctx, req)
		return err
	}
	msgs := Turns(n)
	for t := range n {
		if err := complete(model.Request{Messages: msgs[:2+2*t], CachePrefix: prefix}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		system := fmt.Sprint(i, msgs[0].Content)
		for t := range n {
			req := model.Request{Messages: append([]model.Message(nil), msgs[:2+2*t]...), CachePrefix: prefix}
			req.Messages[0].Content = system
			if err := complete(req); err != nil {
				b.Fatal(err)
			}
		}
	}
}
