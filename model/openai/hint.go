package openai

import (
	"fmt"
)

// cassetteExhaustedCode is the error code of a replay server (model/replay)
// that has no unused interaction for a request. It is matched here, not
// imported, because model/replay builds on this package.
const cassetteExhaustedCode = "cassette_exhausted"

// statusHint is the one-line remedy for an HTTP error status, or "".
func (p *Provider) statusHint(status int, code string) string {
	switch {
	case code == cassetteExhaustedCode:
		return "the replay cassette has no unused interaction for this request: record it again (--record) or add interactions to the cassette"
	case status == 401:
		if p.key == "" {
			return fmt.Sprintf("no API key was sent: set %s to your API key, or name the variable that holds it with --api-key-env", p.keyEnv)
		}
		return fmt.Sprintf("the server rejected the API key from %s: check the key, or name the right variable with --api-key-env", p.keyEnv)
	case status == 403:
		return "the key is not allowed to do this: check its permissions and the --model name"
	case status == 404 && code != "":
		return fmt.Sprintf("the server does not know this model or route (%s): check --model and --base-url %s", code, p.call.BaseURL)
	case status == 404:
		return fmt.Sprintf("nothing at %s: does --base-url end in the API version path (usually /v1)?", p.endpoint)
	case status == 429:
		return "rate limited or out of quota: wait and try again, lower --max-concurrency, or check the account's quota"
	case status >= 500:
		return "the server failed: try again later"
	case status == 400 || status == 413 || status == 422:
		return "the server refused the request: check --model and the server's limits (context length, max tokens)"
	}
	return ""
}

// malformedHint is the remedy for a body that is not a chat completion.
func (p *Provider) malformedHint() string {
	return fmt.Sprintf("the server at %s did not answer like an OpenAI-compatible chat-completions API: check --base-url", p.call.BaseURL)
}

// contextSizeHint is the remedy for a prompt longer than the server's
// context (llama.cpp exceed_context_size_error, OpenAI
// context_length_exceeded).
const contextSizeHint = "the prompt is longer than the model's context on this server: raise the server's context size (llama.cpp -c / --ctx-size), or send less (a smaller context slice or fewer turns)"

// okErrorHint is the remedy for an error body sent with a 2xx status.
func (p *Provider) okErrorHint() string {
	return fmt.Sprintf("the server answered with an error instead of a chat completion: check --model, and that --base-url (%s) ends in the API version path (usually /v1)", p.call.BaseURL)
}
