package engine

import (
	"testing"
)

// Replies written for the official RLM implementation run unchanged: its
// ```repl fences, the predeclared answer dict it finishes with, and its
// llm_query.
func TestCodeOfficialProtocolReplies(t *testing.T) {
	first := "I'll look at the start of the context first.\n```repl\n" +
		"chunk = context[:40]\n" +
		"print(len(context), chunk.split()[0])\n" +
		"print(answer)\n```\n"
	second := "Now I can answer.\n```repl\n" +
		"summary = llm_query(f\"Summarize: {chunk}\")\n" +
		"answer[\"content\"] = summary.strip()\n" +
		"answer[\"ready\"] = True\n```\n"
	f := newFixture(t, haystack, codeCfg(),
		reply("Query: summarize", first),
		reply("{'content': '', 'ready': False}", second),
		reply("Summarize:", "  a short summary  "),
	)
	res, err := f.run(t, "summarize the context")
	if err != nil {
		t.Fatal(err)
	}
	if res.Answer != "a short summary" {
		t.Fatalf("answer %#v", res.Answer)
	}
}
