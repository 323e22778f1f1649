package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/golden"
)

// TestServePrompts lists the served prompts and expands each through the
// SDK's client: the declarations (names, arguments, which are required)
// and every message are pinned by testdata/prompts.golden.json, each
// message steers to rlm_run and names only tools the server offers, and
// a path or inline context is spelled as those tools take it.
func TestServePrompts(t *testing.T) {
	f := newServeFixture(t, false)
	ctx := context.Background()
	var tools []string
	for tl, err := range f.sess.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		tools = append(tools, tl.Name)
	}
	var listed []*mcpsdk.Prompt
	for p, err := range f.sess.Prompts(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		listed = append(listed, p)
	}
	var names []string
	for _, p := range listed {
		names = append(names, p.Name)
	}
	if strings.Join(names, ",") != "answer_question,find_occurrences,summarize_context" {
		t.Fatalf("prompts/list: %v", names)
	}
	cases := []struct {
		prompt string
		args   map[string]string
		// in are strings the message must hold: the tool calls as the
		// tools take their arguments.
		in []string
	}{
		{PromptAnswer, map[string]string{"question": "Which service failed first?", "context_path": "log.txt"},
			[]string{"rlm_run", `context_path "log.txt"`, "Which service failed first?", `context_search with path "log.txt"`, "trace_id"}},
		{PromptAnswer, map[string]string{"question": "Who signed?"}, []string{"rlm_run", "context_text"}},
		{PromptSummarize, map[string]string{"context_path": "log.txt", "focus": "errors"},
			[]string{`context_metadata with path "log.txt"`, `rlm_run with context_path "log.txt"`, "focusing on errors"}},
		{PromptSummarize, map[string]string{}, []string{"rlm_run with context_text"}},
		{PromptFind, map[string]string{"target": "disk full", "context_path": "log.txt"},
			[]string{`context_search with path "log.txt", pattern "disk full" and regex false`, "max_results", "rlm_run", "context_slice"}},
		{PromptFind, map[string]string{"target": `ERROR \w+`, "context_path": "log.txt", "regex": "true"},
			[]string{`pattern "ERROR \\w+" and regex true`, "RE2"}},
		{PromptFind, map[string]string{"target": "Q3 revenue"}, []string{"rlm_run with context_text", `"Q3 revenue"`}},
	}
	toolRE := regexp.MustCompile(`\b(rlm_[a-z]+|context_(?:metadata|search|slice))\b`)
	type expanded struct {
		Prompt   string                  `json:"prompt"`
		Args     map[string]string       `json:"args"`
		Messages []*mcpsdk.PromptMessage `json:"messages"`
	}
	var all []expanded
	for _, tc := range cases {
		res, err := f.sess.GetPrompt(ctx, &mcpsdk.GetPromptParams{Name: tc.prompt, Arguments: tc.args})
		if err != nil {
			t.Fatalf("%s %v: %v", tc.prompt, tc.args, err)
		}
		if len(res.Messages) != 1 || res.Messages[0].Role != "user" {
			t.Fatalf("%s: messages %v", tc.prompt, res.Messages)
		}
		text := res.Messages[0].Content.(*mcpsdk.TextContent).Text
		for _, want := range tc.in {
			if !strings.Contains(text, want) {
				t.Errorf("%s %v: the message lacks %q:\n%s", tc.prompt, tc.args, want, text)
			}
		}
		for _, m := range toolRE.FindAllString(text, -1) {
			if !slices.Contains(tools, m) {
				t.Errorf("%s: the message names %s, which the server does not offer (%v)", tc.prompt, m, tools)
			}
		}
		if tc.args["context_path"] == "" && strings.Contains(text, "context_search with") {
			t.Errorf("%s: an inline context steers to a context tool, which needs a path:\n%s", tc.prompt, text)
		}
		all = append(all, expanded{tc.prompt, tc.args, res.Messages})
	}
	golden.CheckJSON(t, "prompts.golden.json", map[string]any{"prompts": listed, "expanded": all})
}

// TestServePromptRefusals: prompts/get refuses, as MCP says (invalid
// params, -32602), a missing required argument, an argument the prompt
// does not have, a regex other than true/false, a context_path outside
// the roots and an unknown prompt; the data is the typed error.
func TestServePromptRefusals(t *testing.T) {
	f := newServeFixture(t, false)
	for _, tc := range []struct {
		prompt string
		args   map[string]string
		kind   fault.Kind // "" for the SDK's own refusal (no typed data)
	}{
		{PromptAnswer, map[string]string{"context_path": "log.txt"}, KindInvalidPromptArgs},
		{PromptAnswer, map[string]string{"question": "  "}, KindInvalidPromptArgs},
		{PromptFind, map[string]string{"context_path": "log.txt"}, KindInvalidPromptArgs},
		{PromptSummarize, map[string]string{"context_path": "log.txt", "lenght": "short"}, KindInvalidPromptArgs},
		{PromptFind, map[string]string{"target": "x", "regex": "yes"}, KindInvalidPromptArgs},
		{PromptSummarize, map[string]string{"context_path": "../outside.txt"}, KindInvalidPromptArgs},
		{PromptSummarize, map[string]string{"context_path": "/etc/passwd"}, KindInvalidPromptArgs},
		{"no_such_prompt", nil, ""},
	} {
		_, err := f.sess.GetPrompt(context.Background(), &mcpsdk.GetPromptParams{Name: tc.prompt, Arguments: tc.args})
		var je *jsonrpc.Error
		if !errors.As(err, &je) || je.Code != jsonrpc.CodeInvalidParams {
			t.Errorf("%s %v: %v, want a -32602 error", tc.prompt, tc.args, err)
			continue
		}
		if tc.kind == "" {
			continue
		}
		var data struct {
			Phase fault.Phase `json:"phase"`
			Kind  fault.Kind  `json:"kind"`
			Hint  string      `json:"hint"`
		}
		if err := json.Unmarshal(je.Data, &data); err != nil || data.Phase != Phase || data.Kind != tc.kind {
			t.Errorf("%s %v: data %s, want kind %s", tc.prompt, tc.args, je.Data, tc.kind)
		}
	}
}
