package bench

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/model/replay"
)

// Harness proofs of code mode: scripted cassettes in which the root model
// writes code that computes the aggregate and pairs answers exactly from
// the context, at 1 MB and 10 MB, with no sub-calls at all (the code
// counts, filters and joins; the context is never read by a model). Each
// second turn is served only when the first turn's printed output carries
// the exact figures, so the cassette proves what the code computed. Like
// every replayed figure, they prove the harness, not a model.

var codeProofSizes = []struct {
	name string
	size int
}{{"1mb", 1_000_000}, {"10mb", 10_000_000}}

func codeProofPath(k Kind, size string) string {
	return filepath.Join("testdata", "bench_code_"+string(k)+"_"+size+".json")
}

// codeScript scripts one code-mode trial of task: an inspecting and
// computing turn, then the answer from a variable.
func codeScript(task *Task) []replay.Interaction {
	q := "Query: " + task.Query
	var first, second, seen string
	switch task.Expected.Form {
	case FormLabel, FormCount:
		counts := map[string]int{}
		total := 0
		for _, l := range recordLabels {
			counts[l] = strings.Count(task.Context, "label="+l+" ")
			total += counts[l]
		}
		lines := []string{
			`print(len(context), "bytes;", context[:80])`,
			`labels = [` + quoteAll(recordLabels) + `]`,
			`counts = {}`,
			`total = 0`,
			`for lab in labels:`,
			`    counts[lab] = context.count("label=" + lab + " ")`,
			`    total += counts[lab]`,
			`best = labels[0]`,
			`for lab in labels:`,
			`    if counts[lab] > counts[best]:`,
			`        best = lab`,
			`print("records:", total, "most frequent:", best)`,
		}
		if task.Expected.Form == FormLabel {
			seen = fmt.Sprintf("records: %d most frequent: %s", total, task.Expected.Value)
			second = pyCell(`FINAL(best)`)
		} else {
			target := targetLabel(task)
			lines = append(lines, `target = "`+target+`"`, `print("count of", target + ":", counts[target])`)
			seen = fmt.Sprintf("count of %s: %d", target, task.Expected.Count)
			second = pyCell(`FINAL(counts[target])`)
		}
		first = "I will count the labels in code.\n" + pyCell(lines...)
	case FormPairs:
		target := targetLabel(task)
		n := strings.Count(task.Context, "label="+target+" ")
		first = "I will collect the " + target + " records and join them by city in code.\n" + pyCell(
			`pattern = "label=`+target+` "`,
			`n = context.count(pattern)`,
			`hits = context.search(pattern)`,
			`by_city = {}`,
			`for h in hits:`,
			`    fields = h["text"].split(" ")`,
			`    by_city.setdefault(fields[2][5:], []).append(int(fields[0][3:]))`,
			`pairs = []`,
			`for city in sorted(by_city.keys()):`,
			`    ids = sorted(by_city[city])`,
			`    for i in range(len(ids)):`,
			`        for j in range(i + 1, len(ids)):`,
			`            pairs.append("(%d, %d)" % (ids[i], ids[j]))`,
			`print("records:", len(hits), "of", n, "pairs:", len(pairs))`)
		seen = fmt.Sprintf("records: %d of %d pairs: %d", n, n, len(task.Expected.Pairs))
		second = pyCell(`FINAL(" ".join(pairs))`)
	}
	return []replay.Interaction{
		benchReply("rlm-code computes", q, first, 1800, 220),
		benchReply("rlm-code answers after seeing the figures", seen, second, 2300, 20),
	}
}

func quoteAll(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = `"` + x + `"`
	}
	return strings.Join(q, ", ")
}

func targetLabel(task *Task) string {
	i := strings.LastIndex(task.Query, "label=")
	return task.Query[i+len("label=") : i+len("label=")+7]
}

func TestCodeProofCassettes(t *testing.T) {
	for _, k := range []Kind{KindAggregate, KindPairs} {
		for _, sz := range codeProofSizes {
			t.Run(string(k)+"_"+sz.name, func(t *testing.T) {
				t.Parallel() // each writes or reads a cassette of its own
				var inter []replay.Interaction
				for i := range benchRuns {
					task, err := Generate(k, sz.size, benchSeed+uint64(i))
					if err != nil {
						t.Fatal(err)
					}
					inter = append(inter, codeScript(task)...)
				}
				checkFile(t, codeProofPath(k, sz.name), marshalCassette(t, inter))
			})
		}
	}
}

// Code mode solves aggregate and pairs exactly at 1 MB and 10 MB with two
// root turns, no sub-calls and a handful of context operations.
func TestCodeModeSolvesAggregateAndPairs(t *testing.T) {
	for _, k := range []Kind{KindAggregate, KindPairs} {
		for _, sz := range codeProofSizes {
			t.Run(string(k)+"_"+sz.name, func(t *testing.T) {
				t.Parallel() // CPU-bound and independent: the 10 MB runs share the cores
				if sz.size > 1_000_000 && testing.Short() {
					t.Skip("10 MB contexts in -short mode")
				}
				rep, err := Run(context.Background(), Config{
					Task: k, Size: sz.size, Runs: benchRuns, Seed: benchSeed, Methods: []Method{MethodRLMCode},
					Provider: replayProvider(t, codeProofPath(k, sz.name)), Model: benchModel, Replayed: true,
				})
				if err != nil {
					t.Fatal(err)
				}
				s := rep.Summaries[0]
				if s.Method != MethodRLMCode || s.OK != benchRuns || *s.Accuracy != 1 || rep.Notice != ReplayNotice {
					t.Fatalf("%+v %+v", s, rep.Trials)
				}
				for _, tr := range rep.Trials {
					// Two root turns, no sub-calls, whatever the size.
					if tr.Usage.Calls != 2 || tr.Turns != 2 || tr.MaxDepth != 0 {
						t.Fatalf("trial %+v", tr)
					}
				}
			})
		}
	}
}
