package bench

import (
	"fmt"
	"strings"

	"github.com/rlm-go/rlm/model/replay"
)

// pyCell fences code as a model writes it in code mode.
func pyCell(code ...string) string { return "```python\n" + strings.Join(code, "\n") + "\n```" }

// codeConformanceScripts is the model side of the code-mode cases.
func codeConformanceScripts() map[string][]replay.Interaction {
	q := func(name string) string { return "Query: " + caseQuery(name) }
	s := map[string][]replay.Interaction{}
	add := func(name string, inter ...replay.Interaction) { s[name] = inter }

	add("code_final", root("cell", q("code_final"), pyCell(`FINAL(len(context.splitlines()))`)))
	add("code_variables_persist",
		root("turn 1", q("code_variables_persist"), pyCell(`hits = context.search("needle")`, `print("hits:", len(hits))`)),
		root("turn 2 sees the output", "hits: 3", pyCell(`FINAL([h["line"] for h in hits])`)))
	add("code_final_var", root("cell", q("code_final_var"),
		pyCell(`rows = [l.split(" ")[0] for l in context.splitlines() if "needle" in l]`, `FINAL_VAR("rows")`)))
	add("code_answer_dict", root("cell", q("code_answer_dict"), pyCell(`answer = {"content": context.count("payload"), "ready": True}`)))
	batched := []replay.Interaction{root("cell", q("code_llm_query_batched"), pyCell(
		`chunks = context.partition(lines=4)`,
		`out = llm_query_batched(["label this: " + c.text() for c in chunks], concurrency=2)`,
		`FINAL(out)`))}
	// Later chunks answer first, so completion order differs from input order.
	for i := 3; i >= 1; i-- {
		batched = append(batched, sub(fmt.Sprintf("chunk %d", i), fmt.Sprintf("label this: row-%02d", 4*i-3), fmt.Sprintf("chunk %d", i), 20*(4-i)))
	}
	add("code_llm_query_batched", batched...)
	add("code_rlm_query",
		root("cell", q("code_rlm_query"), pyCell(`part = context[:40]`, `r = rlm_query("which row comes second?", context=part)`, `FINAL("child saw " + r)`)),
		root("child", "Query: which row comes second?", pyCell(`FINAL(context.splitlines()[1].split(" ")[0])`)))
	add("code_tool", root("cell", q("code_tool"), pyCell(`r = call_tool("word_count", content=context[:20])`, `FINAL(r["words"])`)))
	add("code_invented_output",
		root("turn 1 invents its output", q("code_invented_output"),
			pyCell(`n = context.count("needle")`, `print("n =", n)`)+"\nOutput:\n```\nn = 5\n```\n"+pyCell(`FINAL(5)`)+"\nThe answer is FINAL(5)."),
		root("turn 2 sees the real output", "n = 3", pyCell(`FINAL(n)`)))
	add("code_no_code_repair",
		root("turn 1 answers in prose", q("code_no_code_repair"), "There are 12 rows, so the answer is 12."),
		root("turn 2 writes code", "contained no code block", pyCell(`FINAL(len(context.splitlines()))`)))
	add("code_exception_observation",
		root("turn 1 raises", q("code_exception_observation"), pyCell(`rows = context.splitlines()`, `x = rows[99]`)),
		root("turn 2 sees the exception", "out of range", pyCell(`FINAL(len(rows))`)))
	add("code_grants_code", root("answers", q("code_grants_code"), pyCell(`FINAL(1)`)))
	midBatch := []replay.Interaction{root("cell", q("code_budget_mid_batch"),
		pyCell(`out = llm_query_batched(["item %d." % i for i in range(40)], concurrency=1)`, `print("unreachable")`))}
	for i := range 40 {
		midBatch = append(midBatch, sub(fmt.Sprintf("item %d", i), fmt.Sprintf("item %d.", i), fmt.Sprintf("ok %d", i), 0))
	}
	add("code_budget_mid_batch", midBatch...)
	add("code_child_depth_gate",
		root("cell", q("code_child_depth_gate"), pyCell(`r = rlm_query("go deeper", context="some text")`)),
		root("child", "Query: go deeper", pyCell(`r = rlm_query("deeper still", context="other text")`)))
	return s
}
