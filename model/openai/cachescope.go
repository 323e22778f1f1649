package openai

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"

	"github.com/rlm-go/rlm/fingerprint"
)

// CacheScope identifies the owner of this provider's responses for a
// response cache (package model/cache): a fingerprint over the base URL,
// the default model, a SHA-256 of the API key and of every custom header
// value. Two providers share a scope only with the same endpoint and the
// same credentials; the key and header values cannot be recovered from it.
func (p *Provider) CacheScope() string {
	digest := func(s string) string {
		if s == "" {
			return ""
		}
		sum := sha256.Sum256([]byte(s))
		return hex.EncodeToString(sum[:])
	}
	var headers []string
	for name, vals := range p.headers {
		headers = append(headers, strings.ToLower(name)+":"+digest(strings.Join(vals, "\n")))
	}
	slices.Sort(headers)
	return fingerprint.MustOf(map[string]any{
		"base_url": p.call.BaseURL, "model": p.model, "key": digest(p.key), "headers": headers,
	})
}
