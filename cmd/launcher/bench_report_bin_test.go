package launcher

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// rlm bench report sets a run's results beside the paper's figures: a
// LongBench-v2 run against a scripted server (every answer (B): one of
// the two CodeQA questions is right) is reported with the published CodeQA
// figures, in every format, with the cost plot; a file that is not a
// bench report is refused with its typed error.
func TestBenchReportBinary(t *testing.T) {
	t.Parallel()
	srv := choiceServer("B")
	defer srv.Close()
	dir := t.TempDir()
	data := filepath.Join("..", "..", "bench", "suite", "testdata", "longbench-v2", "data.json")
	res := runBinary(t, nil, binaryEnv("OPENAI_API_KEY=sk-test", "RLM_BASE_URL="+srv.URL+"/v1"),
		"bench", "run", "--suite", "longbench-v2", "--data", data, "--no-cache", "--json")
	if res.code != 0 {
		t.Fatalf("bench run: exit %d: %s", res.code, res.stderr)
	}
	results := filepath.Join(dir, "longbench.json")
	if err := os.WriteFile(results, []byte(res.stdout), 0o644); err != nil {
		t.Fatal(err)
	}

	// Text: the CodeQA rows carry the paper's RLM and base-model figures.
	svg := filepath.Join(dir, "cost.svg")
	res = runBinary(t, nil, nil, "bench", "report", results, "--svg", svg)
	if res.code != 0 {
		t.Fatalf("report: exit %d: %s", res.code, res.stderr)
	}
	for _, want := range []string{"CodeQA (23K-4.2M tokens)", "62.0 (GPT-5)", "-12.0", "24.0* (GPT-5)", "$0.11 ± 0.10", "other (not in Table 1)",
		`row "RLM", column "CodeQA"`} {
		if !strings.Contains(res.stdout, want) {
			t.Errorf("text lacks %q:\n%s", want, res.stdout)
		}
	}
	if b, err := os.ReadFile(svg); err != nil || !bytes.HasPrefix(b, []byte("<svg ")) || !bytes.Contains(b, []byte("longbench-v2 · CodeQA (23K-4.2M tokens) · rlm")) {
		t.Fatalf("svg: %v: %.200s", err, b)
	}

	// JSON: rows with the published figure and the difference.
	res = runBinary(t, nil, nil, "bench", "report", results, "--json")
	var c struct {
		Rows []struct {
			Setting   string   `json:"setting"`
			Method    string   `json:"method"`
			Score     *float64 `json:"score"`
			Diff      *float64 `json:"diff"`
			Published *struct {
				Score float64 `json:"score"`
			} `json:"published"`
			Costs []float64 `json:"costs_usd"`
		} `json:"rows"`
	}
	if err := json.Unmarshal([]byte(res.stdout), &c); err != nil || res.code != 0 || len(c.Rows) != 4 {
		t.Fatalf("json: exit %d, %v: %s", res.code, err, res.stdout)
	}
	if r := c.Rows[0]; r.Method != "rlm" || r.Score == nil || *r.Score != 50 || r.Published == nil || r.Published.Score != 62 || r.Diff == nil || *r.Diff != -12 || len(r.Costs) != 2 {
		t.Fatalf("first row %+v", r)
	}

	// CSV: a header and one record per row, all of one width.
	res = runBinary(t, nil, nil, "bench", "report", results, "--csv")
	recs, err := csv.NewReader(strings.NewReader(res.stdout)).ReadAll()
	if err != nil || res.code != 0 || len(recs) != 5 || recs[0][0] != "benchmark" || recs[1][12] != "62" {
		t.Fatalf("csv: exit %d, %v: %s", res.code, err, res.stdout)
	}

	// Markdown: a table.
	res = runBinary(t, nil, nil, "bench", "report", results, "--markdown")
	if res.code != 0 || !strings.Contains(res.stdout, "\n| benchmark | setting | method |") || !strings.Contains(res.stdout, "| longbench-v2 | CodeQA (23K-4.2M tokens) | rlm |") {
		t.Fatalf("markdown: exit %d: %s", res.code, res.stdout)
	}

	// A file that is not a bench report (the benchmark's own data file):
	// bench_report_invalid naming it, exit 1, nothing printed on stdout.
	res = runBinary(t, nil, nil, "bench", "report", results, data)
	if res.code != 1 || !strings.Contains(res.stderr, "bench_report_invalid") || !strings.Contains(res.stderr, data) || res.stdout != "" {
		t.Fatalf("not a report: exit %d: %s %s", res.code, res.stdout, res.stderr)
	}
	res = runBinary(t, nil, nil, "bench", "report", results, "--json", filepath.Join(dir, "nowhere.json"))
	if res.code != 1 || !strings.Contains(res.stdout, `"io_error"`) {
		t.Fatalf("missing file: exit %d: %s %s", res.code, res.stdout, res.stderr)
	}
	// Usage errors: no file, two formats.
	for _, args := range [][]string{{"bench", "report"}, {"bench", "report", results, "--json", "--csv"}} {
		if res = runBinary(t, nil, nil, args...); res.code != 2 {
			t.Fatalf("%v: exit %d: %s", args, res.code, res.stderr)
		}
	}
}
