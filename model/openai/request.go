package openai

import (
	"cmp"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/internal/httpcall"
	"github.com/rlm-go/rlm/model/internal/msgcache"
	"github.com/rlm-go/rlm/model/internal/wire"
)

// ChatRequest is the JSON body of a chat-completions request.
type ChatRequest struct {
	Model           string         `json:"model"`
	Messages        []Message      `json:"messages"`
	Tools           []ToolSpec     `json:"tools,omitempty"`
	ToolChoice      any            `json:"tool_choice,omitempty"`
	MaxTokens       int            `json:"max_tokens,omitempty"`
	Temperature     *float64       `json:"temperature,omitempty"`
	ReasoningEffort string         `json:"reasoning_effort,omitempty"`
	Stream          bool           `json:"stream,omitempty"`
	StreamOptions   *StreamOptions `json:"stream_options,omitempty"`
}

// StreamOptions asks a streaming server for a final usage chunk.
type StreamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

// ToolSpec is a tool offered to the model.
type ToolSpec struct {
	Type     string       `json:"type"`
	Function FunctionSpec `json:"function"`
}

// FunctionSpec describes a function tool.
type FunctionSpec struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
	Strict      bool            `json:"strict,omitempty"`
}

// reservedKeys are request fields that Request.Extra can never set, even
// when the typed request leaves them out, because the provider's decoding
// depends on them.
var reservedKeys = map[string]bool{"model": true, "messages": true, "stream": true, "stream_options": true}

// EncodeRequest builds the JSON body for req, using defaultModel when
// req.Model is empty. Extra fields are merged in only under keys that the
// typed request did not set and that are not reserved (model, messages,
// stream, stream_options). Errors have Kind invalid_request.
func EncodeRequest(req model.Request, defaultModel string) ([]byte, error) {
	b, err := encodeRequest(req, defaultModel, nil)
	return b.Bytes(), err
}

// encodeRequest is EncodeRequest, the body in parts, taking the encodings
// of the messages that begin an earlier request of the same conversation
// from mc when it is not nil (encodeChatRequest).
func encodeRequest(req model.Request, defaultModel string, mc *msgcache.Cache) (httpcall.Body, error) {
	cr := ChatRequest{
		Model:           firstNonEmpty(req.Model, defaultModel),
		MaxTokens:       req.MaxTokens,
		Temperature:     req.Temperature,
		ReasoningEffort: req.ReasoningEffort,
		Stream:          req.Stream,
	}
	if cr.Model == "" {
		return nil, invalid("no model: set Config.Model or Request.Model")
	}
	if len(req.Messages) == 0 {
		return nil, invalid("request has no messages")
	}
	if req.Stream {
		cr.StreamOptions = &StreamOptions{IncludeUsage: true}
	}
	var (
		msgs []byte
		err  error
	)
	if mc == nil {
		var cv converter
		emit := func(wm *Message) error {
			cr.Messages = append(cr.Messages, *wm)
			return nil
		}
		cr.Messages = make([]Message, 0, len(req.Messages))
		for i := range req.Messages {
			if err := cv.add(i, &req.Messages[i], emit); err != nil {
				return nil, err
			}
		}
		_ = cv.flush(emit)
	} else if msgs, err = mc.Encode(req.Messages, newShared()); err != nil {
		return nil, err
	}
	for i, t := range req.Tools {
		if t.Name == "" {
			return nil, invalid(fmt.Sprintf("tool %d has no name", i)).With("tool", i)
		}
		if len(t.Parameters) > 0 && !json.Valid(t.Parameters) {
			return nil, invalid(fmt.Sprintf("tool %q parameters are not valid JSON", t.Name)).With("tool", i)
		}
		cr.Tools = append(cr.Tools, ToolSpec{Type: "function", Function: FunctionSpec{
			Name: t.Name, Description: t.Description, Parameters: t.Parameters, Strict: t.Strict,
		}})
	}
	switch tc := req.ToolChoice; tc.Mode {
	case "":
		if tc.Name != "" {
			cr.ToolChoice = functionChoice(tc.Name)
		}
	case "auto", "none", "required":
		cr.ToolChoice = tc.Mode
	case "function":
		if tc.Name == "" {
			return nil, invalid(`tool_choice mode "function" needs a name`)
		}
		cr.ToolChoice = functionChoice(tc.Name)
	default:
		return nil, invalid(fmt.Sprintf("unknown tool_choice mode %q", tc.Mode))
	}
	var body httpcall.Body
	if mc == nil {
		body, err = encodeChatRequest(&cr)
	} else {
		body, err = around(&cr, msgs)
	}
	if err != nil {
		return nil, fault.Wrap(err, fault.PhaseProvider, model.KindInvalidRequest, "encode request")
	}
	if len(req.Extra) == 0 {
		return body, nil
	}
	out, err := wire.MergeExtra(body.Bytes(), req.Extra, reservedKeys)
	if err != nil {
		return nil, fault.Wrap(err, fault.PhaseProvider, model.KindInvalidRequest, "encode extra field")
	}
	return httpcall.Body{out}, nil
}

// converter turns a request's messages into wire messages, one after
// the other. A tool message's images go in a user message after the run
// of tool messages it is in (chat completions takes images in user
// messages only, and the tool messages answering one assistant turn must
// follow it without a break): the converter holds them until the run
// ends.
type converter struct {
	toolImages []ImageURL
	toolText   strings.Builder
}

// clean reports that no tool images wait for the end of their run: the
// wire messages so far are those of any request beginning with the same
// messages.
func (cv *converter) clean() bool { return len(cv.toolImages) == 0 }

// flush emits the user message of the tool images held, if any.
func (cv *converter) flush(emit func(*Message) error) error {
	if len(cv.toolImages) == 0 {
		return nil
	}
	wm := Message{Role: "user", Content: Content{Text: cv.toolText.String(), Images: cv.toolImages}}
	cv.toolImages = nil
	cv.toolText.Reset()
	return emit(&wm)
}

// add checks message i, m, and emits its wire message (after the user
// message of the tool images held, when m ends a run of tool messages).
// Errors have Kind invalid_request.
func (cv *converter) add(i int, m *model.Message, emit func(*Message) error) error {
	switch m.Role {
	case model.RoleSystem, model.RoleUser, model.RoleAssistant, model.RoleTool:
	default:
		return invalid(fmt.Sprintf("message %d has unknown role %q", i, m.Role)).With("message", i)
	}
	if m.Role != model.RoleTool {
		if err := cv.flush(emit); err != nil {
			return err
		}
	}
	images, err := imageParts(i, *m)
	if err != nil {
		return err
	}
	wm := Message{Role: string(m.Role), Content: Content{Text: m.Content}, Name: m.Name, ToolCallID: m.ToolCallID}
	switch m.Role {
	case model.RoleUser:
		wm.Content.Images = images
	case model.RoleTool:
		if len(images) > 0 {
			fmt.Fprintf(&cv.toolText, "The images of tool result %s:\n", m.ToolCallID)
			cv.toolImages = append(cv.toolImages, images...)
		}
	}
	if m.Role == model.RoleTool && m.ToolCallID == "" {
		return invalid(fmt.Sprintf("tool message %d has no tool_call_id", i)).With("message", i)
	}
	if len(m.ToolCalls) > 0 {
		if m.Role != model.RoleAssistant {
			return invalid(fmt.Sprintf("message %d: only assistant messages carry tool calls", i)).With("message", i)
		}
		wm.Content.Null = m.Content == ""
		for _, tc := range m.ToolCalls {
			wm.ToolCalls = append(wm.ToolCalls, ToolCall{
				ID:       tc.ID,
				Type:     firstNonEmpty(tc.Type, "function"),
				Function: FunctionCall{Name: tc.Name, Arguments: tc.Arguments},
			})
		}
	}
	return emit(&wm)
}

// imageParts returns the image parts of message i: images only in user
// and tool messages, each with its data and a media type of the four
// formats.
func imageParts(i int, m model.Message) ([]ImageURL, error) {
	if len(m.Images) == 0 {
		return nil, nil
	}
	if m.Role != model.RoleUser && m.Role != model.RoleTool {
		return nil, invalid(fmt.Sprintf("message %d: only user and tool messages carry images", i)).With("message", i)
	}
	out := make([]ImageURL, len(m.Images))
	for j, im := range m.Images {
		if err := wire.CheckImage(im); err != nil {
			return nil, invalid(fmt.Sprintf("message %d, image %d: %s", i, j, err)).With("message", i)
		}
		out[j] = ImageURL{URL: DataURL(im), Detail: cmp.Or(im.Detail, "high")}
	}
	return out, nil
}

func functionChoice(name string) any {
	return map[string]any{"type": "function", "function": map[string]string{"name": name}}
}

func invalid(msg string) *fault.Error {
	return fault.New(fault.PhaseProvider, model.KindInvalidRequest, msg)
}
