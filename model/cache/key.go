package cache

import (
	"github.com/rlm-go/rlm/fingerprint"
	"github.com/rlm-go/rlm/internal/convhash"
	"github.com/rlm-go/rlm/model"
)

// keyDoc is what a key is the fingerprint of.
type keyDoc struct {
	Version int           `json:"version"`
	Scope   string        `json:"scope"`
	Request model.Request `json:"request"`
}

// newKeyMemo returns the memo of a Cache's keys: for the conversations it
// keyed last, the SHA-256 state of their key document up to their last
// message, so that the key of a conversation's next request hashes only
// what is new. The key is byte for byte the one fingerprint.Of gives the
// whole document (TestKeyMemoIsTheKey).
func newKeyMemo() *convhash.Memo {
	return &convhash.Memo{Encode: func(m model.Message) ([]byte, error) { return fingerprint.Canonical(m) }}
}

// memoKey returns the key of req under scope through the memo m, or false
// when the memo does not take req (convhash.Memo.Sum): the caller then
// keys the whole document. The key names come sorted, so "messages" is
// once at the request's level, where no other member holds the same
// bytes.
func memoKey(m *convhash.Memo, scope string, req model.Request) (string, bool) {
	return m.Sum(req, func(bare model.Request) ([]byte, error) {
		return fingerprint.Canonical(keyDoc{keyVersion, scope, bare})
	})
}
