package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/openai"
	"github.com/rlm-go/rlm/model/replay"
)

// Parameters of the scripted benchmark cassettes in testdata.
const (
	benchModel = "gpt-4o-mini"
	benchSize  = 3000
	benchRuns  = 2
	benchSeed  = 2
)

func benchReply(name, match, content string, prompt, compl int) replay.Interaction {
	return replay.Interaction{Name: name, Match: &replay.Match{Contains: match}, Response: completion(content, benchModel, prompt, compl)}
}

// directAnswer is what the scripted direct method answers: right for
// needles and labels, off by one for counts, half of the pairs.
func directAnswer(task *Task) string {
	switch task.Expected.Form {
	case FormCount:
		return fmt.Sprint(task.Expected.Count + 1)
	case FormPairs:
		half := task.Expected
		half.Pairs = half.Pairs[:(len(half.Pairs)+1)/2]
		return half.String()
	}
	return task.Expected.String()
}

// benchScript scripts one trial of both methods: the RLM explores with
// plans (search, counts), the direct call answers in one reply.
func benchScript(task *Task) []replay.Interaction {
	q := "Query: " + task.Query
	tag := fmt.Sprintf("seed %d", task.Seed)
	label := func() string {
		i := strings.LastIndex(task.Query, "label=")
		return task.Query[i : i+len("label=")+7]
	}
	var rlm []replay.Interaction
	switch task.Expected.Form {
	case FormValue:
		key := strings.TrimSuffix(strings.Split(task.Query, " for ")[1], " mentioned in the context? Answer with the number only.")
		rlm = append(rlm, benchReply("rlm search", q, steps(search("magic numbers for "+key, "hits"), final(field(index(ref("hits"), 0), "value"))), 1200, 60))
	case FormCount:
		rlm = append(rlm, benchReply("rlm count", q, steps(
			ctxOp(obj{"type": "search", "pattern": label(), "count_only": true}, "n"), final(ref("n"))), 1200, 50))
	case FormLabel:
		var s []obj
		for _, l := range recordLabels {
			s = append(s, ctxOp(obj{"type": "search", "pattern": "label=" + l, "count_only": true}, "count_"+l))
		}
		s = append(s, obj{"op": "checkpoint", "label": tag + " counted"})
		rlm = append(rlm, benchReply("rlm counts", q, steps(s...), 1200, 200),
			benchReply("rlm answers", tag+" counted", js(obj{"answer": task.Expected.Value}), 1500, 10))
	case FormPairs:
		rlm = append(rlm, benchReply("rlm lists", q, steps(search(label(), "hits"), obj{"op": "checkpoint", "label": tag + " listed"}), 1200, 60),
			benchReply("rlm answers", tag+" listed", js(obj{"answer": task.Expected.String()}), 2500, 80))
	}
	direct := benchReply("direct", "Question: "+task.Query, directAnswer(task), len(task.Context)/4+80, 20)
	return append(rlm, direct)
}

func benchCassettePath(k Kind) string { return filepath.Join("testdata", "bench_"+string(k)+".json") }

// The scripted benchmark cassettes are what benchScript produces.
func TestBenchCassettes(t *testing.T) {
	for _, k := range Kinds() {
		var inter []replay.Interaction
		for i := range benchRuns {
			task, err := Generate(k, benchSize, benchSeed+uint64(i))
			if err != nil {
				t.Fatal(err)
			}
			inter = append(inter, benchScript(task)...)
		}
		checkFile(t, benchCassettePath(k), marshalCassette(t, inter))
	}
}

// replayProvider serves a cassette file through the real HTTP provider.
func replayProvider(t *testing.T, path string) model.Provider {
	t.Helper()
	cas, err := replay.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return cassetteProvider(t, cas)
}

func cassetteProvider(t *testing.T, cas *replay.Cassette) model.Provider {
	t.Helper()
	srv := replay.NewServer(cas)
	t.Cleanup(srv.Close)
	p, err := openai.New(openai.Config{Name: "replay", BaseURL: srv.BaseURL(), Model: benchModel, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRunOverCassettes(t *testing.T) {
	for _, k := range Kinds() {
		t.Run(string(k), func(t *testing.T) {
			rep, err := Run(context.Background(), Config{
				Task: k, Size: benchSize, Runs: benchRuns, Seed: benchSeed,
				Provider: replayProvider(t, benchCassettePath(k)), Model: benchModel, Replayed: true,
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Trials) != 2*benchRuns || len(rep.Summaries) != 2 || rep.Notice != ReplayNotice {
				t.Fatalf("%d trials, %d summaries, notice %q", len(rep.Trials), len(rep.Summaries), rep.Notice)
			}
			wantDirect := 0.0
			for i := range benchRuns {
				task, _ := Generate(k, benchSize, benchSeed+uint64(i))
				wantDirect += task.Score(directAnswer(task)) / benchRuns
			}
			for _, tr := range rep.Trials {
				if tr.Status != StatusOK || tr.Usage.TotalTokens == 0 || !tr.Usage.CostEstimated || tr.Usage.CostUSD <= 0 {
					t.Fatalf("trial %+v", tr)
				}
			}
			rlm, direct := rep.Summaries[0], rep.Summaries[1]
			if rlm.Method != MethodRLM || *rlm.Accuracy != 1 || rlm.OK != benchRuns {
				t.Fatalf("rlm %+v", rlm)
			}
			if direct.Method != MethodDirect || math.Abs(*direct.Accuracy-wantDirect) > 1e-12 {
				t.Fatalf("direct accuracy %v, want %v", *direct.Accuracy, wantDirect)
			}
			if rlm.Tokens.N != benchRuns || rlm.Tokens.Mean <= 0 || rlm.CostUSD.P25 > rlm.CostUSD.P75 || !rlm.CostEstimated {
				t.Fatalf("rlm stats %+v", rlm)
			}
			var b strings.Builder
			if err := WriteTable(&b, rep); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			for _, want := range []string{"NOTE: " + ReplayNotice, "task " + string(k), "rlm     2       2   0       0        1.000", "cost estimated"} {
				if !strings.Contains(out, want) {
					t.Errorf("table lacks %q:\n%s", want, out)
				}
			}
			if _, err := json.Marshal(rep); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// A context above DirectMaxBytes skips the direct method: not attempted,
// not scored, and said so.
func TestRunSkipsDirectWhenTooLarge(t *testing.T) {
	rep, err := Run(context.Background(), Config{
		Task: KindNIAH, Size: benchSize, Runs: benchRuns, Seed: benchSeed, DirectMaxBytes: 1000,
		Provider: replayProvider(t, benchCassettePath(KindNIAH)), Model: benchModel,
	})
	if err != nil {
		t.Fatal(err)
	}
	d := rep.Summaries[1]
	if d.Skipped != benchRuns || d.Accuracy != nil || d.Tokens.N != 0 {
		t.Fatalf("direct %+v", d)
	}
	for _, tr := range rep.Trials {
		if tr.Method == MethodDirect && (tr.Status != StatusSkipped || tr.SkipReason != SkipContextTooLarge) {
			t.Fatalf("trial %+v", tr)
		}
	}
	var b strings.Builder
	_ = WriteTable(&b, rep)
	if !strings.Contains(b.String(), "skipped: the context exceeds --direct-max-bytes (1000)") || strings.Contains(b.String(), ReplayNotice) {
		t.Fatalf("table:\n%s", b.String())
	}
	raw, _ := json.Marshal(d)
	if !strings.Contains(string(raw), `"accuracy":null`) {
		t.Fatalf("json %s", raw)
	}
}

// Failing methods score 0 and carry their typed error.
func TestRunRecordsFailures(t *testing.T) {
	rep, err := Run(context.Background(), Config{
		Task: KindAggregate, Size: benchSize, Runs: 1, Seed: 5,
		Provider: cassetteProvider(t, &replay.Cassette{Version: replay.Version}), Model: benchModel,
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range rep.Summaries {
		if s.Failed != 1 || *s.Accuracy != 0 {
			t.Fatalf("%+v", s)
		}
	}
	for _, tr := range rep.Trials {
		if tr.Error == nil || tr.Error.Kind != model.KindHTTPStatus || tr.Usage.Calls == 0 {
			t.Fatalf("trial %+v", tr)
		}
	}
}

func TestRunRejectsBadConfig(t *testing.T) {
	p := cassetteProvider(t, &replay.Cassette{Version: replay.Version})
	cases := []Config{
		{Task: "haystack", Size: 1000, Provider: p},
		{Task: KindNIAH, Size: 10, Provider: p},
		{Task: KindNIAH, Size: 1000},
		{Task: KindNIAH, Size: 1000, Provider: p, Runs: -1},
		{Task: KindNIAH, Size: 1000, Provider: p, Methods: []Method{"oracle"}},
	}
	for i, c := range cases {
		if _, err := Run(context.Background(), c); fault.KindOf(err) != KindInvalidTask {
			t.Errorf("case %d: %v", i, err)
		}
	}
}

func TestRunCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Run(ctx, Config{Task: KindNIAH, Size: 1000, Provider: cassetteProvider(t, &replay.Cassette{Version: replay.Version})})
	if fault.KindOf(err) != fault.KindCancelled {
		t.Fatalf("%v", err)
	}
}
