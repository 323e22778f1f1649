package openai_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/openai"
)

// Talk to any OpenAI-compatible server (OpenAI, OpenRouter, Ollama, vLLM,
// llama.cpp). The key normally comes from the environment (APIKeyEnv);
// a refused key is an http_status error whose text never holds the key.
func ExampleNew() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer sk-test" {
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = io.WriteString(w, `{"error":{"message":"bad key","type":"invalid_request_error"}}`)
			return
		}
		body, _ := io.ReadAll(r.Body)
		fmt.Println(r.URL.Path, strings.Contains(string(body), `"model":"openai/gpt-4o-mini"`))
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"id":"chatcmpl-1","object":"chat.completion","model":"openai/gpt-4o-mini",
			"choices":[{"index":0,"message":{"role":"assistant","content":"Paris"},"finish_reason":"stop"}],
			"usage":{"prompt_tokens":14,"completion_tokens":1,"total_tokens":15}}`)
	}))
	defer srv.Close()

	ctx := context.Background()
	// srv stands in for "https://openrouter.ai/api/v1" or "http://localhost:11434/v1".
	p, err := openai.New(openai.Config{
		BaseURL: srv.URL + "/v1",
		Model:   "openai/gpt-4o-mini",
		APIKey:  "sk-test", // leave empty to read OPENAI_API_KEY (OPENROUTER_API_KEY for openrouter.ai)
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	req := model.Request{Messages: []model.Message{{Role: model.RoleUser, Content: "Capital of France?"}}}
	resp, err := p.Complete(ctx, req)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(resp.Text, resp.Usage.TotalTokens, resp.Meta.HTTPStatus)

	bad, _ := openai.New(openai.Config{BaseURL: srv.URL + "/v1", Model: "openai/gpt-4o-mini", APIKey: "sk-wrong"})
	_, err = bad.Complete(ctx, req)
	fmt.Println(fault.KindOf(err), fault.As(err).Detail["status"], strings.Contains(err.Error(), "sk-wrong"))
	// Output:
	// /v1/chat/completions true
	// Paris 15 200
	// http_status 401 false
}
