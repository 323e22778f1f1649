package engine

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/internal/tokens"
	"github.com/rlm-go/rlm/meter"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/trace"
)

// markedCounts counts through the o200k_base counter (gpt-4o's) as it
// was, and notes how many texts holding mark it counted: the texts of
// one test's query, whatever other tests count meanwhile.
type markedCounts struct {
	tokens.Counter
	mark  string
	calls atomic.Int64
}

func (c *markedCounts) Count(text string) int {
	if strings.Contains(text, c.mark) {
		c.calls.Add(1)
	}
	return c.Counter.Count(text)
}

func (c *markedCounts) Encoding() string { return tokens.O200kBase }

// A root turn's prompt is counted once: fitRoot counts it to fit the
// conversation to the window, and the meter admits the call with that
// count (meter.ModelCall.PromptTokens) instead of counting it again. A
// first turn's two messages are not remembered by model.PromptTokens'
// conversation cache, so a second count would count the query again.
func TestRootTurnCountsItsPromptOnce(t *testing.T) {
	orig := tokens.ForModel(tokens.O200kBase)
	c := &markedCounts{Counter: orig, mark: "marked-query-" + t.Name()}
	tokens.Register(c)
	t.Cleanup(func() { tokens.Register(&markedCounts{Counter: orig}) })
	for _, tc := range []struct {
		name   string
		cfg    Config
		answer string
	}{
		{"plan", Config{}, `{"answer":"done"}`},
		{"code", codeCfg(), py(`FINAL("done")`)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.cfg.Model = "gpt-4o"
			eng, _, h := newRecorderEngine(t, haystack, tc.cfg, func(model.Request) string { return tc.answer })
			before := c.calls.Load()
			res, err := eng.Run(context.Background(), c.mark+" "+tc.name, h)
			if err != nil || res.Answer != "done" || res.Turns != 1 {
				t.Fatalf("answer %v, %d turns: %v", res.Answer, res.Turns, err)
			}
			if n := c.calls.Load() - before; n != 1 {
				t.Fatalf("the query was counted %d times, want once", n)
			}
		})
	}
}

// The count the meter admits a root turn with is the prompt's count,
// model.PromptTokens of the request sent, turn after turn. Every call's
// max_tokens is shrunk to the token budget, so each note
// (meter.NoteShrunk) shows the prompt the meter admitted: its worst case
// less its admitted max_tokens.
func TestRootTurnPromptCountIsTheMeters(t *testing.T) {
	const turns = 4
	var mu sync.Mutex
	var root []model.Request
	used := budget.Usage{PromptTokens: 10, CompletionTokens: 1, TotalTokens: 11, TokensKnown: true}
	p := model.ProviderFunc(func(_ context.Context, req model.Request) (*model.Response, error) {
		mu.Lock()
		defer mu.Unlock()
		if req.Messages[0].Role != model.RoleSystem {
			return &model.Response{Text: "sub-call reply " + req.Messages[0].Content, Usage: used}, nil
		}
		root = append(root, req)
		if len(root) == turns {
			return &model.Response{Text: `{"answer":"done"}`, Usage: used}, nil
		}
		return &model.Response{Text: steps(map[string]any{"op": "model", "prompt": fmt.Sprintf("w%d", len(root)), "bind": fmt.Sprintf("v%d", len(root))}), Usage: used}, nil
	})
	cfg := Config{Model: "unknown-model", SubModel: "unknown-model", MaxTokens: 1 << 40, Limits: budget.Limits{MaxTotalTokens: 1 << 30}}
	eng, h := scriptedEngine(t, haystack, cfg, p)
	res, err := eng.Run(context.Background(), "q", h)
	if err != nil || res.Answer != "done" {
		t.Fatalf("%v %v", res.Answer, err)
	}
	// The root turns' notes: those under a turn span.
	turnSpans := map[string]bool{}
	for _, ev := range res.Trajectory {
		if ev.Kind == trace.KindTurn {
			turnSpans[ev.ID] = true
		}
	}
	var admitted []int64
	for _, ev := range res.Trajectory {
		if ev.Kind == trace.KindNote && ev.Name == meter.NoteShrunk && turnSpans[ev.Parent] {
			admitted = append(admitted, attrInt(t, ev, "worst_case_tokens")-attrInt(t, ev, "admitted"))
		}
	}
	if len(admitted) != turns || len(root) != turns {
		t.Fatalf("%d notes, %d root requests, want %d", len(admitted), len(root), turns)
	}
	for i, r := range root {
		if want := model.PromptTokens(r, r.Model); admitted[i] != want {
			t.Errorf("turn %d: admitted with a prompt of %d tokens, the request counts %d", i+1, admitted[i], want)
		}
	}
}
