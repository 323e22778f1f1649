package cache

import (
	"bytes"
	"slices"
	"sync"

	"github.com/rlm-go/rlm/fingerprint"
	"github.com/rlm-go/rlm/model"
)

// keyDoc is what a key is the fingerprint of.
type keyDoc struct {
	Version int           `json:"version"`
	Scope   string        `json:"scope"`
	Request model.Request `json:"request"`
}

// keyEntries is how many conversations a Cache's key memo remembers.
const keyEntries = 16

// minMemo is the fewest messages of a request whose key goes through the
// memo: a sub-call's one or two messages are keyed whole.
const minMemo = 3

// keyMemo remembers, for the conversations a Cache keyed last, the SHA-256
// state of their key document up to their last message, so that the key
// of a conversation's next request (the same messages and more) hashes
// only what is new: a key no longer costs a turn the whole conversation's
// encoding. The key is byte for byte the one fingerprint.Of gives the
// whole document (TestKeyMemoIsTheKey).
type keyMemo struct {
	mu      sync.Mutex
	entries [keyEntries]*keyPrefix
	tick    uint64
	reused  int // keys that went on from a stored prefix (tests observe it)
}

// keyPrefix is a key document hashed up to a request's last message: head
// (the document up to and including `"messages":[`), then msgs separated
// by commas. msgs are copies of the request's messages, in the form the
// key has them (CachePrefix's marks written in); arrays of them are
// shared by the prefixes that extend one another, appended to in place
// only by the prefix whose length is the array's tip. Only used changes
// once a prefix is stored, under keyMemo.mu.
type keyPrefix struct {
	head string
	msgs []model.Message
	tip  *int
	h    *fingerprint.Hasher
	used uint64
}

// key returns the key of req under scope, or false when the memo does not
// take req (too few messages, an Extra map, a document it cannot split
// around its messages): the caller then keys the whole document.
func (m *keyMemo) key(scope string, req model.Request) (string, bool) {
	n := len(req.Messages)
	if n < minMemo || len(req.Extra) > 0 {
		return "", false
	}
	bare := req
	bare.Messages, bare.CachePrefix = nil, false
	doc, err := fingerprint.Canonical(keyDoc{keyVersion, scope, bare})
	if err != nil {
		return "", false
	}
	// The document without its messages, split where they go: the key
	// names come sorted, so "messages" once, at the request's level, where
	// no other member holds the same bytes.
	null := []byte(`"messages":null`)
	at := bytes.Index(doc, null)
	if at < 0 || bytes.Contains(doc[at+len(null):], null) {
		return "", false
	}
	head := string(doc[:at]) + `"messages":[`
	sys := -1
	if req.CachePrefix {
		sys, _ = model.CachePrefixAt(req.Messages)
	}
	fold := func(j int) model.Message {
		msg := req.Messages[j]
		if req.CachePrefix && (j == sys || j == n-1) {
			msg.CacheBreakpoint = true
		}
		return msg
	}

	m.mu.Lock()
	base := m.lookup(head, n, fold)
	var h *fingerprint.Hasher
	from := 0
	if base != nil {
		m.tick++
		base.used = m.tick
		if c, ok := base.h.Clone(); ok {
			h, from = c, len(base.msgs)
			m.reused++
		}
	}
	m.mu.Unlock()
	if h == nil {
		base = nil
		h = fingerprint.NewHasher()
		h.Write([]byte(head))
	}
	var before *fingerprint.Hasher // the state up to the last message
	for j := from; j < n; j++ {
		if j == n-1 {
			before, _ = h.Clone()
		}
		if j > 0 {
			h.Write([]byte{','})
		}
		b, err := fingerprint.Canonical(fold(j))
		if err != nil {
			return "", false
		}
		h.Write(b)
	}
	h.Write([]byte{']'})
	h.Write(doc[at+len(null):])
	sum := h.Sum()
	if before != nil && from < n-1 {
		m.store(head, base, req.Messages[from:n-1], from, fold, before)
	}
	return sum, true
}

// lookup returns the longest stored prefix of the same head whose
// messages begin the request's (n messages, fold(j) the j-th as the key
// has it) and leave at least its last out, or nil. Under m.mu.
func (m *keyMemo) lookup(head string, n int, fold func(int) model.Message) *keyPrefix {
	var best *keyPrefix
	for _, e := range m.entries {
		if e == nil || e.head != head || len(e.msgs) > n-1 || best != nil && len(e.msgs) <= len(best.msgs) {
			continue
		}
		same := true
		for j := range e.msgs {
			if !sameMessage(e.msgs[j], fold(j)) {
				same = false
				break
			}
		}
		if same {
			best = e
		}
	}
	return best
}

// store keeps the prefix of a request hashed up to its last message: base
// (nil for none) and then added, the request's messages from index from,
// written as fold gives them; h is the state after them.
func (m *keyMemo) store(head string, base *keyPrefix, added []model.Message, from int, fold func(int) model.Message, h *fingerprint.Hasher) {
	copies := make([]model.Message, len(added))
	for i := range added {
		c := fold(from + i)
		c.ToolCalls, c.Images = slices.Clone(c.ToolCalls), slices.Clone(c.Images)
		copies[i] = c
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	e := &keyPrefix{head: head, h: h}
	if base != nil && *base.tip == len(base.msgs) && cap(base.msgs)-len(base.msgs) >= len(copies) {
		// Nothing was written after base's messages: append in place.
		e.msgs, e.tip = append(base.msgs, copies...), base.tip
	} else {
		var prev []model.Message
		if base != nil {
			prev = base.msgs
		}
		e.msgs = make([]model.Message, 0, 2*(len(prev)+len(copies)))
		e.msgs = append(append(e.msgs, prev...), copies...)
		e.tip = new(int)
	}
	*e.tip = len(e.msgs)
	m.tick++
	e.used = m.tick
	// The prefix replaces the one it extends (a conversation takes one
	// entry), else an empty entry, else the least recently used.
	slot := -1
	for i, old := range m.entries {
		if old == base && base != nil {
			slot = i
			break
		}
		if slot < 0 || m.entries[slot] != nil && (old == nil || old.used < m.entries[slot].used) {
			slot = i
		}
	}
	m.entries[slot] = e
}
