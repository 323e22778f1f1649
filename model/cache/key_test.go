package cache

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/rlm-go/rlm/fingerprint"
	"github.com/rlm-go/rlm/internal/convhash/convhashtest"
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

// TestKeyMemoIsTheKey: every key the memo gives is the whole document's.
func TestKeyMemoIsTheKey(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 35))
	p := newCache(t, Options{}).Wrap(&counting{}, "scope")
	i := 0
	convhashtest.Conversations(rng, 3000, func(req model.Request) {
		want := wholeKey(t, "scope", req)
		if got, ok := p.Key(req); !ok || got != want {
			t.Fatalf("request %d (%d messages): key %q, want %q", i, len(req.Messages), got, want)
		}
		i++
	})
	if r := p.c.keys.Reused(); r < 500 {
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
	if r := p.c.keys.Reused(); r != 49 {
		t.Fatalf("%d turns went on from the one before, want 49", r)
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
		convhashtest.Conversations(rand.New(rand.NewPCG(uint64(g), 1)), 300, func(r model.Request) {
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
