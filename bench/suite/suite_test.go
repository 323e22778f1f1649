package suite

import (
	"context"
	"errors"
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/rlm-go/rlm/fault"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func td(parts ...string) string { return filepath.Join(append([]string{"testdata"}, parts...)...) }

func ids(tasks []Task) []string {
	var out []string
	for _, t := range tasks {
		out = append(out, t.ID)
	}
	return out
}

func TestLoadSamples(t *testing.T) {
	for _, tc := range []struct {
		name, suite, file string
		o                 Options
		want              []string
	}{
		{"oolong synth", Oolong, "oolong/synth.jsonl", Options{}, []string{"1001", "1002", "1003", "1004", "1005", "2001"}},
		{"oolong real", Oolong, "oolong/real.jsonl", Options{}, []string{"3952f2d5-0001", "3952f2d5-0002", "3952f2d5-0003", "3952f2d5-0004", "3952f2d5-0005"}},
		{"oolong dataset subset", Oolong, "oolong/synth.jsonl", Options{Subset: "spam"}, []string{"2001"}},
		{"oolong 131k", Oolong, "oolong/synth.jsonl", Options{Subset: "131k"}, []string{"2001"}},
		{"oolong 128k", Oolong, "oolong/synth.jsonl", Options{Subset: "128K"}, []string{"2001"}},
		{"oolong two terms", Oolong, "oolong/synth.jsonl", Options{Subset: "trec_coarse, 8192"}, []string{"1001", "1002", "1003", "1004", "1005"}},
		{"oolong limit", Oolong, "oolong/synth.jsonl", Options{Limit: 2}, []string{"1001", "1002"}},
		{"pairs", OolongPairs, "oolong-pairs/pairs.jsonl", Options{}, []string{"3001", "3002", "3003", "3004", "3005"}},
		{"longbench", LongBenchV2, "longbench-v2/data.json", Options{}, []string{"66f36490821e116aacb2cc22", "66f36490821e116aacb2cc23", "66f36490821e116aacb2cc24", "66f36490821e116aacb2cc25", "66f36490821e116aacb2cc26"}},
		{"longbench CodeQA", LongBenchV2, "longbench-v2/data.json", Options{Subset: "CodeQA"}, []string{"66f36490821e116aacb2cc22", "66f36490821e116aacb2cc23"}},
		{"longbench sub_domain and difficulty", LongBenchV2, "longbench-v2/data.json", Options{Subset: "code repo qa,hard"}, []string{"66f36490821e116aacb2cc23"}},
		{"longbench length", LongBenchV2, "longbench-v2/data.json", Options{Subset: "long"}, []string{"66f36490821e116aacb2cc25"}},
		{"browsecomp", BrowseCompPlus, "browsecomp-plus/queries.jsonl", Options{Docs: 10}, []string{"1", "2", "3", "4", "5"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Load(tc.suite, td(tc.file), tc.o)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(ids(got), tc.want) {
				t.Fatalf("ids = %v, want %v", ids(got), tc.want)
			}
			for _, task := range got {
				if task.Suite != tc.suite || task.Query == "" || task.Context == "" || task.Answer == "" || task.Subset == "" {
					t.Fatalf("incomplete task %+v", task)
				}
			}
		})
	}
}

// The Parquet export of oolong-synth (how the hub serves it) loads to the
// same tasks as its JSON-lines export.
func TestParquetMatchesJSONL(t *testing.T) {
	a, err := Load(Oolong, td("oolong/synth.parquet"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Load(Oolong, td("oolong/synth.jsonl"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("parquet tasks differ:\n%+v\n%+v", a[0], b[0])
	}
}

func TestSampleDeterministic(t *testing.T) {
	a, err := Load(Oolong, td("oolong/synth.jsonl"), Options{Sample: 3, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Load(Oolong, td("oolong/synth.jsonl"), Options{Sample: 3, Seed: 7})
	if len(a) != 3 || !slices.Equal(ids(a), ids(b)) {
		t.Fatalf("sample not deterministic: %v vs %v", ids(a), ids(b))
	}
	if !slices.IsSortedFunc(ids(a), strings.Compare) {
		t.Fatalf("sample not in file order: %v", ids(a))
	}
	seen := map[string]bool{}
	for seed := range uint64(20) {
		c, _ := Load(Oolong, td("oolong/synth.jsonl"), Options{Sample: 3, Seed: seed})
		seen[strings.Join(ids(c), ",")] = true
	}
	if len(seen) < 2 {
		t.Fatal("every seed drew the same sample")
	}
}

func TestBrowseCompContext(t *testing.T) {
	for _, corpus := range []string{"", td("browsecomp-plus/corpus.jsonl")} {
		o := Options{Docs: 10, Seed: 3, Corpus: corpus}
		all, err := Load(BrowseCompPlus, td("browsecomp-plus/queries.jsonl"), o)
		if err != nil {
			t.Fatal(err)
		}
		o.Sample = 2
		some, err := Load(BrowseCompPlus, td("browsecomp-plus/queries.jsonl"), o)
		if err != nil {
			t.Fatal(err)
		}
		for _, task := range all {
			if len(task.Docs) != 10 {
				t.Fatalf("corpus %q: task %s has %d docs, want 10", corpus, task.ID, len(task.Docs))
			}
			seen := map[string]bool{}
			for _, d := range task.Docs {
				if seen[d.ID] || d.Text == "" {
					t.Fatalf("task %s: duplicate or empty document %s", task.ID, d.ID)
				}
				seen[d.ID] = true
			}
			want := map[string][]string{"1": {"1", "2"}, "2": {"3", "4"}, "3": {"5", "6"}, "4": {"7", "8"}, "5": {"9", "10"}}[task.ID]
			for _, id := range want {
				if !seen[id] {
					t.Fatalf("task %s lacks its evidence document %s", task.ID, id)
				}
			}
			if !strings.Contains(task.Context, "Document "+want[0]+":\n") {
				t.Fatalf("context of %s does not render document %s", task.ID, want[0])
			}
			for _, s := range some {
				if s.ID == task.ID && s.Context != task.Context {
					t.Fatalf("task %s context depends on which tasks were sampled", task.ID)
				}
			}
		}
	}
	a, _ := Load(BrowseCompPlus, td("browsecomp-plus/queries.jsonl"), Options{Docs: 10, Seed: 3, Corpus: td("browsecomp-plus/corpus.jsonl")})
	b, _ := Load(BrowseCompPlus, td("browsecomp-plus/queries.jsonl"), Options{Docs: 10, Seed: 4, Corpus: td("browsecomp-plus/corpus.jsonl")})
	if a[0].Context == b[0].Context {
		t.Fatal("the seed does not change the distractors")
	}
}

func TestMalformed(t *testing.T) {
	for _, tc := range []struct {
		name, suite, file string
		kind              fault.Kind
		field             string
		where             string // "line" or "record"
		at                int
	}{
		{"missing file", Oolong, "oolong/nope.jsonl", KindFileMissing, "", "", 0},
		{"oolong missing field", Oolong, "oolong/missing_field.jsonl", KindMalformed, "question", "line", 2},
		{"oolong wrong type", Oolong, "oolong/wrong_type.jsonl", KindMalformed, "context_len", "line", 1},
		{"oolong truncated", Oolong, "oolong/truncated.jsonl", KindMalformed, "", "line", 2},
		{"oolong parquet wrong type", Oolong, "oolong/wrong_type.parquet", KindMalformed, "context_len", "record", 1},
		{"oolong parquet truncated", Oolong, "oolong/truncated.parquet", KindMalformed, "", "record", 1},
		{"pairs missing field", OolongPairs, "oolong-pairs/missing_field.jsonl", KindMalformed, "answer", "line", 1},
		{"pairs wrong type", OolongPairs, "oolong-pairs/wrong_type.jsonl", KindMalformed, "answer", "line", 1},
		{"pairs truncated", OolongPairs, "oolong-pairs/truncated.jsonl", KindMalformed, "", "line", 2},
		{"longbench missing field", LongBenchV2, "longbench-v2/missing_field.json", KindMalformed, "choice_C", "record", 1},
		{"longbench wrong type", LongBenchV2, "longbench-v2/wrong_type.json", KindMalformed, "difficulty", "record", 2},
		{"longbench truncated", LongBenchV2, "longbench-v2/truncated.json", KindMalformed, "", "record", 0},
		{"browsecomp missing field", BrowseCompPlus, "browsecomp-plus/missing_field.jsonl", KindMalformed, "answer", "line", 1},
		{"browsecomp wrong type", BrowseCompPlus, "browsecomp-plus/wrong_type.jsonl", KindMalformed, "evidence_docs", "line", 1},
		{"browsecomp truncated", BrowseCompPlus, "browsecomp-plus/truncated.jsonl", KindMalformed, "", "line", 2},
		{"unknown suite", "ruler", "oolong/synth.jsonl", KindUnknownSuite, "", "", 0},
		{"s-niah is generated", SNIAH, "oolong/synth.jsonl", KindUnknownSuite, "", "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(tc.suite, td(tc.file), Options{})
			if !errors.Is(err, tc.kind) {
				t.Fatalf("err = %v, want kind %s", err, tc.kind)
			}
			e := fault.As(err)
			if tc.kind == KindUnknownSuite {
				return
			}
			if e.Detail["file"] != td(tc.file) {
				t.Fatalf("detail file = %v", e.Detail["file"])
			}
			if tc.kind != KindMalformed {
				return
			}
			if e.Detail["field"] != tc.field {
				t.Fatalf("detail field = %v, want %q (%v)", e.Detail["field"], tc.field, err)
			}
			if _, ok := e.Detail[tc.where]; !ok {
				t.Fatalf("detail lacks %s: %v", tc.where, err)
			}
			if tc.at > 0 && e.Detail[tc.where] != tc.at {
				t.Fatalf("detail %s = %v, want %d", tc.where, e.Detail[tc.where], tc.at)
			}
		})
	}
}

func TestSubsetSelectsNothing(t *testing.T) {
	_, err := Load(LongBenchV2, td("longbench-v2/data.json"), Options{Subset: "nosuchdomain"})
	if !errors.Is(err, KindUnknownSuite) {
		t.Fatalf("err = %v", err)
	}
}

func taskByID(t *testing.T, suite, file, id string) Task {
	t.Helper()
	tasks, err := Load(suite, td(file), Options{Docs: 10})
	if err != nil {
		t.Fatal(err)
	}
	for _, task := range tasks {
		if task.ID == id {
			return task
		}
	}
	t.Fatalf("no task %s in %s", id, file)
	return Task{}
}

// TestScoreWorked checks each scoring rule on worked examples: the
// numeric partial credit 0.75^|gold-answer| and the answer formats the
// benchmarks' own evaluations prescribe ("Answer: number", "Label: ...",
// "The correct answer is (B)", \boxed{...}), against the samples.
func TestScoreWorked(t *testing.T) {
	for _, tc := range []struct {
		name, suite, file, id, answer string
		score                         float64
		exact                         bool
	}{
		// OOLONG-synth (gold [4] numeric value instances).
		{"synth numeric exact", Oolong, "oolong/synth.jsonl", "1002", "Answer: 4", 1, true},
		{"synth numeric off by 2", Oolong, "oolong/synth.jsonl", "1002", "Answer: 6", 0.5625, false},
		{"synth numeric off by 1 bold", Oolong, "oolong/synth.jsonl", "1002", "**Answer: 3**", 0.75, false},
		{"synth numeric no colon short", Oolong, "oolong/synth.jsonl", "1002", "5", 0.75, false},
		{"synth numeric words", Oolong, "oolong/synth.jsonl", "1002", "Answer: four", 0, false},
		{"synth label", Oolong, "oolong/synth.jsonl", "1001", "Label: numeric value", 1, true},
		{"synth label brackets", Oolong, "oolong/synth.jsonl", "1001", "Label: [numeric value]", 1, true},
		{"synth label wrong", Oolong, "oolong/synth.jsonl", "1001", "Label: location", 0, false},
		{"synth label case matters", Oolong, "oolong/synth.jsonl", "1001", "Label: Numeric Value", 0, false},
		{"synth comparison exact", Oolong, "oolong/synth.jsonl", "1003", "Answer: entity is less common than human being", 1, true},
		{"synth comparison short", Oolong, "oolong/synth.jsonl", "1003", "Answer: less common than", 1, true},
		{"synth comparison wrong", Oolong, "oolong/synth.jsonl", "1003", "Answer: entity is more common than human being", 0, false},
		{"synth user", Oolong, "oolong/synth.jsonl", "1004", "User: 10572", 1, true},
		{"synth user not numeric credit", Oolong, "oolong/synth.jsonl", "1004", "User: 10571", 0, false},
		{"synth date", Oolong, "oolong/synth.jsonl", "1005", "Date: Feb 11, 2023", 1, true},
		{"synth date last word", Oolong, "oolong/synth.jsonl", "1005", "The first one is dated 2023-02-11", 1, true}, // a long output without a colon keeps its last word
		{"synth date not last word", Oolong, "oolong/synth.jsonl", "1005", "2023-02-11 is the first such date", 0, false},
		{"synth date iso after colon", Oolong, "oolong/synth.jsonl", "1005", "Date: 2023-02-11", 1, true},
		{"synth date wrong", Oolong, "oolong/synth.jsonl", "1005", "Date: Feb 12, 2023", 0, false},
		// OOLONG-real (dnd).
		{"real count boxed", Oolong, "oolong/real.jsonl", "3952f2d5-0001", `So the total is \boxed{4}.`, 1, true},
		{"real count off by 4", Oolong, "oolong/real.jsonl", "3952f2d5-0001", `\boxed{8}`, 0.31640625, false},
		{"real string case-insensitive", Oolong, "oolong/real.jsonl", "3952f2d5-0003", `\boxed{\text{beau}}`, 1, true},
		{"real list partial", Oolong, "oolong/real.jsonl", "3952f2d5-0004", `\boxed{Blight, Fire Bolt}`, 2.0 / 3, false},
		{"real list full", Oolong, "oolong/real.jsonl", "3952f2d5-0004", `\boxed{Sleep, Blight, Fire Bolt}`, 1, true},
		{"real type mismatch", Oolong, "oolong/real.jsonl", "3952f2d5-0001", `\boxed{four}`, 0, false},
		// OOLONG-Pairs (gold of 3001: six pairs).
		{"pairs all", OolongPairs, "oolong-pairs/pairs.jsonl", "3001", "(10572, 30211), (10572, 44436), (10572, 58814), (30211, 44436), (30211, 58814), (44436, 58814)", 1, true},
		{"pairs reversed order and json", OolongPairs, "oolong-pairs/pairs.jsonl", "3001", "[[30211, 10572], [44436, 10572], [58814, 10572], [44436, 30211], [58814, 30211], [58814, 44436]]", 1, true},
		{"pairs half", OolongPairs, "oolong-pairs/pairs.jsonl", "3001", "(10572, 30211)\n(10572, 44436)\n(10572, 58814)", 2 * 1 * 0.5 / 1.5, false},
		{"pairs one wrong of two", OolongPairs, "oolong-pairs/pairs.jsonl", "3002", "(44436, 72290), (10572, 30211)", 2 * 0.5 * 1 / 1.5, false},
		{"pairs none", OolongPairs, "oolong-pairs/pairs.jsonl", "3002", "no pairs", 0, false},
		{"pairs json gold", OolongPairs, "oolong-pairs/pairs.jsonl", "3003", "(30211, 58814)", 1, true},
		// LongBench-v2.
		{"choice paren", LongBenchV2, "longbench-v2/data.json", "66f36490821e116aacb2cc22", "The retry count is 3. The correct answer is (B)", 1, true},
		{"choice bare", LongBenchV2, "longbench-v2/data.json", "66f36490821e116aacb2cc22", "The correct answer is B.", 1, true},
		{"choice bold", LongBenchV2, "longbench-v2/data.json", "66f36490821e116aacb2cc22", "**The correct answer is (B)**", 1, true},
		{"choice wrong", LongBenchV2, "longbench-v2/data.json", "66f36490821e116aacb2cc22", "The correct answer is (C)", 0, false},
		{"choice unextractable", LongBenchV2, "longbench-v2/data.json", "66f36490821e116aacb2cc22", "B", 0, false},
		// BrowseComp-Plus exact match (the papers grade with a judge).
		{"browse exact line", BrowseCompPlus, "browsecomp-plus/queries.jsonl", "2", "Explanation: the keeper served 41 years [4].\nExact Answer: 41\nConfidence: 90%", 1, true},
		{"browse exact whole", BrowseCompPlus, "browsecomp-plus/queries.jsonl", "3", "marta vidal.", 1, true},
		{"browse variant not exact", BrowseCompPlus, "browsecomp-plus/queries.jsonl", "4", "Exact Answer: 1204 m", 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			task := taskByID(t, tc.suite, tc.file, tc.id)
			got := Score(task, tc.answer)
			if math.Abs(got.Score-tc.score) > 1e-9 || got.Exact != tc.exact || got.Judged {
				t.Fatalf("Score = %+v, want score %v exact %v", got, tc.score, tc.exact)
			}
		})
	}
}

// testJudgePrompt is a grader prompt written for the tests, in the shape
// the published one has (the published text is not shipped).
const testJudgePrompt = "Grade the [response] to [question] against [correct_answer].\n\n[question]: {question}\n\n[response]: {response}\n\n[correct_answer]: {correct_answer}\n\nAnswer with extracted_final_answer, reasoning, correct (yes or no) and confidence."

func TestScoreJudged(t *testing.T) {
	task := taskByID(t, BrowseCompPlus, "browsecomp-plus/queries.jsonl", "4")
	answer := "Explanation: the bridge is 1,204 m long [8].\nExact Answer: 1204 m\nConfidence: 80%"
	for _, tc := range []struct {
		name, reply string
		score       float64
		parseErr    bool
	}{
		{"yes", "extracted_final_answer: 1204 m\n\nreasoning: same length.\n\ncorrect: yes\n\nconfidence: 80", 1, false},
		{"bold no", "**extracted_final_answer:** 1204 m\n**reasoning:** differs\n**correct:** no\n**confidence:** 80%", 0, false},
		{"no verdict", "I cannot tell.", 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var prompt string
			judge := func(_ context.Context, p string) (string, error) { prompt = p; return tc.reply, nil }
			res, err := ScoreJudged(context.Background(), task, answer, JudgeConfig{Prompt: testJudgePrompt, Judge: judge})
			if err != nil {
				t.Fatal(err)
			}
			if !res.Judged || res.Score != tc.score || res.Exact || res.Detail["exact_match"] != false {
				t.Fatalf("res = %+v", res)
			}
			if (res.Detail["judge_parse_error"] == true) != tc.parseErr {
				t.Fatalf("parse error detail = %v", res.Detail["judge_parse_error"])
			}
			for _, want := range []string{"[question]: " + task.Query, "[response]: " + answer, "[correct_answer]: 1,204 metres"} {
				if !strings.Contains(prompt, want) {
					t.Fatalf("prompt lacks %q", want)
				}
			}
		})
	}
	failing := func(context.Context, string) (string, error) { return "", errors.New("down") }
	if _, err := ScoreJudged(context.Background(), task, answer, JudgeConfig{Prompt: testJudgePrompt, Judge: failing}); err == nil {
		t.Fatal("a failing judge gave no error")
	}
	// A judge without its prompt, or a prompt without a placeholder, is
	// refused before anything is asked.
	for _, prompt := range []string{"", "[question]: {question} [response]: {response}"} {
		if _, err := ScoreJudged(context.Background(), task, answer, JudgeConfig{Prompt: prompt, Judge: failing}); fault.KindOf(err) != KindJudgePrompt {
			t.Fatalf("prompt %q: %v, want %s", prompt, err, KindJudgePrompt)
		}
	}
	// Suites the papers score without a judge ignore it.
	lb := taskByID(t, LongBenchV2, "longbench-v2/data.json", "66f36490821e116aacb2cc22")
	res, err := ScoreJudged(context.Background(), lb, "The correct answer is (B)", JudgeConfig{Judge: failing})
	if err != nil || res.Judged || res.Score != 1 {
		t.Fatalf("longbench judged: %+v %v", res, err)
	}
}

func TestNIAH(t *testing.T) {
	task := NIAHTask("n1", "What is the special magic number for amber-falcon?", "…", "4829173")
	if r := Score(task, "It is 4829173."); r.Score != 1 || !r.Exact {
		t.Fatalf("%+v", r)
	}
	two := NIAHTask("n2", "q", "c", "111", "222")
	if r := Score(two, "111"); r.Score != 0.5 || r.Exact {
		t.Fatalf("%+v", r)
	}
}

func TestLongBenchQuery(t *testing.T) {
	task := taskByID(t, LongBenchV2, "longbench-v2/data.json", "66f36490821e116aacb2cc22")
	for _, want := range []string{"How many times does the default client retry", "(A) 1\n(B) 3\n(C) 5\n(D) It never retries", `"The correct answer is (insert answer here)"`} {
		if !strings.Contains(task.Query, want) {
			t.Fatalf("query lacks %q:\n%s", want, task.Query)
		}
	}
}

func TestSynthGold(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"['spam']", "spam"}, {`["it's"]`, "it's"}, {"[12]", "12"}, {"[12, 13]", "12"},
		{"['more common than']", "more common than"}, {"[datetime.date(2023, 1, 5)]", "2023-01-05 00:00:00"},
	} {
		got, _, err := synthGold(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("synthGold(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "[]", "spam", "['unterminated]", "[datetime.date(2023, 2, 30)]", "[x]"} {
		if _, _, err := synthGold(bad); err == nil {
			t.Errorf("synthGold(%q) gave no error", bad)
		}
	}
}

// A limit stops reading: a malformed record after the kept ones is not
// reached (huge files are not read to the end for a few tasks).
func TestLimitStopsReading(t *testing.T) {
	got, err := Load(Oolong, td("oolong/missing_field.jsonl"), Options{Limit: 1})
	if err != nil || len(got) != 1 {
		t.Fatalf("got %d tasks, %v", len(got), err)
	}
	if _, err := Load(Oolong, td("oolong/missing_field.jsonl"), Options{Limit: 2}); !errors.Is(err, KindMalformed) {
		t.Fatalf("err = %v", err)
	}
}

func TestSampleWithinSubset(t *testing.T) {
	got, err := Load(LongBenchV2, td("longbench-v2/data.json"), Options{Subset: "easy", Sample: 2, Seed: 1})
	if err != nil || len(got) != 2 {
		t.Fatalf("got %v, %v", ids(got), err)
	}
	for _, task := range got {
		if task.Meta["difficulty"] != "easy" {
			t.Fatalf("sampled %s outside the subset", task.ID)
		}
	}
	all, _ := Load(LongBenchV2, td("longbench-v2/data.json"), Options{Subset: "easy", Sample: 9, Seed: 1})
	if len(all) != 3 {
		t.Fatalf("a sample larger than the subset kept %d tasks, want 3", len(all))
	}
}

func TestNegativeOptions(t *testing.T) {
	for _, o := range []Options{{Limit: -1}, {Sample: -1}, {Docs: -1}} {
		if _, err := Load(Oolong, td("oolong/synth.jsonl"), o); !errors.Is(err, KindUnknownSuite) {
			t.Fatalf("%+v: err = %v", o, err)
		}
	}
}

// Worked examples built from the rows the dataset cards show.
func TestCardExamples(t *testing.T) {
	// oolong-real card: "Total number of rolls in this episode?" → 84.
	real := Task{Suite: Oolong, Answer: "84", Meta: map[string]string{"split": "real"}}
	// BrowseComp-Plus benchmark page: the bread-making publication.
	bc := taskByID(t, BrowseCompPlus, "browsecomp-plus/queries.jsonl", "1")
	for _, tc := range []struct {
		name   string
		task   Task
		answer string
		score  float64
	}{
		{"real exact", real, `\boxed{84}`, 1},
		{"real off by 4", real, `\boxed{80}`, math.Pow(0.75, 4)},
		{"real unboxed number", real, "84", 1},
		{"real unboxed sentence", real, "There were 84 rolls.", 0},
		{"browse card answer", bc, "Explanation: [1] and [2] name it.\nExact Answer: The Fundamentals of Bread Making: The Science of Bread\nConfidence: 85%", 1},
		{"browse card answer bold", bc, "**Exact Answer:** The Fundamentals of Bread Making: The Science of Bread", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Score(tc.task, tc.answer); math.Abs(got.Score-tc.score) > 1e-12 {
				t.Fatalf("Score = %+v, want %v", got, tc.score)
			}
		})
	}
}
