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
// when the memo does not take req (see convhash.Memo.Sum, or a document
// it cannot split around its messages): the caller then keys the whole
// document.
func memoKey(m *convhash.Memo, scope string, req model.Request) (string, bool) {
	if len(req.Messages) < convhash.MinMessages || len(req.Extra) > 0 {
		return "", false
	}
	bare := req
	bare.Messages, bare.CachePrefix = nil, false
	doc, err := fingerprint.Canonical(keyDoc{keyVersion, scope, bare})
	if err != nil {
		return "", false
	}
	// The key names come sorted, so "messages" once, at the request's
	// level, where no other member holds the same bytes.
	head, tail, ok := convhash.Split(doc)
	if !ok {
		return "", false
	}
	return m.Sum(head, req, tail)
}
