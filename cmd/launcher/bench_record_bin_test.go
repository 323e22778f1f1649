package launcher

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// benchTrials is the part of a bench report the record tests compare.
type benchTrials struct {
	Replayed bool `json:"replayed"`
	Trials   []struct {
		Method string  `json:"method"`
		Run    int     `json:"run"`
		Status string  `json:"status"`
		Score  float64 `json:"score"`
		Usage  struct {
			TotalTokens int64   `json:"total_tokens"`
			CostUSD     float64 `json:"cost_usd"`
		} `json:"usage"`
	} `json:"trials"`
}

func parseTrials(t *testing.T, res binResult) benchTrials {
	t.Helper()
	var b benchTrials
	if err := json.Unmarshal([]byte(res.stdout), &b); err != nil || res.code != 0 {
		t.Fatalf("exit %d, %v: stdout %s stderr %s", res.code, err, res.stdout, res.stderr)
	}
	return b
}

// sameTrials fails unless a and b hold the same trials with the same
// status, score and cost, bit for bit.
func sameTrials(t *testing.T, a, b benchTrials) {
	t.Helper()
	if len(a.Trials) != len(b.Trials) || len(a.Trials) == 0 {
		t.Fatalf("%d trials against %d", len(a.Trials), len(b.Trials))
	}
	for i := range a.Trials {
		x, y := a.Trials[i], b.Trials[i]
		if x.Method != y.Method || x.Run != y.Run || x.Status != y.Status || x.Score != y.Score || x.Usage != y.Usage {
			t.Fatalf("trial %d: %+v against %+v", i, x, y)
		}
	}
}

// rlm bench run --record DIR keeps a replayable run: rlm bench replay DIR
// runs it again with no key and no server, to the same scores and costs;
// an altered input file is refused, naming it. The progress goes to
// stderr with --progress, never into the JSON on stdout.
func TestBenchRecordReplayBinary(t *testing.T) {
	t.Parallel()
	srv := choiceServer("B")
	data := copyInto(t, filepath.Join("..", "..", "bench", "suite", "testdata", "longbench-v2", "data.json"), t.TempDir())
	dir := filepath.Join(t.TempDir(), "run1")
	env := binaryEnv("OPENAI_API_KEY=sk-test", "RLM_BASE_URL="+srv.URL+"/v1")
	rec := runBinary(t, nil, env, "bench", "run", "--suite", "longbench-v2", "--data", data, "--model", "gpt-4o", "--record", dir,
		"--max-concurrent-trials", "3", "--rate-limit", "*=60000", "--progress", "--json")
	recorded := parseTrials(t, rec)
	if len(recorded.Trials) != 10 || !strings.Contains(rec.stderr, "rlm bench: 10/10 trials") {
		t.Fatalf("%d trials; stderr %s", len(recorded.Trials), rec.stderr)
	}
	for _, f := range []string{"manifest.json", "journal.jsonl", "report.json", "cassettes/trial-00004-direct.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Fatal(err)
		}
	}
	srv.Close()

	// Offline: no key, the server gone.
	rep := runBinary(t, nil, binaryEnv("RLM_BASE_URL="+srv.URL+"/v1"), "bench", "replay", dir, "--json")
	replayed := parseTrials(t, rep)
	if !replayed.Replayed || !strings.Contains(rep.stderr, "10 trial(s) replayed offline") {
		t.Fatalf("replayed %v; stderr %s", replayed.Replayed, rep.stderr)
	}
	sameTrials(t, recorded, replayed)
	if txt := runBinary(t, nil, nil, "bench", "replay", dir); txt.code != 0 || !strings.Contains(txt.stdout, "NOTE: replayed responses") {
		t.Fatalf("text replay: exit %d: %s %s", txt.code, txt.stdout, txt.stderr)
	}

	// An altered input file, a missing cassette: typed errors naming the file, exit 1.
	if err := os.WriteFile(data, append(mustRead(t, data), ' '), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := runBinary(t, nil, nil, "bench", "replay", dir, "--json")
	if bad.code != 1 || !strings.Contains(bad.stdout+bad.stderr, "bench_record_altered") || !strings.Contains(bad.stdout+bad.stderr, "data.json") {
		t.Fatalf("altered data: exit %d: %s %s", bad.code, bad.stdout, bad.stderr)
	}
	orig := filepath.Join("..", "..", "bench", "suite", "testdata", "longbench-v2", "data.json")
	os.Remove(filepath.Join(dir, "cassettes", "trial-00002-rlm.json"))
	bad = runBinary(t, nil, nil, "bench", "replay", dir, "--data", orig)
	if bad.code != 1 || !strings.Contains(bad.stdout+bad.stderr, "bench_record_missing") || !strings.Contains(bad.stdout+bad.stderr, "trial-00002-rlm.json") {
		t.Fatalf("missing cassette: exit %d: %s %s", bad.code, bad.stdout, bad.stderr)
	}
	if res := runBinary(t, nil, nil, "bench", "replay"); res.code != 2 {
		t.Fatalf("replay without DIR: exit %d", res.code)
	}
}

// The same command plus --resume continues a run from its journal: the
// trials it holds send no request; only the others do. Here the journal
// is cut after six of ten trials, as an interruption leaves it.
func TestBenchResumeBinary(t *testing.T) {
	t.Parallel()
	var requests atomic.Int64
	choice := choiceServer("B")
	defer choice.Close()
	srv := benchCountingServer(choice.Config.Handler, &requests)
	defer srv.Close()
	data := filepath.Join("..", "..", "bench", "suite", "testdata", "longbench-v2", "data.json")
	dir := filepath.Join(t.TempDir(), "run")
	env := binaryEnv("OPENAI_API_KEY=sk-test", "RLM_BASE_URL="+srv.URL+"/v1")
	args := []string{"bench", "run", "--suite", "longbench-v2", "--data", data, "--model", "gpt-4o", "--record", dir, "--json"}
	whole := parseTrials(t, runBinary(t, nil, env, args...))
	if requests.Load() != 10 {
		t.Fatalf("%d requests for 10 trials", requests.Load())
	}
	journal := filepath.Join(dir, "journal.jsonl")
	lines := strings.SplitAfter(string(mustRead(t, journal)), "\n")
	if err := os.WriteFile(journal, []byte(strings.Join(lines[:6], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	requests.Store(0)
	resumed := parseTrials(t, runBinary(t, nil, env, append(args, "--resume")...))
	if requests.Load() != 4 {
		t.Fatalf("resume sent %d requests, want 4 (the trials not in the journal)", requests.Load())
	}
	sameTrials(t, whole, resumed)

	// Recording over a run, resuming another configuration, --resume
	// without a record directory.
	if res := runBinary(t, nil, env, args...); res.code != 1 || !strings.Contains(res.stdout+res.stderr, "bench_record_exists") {
		t.Fatalf("record over a run: exit %d: %s %s", res.code, res.stdout, res.stderr)
	}
	if res := runBinary(t, nil, env, append(args, "--resume", "--seed", "9")...); res.code != 1 || !strings.Contains(res.stdout+res.stderr, "bench_resume_mismatch") {
		t.Fatalf("resume another seed: exit %d: %s %s", res.code, res.stdout, res.stderr)
	}
	if res := runBinary(t, nil, env, "bench", "run", "--suite", "longbench-v2", "--data", data, "--resume"); res.code != 2 {
		t.Fatalf("--resume without --record: exit %d: %s", res.code, res.stderr)
	}
	if res := runBinary(t, nil, env, "bench", "run", "--suite", "longbench-v2", "--data", data, "--rate-limit", "gpt-4o"); res.code != 1 || !strings.Contains(res.stdout+res.stderr, "invalid_task") {
		t.Fatalf("bad --rate-limit: exit %d: %s %s", res.code, res.stdout, res.stderr)
	}
	if requests.Load() != 4 {
		t.Fatalf("refused commands sent %d requests", requests.Load()-4)
	}
}

// benchCountingServer answers as h does, counting the completion requests.
func benchCountingServer(h http.Handler, n *atomic.Int64) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/chat/completions") {
			n.Add(1)
		}
		h.ServeHTTP(w, r)
	}))
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func copyInto(t *testing.T, src, dir string) string {
	t.Helper()
	dst := filepath.Join(dir, filepath.Base(src))
	if err := os.WriteFile(dst, mustRead(t, src), 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}
