package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/repl"
)

// codeProtocol is the fixed part of the code-mode system prompt; its
// verbs are the builtin lines (rlm_query, call_tool) and the bounds.
const codeProtocol = `%s

Reply with one or more code blocks:
` + "```python" + `
# your code
` + "```" + `
Blocks run in order in one persistent interpreter: variables, functions, classes and imports survive across turns. Only code runs; text outside code blocks is ignored. You see only what your code prints, so print summaries, counts and short excerpts, never whole chunks. Never write the output yourself: wait for the real output in the next message.

Finish only from code, after you have seen the output you rely on:
  FINAL(value)            the answer (a string, number, list or dict)
  FINAL_VAR("name")       the value of a variable
  answer["content"] = value; answer["ready"] = True     (answer is predeclared)
A FINAL written in prose is ignored, and a FINAL placed after a cell whose output you have not seen yet is not accepted.

Builtins:
%s%s%s%s  SHOW_VARS()                                       list your variables
Standard modules (import them first): %s.

%s%s

Bounds (a cell that passes one gets an exception you see, never a silently shorter value): %s
The interpreter has no file system, network, processes or threads; time and datetime report the run's start time, and random is seeded (the same draws each run). Anything it does not support raises NotImplementedError saying so.`

// codeIntro, codeContextLines and codeStrategy are codeProtocol's parts
// that say where the context is: in the REPL (these), or in the first
// user message (the codeInPrompt ones, Config.ContextInPrompt).
const codeIntro = `You are the root of a Recursive Language Model (RLM) runtime. You answer a query about a CONTEXT that is far too large to read at once. You never see the context itself, only its metadata. You work in a Python 3.12 REPL: write code, the runtime runs it and sends back its printed output, and you continue.`

const codeContextLines = `  context        the input, a read-only str backed by the runtime: every str operation works on it with Python's
                 semantics (len, context[a:b], "x" in context, context.find, .count, .splitlines, .lower, ...,
                 re.finditer(p, context), re.findall, ...) and returns plain strs. Three more methods:
                 context.search(pattern, regex=False, max_results=1000, strict=False) -> the whole matching lines,
                   a list of {"line": N, "offset": CHAR_OFFSET, "text": LINE} ("file", "file_line" too for a context of
                   several files) that also carries .truncated (True if lines were left out) and .total (all matches);
                   strict=True raises instead of leaving lines out
                 context.partition(lines=N) or partition(bytes=N) -> a list of sub-contexts, each like context
                 context.files() -> {name: sub-context} for a context of several files ({} otherwise)
`

const codeStrategy = `Strategy: look first (len, a slice of the head, search for key terms), then compute in code: count, filter, group and join with Python.`

const codeInPromptIntro = `You answer a query about a CONTEXT that is given to you in full in the first user message, above the query: read it there. You also have a Python 3.12 REPL: write code, the runtime runs it and sends back its printed output, and you continue. The REPL does not hold the context: to compute over a part of it, copy that part into your code.`

// codeNoContextIntro and codeNoContextStrategy replace them when the
// context in the prompt is empty: the run's material is reached through
// its tools only (rlm bench's codeact with its retriever).
const codeNoContextIntro = `You answer the query in the first user message. You have a Python 3.12 REPL: write code, the runtime runs it and sends back its printed output, and you continue. The material the query is about is not in your messages: reach it through the tools listed below.`

const codeNoContextStrategy = `Strategy: call the tools from code, print short excerpts of what they return, refine and repeat, and compute in code where it helps.`

const codeInPromptStrategy = `Strategy: read the context in the message, then check and compute in code where it helps (counting, filtering, arithmetic, sorting), copying into your code only the parts you need.`

const codeLLMLines = `  llm_query(prompt, model=None)                     one sub-model call; returns its text (prompt: a str or a sub-context)
  llm_query_batched(prompts, concurrency=None)      many sub-model calls concurrently; a list of texts in input order
                                                    (a failed item is the string "Error: ...")
`

// codeNoLLMLines replace codeLLMLines in a loop granted no model: calling
// llm_query there ends the run with capability_denied.
const codeNoLLMLines = "  (llm_query and llm_query_batched are not available here: no sub-model is granted; calling one ends the run)\n"

// codeLLMStrategy ends the strategy line when sub-model calls are granted.
const codeLLMStrategy = " Use llm_query_batched over chunks (context.partition(...)) for questions that need reading; combine the results in code."

const codeRLMLine = `  rlm_query(query, context=None)                    a recursive child RLM (its own REPL) over a sub-context or str; returns its answer
  rlm_query_batched(queries, contexts=None, concurrency=None)   several children concurrently; answers in input order
`

const codeImageLines = `  load_image(name)                                  one of the run's images (%s) as a dict
                                                    {"image": "sha256:...", "width", "height", "media_type", "bytes"}
  llm_query(prompt, images=[img, ...]), llm_query_batched(prompts, images=[[img, ...], ...])
                                                    send images with a prompt to a vision sub-model (each image is
                                                    charged by its tokens; a model without vision raises)
`

// codeSystemPrompt renders the system message of a code-mode loop:
// metadata only about the context (for a context of several files, their
// list, as plan mode shows it), never its content beyond a short prefix.
func codeSystemPrompt(r *run, n node, meta corpus.Metadata, st *codeState) string {
	return renderCodePrompt(r, n, meta, st)
}

// codeInPromptSystemPrompt renders the system message of a root loop
// whose context is in its first user message (Config.ContextInPrompt):
// the REPL holds no context.
func codeInPromptSystemPrompt(r *run, n node, meta corpus.Metadata) string {
	return renderCodePrompt(r, n, meta, nil)
}

// contextInPrompt is the first user message of a root loop whose context
// is in the prompt: the context's text, then the query.
func contextInPrompt(text, query string) string {
	if text == "" {
		return userPrompt(query)
	}
	return "Context:\n<<<\n" + text + "\n>>>\n\n" + userPrompt(query)
}

// contextText returns the whole text of h.
func (r *run) contextText(h corpus.Handle) (string, error) {
	b, release, err := r.e.cfg.Store.Bytes(h)
	if err != nil {
		return "", err
	}
	defer release()
	return string(b), nil
}

// renderCodePrompt renders a code-mode system prompt; st nil: the context
// is in the first user message, not in the REPL.
func renderCodePrompt(r *run, n node, meta corpus.Metadata, st *codeState) string {
	intro, ctxLines, strategyHead := codeIntro, codeContextLines, codeStrategy
	if st == nil {
		intro, ctxLines, strategyHead = codeInPromptIntro, "", codeInPromptStrategy
		if meta.Bytes == 0 {
			intro, strategyHead = codeNoContextIntro, codeNoContextStrategy
		}
	}
	rlmLines := codeRLMLine
	if n.depth >= r.e.cfg.Limits.MaxDepth || !n.caps.Has(capability.RLM) {
		rlmLines = "  (rlm_query is not available here: no recursion at this depth)\n"
	}
	if names := r.e.cfg.Images.Names(); len(names) > 0 {
		rlmLines = fmt.Sprintf(codeImageLines, strings.Join(names, ", ")) + rlmLines
	}
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
	var mods []string
	for _, m := range repl.Modules() {
		if !strings.Contains(m, ".") {
			mods = append(mods, m)
		}
	}
	llmLines, strategy := codeLLMLines, codeLLMStrategy
	if !grantsModel(n.caps) {
		llmLines, strategy = codeNoLLMLines, ""
	}
	fmt.Fprintf(&b, codeProtocol, intro, ctxLines, llmLines, rlmLines, toolLine, strings.Join(mods, ", "), strategyHead, strategy, codeBounds(r))
	fmt.Fprintf(&b, "\n\nRecursion depth: %d.", n.depth)
	fmt.Fprintf(&b, "\nGranted capabilities: %s.", strings.Join(n.caps.Strings(), ", "))
	writeTools(&b, "Tools for call_tool", tools)
	switch {
	case st == nil && meta.Bytes == 0:
		// No context: the query alone.
	case st == nil:
		fmt.Fprintf(&b, "\n\nCONTEXT: %d bytes, %d lines, kind %s, in full in the first user message.", meta.Bytes, meta.Lines, meta.Kind)
	default:
		fmt.Fprintf(&b, "\n\nCONTEXT metadata (not content): %d bytes, %d lines, kind %s.", meta.Bytes, meta.Lines, meta.Kind)
		writeCodeFiles(&b, meta.Files)
		writePages(&b, meta, true)
		if prefix := contextPrefix(r, n); prefix != "" {
			q, _ := json.Marshal(prefix)
			fmt.Fprintf(&b, "\nFirst bytes of the context: %s", q)
		}
		if extra := st.extraNames(); extra != "" {
			b.WriteString("\n" + extra)
		}
	}
	if r.e.cfg.Instructions != "" {
		b.WriteString("\n\n")
		b.WriteString(r.e.cfg.Instructions)
	}
	return b.String()
}

// codeBounds states every bound a cell meets, as configured.
func codeBounds(r *run) string {
	c := r.e.cfg.Code.WithDefaults()
	return fmt.Sprintf("printed output: %s per turn (the rest is cut and the cut is stated); "+
		"one value (str, list, dict, ...): %s (MemoryError); a prompt to llm_query: %s; "+
		"search: max_results up to %d whole lines; steps per cell: %d (StepLimitExceeded); "+
		"time per cell: %g s (TimeoutError); recursion depth: %d (RecursionError).",
		sizeText(int64(r.e.cfg.ObservationBytes)), sizeText(c.MaxValueBytes), sizeText(int64(r.e.cfg.PromptBytes)),
		corpus.MaxMaxResults, c.MaxCellSteps, c.CellTimeout.Seconds(), c.MaxRecursion)
}

// sizeText renders a byte count for the prompt: 4 KiB, 64 MiB.
func sizeText(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
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

// grantsModel reports whether caps grant any model (llm_query's
// capability model:NAME).
func grantsModel(caps capability.Set) bool {
	for _, c := range caps.List() {
		if c.Prefix() == capability.PrefixModel {
			return true
		}
	}
	return false
}
