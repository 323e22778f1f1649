package bench

import (
	"context"
	"testing"

	"github.com/rlm-go/rlm"
	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/model"
)

// Method auto reports its choice per trial and per summary, next to the
// other methods: a session whose window holds the task answers with the
// direct call, one whose window does not runs the engine in code mode.
func TestMethodAutoReportsItsChoice(t *testing.T) {
	scripted := model.ProviderFunc(func(_ context.Context, req model.Request) (*model.Response, error) {
		text := "```python\nFINAL(\"from code\")\n```"
		if req.Messages[0].Content == directSystem {
			text = "from direct"
		}
		return &model.Response{Text: text, Usage: budget.Usage{Calls: 1, PromptTokens: 100, CompletionTokens: 10, TotalTokens: 110, TokensKnown: true}}, nil
	})
	for _, c := range []struct {
		window     int
		want       string
		answer     string
		directRuns int
	}{
		{1_000_000, rlm.AutoDirect, "from direct", benchRuns},
		// A window that holds the code-mode root's prompt and max_tokens,
		// a share of it that does not hold the task.
		{10_000, rlm.AutoCode, "from code", 0},
	} {
		t.Run(c.want, func(t *testing.T) {
			sess, err := rlm.Open(context.Background(), rlm.Spec{Model: benchModel, ContextWindow: c.window, AutoShare: 0.05, Cache: rlm.CacheSpec{Off: true}}, rlm.WithProvider(scripted))
			if err != nil {
				t.Fatal(err)
			}
			defer sess.Close()
			rep, err := Run(context.Background(), Config{Task: KindNIAH, Size: benchSize, Runs: benchRuns, Seed: benchSeed, Session: sess,
				Methods: []Method{MethodAuto, MethodDirect}})
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, tr := range rep.Trials {
				if tr.Method != MethodAuto {
					if tr.Auto != nil {
						t.Fatalf("a %s trial has an auto choice", tr.Method)
					}
					continue
				}
				n++
				if tr.Status != StatusOK || tr.Auto == nil || tr.Auto.Chosen != c.want || tr.Auto.Window != c.window || tr.Answer != c.answer {
					t.Fatalf("trial %+v auto %+v", tr, tr.Auto)
				}
			}
			s := rep.Summaries[0]
			if n != benchRuns || s.Method != MethodAuto || s.AutoDirect != c.directRuns || s.AutoDirect+s.AutoCode != benchRuns {
				t.Fatalf("%d auto trials, summary %+v", n, s)
			}
			if rep.Summaries[1].AutoDirect+rep.Summaries[1].AutoCode != 0 {
				t.Fatalf("direct summary %+v", rep.Summaries[1])
			}
		})
	}
}
