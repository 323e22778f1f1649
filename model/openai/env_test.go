package openai_test

import (
	"testing"

	"github.com/rlm-go/rlm/model/openai"
)

// RLM_BASE_URL wins over OPENAI_BASE_URL, which wins over the public API;
// a blank variable counts as unset.
func TestBaseURLFromEnv(t *testing.T) {
	for _, tc := range []struct {
		name, rlm, oai string
		want, wantEnv  string
	}{
		{name: "neither", want: openai.DefaultBaseURL},
		{name: "rlm only", rlm: "http://localhost:11434/v1", want: "http://localhost:11434/v1", wantEnv: openai.RLMBaseURLEnv},
		{name: "openai only", oai: "https://proxy.example/v1", want: "https://proxy.example/v1", wantEnv: openai.OpenAIBaseURLEnv},
		{name: "both", rlm: "http://a.example/v1", oai: "http://b.example/v1", want: "http://a.example/v1", wantEnv: openai.RLMBaseURLEnv},
		{name: "blank rlm", rlm: "  ", oai: " http://b.example/v1 ", want: "http://b.example/v1", wantEnv: openai.OpenAIBaseURLEnv},
		{name: "both blank", rlm: " ", oai: "\t", want: openai.DefaultBaseURL},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(openai.RLMBaseURLEnv, tc.rlm)
			t.Setenv(openai.OpenAIBaseURLEnv, tc.oai)
			if got := openai.BaseURLFromEnv(); got != tc.want {
				t.Errorf("BaseURLFromEnv() = %q, want %q", got, tc.want)
			}
			u, env := openai.BaseURLEnv()
			wantURL := tc.want
			if tc.wantEnv == "" {
				wantURL = ""
			}
			if u != wantURL || env != tc.wantEnv {
				t.Errorf("BaseURLEnv() = %q, %q; want %q, %q", u, env, wantURL, tc.wantEnv)
			}
		})
	}
}
