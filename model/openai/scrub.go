package openai

import "github.com/rlm-go/rlm/model/internal/scrub"

// MinContentSecretLen is the shortest secret scrubbed from the content of a
// successful response and looked for in derived forms; see package
// model/internal/scrub for the whole rule.
const MinContentSecretLen = scrub.MinContentLen

// Scrub returns s with the API key and the secret header values (of at
// least MinContentSecretLen bytes) replaced by "[redacted]", in every form
// a server might echo them: plain, JSON- or \u-escaped, reversed, in
// another letter case. The provider applies it to every response it
// returns; a recorder (model/replay) applies it to what it writes.
func (p *Provider) Scrub(s string) string { return p.call.Secrets.Content(s) }
