// Package msgcache keeps the encodings of the messages of a provider's
// last requests, so that a conversation's next request, which repeats
// all its messages and adds one or two, converts and encodes only the
// new ones (model/openai, model/anthropic). A provider's Converter turns
// messages into its wire messages; the Cache shares the encodings of
// those that cannot change between the requests of a conversation.
package msgcache

import (
	"bytes"
	"slices"
	"sync"

	"github.com/rlm-go/rlm/internal/lru"
	"github.com/rlm-go/rlm/model"
)

// Entries is how many conversations a Cache remembers.
const Entries = 4

// MinCached is the fewest messages of a request a Cache remembers.
const MinCached = 3

// Converter turns a request's messages, one after the other, into the
// encodings of its wire messages, separated by commas. A Converter is
// made for one request.
type Converter interface {
	// Add converts message i, m, and appends to dst the encodings of
	// the wire messages it completes (a comma before each when dst is
	// not empty).
	Add(dst []byte, i int, m *model.Message) ([]byte, error)
	// From returns, after Add(i), the message from which a new
	// Converter, given the encodings appended so far, goes on as this
	// one would: i+1 when nothing is held, the first message of a wire
	// message still open (whose messages, added again, complete
	// nothing), or -1 when there is none (a request sharing messages
	// up to i cannot share their encodings).
	From(i int) int
	// Flush appends what the Converter still holds that ends the
	// request's messages in the shared encodings (model/openai's tool
	// images), or nothing.
	Flush(dst []byte) ([]byte, error)
}

// Cache remembers the messages of the last conversations a provider
// sent (Entries of them) with their encodings: without it, encoding the
// requests of an n-turn run took time quadratic in n. A message is
// reused only when it equals, field by field, the copy kept of the one
// encoded (strings compared whole, unless they are the same string; an
// image's bytes compared), so the body is always the one encoding it
// would have been. Requests of fewer than MinCached messages (sub-calls,
// a conversation's first turn) are not remembered, so a fan-out does not
// push its root's conversation out. Entries keep their messages alive,
// at most Entries conversations per Cache.
//
// The requests of a conversation share what they keep, neither copied
// nor converted again each turn (Encode): each entry's messages, marks
// and body are slices of arrays the next request appends to. Which entry
// may append is its tip's: the one holding all that was written to the
// arrays, while no other request is appending.
type Cache struct {
	// Breakpoints makes Message.CacheBreakpoint part of what a message
	// must share to be reused (its encoding depends on it).
	Breakpoints bool

	mu      sync.Mutex
	entries [Entries]*encoded
	tick    uint64
}

// encoded is one request's messages, copied, and their encodings; only
// used changes once it is stored (under Cache.mu), and the elements of
// its slices never do.
type encoded struct {
	in    []model.Message // copies: ToolCalls and image data too
	marks []mark          // marks[i]: Converter.From(i), and where the encodings end
	body  []byte          // the wire messages' encodings, separated by commas
	tip   *tip
	used  uint64
}

// mark is where the encodings complete after a request's message end in
// body, and the message a Converter goes on from there (Converter.From).
type mark struct {
	end, from int
}

// tip is how far arrays that entries share are written: msgs messages
// and marks, and bytes bytes of body. The entry holding just that may
// append after its slices when busy is false. Its fields are guarded by
// Cache.mu.
type tip struct {
	msgs, bytes int
	busy        bool // a request is appending
}

// Encode returns the encodings of the wire messages of msgs cv
// completes, separated by commas (and what cv.Flush appends). The
// leading messages an earlier request of the conversation shares with
// msgs, up to a mark a Converter can go on from, are that request's:
// neither converted, nor encoded, nor copied again (but the messages of
// a wire message still open there, added to cv again). The new ones are
// appended after them, in place, in the spare capacity of the arrays of
// that request, when nothing else was written there (lookup hands out
// that right to one request at a time), else in a copy with room for the
// turns to come. Either way the bytes an earlier request was sent with
// never change. A turn so allocates about the size of its new messages
// (and, every few turns, copies twice the conversation's), where a whole
// body and every message's conversion were made each turn before.
func (c *Cache) Encode(msgs []model.Message, cv Converter) ([]byte, error) {
	prev, same, claimed := c.lookup(msgs)
	var (
		in    []model.Message
		marks []mark
		body  []byte
		at    *tip
	)
	if same > 0 {
		in, marks, at = prev.in[:same], prev.marks[:same], prev.tip
		body = prev.body[:marks[same-1].end]
		// The messages of the wire message still open: they complete
		// nothing, and body is capped so that they could not write in
		// the shared arrays if they did.
		for i := marks[same-1].from; i < same; i++ {
			b, err := cv.Add(body[:len(body):len(body)], i, &msgs[i])
			if err == nil && len(b) != len(body) {
				panic("msgcache: a message added again completed a wire message")
			}
			if err != nil {
				c.release(prev, claimed, nil)
				return nil, err
			}
		}
	}
	if same < len(msgs) {
		size := 0
		for i := same; i < len(msgs); i++ {
			size += len(msgs[i].Content) + 64
			for _, im := range msgs[i].Images {
				size += len(im.Data)*4/3 + 64
			}
		}
		if !claimed || cap(body)-len(body) < size || cap(in)-len(in) < len(msgs)-same || cap(marks)-len(marks) < len(msgs)-same {
			room := 1
			if len(msgs) >= MinCached {
				room = 2
			}
			body = append(make([]byte, 0, room*(len(body)+size)), body...)
			in = append(make([]model.Message, 0, room*len(msgs)), in...)
			marks = append(make([]mark, 0, room*len(msgs)), marks...)
			at = new(tip)
		}
	}
	var err error
	for i := same; i < len(msgs); i++ {
		if body, err = cv.Add(body, i, &msgs[i]); err != nil {
			c.release(prev, claimed, nil)
			return nil, err
		}
		in = append(in, keep(msgs[i]))
		marks = append(marks, mark{end: len(body), from: cv.From(i)})
	}
	if body, err = cv.Flush(body); err != nil {
		c.release(prev, claimed, nil)
		return nil, err
	}
	c.release(prev, claimed, &encoded{in: in, marks: marks, body: body, tip: at})
	return body, nil
}

// keep returns a copy of m that its sender's later changes do not
// reach: its tool calls and images' data copied too.
func keep(m model.Message) model.Message {
	m.ToolCalls = slices.Clone(m.ToolCalls)
	if m.Images != nil {
		m.Images = slices.Clone(m.Images)
		for i := range m.Images {
			m.Images[i].Data = bytes.Clone(m.Images[i].Data)
		}
	}
	return m
}

// lookup returns the entry sharing the longest run of leading messages
// with msgs that ends at a mark a Converter can go on from, and the
// length of that run. When msgs has more messages than that entry, and
// the entry holds all that was written to its arrays and nobody is
// appending, claimed is true: the caller may append to the entry's
// slices in place, and must call release.
func (c *Cache) lookup(msgs []model.Message) (best *encoded, same int, claimed bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, e := range c.entries {
		if e == nil {
			continue
		}
		n := 0
		for n < len(e.in) && n < len(msgs) && c.same(&e.in[n], &msgs[n]) {
			n++
		}
		for n > 0 && e.marks[n-1].from < 0 {
			n--
		}
		if n > same {
			best, same = e, n
		}
	}
	if best == nil {
		return nil, 0, false
	}
	c.tick++
	best.used = c.tick
	t := best.tip
	if same == len(best.in) && same < len(msgs) && t.msgs == same && t.bytes == len(best.body) &&
		best.marks[same-1].end == len(best.body) && !t.busy {
		t.busy = true
		return best, same, true
	}
	return best, same, false
}

// release ends a request's encoding: it gives back the claim on prev
// when the request had it, moves the tip of e (the request's entry, when
// it is not nil) past what e holds, and remembers e in place of prev (the
// entry it grew from, when it shares messages with one) or of the least
// recently used entry.
func (c *Cache) release(prev *encoded, claimed bool, e *encoded) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if claimed {
		prev.tip.busy = false
	}
	if e == nil {
		return
	}
	if e.tip != nil && e.tip.msgs <= len(e.in) {
		e.tip.msgs, e.tip.bytes = len(e.in), len(e.body)
	}
	if len(e.in) < MinCached {
		return
	}
	c.tick++
	e.used = c.tick
	c.entries[lru.Slot(c.entries[:], prev, prev != nil, func(e *encoded) uint64 { return e.used })] = e
}

// Reuses reports how many leading messages of msgs the next Encode would
// take from the cache, and whether it would append the new ones in place
// (for tests).
func (c *Cache) Reuses(msgs []model.Message) (same int, inPlace bool) {
	prev, same, claimed := c.lookup(msgs)
	c.release(prev, claimed, nil)
	return same, claimed
}

// Clone returns a Cache holding c's entries as they are now, their
// arrays shared but with tips of their own: a benchmark encodes the same
// next turn from it again and again, appending in place.
func (c *Cache) Clone() *Cache {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := &Cache{Breakpoints: c.Breakpoints}
	for i, e := range c.entries {
		if e != nil {
			cp, at := *e, *e.tip
			cp.tip = &at
			out.entries[i] = &cp
		}
	}
	return out
}

// same reports whether a (a kept copy) and b encode the same: the fields
// the wire messages are made of (CacheBreakpoint when c.Breakpoints).
func (c *Cache) same(a, b *model.Message) bool {
	if a.Role != b.Role || a.Content != b.Content || a.Name != b.Name || a.ToolCallID != b.ToolCallID ||
		!slices.Equal(a.ToolCalls, b.ToolCalls) || len(a.Images) != len(b.Images) ||
		(c.Breakpoints && a.CacheBreakpoint != b.CacheBreakpoint) {
		return false
	}
	for i := range a.Images {
		x, y := &a.Images[i], &b.Images[i]
		if x.MediaType != y.MediaType || x.Detail != y.Detail || !bytes.Equal(x.Data, y.Data) {
			return false
		}
	}
	return true
}
