package anthropic_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/anthropic"
	"github.com/rlm-go/rlm/model/replay"
)

// TestEncodeRequestSendsNoBlankText: the Messages API refuses a text block
// that is empty or whitespace only (400 "text content blocks must be
// non-empty" / "must contain non-whitespace text"), so a history holding
// an empty assistant reply (a model that answered nothing), a blank
// reply before a tool call, or a blank system or user message must not
// put one in the request: every later turn of the run would fail.
func TestEncodeRequestSendsNoBlankText(t *testing.T) {
	for _, tt := range []struct {
		name string
		msgs []model.Message
		// roles is the expected sequence of turn roles.
		roles []string
	}{
		{"empty assistant reply", []model.Message{
			{Role: model.RoleUser, Content: "Query: 2+2"},
			{Role: model.RoleAssistant, Content: ""},
			{Role: model.RoleUser, Content: "Reply with the answer."},
		}, []string{"user"}},
		{"whitespace assistant reply", []model.Message{
			{Role: model.RoleUser, Content: "Query: 2+2"},
			{Role: model.RoleAssistant, Content: "\n\n"},
			{Role: model.RoleUser, Content: "Reply with the answer."},
		}, []string{"user"}},
		{"blank text before a tool call", []model.Message{
			{Role: model.RoleUser, Content: "Read a"},
			{Role: model.RoleAssistant, Content: "\n", ToolCalls: []model.ToolCall{{ID: "toolu_1", Name: "fs_read", Arguments: `{"path":"a"}`}}},
			{Role: model.RoleTool, ToolCallID: "toolu_1", Content: "x"},
		}, []string{"user", "assistant", "user"}},
		{"blank system and user messages", model.MarkCachePrefix([]model.Message{
			{Role: model.RoleSystem, Content: "You are terse."},
			{Role: model.RoleSystem, Content: " "},
			{Role: model.RoleUser, Content: "hi"},
			{Role: model.RoleAssistant, Content: "hello"},
			{Role: model.RoleUser, Content: ""},
		}), []string{"user", "assistant"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			body, err := anthropic.EncodeRequest(model.Request{Messages: tt.msgs}, "claude-sonnet-4-5")
			if err != nil {
				t.Fatal(err)
			}
			var mr anthropic.MessagesRequest
			if err := json.Unmarshal(body, &mr); err != nil {
				t.Fatal(err)
			}
			blocks := append([]anthropic.Block(nil), mr.System...)
			var roles []string
			for _, m := range mr.Messages {
				roles = append(roles, m.Role)
				if len(m.Content) == 0 {
					t.Errorf("a %s turn without content: %s", m.Role, body)
				}
				blocks = append(blocks, m.Content...)
			}
			for _, b := range blocks {
				if b.Type == "text" && strings.TrimSpace(b.Text) == "" {
					t.Fatalf("blank text block sent: %s", body)
				}
			}
			if strings.Join(roles, ",") != strings.Join(tt.roles, ",") {
				t.Fatalf("turns %v, want %v: %s", roles, tt.roles, body)
			}
		})
	}
}

// TestExhaustedCassetteErrorCode: an error body's code is reported as
// detail error_code (docs/model.md, http_status), as model/openai does;
// a replay server's cassette_exhausted answer through this provider
// carries it too.
func TestExhaustedCassetteErrorCode(t *testing.T) {
	srv := replay.NewServer(&replay.Cassette{Version: replay.Version})
	defer srv.Close()
	c := cfg("")
	c.BaseURL = srv.BaseURL()
	_, err := newP(t, c).Complete(context.Background(), req(false))
	fe := kind(t, err, model.KindHTTPStatus)
	if fe.Detail["status"] != replay.ExhaustedStatus || fe.Detail["error_code"] != replay.ExhaustedCode || fe.Detail["attempts"] != 1 {
		t.Fatalf("detail %v", fe.Detail)
	}
}

// TestReplayStreamWithoutUsage: a cassette response without usage (as
// replay.Reply writes one) has no known token counts, so the provider
// estimates them; streamed it must not turn into known zero counts (a
// call charged nothing), the same as the non-streamed answer.
func TestReplayStreamWithoutUsage(t *testing.T) {
	for _, stream := range []bool{false, true} {
		srv := replay.NewServer(&replay.Cassette{Version: replay.Version, Interactions: []replay.Interaction{
			replay.Reply("", model.Response{Text: "Paris is the capital of France."}),
		}})
		c := cfg("")
		c.BaseURL = srv.BaseURL()
		resp, err := newP(t, c).Complete(context.Background(), req(stream))
		srv.Close()
		if err != nil {
			t.Fatalf("stream %v: %v", stream, err)
		}
		u := resp.Usage
		if u.TokensKnown || !u.TokensEstimated || u.CompletionTokens == 0 || u.PromptTokens == 0 {
			t.Fatalf("stream %v: usage %+v, want estimated counts", stream, u)
		}
	}
}

// TestEncodeRequestMergesExtra: model.Request.Extra fields are merged into
// the body (model.Request's contract, as model/openai does), under keys
// the typed request did not set and never model, messages or stream.
func TestEncodeRequestMergesExtra(t *testing.T) {
	r := req(false)
	r.MaxTokens = 100
	r.Extra = map[string]any{
		"top_k":          5,
		"stop_sequences": []string{"END"},
		"metadata":       map[string]any{"user_id": "u1"},
		"max_tokens":     1,
		"model":          "other-model",
		"messages":       []any{},
		"stream":         true,
	}
	body, err := anthropic.EncodeRequest(r, "claude-sonnet-4-5")
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatal(err)
	}
	if got["top_k"] != 5.0 || got["stop_sequences"] == nil || got["metadata"] == nil {
		t.Fatalf("extra fields not sent: %s", body)
	}
	if got["max_tokens"] != 100.0 || got["model"] != "claude-sonnet-4-5" || got["stream"] != nil {
		t.Fatalf("extra overrode a typed or reserved field: %s", body)
	}
	if msgs, _ := got["messages"].([]any); len(msgs) == 0 {
		t.Fatalf("extra overrode the messages: %s", body)
	}
}

// TestStreamEndedByCallerHandsBackUsage: message_start reported the input
// usage (the server bills it); a stream then ended by the caller's
// cancellation, by the attempt's time limit or by a malformed event hands
// that usage back with the error, as a broken stream does, so the call is
// charged what it cost.
func TestStreamEndedByCallerHandsBackUsage(t *testing.T) {
	head := "event: message_start\n" +
		`data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"claude-haiku-4-5","stop_reason":null,"usage":{"input_tokens":30,"output_tokens":1}}}` + "\n\n" +
		"event: content_block_start\n" +
		`data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}` + "\n\n" +
		"event: content_block_delta\n" +
		`data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Par"}}` + "\n\n"
	for _, tt := range []struct {
		name string
		tail string // sent after head; empty: the server waits for the client to go
		want fault.Kind
	}{
		{"cancelled", "", fault.KindCancelled},
		{"attempt timeout", "", fault.KindTimeout},
		{"malformed event", "event: content_block_delta\ndata: {not json\n\n", model.KindMalformedResponse},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				io.Copy(io.Discard, r.Body)
				w.Header().Set("Content-Type", "text/event-stream")
				io.WriteString(w, head+tt.tail)
				w.(http.Flusher).Flush()
				if tt.tail == "" {
					<-r.Context().Done()
				}
			}))
			defer srv.Close()
			c := cfg(srv.URL)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			r := req(true)
			switch tt.want {
			case fault.KindCancelled:
				r.OnDelta = func(string) { cancel() }
			case fault.KindTimeout:
				c.Timeout = 100 * time.Millisecond
			}
			resp, err := newP(t, c).Complete(ctx, r)
			kind(t, err, tt.want)
			if resp == nil || !resp.Usage.TokensKnown || resp.Usage.PromptTokens != 30 {
				t.Fatalf("usage not handed back: resp %+v", resp)
			}
		})
	}
}
