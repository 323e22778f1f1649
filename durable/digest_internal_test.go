package durable

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/internal/convhash"
	"github.com/rlm-go/rlm/internal/convhash/convhashtest"

	"github.com/rlm-go/rlm/model"
)

// A model request asking for the cache marks with CachePrefix has the
// digest it had when the meter wrote the marks into a copy of its
// messages (the golden digest was computed by the version before
// CachePrefix), so a run recorded then finds its records when resumed.
func TestCachePrefixKeepsTheDigest(t *testing.T) {
	const golden = "sha256:87846ace2f2349a49e9db9b5020ec44375ab0aba98bd8f53cfe05f77f3c67635"
	msgs := []model.Message{
		{Role: model.RoleSystem, Content: "You are terse."},
		{Role: model.RoleUser, Content: "Query: 2+2"},
		{Role: model.RoleAssistant, Content: "4?"},
		{Role: model.RoleUser, Content: "Sure?"},
	}
	for _, memo := range []*convhash.Memo{nil, newDigestMemo()} {
		for _, r := range []model.Request{
			{Model: "m", MaxTokens: 100, Messages: msgs, CachePrefix: true},
			{Model: "m", MaxTokens: 100, Messages: model.MarkCachePrefix(msgs)},
		} {
			if d := requestDigest(memo, r); d != golden {
				t.Errorf("memo %v: digest %q, want %q", memo != nil, d, golden)
			}
		}
		if d := requestDigest(memo, model.Request{Model: "m", Messages: msgs}); d == golden {
			t.Errorf("memo %v: a request without the marks has the marked request's digest", memo != nil)
		}
	}
}

// The memo's digests are the whole request's (a run resumed by a version
// without the memo, or with it, finds the same records), and a
// conversation's turns go on from the one before.
func TestDigestMemoIsTheDigest(t *testing.T) {
	memo := newDigestMemo()
	i := 0
	convhashtest.Conversations(rand.New(rand.NewPCG(35, 44)), 3000, func(req model.Request) {
		if got, want := requestDigest(memo, req), requestDigest(nil, req); got != want {
			t.Fatalf("request %d (%d messages): digest %q, want %q", i, len(req.Messages), got, want)
		}
		i++
	})
	if r := memo.Reused(); r < 500 {
		t.Fatalf("the memo went on from a prefix for %d of 3000 requests", r)
	}
}

// BenchmarkDigestTurns digests the model requests of a 400-turn run (a
// system prompt, then a reply and an observation a turn), through the
// run's memo and whole.
func BenchmarkDigestTurns(b *testing.B) {
	reply := strings.Repeat(`{"steps":[{"op":"context","action":{"type":"search"}}]}`, 8)
	obs := strings.Repeat("an observation line of the context\n", 30)
	for _, memo := range []bool{true, false} {
		b.Run(map[bool]string{true: "memo", false: "whole"}[memo], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var m *convhash.Memo
				if memo {
					m = newDigestMemo()
				}
				msgs := []model.Message{{Role: model.RoleSystem, Content: strings.Repeat("the system prompt\n", 100)}, {Role: model.RoleUser, Content: "Query: q"}}
				for range 400 {
					requestDigest(m, model.Request{Model: "gpt-4o-mini", MaxTokens: 4096, Messages: msgs, CachePrefix: true})
					msgs = append(msgs, model.Message{Role: model.RoleAssistant, Content: reply}, model.Message{Role: model.RoleUser, Content: obs})
				}
			}
		})
	}
}
