package vision_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"image/color"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/anthropic"
	"github.com/rlm-go/rlm/model/cache"
	"github.com/rlm-go/rlm/model/openai"
	"github.com/rlm-go/rlm/vision"
	"github.com/rlm-go/rlm/vision/visiontest"
)

// visionServer is a scripted vision server: it records each request's
// body and answers with a fixed reply in the dialect of the path.
type visionServer struct {
	*httptest.Server
	mu     sync.Mutex
	bodies [][]byte
}

func newVisionServer(t *testing.T) *visionServer {
	vs := &visionServer{}
	vs.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		vs.mu.Lock()
		vs.bodies = append(vs.bodies, b)
		vs.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if strings.HasSuffix(r.URL.Path, "/messages") {
			io.WriteString(w, `{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"a red square"}],"stop_reason":"end_turn","usage":{"input_tokens":60,"output_tokens":4}}`)
			return
		}
		io.WriteString(w, `{"id":"c1","object":"chat.completion","created":1,"model":"gpt-4o","choices":[{"index":0,"message":{"role":"assistant","content":"a red square"},"finish_reason":"stop"}],"usage":{"prompt_tokens":300,"completion_tokens":4,"total_tokens":304}}`)
	}))
	t.Cleanup(vs.Close)
	return vs
}

func (vs *visionServer) last(t *testing.T) any {
	t.Helper()
	vs.mu.Lock()
	defer vs.mu.Unlock()
	if len(vs.bodies) == 0 {
		t.Fatal("no request reached the server")
	}
	var v any
	if err := json.Unmarshal(vs.bodies[len(vs.bodies)-1], &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// wantJSON decodes a JSON literal with B64A and B64B standing for the
// images' base64 data.
func wantJSON(t *testing.T, lit string, a, b []byte) any {
	t.Helper()
	lit = strings.ReplaceAll(lit, "B64A", base64.StdEncoding.EncodeToString(a))
	lit = strings.ReplaceAll(lit, "B64B", base64.StdEncoding.EncodeToString(b))
	var v any
	if err := json.Unmarshal([]byte(lit), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// Each provider sends images in its wire format, exactly: OpenAI's
// content parts with image_url data URLs (the images-vision guide), and
// Anthropic's image blocks with a base64 source (the vision guide); a
// tool result's images in a user message after the tool messages
// (OpenAI) or in the tool_result's content (Anthropic).
func TestWireFormats(t *testing.T) {
	pngB := visiontest.Solid(vision.PNG, 2, 1, red)
	jpgB := visiontest.Solid(vision.JPEG, 3, 2, red)
	a, err := vision.Prepare(pngB, vision.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := vision.Prepare(jpgB, vision.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	b.Detail = "low"
	user := model.Request{Messages: []model.Message{
		{Role: model.RoleSystem, Content: "Look."},
		{Role: model.RoleUser, Content: "What is drawn?", Images: []model.Image{a, b}},
	}, MaxTokens: 50}
	tool := model.Request{Messages: []model.Message{
		{Role: model.RoleUser, Content: "Render page 1."},
		{Role: model.RoleAssistant, ToolCalls: []model.ToolCall{{ID: "call_1", Type: "function", Name: "render", Arguments: `{"page":1}`}, {ID: "call_2", Type: "function", Name: "render", Arguments: `{"page":2}`}}},
		{Role: model.RoleTool, ToolCallID: "call_1", Content: "page 1", Images: []model.Image{a}},
		{Role: model.RoleTool, ToolCallID: "call_2", Content: "page 2"},
	}, MaxTokens: 50}
	srv := newVisionServer(t)
	op, err := openai.New(openai.Config{BaseURL: srv.URL + "/v1", APIKey: "sk-test", Model: "gpt-4o", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	an, err := anthropic.New(anthropic.Config{BaseURL: srv.URL + "/v1", APIKey: "sk-ant-test", Model: "claude-sonnet-4-5", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		p    model.Provider
		req  model.Request
		want string
	}{
		{"openai user", op, user, `{"model":"gpt-4o","max_tokens":50,"messages":[
			{"role":"system","content":"Look."},
			{"role":"user","content":[
				{"type":"text","text":"What is drawn?"},
				{"type":"image_url","image_url":{"url":"data:image/png;base64,B64A","detail":"high"}},
				{"type":"image_url","image_url":{"url":"data:image/jpeg;base64,B64B","detail":"low"}}]}]}`},
		{"openai tool result", op, tool, `{"model":"gpt-4o","max_tokens":50,"messages":[
			{"role":"user","content":"Render page 1."},
			{"role":"assistant","content":null,"tool_calls":[
				{"id":"call_1","type":"function","function":{"name":"render","arguments":"{\"page\":1}"}},
				{"id":"call_2","type":"function","function":{"name":"render","arguments":"{\"page\":2}"}}]},
			{"role":"tool","content":"page 1","tool_call_id":"call_1"},
			{"role":"tool","content":"page 2","tool_call_id":"call_2"},
			{"role":"user","content":[
				{"type":"text","text":"The images of tool result call_1:\n"},
				{"type":"image_url","image_url":{"url":"data:image/png;base64,B64A","detail":"high"}}]}]}`},
		{"anthropic user", an, user, `{"model":"claude-sonnet-4-5","max_tokens":50,
			"system":[{"type":"text","text":"Look."}],
			"messages":[{"role":"user","content":[
				{"type":"image","source":{"type":"base64","media_type":"image/png","data":"B64A"}},
				{"type":"image","source":{"type":"base64","media_type":"image/jpeg","data":"B64B"}},
				{"type":"text","text":"What is drawn?"}]}]}`},
		{"anthropic tool result", an, tool, `{"model":"claude-sonnet-4-5","max_tokens":50,"messages":[
			{"role":"user","content":[{"type":"text","text":"Render page 1."}]},
			{"role":"assistant","content":[
				{"type":"tool_use","id":"call_1","name":"render","input":{"page":1}},
				{"type":"tool_use","id":"call_2","name":"render","input":{"page":2}}]},
			{"role":"user","content":[
				{"type":"tool_result","tool_use_id":"call_1","content":[
					{"type":"text","text":"page 1"},
					{"type":"image","source":{"type":"base64","media_type":"image/png","data":"B64A"}}]},
				{"type":"tool_result","tool_use_id":"call_2","content":"page 2"}]}]}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp, err := c.p.Complete(context.Background(), c.req)
			if err != nil {
				t.Fatal(err)
			}
			if resp.Text != "a red square" {
				t.Fatalf("text %q", resp.Text)
			}
			got, want := srv.last(t), wantJSON(t, c.want, pngB, jpgB)
			if !reflect.DeepEqual(got, want) {
				gb, _ := json.MarshalIndent(got, "", " ")
				t.Fatalf("request body:\n%s", gb)
			}
		})
	}
}

// A message's JSON names its images by hash, never inlines them; a
// text-only message encodes as it did before images existed.
func TestMessageJSON(t *testing.T) {
	im, err := vision.Prepare(visiontest.Solid(vision.PNG, 2, 1, red), vision.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(model.Message{Role: model.RoleUser, Content: "hi"})
	if string(b) != `{"role":"user","content":"hi"}` {
		t.Fatalf("text-only message: %s", b)
	}
	b, _ = json.Marshal(model.Message{Role: model.RoleUser, Content: "hi", Images: []model.Image{im}})
	want := `{"role":"user","content":"hi","images":[{"media_type":"image/png","sha256":"` + im.SHA256 + `","width":2,"height":1}]}`
	if string(b) != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
}

// The response cache keys a request by its images' hashes: the same text
// with another image is another entry.
func TestCacheKeyHasImages(t *testing.T) {
	c, err := cache.New(cache.Options{AnyTemperature: true})
	if err != nil {
		t.Fatal(err)
	}
	p := c.Wrap(model.ProviderFunc(func(context.Context, model.Request) (*model.Response, error) { return nil, nil }), "s")
	a, _ := vision.Prepare(visiontest.Solid(vision.PNG, 2, 2, red), vision.Limits{})
	b, _ := vision.Prepare(visiontest.Solid(vision.PNG, 2, 2, color.NRGBA{A: 255}), vision.Limits{})
	key := func(ims ...model.Image) string {
		k, ok := p.Key(model.Request{Model: "gpt-4o", Messages: []model.Message{{Role: model.RoleUser, Content: "what?", Images: ims}}})
		if !ok {
			t.Fatal("not cacheable")
		}
		return k
	}
	if ka := key(a); ka == key(b) || ka == key() || ka != key(a) {
		t.Fatal("the cache key does not follow the images")
	}
}
