package replay

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"

	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/openai"
)

// The OpenAI Responses API (POST /v1/responses) on the replay server: a
// request is read into the same messages a chat-completions request gives
// (instructions as the system message, then each input item) and matched
// against the cassette the same way; the recorded chat.completion is sent
// as a "response" object, or as the API's typed event stream.
//
// Shapes the server cannot imitate are refused with HTTP 400 and an
// OpenAI-style error body naming the parameter: an unknown top-level
// parameter (code unknown_parameter, as the API answers), a state the
// server does not keep (previous_response_id, conversation, prompt,
// background, item_reference), an input item or content part that is not
// text (code unsupported_input), and a tool that is not a function (code
// unsupported_tool).
const (
	UnknownParameterCode = "unknown_parameter"
	UnsupportedInputCode = "unsupported_input"
	UnsupportedToolCode  = "unsupported_tool"
	UnsupportedParamCode = "unsupported_parameter"
)

// responsesParams lists the top-level request parameters the Responses API
// accepts (openai-python, src/openai/types/responses/response_create_params.py).
var responsesParams = []string{
	"background", "context_management", "conversation", "include", "input",
	"instructions", "max_output_tokens", "max_tool_calls", "metadata", "model",
	"parallel_tool_calls", "previous_response_id", "prompt", "prompt_cache_key",
	"prompt_cache_retention", "reasoning", "safety_identifier", "service_tier",
	"store", "stream", "stream_options", "temperature", "text", "tool_choice",
	"tools", "top_logprobs", "top_p", "truncation", "user",
}

// requestError is a request the server refuses: HTTP 400 with this code,
// naming the parameter.
type requestError struct {
	param, code, msg string
}

func (e *requestError) Error() string { return e.msg }

func refuse(param, code, format string, args ...any) *requestError {
	return &requestError{param: param, code: code, msg: fmt.Sprintf(format, args...)}
}

// responsesRequest is what the server keeps of a Responses API request.
type responsesRequest struct {
	chatRequest
	instructions    *string
	maxOutputTokens *int64
	tools           []json.RawMessage
	toolChoice      json.RawMessage
	parallelCalls   *bool
	temperature     *float64
	topP            *float64
	metadata        json.RawMessage
	text            json.RawMessage
	truncation      *string
}

// fromResponsesRequest reads a Responses API request into the messages the
// cassette is matched against: "instructions" as a system message, a
// string "input" as one user message, and a list of input items as one
// message each (a message's text parts joined; a function_call as an
// assistant message without text; a function_call_output as a tool
// message with its output). Reasoning items carry no text and are skipped.
func fromResponsesRequest(body []byte) (responsesRequest, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(body, &raw); err != nil {
		return responsesRequest{}, err
	}
	if raw == nil {
		return responsesRequest{}, fmt.Errorf("request body is null")
	}
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !slices.Contains(responsesParams, k) {
			return responsesRequest{}, refuse(k, UnknownParameterCode, "Unknown parameter: '%s'.", k)
		}
	}
	set := func(k string) bool { v, ok := raw[k]; return ok && string(v) != "null" }
	for _, k := range []string{"previous_response_id", "conversation", "prompt"} {
		if set(k) {
			return responsesRequest{}, refuse(k, UnsupportedParamCode,
				"the replay server keeps no stored responses, conversations or prompts: %q is not supported; send the whole input instead", k)
		}
	}
	var r struct {
		Model           string            `json:"model"`
		Stream          *bool             `json:"stream"`
		Background      *bool             `json:"background"`
		Instructions    *string           `json:"instructions"`
		Input           json.RawMessage   `json:"input"`
		MaxOutputTokens *int64            `json:"max_output_tokens"`
		Tools           []json.RawMessage `json:"tools"`
		ToolChoice      json.RawMessage   `json:"tool_choice"`
		ParallelCalls   *bool             `json:"parallel_tool_calls"`
		Temperature     *float64          `json:"temperature"`
		TopP            *float64          `json:"top_p"`
		Metadata        json.RawMessage   `json:"metadata"`
		Text            json.RawMessage   `json:"text"`
		Truncation      *string           `json:"truncation"`
	}
	if err := json.Unmarshal(body, &r); err != nil {
		return responsesRequest{}, err
	}
	if r.Background != nil && *r.Background {
		return responsesRequest{}, refuse("background", UnsupportedParamCode,
			"the replay server answers every request at once: background responses are not supported")
	}
	req := responsesRequest{
		chatRequest:     chatRequest{Model: r.Model, Stream: r.Stream != nil && *r.Stream},
		instructions:    r.Instructions,
		maxOutputTokens: r.MaxOutputTokens,
		tools:           r.Tools,
		toolChoice:      r.ToolChoice,
		parallelCalls:   r.ParallelCalls,
		temperature:     r.Temperature,
		topP:            r.TopP,
		metadata:        r.Metadata,
		text:            r.Text,
		truncation:      r.Truncation,
	}
	for i, t := range r.Tools {
		var tool struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal(t, &tool); err != nil {
			return responsesRequest{}, fmt.Errorf("tools[%d]: %w", i, err)
		}
		if tool.Type != "function" {
			return responsesRequest{}, refuse(fmt.Sprintf("tools[%d].type", i), UnsupportedToolCode,
				"tool type %q is not supported by the replay server (a cassette holds function calls only)", tool.Type)
		}
	}
	add := func(role, text string) {
		req.Messages = append(req.Messages, openai.Message{Role: role, Content: openai.Content{Text: text}})
	}
	if r.Instructions != nil && *r.Instructions != "" {
		add("system", *r.Instructions)
	}
	if len(r.Input) == 0 || string(r.Input) == "null" {
		return responsesRequest{}, refuse("input", "missing_required_parameter", "Missing required parameter: 'input'.")
	}
	var s string
	if json.Unmarshal(r.Input, &s) == nil {
		add("user", s)
		return req, nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(r.Input, &items); err != nil {
		return responsesRequest{}, refuse("input", "invalid_type", "input must be a string or a list of input items")
	}
	for i, raw := range items {
		param := fmt.Sprintf("input[%d]", i)
		var it struct {
			Type    string          `json:"type"`
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
			Output  json.RawMessage `json:"output"`
		}
		if err := json.Unmarshal(raw, &it); err != nil {
			return responsesRequest{}, refuse(param, "invalid_type", "%s is not an input item: %v", param, err)
		}
		switch {
		case it.Type == "message" || (it.Type == "" && it.Role != ""):
			text, err := inputText(it.Content, param+".content")
			if err != nil {
				return responsesRequest{}, err
			}
			add(it.Role, text)
		case it.Type == "function_call":
			add("assistant", "")
		case it.Type == "function_call_output":
			text, err := inputText(it.Output, param+".output")
			if err != nil {
				return responsesRequest{}, err
			}
			add("tool", text)
		case it.Type == "reasoning":
		default:
			return responsesRequest{}, refuse(param+".type", UnsupportedInputCode,
				"input item type %q is not supported by the replay server (message, function_call, function_call_output and reasoning are)", it.Type)
		}
	}
	return req, nil
}

// inputText reads a message content or a function_call_output output: a
// string, or a list of text parts (input_text, output_text) whose texts
// are joined, as a chat-completions content array is.
func inputText(raw json.RawMessage, param string) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil
	}
	var parts []struct {
		Type    string `json:"type"`
		Text    string `json:"text"`
		Refusal string `json:"refusal"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", refuse(param, "invalid_type", "%s must be a string or a list of content parts", param)
	}
	var b strings.Builder
	for j, p := range parts {
		switch p.Type {
		case "input_text", "output_text":
			b.WriteString(p.Text)
		case "refusal":
			b.WriteString(p.Refusal)
		default:
			return "", refuse(fmt.Sprintf("%s[%d].type", param, j), UnsupportedInputCode,
				"content part type %q is not supported by the replay server (input_text, output_text and refusal are)", p.Type)
		}
	}
	return b.String(), nil
}

// responsesObject builds the "response" object for a recorded completion:
// the request's settings echoed as the API echoes them ("store" is false:
// nothing is kept), and an output that holds a reasoning item when the completion has reasoning, a
// message (output_text, and a refusal part) when it has text or a refusal,
// and one function_call item per tool call.
func responsesObject(req *responsesRequest, c *openai.ChatCompletion, usage json.RawMessage) (map[string]any, error) {
	resp, err := openai.ResponseFromCompletion(c)
	if err != nil {
		return nil, err
	}
	id := "resp_" + firstNonEmpty(strings.TrimPrefix(c.ID, "chatcmpl-"), "replay")
	output := []any{}
	if resp.Reasoning != "" {
		output = append(output, map[string]any{
			"type": "reasoning", "id": "rs_" + id, "summary": []any{},
			"content": []any{map[string]any{"type": "reasoning_text", "text": resp.Reasoning}},
			"status":  "completed",
		})
	}
	if resp.Text != "" || resp.Refusal != "" || len(resp.ToolCalls) == 0 {
		content := []any{}
		if resp.Text != "" || resp.Refusal == "" {
			content = append(content, outputTextPart(resp.Text))
		}
		if resp.Refusal != "" {
			content = append(content, map[string]any{"type": "refusal", "refusal": resp.Refusal})
		}
		output = append(output, map[string]any{
			"type": "message", "id": "msg_" + id, "role": "assistant", "status": "completed", "content": content,
		})
	}
	for i, tc := range resp.ToolCalls {
		output = append(output, map[string]any{
			"type": "function_call", "id": fmt.Sprintf("fc_%s_%d", id, i), "call_id": tc.ID,
			"name": tc.Name, "arguments": tc.Arguments, "status": "completed",
		})
	}
	status, incomplete := "completed", any(nil)
	switch resp.FinishReason {
	case "length":
		status, incomplete = "incomplete", map[string]any{"reason": "max_output_tokens"}
	case "content_filter":
		status, incomplete = "incomplete", map[string]any{"reason": "content_filter"}
	}
	tools := []json.RawMessage{}
	if req.tools != nil {
		tools = req.tools
	}
	toolChoice := json.RawMessage(`"auto"`)
	if len(req.toolChoice) > 0 && string(req.toolChoice) != "null" {
		toolChoice = req.toolChoice
	}
	parallel := req.parallelCalls == nil || *req.parallelCalls
	var metadata any = map[string]any{}
	if len(req.metadata) > 0 && string(req.metadata) != "null" {
		metadata = req.metadata
	}
	textConfig := json.RawMessage(`{"format":{"type":"text"}}`)
	if len(req.text) > 0 && string(req.text) != "null" {
		textConfig = req.text
	}
	truncation := "disabled"
	if req.truncation != nil {
		truncation = *req.truncation
	}
	return map[string]any{
		"id": id, "object": "response", "created_at": c.Created, "status": status,
		"background": false, "store": false, "text": textConfig, "truncation": truncation,
		"error": nil, "incomplete_details": incomplete,
		"instructions": req.instructions, "max_output_tokens": req.maxOutputTokens,
		"model": firstNonEmpty(c.Model, req.Model), "output": output,
		"parallel_tool_calls": parallel, "previous_response_id": nil,
		"temperature": req.temperature, "top_p": req.topP,
		"tool_choice": toolChoice, "tools": tools, "metadata": metadata,
		"usage": responsesUsage(resp, usage),
	}, nil
}

func outputTextPart(text string) map[string]any {
	return map[string]any{"type": "output_text", "text": text, "annotations": []any{}, "logprobs": []any{}}
}

// responsesUsage is the Responses API usage of a recorded completion (nil
// when the recording has no token counts): input and output tokens, their
// total, the cached input tokens and the reasoning tokens.
func responsesUsage(resp *model.Response, raw json.RawMessage) any {
	u := resp.Usage
	if len(raw) == 0 || !u.TokensKnown {
		return nil
	}
	var details struct {
		CompletionTokensDetails *struct {
			ReasoningTokens int64 `json:"reasoning_tokens"`
		} `json:"completion_tokens_details"`
	}
	_ = json.Unmarshal(raw, &details)
	var reasoning int64
	if d := details.CompletionTokensDetails; d != nil {
		reasoning = max(d.ReasoningTokens, 0)
	}
	return map[string]any{
		"input_tokens":          u.PromptTokens,
		"input_tokens_details":  map[string]any{"cached_tokens": u.CachedTokens},
		"output_tokens":         u.CompletionTokens,
		"output_tokens_details": map[string]any{"reasoning_tokens": reasoning},
		"total_tokens":          u.TotalTokens,
	}
}

// writeResponses sends the recorded completion as a Responses API answer.
func writeResponses(w http.ResponseWriter, req *responsesRequest, c *openai.ChatCompletion, usage json.RawMessage) {
	obj, err := responsesObject(req, c, usage)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "server_error", string(KindMalformedCassette), err.Error())
		return
	}
	if !req.Stream {
		writeJSONBody(w, http.StatusOK, obj)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	seq := 0
	send := func(typ string, fields map[string]any) {
		fields["type"] = typ
		fields["sequence_number"] = seq
		seq++
		b, _ := json.Marshal(fields)
		_, _ = fmt.Fprintf(w, "event: %s\ndata: %s\n\n", typ, b)
		_ = rc.Flush()
	}
	// The response as it starts: in progress, no output, no usage.
	start := make(map[string]any, len(obj))
	for k, v := range obj {
		start[k] = v
	}
	start["status"], start["output"], start["usage"], start["incomplete_details"] = "in_progress", []any{}, nil, nil
	send("response.created", map[string]any{"response": start})
	send("response.in_progress", map[string]any{"response": start})
	for oi, item := range obj["output"].([]any) {
		it := item.(map[string]any)
		itemID := it["id"]
		at := func(m map[string]any) map[string]any { m["item_id"], m["output_index"] = itemID, oi; return m }
		switch it["type"] {
		case "message":
			send("response.output_item.added", map[string]any{"output_index": oi, "item": map[string]any{
				"type": "message", "id": itemID, "role": "assistant", "status": "in_progress", "content": []any{}}})
			for ci, part := range it["content"].([]any) {
				p := part.(map[string]any)
				if p["type"] == "refusal" {
					send("response.content_part.added", at(map[string]any{"content_index": ci, "part": map[string]any{"type": "refusal", "refusal": ""}}))
					for _, piece := range split(p["refusal"].(string), 3) {
						send("response.refusal.delta", at(map[string]any{"content_index": ci, "delta": piece}))
					}
					send("response.refusal.done", at(map[string]any{"content_index": ci, "refusal": p["refusal"]}))
				} else {
					send("response.content_part.added", at(map[string]any{"content_index": ci, "part": outputTextPart("")}))
					for _, piece := range split(p["text"].(string), 4) {
						send("response.output_text.delta", at(map[string]any{"content_index": ci, "delta": piece, "logprobs": []any{}}))
					}
					send("response.output_text.done", at(map[string]any{"content_index": ci, "text": p["text"], "logprobs": []any{}}))
				}
				send("response.content_part.done", at(map[string]any{"content_index": ci, "part": p}))
			}
		case "function_call":
			send("response.output_item.added", map[string]any{"output_index": oi, "item": map[string]any{
				"type": "function_call", "id": itemID, "call_id": it["call_id"], "name": it["name"],
				"arguments": "", "status": "in_progress"}})
			for _, piece := range split(it["arguments"].(string), 3) {
				send("response.function_call_arguments.delta", at(map[string]any{"delta": piece}))
			}
			send("response.function_call_arguments.done", at(map[string]any{"name": it["name"], "arguments": it["arguments"]}))
		case "reasoning":
			send("response.output_item.added", map[string]any{"output_index": oi, "item": map[string]any{
				"type": "reasoning", "id": itemID, "summary": []any{}, "content": []any{}, "status": "in_progress"}})
			part := it["content"].([]any)[0].(map[string]any)
			text := part["text"].(string)
			send("response.content_part.added", at(map[string]any{"content_index": 0, "part": map[string]any{"type": "reasoning_text", "text": ""}}))
			for _, piece := range split(text, 3) {
				send("response.reasoning_text.delta", at(map[string]any{"content_index": 0, "delta": piece}))
			}
			send("response.reasoning_text.done", at(map[string]any{"content_index": 0, "text": text}))
			send("response.content_part.done", at(map[string]any{"content_index": 0, "part": part}))
		}
		send("response.output_item.done", map[string]any{"output_index": oi, "item": it})
	}
	final := "response.completed"
	if obj["status"] == "incomplete" {
		final = "response.incomplete"
	}
	send(final, map[string]any{"response": obj})
}
