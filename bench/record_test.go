package bench

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/rlm-go/rlm"
	"github.com/rlm-go/rlm/bench/suite"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
)

// requestsPerTrial counts the requests of each trial (by the trial key its
// context carries) and of all, calling onRequest with the total.
func requestsPerTrial(p model.Provider, counts *sync.Map, total *atomic.Int64, onRequest func(n int64)) model.Provider {
	return model.ProviderFunc(func(ctx context.Context, req model.Request) (*model.Response, error) {
		k, _ := ctx.Value(trialIDKey{}).(string)
		v, _ := counts.LoadOrStore(k, new(atomic.Int64))
		v.(*atomic.Int64).Add(1)
		n := total.Add(1)
		if onRequest != nil {
			onRequest(n)
		}
		return p.Complete(ctx, req)
	})
}

// copyFile copies src to a new file in dir.
func copyFile(t *testing.T, src, dir string) string {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(dir, filepath.Base(src))
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

// longBenchAnswers answers four of the five LongBench-v2 samples right.
func longBenchAnswers() map[string]string {
	const right = "The correct answer is (%s)"
	return map[string]string{
		"How many times does the default client retry": strings.Replace(right, "%s", "B", 1),
		"Which backoff does the default policy use?":   strings.Replace(right, "%s", "C", 1),
		"What does the paper's method store outside":   strings.Replace(right, "%s", "A", 1),
		"Which city has the largest population":        strings.Replace(right, "%s", "B", 1),
		"Who proposed meeting on Friday?":              strings.Replace(right, "%s", "A", 1),
	}
}

// comparable is rep's JSON without what a replay may change: latencies,
// and the replayed label.
func comparable(t *testing.T, rep *Report) string {
	t.Helper()
	c := *rep
	c.Replayed, c.Notice = false, ""
	c.Trials = append([]Trial(nil), rep.Trials...)
	for i := range c.Trials {
		c.Trials[i].LatencyMS = 0
	}
	c.summarize(methodsOf(c.Trials))
	b, err := json.MarshalIndent(c, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func methodsOf(trials []Trial) []Method {
	var ms []Method
	for _, tr := range trials {
		if !slices.Contains(ms, tr.Method) {
			ms = append(ms, tr.Method)
		}
	}
	return ms
}

// A recorded run replays offline, trial by trial from its cassettes, to
// the same report: scores and costs bit for bit. Both suites are read
// from files (one judged with a model, whose calls are recorded with the
// trial's), the generated tasks from their seeds.
func TestRecordReplay(t *testing.T) {
	bc := filepath.Join("suite", "testdata", "browsecomp-plus", "queries.jsonl")
	cases := []struct {
		name string
		cfg  Config
	}{
		{"longbench-v2", Config{Suite: suite.LongBenchV2, Data: filepath.Join("suite", "testdata", "longbench-v2", "data.json"),
			Provider: scriptedCostModel(longBenchAnswers(), nil), Methods: []Method{MethodRLM, MethodDirect, MethodRLMCode}, MaxConcurrency: 3}},
		{"browsecomp-judged", Config{Suite: suite.BrowseCompPlus, Data: bc, SuiteOptions: withCorpus(suite.Options{Limit: 3}),
			Judge: &suite.JudgeConfig{Prompt: "Q {question} R {response} A {correct_answer}"}, JudgeModel: "gpt-4o-mini",
			Provider: scriptedCostModel(map[string]string{"Q ": "correct: yes"}, nil), Methods: []Method{MethodDirect}}},
		{"niah", Config{Task: KindNIAH, Size: 2000, Runs: 3, Seed: 7, Provider: scriptedCostModel(nil, nil), Methods: []Method{MethodRLM, MethodDirect}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			cfg := c.cfg
			cfg.Model, cfg.SubModel, cfg.Record = "gpt-4o", "gpt-4o-mini", dir
			rep, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			m, err := ReadManifest(dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(m.Trials) != len(rep.Trials) || m.Model != "gpt-4o" || m.RLMVersion == "" {
				t.Fatalf("manifest: %d trials (report %d), model %q, version %q", len(m.Trials), len(rep.Trials), m.Model, m.RLMVersion)
			}
			if cfg.Suite != "" && (len(m.Inputs) == 0 || len(m.Inputs[0].SHA256) != 64) {
				t.Fatalf("manifest inputs %+v", m.Inputs)
			}
			for _, tr := range m.Trials {
				if tr.Requests == 0 {
					t.Fatalf("trial %+v recorded no request", tr)
				}
			}
			if cfg.Judge != nil && m.Trials[0].Requests != 2 {
				t.Fatalf("judged trial: %d requests recorded, want the answer and the judge's", m.Trials[0].Requests)
			}
			var last Progress
			again, err := Replay(context.Background(), dir, ReplayOptions{MaxConcurrency: 2, Progress: func(p Progress) { last = p }})
			if err != nil {
				t.Fatal(err)
			}
			if last.Done != len(rep.Trials) || last.Total != len(rep.Trials) {
				t.Fatalf("replay progress %+v, want %d trials done of %[2]d", last, len(rep.Trials))
			}
			if !again.Replayed || again.Notice != ReplayNotice {
				t.Fatalf("a replay must be labelled: %v %q", again.Replayed, again.Notice)
			}
			if a, b := comparable(t, rep), comparable(t, again); a != b {
				t.Fatalf("replay differs:\nrecorded %s\nreplayed %s", a, b)
			}
			saved, err := ReadReport(filepath.Join(dir, ReportFile))
			if err != nil {
				t.Fatal(err)
			}
			if comparable(t, saved) != comparable(t, rep) {
				t.Fatal("report.json is not the run's report")
			}
		})
	}
}

// A recorded run whose input file, cassette or manifest is missing or
// altered does not replay: the typed error names the file.
func TestReplayRefusesChangedFiles(t *testing.T) {
	record := func(t *testing.T) (dir, data string) {
		dir, data = t.TempDir(), copyFile(t, filepath.Join("suite", "testdata", "longbench-v2", "data.json"), t.TempDir())
		_, err := Run(context.Background(), Config{Suite: suite.LongBenchV2, Data: data, SuiteOptions: suite.Options{Limit: 2},
			Provider: scriptedCostModel(longBenchAnswers(), nil), Model: "gpt-4o", Methods: []Method{MethodDirect}, Record: dir})
		if err != nil {
			t.Fatal(err)
		}
		return dir, data
	}
	cassette := filepath.Join(CassetteDir, "trial-00001-direct.json")
	cases := []struct {
		name   string
		change func(t *testing.T, dir, data string) string // the file the error names
		kind   fault.Kind
	}{
		{"data missing", func(t *testing.T, _, data string) string { os.Remove(data); return data }, KindRecordMissing},
		{"data altered", func(t *testing.T, _, data string) string { appendTo(t, data, " "); return data }, KindRecordAltered},
		{"cassette missing", func(t *testing.T, dir, _ string) string {
			os.Remove(filepath.Join(dir, cassette))
			return filepath.Join(dir, cassette)
		}, KindRecordMissing},
		{"cassette altered", func(t *testing.T, dir, _ string) string {
			appendTo(t, filepath.Join(dir, cassette), "\n")
			return filepath.Join(dir, cassette)
		}, KindRecordAltered},
		{"manifest missing", func(t *testing.T, dir, _ string) string {
			os.Remove(filepath.Join(dir, ManifestFile))
			return filepath.Join(dir, ManifestFile)
		}, KindRecordMissing},
		{"manifest invalid", func(t *testing.T, dir, _ string) string {
			appendTo(t, filepath.Join(dir, ManifestFile), "{")
			return filepath.Join(dir, ManifestFile)
		}, KindRecordInvalid},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir, data := record(t)
			file := c.change(t, dir, data)
			_, err := Replay(context.Background(), dir, ReplayOptions{})
			if fault.KindOf(err) != c.kind {
				t.Fatalf("err %v, want kind %s", err, c.kind)
			}
			if got := fault.As(err).Detail["file"]; got != file {
				t.Fatalf("error names %v, want %s", got, file)
			}
		})
	}
	// The data may be read from elsewhere, if it is the same file.
	dir, data := record(t)
	moved := copyFile(t, data, t.TempDir())
	os.Remove(data)
	if _, err := Replay(context.Background(), dir, ReplayOptions{Data: moved}); err != nil {
		t.Fatal(err)
	}
}

func appendTo(t *testing.T, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
}

// An interrupted 50-trial run resumes with the same configuration plus
// Resume: no finished trial's request is sent again, and the report
// equals an uninterrupted run's.
func TestResumeSendsNoFinishedTrialAgain(t *testing.T) {
	base := Config{Task: KindAggregate, Size: 1500, Runs: 25, Seed: 3, Model: "gpt-4o", SubModel: "gpt-4o-mini",
		Methods: []Method{MethodRLM, MethodDirect}}
	var counts sync.Map
	var total atomic.Int64

	whole := base
	whole.Provider = requestsPerTrial(scriptedCostModel(nil, nil), &counts, &total, nil)
	want, err := Run(context.Background(), whole)
	if err != nil {
		t.Fatal(err)
	}
	if len(want.Trials) != 50 {
		t.Fatalf("%d trials", len(want.Trials))
	}

	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	counts, total = sync.Map{}, atomic.Int64{}
	cut := base
	cut.Record, cut.MaxConcurrency = dir, 3
	cut.Provider = requestsPerTrial(scriptedCostModel(nil, nil), &counts, &total, func(n int64) {
		if n == 20 {
			cancel()
		}
	})
	part, err := Run(ctx, cut)
	if fault.KindOf(err) != fault.KindCancelled {
		t.Fatalf("interrupted run: %v", err)
	}
	journal, err := readJournal(filepath.Join(dir, JournalFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(journal) == 0 || len(journal) >= 50 || len(part.Trials) < len(journal) {
		t.Fatalf("%d trials finished before the interruption, %d reported", len(journal), len(part.Trials))
	}

	// The interrupted record replays what it holds: its finished trials.
	var last Progress
	partial, err := Replay(context.Background(), dir, ReplayOptions{Progress: func(p Progress) { last = p }})
	if err != nil || len(partial.Trials) != len(journal) || last.Done != len(journal) || last.Total != len(journal) {
		t.Fatalf("replay of the interrupted record: %v, %d trials, progress %+v", err, len(partial.Trials), last)
	}

	var resumed []Progress
	counts = sync.Map{}
	res := base
	res.Record, res.Resume, res.MaxConcurrency = dir, true, 2
	res.Provider = requestsPerTrial(scriptedCostModel(nil, nil), &counts, &total, nil)
	res.Progress = func(p Progress) { resumed = append(resumed, p) }
	got, err := Run(context.Background(), res)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range journal {
		if v, ok := counts.Load(trialKey(e.Run, e.Method)); ok {
			t.Errorf("finished trial %d/%s sent %d requests again", e.Run, e.Method, v.(*atomic.Int64).Load())
		}
	}
	if n := 0; true {
		counts.Range(func(any, any) bool { n++; return true })
		if n != 50-len(journal) {
			t.Errorf("%d trials ran on resume, want %d", n, 50-len(journal))
		}
	}
	if a, b := comparable(t, want), comparable(t, got); a != b {
		t.Fatalf("resumed report differs from the uninterrupted run's:\n%s\n%s", a, b)
	}
	last = resumed[len(resumed)-1]
	if len(resumed) != 50 || last.Done != 50 || last.Total != 50 || last.Resumed != len(journal) {
		t.Fatalf("progress: %d reports, last %+v", len(resumed), last)
	}
	// The resumed record replays whole.
	if _, err := Replay(context.Background(), dir, ReplayOptions{}); err != nil {
		t.Fatal(err)
	}

	// Resuming again with another configuration is refused, as is
	// recording over a run.
	other := res
	other.Seed = 4
	if _, err := Run(context.Background(), other); fault.KindOf(err) != KindResumeMismatch || fault.As(err).Detail["field"] != "seed" {
		t.Fatalf("resume with another seed: %v", err)
	}
	again := res
	again.Resume = false
	if _, err := Run(context.Background(), again); fault.KindOf(err) != KindRecordExists {
		t.Fatalf("record over a run: %v", err)
	}
	again.Record = ""
	again.Resume = true
	if _, err := Run(context.Background(), again); fault.KindOf(err) != KindInvalidTask {
		t.Fatalf("resume without a record: %v", err)
	}
}

// A torn last journal line (a crash while it was written) is ignored;
// any other bad line is an error naming the file and line.
func TestReadJournal(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, JournalFile)
	line := `{"run":0,"method":"rlm","seed":1,"cassette":"cassettes/a.json","cassette_sha256":"x","requests":1,"result":{"method":"rlm","run":0,"seed":1,"status":"ok","score":1,"answer":"","expected":"","usage":{},"latency_ms":0}}`
	os.WriteFile(path, []byte(line+"\n"+line[:40]), 0o644)
	es, err := readJournal(path)
	if err != nil || len(es) != 1 || es[0].Result.Score != 1 {
		t.Fatalf("%v %+v", err, es)
	}
	os.WriteFile(path, []byte("{}\n"+line+"\n"), 0o644)
	if _, err := readJournal(path); fault.KindOf(err) != KindRecordInvalid || fault.As(err).Detail["line"] != 1 {
		t.Fatalf("%v", err)
	}
}

// Trials run concurrently are reported in the same order, with the same
// figures, as one by one: here the first trial's request and the
// fourth's wait for each other, so they are in flight together and the
// fourth finishes first.
func TestConcurrentTrialsKeepOrder(t *testing.T) {
	base := Config{Task: KindNIAH, Size: 1500, Runs: 4, Seed: 11, Model: "gpt-4o", Methods: []Method{MethodDirect}}
	seq := base
	seq.Provider = scriptedCostModel(nil, nil)
	want, err := Run(context.Background(), seq)
	if err != nil {
		t.Fatal(err)
	}
	first, fourth := make(chan struct{}), make(chan struct{})
	var inFlight, peak atomic.Int64
	par := base
	par.MaxConcurrency = 4
	next := scriptedCostModel(nil, nil)
	par.Provider = model.ProviderFunc(func(ctx context.Context, req model.Request) (*model.Response, error) {
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
		}
		switch ctx.Value(trialIDKey{}) {
		case trialKey(0, MethodDirect):
			close(first)
			<-fourth
		case trialKey(3, MethodDirect):
			<-first // both in flight now
			close(fourth)
		}
		return next.Complete(ctx, req)
	})
	got, err := Run(context.Background(), par)
	if err != nil {
		t.Fatal(err)
	}
	if peak.Load() < 2 || peak.Load() > 4 {
		t.Fatalf("peak in flight %d", peak.Load())
	}
	if a, b := comparable(t, want), comparable(t, got); a != b {
		t.Fatalf("concurrent report differs:\n%s\n%s", a, b)
	}
	if _, err := Run(context.Background(), Config{Task: KindNIAH, Size: 1500, Provider: next, MaxConcurrency: -1}); fault.KindOf(err) != KindInvalidTask {
		t.Fatalf("negative concurrency: %v", err)
	}
}

// A model's rate limit holds its requests; another model's are not
// held by it. Without waiting: a second request inside the minute of a
// 1-per-minute limit would wait past its context's deadline, so it fails
// at once without being sent.
func TestRateLimit(t *testing.T) {
	var sent sync.Map
	next := model.ProviderFunc(func(_ context.Context, req model.Request) (*model.Response, error) {
		v, _ := sent.LoadOrStore(req.Model, new(atomic.Int64))
		v.(*atomic.Int64).Add(1)
		return &model.Response{Text: "ok"}, nil
	})
	p := limited(next, map[string]float64{"slow": 1, RateLimitAny: 1}, "slow")
	ctx, cancel := context.WithTimeout(context.Background(), 30e9)
	defer cancel()
	for i, c := range []struct {
		model string
		ok    bool
	}{{"slow", true}, {"slow", false}, {"", false}, {"other", true}, {"other", false}} {
		_, err := p.Complete(ctx, model.Request{Model: c.model})
		if (err == nil) != c.ok {
			t.Fatalf("request %d (%q): %v, want ok %v", i, c.model, err, c.ok)
		}
	}
	for m, want := range map[string]int64{"slow": 1, "other": 1} {
		if v, _ := sent.Load(m); v.(*atomic.Int64).Load() != want {
			t.Fatalf("%s: %d sent", m, v.(*atomic.Int64).Load())
		}
	}
	for _, bad := range []string{"gpt=0", "gpt", "=5", "gpt=-1", "gpt=x", "gpt=+Inf"} {
		if _, _, err := ParseRateLimit(bad); fault.KindOf(err) != KindInvalidTask {
			t.Errorf("%q: %v", bad, err)
		}
	}
	if m, rpm, err := ParseRateLimit("openai/gpt-5=500"); err != nil || m != "openai/gpt-5" || rpm != 500 {
		t.Fatalf("%q %v %v", m, rpm, err)
	}
}

// The manifest keeps no credentials a URL carries.
func TestPublicArg(t *testing.T) {
	for in, want := range map[string]string{
		"--base-url=https://user:key@host/v1?key=k": "--base-url=https://host/v1",
		"https://user:key@host/v1#x":                "https://host/v1",
		"--model":                                   "--model",
		"gpt-4o":                                    "gpt-4o",
	} {
		if got := publicArg(in); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}

// A session whose response cache is on cannot record trial by trial: a
// response the cache answered would be missing from the trial's
// cassette. Nothing is sent and no directory is written.
func TestRecordRefusesCachedSession(t *testing.T) {
	data := filepath.Join("suite", "testdata", "longbench-v2", "data.json")
	var sent atomic.Int64
	p := requestsPerTrial(scriptedCostModel(longBenchAnswers(), nil), &sync.Map{}, &sent, nil)
	sess, err := rlm.Open(context.Background(), rlm.Spec{Model: "gpt-4o"}, rlm.WithProvider(p))
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	dir := filepath.Join(t.TempDir(), "rec")
	_, err = Run(context.Background(), Config{Suite: suite.LongBenchV2, Data: data, SuiteOptions: suite.Options{Limit: 1},
		Session: sess, Methods: []Method{MethodDirect}, Record: dir})
	if fault.KindOf(err) != KindInvalidTask {
		t.Fatalf("err = %v, want %s", err, KindInvalidTask)
	}
	if sent.Load() != 0 {
		t.Fatalf("%d requests sent", sent.Load())
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("the record directory was written: %v", err)
	}
}
