package openai

import (
	"encoding/json"
	"slices"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/rlm-go/rlm/internal/lru"
)

// appendChatRequest returns the JSON encoding of cr: the bytes
// json.Marshal(cr) gives (TestAppendChatRequestMatchesMarshal,
// FuzzAppendChatRequest), written without reflection. The messages are
// most of a request and grow with every turn of a conversation; through
// encoding/json each message's content went through Content.MarshalJSON,
// a second allocation and a validating compaction of its output. The
// rarely set fields (tools, tool_choice, temperature, a message's tool
// calls and images) still go through encoding/json, whose output for a
// value is the same alone as inside the request. With mc, the messages
// an earlier request began with are copied from their encoding there.
func appendChatRequest(cr *ChatRequest, mc *msgCache) ([]byte, error) {
	var (
		prev *encoded
		same int
	)
	if mc != nil {
		prev, same = mc.lookup(cr.Messages)
	}
	size := 256 + len(cr.Model)
	if same > 0 {
		size += prev.ends[same-1]
	}
	for i := same; i < len(cr.Messages); i++ {
		size += len(cr.Messages[i].Content.Text) + 64
	}
	dst := make([]byte, 0, size+size/8)
	dst = append(dst, `{"model":`...)
	dst = appendJSONString(dst, cr.Model)
	dst = append(dst, `,"messages":`...)
	if cr.Messages == nil {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, '[')
		start := len(dst)
		ends := make([]int, len(cr.Messages))
		if same > 0 {
			dst = append(dst, prev.body[:prev.ends[same-1]]...)
			copy(ends, prev.ends[:same])
		}
		for i := same; i < len(cr.Messages); i++ {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = appendMessage(dst, &cr.Messages[i]); err != nil {
				return nil, err
			}
			ends[i] = len(dst) - start
		}
		if mc != nil {
			mc.store(prev, same, &encoded{msgs: cr.Messages, ends: ends, body: dst[start:len(dst):len(dst)]})
		}
		dst = append(dst, ']')
	}
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
type msgCache struct {
	mu      sync.Mutex
	entries [cacheEntries]*encoded
	tick    uint64
}

// minCached is the fewest messages of a request msgCache remembers.
const minCached = 3

// encoded is one request's messages and their encodings; only used
// changes once it is stored (under msgCache.mu).
type encoded struct {
	msgs []Message
	ends []int  // ends[i]: the end of message i's encoding in body
	body []byte // the encodings, separated by commas
	used uint64
}

// lookup returns the entry sharing the longest run of leading messages
// with msgs, and the length of that run.
func (mc *msgCache) lookup(msgs []Message) (*encoded, int) {
	mc.mu.Lock()
	defer mc.mu.Unlock()
	var (
		best *encoded
		same int
	)
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
	if best != nil {
		mc.tick++
		best.used = mc.tick
	}
	return best, same
}

// store remembers e, in place of prev (the entry it grew from, when it
// shares messages with one) or of the least recently used entry.
func (mc *msgCache) store(prev *encoded, same int, e *encoded) {
	if len(e.msgs) < minCached {
		return
	}
	mc.mu.Lock()
	defer mc.mu.Unlock()
	mc.tick++
	e.used = mc.tick
	mc.entries[lru.Slot(mc.entries[:], prev, same > 0, func(e *encoded) uint64 { return e.used })] = e
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
