package anthropic

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/rlm-go/rlm/fingerprint"
)

// CacheScope identifies the owner of this provider's responses for a
// response cache (package model/cache): a fingerprint over the API, the
// base URL, the API version, the default model and a SHA-256 of the key.
// Two providers share a scope only with the same endpoint and the same
// credentials; the key cannot be recovered from it.
func (p *Provider) CacheScope() string {
	key := ""
	if p.key != "" {
		sum := sha256.Sum256([]byte(p.key))
		key = hex.EncodeToString(sum[:])
	}
	return fingerprint.MustOf(map[string]any{
		"api": "anthropic-messages", "base_url": p.call.BaseURL, "version": p.version, "model": p.model, "key": key,
	})
}
