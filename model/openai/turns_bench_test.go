package openai_test

import (
	"testing"

	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/internal/msgcache/msgcachetest"
	"github.com/rlm-go/rlm/model/openai"
)

// BenchmarkCompleteTurns sends the requests of a conversation of 40 turns
// like bench/turnserver's, each through Provider.Complete to a local
// server that reads and drops the body and answers with a fixed
// completion (msgcachetest.BenchTurns): the encoding and the sending of a
// growing conversation. B/op and allocs/op are per 40 turns, the
// server's side included.
func BenchmarkCompleteTurns(b *testing.B) {
	msgcachetest.BenchTurns(b, 40, false, textCompletion, func(url string) (model.Provider, error) {
		return openai.New(openai.Config{BaseURL: url + "/v1", Model: "gpt-4o-mini", APIKey: "sk-test-key"})
	})
}
