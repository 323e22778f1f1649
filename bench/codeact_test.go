package bench

import (
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rlm-go/rlm"
	"github.com/rlm-go/rlm/bench/suite"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
)

// needleInMessage is a root turn of the codeact methods for a needle
// task: it reads the value from the context in the first user message
// and answers it from code (the REPL does not hold the context).
const needleInMessage = "NEEDLE"

// The codeact methods put the context in the root model's first user
// message and not in the REPL: a needle task is answered from the
// message; codeact refuses every sub-call with capability_denied (no
// request reaches the provider), codeact-subcalls makes llm_query's
// call and refuses rlm_query; a context larger than the root model's
// window fails with prompt_too_large before any call.
func TestMethodCodeAct(t *testing.T) {
	noContext := "print(len(context))\nFINAL(\"x\")"
	cases := []struct {
		name   string
		method Method
		window int // the root model's window (0: the shipped table's)
		cells  []string
		status string
		kind   fault.Kind
		calls  int
		score  float64
	}{
		{"codeact answers from the message", MethodCodeAct, 0, []string{needleInMessage}, StatusOK, "", 1, 1},
		{"codeact's REPL has no context", MethodCodeAct, 0, []string{noContext, needleInMessage}, StatusOK, "", 2, 1},
		{"codeact refuses llm_query", MethodCodeAct, 0, []string{`x = llm_query("what is it?")` + "\nFINAL(x)"}, StatusFailed, capability.KindDenied, 1, 0},
		{"codeact refuses llm_query_batched", MethodCodeAct, 0, []string{`x = llm_query_batched(["a"])` + "\nFINAL(x[0])"}, StatusFailed, capability.KindDenied, 1, 0},
		{"codeact refuses rlm_query", MethodCodeAct, 0, []string{`x = rlm_query("what is it?", "abc")` + "\nFINAL(x)"}, StatusFailed, capability.KindDenied, 1, 0},
		{"codeact-subcalls answers from the message", MethodCodeActSubcalls, 0, []string{needleInMessage}, StatusOK, "", 1, 1},
		{"codeact-subcalls makes llm_query's call", MethodCodeActSubcalls, 0, []string{`x = llm_query("what is it?")` + "\nprint(x)", "FINAL(x)"}, StatusOK, "", 3, 0},
		{"codeact-subcalls refuses rlm_query", MethodCodeActSubcalls, 0, []string{`x = rlm_query("what is it?", "abc")` + "\nFINAL(x)"}, StatusFailed, capability.KindDenied, 1, 0},
		{"codeact: too large for the window", MethodCodeAct, 2000, []string{needleInMessage}, StatusFailed, model.KindPromptTooLarge, 0, 0},
		{"codeact-subcalls: too large for the window", MethodCodeActSubcalls, 2000, []string{needleInMessage}, StatusFailed, model.KindPromptTooLarge, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			log := &requestLog{}
			sess, err := rlm.Open(context.Background(), rlm.Spec{Model: "gpt-4o", SubModel: "gpt-4o-mini", ContextWindow: c.window, Cache: rlm.CacheSpec{Off: true}},
				rlm.WithProvider(codeActModel(c.cells, log)))
			if err != nil {
				t.Fatal(err)
			}
			defer sess.Close()
			rep, err := Run(context.Background(), Config{Session: sess, Task: KindNIAH, Size: 20_000, Seed: 4, Methods: []Method{c.method}})
			if err != nil {
				t.Fatal(err)
			}
			tr := rep.Trials[0]
			if tr.Status != c.status || fault.KindOf(tr.Error) != c.kind {
				t.Fatalf("trial status %s, error %v; want %s, kind %q", tr.Status, tr.Error, c.status, c.kind)
			}
			reqs := log.all()
			if len(reqs) != c.calls || tr.Usage.Calls != int64(c.calls) || (c.calls == 0 && tr.Usage.TotalTokens != 0) {
				t.Fatalf("%d requests, %d charged (%d tokens); want %d", len(reqs), tr.Usage.Calls, tr.Usage.TotalTokens, c.calls)
			}
			if tr.Score != c.score {
				t.Fatalf("score %v, answer %q", tr.Score, tr.Answer)
			}
			if c.calls == 0 {
				return
			}
			task, _ := Generate(KindNIAH, 20_000, 4)
			first := reqs[0].Messages[1].Content
			if !strings.Contains(first, task.Context) || !strings.Contains(first, task.Query) {
				t.Fatal("the first user message does not hold the context and the query")
			}
			sys := reqs[0].Messages[0].Content
			if strings.Contains(sys, "context.search(") || !strings.Contains(sys, "in full in the first user message") {
				t.Fatalf("system prompt describes a context in the REPL:\n%s", sys)
			}
			if has := strings.Contains(sys, "llm_query(prompt, model=None)"); has != (c.method == MethodCodeActSubcalls) {
				t.Fatalf("system prompt offers llm_query: %v", has)
			}
			if strings.Contains(sys, "rlm_query(query, context=None)") {
				t.Fatal("system prompt offers rlm_query")
			}
			if c.name == "codeact's REPL has no context" && !strings.Contains(reqs[1].Messages[len(reqs[1].Messages)-1].Content, "NameError") {
				t.Fatalf("second turn's observation: %q", reqs[1].Messages[len(reqs[1].Messages)-1].Content)
			}
		})
	}
}

// codeActModel answers root turns with the cells in order (a cell
// NEEDLE answers the needle value it reads in the first user message)
// and sub-calls with "sub".
func codeActModel(cells []string, log *requestLog) model.Provider {
	needle := regexp.MustCompile(`is: (\d{7})\.`)
	turn := 0
	return model.ProviderFunc(func(_ context.Context, req model.Request) (*model.Response, error) {
		log.add(req)
		if !strings.Contains(req.Messages[0].Content, "Python 3.12 REPL") {
			return &model.Response{Text: "sub", Usage: scriptedUsage()}, nil
		}
		cell := cells[min(turn, len(cells)-1)]
		turn++
		if cell == needleInMessage {
			value := "none"
			if m := needle.FindStringSubmatch(req.Messages[1].Content); m != nil {
				value = m[1]
			}
			cell = `FINAL("` + value + `")`
		}
		return &model.Response{Text: "```python\n" + cell + "\n```", Usage: scriptedUsage()}, nil
	})
}

// On BrowseComp-Plus, codeact puts no document in the prompt and grants
// the BM25 retriever over the task's documents: the model's searches
// return the documents ranked, and it answers from them.
// codeact-subcalls has no retriever: the documents are in its prompt,
// and the same call is an error the cell sees (no tool is configured),
// after which it answers "none".
func TestMethodCodeActRetriever(t *testing.T) {
	opts := withCorpus(suite.Options{Limit: 1})
	data := filepath.Join("suite", "testdata", "browsecomp-plus", "queries.jsonl")
	loaded, err := suite.Load(suite.BrowseCompPlus, data, opts)
	if err != nil {
		t.Fatal(err)
	}
	task := loaded[0]
	want := NewBM25Index(task.Docs).Search("bread making science co-authored", 3)
	if len(want) == 0 {
		t.Fatal("the sample's documents do not match the search")
	}
	search := `hits = call_tool("search_documents", query="bread making science co-authored", k=3)
print([h["docid"] for h in hits])
FINAL(hits[0]["text"])`
	for _, c := range []struct {
		method Method
		cells  []string
	}{
		{MethodCodeAct, []string{search}},
		{MethodCodeActSubcalls, []string{search, `FINAL("none")`}},
	} {
		t.Run(string(c.method), func(t *testing.T) {
			log := &requestLog{}
			sess, err := rlm.Open(context.Background(), rlm.Spec{Model: "gpt-4o", SubModel: "gpt-4o-mini", Cache: rlm.CacheSpec{Off: true}},
				rlm.WithProvider(codeModel(c.cells, log)))
			if err != nil {
				t.Fatal(err)
			}
			defer sess.Close()
			rep, err := Run(context.Background(), Config{Session: sess, Suite: suite.BrowseCompPlus, Data: data, SuiteOptions: opts, Methods: []Method{c.method}})
			if err != nil {
				t.Fatal(err)
			}
			tr := rep.Trials[0]
			reqs := log.all()
			sys, first := reqs[0].Messages[0].Content, reqs[0].Messages[1].Content
			if c.method == MethodCodeActSubcalls {
				if tr.Status != StatusOK || tr.Answer != "none" || len(reqs) != 2 || !strings.Contains(first, task.Context) ||
					!strings.Contains(reqs[1].Messages[len(reqs[1].Messages)-1].Content, "tool_unavailable") {
					t.Fatalf("trial %s %q, %d requests, context in prompt %v", tr.Status, tr.Answer, len(reqs), strings.Contains(first, task.Context))
				}
				return
			}
			if tr.Status != StatusOK || tr.Answer != preview(want[0].Text) {
				t.Fatalf("trial %s (%v), answer %q, want the best document %q", tr.Status, tr.Error, tr.Answer, want[0].Text)
			}
			for _, d := range task.Docs {
				if strings.Contains(first, d.Text) || strings.Contains(sys, d.Text) {
					t.Fatalf("document %s is in the prompt", d.ID)
				}
			}
			if !strings.Contains(sys, "tool:"+RetrieverTool) || !strings.Contains(sys, CodeActRetrieverInstructions) {
				t.Fatalf("system prompt does not grant the retriever:\n%s", sys)
			}
			if !strings.Contains(reqs[0].Messages[1].Content, task.Query) {
				t.Fatal("the query is not in the first user message")
			}
		})
	}
}
