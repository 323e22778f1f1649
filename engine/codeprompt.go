package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/model"
)

// codeProtocol is the fixed part of the code-mode system prompt.
const codeProtocol = `You are the root of a Recursive Language Model (RLM) runtime. You answer a query about a CONTEXT that is far too large to read at once. You never see the context itself, only its metadata. You work in a Python REPL: write code, the runtime runs it and sends back its printed output, and you continue.

Reply with one or more code blocks:
` + "```python" + `
# your code
` + "```" + `
Blocks run in order in one persistent interpreter: variables, functions and imports survive across turns. Only code runs; text outside code blocks is ignored. You see only what your code prints (long output is truncated), so print summaries, counts and short excerpts, never whole chunks. Never write the output yourself: wait for the real output in the next message.

Finish only from code, after you have seen the output you rely on:
  FINAL(value)            the answer (a string, number, list or dict)
  FINAL_VAR("name")       the value of a variable
  answer = {"content": value, "ready": True}
A FINAL written in prose is ignored, and a FINAL placed after a cell whose output you have not seen yet is not accepted.

Builtins:
  context                      the input (a string-like value backed by the runtime, not a Python str):
                               len(context), context[a:b] (a str up to %d bytes, else a sub-context), "x" in context,
                               context.find(s), .rfind(s), .count(s), .startswith(s), .endswith(s),
                               .splitlines(), .split(sep) and .text() (only for contexts up to %d bytes),
                               context.search(pattern, regex=False, max_results=N) -> [{"line": N, "offset": BYTE, "text": LINE}],
                               context.partition(lines=N) or partition(bytes=N) -> list of sub-contexts with the same methods;
                               where a str is needed (re, json, string methods) use a slice or .text()
  llm_query(prompt, model=None)                     one sub-model call; returns its text (prompt: a str or a sub-context)
  llm_query_batched(prompts, concurrency=None)      many sub-model calls concurrently; a list of texts in input order
                                                    (a failed item is the string "Error: ...")
%s%s  SHOW_VARS()                                       list your variables; print(...) output comes back to you
Modules re, json, math and collections are available (import them as usual).

Strategy: look first (len, a slice of the head, search for key terms), then compute in code: count, filter, group and join with Python. Use llm_query_batched over chunks (context.partition(...)) for questions that need reading; combine the results in code.

Differences from CPython (a sandboxed Python dialect, see docs/code.md): no file system, network or clock, and no classes, global/nonlocal, yield, async, eval/exec or open; re is RE2 (no lookaround or backreferences); is/is not compare by equality; generators are eager lists; a name the cell never binds and no earlier cell bound is a NameError before the cell runs; assignments made inside a try body before an exception are lost; strings are byte-indexed. Each cell has a step, time and memory bound, and a cell that exceeds one raises an exception you see.`

const codeRLMLine = `  rlm_query(query, context=None)                    a recursive child RLM (its own REPL) over a sub-context or str; returns its answer
  rlm_query_batched(queries, contexts=None, concurrency=None)   several children concurrently; answers in input order
`

// codeSystemPrompt renders the system message of a code-mode loop:
// metadata only about the context, never its content beyond a short
// prefix.
func codeSystemPrompt(r *run, n node, meta corpus.Metadata, st *codeState) string {
	rlmLines := codeRLMLine
	if n.depth >= r.e.cfg.Limits.MaxDepth || !n.caps.Has(capability.RLM) {
		rlmLines = "  (rlm_query is not available here: no recursion at this depth)\n"
	}
	limit := r.e.cfg.PromptBytes
	var b strings.Builder
	toolLine := "  (call_tool(name, **args) is not available: no tools are granted here)\n"
	var tools []model.Tool
	if r.e.cfg.Tools != nil {
		for _, t := range r.e.cfg.Tools.Schemas() {
			if n.caps.Has(capability.Tool(t.Name)) {
				tools = append(tools, t)
			}
		}
	}
	if len(tools) > 0 {
		toolLine = "  call_tool(name, **args)                           call a registered tool (listed below); returns its result\n"
	}
	fmt.Fprintf(&b, codeProtocol, limit, limit, rlmLines, toolLine)
	fmt.Fprintf(&b, "\n\nRecursion depth: %d.", n.depth)
	fmt.Fprintf(&b, "\nGranted capabilities: %s.", strings.Join(n.caps.Strings(), ", "))
	writeTools(&b, "Tools for call_tool", tools)
	fmt.Fprintf(&b, "\n\nCONTEXT metadata (not content): %d bytes, %d lines, kind %s.", meta.Bytes, meta.Lines, meta.Kind)
	if prefix := contextPrefix(r, n); prefix != "" {
		q, _ := json.Marshal(prefix)
		fmt.Fprintf(&b, "\nFirst bytes of the context: %s", q)
	}
	if extra := st.extraNames(); extra != "" {
		b.WriteString("\n" + extra)
	}
	if r.e.cfg.Instructions != "" {
		b.WriteString("\n\n")
		b.WriteString(r.e.cfg.Instructions)
	}
	return b.String()
}

// contextPrefix returns the first DefaultPrefixBytes of the loop's context.
func contextPrefix(r *run, n node) string {
	head, err := r.e.cfg.Store.Head(context.Background(), n.input, DefaultPrefixBytes, corpus.Limits{})
	if err != nil {
		return ""
	}
	s, _ := head.Value.(corpus.Span)
	return s.Text
}

// extraNames describes the names beside context: the inputs context_0..N
// and, in a session, the history of earlier queries.
func (st *codeState) extraNames() string {
	s := "context_0"
	if st.inputs > 1 {
		s = fmt.Sprintf("context_0 .. context_%d (the %d inputs; context is context_0)", st.inputs-1, st.inputs)
	} else {
		s += " is another name for context."
	}
	if st.session {
		s += "\nThis is a session: history is the list of earlier queries and answers ({\"query\": ..., \"answer\": ...}), and your variables persist from earlier queries (SHOW_VARS() lists them)."
	}
	return s
}
