package bpe_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"go.uber.org/goleak"

	_ "github.com/rlm-go/rlm/bpe"
	"github.com/rlm-go/rlm/internal/tokens"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestForModel(t *testing.T) {
	tests := []struct {
		model, method, encoding string
	}{
		{"gpt-4o-mini", tokens.MethodExact, tokens.O200kBase},
		{"openai/GPT-5", tokens.MethodExact, tokens.O200kBase},
		{"o3-mini", tokens.MethodExact, tokens.O200kBase},
		{"gpt-4-turbo", tokens.MethodExact, tokens.Cl100kBase},
		{"gpt-3.5-turbo", tokens.MethodExact, tokens.Cl100kBase},
		{"cl100k_base", tokens.MethodExact, tokens.Cl100kBase},
		{"o200k_base", tokens.MethodExact, tokens.O200kBase},
		{"claude-sonnet", tokens.MethodEstimated, tokens.Estimate},
		{"", tokens.MethodEstimated, tokens.Estimate},
	}
	for _, tt := range tests {
		c := tokens.ForModel(tt.model)
		if c.Method() != tt.method || c.Encoding() != tt.encoding {
			t.Errorf("ForModel(%q) = %s/%s, want %s/%s", tt.model, c.Method(), c.Encoding(), tt.method, tt.encoding)
		}
	}
}

func TestExactCounts(t *testing.T) {
	tests := []struct {
		enc  string
		text string
		want int
	}{
		{tokens.Cl100kBase, "", 0},
		{tokens.Cl100kBase, "hello world", 2},
		{tokens.O200kBase, "hello world", 2},
	}
	for _, tt := range tests {
		if got := tokens.ForModel(tt.enc).Count(tt.text); got != tt.want {
			t.Errorf("%s Count(%q) = %d, want %d", tt.enc, tt.text, got, tt.want)
		}
	}
}

var corpus = []string{
	`{"function":{"description":"Show the diff between the working tree and HEAD.","name":"git_diff","parameters":{"properties":{"path":{"type":"string"}},"required":["path"],"type":"object"}},"type":"function"}`,
	"Active capability skill:review (review): Review a pull request for correctness, style and tests.",
	"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa 1234567890123 世界世界世界 😀😀",
	"x=[1,2,3];;;;{}{}{}<<>>!!@@##$$%%^^&&**(())",
	"a",
	"   \n\t  ",
	strings.Repeat("lorem ipsum dolor sit amet, ", 40),
	"Ünïcödé façade naïve café — “quotes” and ‘more’ …",
	"0123456789 0123456789 3.14159 2.71828 1e10 0xdeadbeef",
}

// adversarial are texts that defeated the earlier estimate (spaces were
// free, 3 letters per token, 2 tokens per non-ASCII rune): it counted a
// third of "a a a ..." and 1 token for 1,000 spaces.
func adversarial() []string {
	rng := rand.New(rand.NewPCG(1, 2))
	random := func(alphabet string, n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return string(b)
	}
	return []string{
		strings.Repeat("a ", 1000), strings.Repeat("1 ", 1000), strings.Repeat("x, ", 1000),
		strings.Repeat("𓀀", 1000), strings.Repeat(" ", 1000), strings.Repeat("\n", 500),
		random("abcdefghijklmnopqrstuvwxyz", 1000),
		random("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/", 2000),
		random("0123456789abcdef", 2000),
		random("abcdefghijklmnopqrstuvwxyz ", 2000),
		random("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~ ", 2000),
		"这是一个测试句子，用来检查中文的分词数量是否被低估。",
		"func (r *run) fingerprintOf(ctx context.Context, query string, input corpus.Handle) string {",
	}
}

func TestEstimateIsConservative(t *testing.T) {
	for _, enc := range []string{tokens.Cl100kBase, tokens.O200kBase} {
		exact := tokens.ForModel(enc)
		for _, s := range append(slices.Clone(corpus), adversarial()...) {
			e, x := tokens.Estimator{}.Count(s), exact.Count(s)
			if e < x {
				t.Errorf("%s: estimate %d < exact %d for %q", enc, e, x, s)
			}
		}
	}
}

func FuzzEstimateIsConservative(f *testing.F) {
	for _, s := range corpus {
		f.Add(s)
	}
	exact := tokens.ForModel(tokens.Cl100kBase)
	f.Fuzz(func(t *testing.T, s string) {
		e := tokens.Estimator{}.Count(s)
		if s != "" && e < 1 {
			t.Fatalf("estimate %d for non-empty text", e)
		}
		_ = exact.Count(s) // must not panic on any input
	})
}

func BenchmarkCount(b *testing.B) {
	for _, c := range []tokens.Counter{tokens.ForModel(tokens.Cl100kBase), tokens.Estimator{}} {
		b.Run(c.Encoding(), func(b *testing.B) {
			for b.Loop() {
				c.Count(corpus[0])
			}
		})
	}
}

// mixedText is about 64 KB of what prompts hold: prose, code, JSON, a
// log, numbers, CJK and emoji.
func mixedText() string {
	var sb strings.Builder
	for sb.Len() < 64<<10 {
		for _, s := range corpus {
			sb.WriteString(s)
			sb.WriteString("\n")
		}
		sb.WriteString("2026-12-06T04:24:15Z INFO  engine: turn 3 admitted 1,234 tokens (worst case 5,678); cost $0.0012\n")
		sb.WriteString("The quick brown fox jumps over the lazy dog. It's 12:30 and we're late; don't wait!\n")
		sb.WriteString("这是一个测试句子，用来检查中文的分词。 😀👍🏽\n")
	}
	return sb.String()
}

// BenchmarkThroughput is counting speed in MB/s on mixedText and on the
// adversarial corpus: this package's encoder, the encoder of
// github.com/tiktoken-go/tokenizer (regexp2 pre-tokenizer; what rlm
// used before) and the estimator.
func BenchmarkThroughput(b *testing.B) {
	texts := map[string]string{"mixed": mixedText(), "adversarial": strings.Join(adversarialCorpus(), "\n")}
	for _, name := range []string{"mixed", "adversarial"} {
		text := texts[name]
		for _, e := range encodings {
			ref := reference(b, e.ref)
			want, _ := ref.Count(text)
			b.Run(name+"/"+e.name+"/rlm", func(b *testing.B) {
				c := tokens.ForModel(e.name)
				b.SetBytes(int64(len(text)))
				for b.Loop() {
					if n := c.Count(text); n != want && !refSkips(text) {
						b.Fatalf("count %d, want %d", n, want)
					}
				}
			})
			b.Run(name+"/"+e.name+"/tiktoken-go", func(b *testing.B) {
				b.SetBytes(int64(len(text)))
				for b.Loop() {
					_, _ = ref.Count(text)
				}
			})
		}
		b.Run(name+"/estimate", func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				tokens.Estimator{}.Count(text)
			}
		})
	}
}
