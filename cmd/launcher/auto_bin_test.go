package launcher

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/engine"
)

// autoRun is the --json result of a --mode auto run, as far as the tests
// read it.
type autoRun struct {
	Status  string `json:"status"`
	Answer  any    `json:"answer"`
	Details struct {
		Auto struct {
			Chosen        string  `json:"chosen"`
			Reason        string  `json:"reason"`
			ContextTokens int64   `json:"context_tokens"`
			Counted       bool    `json:"counted"`
			Window        int     `json:"window"`
			WindowSource  string  `json:"window_source"`
			Share         float64 `json:"share"`
			Threshold     int64   `json:"threshold"`
		} `json:"auto"`
		UsageByDepth map[string]budget.Usage `json:"usage_by_depth"`
	} `json:"details"`
	Trace []struct {
		Kind, Name string
	} `json:"trace"`
}

// rlm run --mode auto answers with one direct call when the context and
// query take at most --auto-share of --context-window tokens, and runs
// the RLM in code mode one token below; the choice is in details.auto,
// the trace and, in text mode, on stderr.
func TestModeAutoChoosesThroughTheBinary(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ctxFile := filepath.Join(dir, "notes.txt")
	// Large enough that a window one token below its count still holds
	// the code-mode root's prompt and max_tokens.
	if err := os.WriteFile(ctxFile, []byte(strings.Repeat("the billing service failed at 10:02 after the cache restarted\n", 600)), 0o644); err != nil {
		t.Fatal(err)
	}
	const query = "Which service failed?"
	cas := cassetteOf(t, dir, "auto.json",
		answer("Question: "+query, "billing (direct)"),
		answer("", "```python\nFINAL(\"billing (code)\")\n```"))
	run := func(t *testing.T, extra ...string) autoRun {
		t.Helper()
		args := append([]string{"run", "--mode", "auto", "--context", ctxFile, "--replay", cas, "--json"}, extra...)
		r := runBinary(t, nil, nil, append(args, query)...)
		var out autoRun
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &out) != nil || out.Status != "completed" {
			t.Fatalf("%v: exit %d\n%s\n%s", extra, r.code, r.stdout, r.stderr)
		}
		return out
	}
	// The count, as the binary makes it (exact BPE for gpt-4o-mini).
	probe := run(t, "--context-window", "1000000000", "--auto-share", "1")
	n := probe.Details.Auto.ContextTokens
	if probe.Details.Auto.Chosen != "direct" || !probe.Details.Auto.Counted || n <= 0 {
		t.Fatalf("%+v", probe.Details.Auto)
	}
	// The smallest window whose share 0.75 holds n tokens (the most a
	// call may take of its window beside its reserved output; at share 1
	// the threshold is the window less that reserve).
	w75 := n
	for int64(math.Floor(0.75*float64(w75))) < n {
		w75++
	}
	for _, c := range []struct {
		name, window, share, want string
		threshold                 int64
	}{
		{"at the threshold", strconv.FormatInt(w75, 10), "0.75", "direct", n},
		{"one above", strconv.FormatInt(w75-1, 10), "0.75", "code", int64(math.Floor(0.75 * float64(w75-1)))},
		{"share 1 keeps room for the reply", strconv.FormatInt(n, 10), "1", "code", n - min(4096, n/4)},
		{"default share at the threshold", strconv.FormatInt(2*n, 10), "", "direct", n},
		{"default share one above", strconv.FormatInt(2*n-1, 10), "", "code", n - 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			extra := []string{"--context-window", c.window}
			if c.share != "" {
				extra = append(extra, "--auto-share", c.share)
			}
			out := run(t, extra...)
			a := out.Details.Auto
			if a.Chosen != c.want || a.Threshold != c.threshold || a.WindowSource != "spec" || a.Reason == "" {
				t.Fatalf("auto %+v, want %s at threshold %d", a, c.want, c.threshold)
			}
			if out.Answer != "billing ("+c.want+")" {
				t.Fatalf("answer %v", out.Answer)
			}
			noted := false
			for _, ev := range out.Trace {
				noted = noted || ev.Kind == "note" && ev.Name == "auto mode"
			}
			if !noted {
				t.Fatal("no auto mode note in the trace")
			}
		})
	}
	// Without --context-window: the model table's window.
	if a := run(t).Details.Auto; a.Window != 128_000 || a.WindowSource != "table" || a.Share != 0.5 || a.Chosen != "direct" {
		t.Fatalf("auto %+v", a)
	}
	// Text mode says the choice on stderr.
	r := runBinary(t, nil, nil, "run", "--mode", "auto", "--context", ctxFile, "--replay", cas, query)
	if r.code != 0 || strings.TrimSpace(r.stdout) != "billing (direct)" || !strings.Contains(r.stderr, "rlm: --mode auto chose direct") {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	// Out-of-range values are configuration errors, before any call.
	for _, bad := range [][]string{{"--auto-share", "1.5"}, {"--auto-share", "0", "--context-window", "-5"}} {
		r := runBinary(t, nil, nil, append(append([]string{"run", "--mode", "auto", "--context", ctxFile, "--replay", cas, "--json"}, bad...), query)...)
		if r.code != 1 || jsonErrorKind([]byte(r.stdout)) != "invalid_config" {
			t.Fatalf("%v: exit %d %s", bad, r.code, r.stdout)
		}
	}
}

// --max-depth 3 needs no opt-in: a chain of children reaches depth 3 and
// details.usage_by_depth charges each depth its call; the deprecated
// --experimental-deep-recursion is accepted and changes nothing (no
// notice: cobra's deprecation notice would go to stdout, into --json).
func TestMaxDepthThreeThroughTheBinary(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ctxFile := filepath.Join(dir, "in.txt")
	if err := os.WriteFile(ctxFile, []byte("row-01 alpha\nrow-02 beta\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	child := func(q string) string {
		return `{"steps":[{"bind":"c","context":{"name":"context","ref":"input"},"op":"rlm","query":"` + q + `"},{"op":"final","value":{"name":"c","ref":"var"}}]}`
	}
	cas := cassetteOf(t, dir, "deep.json",
		answer("Query: level0", child("level1")),
		answer("Query: level1", child("level2")),
		answer("Query: level2", child("level3")),
		answer("Query: level3", `{"answer":"deepest"}`))
	for _, extra := range [][]string{nil, {"--experimental-deep-recursion"}} {
		r := runBinary(t, nil, nil, append(append([]string{"run", "--context", ctxFile, "--replay", cas, "--max-depth", "3", "--json"}, extra...), "level0")...)
		var out autoRun
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &out) != nil || out.Answer != "deepest" {
			t.Fatalf("%v: exit %d\n%s\n%s", extra, r.code, r.stdout, r.stderr)
		}
		for d := range engine.MaxSupportedDepth + 1 {
			if u := out.Details.UsageByDepth[strconv.Itoa(d)]; u.Calls != 1 || u.TotalTokens != 55 {
				t.Errorf("%v: depth %d usage %+v", extra, d, u)
			}
		}
	}
}
