package openai

import (
	"bytes"
	"slices"
	"strconv"
	"sync"

	"github.com/rlm-go/rlm/internal/lru"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/internal/httpcall"
	"github.com/rlm-go/rlm/model/internal/wire"
)

// appendChatRequest returns the JSON encoding of cr: the bytes
// json.Marshal(cr) gives (TestAppendChatRequestMatchesMarshal,
// FuzzAppendChatRequest), written without reflection. The messages are
// most of a request and grow with every turn of a conversation; through
// encoding/json each message's content went through Content.MarshalJSON,
// a second allocation and a validating compaction of its output. The
// rarely set fields (tools, tool_choice, temperature, a message's tool
// calls and images) still go through encoding/json, whose output for a
// value is the same alone as inside the request.
func appendChatRequest(cr *ChatRequest) ([]byte, error) {
	size := 128 + len(cr.Model) + len(cr.ReasoningEffort)
	for i := range cr.Messages {
		size += len(cr.Messages[i].Content.Text) + 64
	}
	buf := appendHead(make([]byte, 0, size+size/8), cr)
	if cr.Messages == nil {
		return appendRest(append(buf, "null"...), cr)
	}
	buf = append(buf, '[')
	for i := range cr.Messages {
		if i > 0 {
			buf = append(buf, ',')
		}
		var err error
		if buf, err = appendMessage(buf, &cr.Messages[i]); err != nil {
			return nil, err
		}
	}
	return appendRest(append(buf, ']'), cr)
}

// encodeChatRequest is appendChatRequest as a Body of one part.
func encodeChatRequest(cr *ChatRequest) (httpcall.Body, error) {
	b, err := appendChatRequest(cr)
	if err != nil {
		return nil, err
	}
	return httpcall.Body{b}, nil
}

// around returns the body of cr whose messages (cr.Messages is not
// used) are encoded in msgs, shared with other requests (msgCache.encode):
// the head up to the messages' opening bracket, msgs, and the rest, in
// one allocation but for msgs.
func around(cr *ChatRequest, msgs []byte) (httpcall.Body, error) {
	buf := appendHead(make([]byte, 0, 128+len(cr.Model)+len(cr.ReasoningEffort)), cr)
	buf = append(buf, '[')
	// The rest is written in head's spare capacity, head capped so that
	// the two never overlap.
	head := buf[:len(buf):len(buf)]
	rest, err := appendRest(append(buf[len(buf):], ']'), cr)
	if err != nil {
		return nil, err
	}
	return httpcall.Body{head, msgs, rest}, nil
}

// appendHead appends the start of cr's encoding, up to the messages.
func appendHead(dst []byte, cr *ChatRequest) []byte {
	dst = append(dst, `{"model":`...)
	dst = wire.AppendString(dst, cr.Model)
	return append(dst, `,"messages":`...)
}

// appendRest appends the fields of cr after its messages, and the
// closing brace.
func appendRest(dst []byte, cr *ChatRequest) ([]byte, error) {
	var err error
	if len(cr.Tools) > 0 {
		if dst, err = wire.AppendMarshal(dst, `,"tools":`, cr.Tools); err != nil {
			return nil, err
		}
	}
	if cr.ToolChoice != nil {
		if dst, err = wire.AppendMarshal(dst, `,"tool_choice":`, cr.ToolChoice); err != nil {
			return nil, err
		}
	}
	if cr.MaxTokens != 0 {
		dst = append(dst, `,"max_tokens":`...)
		dst = strconv.AppendInt(dst, int64(cr.MaxTokens), 10)
	}
	if cr.Temperature != nil {
		if dst, err = wire.AppendMarshal(dst, `,"temperature":`, *cr.Temperature); err != nil {
			return nil, err
		}
	}
	if cr.ReasoningEffort != "" {
		dst = append(dst, `,"reasoning_effort":`...)
		dst = wire.AppendString(dst, cr.ReasoningEffort)
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
	dst = wire.AppendString(dst, m.Role)
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
		dst = wire.AppendString(dst, m.Content.Text)
	}
	for _, f := range [...]struct{ key, val string }{
		{`,"name":`, m.Name},
		{`,"reasoning":`, m.Reasoning},
		{`,"reasoning_content":`, m.ReasoningContent},
		{`,"refusal":`, m.Refusal},
	} {
		if f.val != "" {
			dst = append(dst, f.key...)
			dst = wire.AppendString(dst, f.val)
		}
	}
	var err error
	if len(m.ToolCalls) > 0 {
		if dst, err = wire.AppendMarshal(dst, `,"tool_calls":`, m.ToolCalls); err != nil {
			return nil, err
		}
	}
	if m.ToolCallID != "" {
		dst = append(dst, `,"tool_call_id":`...)
		dst = wire.AppendString(dst, m.ToolCallID)
	}
	if m.FunctionCall != nil {
		if dst, err = wire.AppendMarshal(dst, `,"function_call":`, m.FunctionCall); err != nil {
			return nil, err
		}
	}
	return append(dst, '}'), nil
}

// cacheEntries is how many conversations a msgCache remembers.
const cacheEntries = 4

// msgCache remembers the messages of the last conversations a Provider
// sent (cacheEntries of them) with their encodings, so that a
// conversation's next request, which repeats all its messages and adds
// one or two, converts and encodes only the new ones: without it,
// encoding the requests of an n-turn run took time quadratic in n. A
// message is reused only when it equals, field by field, the copy kept of
// the one encoded (strings compared whole, unless they are the same
// string; an image's bytes compared), so the body is always the one
// encoding it would have been. Requests of fewer than minCached messages
// (sub-calls, a conversation's first turn) are not remembered, so a
// fan-out does not push its root's conversation out. Entries keep their
// messages alive, at most cacheEntries conversations per Provider.
//
// The requests of a conversation share what they keep, neither copied
// nor converted again each turn (encode): each entry's messages, marks
// and body are slices of arrays the next request appends to. Which entry
// may append is its tip's: the one holding all that was written to the
// arrays, while no other request is appending.
type msgCache struct {
	mu      sync.Mutex
	entries [cacheEntries]*encoded
	tick    uint64
}

// minCached is the fewest messages of a request msgCache remembers.
const minCached = 3

// encoded is one request's messages, copied, and their encodings; only
// used changes once it is stored (under msgCache.mu), and the elements of
// its slices never do.
type encoded struct {
	in    []model.Message // copies: ToolCalls and image data too
	marks []mark          // marks[i]: where message i's encoding ends
	body  []byte          // the wire messages' encodings, separated by commas
	tip   *tip
	used  uint64
}

// mark is where the wire encoding of a request's message ends in body;
// clean when no tool images wait after it (converter.clean), so that the
// encoding up to end begins that of every request beginning with the same
// messages.
type mark struct {
	end   int
	clean bool
}

// tip is how far arrays that entries share are written: msgs messages
// and marks, and bytes bytes of body. The entry holding just that may
// append after its slices when busy is false. Its fields are guarded by
// msgCache.mu.
type tip struct {
	msgs, bytes int
	busy        bool // a request is appending
}

// encode returns the encodings of the wire messages of msgs, separated
// by commas (converter). The leading messages an earlier request of the
// conversation shares with msgs, up to a clean mark, are that request's:
// neither converted, nor encoded, nor copied again. The new ones are
// appended after them, in place, in the spare capacity of the arrays of
// that request, when nothing else was written there (lookup hands out
// that right to one request at a time), else in a copy with room for the
// turns to come. Either way the bytes an earlier request was sent with
// never change. A turn so allocates about the size of its new messages
// (and, every few turns, copies twice the conversation's), where a whole
// body and every message's conversion were made each turn before.
func (mc *msgCache) encode(msgs []model.Message) ([]byte, error) {
	prev, same, claimed := mc.lookup(msgs)
	var (
		in    []model.Message
		marks []mark
		body  []byte
		at    *tip
	)
	if same > 0 {
		in, marks, at = prev.in[:same], prev.marks[:same], prev.tip
		body = prev.body[:marks[same-1].end]
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
			if len(msgs) >= minCached {
				room = 2
			}
			body = append(make([]byte, 0, room*(len(body)+size)), body...)
			in = append(make([]model.Message, 0, room*len(msgs)), in...)
			marks = append(make([]mark, 0, room*len(msgs)), marks...)
			at = new(tip)
		}
	}
	var cv converter
	emit := func(wm *Message) error {
		if len(body) > 0 {
			body = append(body, ',')
		}
		var err error
		body, err = appendMessage(body, wm)
		return err
	}
	for i := same; i < len(msgs); i++ {
		if err := cv.add(i, &msgs[i], emit); err != nil {
			mc.release(prev, claimed, nil)
			return nil, err
		}
		in = append(in, keep(msgs[i]))
		marks = append(marks, mark{end: len(body), clean: cv.clean()})
	}
	if err := cv.flush(emit); err != nil {
		mc.release(prev, claimed, nil)
		return nil, err
	}
	mc.release(prev, claimed, &encoded{in: in, marks: marks, body: body, tip: at})
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
// with msgs that ends at a clean mark, and the length of that run. When
// msgs has more messages than that entry, and the entry holds all that
// was written to its arrays and nobody is appending, claimed is true:
// the caller may append to the entry's slices in place, and must call
// release.
func (mc *msgCache) lookup(msgs []model.Message) (best *encoded, same int, claimed bool) {
	mc.mu.Lock()
	defer mc.mu.Unlock()
	for _, e := range mc.entries {
		if e == nil {
			continue
		}
		n := 0
		for n < len(e.in) && n < len(msgs) && sameMessage(&e.in[n], &msgs[n]) {
			n++
		}
		for n > 0 && !e.marks[n-1].clean {
			n--
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
	t := best.tip
	if same == len(best.in) && same < len(msgs) && t.msgs == same && t.bytes == len(best.body) && !t.busy {
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
func (mc *msgCache) release(prev *encoded, claimed bool, e *encoded) {
	mc.mu.Lock()
	defer mc.mu.Unlock()
	if claimed {
		prev.tip.busy = false
	}
	if e == nil {
		return
	}
	if e.tip != nil && e.tip.msgs <= len(e.in) {
		e.tip.msgs, e.tip.bytes = len(e.in), len(e.body)
	}
	if len(e.in) < minCached {
		return
	}
	mc.tick++
	e.used = mc.tick
	mc.entries[lru.Slot(mc.entries[:], prev, prev != nil, func(e *encoded) uint64 { return e.used })] = e
}

// sameMessage reports whether a (a kept copy) and b encode the same:
// the fields the wire message is made of (not CacheBreakpoint).
func sameMessage(a, b *model.Message) bool {
	if a.Role != b.Role || a.Content != b.Content || a.Name != b.Name || a.ToolCallID != b.ToolCallID ||
		!slices.Equal(a.ToolCalls, b.ToolCalls) || len(a.Images) != len(b.Images) {
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
