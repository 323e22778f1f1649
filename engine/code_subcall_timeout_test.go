package engine

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/repl"
)

// The cell's wall-time limit (Config.Code.CellTimeout) must interrupt a
// blocking sub-call: docs/code.md says the thread is cancelled at once and
// a host builtin that blocks must watch repl.Context(thread).
func TestCellTimeoutStopsBlockingLLMQuery(t *testing.T) {
	prov := model.ProviderFunc(func(ctx context.Context, req model.Request) (*model.Response, error) {
		if req.Messages[0].Role == model.RoleSystem {
			if strings.Contains(req.Messages[len(req.Messages)-1].Content, "TimeoutError") {
				return &model.Response{Text: py(`FINAL("done")`)}, nil
			}
			return &model.Response{Text: py(`r = llm_query("slow")`, `print("unreachable")`)}, nil
		}
		select { // a slow sub-model: 5 s unless cancelled
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(5 * time.Second):
			return &model.Response{Text: "late"}, nil
		}
	})
	eng, h := codeEngine(t, haystack, Config{Provider: prov, Code: repl.Config{CellTimeout: 200 * time.Millisecond}})
	start := time.Now()
	res, err := eng.Run(context.Background(), "q", h)
	el := time.Since(start)
	t.Logf("elapsed %v err %v answer %v", el, err, res.Answer)
	if el > 2*time.Second {
		t.Fatalf("a 200ms cell time limit did not interrupt llm_query: cell ran %v", el)
	}
}
