package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/bench/suite"
	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/golden"
	"github.com/rlm-go/rlm/model"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// Describe: mean, sample sd (n−1) and R-7 quantiles, p95 included, on
// small samples worked by hand.
func TestDescribe(t *testing.T) {
	for _, tc := range []struct {
		name string
		xs   []float64
		want Dist
	}{
		{"empty", nil, Dist{}},
		{"one", []float64{5}, Dist{N: 1, Mean: 5, P25: 5, P50: 5, P75: 5, P95: 5}},
		{"four", []float64{4, 1, 3, 2}, Dist{N: 4, Mean: 2.5, SD: math.Sqrt(5.0 / 3), P25: 1.75, P50: 2.5, P75: 3.25, P95: 3.85}},
		// A heavy tail: one trial costs 100 times the others.
		{"tail", []float64{0.1, 0.1, 10, 0.1, 0.1}, Dist{N: 5, Mean: 2.08, SD: math.Sqrt(78.408 / 4), P25: 0.1, P50: 0.1, P75: 0.1, P95: 8.02}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Describe(tc.xs)
			w := tc.want
			if got.N != w.N || !near(got.Mean, w.Mean) || !near(got.SD, w.SD) || !near(got.P25, w.P25) || !near(got.P50, w.P50) ||
				!near(got.P75, w.P75) || !near(got.P95, w.P95) {
				t.Fatalf("Describe(%v) = %+v, want %+v", tc.xs, got, w)
			}
		})
	}
}

// trial is a trial of method with a score, a cost and a subset.
func trial(m Method, status string, score, cost float64, subset string) Trial {
	return Trial{Method: m, Status: status, Score: score, Subset: subset, LatencyMS: 1000 * cost, MaxDepth: 1, Turns: 2,
		Usage: budget.Usage{TotalTokens: int64(10000 * cost), CostUSD: cost, CostKnown: true, Calls: 3}}
}

// compareReports are hand-built reports over every case Compare
// distinguishes: trials in and out of the paper's settings, a skipped
// method, rlm-code, a cost unknown, a generated task, a second report
// merged into the same rows, a model the paper reports on.
func compareReports() []*Report {
	const in, spam = "synth/trec_coarse/131072", "synth/spam/131072"
	oolong := &Report{SchemaVersion: 1, Suite: suite.Oolong, Data: "oolong.jsonl", Model: "gpt-4o", SubModel: "gpt-4o-mini", Replayed: true, Trials: []Trial{
		trial(MethodRLM, StatusOK, 1, 0.10, in), trial(MethodDirect, StatusOK, 0.75, 0.02, in),
		trial(MethodRLM, StatusOK, 0.5, 0.20, in), trial(MethodDirect, StatusFailed, 0, 0.02, in),
		trial(MethodRLM, StatusOK, 0, 0.30, in), trial(MethodDirect, StatusOK, 1, 0.02, in),
		trial(MethodRLM, StatusOK, 1, 2.00, in), trial(MethodDirect, StatusOK, 0, 0.03, in),
		trial(MethodRLM, StatusOK, 1, 0.05, spam), trial(MethodDirect, StatusSkipped, 0, 0, spam),
	}}
	oolong.Trials[9].Usage = budget.Usage{}
	oolong.Trials[9].LatencyMS = 0
	more := &Report{SchemaVersion: 1, Suite: suite.Oolong, Data: "oolong-2.jsonl", Model: "gpt-4o", SubModel: "gpt-4o-mini", Trials: []Trial{
		trial(MethodRLM, StatusOK, 0.5, 0.15, in),
	}}
	pairs := &Report{SchemaVersion: 1, Suite: suite.OolongPairs, Model: "openai/gpt-5", SubModel: "openai/gpt-5-mini", Trials: []Trial{
		trial(MethodRLMCode, StatusOK, 0.6, 0.4, "trec_coarse/32768"), trial(MethodDirect, StatusOK, 0, 0.1, "trec_coarse/32768"),
		trial(MethodRLMCode, StatusOK, 0.8, 0.2, "trec_coarse/8192"),
	}}
	pairs.Trials[2].Usage.CostKnown = false // a price the table lacks
	coder := &Report{SchemaVersion: 1, Suite: suite.LongBenchV2, Model: "qwen3-coder-480b-a35b-instruct", Trials: []Trial{
		trial(MethodRLM, StatusOK, 1, 0.5, "Code Repository Understanding/Code repo QA"),
		trial(MethodRLM, StatusOK, 0, 0.7, "Single-Document QA/Academic"),
	}}
	generated := &Report{SchemaVersion: 1, Task: KindNIAH, Size: 100000, Model: "gpt-4o-mini", Trials: []Trial{
		trial(MethodRLM, StatusOK, 1, 0.01, ""), trial(MethodDirect, StatusOK, 1, 0.005, ""),
	}}
	return []*Report{oolong, pairs, more, coder, generated}
}

// Compare groups the trials per benchmark, setting, method and models,
// matches each row with the paper's figure of its suite, setting and
// method (the run's model's block when it names one), and leaves the
// rows outside the paper's settings without one.
func TestCompare(t *testing.T) {
	c := Compare(compareReports(), PublishedTable())
	if !c.Replayed || c.Notice != ReplayNotice || c.Reports != 5 {
		t.Fatalf("replayed %v, notice %q, reports %d", c.Replayed, c.Notice, c.Reports)
	}
	type want struct {
		bench, setting string
		method         Method
		attempted      int
		trials         int
		score          float64 // -1: none attempted
		published      float64 // -1: no published figure
		pubModel       string
		costKnown      bool
	}
	wants := []want{
		{suite.Oolong, "trec_coarse, 131K tokens", MethodRLM, 5, 5, 60, 56.5, "GPT-5", true},
		{suite.Oolong, "trec_coarse, 131K tokens", MethodDirect, 4, 4, 43.75, 44.0, "GPT-5", true},
		{suite.Oolong, OtherSetting, MethodRLM, 1, 1, 100, -1, "", true},
		{suite.Oolong, OtherSetting, MethodDirect, 0, 1, -1, -1, "", false},
		{suite.OolongPairs, "trec_coarse, 32K tokens", MethodRLMCode, 1, 1, 60, 58.0, "GPT-5", true},
		{suite.OolongPairs, "trec_coarse, 32K tokens", MethodDirect, 1, 1, 0, 0.1, "GPT-5", true},
		{suite.OolongPairs, OtherSetting, MethodRLMCode, 1, 1, 80, -1, "", false},
		{suite.LongBenchV2, "CodeQA (23K-4.2M tokens)", MethodRLM, 1, 1, 100, 56.0, "Qwen3-Coder-480B-A35B", true},
		{suite.LongBenchV2, OtherSetting, MethodRLM, 1, 1, 0, -1, "", true},
		{string(KindNIAH), "100000 bytes", MethodRLM, 1, 1, 100, -1, "", true},
		{string(KindNIAH), "100000 bytes", MethodDirect, 1, 1, 100, -1, "", true},
	}
	if len(c.Rows) != len(wants) {
		for _, r := range c.Rows {
			t.Logf("row %s | %s | %s", r.Benchmark, r.Setting, r.Method)
		}
		t.Fatalf("%d rows, want %d", len(c.Rows), len(wants))
	}
	for i, w := range wants {
		r := c.Rows[i]
		if r.Benchmark != w.bench || r.Setting != w.setting || r.Method != w.method || r.Attempted != w.attempted || r.Trials != w.trials || r.CostKnown != w.costKnown {
			t.Errorf("row %d = %s | %s | %s, %d/%d attempted, cost known %v; want %+v", i, r.Benchmark, r.Setting, r.Method, r.Attempted, r.Trials, r.CostKnown, w)
			continue
		}
		switch {
		case w.score < 0 && (r.Score != nil || r.Diff != nil):
			t.Errorf("row %d: score %v diff %v, want none", i, r.Score, r.Diff)
		case w.score >= 0 && (r.Score == nil || !near(*r.Score, w.score)):
			t.Errorf("row %d: score %v, want %v", i, r.Score, w.score)
		}
		switch {
		case w.published < 0 && (r.Published != nil || r.Diff != nil):
			t.Errorf("row %d: published %+v, want none", i, r.Published)
		case w.published >= 0 && (r.Published == nil || r.Published.Score != w.published || r.Published.Model != w.pubModel):
			t.Errorf("row %d: published %+v, want %v (%s)", i, r.Published, w.published, w.pubModel)
		case w.published >= 0 && w.score >= 0 && (r.Diff == nil || !near(*r.Diff, w.score-w.published)):
			t.Errorf("row %d: diff %v, want %v", i, r.Diff, w.score-w.published)
		}
	}
	// The RLM row on OOLONG 131K merges both reports: costs in trial
	// order, their quartiles and the heavy tail's p95.
	rlm := c.Rows[0]
	if !slices.Equal(rlm.Costs, []float64{0.10, 0.20, 0.30, 2.00, 0.15}) {
		t.Fatalf("costs %v", rlm.Costs)
	}
	d := rlm.CostUSD
	if d.N != 5 || !near(d.Mean, 0.55) || !near(d.P25, 0.15) || !near(d.P50, 0.2) || !near(d.P75, 0.3) || !near(d.P95, 1.66) {
		t.Fatalf("cost %+v", d)
	}
	if !near(rlm.CallsPerTask, 3) || rlm.MaxDepth != 1 || !near(rlm.Tokens.Mean, 5500) || !rlm.Replayed {
		t.Fatalf("calls %v, depth %d, tokens %v, replayed %v", rlm.CallsPerTask, rlm.MaxDepth, rlm.Tokens.Mean, rlm.Replayed)
	}
	// The published cost is carried, N/A stays nil.
	if p := rlm.Published; p.CostMean == nil || *p.CostMean != 0.43 || *p.CostSD != 0.85 || !strings.Contains(p.Source, `row "RLM", column "OOLONG"`) {
		t.Fatalf("published %+v", p)
	}
	// Without published figures every row has none.
	for _, r := range Compare(compareReports(), nil).Rows {
		if r.Published != nil || r.Diff != nil {
			t.Fatalf("no table: row %s %s has %+v", r.Benchmark, r.Method, r.Published)
		}
	}
	if c := Compare(nil, PublishedTable()); len(c.Rows) != 0 || c.Replayed {
		t.Fatalf("no reports: %+v", c)
	}
}

// The shipped table holds Table 1's figures, each cited; the anchors
// quoted in issue 32 are among them.
func TestPublishedTable(t *testing.T) {
	tab := PublishedTable()
	if len(tab) != 14*4 {
		t.Fatalf("%d figures, want 56 (14 rows of 4 columns)", len(tab))
	}
	for _, p := range tab {
		if !slices.Contains(suite.Names(), p.Suite) || p.Setting == "" || p.Unit == "" || p.Model == "" ||
			!strings.Contains(p.Source, "arXiv 2512.24601") || !strings.Contains(p.Source, "Table 1") || p.Score < 0 || p.Score > 100 {
			t.Errorf("figure %+v", p)
		}
		if (p.CostMean == nil) != (p.CostSD == nil) {
			t.Errorf("cost mean without sd: %+v", p)
		}
	}
	find := func(s, m, model string) Published {
		for _, p := range tab {
			if p.Suite == s && p.Method == m && p.Model == model {
				return p
			}
		}
		t.Fatalf("no %s %s %s", s, m, model)
		return Published{}
	}
	for _, a := range []struct {
		suite, method, model string
		score, cost, sd      float64 // cost < 0: N/A
	}{
		{suite.Oolong, PaperRLM, "GPT-5", 56.5, 0.43, 0.85},
		{suite.OolongPairs, PaperRLM, "GPT-5", 58.0, 0.33, 0.20},
		{suite.OolongPairs, PaperBase, "GPT-5", 0.1, 0.16, 0.10},
		{suite.BrowseCompPlus, PaperRLM, "GPT-5", 91.3, 0.99, 1.22},
		{suite.BrowseCompPlus, PaperBase, "GPT-5", 0.0, -1, -1},
		{suite.LongBenchV2, PaperRLM, "GPT-5", 62.0, 0.11, 0.10},
		{suite.LongBenchV2, PaperRLMNoSubcalls, "Qwen3-Coder-480B-A35B", 66.0, 0.18, 0.58},
	} {
		p := find(a.suite, a.method, a.model)
		if p.Score != a.score || (a.cost < 0) != (p.CostMean == nil) || (p.CostMean != nil && (*p.CostMean != a.cost || *p.CostSD != a.sd)) {
			t.Errorf("%s %s %s: %+v, want %v at $%v ± %v", a.suite, a.method, a.model, p, a.score, a.cost, a.sd)
		}
	}
	if p := find(suite.Oolong, PaperRLM, "GPT-5"); p.SubModel != "GPT-5-mini" {
		t.Errorf("RLM(GPT-5) sub-model %q", p.SubModel)
	}
	// A new slice each call: callers may change it.
	tab[0].Score = -1
	if PublishedTable()[0].Score == -1 {
		t.Fatal("PublishedTable shares its slice")
	}
}

// The writers' output for the hand-built reports, pinned by golden files.
func TestComparisonWriters(t *testing.T) {
	c := Compare(compareReports(), PublishedTable())
	for _, w := range []struct {
		name  string
		write func(*bytes.Buffer) error
	}{
		{"compare.txt", func(b *bytes.Buffer) error { return WriteComparison(b, c) }},
		{"compare.csv", func(b *bytes.Buffer) error { return WriteComparisonCSV(b, c) }},
		{"compare.md", func(b *bytes.Buffer) error { return WriteComparisonMarkdown(b, c) }},
		{"compare.svg", func(b *bytes.Buffer) error { return WriteCostSVG(b, c) }},
	} {
		t.Run(w.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := w.write(&b); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, w.name+".golden", b.Bytes())
		})
	}
	// The CSV has one record per row and a fixed number of fields.
	var b bytes.Buffer
	if err := WriteComparisonCSV(&b, c); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Count(b.String(), "\n"); lines != len(c.Rows)+1 {
		t.Fatalf("%d CSV lines for %d rows", lines, len(c.Rows))
	}
}

// The cost axis ends at 1, 2 or 5 times a power of ten times the ticks,
// at or above the greatest cost.
func TestCostAxis(t *testing.T) {
	for _, tc := range []struct {
		hi, top, step float64
		decimals      int
	}{
		{0, 1, 0.25, 2}, {2.0, 2, 0.5, 1}, {2.1, 4, 1, 0}, {0.0031, 0.004, 0.001, 3}, {37, 40, 10, 0}, {0.55, 0.8, 0.2, 1},
	} {
		top, step, dec := costAxis(tc.hi)
		if !near(top, tc.top) || !near(step, tc.step) || dec != tc.decimals {
			t.Errorf("costAxis(%v) = %v, %v, %d; want %v, %v, %d", tc.hi, top, step, dec, tc.top, tc.step, tc.decimals)
		}
	}
}

// ReadReport accepts rlm bench run --json and refuses anything else with
// a typed error naming the file.
func TestReadReport(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good, _ := json.Marshal(compareReports()[0])
	for _, tc := range []struct {
		name, body string
		kind       fault.Kind
	}{
		{"good.json", string(good), ""},
		{"text.json", "not json at all", KindNotReport},
		{"array.json", "[1, 2]", KindNotReport},
		{"conformance.json", `{"schema_version": 1, "suite": "conformance", "cases": []}`, KindNotReport},
		{"wrongtype.json", `{"schema_version": 1, "summaries": [], "trials": {"a": 1}}`, KindNotReport},
		{"future.json", `{"schema_version": 2, "summaries": [], "trials": []}`, KindNotReport},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := write(tc.name, tc.body)
			rep, err := ReadReport(path)
			if fault.KindOf(err) != tc.kind {
				t.Fatalf("kind %q (%v), want %q", fault.KindOf(err), err, tc.kind)
			}
			if err != nil {
				if fe := fault.As(err); fe.Detail["file"] != path {
					t.Fatalf("detail %v lacks the file", fe.Detail)
				}
				return
			}
			if rep.Suite != suite.Oolong || len(rep.Trials) != 10 {
				t.Fatalf("report %+v", rep)
			}
		})
	}
	if _, err := ReadReport(filepath.Join(dir, "nowhere.json")); fault.KindOf(err) != fault.KindIO {
		t.Fatalf("missing file: %v", err)
	}
}

// scriptedCostModel answers like scriptedSuiteModel (the direct method
// from direct when it is not nil) and reports tokens that grow with the
// document (direct) or the answer (the engine) and a cost from them (scripted: $2.50 per million prompt tokens,
// $10 per million completion tokens), so that costs differ between tasks
// and methods.
func scriptedCostModel(answers, direct map[string]string) model.Provider {
	return model.ProviderFunc(func(ctx context.Context, req model.Request) (*model.Response, error) {
		var all strings.Builder
		for _, m := range req.Messages {
			all.WriteString(m.Content)
		}
		isDirect := req.Messages[0].Content == directSystem
		table := answers
		if isDirect && direct != nil {
			table = direct
		}
		text := "unknown"
		for q, a := range table {
			if strings.Contains(all.String(), q) {
				text = a
			}
		}
		if !isDirect {
			b, _ := json.Marshal(map[string]string{"answer": text})
			text = string(b)
		}
		// The direct prompt is the document and the question (this
		// package's); the engine's prompts are not counted, so that the
		// table does not change with them: a root call is charged 1,000
		// tokens plus 20 per byte of its answer.
		prompt := int64(all.Len()/4 + 1)
		if !isDirect {
			prompt = int64(1000 + 20*len(text))
		}
		cost := float64(prompt)*2.5e-6 + 20*10e-6
		return &model.Response{Text: text, Usage: budget.Usage{Calls: 1, PromptTokens: prompt, CompletionTokens: 20, TotalTokens: prompt + 20, TokensKnown: true,
			CostUSD: cost, CostKnown: true}}, nil
	})
}

// scriptedComparison runs three suites' samples through both methods
// with a scripted model (LongBench-v2: four of five right; BrowseComp-Plus:
// three of five by the RLM, exact match, none by the direct call;
// OOLONG-Pairs: one pair of each gold set) and compares them with the
// paper. Latencies are zeroed: a scripted
// model answers in microseconds, and the table must not change between
// runs.
func scriptedComparison(t *testing.T) Comparison {
	t.Helper()
	var reports []*Report
	run := func(name, data string, o suite.Options, answers, direct map[string]string) {
		rep, err := Run(context.Background(), Config{Suite: name, Data: data, SuiteOptions: o, Provider: scriptedCostModel(answers, direct),
			Model: "gpt-4o", SubModel: "gpt-4o-mini", Methods: []Method{MethodRLM, MethodDirect}, Replayed: true})
		if err != nil {
			t.Fatal(err)
		}
		for i := range rep.Trials {
			rep.Trials[i].LatencyMS = 0
		}
		reports = append(reports, rep)
	}
	const right = "The correct answer is (%s)"
	run(suite.LongBenchV2, filepath.Join("suite", "testdata", "longbench-v2", "data.json"), suite.Options{}, map[string]string{
		"How many times does the default client retry": strings.Replace(right, "%s", "B", 1),
		"Which backoff does the default policy use?":   strings.Replace(right, "%s", "C", 1),
		"What does the paper's method store outside":   strings.Replace(right, "%s", "A", 1),
		"Which city has the largest population":        strings.Replace(right, "%s", "B", 1),
		"Who proposed meeting on Friday?":              strings.Replace(right, "%s", "A", 1),
	}, nil)
	bc := filepath.Join("suite", "testdata", "browsecomp-plus", "queries.jsonl")
	loaded, err := suite.Load(suite.BrowseCompPlus, bc, withCorpus(suite.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	answers := map[string]string{}
	for i, task := range loaded {
		a := "Exact Answer: " + task.Answer
		if i >= 3 {
			a = "Exact Answer: something else"
		}
		answers[task.Query[:40]] = a
	}
	run(suite.BrowseCompPlus, bc, withCorpus(suite.Options{}), answers, map[string]string{})
	pf := filepath.Join("suite", "testdata", "oolong-pairs", "pairs.jsonl")
	loaded, err = suite.Load(suite.OolongPairs, pf, suite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	answers = map[string]string{}
	for _, task := range loaded {
		if len(task.Pairs) > 0 {
			p := task.Pairs[0]
			answers[task.Query] = "(" + p.A + ", " + p.B + ")"
		}
	}
	run(suite.OolongPairs, pf, suite.Options{}, answers, nil)
	return Compare(reports, PublishedTable())
}

// The scripted run's table, as docs/bench.md shows it ("The paper's
// table, side by side"): the golden file and the page hold the same
// Markdown.
func TestScriptedComparison(t *testing.T) {
	c := scriptedComparison(t)
	var b bytes.Buffer
	if err := WriteComparisonMarkdown(&b, c); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "compare_scripted.md.golden", b.Bytes())
	doc, err := os.ReadFile(filepath.Join("..", "docs", "bench.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(doc, b.Bytes()) {
		t.Error("docs/bench.md does not show testdata/compare_scripted.md.golden (copy it under \"The paper's table, side by side\")")
	}
	var svg bytes.Buffer
	if err := WriteCostSVG(&svg, c); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "compare_scripted.svg.golden", svg.Bytes())
}
