package bpe_test

import (
	"fmt"

	_ "github.com/rlm-go/rlm/bpe"
	"github.com/rlm-go/rlm/model"
)

// Import the package for its side effect: prompt token counts for the
// models that use OpenAI's encodings become exact, so budget admission
// reserves what the server will count rather than an estimate above it.
func Example() {
	req := model.Request{Messages: []model.Message{{Role: model.RoleUser, Content: "Which service failed first?"}}}
	w := model.Worst(req, "gpt-4o-mini", 0)
	fmt.Println(w.PromptTokens, w.Model)
	// Output:
	// 14 gpt-4o-mini
}
