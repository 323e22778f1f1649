package launcher

import (
	"os"
	"path/filepath"
	"testing"
)

// rlm bench replay runs the recorded chart-pdf run (bench's
// TestChartPDFVisionVersusText writes it with UPDATE_GOLDEN=1) offline:
// the binary generates the same PDF, renders the chart's page to the
// image the cassette names by hash, and scores rlm-code (a vision
// sub-call) 1 and direct (text only) 0.
func TestBenchReplayChartPDFBinary(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("..", "..", "bench", "testdata", "chart-pdf-record")
	// The PDF engine's caches as pdf_bin_test.go keeps them (compiled once).
	env := binaryEnv("XDG_CACHE_HOME="+filepath.Join(os.TempDir(), "rlm-test-xdg-cache"), "XDG_STATE_HOME="+t.TempDir())
	res := runBinary(t, nil, env, "bench", "replay", dir, "--json")
	rep := parseTrials(t, res)
	if !rep.Replayed || len(rep.Trials) != 4 {
		t.Fatalf("replayed %v, %d trials: %s", rep.Replayed, len(rep.Trials), res.stdout)
	}
	for _, tr := range rep.Trials {
		want := map[string]float64{"rlm-code": 1, "direct": 0}[tr.Method]
		if tr.Status != "ok" || tr.Score != want {
			t.Errorf("%s run %d: %s score %v, want %v", tr.Method, tr.Run, tr.Status, tr.Score, want)
		}
	}
}
