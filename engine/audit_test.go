package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/fault"
)

// Indexing the context (context[i]) reads its text like a one-byte slice:
// it needs context:slice and counts as a context operation.
func TestCodeContextIndexIsASlice(t *testing.T) {
	caps := capability.Of(capability.Code, capability.Model("test-model"), capability.Context("search"))
	f := newFixture(t, haystack, Config{Mode: ModeCode, Capabilities: caps},
		reply("Query: q", py(`FINAL(context[0] + context[-2])`)),
	)
	res, err := f.run(t, "q")
	if fault.KindOf(err) != capability.KindDenied {
		t.Fatalf("want capability_denied without context:slice, got %v (answer %v)", err, res.Answer)
	}
	g := newFixture(t, haystack, codeCfg(), reply("Query: q", py(`FINAL(context[0] + context[-2])`)))
	res, err = g.run(t, "q")
	if err != nil || res.Answer != "ae" {
		t.Fatalf("%v %+v", err, res.Answer)
	}
	if res.Counters.ContextOps != 2 {
		t.Fatalf("context ops %d, want 2", res.Counters.ContextOps)
	}
}

// A child over a sub-context of a sub-context that repeats its parent's
// query over the same bytes of the root context is a cycle, however the
// range was reached: a large context is identified by its position in the
// root context.
func TestRecursiveCycleThroughNestedSubContext(t *testing.T) {
	big := strings.Repeat("0123456789abcdef\n", (2<<20)/17)
	f := newFixture(t, big, Config{Mode: ModeCode, Limits: budget.Limits{MaxDepth: 3}, ExperimentalDeepRecursion: true},
		reply("Query: q", py(`FINAL(rlm_query("x", context[1:len(context)]))`)),
		reply("Recursion depth: 1", py(`FINAL(rlm_query("x", context[0:len(context)]))`)),
		reply("Recursion depth: 2", py(`FINAL("repeated")`)),
	)
	res, err := f.run(t, "q")
	if fault.KindOf(err) != KindRecursiveCycle {
		t.Fatalf("want recursive_cycle, got %v (answer %v)", err, res.Answer)
	}
}

// Code inside a fence that mentions a reasoning tag is code: it runs as
// written.
func TestCodeThinkTagInsideCode(t *testing.T) {
	for name, code := range map[string]string{
		"closed":   `FINAL(str(len(re.sub(r"<think>.*?</think>", "", "a<think>b</think>c"))) + "<think>ab</think>")`,
		"unclosed": `FINAL("x<think>y".split("<think>")[0])`,
	} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, haystack, codeCfg(), reply("Query: q", "<think>plan</think>\n"+py("import re", code)))
			res, err := f.run(t, "q")
			want := map[string]string{"closed": "2<think>ab</think>", "unclosed": "x"}[name]
			if err != nil || res.Answer != want {
				t.Fatalf("%v %+v, want %q", err, res.Answer, want)
			}
		})
	}
}

// Saved numbers resume with their type and value: a float stays a float,
// an integer beyond 64 bits stays an exact integer.
func TestSessionNumbersRoundTrip(t *testing.T) {
	f := newFixture(t, haystack, codeCfg(),
		reply("Query: a", py(`x = 2.0`, `y = 2**100 + 1`, `z = [1.0, {"k": -3.0}, 1e300]`, `FINAL(1)`)),
		reply("Query: b", py(`FINAL([repr(x), repr(y), repr(z)])`)),
	)
	s, err := f.eng.NewSession(f.h)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Ask(context.Background(), "a"); err != nil {
		t.Fatal(err)
	}
	data, err := s.Save()
	if err != nil {
		t.Fatal(err)
	}
	r, err := f.eng.ResumeSession(data, f.h)
	if err != nil {
		t.Fatal(err)
	}
	res, err := r.Ask(context.Background(), "b")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := res.Answer.([]any)
	want := []any{"2.0", "1267650600228229401496703205377", "[1.0, {'k': -3.0}, 1e+300]"}
	for i := range want {
		if i >= len(got) || got[i] != want[i] {
			t.Fatalf("got %v, want %v (saved %s)", res.Answer, want, data)
		}
	}
}

// A child's integer answer beyond 64 bits reaches its parent exactly.
func TestCodeChildBigIntAnswer(t *testing.T) {
	f := newFixture(t, haystack, codeCfg(),
		reply("Query: q", py(`FINAL(repr(rlm_query("big", "some text")))`)),
		reply("Query: big", py(`FINAL(2**100 + 1)`)),
	)
	res, err := f.run(t, "q")
	if err != nil || res.Answer != "1267650600228229401496703205377" {
		t.Fatalf("%v %+v", err, res.Answer)
	}
}

// A FINAL that is not accepted (it followed a cell whose output the model
// had not seen) leaves the model's own variable named answer alone: only a
// ready answer dict is dropped.
func TestCodeDeferredFinalKeepsAnswerVariable(t *testing.T) {
	f := newFixture(t, haystack, codeCfg(),
		reply("Query: q", py(`answer = len(context)`, `print(answer)`)+"\n"+py(`FINAL(answer)`)),
		reply("not accepted", py(`FINAL(answer)`)),
	)
	res, err := f.run(t, "q")
	if err != nil || res.Answer != int64(len(haystack)) || res.Turns != 2 {
		t.Fatalf("%v %+v (turns %d)", err, res.Answer, res.Turns)
	}
}
