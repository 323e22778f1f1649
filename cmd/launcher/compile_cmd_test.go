package launcher

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/goleak"
)

var updatePrompt = flag.Bool("update-prompt", false, "rewrite the prompt-compiler golden files")

func promptData(name string) string { return filepath.Join("testdata", "prompt", name) }

func TestPromptCommands(t *testing.T) {
	defer goleak.VerifyNone(t)
	cat, opts := promptData("catalog.json"), promptData("options.json")
	tests := []struct {
		name   string
		args   []string
		code   int
		golden string // stdout golden file, when set
		kind   string // error kind in the stdout JSON, when code is 1
	}{
		{"compile input", []string{"compile", "--catalog", cat, "--input", promptData("input.json"), "--options", opts}, 0, "compile.golden", ""},
		{"compile text unrelated", []string{"compile", "--catalog", cat, "--text", "tell me a joke", "--options", opts}, 0, "compile_unrelated.golden", ""},
		{"explain always", []string{"explain", "--catalog", cat, "--text", "tell me a joke", "--options", opts, "--unit", "tool:task"}, 0, "explain_task.golden", ""},
		{"explain conflict loser", []string{"explain", "--catalog", cat, "--text", "go solo", "--options", opts, "--unit", "tool:solo"}, 0, "explain_solo.golden", ""},
		{"explain capability", []string{"explain", "--catalog", cat, "--text", "weather in Oslo", "--options", opts, "--unit", "tool:weather"}, 0, "explain_weather.golden", ""},
		{"search", []string{"search", "--catalog", cat, "--query", "diff", "--limit", "2"}, 0, "search.golden", ""},
		{"budget exceeded", []string{"compile", "--catalog", cat, "--text", "x", "--options", promptData("tiny.json")}, 1, "", "context_budget_exceeded"},
		{"scope widening", []string{"compile", "--catalog", cat, "--text", "x", "--options", promptData("widen.json")}, 1, "", "discovery_scope_widening_denied"},
		{"text and input", []string{"compile", "--catalog", cat, "--text", "x", "--input", promptData("input.json")}, 1, "", "invalid_flags"},
		{"missing catalog", []string{"compile", "--catalog", promptData("none.json"), "--text", "x"}, 1, "", "io_error"},
		{"bad catalog", []string{"compile", "--catalog", opts, "--text", "x"}, 1, "", "invalid_unit_spec"},
		{"unknown unit", []string{"explain", "--catalog", cat, "--unit", "tool:nope"}, 1, "", "unknown_unit"},
		{"bad unit", []string{"explain", "--catalog", cat, "--unit", "nope"}, 1, "", "invalid_unit_id"},
		{"bad query", []string{"search", "--catalog", cat, "--query", ""}, 1, "", "invalid_search_query"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), append(tt.args, "--json"), strings.NewReader(""), &stdout, &stderr)
			if code != tt.code {
				t.Fatalf("exit %d, want %d; stdout %s stderr %s", code, tt.code, stdout.String(), stderr.String())
			}
			if tt.kind != "" {
				var out struct {
					Error struct {
						Phase string `json:"phase"`
						Kind  string `json:"kind"`
					} `json:"error"`
				}
				if err := json.Unmarshal(stdout.Bytes(), &out); err != nil || out.Error.Kind != tt.kind || out.Error.Phase == "" {
					t.Fatalf("stdout %s: want error kind %s (%v)", stdout.String(), tt.kind, err)
				}
			}
			if tt.golden != "" {
				promptGolden(t, tt.golden, stdout.Bytes())
			}
		})
	}
}

func TestCompileQueries(t *testing.T) {
	defer goleak.VerifyNone(t)
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"compile", "--catalog", promptData("catalog.json"), "--options", promptData("options.json"), "--queries", promptData("queries.json")}, strings.NewReader(""), &stdout, &stderr)
	if code != 1 {
		t.Fatalf("exit %d (one query is invalid); stderr %s", code, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if len(lines) != 4 {
		t.Fatalf("%d lines: %s", len(lines), stdout.String())
	}
	var first struct {
		ActiveUnits []string `json:"active_units"`
	}
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil || !strings.Contains(strings.Join(first.ActiveUnits, ","), "tool:git_diff") {
		t.Fatalf("first line %s (%v)", lines[0], err)
	}
	if !strings.Contains(lines[3], `"kind":"invalid_input"`) {
		t.Fatalf("last line %s", lines[3])
	}
	var timing struct {
		Timing struct {
			Queries, Errors int
			MedianUS        *int64 `json:"median_us"`
		} `json:"timing"`
	}
	if err := json.Unmarshal(stderr.Bytes(), &timing); err != nil || timing.Timing.Queries != 4 || timing.Timing.Errors != 1 || timing.Timing.MedianUS == nil {
		t.Fatalf("stderr %s (%v)", stderr.String(), err)
	}
}

func promptGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := promptData(name)
	if *updatePrompt {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s mismatch:\n got: %s\nwant: %s", name, got, want)
	}
}
