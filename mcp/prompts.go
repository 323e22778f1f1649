package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rlm-go/rlm/fault"
)

// Names of the prompts `rlm mcp serve` offers (prompts/list): each
// returns one user message that steers the client's model to rlm_run and
// the context tools for a common task.
const (
	PromptAnswer    = "answer_question"
	PromptSummarize = "summarize_context"
	PromptFind      = "find_occurrences"
)

// promptArg is one argument of a served prompt.
type promptArg struct {
	name, desc string
	required   bool
}

var contextPathArg = promptArg{name: "context_path", desc: "a file or directory under the server's allowed roots; " +
	"leave it out to paste the context into the conversation instead (it is then passed inline, at most 16 MiB)"}

// servedPrompt is a prompt's declaration and the text it expands to.
type servedPrompt struct {
	name, title, desc string
	args              []promptArg
	text              func(a map[string]string) string
}

// ctxRef is how a prompt's message names the context: where it is, how
// rlm_run is given it, and the context tools' path argument ("" when the
// context is inline text, which the context tools cannot read).
type ctxRef struct{ where, run, path string }

func contextRef(a map[string]string) ctxRef {
	if p := a["context_path"]; p != "" {
		q := jsonQuote(p)
		return ctxRef{where: "the context at " + q, run: "context_path " + q, path: q}
	}
	return ctxRef{where: "the context the user gives in this conversation",
		run: "context_text set to the whole of that text (ask the user for it first if it is not in the conversation)"}
}

func jsonQuote(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// steps numbers the non-empty steps of a message.
func steps(list ...string) string {
	var b strings.Builder
	n := 0
	for _, s := range list {
		if s != "" {
			n++
			fmt.Fprintf(&b, "%d. %s\n", n, s)
		}
	}
	return b.String()
}

// failureRule is the common instruction for a failed tool call.
const failureRule = "If a tool result has isError set, or a status other than \"completed\", report its error (kind, message and hint) " +
	"to the user and do not make up an answer from memory."

// notWhole is the common reason to use the tools.
const notWhole = "The context may be far larger than your window: do not try to read it whole. Use the rlm server's tools:\n"

var servedPrompts = []servedPrompt{
	{
		name: PromptAnswer, title: "Answer a question over a large context",
		desc: "Answer a question over a file, a directory or pasted text too large for the model's window, with rlm_run, and check the answer against the context.",
		args: []promptArg{{name: "question", desc: "the question to answer", required: true}, contextPathArg},
		text: func(a map[string]string) string {
			c := contextRef(a)
			check := ""
			if c.path != "" {
				check = "Before you state a fact of the answer as certain, check it: call context_search with path " + c.path +
					" and as pattern a distinctive word or phrase of the fact (or context_slice with a start and length), and quote the line you found with its line number."
			}
			return fmt.Sprintf("Answer this question over %s:\n\n%s\n\n%s%s%s", c.where, a["question"], notWhole, steps(
				"Call rlm_run with query set to the question above, word for word, and "+c.run+".",
				"Give the user the result's answer, say that it came from rlm_run, and give its trace_id.",
				check), failureRule)
		},
	},
	{
		name: PromptSummarize, title: "Summarize a large context",
		desc: "Summarize a file, a directory or pasted text too large for the model's window, with context_metadata and rlm_run.",
		args: []promptArg{contextPathArg, {name: "focus", desc: "what the summary should concentrate on"}},
		text: func(a map[string]string) string {
			c := contextRef(a)
			focus := ""
			if f := strings.TrimSpace(a["focus"]); f != "" {
				focus = ", focusing on " + f
			}
			meta, size := "", ""
			if c.path != "" {
				meta = "Call context_metadata with path " + c.path + " to learn its size in bytes, its line count and its files."
				size = " the size from step 1 and"
			}
			query := jsonQuote("Summarize this context" + focus + ": its subject, its main parts (file by file when it has several), " +
				"the most important facts, figures and events, and anything unusual. Say which part each point comes from.")
			return fmt.Sprintf("Summarize %s%s.\n\n%s%s%s", c.where, focus, notWhole, steps(
				meta,
				"Call rlm_run with "+c.run+" and this query: "+query,
				"Present the summary with"+size+" rlm_run's trace_id."), failureRule)
		},
	},
	{
		name: PromptFind, title: "Find every occurrence, with evidence",
		desc: "Find every place a large context mentions something, each with its location and quoted text: context_search for the exact text, rlm_run for other wordings.",
		args: []promptArg{{name: "target", desc: "what to find: a word, a phrase, an identifier, or a regular expression when regex is true", required: true},
			contextPathArg, {name: "regex", desc: "\"true\" when target is an RE2 regular expression (default \"false\": literal text)"}},
		text: func(a map[string]string) string {
			c := contextRef(a)
			regex := a["regex"] == "true"
			kind := "literal text"
			if regex {
				kind = "an RE2 regular expression"
			}
			target := jsonQuote(a["target"])
			search, verify, complete := "", "", ""
			if c.path != "" {
				search = fmt.Sprintf("Call context_search with path %s, pattern %s and regex %t. Each match gives the line number (index), the byte offset of the line (offset), "+
					"the file (for a directory) and the line's text (value). If the result is truncated, call it again with a larger max_results, or a narrower pattern, "+
					"until it is not.", c.path, target, regex)
				complete = ", and say whether the search was complete (not truncated)"
				verify = "Check each occurrence rlm_run reports that the search did not find with context_slice, or context_search for its exact text, before you list it."
			}
			what := "mentions " + a["target"]
			if regex {
				what = "matches the RE2 regular expression " + a["target"] + ", or says the same"
			}
			query := jsonQuote("List every place that " + what + ", including other wordings and indirect references. " +
				"For each, quote the exact text and give its line number or byte offset.")
			run := "Call rlm_run with " + c.run + " and this query: " + query
			if c.path != "" {
				run = "The same thing may be written other ways (other spellings, synonyms, indirect references): c" + run[1:]
			}
			return fmt.Sprintf("Find every occurrence of %s (%s) in %s, with evidence for each.\n\n%s%s%s", target, kind, c.where, notWhole, steps(
				search,
				run,
				verify,
				"List each occurrence once: where it is (file, line, byte offset) and the quoted text. Give the total count"+complete+"."),
				failureRule)
		},
	},
}

// addPrompts registers the served prompts on the SDK server.
func (s *Server) addPrompts() {
	for _, p := range servedPrompts {
		decl := &mcpsdk.Prompt{Name: p.name, Title: p.title, Description: p.desc}
		for _, a := range p.args {
			decl.Arguments = append(decl.Arguments, &mcpsdk.PromptArgument{Name: a.name, Description: a.desc, Required: a.required})
		}
		s.srv.AddPrompt(decl, s.promptHandler(p))
	}
}

// KindInvalidPromptArgs: prompts/get named an argument the prompt does not
// have, left out a required one, gave regex other than "true" or "false",
// or a context_path outside the allowed roots. It reaches the client as a
// JSON-RPC invalid-params error (-32602) with the typed error as data.
const KindInvalidPromptArgs fault.Kind = "invalid_prompt_arguments"

func (s *Server) promptHandler(p servedPrompt) mcpsdk.PromptHandler {
	return func(_ context.Context, req *mcpsdk.GetPromptRequest) (*mcpsdk.GetPromptResult, error) {
		args := req.Params.Arguments
		known := map[string]bool{}
		for _, a := range p.args {
			known[a.name] = true
			if a.required && strings.TrimSpace(args[a.name]) == "" {
				return nil, promptError(newErr(KindInvalidPromptArgs, "the prompt needs the argument "+a.name).With("prompt", p.name).With("argument", a.name).
					WithHint("give " + a.name + ": " + a.desc))
			}
		}
		var unknown []string
		for k := range args {
			if !known[k] {
				unknown = append(unknown, k)
			}
		}
		if len(unknown) > 0 {
			sort.Strings(unknown)
			return nil, promptError(newErr(KindInvalidPromptArgs, "the prompt has no argument "+strings.Join(unknown, ", ")).With("prompt", p.name).
				With("arguments", unknown))
		}
		if r, ok := args["regex"]; ok && r != "" && r != "true" && r != "false" {
			return nil, promptError(newErr(KindInvalidPromptArgs, `regex must be "true" or "false"`).With("prompt", p.name).With("regex", r))
		}
		if path := args["context_path"]; path != "" {
			if _, err := s.resolve(path); err != nil {
				return nil, promptError(fault.Wrap(err, Phase, KindInvalidPromptArgs, "context_path is not a context this server can read").
					With("prompt", p.name).With("path", path))
			}
		}
		return &mcpsdk.GetPromptResult{Description: p.desc, Messages: []*mcpsdk.PromptMessage{
			{Role: "user", Content: &mcpsdk.TextContent{Text: p.text(args)}},
		}}, nil
	}
}

// promptError is a refused prompts/get as MCP specifies it (invalid
// params, -32602), the typed error as its data.
func promptError(fe *fault.Error) error {
	data, _ := json.Marshal(fe)
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fe.Error(), Data: data}
}
