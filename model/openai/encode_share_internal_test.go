package openai

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/internal/httpcall"
	"github.com/rlm-go/rlm/model/internal/msgcache"
)

// sent is a body a request was encoded to, with the bytes it had then.
type sent struct {
	body httpcall.Body
	want []byte
}

// checkCached encodes req through mc and fails unless the body is what
// EncodeRequest gives without it.
func checkCached(t *testing.T, req model.Request, mc *msgcache.Cache) sent {
	t.Helper()
	want, err := EncodeRequest(req, "gpt-4o-mini")
	if err != nil {
		t.Fatal(err)
	}
	got, err := encodeRequest(req, "gpt-4o-mini", mc)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Fatalf("cached encoding\n%s\nwant\n%s", got.Bytes(), want)
	}
	return sent{got, want}
}

// convGen makes random conversations: messages of every kind the wire
// encoding treats apart (text with escapes, tool calls, tool results with
// images, user images).
type convGen struct{ r *rand.Rand }

func (g convGen) text() string {
	words := []string{"plan", "needle", "<b>", "&", "\"q\"", "\\", "\n", "é", "😀", "\u2028", "\xff", "{\"line\":2001}"}
	var b strings.Builder
	for range g.r.IntN(40) {
		b.WriteString(words[g.r.IntN(len(words))])
		b.WriteByte(' ')
	}
	return b.String()
}

func (g convGen) message(n int) []model.Message {
	img := model.Image{MediaType: "image/png", Data: fmt.Appendf(nil, "\x89PNG%d", g.r.IntN(3))}
	switch g.r.IntN(6) {
	case 0:
		id := fmt.Sprint("call_", n)
		return []model.Message{
			{Role: model.RoleAssistant, ToolCalls: []model.ToolCall{{ID: id, Name: "peek", Arguments: g.text()}}},
			{Role: model.RoleTool, ToolCallID: id, Content: g.text(), Images: []model.Image{img}[:g.r.IntN(2)]},
		}
	case 1:
		return []model.Message{{Role: model.RoleUser, Content: g.text(), Images: []model.Image{img}}}
	case 5:
		// A run of tool results with images: one user message after it
		// carries them all.
		a, b := fmt.Sprint("call_", n, "a"), fmt.Sprint("call_", n, "b")
		img2 := img
		img2.Detail = "low"
		return []model.Message{
			{Role: model.RoleAssistant, ToolCalls: []model.ToolCall{{ID: a, Name: "peek"}, {ID: b, Name: "grep", Arguments: g.text()}}},
			{Role: model.RoleTool, ToolCallID: a, Content: g.text(), Images: []model.Image{img}},
			{Role: model.RoleTool, ToolCallID: b, Content: g.text(), Images: []model.Image{img2}[:g.r.IntN(2)]},
		}
	case 2:
		return []model.Message{{Role: model.RoleAssistant, Content: g.text(), Name: "al<i>ce"}}
	default:
		return []model.Message{{Role: model.RoleAssistant, Content: g.text()}, {Role: model.RoleUser, Content: g.text()}}
	}
}

// TestEncodeSharedMatchesReference is the differential test of the
// shared encodings (encodeMessages): random conversations, grown, forked
// at a random message, edited in place (the caller's slice changed after
// a request), cut, and sent again unchanged, all through one msgcache.Cache;
// every body must be the bytes EncodeRequest (which is json.Marshal's
// encoding, TestAppendChatRequestMatchesMarshal) gives without the
// cache, and, at the end, every body sent earlier must still hold the
// bytes it had when it was sent.
func TestEncodeSharedMatchesReference(t *testing.T) {
	for seed := range uint64(20) {
		g := convGen{rand.New(rand.NewPCG(seed, 35))}
		mc := new(msgcache.Cache)
		convs := [][]model.Message{{{Role: model.RoleSystem, Content: "sys " + g.text()}, {Role: model.RoleUser, Content: "q"}}}
		var log []sent
		t.Logf("seed %d", seed)
		for step := range 300 {
			c := g.r.IntN(len(convs))
			msgs := convs[c]
			switch op := g.r.IntN(10); {
			case op < 5: // grow
				msgs = append(msgs, g.message(step)...)
			case op == 5: // fork at a random message
				msgs = append(slices.Clone(msgs[:1+g.r.IntN(len(msgs))]), g.message(step)...)
				convs = append(convs, nil)
				c = len(convs) - 1
			case op == 6: // edit a message in place: its text, a tool call's arguments, an image's bytes
				i := g.r.IntN(len(msgs))
				switch m := &msgs[i]; {
				case len(m.ToolCalls) > 0:
					m.ToolCalls[0].Arguments = g.text()
				case len(m.Images) > 0:
					m.Images[0].Data[len(m.Images[0].Data)-1]++
				case m.Content != "":
					m.Content = g.text()
				}
			case op == 7: // cut
				msgs = msgs[:1+g.r.IntN(len(msgs))]
			}
			convs[c] = msgs
			log = append(log, checkCached(t, model.Request{Messages: msgs}, mc))
		}
		for i, s := range log {
			if !bytes.Equal(s.body.Bytes(), s.want) {
				t.Fatalf("seed %d: the body of request %d changed after it was sent", seed, i)
			}
		}
	}
}

// TestEncodeSharedFanOut encodes, from many goroutines at once, requests
// that share a conversation's prefix (a fan-out of sub-calls continuing
// one conversation, each its own way) through one msgcache.Cache: every body
// is the reference encoding, and stays so to the end (for the race
// detector: the appends in place never touch bytes another request was
// given).
func TestEncodeSharedFanOut(t *testing.T) {
	mc := new(msgcache.Cache)
	root := conversation(6).Messages
	if _, err := encodeRequest(model.Request{Messages: root}, "m", mc); err != nil {
		t.Fatal(err)
	}
	const workers = 8
	logs := make([][]sent, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			g := convGen{rand.New(rand.NewPCG(uint64(w), 7))}
			msgs := slices.Clip(root)
			for step := range 30 {
				msgs = append(msgs, g.message(step)...)
				got, err := encodeRequest(model.Request{Messages: msgs}, "m", mc)
				if err != nil {
					t.Error(err)
					return
				}
				want, _ := EncodeRequest(model.Request{Messages: msgs}, "m")
				logs[w] = append(logs[w], sent{got, want})
			}
		})
	}
	wg.Wait()
	for w, log := range logs {
		for i, s := range log {
			if !bytes.Equal(s.body.Bytes(), s.want) {
				t.Fatalf("worker %d, request %d: body differs from the reference", w, i)
			}
		}
	}
}
