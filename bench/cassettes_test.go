package bench

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/model/replay"
)

// update regenerates the cassettes and golden files in testdata:
//
//	go test ./bench/ -run 'Cassettes|Golden' -update
var update = flag.Bool("update", false, "rewrite testdata cassettes and golden files")

// Helpers that script plans and completions.

func completion(content, modelName string, prompt, compl int) json.RawMessage {
	raw, err := json.Marshal(map[string]any{
		"id": "chatcmpl-bench", "object": "chat.completion", "created": 1, "model": modelName,
		"choices": []any{map[string]any{"index": 0, "message": map[string]any{"role": "assistant", "content": content}, "finish_reason": "stop"}},
		"usage":   map[string]any{"prompt_tokens": prompt, "completion_tokens": compl, "total_tokens": prompt + compl},
	})
	if err != nil {
		panic(err)
	}
	return raw
}

// root answers a root-model request containing match.
func root(name, match, content string) replay.Interaction {
	return replay.Interaction{Name: name, Match: &replay.Match{Contains: match}, Response: completion(content, ConformanceModel, 100, 10)}
}

// sub answers a sub-model request containing match.
func sub(name, match, content string, delayMS int) replay.Interaction {
	return replay.Interaction{Name: name, Match: &replay.Match{Contains: match, Model: ConformanceSubModel},
		Response: completion(content, ConformanceSubModel, 100, 10), DelayMS: delayMS}
}

func js(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

type obj = map[string]any

func steps(s ...obj) string       { return js(obj{"steps": s}) }
func ref(name string) obj         { return obj{"ref": "var", "name": name} }
func in(name string) obj          { return obj{"ref": "input", "name": name} }
func field(v any, key string) obj { return obj{"ref": "field", "value": v, "key": key} }
func index(v any, i int) obj      { return obj{"ref": "index", "value": v, "index": i} }
func text(v any) obj              { return obj{"text": v} }
func join(parts ...any) obj       { return obj{"join": parts} }
func final(v any) obj             { return obj{"op": "final", "value": v} }
func ctxOp(action obj, bind string) obj {
	return obj{"op": "context", "handle": in("context"), "action": action, "bind": bind}
}
func search(pattern, bind string) obj {
	return ctxOp(obj{"type": "search", "pattern": pattern}, bind)
}
func rlmStep(query string, context any, bind string) obj {
	return obj{"op": "rlm", "query": query, "context": context, "bind": bind}
}
func modelStep(prompt any, bind string) obj {
	return obj{"op": "model", "prompt": prompt, "bind": bind}
}
func toolStep(args any, bind string) obj {
	return obj{"op": "tool", "name": WordCountTool, "args": args, "bind": bind}
}

// conformanceScripts is the model side of every conformance case.
func conformanceScripts() map[string][]replay.Interaction {
	q := func(name string) string { return "Query: " + caseQuery(name) }
	s := map[string][]replay.Interaction{}
	add := func(name string, inter ...replay.Interaction) { s[name] = inter }
	slice2 := ctxOp(obj{"type": "slice", "start": 21, "length": 19}, "s")
	twoTurns := func(name, first, second string) {
		add(name, root("turn 1", q(name), first), root("turn 2", q(name), second))
	}

	add("answer_direct", root("answer", q("answer_direct"), `{"answer":"direct"}`))
	add("step_context_peek", root("plan", q("step_context_peek"), steps(
		ctxOp(obj{"type": "peek", "selector": "head", "count": 16}, "p"), final(field(ref("p"), "text")))))
	add("step_context_slice", root("plan", q("step_context_slice"), steps(slice2, final(field(ref("s"), "text")))))
	add("step_context_search", root("plan", q("step_context_search"), steps(
		search("needle", "hits"),
		final([]any{field(index(ref("hits"), 0), "index"), field(index(ref("hits"), 2), "value")}))))
	add("step_context_partition", root("plan", q("step_context_partition"), steps(
		ctxOp(obj{"type": "partition", "strategy": "lines", "size": 4}, "parts"),
		final(text(field(index(ref("parts"), 1), "handle"))))))
	add("step_context_map", root("plan", q("step_context_map"), steps(
		ctxOp(obj{"type": "map", "transform": "uppercase"}, "m"), final(field(index(ref("m"), 0), "value")))))
	add("step_context_reduce", root("plan", q("step_context_reduce"), steps(
		ctxOp(obj{"type": "reduce", "reducer": "count"}, "n"), final(ref("n")))))
	add("step_model",
		root("plan", q("step_model"), steps(modelStep(join("How many needles? ", text(in("context"))), "a"), final(ref("a")))),
		sub("sub-call", "How many needles? row-01", "three needles", 0))
	add("step_rlm",
		root("plan", q("step_rlm"), steps(slice2, rlmStep("read the slice", field(ref("s"), "text"), "c"), final(ref("c")))),
		root("child", "Query: read the slice", `{"answer":"child saw row-02"}`))
	add("step_tool", root("plan", q("step_tool"), steps(
		ctxOp(obj{"type": "slice", "start": 0, "length": 20}, "s"),
		toolStep(obj{"content": field(ref("s"), "text")}, "w"),
		final(field(ref("w"), "words")))))
	mapInter := []replay.Interaction{root("plan", q("step_map"), steps(
		ctxOp(obj{"type": "partition", "strategy": "lines", "size": 3}, "parts"),
		obj{"op": "map", "over": ref("parts"), "as": "p", "concurrency": 4, "bind": "labels", "plan": obj{"steps": []any{
			modelStep(join("label chunk: ", text(field(ref("p"), "handle"))), "a"), final(ref("a")),
		}}},
		final(ref("labels"))))}
	// Later chunks answer first, so completion order differs from input order.
	for i := 4; i >= 1; i-- {
		mapInter = append(mapInter, sub(fmt.Sprintf("chunk %d", i), fmt.Sprintf("label chunk: row-%02d", 3*i-2), fmt.Sprintf("chunk %d", i), 20*(5-i)))
	}
	add("step_map", mapInter...)
	add("step_parallel",
		root("plan", q("step_parallel"), steps(
			obj{"op": "parallel", "bind": "both", "plans": []any{
				obj{"steps": []any{ctxOp(obj{"type": "search", "pattern": "needle", "count_only": true}, "n"), final(ref("n"))}},
				obj{"steps": []any{modelStep("Say hello", "h"), final(ref("h"))}},
			}},
			final(ref("both")))),
		sub("hello", "Say hello", "hello", 0))
	add("step_retry",
		root("plan", q("step_retry"), steps(
			obj{"op": "retry", "attempts": 2, "bind": "got", "plan": obj{"steps": []any{modelStep("flaky question", "r"), final(ref("r"))}}},
			final(ref("got")))),
		replay.Interaction{Name: "attempt 1 fails", Match: &replay.Match{Contains: "flaky question", Model: ConformanceSubModel}, Status: 400},
		sub("attempt 2", "flaky question", "steady", 0))
	add("step_checkpoint", root("plan", q("step_checkpoint"), steps(
		search("needle", "a"), obj{"op": "checkpoint", "label": "after-search"}, final("done"))))
	add("step_final_multi_turn",
		root("turn 1", q("step_final_multi_turn"), steps(search("needle", "hits"))),
		root("turn 2 sees the observation", "Observation:\nhits = ", steps(final(field(index(ref("hits"), 0), "value")))))
	twoTurns("plan_repair", `{"steps":[{"op":"launch_missiles"}]}`, `{"answer":"repaired"}`)
	add("capability_denied", root("plan", q("capability_denied"), steps(toolStep(obj{"content": "a b"}, "w"), final(ref("w")))))
	add("depth4_refused", root("never used", q("depth4_refused"), `{"answer":"x"}`))
	add("depth2_allowed",
		root("depth 0", q("depth2_allowed"), steps(rlmStep("depth2_allowed level 1", in("context"), "c"), final(ref("c")))),
		root("depth 1", "Query: depth2_allowed level 1", steps(rlmStep("depth2_allowed level 2", in("context"), "c"), final(ref("c")))),
		root("depth 2", "Query: depth2_allowed level 2", `{"answer":"deep"}`))
	add("depth_limit_default",
		root("depth 0", q("depth_limit_default"), steps(rlmStep("depth_limit_default level 1", in("context"), "c"), final(ref("c")))),
		root("depth 1", "Query: depth_limit_default level 1", steps(rlmStep("depth_limit_default level 2", in("context"), "c"), final(ref("c")))))
	// The engine currently answers a cycle rejection with one repair
	// message, so the model repeats the plan once; an engine that ends the
	// run at the first rejection leaves the second interaction unused.
	cycle := steps(rlmStep(caseQuery("cycle_rejected"), in("context"), "c"), final(ref("c")))
	twoTurns("cycle_rejected", cycle, cycle)
	for _, name := range []string{"budget_iterations", "budget_model_calls", "budget_context_ops", "budget_tokens", "budget_cost"} {
		twoTurns(name, steps(search("needle", "a")), steps(search("payload", "b")))
	}
	twoTurns("budget_tool_calls", steps(toolStep(obj{"content": "a b"}, "w1")), steps(toolStep(obj{"content": "c d"}, "w2")))
	add("budget_output_bytes", root("answer", q("budget_output_bytes"), `{"answer":"`+strings.Repeat("x", 100)+`"}`))
	slow := root("slow", q("budget_time"), `{"answer":"too late"}`)
	slow.DelayMS = 400
	add("budget_time", slow)
	cancelInter := []replay.Interaction{root("plan", q("cancellation"), steps(
		ctxOp(obj{"type": "partition", "strategy": "lines", "size": 3}, "parts"),
		obj{"op": "map", "over": ref("parts"), "as": "p", "bind": "out", "plan": obj{"steps": []any{modelStep("slow work", "a"), final(ref("a"))}}},
		final(ref("out"))))}
	for range 4 {
		cancelInter = append(cancelInter, sub("slow", "slow work", "late", 5000))
	}
	add("cancellation", cancelInter...)
	for name, inter := range codeConformanceScripts() {
		add(name, inter...)
	}
	return s
}

// checkFile compares want with the file at path, or writes it with -update.
func checkFile(t *testing.T, path string, want []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is out of date; run go test ./bench/ -update", path)
	}
}

func marshalCassette(t *testing.T, inter []replay.Interaction) []byte {
	t.Helper()
	b, err := (&replay.Cassette{Version: replay.Version, Interactions: inter}).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := replay.Parse(b); err != nil {
		t.Fatal(err)
	}
	return b
}

// The embedded conformance cassettes are exactly what the scripts produce,
// and every case has one.
func TestConformanceCassettes(t *testing.T) {
	scripts := conformanceScripts()
	names := ConformanceCaseNames()
	for _, name := range names {
		inter, ok := scripts[name]
		if !ok {
			t.Fatalf("case %s has no script", name)
		}
		checkFile(t, filepath.Join("testdata", "conformance", name+".json"), marshalCassette(t, inter))
	}
	for name := range scripts {
		if !slices.Contains(names, name) {
			t.Fatalf("script %s has no case", name)
		}
	}
}
