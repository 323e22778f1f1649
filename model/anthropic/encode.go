package anthropic

import (
	"strconv"

	"github.com/rlm-go/rlm/model/internal/wire"
)

// appendRequest returns the JSON encoding of mr: the bytes json.Marshal(mr)
// gives (TestAppendRequestIsMarshal, FuzzAppendRequest), with the system
// and message blocks written without reflection. Through encoding/json
// every block went through Block.MarshalJSON, a second encoding and a
// validating compaction of its output: 90 MB/s on a 400-turn
// conversation, whose whole body a request writes. The rarely set parts
// (tools, tool_choice, temperature, a tool call's input, a tool result
// with images) still go through encoding/json, whose output for a value
// is the same alone as inside the request.
func appendRequest(mr *MessagesRequest) ([]byte, error) {
	size := 256 + len(mr.Model)
	for _, b := range mr.System {
		size += blockSize(&b)
	}
	for i := range mr.Messages {
		size += 32
		for j := range mr.Messages[i].Content {
			size += blockSize(&mr.Messages[i].Content[j])
		}
	}
	dst, err := appendHead(make([]byte, 0, size+size/8), mr)
	if err != nil {
		return nil, err
	}
	if mr.Messages == nil {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, '[')
		for i := range mr.Messages {
			if i > 0 {
				dst = append(dst, ',')
			}
			if dst, err = appendMessage(dst, &mr.Messages[i]); err != nil {
				return nil, err
			}
		}
		dst = append(dst, ']')
	}
	return appendRest(dst, mr)
}

// appendHead appends the start of mr's encoding, up to its messages.
func appendHead(dst []byte, mr *MessagesRequest) ([]byte, error) {
	dst = append(dst, `{"model":`...)
	dst = wire.AppendString(dst, mr.Model)
	dst = append(dst, `,"max_tokens":`...)
	dst = strconv.AppendInt(dst, int64(mr.MaxTokens), 10)
	if len(mr.System) > 0 {
		dst = append(dst, `,"system":`...)
		var err error
		if dst, err = appendBlocks(dst, mr.System); err != nil {
			return nil, err
		}
	}
	return append(dst, `,"messages":`...), nil
}

// appendMessage appends the encoding of the wire message m.
func appendMessage(dst []byte, m *Message) ([]byte, error) {
	dst = append(dst, `{"role":`...)
	dst = wire.AppendString(dst, m.Role)
	dst = append(dst, `,"content":`...)
	dst, err := appendBlocks(dst, m.Content)
	if err != nil {
		return nil, err
	}
	return append(dst, '}'), nil
}

// appendRest appends the fields of mr after its messages, and the
// closing brace.
func appendRest(dst []byte, mr *MessagesRequest) ([]byte, error) {
	var err error
	if len(mr.Tools) > 0 {
		if dst, err = wire.AppendMarshal(dst, `,"tools":`, mr.Tools); err != nil {
			return nil, err
		}
	}
	if mr.ToolChoice != nil {
		if dst, err = wire.AppendMarshal(dst, `,"tool_choice":`, mr.ToolChoice); err != nil {
			return nil, err
		}
	}
	if mr.Temperature != nil {
		if dst, err = wire.AppendMarshal(dst, `,"temperature":`, mr.Temperature); err != nil {
			return nil, err
		}
	}
	if mr.Stream {
		dst = append(dst, `,"stream":true`...)
	}
	return append(dst, '}'), nil
}

// blockSize is about the length of b's encoding.
func blockSize(b *Block) int {
	n := 64 + len(b.Text) + len(b.Thinking) + len(b.Signature) + len(b.Input) + len(b.Content)
	if b.Source != nil {
		n += len(b.Source.Data)
	}
	return n
}

// appendBlocks appends bs as encoding/json writes a []Block: null when nil.
func appendBlocks(dst []byte, bs []Block) ([]byte, error) {
	if bs == nil {
		return append(dst, "null"...), nil
	}
	dst = append(dst, '[')
	for i := range bs {
		if i > 0 {
			dst = append(dst, ',')
		}
		var err error
		if dst, err = appendBlock(dst, &bs[i]); err != nil {
			return nil, err
		}
	}
	return append(dst, ']'), nil
}

// appendBlock appends b as Block.MarshalJSON writes it, field by field in
// Block's order, leaving out the empty omitempty fields.
func appendBlock(dst []byte, b *Block) ([]byte, error) {
	if len(b.ContentBlocks) > 0 {
		return wire.AppendMarshal(dst, "", b)
	}
	dst = append(dst, `{"type":`...)
	dst = wire.AppendString(dst, b.Type)
	for _, f := range [...]struct{ key, val string }{
		{`,"text":`, b.Text},
		{`,"thinking":`, b.Thinking},
		{`,"signature":`, b.Signature},
		{`,"id":`, b.ID},
		{`,"name":`, b.Name},
	} {
		if f.val != "" {
			dst = append(dst, f.key...)
			dst = wire.AppendString(dst, f.val)
		}
	}
	if len(b.Input) > 0 {
		var err error
		if dst, err = wire.AppendMarshal(dst, `,"input":`, b.Input); err != nil {
			return nil, err
		}
	}
	for _, f := range [...]struct{ key, val string }{
		{`,"tool_use_id":`, b.ToolUseID},
		{`,"content":`, b.Content},
	} {
		if f.val != "" {
			dst = append(dst, f.key...)
			dst = wire.AppendString(dst, f.val)
		}
	}
	if s := b.Source; s != nil {
		dst = append(dst, `,"source":{"type":`...)
		dst = wire.AppendString(dst, s.Type)
		dst = append(dst, `,"media_type":`...)
		dst = wire.AppendString(dst, s.MediaType)
		dst = append(dst, `,"data":`...)
		dst = wire.AppendString(dst, s.Data)
		dst = append(dst, '}')
	}
	if c := b.CacheControl; c != nil {
		dst = append(dst, `,"cache_control":{"type":`...)
		dst = wire.AppendString(dst, c.Type)
		dst = append(dst, '}')
	}
	return append(dst, '}'), nil
}
