package rlmlog

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/demo"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/golden"
	"github.com/rlm-go/rlm/trace"
)

func importFile(t *testing.T, path string) []trace.Event {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	evs, err := Import(f)
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

// TestImportOfficialLog imports a log written to the official logger's
// schema: its tree is the golden one, its figures add up, and the API key
// in backend_kwargs is not carried over.
func TestImportOfficialLog(t *testing.T) {
	evs := importFile(t, "testdata/official.jsonl")
	var tree bytes.Buffer
	if err := trace.WriteTree(&tree, evs); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "official_tree.golden", tree.Bytes())
	count := map[trace.Kind]int{}
	var tokens int64
	var failed []string
	for _, ev := range evs {
		count[ev.Kind]++
		if ev.Tokens != nil {
			tokens += ev.Tokens.Total
		}
		if ev.Error != nil {
			failed = append(failed, string(ev.Error.Kind))
		}
	}
	if count[trace.KindRun] != 1 || count[trace.KindTurn] != 3 || count[trace.KindPlanStep] != 2 || count[trace.KindModelCall] != 4 {
		t.Fatalf("counts %v", count)
	}
	if want := int64(251022 + 9 + 250871 + 9 + 250990 + 8 + 250112); tokens != want {
		t.Fatalf("tokens %d, want %d", tokens, want)
	}
	if len(failed) != 1 || failed[0] != "RateLimitError" {
		t.Fatalf("failed %v", failed)
	}
	if evs[0].Attrs["answer"] != "billing" || evs[0].Attrs["turns"] != 3 {
		t.Fatalf("run attrs %v", evs[0].Attrs)
	}
	var out bytes.Buffer
	if err := trace.WriteJSONL(&out, evs); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "sk-proj") {
		t.Fatal("the backend's API key reached the trace")
	}
}

// lines decodes a log into generic maps.
func lines(t *testing.T, data []byte) []map[string]any {
	t.Helper()
	var out []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("%v: %s", err, sc.Text())
		}
		out = append(out, m)
	}
	return out
}

// TestRoundTripOfficial: official log → trace → official log keeps every
// mapped field (docs/trace.md lists the ones that do not map: the
// iteration prompt, locals' values, backend_kwargs, environment_kwargs).
func TestRoundTripOfficial(t *testing.T) {
	orig, err := os.ReadFile("testdata/official.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Export(&buf, importFile(t, "testdata/official.jsonl")); err != nil {
		t.Fatal(err)
	}
	want, got := lines(t, orig), lines(t, buf.Bytes())
	if len(got) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(got), len(want), buf.String())
	}
	for _, k := range []string{"type", "timestamp", "root_model", "max_depth", "max_iterations", "backend", "environment_type", "other_backends"} {
		if !equal(got[0][k], want[0][k]) {
			t.Errorf("metadata %s = %v, want %v", k, got[0][k], want[0][k])
		}
	}
	for i := 1; i < len(want); i++ {
		for _, k := range []string{"type", "iteration", "timestamp", "response", "final_answer", "iteration_time"} {
			if !equal(got[i][k], want[i][k]) {
				t.Errorf("iteration %d %s = %v, want %v", i, k, got[i][k], want[i][k])
			}
		}
		wb, gb := want[i]["code_blocks"].([]any), got[i]["code_blocks"].([]any)
		if len(gb) != len(wb) {
			t.Fatalf("iteration %d: %d code blocks, want %d", i, len(gb), len(wb))
		}
		for j := range wb {
			w, g := wb[j].(map[string]any), gb[j].(map[string]any)
			if w["code"] != g["code"] {
				t.Errorf("code differs: %v", g["code"])
			}
			wr, gr := w["result"].(map[string]any), g["result"].(map[string]any)
			for _, k := range []string{"stdout", "stderr", "execution_time"} {
				if !equal(gr[k], wr[k]) {
					t.Errorf("result %s = %v, want %v", k, gr[k], wr[k])
				}
			}
			if !equal(gr["rlm_calls"], wr["rlm_calls"]) {
				t.Errorf("rlm_calls differ:\n%v\nwant\n%v", gr["rlm_calls"], wr["rlm_calls"])
			}
		}
	}
}

// equal compares decoded JSON values, numbers to the microsecond (times
// pass through durations in ms).
func equal(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	if string(x) == string(y) {
		return true
	}
	fa, ok1 := a.(float64)
	fb, ok2 := b.(float64)
	if ok1 && ok2 {
		d := fa - fb
		return d < 1e-6 && d > -1e-6
	}
	la, ok1 := a.([]any)
	lb, ok2 := b.([]any)
	if ok1 && ok2 && len(la) == len(lb) {
		for i := range la {
			if !equal(la[i], lb[i]) {
				return false
			}
		}
		return true
	}
	ma, ok1 := a.(map[string]any)
	mb, ok2 := b.(map[string]any)
	if ok1 && ok2 && len(ma) == len(mb) {
		for k := range ma {
			if !equal(ma[k], mb[k]) {
				return false
			}
		}
		return true
	}
	return false
}

// TestRoundTripDemo: the demo's runs (plan and code mode) exported and
// imported back keep their turns, their sub-calls and their tokens.
func TestRoundTripDemo(t *testing.T) {
	for _, mode := range []string{engine.ModePlan, engine.ModeCode} {
		t.Run(mode, func(t *testing.T) {
			rec := trace.NewRecorder()
			out, err := demo.RunMode(trace.WithRecorder(context.Background(), rec), mode)
			if err != nil {
				t.Fatal(err)
			}
			evs := out.Result.Trajectory
			var buf bytes.Buffer
			if err := Export(&buf, evs); err != nil {
				t.Fatal(err)
			}
			back, err := Import(&buf)
			if err != nil {
				t.Fatal(err)
			}
			turns, subTokens := 0, int64(0)
			for _, ev := range evs {
				if ev.Kind == trace.KindTurn && ev.Parent == evs[0].ID {
					turns++
				}
				if ev.Kind == trace.KindModelCall && ev.Tokens != nil && !isRootCall(evs, ev) {
					subTokens += ev.Tokens.Total
				}
			}
			gotTurns, gotTokens := 0, int64(0)
			for _, ev := range back {
				if ev.Kind == trace.KindTurn && ev.Parent == back[0].ID {
					gotTurns++
				}
				if ev.Tokens != nil {
					gotTokens += ev.Tokens.Total
				}
			}
			if turns == 0 || subTokens == 0 || gotTurns != turns || gotTokens != subTokens {
				t.Fatalf("turns %d→%d, sub-call tokens %d→%d", turns, gotTurns, subTokens, gotTokens)
			}
		})
	}
}

// isRootCall reports whether ev is a root loop's own model call (a direct
// child of a turn of the root run): the official format has no place for
// its usage.
func isRootCall(evs []trace.Event, ev trace.Event) bool {
	for _, p := range evs {
		if p.ID == ev.Parent {
			return p.Kind == trace.KindTurn && p.Parent == evs[0].ID
		}
	}
	return false
}

func TestImportMalformed(t *testing.T) {
	for name, in := range map[string]string{
		"empty":         "",
		"blank lines":   "\n\n",
		"not json":      "{nope\n",
		"rlm trace":     `{"seq":1,"id":"e1","kind":"run","name":"rlm","status":"ok"}` + "\n",
		"untyped line":  `{"type":"metadata"}` + "\n" + `{"iteration":1}` + "\n",
		"bad iteration": `{"type":"metadata"}` + "\n" + `{"type":"iteration","code_blocks":"x"}` + "\n",
		"bad context":   `{"type":"run_context","session_mode":"yes"}` + "\n",
	} {
		_, err := Import(strings.NewReader(in))
		var fe *fault.Error
		if !errors.As(err, &fe) || fe.Kind != KindMalformedLog {
			t.Errorf("%s: err %v, want %s", name, err, KindMalformedLog)
		}
	}
}

// FuzzImport: no input makes Import panic, and what it accepts exports.
func FuzzImport(f *testing.F) {
	if b, err := os.ReadFile("testdata/official.jsonl"); err == nil {
		f.Add(b)
	}
	f.Add([]byte(`{"type":"metadata"}` + "\n" + `{"type":"iteration","iteration_time":-1e308,"code_blocks":[{"result":{"rlm_calls":[{"execution_time":1e300}]}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		evs, err := Import(bytes.NewReader(data))
		if err != nil {
			return
		}
		if err := Export(&bytes.Buffer{}, evs); err != nil {
			t.Fatal(err)
		}
	})
}
