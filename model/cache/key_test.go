package cache

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/rlm-go/rlm/fingerprint"
	"github.com/rlm-go/rlm/model"
)

// wholeKey is the key of req as the whole document's fingerprint.
func wholeKey(t *testing.T, scope string, req model.Request) string {
	t.Helper()
	req.Stream, req.OnDelta = false, nil
	k, err := fingerprint.Of(keyDoc{keyVersion, scope, req.CacheMarked()})
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// conversations makes random requests the way runs send them and the ways
// they should not fool the memo: conversations that grow by a few messages
// a turn, forks from one prefix, a message of the caller's edited in place
// after it was keyed, max_tokens shrunk, a system message added late,
// explicit marks, tool calls, images, tools, Extra, text with escapes.
func conversations(rng *rand.Rand, n int, each func(model.Request)) {
	texts := []string{"", "hi", "line 1\nline 2", `"quoted" <b> & é`, "\u2028x", "{\"steps\":[]}"}
	msg := func(i int) model.Message {
		m := model.Message{Content: texts[rng.IntN(len(texts))] + fmt.Sprint(i)}
		switch rng.IntN(6) {
		case 0:
			m.Role = model.RoleSystem
		case 1, 2:
			m.Role = model.RoleUser
			if rng.IntN(8) == 0 {
				m.Images = []model.Image{{MediaType: "image/png", SHA256: fmt.Sprint(i), Width: i, Height: 2}}
			}
		case 3, 4:
			m.Role = model.RoleAssistant
			if rng.IntN(3) == 0 {
				m.ToolCalls = []model.ToolCall{{ID: fmt.Sprint("c", i), Type: "function", Name: "f", Arguments: `{"a":1}`}}
			}
		case 5:
			m.Role, m.ToolCallID = model.RoleTool, fmt.Sprint("c", i)
		}
		m.CacheBreakpoint = rng.IntN(10) == 0
		return m
	}
	zero := 0.0
	var convs [][]model.Message
	for range n {
		var msgs []model.Message
		if len(convs) == 0 || rng.IntN(6) == 0 {
			msgs = []model.Message{{Role: model.RoleSystem, Content: "You are terse.\n"}}
		} else {
			// One of the latest conversations, as a run's turns and its
			// children's go on.
			msgs = convs[len(convs)-1-rng.IntN(min(len(convs), 8))]
			if rng.IntN(5) == 0 && len(msgs) > 1 {
				msgs = msgs[:1+rng.IntN(len(msgs)-1)] // a fork from an earlier prefix
			}
		}
		for range 1 + rng.IntN(3) {
			msgs = append(msgs, msg(len(msgs)))
		}
		if rng.IntN(12) == 0 && len(msgs) > 2 {
			msgs[rng.IntN(len(msgs)-1)].Content += " edited" // in place, in an array keyed before
		}
		convs = append(convs, msgs)
		req := model.Request{Model: "m", Temperature: &zero, Messages: msgs, CachePrefix: rng.IntN(4) != 0, MaxTokens: 100}
		if rng.IntN(6) == 0 {
			req.MaxTokens = 50 + rng.IntN(3)
		}
		if rng.IntN(5) == 0 {
			req.Tools = []model.Tool{{Name: "f", Description: "d", Parameters: json.RawMessage(`{"type":"object","properties":{"messages":{"type":"null"}}}`)}}
		}
		if rng.IntN(15) == 0 {
			req.Extra = map[string]any{"seed": 7}
		}
		each(req)
	}
}

// TestKeyMemoIsTheKey: every key the memo gives is the whole document's.
func TestKeyMemoIsTheKey(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 35))
	p := newCache(t, Options{}).Wrap(&counting{}, "scope")
	i := 0
	conversations(rng, 3000, func(req model.Request) {
		want := wholeKey(t, "scope", req)
		if got, ok := p.Key(req); !ok || got != want {
			t.Fatalf("request %d (%d messages): key %q, want %q", i, len(req.Messages), got, want)
		}
		i++
	})
	if r := p.c.keys.reused; r < 500 {
		t.Fatalf("the memo went on from a prefix for %d of 3000 requests", r)
	}
}

// A run's conversation, two messages more a turn, is hashed once: every
// turn after the first goes on from the one before.
func TestKeyMemoGoesOn(t *testing.T) {
	p := newCache(t, Options{}).Wrap(&counting{}, "scope")
	zero := 0.0
	msgs := []model.Message{{Role: model.RoleSystem, Content: "s"}, {Role: model.RoleUser, Content: "q"}}
	for turn := range 50 {
		msgs = append(msgs, model.Message{Role: model.RoleAssistant, Content: fmt.Sprint("a", turn)}, model.Message{Role: model.RoleUser, Content: fmt.Sprint("r", turn)})
		req := model.Request{Model: "m", Temperature: &zero, Messages: msgs, CachePrefix: true}
		if got, ok := p.Key(req); !ok || got != wholeKey(t, "scope", req) {
			t.Fatalf("turn %d: key %q", turn, got)
		}
	}
	if p.c.keys.reused != 49 {
		t.Fatalf("%d turns went on from the one before, want 49", p.c.keys.reused)
	}
	n := 0
	for _, e := range p.c.keys.entries {
		if e != nil {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("one conversation takes %d entries", n)
	}
}

// TestKeyMemoConcurrent keys conversations from several goroutines at
// once (go test -race).
func TestKeyMemoConcurrent(t *testing.T) {
	p := newCache(t, Options{}).Wrap(&counting{}, "scope")
	var wg sync.WaitGroup
	for g := range 8 {
		var reqs []model.Request
		var wants []string
		conversations(rand.New(rand.NewPCG(uint64(g), 1)), 300, func(r model.Request) {
			// Copies: the generator edits its arrays in place.
			r.Messages = slices.Clone(r.Messages)
			reqs, wants = append(reqs, r), append(wants, wholeKey(t, "scope", r))
		})
		wg.Go(func() {
			for i, r := range reqs {
				if got, ok := p.Key(r); !ok || got != wants[i] {
					t.Errorf("goroutine %d, request %d: key %q, want %q", g, i, got, wants[i])
					return
				}
			}
		})
	}
	wg.Wait()
}

// Two prefixes stored from one base (two requests of a conversation keyed
// at once, going on differently): the second never writes over the
// messages of the first, which took the room after the base's.
func TestKeyMemoStoreKeepsTheFirst(t *testing.T) {
	var m keyMemo
	msg := func(s string) model.Message { return model.Message{Role: model.RoleUser, Content: s} }
	base := &keyPrefix{head: "h", msgs: make([]model.Message, 1, 8), tip: new(int), h: fingerprint.NewHasher()}
	base.msgs[0], *base.tip = msg("0"), 1
	m.entries[0] = base
	first := []model.Message{msg("a"), msg("b")}
	second := []model.Message{msg("c"), msg("d")}
	m.store("h", base, first, 1, func(j int) model.Message { return first[j-1] }, fingerprint.NewHasher())
	m.store("h", base, second, 1, func(j int) model.Message { return second[j-1] }, fingerprint.NewHasher())
	var got [][]model.Message
	for _, e := range m.entries {
		if e != nil {
			got = append(got, e.msgs)
		}
	}
	if len(got) != 2 {
		t.Fatalf("%d entries, want the two stored", len(got))
	}
	for _, msgs := range got {
		if len(msgs) != 3 || msgs[0].Content != "0" {
			t.Fatalf("entry %+v", msgs)
		}
	}
	if got[0][1].Content+got[0][2].Content == got[1][1].Content+got[1][2].Content {
		t.Fatalf("the second prefix wrote over the first: %+v and %+v", got[0], got[1])
	}
}
