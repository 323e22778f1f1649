package openai

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"io"
	"slices"
	"strings"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/internal/sse"
	"github.com/rlm-go/rlm/model/internal/wire"
)

// readStream reassembles a server-sent event stream of chat.completion.chunk
// objects. The stream must end with "data: [DONE]" or, leniently, with end
// of input after a finish_reason; anything else is stream_interrupted.
//
// onDelta, when set, receives each piece of content text of choice 0 as
// its event is read.
func (p *Provider) readStream(ctx, actx context.Context, body io.Reader, onDelta func(string)) (*model.Response, *fault.Error) {
	r := sse.NewReader(&wire.BoundedReader{R: body, Left: int64(maxResponseBytes)}, 0)
	asm := Assembler{Max: p.maxCalls}
	events := 0
	for {
		ev, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return p.broken(&asm, p.call.StreamError(ctx, actx, err, events, maxResponseBytes))
		}
		events++
		if ev.Error != "" {
			return asm.Response(), p.streamError(parseStreamError(ev.Error), events)
		}
		data := strings.TrimSpace(ev.Data)
		if data == "[DONE]" {
			asm.done = true
			break
		}
		if data == "" {
			continue
		}
		var chunk ChatCompletionChunk
		err = json.Unmarshal([]byte(data), &chunk)
		if err != nil || chunk.Object == "error" {
			// An error event in another shape: {"error": "text"} (TGI),
			// a flat {"object": "error", "message": ...} (vLLM's body shape).
			if ae, ok := ParseErrorBody([]byte(data)); ok {
				return asm.Response(), p.streamError(ae, events)
			}
		}
		if err != nil {
			return p.broken(&asm, p.call.Fail(model.KindMalformedResponse, "stream event is not a chat.completion.chunk", err).
				With("events", events).With("body_excerpt", p.excerpt([]byte(data))))
		}
		if err := chunk.Usage.Check(); err != nil {
			return p.refuseUsage(err, asm.Response(), events)
		}
		if chunk.Error != nil {
			// The usage that came with the error (OpenRouter) is kept, so
			// the failed call is charged what it cost.
			asm.Add(&chunk)
			return asm.Response(), p.streamError(chunk.Error, events)
		}
		if vis := asm.Add(&chunk); onDelta != nil && vis != "" {
			onDelta(vis)
		}
		if asm.TooManyToolCalls() {
			return p.broken(&asm, p.call.Fail(model.KindTooManyToolCalls, "the response carries more tool calls than one batch may hold", nil).
				With("events", events).With("limit", p.maxCalls).
				WithHint("the server sent more tool calls than the runtime accepts in one turn; ask for fewer calls or check the server"))
		}
		if fe := p.call.CtxError(ctx, actx); fe != nil {
			return p.broken(&asm, fe.With("stage", "stream").With("events", events))
		}
	}
	if !asm.done && asm.finish == "" {
		return p.broken(&asm, p.call.Fail(model.KindStreamInterrupted, "the stream ended before [DONE]", nil).With("events", events))
	}
	if vis := asm.flushText(); onDelta != nil && vis != "" {
		onDelta(vis)
	}
	return asm.Response(), nil
}

// broken returns fe for a stream that failed after some events (broken,
// cut, malformed, cancelled, timed out, too many tool calls) with what was
// assembled, so that usage the server already reported is handed back
// (read keeps only that) and charged.
func (p *Provider) broken(asm *Assembler, fe *fault.Error) (*model.Response, *fault.Error) {
	return asm.Response(), fe
}

// parseStreamError reads the value of an SSE "error:" field: an error
// object (llama.cpp sends {"code":400,"message":...,"type":...}), an
// OpenAI-style error body, or plain text.
func parseStreamError(v string) *APIError {
	if ae, ok := ParseErrorBody([]byte(v)); ok {
		return ae
	}
	var ae APIError
	if json.Unmarshal([]byte(v), &ae) == nil && ae.Message != "" {
		return &ae
	}
	return &APIError{Message: v}
}

// contextSizeTypes are error types servers use for a prompt longer than
// the model's context.
var contextSizeTypes = map[string]bool{"exceed_context_size_error": true, "context_length_exceeded": true}

// streamError is a failure the server reported inside a stream:
// stream_interrupted with the server's message (bounded, scrubbed).
func (p *Provider) streamError(ae *APIError, events int) *fault.Error {
	msg := p.call.Clip(ae.Message, MaxBodyExcerpt)
	e := p.call.Fail(model.KindStreamInterrupted, "the server reported an error inside the stream: "+msg, nil).
		With("events", events).With("error_message", msg)
	if ae.Type != "" {
		e.With("error_type", p.call.Clip(ae.Type, 128))
	}
	if c := ae.CodeString(); c != "" {
		e.With("error_code", p.call.Clip(c, 128))
	}
	if contextSizeTypes[ae.Type] || contextSizeTypes[ae.CodeString()] {
		e.WithHint(contextSizeHint)
	}
	return e
}

// MaxToolCalls is the largest number of tool calls one response may carry:
// the direct runtime's default per-batch cap
// (direct.DefaultMaxNativeCallsPerBatch), enforced here too so a hostile
// server cannot make the provider assemble an unbounded number of calls.
// More is Kind too_many_tool_calls.
const MaxToolCalls = 16

// HardMaxToolCalls is the most Config.MaxToolCalls can raise the cap to.
const HardMaxToolCalls = 4096

func toolCallCap(n int) int {
	switch {
	case n == 0:
		return MaxToolCalls
	case n < 0 || n > HardMaxToolCalls:
		return HardMaxToolCalls
	}
	return n
}

// Assembler reassembles streamed chunks into a whole response. Only choice
// index 0 is kept. Calls are indexed by their index, so each fragment costs
// O(1); after Max (default MaxToolCalls) distinct calls further calls are dropped and
// TooManyToolCalls reports it. Tool-call fragments are grouped by their index; the id
// is the first one sent, names and arguments are concatenated (a name
// fragment that repeats the whole name so far is ignored, as some servers
// resend it with every fragment). The zero value is ready to use.
type Assembler struct {
	// Max bounds the calls kept (0: MaxToolCalls).
	Max       int
	id, model string
	text      strings.Builder
	reasoning strings.Builder
	refusal   strings.Builder
	think     thinkSplit
	calls     []*callAcc
	byIndex   map[int]*callAcc
	tooMany   bool
	finish    string
	usage     *Usage
	done      bool
}

type callAcc struct {
	index     int
	id, typ   string
	name      strings.Builder
	arguments strings.Builder
}

// Add folds one chunk into the response and returns the reply text it
// added (content after any leading <think> section, see thinkSplit).
func (a *Assembler) Add(c *ChatCompletionChunk) string {
	vis := ""
	if a.id == "" {
		a.id = c.ID
	}
	if a.model == "" {
		a.model = c.Model
	}
	if c.Usage != nil {
		u := *c.Usage
		a.usage = &u
	}
	for i := range c.Choices {
		ch := &c.Choices[i]
		if ch.Index != 0 {
			continue
		}
		d := &ch.Delta
		if d.Reasoning != nil {
			a.reasoning.WriteString(*d.Reasoning)
		} else if d.ReasoningContent != nil {
			a.reasoning.WriteString(*d.ReasoningContent)
		}
		if d.Content != nil {
			a.reasoning.WriteString(d.Content.Reasoning)
			v := a.think.add(d.Content.Text, &a.reasoning)
			a.text.WriteString(v)
			vis += v
		}
		if d.Refusal != nil {
			a.refusal.WriteString(*d.Refusal)
		}
		for j := range d.ToolCalls {
			if !a.addCall(&d.ToolCalls[j]) {
				break
			}
		}
		if ch.FinishReason != nil && *ch.FinishReason != "" {
			a.finish = *ch.FinishReason
		}
	}
	return vis
}

// flushText ends the content: text held back while it could still start
// a <think> section is added, and returned.
func (a *Assembler) flushText() string {
	v := a.think.finish(&a.reasoning)
	a.text.WriteString(v)
	return v
}

// TooManyToolCalls reports that a chunk started more than MaxToolCalls
// tool calls; the extra calls were dropped.
func (a *Assembler) TooManyToolCalls() bool { return a.tooMany }

// newCall starts the call of index i, or reports false when MaxToolCalls
// calls exist already.
func (a *Assembler) newCall(i int) (*callAcc, bool) {
	if len(a.calls) >= toolCallCap(a.Max) {
		a.tooMany = true
		return nil, false
	}
	if a.byIndex == nil {
		a.byIndex = map[int]*callAcc{}
	}
	acc := &callAcc{index: i}
	a.calls = append(a.calls, acc)
	a.byIndex[i] = acc
	return acc, true
}

func (a *Assembler) addCall(d *ToolCallDelta) bool {
	var acc *callAcc
	switch {
	case d.Index != nil:
		acc = a.byIndex[*d.Index]
		if acc != nil && d.ID != "" && acc.id != "" && d.ID != acc.id {
			// Another id at a used index is another call (Ollama and
			// some vLLM parsers send every parallel call at index 0).
			acc = nil
		}
		if acc == nil {
			var ok bool
			if acc, ok = a.newCall(*d.Index); !ok {
				return false
			}
		}
	default:
		// No index: a new id starts a new call, otherwise continue the last.
		if n := len(a.calls); n > 0 && (d.ID == "" || d.ID == a.calls[n-1].id) {
			acc = a.calls[n-1]
		} else {
			next := 0
			if n > 0 {
				next = a.calls[n-1].index + 1
			}
			for a.byIndex[next] != nil {
				next++
			}
			var ok bool
			if acc, ok = a.newCall(next); !ok {
				return false
			}
		}
	}
	if acc.id == "" {
		acc.id = d.ID
	}
	if acc.typ == "" {
		acc.typ = d.Type
	}
	if n := d.Function.Name; n != "" && n != acc.name.String() {
		acc.name.WriteString(n)
	}
	acc.arguments.WriteString(d.Function.Arguments)
	return true
}

// Response returns the assembled response. Usage is known when a chunk
// carried a usage object.
func (a *Assembler) Response() *model.Response {
	a.flushText()
	resp := &model.Response{
		Text:         a.text.String(),
		Reasoning:    a.reasoning.String(),
		Refusal:      a.refusal.String(),
		FinishReason: a.finish,
		Usage:        usageFrom(a.usage),
		Meta:         model.Meta{ID: a.id, Model: a.model},
	}
	calls := slices.Clone(a.calls)
	slices.SortStableFunc(calls, func(x, y *callAcc) int { return cmp.Compare(x.index, y.index) })
	for i, c := range calls {
		resp.ToolCalls = append(resp.ToolCalls, model.ToolCall{
			ID:        firstNonEmpty(c.id, CallID(a.id, i, c.name.String(), c.arguments.String())),
			Type:      firstNonEmpty(c.typ, "function"),
			Name:      c.name.String(),
			Arguments: c.arguments.String(),
		})
	}
	return resp
}

// sniffEventStream reports whether body starts like a server-sent event
// stream: after optional whitespace (and a byte-order mark), a comment
// (":") or a "data:", "event:", "id:" or "retry:" field. A JSON body never
// does. It peeks without consuming, one byte at a time, so it never waits
// for more of a slow stream than the field name.
func sniffEventStream(br *bufio.Reader) bool {
	const maxSkip = 512
	i := 0
	if b, err := br.Peek(3); err == nil && string(b) == "\xef\xbb\xbf" {
		i = 3
	}
	for ; i < maxSkip; i++ {
		b, err := br.Peek(i + 1)
		if len(b) <= i {
			return false
		}
		_ = err
		switch b[i] {
		case ' ', '\t', '\r', '\n':
			continue
		case ':':
			return true
		case 'd', 'e', 'i', 'r':
		default:
			return false
		}
		for _, field := range []string{"data:", "event:", "id:", "retry:"} {
			if field[0] != b[i] {
				continue
			}
			got, _ := br.Peek(i + len(field))
			if len(got) == i+len(field) && string(got[i:]) == field {
				return true
			}
		}
		return false
	}
	return false
}
