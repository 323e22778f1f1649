package viewer

import (
	"context"
	"sync"
	"testing"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/trace"
)

// Scripted replies of codeRunTrace, in the order the run asks for them
// (the run makes one request at a time): the root's first cell raises,
// its second asks a sub-model and a child RLM, its third answers.
var codeRunReplies = []string{
	"Let me look at the input first.\n```python\nprint(\"lines:\", len(context.splitlines()))\nratio = 1 // 0\n```",
	"The division failed; ask a sub-model and a child instead.\n```python\nsummary = llm_query(\"Summarize in five words: \" + context[:40])\nprint(\"summary:\", summary)\nfound = rlm_query(\"Find the line about the disk.\", context=context)\nprint(\"child:\", found)\n```",
	"A short summary of the log",
	"```python\nhits = context.search(\"disk\")\nFINAL(hits[0][\"text\"])\n```",
	"```python\nFINAL(\"The disk line: \" + found)\n```",
}

// codeRunTrace runs a code-mode engine over a small input with
// TraceContent and returns its trace written as JSONL: three root turns,
// the first cell raising ZeroDivisionError, a sub-call and a child RLM
// (one turn) in the second, the answer in the third.
func codeRunTrace(t testing.TB, dir string) (string, []trace.Event) {
	t.Helper()
	prov := scripted(budget.Usage{PromptTokens: 100, CompletionTokens: 20, TotalTokens: 120}, codeRunReplies...)
	store := corpus.NewStore()
	t.Cleanup(func() { store.Close() })
	h, err := store.AddString("input", "boot ok\nnet ok\ndisk full on /var\nshutdown\n")
	if err != nil {
		t.Fatal(err)
	}
	eng, err := engine.New(engine.Config{Provider: prov, Model: "root-model", SubModel: "sub-model", Store: store, Mode: engine.ModeCode,
		TraceContent: true, Limits: budget.Limits{MaxDepth: 1, MaxIterations: 6}})
	if err != nil {
		t.Fatal(err)
	}
	rec := trace.NewRecorder()
	res, err := eng.Run(trace.WithRecorder(context.Background(), rec), "Which line mentions disk?", h)
	if err != nil {
		t.Fatalf("%v %+v", err, res)
	}
	evs := rec.Events()
	return writeTrace(t, dir, "code-run.jsonl", evs), evs
}

// planRunTrace runs a plan-mode engine with TraceContent: a turn whose
// plan searches the input, then a turn that answers.
func planRunTrace(t testing.TB, dir string) (string, []trace.Event) {
	t.Helper()
	replies := []string{
		`{"steps":[{"op":"context","handle":{"ref":"input","name":"context"},"action":{"type":"search","pattern":"disk"},"bind":"hits"}]}`,
		`{"steps":[{"op":"final","value":"disk full on /var"}]}`,
	}
	prov := scripted(budget.Usage{}, replies...)
	store := corpus.NewStore()
	t.Cleanup(func() { store.Close() })
	h, err := store.AddString("input", "boot ok\ndisk full on /var\n")
	if err != nil {
		t.Fatal(err)
	}
	eng, err := engine.New(engine.Config{Provider: prov, Model: "root-model", Store: store, Mode: engine.ModePlan, TraceContent: true})
	if err != nil {
		t.Fatal(err)
	}
	rec := trace.NewRecorder()
	if res, err := eng.Run(trace.WithRecorder(context.Background(), rec), "Which line mentions disk?", h); err != nil {
		t.Fatalf("%v %+v", err, res)
	}
	evs := rec.Events()
	return writeTrace(t, dir, "plan-run.jsonl", evs), evs
}

// scripted answers each request with the next of replies (the last one
// again once they run out), with usage.
func scripted(usage budget.Usage, replies ...string) model.Provider {
	var mu sync.Mutex
	next := 0
	return model.ProviderFunc(func(ctx context.Context, req model.Request) (*model.Response, error) {
		mu.Lock()
		defer mu.Unlock()
		text := replies[min(next, len(replies)-1)]
		next++
		return &model.Response{Text: text, Usage: usage}, nil
	})
}
