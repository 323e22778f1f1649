package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
)

// Config.ContextInPrompt puts the context in the root loop's first user
// message and not in the REPL; it needs code mode.
func TestContextInPrompt(t *testing.T) {
	store := corpus.NewStore()
	defer store.Close()
	h, err := store.AddString("doc", "alpha\nthe code is 4711\nomega\n")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New(Config{Provider: model.ProviderFunc(nil), Store: store, ContextInPrompt: true}); fault.KindOf(err) != fault.KindInvalidConfig {
		t.Fatalf("plan mode: %v", err)
	}
	var reqs []model.Request
	replies := []string{"```python\nprint(type(context))\n```", "```python\nFINAL(\"4711\")\n```"}
	p := model.ProviderFunc(func(_ context.Context, req model.Request) (*model.Response, error) {
		reqs = append(reqs, req)
		return &model.Response{Text: replies[min(len(reqs)-1, 1)]}, nil
	})
	e, err := New(Config{Provider: p, Store: store, Mode: ModeCode, ContextInPrompt: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.NewSession(h); fault.KindOf(err) != fault.KindInvalidConfig {
		t.Fatalf("a session: %v", err)
	}
	res, err := e.Run(context.Background(), "What is the code?", h)
	if err != nil || res.Answer != "4711" {
		t.Fatalf("%v %v", res, err)
	}
	sys, first := reqs[0].Messages[0].Content, reqs[0].Messages[1].Content
	if !strings.HasPrefix(first, "Context:\n<<<\nalpha\nthe code is 4711\nomega\n\n>>>\n\nQuery: What is the code?") {
		t.Fatalf("first user message %q", first)
	}
	if strings.Contains(sys, "context.search(") || strings.Contains(sys, "First bytes of the context") || !strings.Contains(sys, codeInPromptIntro) {
		t.Fatalf("system prompt:\n%s", sys)
	}
	if obs := reqs[1].Messages[len(reqs[1].Messages)-1].Content; !strings.Contains(obs, "NameError") {
		t.Fatalf("the REPL holds a context: %q", obs)
	}
}
