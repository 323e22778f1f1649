package bench

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rlm-go/rlm"
	"github.com/rlm-go/rlm/bench/suite"
	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
)

// requestLog keeps the requests a scripted provider received.
type requestLog struct {
	mu   sync.Mutex
	reqs []model.Request
}

func (l *requestLog) add(req model.Request) {
	l.mu.Lock()
	l.reqs = append(l.reqs, req)
	l.mu.Unlock()
}

func (l *requestLog) all() []model.Request {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]model.Request(nil), l.reqs...)
}

func scriptedUsage() budget.Usage {
	return budget.Usage{Calls: 1, PromptTokens: 100, CompletionTokens: 10, TotalTokens: 110, TokensKnown: true}
}

// summaryModel plays the summary agent's three kinds of call for a
// needle task: the direct request answers the value, a note-taking call
// writes "found: VALUE" when its part holds the value (else keeps the
// notes it was given), and the answer call answers from the notes only.
func summaryModel(value string, log *requestLog) model.Provider {
	notesRe := regexp.MustCompile(`(?s)Your notes so far:\n(.*)\n\nPart \d+ \(bytes`)
	return model.ProviderFunc(func(_ context.Context, req model.Request) (*model.Response, error) {
		log.add(req)
		sys, user := req.Messages[0].Content, req.Messages[len(req.Messages)-1].Content
		text := "unknown"
		switch {
		case sys == directSystem:
			text = value
		case strings.HasPrefix(sys, SummaryChunkPrompt[:60]):
			part := user[strings.Index(user, "<<<\n"):]
			if strings.Contains(part, value) {
				text = "found: " + value
			} else if m := notesRe.FindStringSubmatch(user); m != nil {
				text = m[1]
			}
		case sys == SummaryAnswerPrompt:
			if i := strings.Index(user, "found: "); i >= 0 {
				text = user[i+len("found: ") : i+len("found: ")+len(value)]
			}
		}
		return &model.Response{Text: text, Usage: scriptedUsage()}, nil
	})
}

// The summary method answers a needle task: in one root call when the
// context fits the root model's window, else from notes the sub-model
// kept over parts that each fit its window and together are the whole
// context, in order.
func TestMethodSummary(t *testing.T) {
	const root, sub, subWindow = "gpt-4o", "gpt-4o-mini", 1500
	cases := []struct {
		name       string
		rootWindow int
		minParts   int // note-taking calls
	}{
		{"fits", 0, 0}, // gpt-4o's window: the 20 KB context fits
		{"parts", 2000, 4},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			task, err := Generate(KindNIAH, 20_000, 3)
			if err != nil {
				t.Fatal(err)
			}
			log := &requestLog{}
			sess, err := rlm.Open(context.Background(), rlm.Spec{Model: root, SubModel: sub, ContextWindow: c.rootWindow,
				ModelWindows: []model.Info{{Prefix: sub, Window: subWindow}}, Cache: rlm.CacheSpec{Off: true}},
				rlm.WithProvider(summaryModel(task.Expected.Value, log)))
			if err != nil {
				t.Fatal(err)
			}
			defer sess.Close()
			rep, err := Run(context.Background(), Config{Session: sess, Task: KindNIAH, Size: 20_000, Seed: 3, Methods: []Method{MethodSummary}})
			if err != nil {
				t.Fatal(err)
			}
			tr := rep.Trials[0]
			if tr.Status != StatusOK || tr.Score != 1 {
				t.Fatalf("trial %+v", tr)
			}
			reqs := log.all()
			if tr.Usage.Calls != int64(len(reqs)) || tr.Turns != len(reqs) {
				t.Fatalf("usage %d calls, %d turns; the provider saw %d", tr.Usage.Calls, tr.Turns, len(reqs))
			}
			var parts strings.Builder
			n := 0
			for _, req := range reqs[:len(reqs)-1] {
				if req.Model != sub {
					t.Fatalf("note-taking call to %s", req.Model)
				}
				w := model.NewWindows(sess.ModelWindows()...).Lookup(sub)
				if size := model.PromptTokens(req, sub) + int64(w.OutputReserve(req.MaxTokens)); size > subWindow {
					t.Fatalf("part %d: %d tokens with the reserved output, window %d", n+1, size, subWindow)
				}
				user := req.Messages[1].Content
				parts.WriteString(user[strings.Index(user, "<<<\n")+4 : len(user)-len("\n>>>")])
				n++
			}
			if last := reqs[len(reqs)-1]; last.Model != root {
				t.Fatalf("answer from %s, want the root model", last.Model)
			}
			if n < c.minParts || (c.minParts == 0 && n != 0) {
				t.Fatalf("%d parts, want at least %d", n, c.minParts)
			}
			if n > 0 && parts.String() != task.Context {
				t.Fatalf("the parts (%d bytes) are not the context (%d bytes)", parts.Len(), len(task.Context))
			}
		})
	}
}

// A sub-model window too small for any part beside the prompt and the
// notes fails the trial with prompt_too_large, before any call.
func TestMethodSummaryWindowTooSmall(t *testing.T) {
	log := &requestLog{}
	sess, err := rlm.Open(context.Background(), rlm.Spec{Model: "gpt-4o", SubModel: "gpt-4o-mini", ContextWindow: 1000,
		ModelWindows: []model.Info{{Prefix: "gpt-4o-mini", Window: 500}}, Cache: rlm.CacheSpec{Off: true}},
		rlm.WithProvider(summaryModel("x", log)))
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	rep, err := Run(context.Background(), Config{Session: sess, Task: KindNIAH, Size: 20_000, Methods: []Method{MethodSummary}})
	if err != nil {
		t.Fatal(err)
	}
	if tr := rep.Trials[0]; tr.Status != StatusFailed || fault.KindOf(tr.Error) != model.KindPromptTooLarge || len(log.all()) != 0 {
		t.Fatalf("trial %+v, %d calls", tr, len(log.all()))
	}
}

// The summary method's calls are charged to the trial's budget: a
// max_model_calls below the parts it needs, and a time limit that runs
// out while a call is in flight, end the trial with the budget's kinds.
func TestMethodSummaryBudgets(t *testing.T) {
	task, err := Generate(KindNIAH, 20_000, 3)
	if err != nil {
		t.Fatal(err)
	}
	blocked := model.ProviderFunc(func(ctx context.Context, _ model.Request) (*model.Response, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	})
	cases := []struct {
		name   string
		p      model.Provider
		limits budget.Limits
		kind   fault.Kind
		calls  int
	}{
		{"max model calls", summaryModel(task.Expected.Value, &requestLog{}), budget.Limits{MaxModelCalls: 2}, budget.KindMaxModelCalls, 2},
		{"time limit", blocked, budget.Limits{TimeLimit: 50 * time.Millisecond}, budget.KindTimeLimit, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sess, err := rlm.Open(context.Background(), rlm.Spec{Model: "gpt-4o", SubModel: "gpt-4o-mini", ContextWindow: 2000,
				ModelWindows: []model.Info{{Prefix: "gpt-4o-mini", Window: 1500}}, Cache: rlm.CacheSpec{Off: true}}, rlm.WithProvider(c.p))
			if err != nil {
				t.Fatal(err)
			}
			defer sess.Close()
			rep, err := Run(context.Background(), Config{Session: sess, Task: KindNIAH, Size: 20_000, Seed: 3, Limits: c.limits, Methods: []Method{MethodSummary}})
			if err != nil {
				t.Fatal(err)
			}
			tr := rep.Trials[0]
			if tr.Status != StatusFailed || fault.KindOf(tr.Error) != c.kind || tr.Usage.Calls != int64(c.calls) {
				t.Fatalf("trial %s, error %v, %d calls; want kind %s, %d calls", tr.Status, tr.Error, tr.Usage.Calls, c.kind, c.calls)
			}
		})
	}
}

// codeModel answers every root turn with code (a cell per reply, in
// order) and every sub-call with "sub".
func codeModel(cells []string, log *requestLog) model.Provider {
	var mu sync.Mutex
	turn := 0
	return model.ProviderFunc(func(_ context.Context, req model.Request) (*model.Response, error) {
		log.add(req)
		text := "sub"
		if req.Messages[0].Role == model.RoleSystem && strings.Contains(req.Messages[0].Content, "Python 3.12 REPL") {
			mu.Lock()
			text = "```python\n" + cells[min(turn, len(cells)-1)] + "\n```"
			turn++
			mu.Unlock()
		}
		return &model.Response{Text: text, Usage: scriptedUsage()}, nil
	})
}

// The rlm-no-subcalls method is code mode without sub-calls: code over the
// context answers, and a call of llm_query or rlm_query ends the trial
// with capability_denied (the runtime refuses it: no request reaches the
// provider), where rlm-code makes the same call.
func TestMethodRLMNoSubCalls(t *testing.T) {
	const find = `import re
m = re.search(r"is: (\d{7})\.", context)
FINAL(m.group(1))`
	cases := []struct {
		name      string
		method    Method
		cells     []string
		status    string
		kind      fault.Kind
		calls     int // requests the provider saw
		subPrompt bool
	}{
		{"answers from code", MethodRLMNoSubCalls, []string{find}, StatusOK, "", 1, false},
		{"llm_query refused", MethodRLMNoSubCalls, []string{`x = llm_query("what is it?")` + "\nFINAL(x)"}, StatusFailed, capability.KindDenied, 1, false},
		{"llm_query_batched refused", MethodRLMNoSubCalls, []string{`x = llm_query_batched(["a", "b"])` + "\nFINAL(x[0])"}, StatusFailed, capability.KindDenied, 1, false},
		{"rlm_query refused", MethodRLMNoSubCalls, []string{`x = rlm_query("what is it?", context[:100])` + "\nFINAL(x)"}, StatusFailed, capability.KindDenied, 1, false},
		{"rlm-code makes the sub-call", MethodRLMCode, []string{`x = llm_query("what is it?")` + "\nprint(x)", "FINAL(x)"}, StatusOK, "", 3, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			log := &requestLog{}
			sess, err := rlm.Open(context.Background(), rlm.Spec{Model: "gpt-4o", SubModel: "gpt-4o-mini", Cache: rlm.CacheSpec{Off: true}},
				rlm.WithProvider(codeModel(c.cells, log)))
			if err != nil {
				t.Fatal(err)
			}
			defer sess.Close()
			rep, err := Run(context.Background(), Config{Session: sess, Task: KindNIAH, Size: 5000, Seed: 4, Methods: []Method{c.method}})
			if err != nil {
				t.Fatal(err)
			}
			tr := rep.Trials[0]
			if tr.Status != c.status || fault.KindOf(tr.Error) != c.kind {
				t.Fatalf("trial status %s, error %v; want %s, kind %q", tr.Status, tr.Error, c.status, c.kind)
			}
			if c.status == StatusOK && c.method == MethodRLMNoSubCalls && tr.Score != 1 {
				t.Fatalf("score %v, answer %q", tr.Score, tr.Answer)
			}
			reqs := log.all()
			if len(reqs) != c.calls || tr.Usage.Calls != int64(c.calls) {
				t.Fatalf("%d requests, %d charged; want %d", len(reqs), tr.Usage.Calls, c.calls)
			}
			sys := reqs[0].Messages[0].Content
			if has := strings.Contains(sys, "llm_query(prompt, model=None)"); has != c.subPrompt {
				t.Fatalf("system prompt offers llm_query: %v, want %v", has, c.subPrompt)
			}
			if has := strings.Contains(sys, RLMNoSubCallsInstructions); has != (c.method == MethodRLMNoSubCalls) {
				t.Fatalf("system prompt has the rlm-no-subcalls instructions: %v", has)
			}
		})
	}
}

// The report sets each baseline beside its row of the paper: summary
// agent, RLM (no sub-calls), CodeAct (+ BM25), CodeAct (+ sub-calls).
func TestBaselinesPublishedRows(t *testing.T) {
	want := map[Method]string{MethodSummary: PaperSummary, MethodRLMNoSubCalls: PaperRLMNoSubcalls, MethodCodeAct: PaperCodeActBM25, MethodCodeActSubcalls: PaperCodeActSubcall}
	rep := &Report{SchemaVersion: 1, Suite: suite.LongBenchV2, Model: "gpt-5", SubModel: "gpt-5-nano"}
	for _, m := range []Method{MethodSummary, MethodRLMNoSubCalls, MethodCodeAct, MethodCodeActSubcalls} {
		rep.Trials = append(rep.Trials, Trial{Method: m, Status: StatusOK, Score: 1, Subset: "Code Repository Understanding/Code repo QA"})
	}
	c := Compare([]*Report{rep}, PublishedTable())
	if len(c.Rows) != len(want) {
		t.Fatalf("%d rows", len(c.Rows))
	}
	for _, row := range c.Rows {
		if row.Published == nil || row.Published.Method != want[row.Method] || row.Published.Model != modelGPT5 {
			t.Fatalf("%s: published %+v, want %s", row.Method, row.Published, want[row.Method])
		}
	}
}

// An unknown method is refused before any trial.
func TestMethodUnknown(t *testing.T) {
	_, err := Run(context.Background(), Config{Provider: model.ProviderFunc(func(context.Context, model.Request) (*model.Response, error) {
		return nil, nil
	}), Task: KindNIAH, Size: 1000, Methods: []Method{"codeact-bm25"}})
	if fault.KindOf(err) != KindInvalidTask {
		t.Fatalf("%v", err)
	}
}

// docs/bench.md quotes the baselines' prompts as the constants hold them.
func TestBaselinePromptsDocumented(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "docs", "bench.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for name, prompt := range map[string]string{"SummaryChunkPrompt": SummaryChunkPrompt, "SummaryAnswerPrompt": SummaryAnswerPrompt, "CodeActInstructions": CodeActInstructions,
		"RLMNoSubCallsInstructions": RLMNoSubCallsInstructions, "CodeActSubcallsInstructions": CodeActSubcallsInstructions, "CodeActRetrieverInstructions": CodeActRetrieverInstructions} {
		quoted := "> " + strings.ReplaceAll(prompt, "\n\n", "\n>\n> ")
		if !strings.Contains(doc, quoted) {
			t.Errorf("docs/bench.md does not quote %s as it is", name)
		}
	}
}
