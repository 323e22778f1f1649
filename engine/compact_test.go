package engine

import (
	"context"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/compacttest"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/trace"
)

// compactions returns the compaction spans of a trajectory.
func compactions(evs []trace.Event) []trace.Event {
	var out []trace.Event
	for _, ev := range evs {
		if ev.Kind == trace.KindNote && ev.Name == NoteCompaction {
			out = append(out, ev)
		}
	}
	return out
}

func attrInt(t *testing.T, ev trace.Event, key string) int64 {
	t.Helper()
	switch v := ev.Attrs[key].(type) {
	case int:
		return int64(v)
	case int64:
		return v
	}
	t.Fatalf("attribute %s = %#v", key, ev.Attrs[key])
	return 0
}

// Issue 31's done-when: a 60-turn code-mode session against a root model
// whose window is 16k tokens completes with compaction (every request
// within the window, several compactions, the REPL's state intact and
// listed to the model) and fails without it, before the request that
// would not fit is sent, with prompt_too_large.
func TestCompactSixtyTurnSession(t *testing.T) {
	const window, turns = 16_000, 60
	t.Run("compaction", func(t *testing.T) {
		s := &compacttest.Session{Window: window, Turns: turns}
		eng, h := scriptedEngine(t, haystack, Config{Mode: ModeCode, ContextWindow: window, TraceContent: true, Limits: budget.Limits{MaxIterations: 100, MaxModelCalls: 200}}, s)
		res, err := eng.Run(context.Background(), "sum the turns", h)
		if err != nil {
			t.Fatalf("%v (turns %d)", err, res.Turns)
		}
		st := s.Stats()
		if fmt.Sprint(res.Answer) != fmt.Sprint(s.Answer()) || res.Turns != turns || st.Over != 0 || st.MaxRequest > window || !st.SawVars {
			t.Fatalf("answer %v turns %d, stats %+v", res.Answer, res.Turns, st)
		}
		cs := compactions(res.Trajectory)
		if len(cs) < 2 || len(cs) != st.SummaryCalls {
			t.Fatalf("%d compactions, %d summary calls", len(cs), st.SummaryCalls)
		}
		threshold := int64(math.Floor(DefaultCompactAt * window))
		last := int64(0)
		for i, ev := range cs {
			before, after := attrInt(t, ev, "tokens_before"), attrInt(t, ev, "tokens_after")
			lastTurn := attrInt(t, ev, "last_turn")
			if ev.Status != trace.StatusOK || after >= before || after >= threshold || attrInt(t, ev, "window") != window ||
				attrInt(t, ev, "compaction") != int64(i+1) || lastTurn <= last || attrInt(t, ev, "turns_kept") < 1 || attrInt(t, ev, "turns_kept") > DefaultKeepTurns {
				t.Fatalf("compaction %d: %+v", i+1, ev.Attrs)
			}
			if sum, _ := ev.Attrs["summary"].(string); !strings.HasPrefix(sum, fmt.Sprintf("Summary %d:", i+1)) {
				t.Fatalf("compaction %d: summary %q", i+1, sum)
			}
			last = lastTurn
		}
		// The summary calls are model calls like any other.
		if res.Counters.ModelCalls != int64(st.RootCalls+st.SummaryCalls) {
			t.Fatalf("model calls %d, root %d + summary %d", res.Counters.ModelCalls, st.RootCalls, st.SummaryCalls)
		}
		ids := map[string]bool{}
		for _, ev := range cs {
			ids[ev.ID] = true
		}
		var summaryTokens int64
		for _, ev := range res.Trajectory {
			if ev.Kind == trace.KindModelCall && ids[ev.Parent] && ev.Tokens != nil {
				summaryTokens += ev.Tokens.Total
			}
		}
		if summaryTokens == 0 || summaryTokens >= res.Usage.TotalTokens {
			t.Fatalf("summary calls used %d of %d tokens", summaryTokens, res.Usage.TotalTokens)
		}
		t.Logf("%d turns, %d compactions, largest request %d of %d tokens, %d tokens used, %d (%.1f%%) by the summary calls",
			res.Turns, len(cs), st.MaxRequest, window, res.Usage.TotalTokens, summaryTokens, 100*float64(summaryTokens)/float64(res.Usage.TotalTokens))
	})
	t.Run("no compaction", func(t *testing.T) {
		s := &compacttest.Session{Window: window, Turns: turns}
		eng, h := scriptedEngine(t, haystack, Config{Mode: ModeCode, ContextWindow: window, Compaction: Compaction{Off: true}}, s)
		res, err := eng.Run(context.Background(), "sum the turns", h)
		fe := fault.As(err)
		if fe == nil || fe.Kind != model.KindPromptTooLarge || fe.Phase != fault.PhaseExecute {
			t.Fatalf("err %v", err)
		}
		st := s.Stats()
		if st.Over != 0 || st.RootCalls >= turns || res.Turns != st.RootCalls+1 || len(compactions(res.Trajectory)) != 0 {
			t.Fatalf("turns %d, stats %+v", res.Turns, st)
		}
		t.Logf("without compaction: %s in turn %d", fe.Kind, res.Turns)
		size, _ := fe.Detail["size"].(int64)
		if fe.Detail["model"] != "test-model" || fe.Detail["window"] != window || size <= window || !strings.Contains(fe.Hint, "--compact-at") {
			t.Fatalf("%+v", fe)
		}
	})
}

// Plan mode compacts its conversation the same way: the plan's variables
// are listed in the summary message, the last turns kept as they were.
func TestCompactPlanMode(t *testing.T) {
	var mu sync.Mutex
	var root []model.Request
	summaries := 0
	turn := 0
	p := model.ProviderFunc(func(_ context.Context, req model.Request) (*model.Response, error) {
		mu.Lock()
		defer mu.Unlock()
		if strings.HasPrefix(req.Messages[0].Content, compacttest.SummaryMark) {
			summaries++
			return &model.Response{Text: fmt.Sprintf("summary %d", summaries)}, nil
		}
		if req.Messages[0].Role != model.RoleSystem {
			// A model step: a long text for the observation.
			return &model.Response{Text: strings.Repeat(req.Messages[0].Content+" ", 600)}, nil
		}
		root = append(root, req)
		turn++
		if turn == 12 {
			return &model.Response{Text: `{"answer":"done"}`}, nil
		}
		return &model.Response{Text: steps(map[string]any{"op": "model", "prompt": fmt.Sprintf("w%d", turn), "bind": fmt.Sprintf("v%d", turn)})}, nil
	})
	eng, h := scriptedEngine(t, haystack, Config{ContextWindow: 6000, MaxTokens: 500, Compaction: Compaction{KeepTurns: 2}}, p)
	res, err := eng.Run(context.Background(), "q", h)
	if err != nil || res.Answer != "done" {
		t.Fatalf("%v %v", res.Answer, err)
	}
	cs := compactions(res.Trajectory)
	if len(cs) == 0 || summaries != len(cs) {
		t.Fatalf("%d compactions, %d summaries", len(cs), summaries)
	}
	// The last request: the system prompt, the query with the summary
	// and the variables, the last two turns; roles still alternate.
	last := root[len(root)-1]
	if len(last.Messages) != 2+2*2 || !strings.HasPrefix(last.Messages[1].Content, "Query: q\n\n[History compacted: turns 1-") ||
		!strings.Contains(last.Messages[1].Content, "\nv1 = ") || !strings.Contains(last.Messages[1].Content, fmt.Sprintf("summary %d", summaries)) {
		t.Fatalf("%d messages: %q", len(last.Messages), last.Messages[1].Content)
	}
	if !strings.Contains(last.Messages[2].Content, `"v10"`) || !strings.Contains(last.Messages[4].Content, `"v11"`) {
		t.Fatal("the last turns changed")
	}
	for _, r := range root {
		for i, m := range r.Messages[1:] {
			if want := []model.Role{model.RoleUser, model.RoleAssistant}[i%2]; m.Role != want {
				t.Fatalf("message %d is %s", i+1, m.Role)
			}
		}
	}
	for _, r := range root {
		if n := model.PromptTokens(r, "test-model") + 500; n > 6000 {
			t.Fatalf("a request of %d tokens", n)
		}
	}
}

// Without compaction, plan mode's root prompt that cannot fit fails
// before it is sent, naming the model, the window and the size.
func TestRootPromptTooLargeWithoutCompaction(t *testing.T) {
	sent := 0
	p := model.ProviderFunc(func(_ context.Context, req model.Request) (*model.Response, error) {
		if req.Messages[0].Role != model.RoleSystem {
			return &model.Response{Text: strings.Repeat("word ", 700)}, nil
		}
		sent++
		return &model.Response{Text: steps(map[string]any{"op": "model", "prompt": "w", "bind": fmt.Sprintf("v%d", sent)})}, nil
	})
	eng, h := scriptedEngine(t, haystack, Config{ContextWindow: 6000, MaxTokens: 500, Compaction: Compaction{Off: true}}, p)
	res, err := eng.Run(context.Background(), "q", h)
	fe := fault.As(err)
	if fe == nil || fe.Kind != model.KindPromptTooLarge || res.Turns != sent+1 || sent < 2 {
		t.Fatalf("err %v, %d turns, %d sent", err, res.Turns, sent)
	}
	if fe.Detail["window"] != 6000 || fe.Detail["max_tokens"] != int64(500) {
		t.Fatalf("%+v", fe.Detail)
	}
}

// A conversation whose system prompt and query alone do not fit fails
// with prompt_too_large, compaction on or off, before any call.
func TestCompactNothingToReplace(t *testing.T) {
	for _, off := range []bool{false, true} {
		p := &script{}
		eng, h := scriptedEngine(t, haystack, Config{ContextWindow: 1000, MaxTokens: 200, Compaction: Compaction{Off: off}}, p)
		_, err := eng.Run(context.Background(), strings.Repeat("a long query ", 400), h)
		if fault.KindOf(err) != model.KindPromptTooLarge || p.calls != 0 {
			t.Fatalf("off %v: %v, %d calls", off, err, p.calls)
		}
	}
}

// The summary call is budgeted like any call: a run with no model call
// left for it ends with the budget's error, and its tokens are charged.
func TestCompactSummaryIsBudgeted(t *testing.T) {
	s := &compacttest.Session{Window: 16_000, Turns: 60}
	eng, h := scriptedEngine(t, haystack, Config{Mode: ModeCode, ContextWindow: 16_000}, s)
	probe, err := eng.Run(context.Background(), "q", h)
	if err != nil {
		t.Fatal(err)
	}
	first := compactions(probe.Trajectory)[0]
	var turn int
	for _, ev := range probe.Trajectory {
		if ev.Kind == trace.KindTurn && ev.ID == first.Parent {
			fmt.Sscanf(ev.Name, "turn %d", &turn)
		}
	}
	if turn < 2 {
		t.Fatalf("first compaction in turn %d", turn)
	}
	// Room for the turns before the first compaction, not its summary.
	s2 := &compacttest.Session{Window: 16_000, Turns: 60}
	eng2, h2 := scriptedEngine(t, haystack, Config{Mode: ModeCode, ContextWindow: 16_000, Limits: budget.Limits{MaxModelCalls: turn - 1}}, s2)
	res, err := eng2.Run(context.Background(), "q", h2)
	if fault.KindOf(err) != budget.KindMaxModelCalls || s2.Stats().SummaryCalls != 0 {
		t.Fatalf("%v, %+v", err, s2.Stats())
	}
	if cs := compactions(res.Trajectory); len(cs) != 1 || cs[0].Status != trace.StatusError {
		t.Fatalf("%+v", cs)
	}
}

// The scripted session knows a summary call by its system message.
func TestCompactionPromptMark(t *testing.T) {
	if !strings.HasPrefix(CompactionPrompt, compacttest.SummaryMark) {
		t.Fatal("compacttest.SummaryMark does not open CompactionPrompt")
	}
}

// Compaction's settings are checked by New.
func TestCompactionConfigRefused(t *testing.T) {
	for _, c := range []struct {
		name   string
		window int
		comp   Compaction
	}{
		{"above one", 0, Compaction{At: 1.5}},
		{"negative", 0, Compaction{At: -0.1}},
		{"NaN", 0, Compaction{At: math.NaN()}},
		{"negative window", -1, Compaction{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			store := corpus.NewStore()
			defer store.Close()
			_, err := New(Config{Provider: &script{}, Store: store, ContextWindow: c.window, Compaction: c.comp})
			if fault.KindOf(err) != fault.KindInvalidConfig {
				t.Fatalf("%v", err)
			}
		})
	}
}

// A summary that cannot be written in one call (the turns to replace do
// not fit the window with the summary's max_tokens) is written in several:
// each call within the window, each carrying the summary before it; a
// turn too large on its own is cut.
func TestSummarizeInSeveralCalls(t *testing.T) {
	var reqs []model.Request
	p := model.ProviderFunc(func(_ context.Context, req model.Request) (*model.Response, error) {
		reqs = append(reqs, req)
		return &model.Response{Text: fmt.Sprintf("S%d", len(reqs))}, nil
	})
	eng, _ := scriptedEngine(t, haystack, Config{MaxTokens: 300}, p)
	r := &run{e: eng, tracker: budget.NewTracker(eng.cfg.Limits), exec: InProcess{}}
	var pairs []model.Message
	for i := range 6 {
		pairs = append(pairs, model.Message{Role: model.RoleAssistant, Content: fmt.Sprintf("reply %d", i)},
			model.Message{Role: model.RoleUser, Content: strings.Repeat(fmt.Sprintf("obs%d ", i), 150)})
	}
	pairs[9].Content = strings.Repeat("huge ", 5000)
	const window = 2500
	sum, calls, err := r.summarize(context.Background(), p, "test-model", "Query: q", "S0", 3, pairs, 4, 256, window)
	if err != nil || calls != len(reqs) || calls < 3 || sum != fmt.Sprintf("S%d", calls) {
		t.Fatalf("%q %d %v", sum, calls, err)
	}
	for i, req := range reqs {
		if n := model.PromptTokens(req, "test-model") + int64(req.MaxTokens); n > window {
			t.Fatalf("call %d: %d tokens", i, n)
		}
		prev := "[summary of turns 1-3, written earlier]\nS0\n"
		if i > 0 {
			prev = fmt.Sprintf("\nS%d\n", i)
		}
		if !strings.Contains(req.Messages[1].Content, prev) {
			t.Fatalf("call %d: %q", i, req.Messages[1].Content[:200])
		}
	}
	cut := 0
	for _, req := range reqs {
		if c := req.Messages[1].Content; strings.Contains(c, "[turn 8: the model's reply]") && strings.Contains(c, "[… cut]") {
			cut++
		}
	}
	if cut != 1 || !strings.Contains(reqs[len(reqs)-1].Messages[1].Content, "[turn 9: the model's reply]") {
		t.Fatal("turn 8 is not cut in one call, or turn 9 not in the last")
	}
}
