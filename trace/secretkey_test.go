package trace

import (
	"strings"
	"testing"
)

// TestIsSecretKeyPluralAndCompound: plural and compound credential names
// are secrets (a plural "..._tokens" was read as a token count, and a
// camelCase "privateKey" lost its word boundary), while usage counts,
// singular or plural, snake_case, camelCase or dotted, stay readable.
func TestIsSecretKeyPluralAndCompound(t *testing.T) {
	secret := []string{
		"refresh_tokens", "access_tokens", "id_tokens", "auth_tokens", "oauth_tokens", "session_tokens",
		"csrf_tokens", "api_tokens", "refreshTokens", "accessTokens", "X-Refresh-Tokens", "refreshtokens",
		"api_keys", "apiKeys", "client_secrets", "privateKey", "private_keys", "passwords", "credentials",
		"accessToken", "x_token", "token", "github_token", "Set-Cookie",
	}
	counts := []string{
		"tokens", "max_tokens", "input_tokens", "output_tokens", "prompt_tokens", "completion_tokens",
		"total_tokens", "max_total_tokens", "cached_tokens", "reasoning_tokens", "cache_read_input_tokens",
		"gen_ai.usage.input_tokens", "gen_ai.usage.output_tokens", "prompt_tokens_details",
		"completion_tokens_details", "inputTokens", "maxTokens", "promptTokens", "tokens_known",
		"max-total-tokens", "token_count", "token_usage", "model",
	}
	for _, k := range secret {
		if !IsSecretKey(k) {
			t.Errorf("IsSecretKey(%q) = false, want true", k)
		}
	}
	for _, k := range counts {
		if IsSecretKey(k) {
			t.Errorf("IsSecretKey(%q) = true, want false (a count, not a secret)", k)
		}
	}
	// Through the redactor: the secret goes, the counts stay.
	got := Redact(map[string]any{"refresh_tokens": []any{"rt-1", "rt-2"}, "prompt_tokens": 12,
		"usage": map[string]any{"prompt_tokens_details": map[string]any{"cached_tokens": 3}}})
	if got["refresh_tokens"] != Redacted || got["prompt_tokens"] != 12 {
		t.Errorf("Redact = %#v", got)
	}
	if d, ok := got["usage"].(map[string]any)["prompt_tokens_details"].(map[string]any); !ok || d["cached_tokens"] != 3 {
		t.Errorf("usage details redacted: %#v", got["usage"])
	}
}

// TestIsSecretKeyCached: the cached answer is the computed one, asked
// twice, for the keys of the tests above and case and separator variants.
func TestIsSecretKeyCached(t *testing.T) {
	for _, k := range []string{"api_key", "API-KEY", "apiKey", "max_tokens", "refresh_tokens", "token_count", "token", "model",
		"prompt_tokens_details", "Proxy-Authorization", "client_secrets", strings.Repeat("k", 65) + "_secret"} {
		for range 2 {
			if got, want := IsSecretKey(k), isSecretKey(k); got != want {
				t.Fatalf("IsSecretKey(%q) = %v, want %v", k, got, want)
			}
		}
	}
}
