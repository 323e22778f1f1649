package durable

import (
	"testing"

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
	for _, r := range []model.Request{
		{Model: "m", MaxTokens: 100, Messages: msgs, CachePrefix: true},
		{Model: "m", MaxTokens: 100, Messages: model.MarkCachePrefix(msgs)},
	} {
		if d := requestDigest(r); d != golden {
			t.Errorf("digest %q, want %q", d, golden)
		}
	}
	if d := requestDigest(model.Request{Model: "m", Messages: msgs}); d == golden {
		t.Error("a request without the marks has the marked request's digest")
	}
}
