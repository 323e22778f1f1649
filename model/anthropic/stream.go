package anthropic

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Event is one decoded Messages API stream event (the JSON of an SSE data
// line; its "type" repeats the SSE event name).
type Event struct {
	Type         string          `json:"type"`
	Message      *Response       `json:"message,omitempty"`
	Index        int             `json:"index"`
	ContentBlock *Block          `json:"content_block,omitempty"`
	Delta        json.RawMessage `json:"delta,omitempty"`
	Usage        *Usage          `json:"usage,omitempty"`
	Error        *APIError       `json:"error,omitempty"`
}

// APIError is the "error" object of an error body or error event.
type APIError struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

// knownEvent reports whether data (an event's JSON) is of a type the
// Messages API defines, or is not an object with a string "type" at
// all: such an event that does not decode is malformed, while one of a
// type added later is skipped whatever its shape.
func knownEvent(data string) bool {
	var head struct {
		Type string `json:"type"`
	}
	if json.Unmarshal([]byte(data), &head) != nil {
		return true
	}
	switch head.Type {
	case "message_start", "content_block_start", "content_block_delta", "content_block_stop",
		"message_delta", "message_stop", "ping", "error":
		return true
	}
	return false
}

// delta is a content_block_delta's or message_delta's delta.
type delta struct {
	Type        string `json:"type"`
	Text        string `json:"text"`
	PartialJSON string `json:"partial_json"`
	Thinking    string `json:"thinking"`
	StopReason  string `json:"stop_reason"`
	// StopDetails explains a refusal (message_delta).
	StopDetails *StopDetails `json:"stop_details"`
}

// Assembler reassembles a stream of events into a Response. Blocks are
// kept by their index; a tool_use block's input is the concatenation of
// its input_json_delta fragments. At most Max tool_use blocks are kept
// (TooManyToolCalls reports more). The zero value (with Max set) is
// ready.
type Assembler struct {
	Max     int
	resp    Response
	blocks  map[int]*blockAcc
	order   []int
	calls   int
	tooMany bool
	started bool
	stopped bool
}

type blockAcc struct {
	b     Block
	text  strings.Builder
	input strings.Builder
}

// Add folds one event in and returns the reply text it added. Unknown
// event and delta types are ignored, as the API asks. An error event is
// returned as err.
func (a *Assembler) Add(ev *Event) (text string, apiErr *APIError, err error) {
	switch ev.Type {
	case "message_start":
		if ev.Message != nil {
			a.resp.ID, a.resp.Model = ev.Message.ID, ev.Message.Model
			if ev.Message.Usage != nil {
				u := *ev.Message.Usage
				a.resp.Usage = &u
			}
		}
		a.started = true
	case "content_block_start":
		if ev.ContentBlock == nil {
			return "", nil, fmt.Errorf("content_block_start without a content_block")
		}
		if a.blocks == nil {
			a.blocks = map[int]*blockAcc{}
		}
		if _, dup := a.blocks[ev.Index]; dup {
			return "", nil, fmt.Errorf("content block %d started twice", ev.Index)
		}
		if ev.ContentBlock.Type == "tool_use" {
			if a.calls >= a.Max {
				a.tooMany = true
				return "", nil, nil
			}
			a.calls++
		}
		acc := &blockAcc{b: *ev.ContentBlock}
		acc.b.Input = nil
		acc.text.WriteString(ev.ContentBlock.Text + ev.ContentBlock.Thinking)
		a.blocks[ev.Index] = acc
		a.order = append(a.order, ev.Index)
		return ev.ContentBlock.Text, nil, nil
	case "content_block_delta":
		acc := a.blocks[ev.Index]
		if acc == nil {
			if a.tooMany {
				return "", nil, nil
			}
			return "", nil, fmt.Errorf("delta for content block %d that was not started", ev.Index)
		}
		var head struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal(ev.Delta, &head); err != nil {
			return "", nil, fmt.Errorf("content_block_delta: %w", err)
		}
		switch head.Type {
		case "text_delta", "thinking_delta", "input_json_delta":
		default:
			// signature_delta, citations_delta, compaction_delta and
			// types added later: nothing of the reply.
			return "", nil, nil
		}
		var d delta
		if err := json.Unmarshal(ev.Delta, &d); err != nil {
			return "", nil, fmt.Errorf("content_block_delta: %w", err)
		}
		switch d.Type {
		case "text_delta":
			acc.text.WriteString(d.Text)
			if acc.b.Type == "text" {
				return d.Text, nil, nil
			}
		case "thinking_delta":
			acc.text.WriteString(d.Thinking)
		case "input_json_delta":
			acc.input.WriteString(d.PartialJSON)
		}
	case "message_delta":
		if len(ev.Delta) > 0 {
			var d delta
			if err := json.Unmarshal(ev.Delta, &d); err != nil {
				return "", nil, fmt.Errorf("message_delta: %w", err)
			}
			if d.StopReason != "" {
				a.resp.StopReason = d.StopReason
			}
			if d.StopDetails != nil {
				sd := *d.StopDetails
				a.resp.StopDetails = &sd
			}
		}
		if u := ev.Usage; u != nil {
			// message_delta usage is cumulative and final: each count
			// it holds replaces message_start's, cache figures
			// included (Usage.update).
			if a.resp.Usage == nil {
				a.resp.Usage = &Usage{}
			}
			a.resp.Usage.update(u)
		}
	case "message_stop":
		a.stopped = true
	case "error":
		if ev.Error == nil {
			return "", &APIError{Type: "error", Message: "error event without an error object"}, nil
		}
		return "", ev.Error, nil
	}
	return "", nil, nil
}

// Done reports that message_stop arrived.
func (a *Assembler) Done() bool { return a.stopped }

// TooManyToolCalls reports that more than Max tool_use blocks started.
func (a *Assembler) TooManyToolCalls() bool { return a.tooMany }

// Response returns the assembled message.
func (a *Assembler) Response() *Response {
	r := a.resp
	r.Type, r.Role = "message", "assistant"
	r.Content = nil
	for _, i := range a.order {
		acc := a.blocks[i]
		b := acc.b
		switch b.Type {
		case "text":
			b.Text = acc.text.String()
		case "thinking":
			b.Thinking = acc.text.String()
		case "tool_use":
			in := strings.TrimSpace(acc.input.String())
			if in == "" {
				in = "{}"
			}
			b.Input = json.RawMessage(in)
			if !json.Valid(b.Input) {
				// Kept as written: ToResponse passes invalid arguments on
				// for the runtime's repair turn.
				b.Input = nil
				b.Text = in
			}
		}
		r.Content = append(r.Content, b)
	}
	return &r
}

// WriteStream writes r as the Messages API event stream a server would
// send (message_start with the input usage, each block as
// content_block_start, deltas of a few pieces and content_block_stop,
// message_delta with the stop reason (and stop details) and output
// usage, message_stop; no usage at all when r has none), calling flush
// after each event. The replay server uses it.
func WriteStream(w io.Writer, r *Response, flush func()) {
	send := func(typ string, v any) {
		b, _ := json.Marshal(v)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", typ, b)
		if flush != nil {
			flush()
		}
	}
	start := *r
	start.Content = []Block{}
	start.StopReason = ""
	var out int64
	if r.Usage != nil {
		u := *r.Usage
		out, u.OutputTokens = u.OutputTokens, 0
		start.Usage = &u
	}
	send("message_start", map[string]any{"type": "message_start", "message": start})
	for i, b := range r.Content {
		head := Block{Type: b.Type, ID: b.ID, Name: b.Name}
		var deltas []map[string]any
		switch b.Type {
		case "text":
			for _, p := range pieces(b.Text, 3) {
				deltas = append(deltas, map[string]any{"type": "text_delta", "text": p})
			}
		case "thinking":
			for _, p := range pieces(b.Thinking, 3) {
				deltas = append(deltas, map[string]any{"type": "thinking_delta", "thinking": p})
			}
		case "tool_use":
			head.Input = json.RawMessage(`{}`)
			for _, p := range pieces(string(b.Input), 3) {
				deltas = append(deltas, map[string]any{"type": "input_json_delta", "partial_json": p})
			}
		}
		send("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": head})
		for _, d := range deltas {
			send("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": d})
		}
		send("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	d := map[string]any{"stop_reason": r.StopReason}
	if r.StopDetails != nil {
		d["stop_details"] = r.StopDetails
	}
	md := map[string]any{"type": "message_delta", "delta": d}
	if r.Usage != nil {
		// Without usage in r none is sent: output_tokens 0 would read as
		// a known count of nothing.
		md["usage"] = map[string]int64{"output_tokens": out}
	}
	send("message_delta", md)
	send("message_stop", map[string]any{"type": "message_stop"})
}

// pieces cuts s into at most n pieces at rune boundaries.
func pieces(s string, n int) []string {
	r := []rune(s)
	if len(r) == 0 {
		return nil
	}
	size := (len(r) + n - 1) / n
	var out []string
	for i := 0; i < len(r); i += size {
		out = append(out, string(r[i:min(i+size, len(r))]))
	}
	return out
}
