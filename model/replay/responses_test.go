package replay

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/openai"
)

// responsesCassette holds a text answer (with reasoning, usage and cached
// tokens) and a tool-call answer, each matched on a word of the request.
func responsesCassette() *Cassette {
	text := Interaction{Match: &Match{Contains: "capital of France"}, Response: json.RawMessage(`{
		"id":"chatcmpl-t1","object":"chat.completion","created":1700000000,"model":"gpt-4o-mini-2024-07-18",
		"choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant",
			"content":"The capital of France is Paris.","reasoning":"Recall geography."}}],
		"usage":{"prompt_tokens":21,"completion_tokens":9,"total_tokens":30,
			"prompt_tokens_details":{"cached_tokens":16},"completion_tokens_details":{"reasoning_tokens":3}}}`)}
	calls := Reply("needle", model.Response{ToolCalls: []model.ToolCall{
		{ID: "call_s", Type: "function", Name: "search", Arguments: `{"pattern":"needle"}`},
		{ID: "call_p", Type: "function", Name: "peek", Arguments: `{"head":64}`},
	}, Usage: usageOf(40, 22)})
	return &Cassette{Version: Version, Interactions: []Interaction{text, calls}}
}

func usageOf(in, out int64) (u budget.Usage) {
	u.PromptTokens, u.CompletionTokens, u.TotalTokens, u.TokensKnown, u.Calls = in, out, in+out, true, 1
	return u
}

// wantOutput is what a Responses answer must hold.
type wantOutput struct {
	types         []string // output item types, in order
	text          string   // the message's output_text
	reasoning     string
	calls         [][3]string // call_id, name, arguments
	in, out, tot  int64
	cached, think int64
}

// responsesAnswer is the part of a "response" object the tests read.
type responsesAnswer struct {
	ID     string `json:"id"`
	Object string `json:"object"`
	Status string `json:"status"`
	Model  string `json:"model"`
	Output []struct {
		Type    string `json:"type"`
		ID      string `json:"id"`
		Role    string `json:"role"`
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		CallID    string `json:"call_id"`
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"output"`
	Usage *struct {
		InputTokens        int64 `json:"input_tokens"`
		OutputTokens       int64 `json:"output_tokens"`
		TotalTokens        int64 `json:"total_tokens"`
		InputTokensDetails struct {
			CachedTokens int64 `json:"cached_tokens"`
		} `json:"input_tokens_details"`
		OutputTokensDetails struct {
			ReasoningTokens int64 `json:"reasoning_tokens"`
		} `json:"output_tokens_details"`
	} `json:"usage"`
}

func (a *responsesAnswer) check(t *testing.T, want wantOutput) {
	t.Helper()
	if a.Object != "response" || a.Status != "completed" || !strings.HasPrefix(a.ID, "resp_") || a.Model != "gpt-4o-mini-2024-07-18" && a.Model != "replay-model" {
		t.Errorf("object %q status %q id %q model %q", a.Object, a.Status, a.ID, a.Model)
	}
	var types []string
	var calls [][3]string
	var text, reasoning string
	for _, it := range a.Output {
		types = append(types, it.Type)
		switch it.Type {
		case "message":
			if it.Role != "assistant" || len(it.Content) != 1 || it.Content[0].Type != "output_text" {
				t.Errorf("message item %+v", it)
			}
			text = it.Content[0].Text
		case "reasoning":
			reasoning = it.Content[0].Text
		case "function_call":
			calls = append(calls, [3]string{it.CallID, it.Name, it.Arguments})
		}
	}
	if strings.Join(types, ",") != strings.Join(want.types, ",") || text != want.text || reasoning != want.reasoning {
		t.Errorf("output types %v text %q reasoning %q, want %v %q %q", types, text, reasoning, want.types, want.text, want.reasoning)
	}
	if len(calls) != len(want.calls) || (len(calls) > 0 && !equalCalls(calls, want.calls)) {
		t.Errorf("calls %v, want %v", calls, want.calls)
	}
	u := a.Usage
	if u == nil || u.InputTokens != want.in || u.OutputTokens != want.out || u.TotalTokens != want.tot ||
		u.InputTokensDetails.CachedTokens != want.cached || u.OutputTokensDetails.ReasoningTokens != want.think {
		t.Errorf("usage %+v, want %+v", u, want)
	}
}

func equalCalls(a, b [][3]string) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// sseEvent is one event of a Responses stream.
type sseEvent struct {
	name string // the "event:" line
	data map[string]json.RawMessage
}

// parseSSE splits a Responses API event stream into events, failing on a
// line that is neither "event:", "data:" nor blank.
func parseSSE(t *testing.T, body []byte) []sseEvent {
	t.Helper()
	var evs []sseEvent
	var cur sseEvent
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if cur.data != nil {
				evs = append(evs, cur)
			}
			cur = sseEvent{}
		case strings.HasPrefix(line, "event: "):
			cur.name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &cur.data); err != nil {
				t.Fatalf("data line %q: %v", line, err)
			}
		default:
			t.Fatalf("unexpected stream line %q", line)
		}
	}
	if cur.data != nil {
		t.Fatalf("stream ends inside an event")
	}
	return evs
}

func str(raw json.RawMessage) string {
	var s string
	_ = json.Unmarshal(raw, &s)
	return s
}

// TestResponsesAPI: /v1/responses answers a text entry and a tool-call
// entry of a cassette in the Responses shape, non-streaming and streaming;
// the request is matched on its input items as a chat-completions request
// is on its messages.
func TestResponsesAPI(t *testing.T) {
	text := wantOutput{types: []string{"reasoning", "message"}, text: "The capital of France is Paris.",
		reasoning: "Recall geography.", in: 21, out: 9, tot: 30, cached: 16, think: 3}
	tools := wantOutput{types: []string{"function_call", "function_call"},
		calls: [][3]string{{"call_s", "search", `{"pattern":"needle"}`}, {"call_p", "peek", `{"head":64}`}}, in: 40, out: 22, tot: 62}
	tests := []struct {
		name, input string
		want        wantOutput
	}{
		{"text, string input", `"What is the capital of France?"`, text},
		{"text, input_text parts", `[{"role":"user","content":[{"type":"input_text","text":"What is the capital "},{"type":"input_text","text":"of France?"}]}]`, text},
		{"tools, message item", `[{"type":"message","role":"user","content":"find the needle"}]`, tools},
		{"tools, function_call_output", `[{"role":"user","content":"look"},
			{"type":"function_call","call_id":"call_0","name":"peek","arguments":"{}"},
			{"type":"function_call_output","call_id":"call_0","output":"the needle is near"}]`, tools},
	}
	for _, tt := range tests {
		for _, stream := range []bool{false, true} {
			name := tt.name
			if stream {
				name += ", stream"
			}
			t.Run(name, func(t *testing.T) {
				srv := NewServer(responsesCassette())
				defer srv.Close()
				body := `{"model":"gpt-4o-mini","instructions":"Be terse.","input":` + tt.input +
					`,"tools":[{"type":"function","name":"search","parameters":{"type":"object"}}],"max_output_tokens":256,"stream":` + map[bool]string{true: "true", false: "false"}[stream] + `}`
				res, raw := post(t, srv.BaseURL()+"/responses", body)
				if res.StatusCode != http.StatusOK {
					t.Fatalf("HTTP %d: %s", res.StatusCode, raw)
				}
				if !stream {
					if ct := res.Header.Get("Content-Type"); ct != "application/json" {
						t.Fatalf("content type %q", ct)
					}
					var a responsesAnswer
					if err := json.Unmarshal(raw, &a); err != nil {
						t.Fatal(err)
					}
					a.check(t, tt.want)
					return
				}
				if ct := res.Header.Get("Content-Type"); ct != "text/event-stream" {
					t.Fatalf("content type %q", ct)
				}
				checkStream(t, parseSSE(t, raw), tt.want)
			})
		}
	}
}

// checkStream checks a Responses event stream event by event: each event's
// "event:" name is its type, sequence numbers count up from 0, it opens
// with response.created and ends with response.completed carrying the
// whole response and its usage, every output item is added then done,
// every text delta follows the content_part.added of its part, and the
// text and argument deltas concatenate to what the done events and
// the final response hold.
func checkStream(t *testing.T, evs []sseEvent, want wantOutput) {
	t.Helper()
	if len(evs) < 3 {
		t.Fatalf("%d events", len(evs))
	}
	var types []string
	deltas := map[string]*strings.Builder{}
	open := map[string]bool{}
	parts := map[string]bool{} // item_id/content_index of added content parts
	for i, ev := range evs {
		typ := str(ev.data["type"])
		types = append(types, typ)
		if ev.name != typ {
			t.Errorf("event %d: event line %q, type %q", i, ev.name, typ)
		}
		var seq int
		if err := json.Unmarshal(ev.data["sequence_number"], &seq); err != nil || seq != i {
			t.Errorf("event %d (%s): sequence_number %s", i, typ, ev.data["sequence_number"])
		}
		item := str(ev.data["item_id"])
		switch typ {
		case "response.output_item.added", "response.output_item.done":
			var it struct{ ID string }
			_ = json.Unmarshal(ev.data["item"], &it)
			if typ == "response.output_item.added" {
				open[it.ID] = true
			} else if !open[it.ID] {
				t.Errorf("event %d: item %q done before added", i, it.ID)
			} else {
				delete(open, it.ID)
			}
		case "response.content_part.added":
			parts[item+"/"+string(ev.data["content_index"])] = true
		case "response.output_text.delta", "response.function_call_arguments.delta", "response.reasoning_text.delta":
			if !open[item] {
				t.Errorf("event %d: delta for item %q not open", i, item)
			}
			// The official clients add a delta to the content part the
			// content_part.added event opened (openai-python's
			// ResponseStreamState indexes content[content_index]).
			if typ != "response.function_call_arguments.delta" && !parts[item+"/"+string(ev.data["content_index"])] {
				t.Errorf("event %d: %s before content_part.added", i, typ)
			}
			if deltas[item] == nil {
				deltas[item] = &strings.Builder{}
			}
			deltas[item].WriteString(str(ev.data["delta"]))
		case "response.output_text.done", "response.reasoning_text.done":
			if got := deltas[item].String(); got != str(ev.data["text"]) {
				t.Errorf("event %d: deltas %q, done text %q", i, got, str(ev.data["text"]))
			}
		case "response.function_call_arguments.done":
			if got := deltas[item].String(); got != str(ev.data["arguments"]) {
				t.Errorf("event %d: deltas %q, done arguments %q", i, got, str(ev.data["arguments"]))
			}
		}
	}
	if len(open) != 0 {
		t.Errorf("items never done: %v", open)
	}
	if types[0] != "response.created" || types[len(types)-1] != "response.completed" {
		t.Errorf("event types %v", types)
	}
	var created struct {
		Status string          `json:"status"`
		Output []any           `json:"output"`
		Usage  json.RawMessage `json:"usage"`
	}
	if err := json.Unmarshal(evs[0].data["response"], &created); err != nil || created.Status != "in_progress" || len(created.Output) != 0 || string(created.Usage) != "null" {
		t.Errorf("response.created carries %s", evs[0].data["response"])
	}
	var final responsesAnswer
	if err := json.Unmarshal(evs[len(evs)-1].data["response"], &final); err != nil {
		t.Fatal(err)
	}
	final.check(t, want)
	var joined []string
	for _, it := range final.Output {
		if d := deltas[it.ID]; d != nil {
			joined = append(joined, d.String())
		}
	}
	var fromFinal []string
	for _, it := range final.Output {
		switch it.Type {
		case "message", "reasoning":
			fromFinal = append(fromFinal, it.Content[0].Text)
		case "function_call":
			fromFinal = append(fromFinal, it.Arguments)
		}
	}
	if strings.Join(joined, "|") != strings.Join(fromFinal, "|") {
		t.Errorf("deltas %q, final output %q", joined, fromFinal)
	}
}

// TestResponsesRefused: request shapes the server cannot imitate are
// refused with HTTP 400 in the API's error shape, naming the parameter;
// nothing is used up. A request no interaction fits gets the exhaustion
// answer, as on /v1/chat/completions.
func TestResponsesRefused(t *testing.T) {
	tests := []struct {
		name, body string
		status     int
		code       string
		param      string
	}{
		{"unknown parameter", `{"model":"m","input":"capital of France","messages":[]}`, 400, UnknownParameterCode, "messages"},
		{"previous_response_id", `{"model":"m","input":"capital of France","previous_response_id":"resp_1"}`, 400, UnsupportedParamCode, "previous_response_id"},
		{"background", `{"model":"m","input":"capital of France","background":true}`, 400, UnsupportedParamCode, "background"},
		{"image part", `{"model":"m","input":[{"role":"user","content":[{"type":"input_text","text":"capital of France"},{"type":"input_image","image_url":"https://x/y.png"}]}]}`, 400, UnsupportedInputCode, "input[0].content[1].type"},
		{"item reference", `{"model":"m","input":[{"type":"item_reference","id":"msg_1"}]}`, 400, UnsupportedInputCode, "input[0].type"},
		{"built-in tool", `{"model":"m","input":"capital of France","tools":[{"type":"web_search"}]}`, 400, UnsupportedToolCode, "tools[0].type"},
		{"no input", `{"model":"m"}`, 400, "missing_required_parameter", "input"},
		{"input a number", `{"model":"m","input":3}`, 400, "invalid_type", "input"},
		{"not json", `{"model":`, 400, "invalid_json", ""},
		{"no match", `{"model":"m","input":"nothing fits this"}`, ExhaustedStatus, ExhaustedCode, ""},
	}
	srv := NewServer(responsesCassette())
	defer srv.Close()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, raw := post(t, srv.BaseURL()+"/responses", tt.body)
			var eb struct {
				Error *struct {
					Type  string  `json:"type"`
					Code  string  `json:"code"`
					Param *string `json:"param"`
				} `json:"error"`
			}
			if err := json.Unmarshal(raw, &eb); err != nil || eb.Error == nil {
				t.Fatalf("HTTP %d body %s", res.StatusCode, raw)
			}
			param := ""
			if eb.Error.Param != nil {
				param = *eb.Error.Param
			}
			if res.StatusCode != tt.status || eb.Error.Code != tt.code || param != tt.param || eb.Error.Type != "invalid_request_error" {
				t.Errorf("HTTP %d %s, want %d code %q param %q", res.StatusCode, raw, tt.status, tt.code, tt.param)
			}
		})
	}
	if st := srv.Stats(); st != (Stats{Requests: 1, Exhausted: 1, Remaining: 2, Total: 2}) {
		t.Errorf("stats = %+v (refused requests are not counted, nothing is used up)", st)
	}
}

// TestResponsesMatchesLikeChat: a Responses request and the
// chat-completions request it stands for select the same interactions:
// instructions are the system message and a function_call_output is the
// tool message, so a match on "Be terse.\nthe needle" (system, then the
// tool output, no user text) fits both.
func TestResponsesMatchesLikeChat(t *testing.T) {
	c := &Cassette{Version: Version, Interactions: []Interaction{
		Reply("Be terse.\n\nthe needle", model.Response{Text: "first"}),
		Reply("Be terse.\n\nthe needle", model.Response{Text: "second"}),
	}}
	srv := NewServer(c)
	defer srv.Close()
	res, raw := post(t, srv.BaseURL()+"/chat/completions", `{"model":"m","messages":[{"role":"system","content":"Be terse."},
		{"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]},
		{"role":"tool","tool_call_id":"c","content":"the needle"}]}`)
	var cc openai.ChatCompletion
	if json.Unmarshal(raw, &cc) != nil || res.StatusCode != 200 || cc.Choices[0].Message.Content.Text != "first" {
		t.Fatalf("chat: HTTP %d %s", res.StatusCode, raw)
	}
	res, raw = post(t, srv.BaseURL()+"/responses", `{"model":"m","instructions":"Be terse.","input":[
		{"type":"function_call","call_id":"c","name":"f","arguments":"{}"},
		{"type":"function_call_output","call_id":"c","output":[{"type":"input_text","text":"the needle"}]}]}`)
	var a responsesAnswer
	if json.Unmarshal(raw, &a) != nil || res.StatusCode != 200 || len(a.Output) != 1 || a.Output[0].Content[0].Text != "second" {
		t.Fatalf("responses: HTTP %d %s", res.StatusCode, raw)
	}
	if a.Usage != nil {
		t.Errorf("a recording without usage is answered with usage %+v", a.Usage)
	}
}

// TestResponsesIncompleteAndRefusal: a recording cut by the token limit is
// an "incomplete" response (incomplete_details.reason max_output_tokens)
// whose stream ends with response.incomplete, and a refusal is a refusal
// content part streamed with refusal deltas.
func TestResponsesIncompleteAndRefusal(t *testing.T) {
	c := &Cassette{Version: Version, Interactions: []Interaction{
		Reply("long", model.Response{Text: "It was a dark and", FinishReason: "length"}),
		Reply("long", model.Response{Text: "It was a dark and", FinishReason: "length"}),
		Reply("forbidden", model.Response{Refusal: "I can't help with that."}),
		Reply("forbidden", model.Response{Refusal: "I can't help with that."}),
	}}
	srv := NewServer(c)
	defer srv.Close()
	for _, stream := range []string{"false", "true"} {
		_, raw := post(t, srv.BaseURL()+"/responses", `{"model":"m","input":"a long story","stream":`+stream+`}`)
		var obj json.RawMessage = raw
		if stream == "true" {
			evs := parseSSE(t, raw)
			last := evs[len(evs)-1]
			if typ := str(last.data["type"]); typ != "response.incomplete" {
				t.Fatalf("stream ends with %s", typ)
			}
			obj = last.data["response"]
		}
		var r struct {
			Status            string `json:"status"`
			IncompleteDetails struct {
				Reason string `json:"reason"`
			} `json:"incomplete_details"`
		}
		if err := json.Unmarshal(obj, &r); err != nil || r.Status != "incomplete" || r.IncompleteDetails.Reason != "max_output_tokens" {
			t.Errorf("stream %s: %s", stream, obj)
		}

		_, raw = post(t, srv.BaseURL()+"/responses", `{"model":"m","input":"something forbidden","stream":`+stream+`}`)
		obj = raw
		if stream == "true" {
			evs := parseSSE(t, raw)
			var deltas strings.Builder
			for _, ev := range evs {
				if str(ev.data["type"]) == "response.refusal.delta" {
					deltas.WriteString(str(ev.data["delta"]))
				}
			}
			if deltas.String() != "I can't help with that." {
				t.Errorf("refusal deltas %q", deltas.String())
			}
			obj = evs[len(evs)-1].data["response"]
		}
		var a struct {
			Status string `json:"status"`
			Output []struct {
				Content []struct {
					Type    string `json:"type"`
					Refusal string `json:"refusal"`
				} `json:"content"`
			} `json:"output"`
		}
		if err := json.Unmarshal(obj, &a); err != nil || a.Status != "completed" || len(a.Output) != 1 || len(a.Output[0].Content) != 1 ||
			a.Output[0].Content[0].Type != "refusal" || a.Output[0].Content[0].Refusal != "I can't help with that." {
			t.Errorf("stream %s: %s", stream, obj)
		}
	}
}
