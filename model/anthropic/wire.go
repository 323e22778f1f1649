package anthropic

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/internal/wire"
	"github.com/rlm-go/rlm/model/openai"
)

// MessagesRequest is the JSON body of POST /v1/messages.
type MessagesRequest struct {
	Model       string     `json:"model"`
	MaxTokens   int        `json:"max_tokens"`
	System      []Block    `json:"system,omitempty"`
	Messages    []Message  `json:"messages"`
	Tools       []ToolSpec `json:"tools,omitempty"`
	ToolChoice  any        `json:"tool_choice,omitempty"`
	Temperature *float64   `json:"temperature,omitempty"`
	Stream      bool       `json:"stream,omitempty"`
}

// Message is one turn of a Messages API conversation.
type Message struct {
	Role    string  `json:"role"`
	Content []Block `json:"content"`
}

// Block is a content block: text, thinking, tool_use or tool_result.
// Decoding is strict for those four types and loose for any other
// (server_tool_use, web_search_tool_result, redacted_thinking,
// compaction, types added later): such a block keeps its type, and its
// other fields when they have the shapes above, else none (a server
// tool result's content is an array or an object). ToResponse skips
// them; they never fail a reply.
type Block struct {
	Type string `json:"type"`
	Text string `json:"text,omitempty"`
	// Thinking and Signature are a thinking block's text and signature.
	Thinking  string `json:"thinking,omitempty"`
	Signature string `json:"signature,omitempty"`
	// ID, Name and Input are a tool_use block's call.
	ID    string          `json:"id,omitempty"`
	Name  string          `json:"name,omitempty"`
	Input json.RawMessage `json:"input,omitempty"`
	// ToolUseID and Content are a tool_result block's answer; a result
	// with images is sent with ContentBlocks (text and image blocks) as
	// its content instead.
	ToolUseID     string  `json:"tool_use_id,omitempty"`
	Content       string  `json:"content,omitempty"`
	ContentBlocks []Block `json:"-"`
	// Source is an image block's image: {"type": "base64", "media_type":
	// ..., "data": ...}
	// (docs.anthropic.com/en/docs/build-with-claude/vision).
	Source *ImageSource `json:"source,omitempty"`
	// CacheControl marks the end of a cached prefix.
	CacheControl *CacheControl `json:"cache_control,omitempty"`
}

// ImageSource is an image block's base64 source.
type ImageSource struct {
	Type      string `json:"type"`
	MediaType string `json:"media_type"`
	Data      string `json:"data"`
}

// imageBlock is the image block of im.
func imageBlock(im model.Image) Block {
	return Block{Type: "image", Source: &ImageSource{Type: "base64", MediaType: im.MediaType, Data: base64.StdEncoding.EncodeToString(im.Data)}}
}

// MarshalJSON encodes b; a tool_result with ContentBlocks has them as its
// content.
func (b Block) MarshalJSON() ([]byte, error) {
	type plain Block
	if len(b.ContentBlocks) == 0 {
		return json.Marshal(plain(b))
	}
	return json.Marshal(struct {
		plain
		Content []Block `json:"content"`
	}{plain(b), b.ContentBlocks})
}

// knownBlock reports the block types decoded strictly.
func knownBlock(typ string) bool {
	switch typ {
	case "text", "thinking", "tool_use", "tool_result":
		return true
	}
	return false
}

// UnmarshalJSON decodes a block, strictly for the types of knownBlock
// and loosely for any other (see Block).
func (b *Block) UnmarshalJSON(data []byte) error {
	type plain Block
	var head struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return err
	}
	var p plain
	if err := json.Unmarshal(data, &p); err != nil {
		if knownBlock(head.Type) {
			return err
		}
		p = plain{Type: head.Type}
	}
	*b = Block(p)
	return nil
}

// CacheControl is a prompt-caching breakpoint; Type is "ephemeral".
type CacheControl struct {
	Type string `json:"type"`
}

// ToolSpec is a tool offered to the model.
type ToolSpec struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// Response is a Messages API response ("type": "message").
type Response struct {
	ID         string  `json:"id"`
	Type       string  `json:"type"`
	Role       string  `json:"role"`
	Model      string  `json:"model"`
	Content    []Block `json:"content"`
	StopReason string  `json:"stop_reason,omitempty"`
	// StopDetails explains a stop_reason "refusal" (null otherwise).
	StopDetails *StopDetails `json:"stop_details,omitempty"`
	Usage       *Usage       `json:"usage,omitempty"`
}

// StopDetails is a message's "stop_details": with stop_reason
// "refusal", {"type": "refusal", "category": ..., "explanation": ...}.
// ToResponse carries Category and Explanation into the model.Response,
// and model.Refused into the refused error's detail.
type StopDetails struct {
	Type        string `json:"type,omitempty"`
	Category    string `json:"category,omitempty"`
	Explanation string `json:"explanation,omitempty"`
}

// UnmarshalJSON decodes stop details loosely: a value of another shape
// (not an object of strings) reads as none rather than failing the
// reply.
func (sd *StopDetails) UnmarshalJSON(data []byte) error {
	type plain StopDetails
	var p plain
	if json.Unmarshal(data, &p) == nil {
		*sd = StopDetails(p)
	}
	return nil
}

// Usage is the Messages API token accounting. InputTokens excludes the
// tokens read from and written to the prompt cache. Iterations, when the
// server sends them (a reply that took several sampling iterations, as
// with server-side compaction), hold each iteration's counts: the call
// is billed their sum, which Total returns.
type Usage struct {
	InputTokens              int64   `json:"input_tokens"`
	OutputTokens             int64   `json:"output_tokens"`
	CacheCreationInputTokens int64   `json:"cache_creation_input_tokens,omitempty"`
	CacheReadInputTokens     int64   `json:"cache_read_input_tokens,omitempty"`
	Iterations               []Usage `json:"iterations,omitempty"`
	// has records which counts the decoded JSON held (a message_delta
	// replaces those, and only those, of message_start).
	has usageFields
}

// usageFields is a set of the four counts of a Usage.
type usageFields uint8

const (
	hasInput usageFields = 1 << iota
	hasOutput
	hasCacheWrite
	hasCacheRead
)

// UnmarshalJSON decodes u and records which counts were present.
func (u *Usage) UnmarshalJSON(data []byte) error {
	var w struct {
		InputTokens              *int64  `json:"input_tokens"`
		OutputTokens             *int64  `json:"output_tokens"`
		CacheCreationInputTokens *int64  `json:"cache_creation_input_tokens"`
		CacheReadInputTokens     *int64  `json:"cache_read_input_tokens"`
		Iterations               []Usage `json:"iterations"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*u = Usage{Iterations: w.Iterations}
	for _, f := range []struct {
		p   *int64
		dst *int64
		bit usageFields
	}{
		{w.InputTokens, &u.InputTokens, hasInput},
		{w.OutputTokens, &u.OutputTokens, hasOutput},
		{w.CacheCreationInputTokens, &u.CacheCreationInputTokens, hasCacheWrite},
		{w.CacheReadInputTokens, &u.CacheReadInputTokens, hasCacheRead},
	} {
		if f.p != nil {
			*f.dst = *f.p
			u.has |= f.bit
		}
	}
	return nil
}

// update folds a message_delta's usage d into u: message_delta counts
// are cumulative, so each count d holds replaces u's (zero included: a
// final cache read of 0 is the final figure), a count d lacks keeps
// u's (older streams send output_tokens alone), and d's iterations,
// when present, replace u's.
func (u *Usage) update(d *Usage) {
	for _, f := range []struct {
		dst *int64
		src int64
		bit usageFields
	}{
		{&u.InputTokens, d.InputTokens, hasInput},
		{&u.OutputTokens, d.OutputTokens, hasOutput},
		{&u.CacheCreationInputTokens, d.CacheCreationInputTokens, hasCacheWrite},
		{&u.CacheReadInputTokens, d.CacheReadInputTokens, hasCacheRead},
	} {
		if d.has&f.bit != 0 {
			*f.dst = f.src
			u.has |= f.bit
		}
	}
	if len(d.Iterations) > 0 {
		u.Iterations = append([]Usage(nil), d.Iterations...)
	}
}

// Total returns the counts the call is billed: the sum of Iterations
// when there are any (the top-level counts are then the last
// iteration's), else u's own counts; sums saturate. Iterations of an
// iteration are not looked at.
func (u *Usage) Total() Usage {
	if u == nil {
		return Usage{}
	}
	if len(u.Iterations) == 0 {
		return Usage{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens,
			CacheCreationInputTokens: u.CacheCreationInputTokens, CacheReadInputTokens: u.CacheReadInputTokens}
	}
	var t Usage
	for _, it := range u.Iterations {
		t.InputTokens = budget.AddTokens(t.InputTokens, max(it.InputTokens, 0))
		t.OutputTokens = budget.AddTokens(t.OutputTokens, max(it.OutputTokens, 0))
		t.CacheCreationInputTokens = budget.AddTokens(t.CacheCreationInputTokens, max(it.CacheCreationInputTokens, 0))
		t.CacheReadInputTokens = budget.AddTokens(t.CacheReadInputTokens, max(it.CacheReadInputTokens, 0))
	}
	return t
}

// Check reports the first field of u that no call can have: a negative
// token count, in u or in one of its iterations. The Messages API
// defines all four as counts of tokens billed. It returns an
// *openai.UsageError (docs/budget.md, "Usage a server cannot have").
func (u *Usage) Check() error {
	if u == nil {
		return nil
	}
	return u.check("usage")
}

func (u *Usage) check(at string) error {
	for _, c := range []struct {
		field string
		n     int64
	}{
		{"input_tokens", u.InputTokens},
		{"output_tokens", u.OutputTokens},
		{"cache_creation_input_tokens", u.CacheCreationInputTokens},
		{"cache_read_input_tokens", u.CacheReadInputTokens},
	} {
		if c.n < 0 {
			return &openai.UsageError{Field: at + "." + c.field, Value: strconv.FormatInt(c.n, 10)}
		}
	}
	for i := range u.Iterations {
		if err := u.Iterations[i].check(fmt.Sprintf("%s.iterations[%d]", at, i)); err != nil {
			return err
		}
	}
	return nil
}

// MaxCacheBreakpoints is the most cache_control marks the API accepts in
// one request.
const MaxCacheBreakpoints = 4

// DefaultMaxTokens is sent when a request has no MaxTokens: the Messages
// API requires the field.
const DefaultMaxTokens = 4096

// EncodeRequest builds the body for req. System messages become the
// system blocks; tool messages become tool_result blocks of a user turn;
// consecutive turns of one role are merged; assistant tool calls become
// tool_use blocks (arguments that are not a JSON object are sent as {}).
// Blank text (empty or whitespace only, which the API refuses in a text
// block) is not sent; a message left without blocks is left out.
// Messages marked CacheBreakpoint (model.MarkCachePrefix), and those
// req.CachePrefix stands for (model.CachePrefixAt), get cache_control
// on their last block, at most MaxCacheBreakpoints (the last ones).
// Extra fields are merged in under keys the typed request did not set,
// never model, messages or stream. Errors have Kind invalid_request.
func EncodeRequest(req model.Request, defaultModel string) ([]byte, error) {
	mr, err := requestFields(req, defaultModel)
	if err != nil {
		return nil, err
	}
	sysMark, lastMark := breakpoints(req)
	var cv converter
	emit := func(wm *Message) error {
		mr.Messages = append(mr.Messages, *wm)
		return nil
	}
	for i := range req.Messages {
		m := &req.Messages[i]
		if err := cv.add(i, m, m.CacheBreakpoint || i == sysMark || i == lastMark, emit); err != nil {
			return nil, err
		}
	}
	_ = cv.flush(emit)
	if len(mr.Messages) == 0 {
		return nil, invalid("request has no user or assistant messages")
	}
	mr.System = cv.system
	setMarks(&mr, cv.marks)
	if err := requestTools(req, &mr); err != nil {
		return nil, err
	}
	body, err := appendRequest(&mr)
	if err != nil {
		return nil, fault.Wrap(err, fault.PhaseProvider, model.KindInvalidRequest, "encode request")
	}
	out, err := wire.MergeExtra(body, req.Extra, reservedKeys)
	if err != nil {
		return nil, fault.Wrap(err, fault.PhaseProvider, model.KindInvalidRequest, "encode extra field")
	}
	return out, nil
}

// requestFields returns the request of req but for its messages, system
// blocks, tools and tool choice (requestTools).
func requestFields(req model.Request, defaultModel string) (MessagesRequest, error) {
	mr := MessagesRequest{
		Model:       firstNonEmpty(req.Model, defaultModel),
		MaxTokens:   req.MaxTokens,
		Temperature: req.Temperature,
		Stream:      req.Stream,
	}
	if mr.Model == "" {
		return mr, invalid("no model: set Config.Model or Request.Model")
	}
	if len(req.Messages) == 0 {
		return mr, invalid("request has no messages")
	}
	if mr.MaxTokens <= 0 {
		mr.MaxTokens = DefaultMaxTokens
	}
	return mr, nil
}

// breakpoints returns the indexes of the messages req.CachePrefix stands
// for (model.CachePrefixAt), -1 for none.
func breakpoints(req model.Request) (sys, last int) {
	if !req.CachePrefix {
		return -1, -1
	}
	return model.CachePrefixAt(req.Messages)
}

// cacheMark is a cache_control mark: on system block at, or on the last
// block of wire message at.
type cacheMark struct {
	sys bool
	at  int
}

// setMarks sets the cache_control of the blocks marks name, of the last
// MaxCacheBreakpoints of them.
func setMarks(mr *MessagesRequest, marks []cacheMark) {
	if len(marks) > MaxCacheBreakpoints {
		marks = marks[len(marks)-MaxCacheBreakpoints:]
	}
	for _, mk := range marks {
		if mk.sys {
			mr.System[mk.at].CacheControl = ephemeral
			continue
		}
		c := mr.Messages[mk.at].Content
		c[len(c)-1].CacheControl = ephemeral
	}
}

var ephemeral = &CacheControl{Type: "ephemeral"}

// converter turns a request's messages, one after the other, into its
// system blocks and wire messages: each wire message is emitted once a
// message of the other role begins the next (flush emits the last), as
// turns of one role merge. marks are the cache marks in the order of
// the messages; with direct, a wire message's mark is also set as it is
// emitted (for a request of at most MaxCacheBreakpoints marks, where
// none is dropped).
type converter struct {
	system []Block
	marks  []cacheMark
	direct bool
	open   Message // the last wire message, while turns may merge into it
	n      int     // wire messages begun, open included
	from   int     // the first message of open
	marked bool    // open has a mark
}

// add converts message i, m, marked when breakpoint, emitting the wire
// message it ends. Errors have Kind invalid_request.
func (cv *converter) add(i int, m *model.Message, breakpoint bool, emit func(*Message) error) error {
	var b []Block
	role := "user"
	switch m.Role {
	case model.RoleSystem:
		if len(m.Images) > 0 {
			return invalid(fmt.Sprintf("message %d: only user and tool messages carry images", i)).With("message", i)
		}
		if !blank(m.Content) {
			cv.system = append(cv.system, Block{Type: "text", Text: m.Content})
		}
		if breakpoint && len(cv.system) > 0 {
			cv.marks = append(cv.marks, cacheMark{true, len(cv.system) - 1})
		}
		return nil
	case model.RoleUser:
		// Images first, then the text: the order the vision guide
		// recommends.
		for j, im := range m.Images {
			if err := wire.CheckImage(im); err != nil {
				return invalid(fmt.Sprintf("message %d, image %d: %s", i, j, err)).With("message", i)
			}
			b = append(b, imageBlock(im))
		}
		if !blank(m.Content) {
			b = append(b, Block{Type: "text", Text: m.Content})
		}
	case model.RoleTool:
		if m.ToolCallID == "" {
			return invalid(fmt.Sprintf("tool message %d has no tool_call_id", i)).With("message", i)
		}
		tr := Block{Type: "tool_result", ToolUseID: m.ToolCallID, Content: m.Content}
		if len(m.Images) > 0 {
			// A tool result's content is then an array of text and
			// image blocks (the tool-use guide's "tool_result" content).
			tr.Content = ""
			if !blank(m.Content) {
				tr.ContentBlocks = append(tr.ContentBlocks, Block{Type: "text", Text: m.Content})
			}
			for j, im := range m.Images {
				if err := wire.CheckImage(im); err != nil {
					return invalid(fmt.Sprintf("message %d, image %d: %s", i, j, err)).With("message", i)
				}
				tr.ContentBlocks = append(tr.ContentBlocks, imageBlock(im))
			}
		}
		b = []Block{tr}
	case model.RoleAssistant:
		if len(m.Images) > 0 {
			return invalid(fmt.Sprintf("message %d: only user and tool messages carry images", i)).With("message", i)
		}
		role = "assistant"
		if !blank(m.Content) {
			b = append(b, Block{Type: "text", Text: m.Content})
		}
		for _, tc := range m.ToolCalls {
			b = append(b, Block{Type: "tool_use", ID: tc.ID, Name: tc.Name, Input: inputObject(tc.Arguments)})
		}
	default:
		return invalid(fmt.Sprintf("message %d has unknown role %q", i, m.Role)).With("message", i)
	}
	if len(b) == 0 {
		// Nothing the API accepts (a blank text block is refused):
		// the message is left out, its neighbours merge, and its cache
		// mark moves to the turn before (a prefix of the same prefix).
		if breakpoint && cv.n > 0 {
			cv.mark()
		}
		return nil
	}
	if cv.n > 0 && cv.open.Role == role {
		cv.open.Content = append(cv.open.Content, b...)
	} else {
		if err := cv.flush(emit); err != nil {
			return err
		}
		cv.open, cv.from = Message{Role: role, Content: b}, i
		cv.n++
	}
	if breakpoint {
		cv.mark()
	}
	return nil
}

// mark marks the last wire message.
func (cv *converter) mark() {
	cv.marks = append(cv.marks, cacheMark{false, cv.n - 1})
	cv.marked = true
}

// flush emits the open wire message, if any.
func (cv *converter) flush(emit func(*Message) error) error {
	if cv.open.Content == nil {
		return nil
	}
	if cv.direct && cv.marked {
		cv.open.Content[len(cv.open.Content)-1].CacheControl = ephemeral
	}
	err := emit(&cv.open) // which copies what it keeps
	cv.open, cv.marked = Message{}, false
	return err
}

// requestTools sets the tools and tool choice of req in mr.
func requestTools(req model.Request, mr *MessagesRequest) error {
	for i, t := range req.Tools {
		if t.Name == "" {
			return invalid(fmt.Sprintf("tool %d has no name", i)).With("tool", i)
		}
		schema := t.Parameters
		if len(schema) == 0 {
			schema = json.RawMessage(`{"type":"object"}`)
		} else if !json.Valid(schema) {
			return invalid(fmt.Sprintf("tool %q parameters are not valid JSON", t.Name)).With("tool", i)
		}
		mr.Tools = append(mr.Tools, ToolSpec{Name: t.Name, Description: t.Description, InputSchema: schema})
	}
	switch tc := req.ToolChoice; tc.Mode {
	case "":
		if tc.Name != "" {
			mr.ToolChoice = map[string]string{"type": "tool", "name": tc.Name}
		}
	case "auto":
		mr.ToolChoice = map[string]string{"type": "auto"}
	case "required":
		mr.ToolChoice = map[string]string{"type": "any"}
	case "none":
		mr.ToolChoice = map[string]string{"type": "none"}
	case "function":
		if tc.Name == "" {
			return invalid(`tool_choice mode "function" needs a name`)
		}
		mr.ToolChoice = map[string]string{"type": "tool", "name": tc.Name}
	default:
		return invalid(fmt.Sprintf("unknown tool_choice mode %q", tc.Mode))
	}
	return nil
}

// reservedKeys are body fields Request.Extra never sets, even when the
// typed request leaves them out: the provider's decoding depends on them.
var reservedKeys = map[string]bool{"model": true, "messages": true, "stream": true}

// blank reports text the Messages API refuses as a text block: empty or
// whitespace only.
func blank(s string) bool { return strings.TrimSpace(s) == "" }

// inputObject returns args when it is a JSON object, else {}.
func inputObject(args string) json.RawMessage {
	a := bytes.TrimSpace([]byte(args))
	if len(a) > 0 && a[0] == '{' && json.Valid(a) {
		return a
	}
	return json.RawMessage(`{}`)
}

// DecodeResponse decodes a Messages API response body.
func DecodeResponse(b []byte) (*Response, error) {
	var r Response
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&r); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("trailing data after the message object")
	}
	if r.Type != "message" {
		return nil, fmt.Errorf("type is %q, want \"message\"", r.Type)
	}
	return &r, nil
}

// finishReasons maps stop_reason to the OpenAI finish_reason the rest of
// the code knows.
var finishReasons = map[string]string{
	"end_turn":      "stop",
	"stop_sequence": "stop",
	"tool_use":      "tool_calls",
	"max_tokens":    "length",
	"refusal":       "refusal",
}

// ToResponse converts r into a model.Response: text blocks joined as the
// text, thinking blocks as reasoning, tool_use blocks as tool calls (the
// input as compact JSON arguments); blocks of other types (server tools
// and their results, redacted thinking, compaction) are skipped. A
// stop_reason "refusal" makes the text the Refusal (the stop_details
// explanation when there is no text) and carries stop_details'
// category and explanation. The usage is Usage.Total's.
func ToResponse(r *Response) *model.Response {
	resp := &model.Response{
		FinishReason: firstNonEmpty(finishReasons[r.StopReason], r.StopReason),
		Usage:        usageFrom(r.Usage),
		Meta:         model.Meta{ID: r.ID, Model: r.Model},
	}
	var text, reasoning strings.Builder
	for _, b := range r.Content {
		switch b.Type {
		case "text":
			text.WriteString(b.Text)
		case "thinking":
			reasoning.WriteString(b.Thinking)
		case "tool_use":
			args := "{}"
			if len(b.Input) == 0 && b.Text != "" {
				args = b.Text // streamed input that is not valid JSON
			}
			if in := bytes.TrimSpace(b.Input); len(in) > 0 {
				var c bytes.Buffer
				if json.Compact(&c, in) == nil {
					args = c.String()
				}
			}
			resp.ToolCalls = append(resp.ToolCalls, model.ToolCall{ID: b.ID, Type: "function", Name: b.Name, Arguments: args})
		}
	}
	resp.Text, resp.Reasoning = text.String(), reasoning.String()
	if r.StopReason == "refusal" {
		var sd StopDetails
		if r.StopDetails != nil {
			sd = *r.StopDetails
		}
		resp.Refusal = firstNonEmpty(resp.Text, sd.Explanation, "the model refused (stop_reason refusal)")
		resp.RefusalCategory, resp.RefusalExplanation = sd.Category, sd.Explanation
		resp.Text = ""
	}
	return resp
}

// FromResponse builds the Messages API response a server would have sent
// for resp (the replay server uses it to answer /v1/messages).
func FromResponse(resp *model.Response, fallbackID string) *Response {
	r := &Response{ID: firstNonEmpty(resp.Meta.ID, fallbackID), Type: "message", Role: "assistant", Model: resp.Meta.Model}
	if resp.Reasoning != "" {
		r.Content = append(r.Content, Block{Type: "thinking", Thinking: resp.Reasoning})
	}
	if t := firstNonEmpty(resp.Text, resp.Refusal); t != "" {
		r.Content = append(r.Content, Block{Type: "text", Text: t})
	}
	for _, tc := range resp.ToolCalls {
		r.Content = append(r.Content, Block{Type: "tool_use", ID: tc.ID, Name: tc.Name, Input: inputObject(tc.Arguments)})
	}
	switch {
	case resp.Refusal != "" && resp.Text == "":
		r.StopReason = "refusal"
		if resp.RefusalCategory != "" || resp.RefusalExplanation != "" {
			r.StopDetails = &StopDetails{Type: "refusal", Category: resp.RefusalCategory, Explanation: resp.RefusalExplanation}
		}
	case len(resp.ToolCalls) > 0:
		r.StopReason = "tool_use"
	case resp.FinishReason == "length":
		r.StopReason = "max_tokens"
	default:
		r.StopReason = "end_turn"
	}
	if u := resp.Usage; u.TokensKnown {
		r.Usage = &Usage{
			InputTokens:              max(u.PromptTokens-u.CachedTokens-u.CacheWriteTokens, 0),
			OutputTokens:             u.CompletionTokens,
			CacheReadInputTokens:     u.CachedTokens,
			CacheCreationInputTokens: u.CacheWriteTokens,
		}
	}
	return r
}

// usageFrom converts Messages API usage (Usage.Total: the iterations'
// sum where there are any): the prompt is the uncached input plus the
// cache reads and writes. The provider refuses what Usage.Check refuses
// before converting; here a negative count reads as 0 and sums saturate
// instead of wrapping.
func usageFrom(in *Usage) budget.Usage {
	out := budget.Usage{Calls: 1}
	if in == nil {
		return out
	}
	t := in.Total()
	u := &t
	out.CachedTokens = max(u.CacheReadInputTokens, 0)
	out.CacheWriteTokens = max(u.CacheCreationInputTokens, 0)
	out.PromptTokens = budget.AddTokens(budget.AddTokens(max(u.InputTokens, 0), out.CachedTokens), out.CacheWriteTokens)
	out.CompletionTokens = max(u.OutputTokens, 0)
	out.TotalTokens = budget.AddTokens(out.PromptTokens, out.CompletionTokens)
	out.TokensKnown = true
	return out
}

func invalid(msg string) *fault.Error {
	return fault.New(fault.PhaseProvider, model.KindInvalidRequest, msg)
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}
