package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/windowtest"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/openai"
	"github.com/rlm-go/rlm/repl"
	"github.com/rlm-go/rlm/trace"
)

func TestSplitPrompt(t *testing.T) {
	count := func(s string) int64 { return int64(len(strings.Fields(s))) }
	for _, c := range []struct {
		name, prompt, head, body, tail string
	}{
		{"first line", "Summarize:\na\nb\nc", "Summarize:", "a\nb\nc", ""},
		{"first paragraph", "Summarize the log.\nBe brief.\n\na\nb", "Summarize the log.\nBe brief.", "a\nb", ""},
		{"question at the end", "Context:\na b c d e f g h i j k\n\nc\n\nQuestion: who?", "Context:", "a b c d e f g h i j k\n\nc", "Question: who?"},
		{"long first line", strings.Repeat("w ", 50) + "\na\nb", "", strings.Repeat("w ", 50) + "\na\nb", ""},
		{"one line", strings.Repeat("w ", 50), "", strings.Repeat("w ", 50), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			h, b, tl := splitPrompt(c.prompt, 10, count)
			if h != c.head || b != c.body || tl != c.tail {
				t.Errorf("got head %q body %q tail %q", h, b, tl)
			}
		})
	}
}

func TestCutPieces(t *testing.T) {
	count := func(s string) int64 { return int64(len(strings.Fields(s))) }
	for _, c := range []struct {
		name   string
		text   string
		budget int64
		want   []string
	}{
		{"lines", "a b\nc d\ne f\n", 4, []string{"a b\nc d", "e f"}},
		{"one long line", "a b c d e f g", 3, []string{"a b ", "c d ", "e f g"}},
		{"long line among short", "a\nb c d e\nf", 2, []string{"a", "b c ", "d e\n", "f"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := cutPieces(c.text, c.budget, count)
			if strings.Join(got, "|") != strings.Join(c.want, "|") {
				t.Errorf("got %q, want %q", got, c.want)
			}
			for _, p := range got {
				if count(p) > c.budget {
					t.Errorf("piece %q over the budget", p)
				}
			}
		})
	}
}

// windowRig is an engine whose root model is scripted and whose sub-model
// (gpt-4o-mini, given a window of hostWindow tokens by the host) is asked
// through a windowtest server enforcing serverWindow.
func windowRig(t *testing.T, text string, cfg Config, root model.Provider, hostWindow, serverWindow int, wrap ...func(model.Provider) model.Provider) (*Engine, *windowtest.Server, func() (*Result, error)) {
	t.Helper()
	srv := &windowtest.Server{Windows: map[string]int{"gpt-4o-mini": serverWindow}}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	sub, err := openai.New(openai.Config{BaseURL: hs.URL, APIKey: "k", Model: "gpt-4o-mini", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	cfg.SubProvider, cfg.SubModel = sub, "gpt-4o-mini"
	for _, w := range wrap {
		cfg.SubProvider = w(cfg.SubProvider)
	}
	cfg.ModelWindows = []model.Info{{Prefix: "gpt-4o-mini", Window: hostWindow}}
	if cfg.MaxTokens == 0 {
		cfg.MaxTokens = 64
	}
	cfg.Limits = budget.Limits{MaxModelCalls: 1 << 30, MaxTotalTokens: 1 << 40, MaxCostUSD: 1e6, MaxContextOps: 1 << 20, MaxConcurrency: 64, TimeLimit: 10 * time.Minute}
	cfg.Code = repl.Config{MaxCellSteps: 1 << 40, MaxTotalSteps: 1 << 40, CellTimeout: 10 * time.Minute, MaxValueBytes: 256 << 20}
	eng, h := scriptedEngine(t, text, cfg, root)
	return eng, srv, func() (*Result, error) { return eng.Run(context.Background(), "q", h) }
}

// oversized returns n sizes, each 1 to 20 times window (fixed seed).
func oversized(n, window int) []int {
	rng := rand.New(rand.NewPCG(31, 1))
	out := make([]int, n)
	for i := range out {
		out[i] = window + rng.IntN(19*window+1)
	}
	return out
}

// splitCount is the number of oversized calls of the code-mode and of the
// plan-map case: the 1,000 each, or 50 with -short or the race
// detector (which slows the counting tenfold). The table-correction case
// makes a fifth as many, the one with a fallback model a tenth.
func splitCount() int {
	if testing.Short() || raceOn {
		return 50
	}
	return 1000
}

// The done-when test of issue 31 item 1: randomly oversized llm_query
// calls (1x to 20x the window) in code mode and plan map items are all
// answered, no context-length error reaching the run; the server whose
// window is smaller than the table says corrects the table.
func TestAutoSplitOversizedCalls(t *testing.T) {
	const window = 1024
	n := splitCount()
	sizes := oversized(n, window)
	perLine := model.TextTokens("record 999 line 9999: alpha beta gamma delta\n", "gpt-4o-mini")
	perWord := max(model.TextTokens("alpha beta gamma delta ", "gpt-4o-mini")/4, 1)
	lineCounts := make([]string, n)
	for i, s := range sizes {
		lineCounts[i] = fmt.Sprint(int64(s)/perLine + 1)
	}
	code := func(k int) string {
		return py(
			`counts = [`+strings.Join(lineCounts[:k], ",")+`]`,
			`out = []`,
			`for i, k in enumerate(counts):`,
			`    text = "\n".join(["record %d line %d: alpha beta gamma delta" % (i, j) for j in range(k)])`,
			`    out.append(llm_query("Summarize the records.\n" + text))`,
			`FINAL({"answered": len(out), "ok": len([a for a in out if a.startswith("seen ")])})`,
		)
	}
	var lines strings.Builder
	for i, s := range sizes {
		// One huge line each: cut at token boundaries.
		for j := range int64(s)/perWord + 1 {
			lines.WriteString([]string{"alpha ", "beta ", "gamma ", "delta "}[(int64(i)+j)%4])
		}
		lines.WriteByte('\n')
	}
	mapPlan := steps(
		map[string]any{"op": "context", "handle": input("context"), "action": map[string]any{"type": "partition", "strategy": "lines", "size": 1}, "bind": "parts"},
		map[string]any{"op": "map", "over": ref("parts"), "as": "p", "concurrency": 64, "bind": "out", "plan": map[string]any{"steps": []any{
			map[string]any{"op": "model", "prompt": map[string]any{"join": []any{"Summarize the line.\n", map[string]any{"text": map[string]any{"ref": "field", "value": ref("p"), "key": "handle"}}}}, "bind": "a"},
			map[string]any{"op": "final", "value": ref("a")}}}},
		map[string]any{"op": "final", "value": ref("out")},
	)
	for _, c := range []struct {
		name         string
		mode, text   string
		reply        string
		calls        int
		serverWindow int
		fallback     bool // a fallback model, which a refusal for length must not reach
	}{
		{"code mode", ModeCode, haystack, code(n), n, window, false},
		{"plan map", ModePlan, lines.String(), mapPlan, n, window, false},
		{"code mode, table corrected", ModeCode, haystack, code(n / 5), n / 5, window * 3 / 4, false},
		{"code mode, table corrected, fallback model", ModeCode, haystack, code(n / 10), n / 10, window * 3 / 4, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := &script{replies: []string{c.reply}}
			var wrap []func(model.Provider) model.Provider
			if c.fallback {
				// The same server answers gpt-4o whatever its length: a
				// switch to it would hide the refusal the re-split fixes.
				wrap = append(wrap, func(p model.Provider) model.Provider {
					return model.Fallback(p, []model.FallbackModel{{Model: "gpt-4o"}})
				})
			}
			_, srv, run := windowRig(t, c.text, Config{Mode: c.mode, ContextLimits: contextLimitsFor(n)}, root, window, c.serverWindow, wrap...)
			res, err := run()
			if err != nil {
				for _, ev := range res.Trajectory {
					if ev.Error != nil {
						t.Logf("%s %s: %v", ev.Kind, ev.Name, ev.Error)
					}
				}
				t.Fatalf("run failed: %v", err)
			}
			answered := 0
			switch a := res.Answer.(type) {
			case map[string]any:
				ok, _ := number(a["ok"])
				answered = int(ok)
			case []any:
				for _, x := range a {
					if s, _ := x.(string); strings.HasPrefix(s, "seen ") {
						answered++
					}
				}
			}
			n := c.calls
			if answered != n {
				t.Fatalf("%d of %d calls answered (answer %v)", answered, n, res.Answer)
			}
			st := srv.Stats()
			corrected := c.serverWindow < window
			if corrected != (res.AutoSplit.WindowCorrections > 0) || corrected != (st.Refused > 0) {
				t.Errorf("window corrections %d, refused %d (server window %d, table %d)", res.AutoSplit.WindowCorrections, st.Refused, c.serverWindow, window)
			}
			for _, ev := range res.Trajectory {
				if ev.Kind == trace.KindNote && ev.Name == model.NoteFallback {
					t.Fatalf("a sub-call switched to a fallback model (%v) instead of being re-split", ev.Attrs)
				}
			}
			if res.AutoSplit.Calls < n || res.AutoSplit.Pieces < 2*n || res.AutoSplit.Merges < n {
				t.Errorf("split counts %+v for %d oversized calls", res.AutoSplit, n)
			}
			var baseline int64 // the tokens the calls would count unsplit
			for _, s := range sizes[:n] {
				baseline += int64(s) + 16
			}
			t.Logf("%d oversized calls (1x-20x a %d-token window; server window %d): %d requests (%d refused), %d re-splits, %d pieces, %d merges, %d window corrections; %d prompt + %d completion tokens at the server (unsplit prompts ~%d tokens: %.2fx); run usage %d tokens, $%.4f at %s prices",
				n, window, c.serverWindow, st.Requests, st.Refused, res.AutoSplit.Calls, res.AutoSplit.Pieces, res.AutoSplit.Merges, res.AutoSplit.WindowCorrections,
				st.PromptTokens, st.CompletionTokens, baseline, float64(st.PromptTokens+st.CompletionTokens)/float64(baseline), res.Usage.TotalTokens, res.Usage.CostUSD, "gpt-4o-mini")
		})
	}
}

// contextLimitsFor lets a plan partition a context into n chunks.
func contextLimitsFor(n int) (l corpus.Limits) {
	l.MaxResults = max(n, DefaultMaxResults)
	return l
}

// With NoAutoSplit an oversized sub-call fails with prompt_too_large
// naming the model and the window, before anything is sent.
func TestNoAutoSplitRefusesOversizedPrompt(t *testing.T) {
	big := strings.Repeat("alpha beta gamma delta\n", 400)
	plan := steps(
		map[string]any{"op": "model", "prompt": map[string]any{"join": []any{"Summarize:\n", map[string]any{"text": input("context")}}}, "bind": "a"},
		map[string]any{"op": "final", "value": ref("a")},
	)
	for _, c := range []struct {
		name    string
		noSplit bool
		kind    fault.Kind
	}{
		{"no auto split", true, model.KindPromptTooLarge},
		{"auto split", false, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := &script{replies: []string{plan, plan, plan, plan}}
			_, srv, run := windowRig(t, big, Config{NoAutoSplit: c.noSplit}, root, 256, 256)
			res, _ := run()
			// The failed step is an observation the model sees; the
			// trace keeps its typed error.
			var fe *fault.Error
			for _, ev := range res.Trajectory {
				if ev.Error != nil && ev.Error.Kind == model.KindPromptTooLarge {
					fe = ev.Error
				}
			}
			if (fe != nil) != (c.kind != "") {
				t.Fatalf("prompt_too_large in the trace: %v, want %v", fe, c.kind != "")
			}
			if c.noSplit {
				if fe.Detail["model"] != "gpt-4o-mini" || fmt.Sprint(fe.Detail["window"]) != "256" || fe.Hint == "" {
					t.Errorf("detail %v, hint %q", fe.Detail, fe.Hint)
				}
				if n := srv.Stats().Requests; n != 0 {
					t.Errorf("%d requests reached the server", n)
				}
				return
			}
			if res.AutoSplit.Calls == 0 || srv.Stats().Refused != 0 {
				t.Errorf("auto split %+v, server %+v", res.AutoSplit, srv.Stats())
			}
		})
	}
}

// rlm_query(q) whose query cannot fit a child's prompt runs one child per
// piece of the query (each over its own piece) and merges their answers
// with one reduce call.
func TestAutoSplitRLMQuery(t *testing.T) {
	big := strings.Repeat("10:02 billing failed after the cache restarted\n", 2000)
	root := &script{replies: []string{py(`FINAL(rlm_query("Which service failed?\n" + context[:]))`)}}
	srv := &windowtest.Server{Answer: func(_, prompt string) string {
		if strings.Contains(prompt, "Merge them into one answer") {
			return "billing (merged)"
		}
		return "```python\nFINAL(\"billing\")\n```"
	}}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	sub, err := openai.New(openai.Config{BaseURL: hs.URL, APIKey: "k", Model: "child", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Mode: ModeCode, SubProvider: sub, SubModel: "child", ModelWindows: []model.Info{{Prefix: "child", Window: 16_000}},
		Limits: budget.Limits{MaxDepth: 1, MaxModelCalls: 1000, MaxIterations: 1000}}
	eng, h := scriptedEngine(t, big, cfg, root)
	res, err := eng.Run(context.Background(), "q", h)
	if err != nil {
		t.Fatal(err)
	}
	if res.Answer != "billing (merged)" || res.AutoSplit.Calls != 1 || res.AutoSplit.Pieces < 2 || res.AutoSplit.Merges != 1 {
		t.Fatalf("answer %v, auto split %+v", res.Answer, res.AutoSplit)
	}
	if res.Recursion.RecursiveCalls != res.AutoSplit.Pieces {
		t.Errorf("%d children for %d pieces", res.Recursion.RecursiveCalls, res.AutoSplit.Pieces)
	}
}
