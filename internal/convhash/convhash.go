// Package convhash fingerprints model requests a conversation at a time.
// A run's conversation grows by a few messages a turn, and the document a
// request is fingerprinted as (the response cache's key, the durable
// record's digest) holds every message: hashed whole, the conversation's
// fingerprints cost a run time quadratic in its turns. A Memo keeps, for
// the conversations it hashed last, the SHA-256 state of their document
// up to their last message, so that the next request of a conversation
// (the same messages and more) hashes only what is new. What it returns
// is byte for byte fingerprint.Bytes of the whole document.
package convhash

import (
	"bytes"
	"slices"
	"sync"

	"github.com/rlm-go/rlm/fingerprint"
	"github.com/rlm-go/rlm/model"
)

// Entries is how many conversations a Memo remembers.
const Entries = 16

// MinMessages is the fewest messages of a request a Memo takes: a
// sub-call's one or two messages are hashed whole.
const MinMessages = 3

// null is how a document holds the request's messages, split out by
// Split: the request is encoded with Messages nil.
var null = []byte(`"messages":null`)

// split splits doc, a request's document encoded with its Messages nil,
// where the messages go: head is the document up to and including
// `"messages":[`, tail is `]` and the rest. It returns false when doc
// does not hold `"messages":null` exactly once (a tool's schema or an
// Extra value holding the same bytes).
func split(doc []byte) (head string, tail []byte, ok bool) {
	at := bytes.Index(doc, null)
	if at < 0 || bytes.Contains(doc[at+len(null):], null) {
		return "", nil, false
	}
	tail = append([]byte{']'}, doc[at+len(null):]...)
	return string(doc[:at]) + `"messages":[`, tail, true
}

// Memo remembers the SHA-256 states of the documents it hashed last,
// each up to its last message. Encode is how a message is written in the
// document (the messages are separated by commas); it must be the same
// for every call of one Memo. The zero Memo with Encode set is ready; it
// is safe for concurrent use.
type Memo struct {
	Encode func(model.Message) ([]byte, error)

	mu      sync.Mutex
	entries [Entries]*prefix
	tick    uint64
	reused  int
}

// prefix is a document hashed up to a request's last message: head, then
// msgs separated by commas. msgs are copies of the request's messages, in
// the form the document has them (CachePrefix's marks written in); arrays
// of them are shared by the prefixes that extend one another, appended to
// in place only by the prefix whose length is the array's tip. Only used
// changes once a prefix is stored, under Memo.mu.
type prefix struct {
	head string
	msgs []model.Message
	tip  *int
	h    *fingerprint.Hasher
	used uint64
}

// Reused returns how many sums went on from a stored prefix (for tests).
func (m *Memo) Reused() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.reused
}

// Sum returns fingerprint.Bytes of req's document as Request.CacheMarked
// has it, where doc encodes a request into its document (the messages
// written as Encode writes them, separated by commas). doc is given req
// without its messages (Messages nil, CachePrefix false), and Sum adds
// them. It returns false when the memo does not take req (fewer than
// MinMessages messages, an Extra map, a document that does not hold
// `"messages":null` exactly once, an encoding error): the caller hashes
// the whole document then.
func (m *Memo) Sum(req model.Request, doc func(bare model.Request) ([]byte, error)) (string, bool) {
	if len(req.Messages) < MinMessages || len(req.Extra) > 0 {
		return "", false
	}
	bare := req
	bare.Messages, bare.CachePrefix = nil, false
	d, err := doc(bare)
	if err != nil {
		return "", false
	}
	head, tail, ok := split(d)
	if !ok {
		return "", false
	}
	return m.sum(head, req, tail)
}

// sum is Sum of req's messages between head and tail, split's of the
// document of req without its messages.
func (m *Memo) sum(head string, req model.Request, tail []byte) (string, bool) {
	n := len(req.Messages)
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
		b, err := m.Encode(fold(j))
		if err != nil {
			return "", false
		}
		h.Write(b)
	}
	h.Write(tail)
	sum := h.Sum()
	if before != nil && from < n-1 {
		m.store(head, base, req.Messages[from:n-1], from, fold, before)
	}
	return sum, true
}

// lookup returns the longest stored prefix of the same head whose
// messages begin the request's (n messages, fold(j) the j-th as the
// document has it) and leave at least its last out, or nil. Under m.mu.
func (m *Memo) lookup(head string, n int, fold func(int) model.Message) *prefix {
	var best *prefix
	for _, e := range m.entries {
		if e == nil || e.head != head || len(e.msgs) > n-1 || best != nil && len(e.msgs) <= len(best.msgs) {
			continue
		}
		same := true
		for j := range e.msgs {
			if !SameMessage(e.msgs[j], fold(j)) {
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
func (m *Memo) store(head string, base *prefix, added []model.Message, from int, fold func(int) model.Message, h *fingerprint.Hasher) {
	copies := make([]model.Message, len(added))
	for i := range added {
		c := fold(from + i)
		c.ToolCalls, c.Images = slices.Clone(c.ToolCalls), slices.Clone(c.Images)
		copies[i] = c
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	e := &prefix{head: head, h: h}
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

// SameMessage reports whether a and b are written the same in a document:
// every field but an image's data, which documents name by its hash
// (Image.Data is not encoded). TestSameMessageFields fails when a field is
// added to a type a message encodes, until it is compared here.
func SameMessage(a, b model.Message) bool {
	return a.Role == b.Role && a.Content == b.Content && a.Name == b.Name && a.ToolCallID == b.ToolCallID &&
		a.CacheBreakpoint == b.CacheBreakpoint && slices.Equal(a.ToolCalls, b.ToolCalls) &&
		slices.EqualFunc(a.Images, b.Images, func(x, y model.Image) bool {
			return x.MediaType == y.MediaType && x.SHA256 == y.SHA256 && x.Width == y.Width && x.Height == y.Height && x.Detail == y.Detail
		})
}
