package model

import (
	"strconv"
	"strings"
	"testing"

	_ "github.com/rlm-go/rlm/bpe" // the exact OpenAI encodings
	"github.com/rlm-go/rlm/internal/tokens"
)

// A text longer than one exact piece is still counted exactly, in pieces,
// never below the count of the whole. Before, it was counted with the
// estimate: 80 KiB of "a a a ..." (40,961 o200k tokens) was admitted as
// 13,663.
func TestPromptTokensCountsLongTextsExactly(t *testing.T) {
	for _, content := range []string{
		strings.Repeat("a ", 40<<10),
		strings.Repeat("x", 200<<10),                        // no whitespace to cut at
		strings.Repeat("世界 hello\n", 30<<10),                // multi-byte runes across the cuts
		strings.Repeat("Context line 42: value=17; ", 8000), // prose-like
	} {
		req := Request{Messages: []Message{{Role: RoleUser, Content: content}}}
		exact := int64(tokens.ForModel("gpt-4o").Count(content))
		if got := PromptTokens(req, "gpt-4o"); got < exact {
			t.Errorf("%q...: PromptTokens = %d, below the content's own %d tokens", content[:12], got, exact)
		}
		if got := PromptTokens(req, "gpt-4o"); got > exact+exact/100+32 {
			t.Errorf("%q...: PromptTokens = %d, far above the exact %d", content[:12], got, exact)
		}
	}
}

// benchSeq numbers the texts benchmarks make new across every run of a
// benchmark in the process, so that tokens.Memo never knows them.
var benchSeq int

func newPrefix() string { benchSeq++; return strconv.Itoa(benchSeq) + " " }

// BenchmarkPromptTokensLong: an exact count of a 1 MB prompt, in pieces
// (a new prefix each time, so tokens.Memo has not seen the text).
func BenchmarkPromptTokensLong(b *testing.B) {
	content := strings.Repeat("Context line 42: value=17; the quick brown fox. ", 20000)
	b.SetBytes(int64(len(content)))
	for b.Loop() {
		req := Request{Messages: []Message{{Role: RoleUser, Content: newPrefix() + content}}}
		PromptTokens(req, "gpt-4o")
	}
}
