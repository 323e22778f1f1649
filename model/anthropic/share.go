package anthropic

import (
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/internal/httpcall"
	"github.com/rlm-go/rlm/model/internal/msgcache"
)

// encodeRequest is EncodeRequest, the body in parts: the encodings of
// the wire messages a conversation's earlier request began with are
// taken from mc (msgcache.Cache.Encode), not converted, encoded or
// copied again. Those are the wire messages before the last one: the
// last may still merge with a next turn of its role, and carries the
// mark of CachePrefix's last message, which moves every turn (a mark
// only ever goes on the last wire message so far; the system blocks,
// where the other goes, are written each request). The body is the
// head (the system blocks included), the shared encodings, and the last
// wire message with the rest. Where sharing does not apply (no mc,
// Extra set, more than MaxCacheBreakpoints marks, of which the last
// ones win, or an error, whose description is EncodeRequest's), the
// body is EncodeRequest's, in one part.
func encodeRequest(req model.Request, defaultModel string, mc *msgcache.Cache) (httpcall.Body, error) {
	if mc != nil && len(req.Extra) == 0 {
		sh := &shared{cv: converter{direct: true}}
		sh.sysMark, sh.lastMark = breakpoints(req)
		if sh.marks(req) <= MaxCacheBreakpoints {
			if b, ok := encodeShared(req, defaultModel, mc, sh); ok {
				return b, nil
			}
		}
	}
	b, err := EncodeRequest(req, defaultModel)
	if err != nil {
		return nil, err
	}
	return httpcall.Body{b}, nil
}

// marks is how many cache marks req has at the most: its messages
// marked, by CacheBreakpoint or CachePrefix.
func (s *shared) marks(req model.Request) int {
	n := 0
	for i := range req.Messages {
		if s.breakpoint(i, &req.Messages[i]) {
			n++
		}
	}
	return n
}

// encodeShared is encodeRequest's body in parts, through sh (its marks
// set); ok is false on an error.
func encodeShared(req model.Request, defaultModel string, mc *msgcache.Cache, sh *shared) (_ httpcall.Body, ok bool) {
	mr, err := requestFields(req, defaultModel)
	if err != nil || requestTools(req, &mr) != nil {
		return nil, false
	}
	sh.emit = sh.append
	msgs, err := mc.Encode(req.Messages, sh)
	if err != nil {
		return nil, false
	}
	// The system blocks and their marks: the system messages' alone.
	var sys converter
	for i := range req.Messages {
		if m := &req.Messages[i]; m.Role == model.RoleSystem {
			_ = sys.add(i, m, sh.breakpoint(i, m), nil)
		}
	}
	mr.System = sys.system
	setMarks(&mr, sys.marks)
	size := 256 + len(mr.Model)
	for i := range mr.System {
		size += blockSize(&mr.System[i])
	}
	for i := range sh.cv.open.Content {
		size += blockSize(&sh.cv.open.Content[i])
	}
	head, err := appendHead(make([]byte, 0, size), &mr)
	if err != nil {
		return nil, false
	}
	head = append(head, '[')
	// The last wire message and the rest are written in head's spare
	// capacity, head capped so that the two never overlap.
	head = head[:len(head):len(head)]
	sh.dst, sh.comma = head[len(head):], len(msgs) > 0
	if sh.cv.flush(sh.emit) != nil || sh.cv.n == 0 && len(msgs) == 0 {
		return nil, false
	}
	rest, err := appendRest(append(sh.dst, ']'), &mr)
	if err != nil {
		return nil, false
	}
	return httpcall.Body{head, msgs, rest}, true
}

// shared is the msgcache.Converter of a Provider's requests: the
// converter, the wire messages it ends appended to the encodings.
type shared struct {
	cv                converter
	sysMark, lastMark int
	dst               []byte
	comma             bool // a comma before the next wire message, even when dst is empty
	emit              func(*Message) error
}

// breakpoint reports whether message i, m, is marked.
func (s *shared) breakpoint(i int, m *model.Message) bool {
	return m.CacheBreakpoint || i == s.sysMark || i == s.lastMark
}

// append appends the encoding of wm to s.dst, after a comma when s.dst
// is not empty or s.comma is set.
func (s *shared) append(wm *Message) error {
	if len(s.dst) > 0 || s.comma {
		s.dst = append(s.dst, ',')
	}
	var err error
	s.dst, err = appendMessage(s.dst, wm)
	return err
}

func (s *shared) Add(dst []byte, i int, m *model.Message) ([]byte, error) {
	s.dst = dst
	err := s.cv.add(i, m, s.breakpoint(i, m), s.emit)
	return s.dst, err
}

// From is i+1 before the first wire message, else the first message of
// the last wire message (converter.from): the wire messages before it
// are those of every request beginning with messages 0 to i.
func (s *shared) From(i int) int {
	if s.cv.n == 0 {
		return i + 1
	}
	return s.cv.from
}

// Flush leaves the last wire message out of the shared encodings.
func (s *shared) Flush(dst []byte) ([]byte, error) { return dst, nil }
