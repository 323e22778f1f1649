package openai

import (
	"os"
	"strings"
)

// The environment variables a base URL defaults from, in the order
// BaseURLEnv reads them: the rlm command's own, then the one the OpenAI
// SDKs read.
const (
	RLMBaseURLEnv    = "RLM_BASE_URL"
	OpenAIBaseURLEnv = "OPENAI_BASE_URL"
)

// BaseURLEnv returns the base URL the environment sets and the variable it
// came from: RLM_BASE_URL when it is set, else OPENAI_BASE_URL; a value
// that is empty or only spaces counts as unset. Both results are "" when
// neither is set. The value is returned as it is (trimmed); New checks it.
//
// OPENAI_BASE_URL names an OpenAI-compatible server: a caller that talks
// to another protocol (model/anthropic) should not take it from here.
func BaseURLEnv() (url, env string) {
	for _, name := range []string{RLMBaseURLEnv, OpenAIBaseURLEnv} {
		if v := strings.TrimSpace(os.Getenv(name)); v != "" {
			return v, name
		}
	}
	return "", ""
}

// BaseURLFromEnv is the base URL of a caller that was given none:
// RLM_BASE_URL, else OPENAI_BASE_URL, else DefaultBaseURL. New does not
// read the environment for the base URL (an empty Config.BaseURL is
// DefaultBaseURL); a command line uses this as its flag's default.
func BaseURLFromEnv() string {
	if u, _ := BaseURLEnv(); u != "" {
		return u
	}
	return DefaultBaseURL
}
