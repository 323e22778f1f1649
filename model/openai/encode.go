package openai

import (
	"strconv"

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
// used) are encoded in msgs, shared with other requests (msgcache.Cache.Encode):
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

// shared is the msgcache.Converter of a Provider's requests: the
// converter, each wire message appended to the encodings as emitted.
type shared struct {
	cv   converter
	dst  []byte
	emit func(*Message) error
}

func newShared() *shared {
	s := new(shared)
	s.emit = func(wm *Message) error {
		if len(s.dst) > 0 {
			s.dst = append(s.dst, ',')
		}
		var err error
		s.dst, err = appendMessage(s.dst, wm)
		return err
	}
	return s
}

func (s *shared) Add(dst []byte, i int, m *model.Message) ([]byte, error) {
	s.dst = dst
	err := s.cv.add(i, m, s.emit)
	return s.dst, err
}

// From is i+1 where no tool images wait for the end of their run
// (converter.clean): a prefix ends only there.
func (s *shared) From(i int) int {
	if s.cv.clean() {
		return i + 1
	}
	return -1
}

func (s *shared) Flush(dst []byte) ([]byte, error) {
	s.dst = dst
	err := s.cv.flush(s.emit)
	return s.dst, err
}
