package bench

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rlm-go/rlm/bench/suite"
	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
)

// scriptedSuiteModel answers each task as the table says, in the shape
// each method reads: a plan's final answer for the engine, text for the
// direct call. A query it does not know is answered "unknown".
func scriptedSuiteModel(answers map[string]string, calls *atomic.Int64) model.Provider {
	return model.ProviderFunc(func(ctx context.Context, req model.Request) (*model.Response, error) {
		calls.Add(1)
		var all strings.Builder
		for _, m := range req.Messages {
			all.WriteString(m.Content)
		}
		text := "unknown"
		for q, a := range answers {
			if strings.Contains(all.String(), q) {
				text = a
			}
		}
		if req.Messages[0].Content != directSystem {
			b, _ := json.Marshal(map[string]string{"answer": text})
			text = string(b)
		}
		return &model.Response{Text: text, Usage: budget.Usage{Calls: 1, PromptTokens: 100, CompletionTokens: 10, TotalTokens: 110, TokensKnown: true}}, nil
	})
}

// A published benchmark's sample runs through both methods to the scores
// its paper's scoring gives: LongBench-v2 by multiple-choice accuracy
// (four of five answered right), BrowseComp-Plus by a judge's verdict
// with the exact match kept beside it.
func TestRunSuite(t *testing.T) {
	const right, wrong = "The correct answer is (%s)", "The correct answer is (A)"
	answers := map[string]string{
		"How many times does the default client retry": strings.Replace(right, "%s", "B", 1),
		"Which backoff does the default policy use?":   strings.Replace(right, "%s", "C", 1),
		"What does the paper's method store outside":   strings.Replace(right, "%s", "A", 1),
		"Which city has the largest population":        strings.Replace(right, "%s", "B", 1),
		"Who proposed meeting on Friday?":              wrong, // gold D
	}
	var calls atomic.Int64
	rep, err := Run(context.Background(), Config{Suite: suite.LongBenchV2, Data: filepath.Join("suite", "testdata", "longbench-v2", "data.json"),
		Provider: scriptedSuiteModel(answers, &calls), Model: "gpt-4o-mini", Methods: []Method{MethodRLM, MethodDirect}, Replayed: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Suite != suite.LongBenchV2 || rep.Runs != 5 || len(rep.Trials) != 10 {
		t.Fatalf("report: suite %q, runs %d, %d trials", rep.Suite, rep.Runs, len(rep.Trials))
	}
	for _, s := range rep.Summaries {
		if s.Accuracy == nil || *s.Accuracy != 0.8 || s.OK != 5 {
			t.Fatalf("%s: accuracy %v, ok %d; want 0.8 over 5", s.Method, s.Accuracy, s.OK)
		}
	}
	if tr := rep.Trials[0]; tr.TaskID != "66f36490821e116aacb2cc22" || tr.Subset == "" || tr.Expected != "B" {
		t.Fatalf("first trial %+v", tr)
	}

	// BrowseComp-Plus, judged: the judge says yes to every answer, the
	// exact match is kept.
	bc := suite.Options{Limit: 2}
	loaded, err := suite.Load(suite.BrowseCompPlus, filepath.Join("suite", "testdata", "browsecomp-plus", "queries.jsonl"), withCorpus(bc))
	if err != nil {
		t.Fatal(err)
	}
	answers = map[string]string{loaded[0].Query[:40]: "Exact Answer: " + loaded[0].Answer, loaded[1].Query[:40]: "Exact Answer: something else"}
	judge := &suite.JudgeConfig{Prompt: "Q {question} R {response} A {correct_answer}", Judge: func(context.Context, string) (string, error) {
		return "correct: yes", nil
	}}
	rep, err = Run(context.Background(), Config{Suite: suite.BrowseCompPlus, Data: filepath.Join("suite", "testdata", "browsecomp-plus", "queries.jsonl"),
		SuiteOptions: withCorpus(bc), Judge: judge, Provider: scriptedSuiteModel(answers, &calls), Model: "gpt-4o-mini", Methods: []Method{MethodRLM}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Trials) != 2 {
		t.Fatalf("%d trials", len(rep.Trials))
	}
	for i, want := range []bool{true, false} {
		tr := rep.Trials[i]
		if !tr.Judged || tr.Score != 1 || tr.ExactMatch == nil || *tr.ExactMatch != want {
			t.Fatalf("trial %d: judged %v score %v exact %v, want exact %v", i, tr.Judged, tr.Score, tr.ExactMatch, want)
		}
	}

	// A missing file is the suite's typed error, before any model call.
	before := calls.Load()
	_, err = Run(context.Background(), Config{Suite: suite.Oolong, Data: "nowhere.jsonl", Provider: scriptedSuiteModel(nil, &calls)})
	if fault.KindOf(err) != suite.KindFileMissing || calls.Load() != before {
		t.Fatalf("missing file: %v (%d calls)", err, calls.Load()-before)
	}
}

// withCorpus adds the sample corpus of BrowseComp-Plus to o.
func withCorpus(o suite.Options) suite.Options {
	o.Corpus = filepath.Join("suite", "testdata", "browsecomp-plus", "corpus.jsonl")
	return o
}
