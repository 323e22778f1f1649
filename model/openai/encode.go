package openai

import (
	"encoding/json"
	"slices"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/rlm-go/rlm/internal/lru"
	"github.com/rlm-go/rlm/model/internal/httpcall"
)

// appendChatRequest returns the JSON encoding of cr: the bytes
// json.Marshal(cr) gives (TestAppendChatRequestMatchesMarshal,
// FuzzAppendChatRequest), written without reflection: the parts of
// encodeChatRequest in one slice.
func appendChatRequest(cr *ChatRequest, mc *msgCache) ([]byte, error) {
	b, err := encodeChatRequest(cr, mc)
	return b.Bytes(), err
}

// encodeChatRequest returns the JSON encoding of cr. The messages are
// most of a request and grow with every turn of a conversation; through
// encoding/json each message's content went through Content.MarshalJSON,
// a second allocation and a validating compaction of its output. The
// rarely set fields (tools, tool_choice, temperature, a message's tool
// calls and images) still go through encoding/json, whose output for a
// value is the same alone as inside the request. Without mc the body is
// one part. With mc it is three: the head up to the messages' opening
// bracket, the messages, and the rest, where the messages an earlier
// request began with are neither encoded again nor copied
// (encodeMessages).
func encodeChatRequest(cr *ChatRequest, mc *msgCache) (httpcall.Body, error) {
	size := 128 + len(cr.Model) + len(cr.ReasoningEffort)
	if mc == nil {
		size += sizeHint(cr.Messages)
	}
	buf := make([]byte, 0, size+size/8)
	buf = append(buf, `{"model":`...)
	buf = appendJSONString(buf, cr.Model)
	buf = append(buf, `,"messages":`...)
	if cr.Messages == nil {
		buf = append(buf, "null"...)
		buf, err := appendRest(buf, cr)
		return httpcall.Body{buf}, err
	}
	buf = append(buf, '[')
	if mc == nil {
		var err error
		if buf, _, err = appendMessages(buf, nil, cr.Messages, 0); err != nil {
			return nil, err
		}
		buf, err = appendRest(append(buf, ']'), cr)
		return httpcall.Body{buf}, err
	}
	msgs, err := encodeMessages(cr.Messages, mc)
	if err != nil {
		return nil, err
	}
	// The rest is written in head's spare capacity, head capped so that
	// the two never overlap.
	head := buf[:len(buf):len(buf)]
	rest, err := appendRest(append(buf[len(buf):], ']'), cr)
	if len(msgs) == 0 {
		return httpcall.Body{head, rest}, err
	}
	return httpcall.Body{head, msgs, rest}, err
}

// appendRest appends the fields of cr after its messages, and the
// closing brace.
func appendRest(dst []byte, cr *ChatRequest) ([]byte, error) {
	var err error
	if len(cr.Tools) > 0 {
		if dst, err = appendMarshal(dst, `,"tools":`, cr.Tools); err != nil {
			return nil, err
		}
	}
	if cr.ToolChoice != nil {
		if dst, err = appendMarshal(dst, `,"tool_choice":`, cr.ToolChoice); err != nil {
			return nil, err
		}
	}
	if cr.MaxTokens != 0 {
		dst = append(dst, `,"max_tokens":`...)
		dst = strconv.AppendInt(dst, int64(cr.MaxTokens), 10)
	}
	if cr.Temperature != nil {
		if dst, err = appendMarshal(dst, `,"temperature":`, *cr.Temperature); err != nil {
			return nil, err
		}
	}
	if cr.ReasoningEffort != "" {
		dst = append(dst, `,"reasoning_effort":`...)
		dst = appendJSONString(dst, cr.ReasoningEffort)
	}
	if cr.Stream {
		dst = append(dst, `,"stream":true`...)
	}
	if cr.StreamOptions != nil {
		dst = append(dst, `,"stream_options":{"include_usage":`...)
		dst = strconv.AppendBool(dst, cr.StreamOptions.IncludeUsage)
		dst = append(dst, '}')
	}
	return append(dst, '}'), nil
}

// encodeMessages returns the encodings of msgs, separated by commas.
// The leading messages an earlier request of the conversation
// shares with msgs are a slice of that request's bytes, and the new
// messages are appended after them: in place, in the spare capacity of
// that request's slice, when no other request has appended there
// (msgCache.lookup hands out that right to one request at a time), else
// in a copy with room for the turns to come. Either way the bytes an
// earlier request was sent with never change. A conversation's turn so
// allocates about the size of its new messages (and, every few turns, a
// copy twice the conversation's), where a whole body was written each
// turn before.
func encodeMessages(msgs []Message, mc *msgCache) ([]byte, error) {
	prev, same, claimed := mc.lookup(msgs)
	var (
		body []byte
		ends []int
		at   *tip
	)
	if same > 0 {
		body, ends = prev.body[:prev.ends[same-1]], prev.ends[:same]
		at = prev.tip
	}
	if same < len(msgs) {
		size := sizeHint(msgs[same:])
		if !claimed || cap(body)-len(body) < size || cap(ends)-len(ends) < len(msgs)-same {
			room := 1
			if len(msgs) >= minCached {
				room = 2
			}
			body = append(make([]byte, 0, room*(len(body)+size)), body...)
			ends = append(make([]int, 0, room*len(msgs)), ends...)
			at = new(tip)
		}
	}
	body, ends, err := appendMessages(body, ends, msgs, same)
	if err != nil {
		mc.release(prev, claimed, nil)
		return nil, err
	}
	mc.release(prev, claimed, &encoded{msgs: msgs, ends: ends, body: body, tip: at})
	return body, nil
}

// sizeHint is about the size of the encodings of msgs.
func sizeHint(msgs []Message) int {
	size := 0
	for i := range msgs {
		size += len(msgs[i].Content.Text) + 64
	}
	return size
}

// appendMessages appends to body the encodings of msgs from the one at
// from on (a comma before each but the first of msgs), and to ends the
// length of body after each.
func appendMessages(body []byte, ends []int, msgs []Message, from int) ([]byte, []int, error) {
	for i := from; i < len(msgs); i++ {
		if i > 0 {
			body = append(body, ',')
		}
		var err error
		if body, err = appendMessage(body, &msgs[i]); err != nil {
			return nil, nil, err
		}
		ends = append(ends, len(body))
	}
	return body, ends, nil
}

// appendMessage appends the JSON encoding of m, field by field in
// Message's order, leaving out the empty omitempty fields.
func appendMessage(dst []byte, m *Message) ([]byte, error) {
	dst = append(dst, `{"role":`...)
	dst = appendJSONString(dst, m.Role)
	dst = append(dst, `,"content":`...)
	switch {
	case m.Content.Null:
		dst = append(dst, "null"...)
	case len(m.Content.Images) > 0:
		b, err := m.Content.MarshalJSON()
		if err != nil {
			return nil, err
		}
		dst = append(dst, b...)
	default:
		dst = appendJSONString(dst, m.Content.Text)
	}
	for _, f := range [...]struct{ key, val string }{
		{`,"name":`, m.Name},
		{`,"reasoning":`, m.Reasoning},
		{`,"reasoning_content":`, m.ReasoningContent},
		{`,"refusal":`, m.Refusal},
	} {
		if f.val != "" {
			dst = append(dst, f.key...)
			dst = appendJSONString(dst, f.val)
		}
	}
	var err error
	if len(m.ToolCalls) > 0 {
		if dst, err = appendMarshal(dst, `,"tool_calls":`, m.ToolCalls); err != nil {
			return nil, err
		}
	}
	if m.ToolCallID != "" {
		dst = append(dst, `,"tool_call_id":`...)
		dst = appendJSONString(dst, m.ToolCallID)
	}
	if m.FunctionCall != nil {
		if dst, err = appendMarshal(dst, `,"function_call":`, m.FunctionCall); err != nil {
			return nil, err
		}
	}
	return append(dst, '}'), nil
}

func appendMarshal(dst []byte, key string, v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(append(dst, key...), b...), nil
}

// jsonPlain marks the ASCII bytes encoding/json writes as they are in a
// string: printable ASCII but the quote, the backslash and the three
// characters it escapes for HTML (<, >, &); DEL (0x7f) is written as it is.
var jsonPlain = func() (t [utf8.RuneSelf]bool) {
	for b := 0x20; b < utf8.RuneSelf; b++ {
		t[b] = true
	}
	for _, b := range `"\<>&` {
		t[b] = false
	}
	return t
}()

const hexDigits = "0123456789abcdef"

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// plainWord reports whether the eight bytes of x are all plain (jsonPlain):
// none has its high bit set, is below 0x20, or equals one of " \ < > &
// (a byte of x^(ones*c) is zero where x holds c; (y-ones)&^y&highs is
// non-zero when y has a zero byte, and (x-ones*0x20)&^x&highs when x has
// a byte below 0x20).
func plainWord(x uint64) bool {
	q, b, l, g, a := x^(ones*'"'), x^(ones*'\\'), x^(ones*'<'), x^(ones*'>'), x^(ones*'&')
	bad := x | (x-ones*0x20)&^x |
		(q-ones)&^q | (b-ones)&^b | (l-ones)&^l | (g-ones)&^g | (a-ones)&^a
	return bad&highs == 0
}

// load64 returns the eight bytes of s at i as a little-endian word (the
// compiler makes it one load).
func load64(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// appendJSONString appends s as a JSON string as json.Marshal writes it:
// the quote, the backslash and \b \f \n \r \t with their short escapes,
// other control characters and <, >, & as \u00XX, each byte of invalid
// UTF-8 as \ufffd, and U+2028 and U+2029 as \u2028 and \u2029.
func appendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		// Eight plain bytes at a time: printable ASCII, none of " \ < > &.
		for i+8 <= len(s) && plainWord(load64(s, i)) {
			i += 8
		}
		if i == len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if jsonPlain[c] {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// cacheEntries is how many conversations a msgCache remembers.
const cacheEntries = 4

// msgCache remembers the message encodings of the last conversations a
// Provider sent (cacheEntries of them), so that a conversation's next
// request, which repeats all its messages and adds one or two, encodes
// only the new ones: without it, encoding the requests of an n-turn run
// took time quadratic in n. A message is reused only when it equals the
// one encoded field by field (strings compared whole, unless they are
// the same string), so the body is always the one encoding it would have
// been. Requests of fewer than minCached messages (sub-calls, a
// conversation's first turn) are not remembered, so a fan-out does not
// push its root's conversation out. Entries keep their messages' text
// alive, at most cacheEntries conversations per Provider.
//
// The requests of a conversation share their bytes (encodeMessages): each
// entry's body and ends are slices of arrays that the next request
// appends to. Which entry may be appended to is its tip's: the entry
// whose message count is its tip's n, while no request is appending.
type msgCache struct {
	mu      sync.Mutex
	entries [cacheEntries]*encoded
	tick    uint64
}

// minCached is the fewest messages of a request msgCache remembers.
const minCached = 3

// encoded is one request's messages and their encodings; only used
// changes once it is stored (under msgCache.mu), and the bytes of body
// and ends never do.
type encoded struct {
	msgs []Message
	ends []int  // ends[i]: the end of message i's encoding in body
	body []byte // the encodings, separated by commas
	tip  *tip   // how far the arrays of body and ends are written
	used uint64
}

// tip is how far arrays that entries share are written: n messages (the
// entry of n messages on them may append after its slices, when busy is
// false). Its fields are guarded by msgCache.mu.
type tip struct {
	n    int
	busy bool // a request is appending
}

// lookup returns the entry sharing the longest run of leading messages
// with msgs, and the length of that run. When msgs has more messages
// than that entry, and the entry is at its arrays' tip and nobody is
// appending, claimed is true: the caller may append to the entry's
// slices in place, and must call release.
func (mc *msgCache) lookup(msgs []Message) (best *encoded, same int, claimed bool) {
	mc.mu.Lock()
	defer mc.mu.Unlock()
	for _, e := range mc.entries {
		if e == nil {
			continue
		}
		n := 0
		for n < len(e.msgs) && n < len(msgs) && sameMessage(&e.msgs[n], &msgs[n]) {
			n++
		}
		if n > same {
			best, same = e, n
		}
	}
	if best == nil {
		return nil, 0, false
	}
	mc.tick++
	best.used = mc.tick
	if same == len(best.msgs) && same < len(msgs) && best.tip.n == same && !best.tip.busy {
		best.tip.busy = true
		return best, same, true
	}
	return best, same, false
}

// release ends a request's encoding: it gives back the claim on prev
// when the request had it (moving the tip past the request's messages
// when e, the request's entry, was written in place), and remembers e
// when it is not nil, in place of prev (the entry it grew from, when it
// shares messages with one) or of the least recently used entry.
func (mc *msgCache) release(prev *encoded, claimed bool, e *encoded) {
	mc.mu.Lock()
	defer mc.mu.Unlock()
	if claimed {
		prev.tip.busy = false
	}
	if e == nil {
		return
	}
	if e.tip != nil && e.tip.n < len(e.msgs) {
		e.tip.n = len(e.msgs)
	}
	if len(e.msgs) < minCached {
		return
	}
	mc.tick++
	e.used = mc.tick
	mc.entries[lru.Slot(mc.entries[:], prev, prev != nil, func(e *encoded) uint64 { return e.used })] = e
}

// sameMessage reports whether a and b encode the same.
func sameMessage(a, b *Message) bool {
	if a.Role != b.Role || a.Content.Null != b.Content.Null || a.Name != b.Name ||
		a.Reasoning != b.Reasoning || a.ReasoningContent != b.ReasoningContent || a.Refusal != b.Refusal ||
		a.ToolCallID != b.ToolCallID || !slices.Equal(a.ToolCalls, b.ToolCalls) ||
		!slices.Equal(a.Content.Images, b.Content.Images) || (a.FunctionCall == nil) != (b.FunctionCall == nil) ||
		(a.FunctionCall != nil && *a.FunctionCall != *b.FunctionCall) {
		return false
	}
	// The text is encoded only when the content is not null.
	return a.Content.Null || a.Content.Text == b.Content.Text
}
