package engine

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/model"
)

// protocol is the fixed part of the system prompt: the plan language as the
// model needs to know it.
const protocol = `You are the root of a Recursive Language Model (RLM) runtime. You answer a query about a CONTEXT that is far too large to read at once. You never see the context itself, only its metadata. You explore it by writing JSON plans that the runtime validates and executes, then you read the observations it sends back and continue, like working in a REPL.

Reply with exactly ONE JSON object and nothing else, either
  {"answer": <the final answer>}                 when you know the answer, or
  {"steps": [ ...steps... ]}                       a plan to run.

Steps ("op"), each binding its result to a new variable with "bind" (variables persist across turns and are never re-bound):
  {"op":"context","handle":E,"action":A,"bind":"v"}   one context operation; A is one of
      {"type":"peek","selector":"head"|"tail"|"metadata","count":N}
      {"type":"slice","start":BYTE,"length":BYTES}
      {"type":"search","pattern":"literal text","regex":false}   -> list of {"index":LINE,"offset":BYTE,"value":LINE_TEXT}
      {"type":"partition","strategy":"lines"|"bytes","size":N}  -> list of {"index","start","length","handle"}; each handle is a sub-context
      {"type":"map","transform":"identity"|"lowercase"|"uppercase"|"length"}
      {"type":"reduce","reducer":"count"|"byte_count"}
  {"op":"model","prompt":E,"bind":"v"}                 one sub-model call (llm_query); binds the response text
  {"op":"rlm","query":E,"context":E,"bind":"v"}        a recursive child RLM over a sub-context (a handle or a string); binds its answer
  {"op":"tool","name":"TOOL","args":E,"bind":"v"}      call a registered tool
  {"op":"map","over":E,"as":"item","plan":{"steps":[...,{"op":"final","value":E}]},"concurrency":N,"bind":"v"}
                                                       run a sub-plan once per list element, concurrently; binds the list of the sub-plans' final values
  {"op":"parallel","plans":[{"steps":[...]},...],"bind":"v"}
  {"op":"retry","attempts":N,"plan":{"steps":[...]},"bind":"v"}
  {"op":"checkpoint","label":"text"}
  {"op":"final","value":E}                             ends the run with this answer (only as the last step)

Expressions E: JSON literals; {"ref":"input","name":"context"} (the context handle); {"ref":"input","name":"query"};
{"ref":"var","name":"v"}; {"ref":"field","value":E,"key":"k"}; {"ref":"index","value":E,"index":N};
{"join":[E,...]} (string concatenation); {"json":E} (serialize); {"text":E} (the text of a handle, e.g. one partition chunk, to embed in a prompt);
{"literal":V} (V as plain JSON: use it for an object whose keys would otherwise read as an expression, e.g. tool args {"literal":{"text":"..."}}).

Strategy: peek or search first to learn the structure; for questions that need the whole context, partition it and map a model or rlm step over the chunks, then combine the results. A plan without a final step returns observations (previews of the new variables) so you can continue. Only use the operations your capabilities allow.`

// planImageLines tells a plan-mode model of the run's images (none: "").
func planImageLines(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return "Images of the run: " + strings.Join(names, ", ") + `. A model step sends images with its prompt: {"op":"model","prompt":E,"images":E,"bind":"v"}, ` +
		`where "images" is a list of image names (a vision sub-call: each image is charged by its tokens; a model without vision fails the step).`
}

// joinNonEmpty joins the non-empty texts with a blank line.
func joinNonEmpty(texts ...string) string {
	var out []string
	for _, t := range texts {
		if t != "" {
			out = append(out, t)
		}
	}
	return strings.Join(out, "\n\n")
}

// systemPrompt renders the system message for one loop.
func systemPrompt(depth int, caps capability.Set, tools []model.Tool, meta corpus.Metadata, prefix string, extra string) string {
	var b strings.Builder
	b.WriteString(protocol)
	fmt.Fprintf(&b, "\n\nRecursion depth: %d.", depth)
	fmt.Fprintf(&b, "\nGranted capabilities: %s.", strings.Join(caps.Strings(), ", "))
	writeTools(&b, "Tools", tools)
	fmt.Fprintf(&b, "\n\nCONTEXT metadata (not content): %d bytes, %d lines, kind %s.", meta.Bytes, meta.Lines, meta.Kind)
	writeFiles(&b, meta.Files)
	writePages(&b, meta, false)
	if prefix != "" {
		q, _ := json.Marshal(prefix)
		fmt.Fprintf(&b, "\nFirst bytes of the context: %s", q)
	}
	if extra != "" {
		b.WriteString("\n\n")
		b.WriteString(extra)
	}
	return b.String()
}

// writePages tells the model about the PDF pages of the context: their
// count, the form-feed line between pages, the "page" of search hits and
// how to reach one page.
func writePages(b *strings.Builder, meta corpus.Metadata, code bool) {
	if meta.PageCount == 0 {
		return
	}
	fmt.Fprintf(b, "\nThe context holds the text of PDF pages: %d pages, each page's text followed by a line holding only a form feed (\\f) before the next page.", meta.PageCount)
	if code {
		b.WriteString(" context.search() hits carry \"page\" (1-based); context.pages is the list of the pages as sub-contexts (str-like; context.pages[0] is page 1); context.partition(pages=N) cuts N pages per part; context.pages[i].image(dpi=100) renders a page to an image value to send with llm_query(prompt, images=[...]) (for charts, tables and scans).")
	} else {
		b.WriteString(" Search hits carry \"page\" (1-based); the metadata's \"pages\" list holds each page's \"handle\", a sub-context; {\"type\":\"partition\",\"strategy\":\"pages\",\"size\":N} cuts N pages per chunk; {\"type\":\"image\",\"dpi\":100} on a page's handle renders it to an image value that a model step sends in \"images\" (for charts, tables and scans).")
	}
}

// promptFiles bounds the files listed in the system prompt; the context's
// metadata (peek selector metadata) lists them all.
const promptFiles = 200

// writeFiles lists the files of a composite context (corpus.Store.AddFiles)
// in a plan-mode system prompt.
func writeFiles(b *strings.Builder, files []corpus.FileInfo) {
	if len(files) == 0 {
		return
	}
	fmt.Fprintf(b, "\nThe context is %d files concatenated in this order (a newline ends each file). Search matches carry \"file\" (and \"file_line\", the line within it). "+
		"To work on one file, peek the context's metadata: its \"files\" list holds each file's \"handle\", a sub-context ({\"ref\":\"index\",...} into it).\nFiles (index: name, bytes, first line):", len(files))
	listFiles(b, files)
	if len(files) > promptFiles {
		fmt.Fprintf(b, "\n... and %d more files (listed in the metadata).", len(files)-promptFiles)
	}
}

// writeCodeFiles lists the files of a composite context in a code-mode
// system prompt: the same files and bound as writeFiles. Code reaches a
// file by name (context.files()); it sees no metadata, so the prompt also
// says how to place a search match.
func writeCodeFiles(b *strings.Builder, files []corpus.FileInfo) {
	if len(files) == 0 {
		return
	}
	fmt.Fprintf(b, "\nThe context is %d files concatenated in this order (a newline ends each file). "+
		"context.files()[NAME] is one file as a sub-context; a search match names its \"file\" and its \"file_line\" within that file.\n"+
		"Files (index: name, bytes, first line in the whole context):", len(files))
	listFiles(b, files)
	if len(files) > promptFiles {
		fmt.Fprintf(b, "\n... and %d more files, not listed here (they follow the last one listed, in the same order).", len(files)-promptFiles)
	}
}

// listFiles writes the first promptFiles files, one a line: index, quoted
// name, bytes and the line the file starts on.
func listFiles(b *strings.Builder, files []corpus.FileInfo) {
	for i, f := range files[:min(len(files), promptFiles)] {
		name, _ := json.Marshal(f.Name)
		fmt.Fprintf(b, "\n%d: %s, %d bytes, line %d", i, name, f.Bytes, f.Line)
	}
}

// userPrompt renders the first user message of a loop.
func userPrompt(query string) string {
	return "Query: " + query
}

// repairExamples show the two reply shapes a repair message asks for.
const repairExamples = `an answer, {"answer": "the final answer"}, or a plan, {"steps": [{"op": "context", "handle": {"ref": "input", "name": "context"}, "action": {"type": "search", "pattern": "error"}, "bind": "hits"}]}`

// repairHints say, per rejection kind, what to change.
var repairHints = map[string]string{
	"no_json":          "No JSON object was found: reply with the JSON object itself, after any reasoning block is closed.",
	"multiple_json":    "The reply held several JSON objects: send exactly one.",
	"malformed_json":   "The JSON did not decode (cut off, or a syntax error): send it complete and valid.",
	"not_a_document":   `The object had neither "answer" nor "steps".`,
	"unknown_field":    "A field is not part of the plan language at that place.",
	"unknown_op":       "The op is not one of context, model, rlm, tool, map, parallel, retry, checkpoint, final.",
	"missing_field":    "A required field is missing.",
	"unbound_variable": "A variable is used before a step binds it.",
	"rebound_variable": "A variable name is bound twice; pick a new name.",
}

// repairMessage is the host-written message after a rejected plan. It names
// the rejected part by phase, kind and path (redacted with plan.RedactPath
// by the caller), says what shape is expected and which repair this is,
// never echoing model text.
func repairMessage(phase, kind, path string, repair, maxRepairs int) string {
	msg := fmt.Sprintf("Your previous reply was rejected without execution (phase=%s, kind=%s", phase, kind)
	if path != "" {
		msg += ", at " + path
	}
	msg += ")."
	if h, ok := repairHints[kind]; ok {
		msg += " " + h
	}
	return msg + fmt.Sprintf(" Reply with exactly one complete new JSON object and nothing else: %s. (Repair %d of %d.)", repairExamples, repair, maxRepairs)
}

// writeTools lists the tools offered to the model under header: name,
// description and the JSON Schema of the arguments.
func writeTools(b *strings.Builder, header string, tools []model.Tool) {
	if len(tools) == 0 {
		return
	}
	b.WriteString("\n" + header + " (name, description, JSON Schema of args):")
	for _, t := range tools {
		params := string(t.Parameters)
		if params == "" {
			params = "{}"
		}
		fmt.Fprintf(b, "\n- %s: %s %s", t.Name, t.Description, params)
	}
}
