package openai

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/internal/msgcache"
	"github.com/rlm-go/rlm/model/internal/msgcache/msgcachetest"
)

// hardText holds every kind of character the string encoder treats apart.
const hardText = "plain \"quoted\" back\\slash <b>&amp;</b> \b\f\n\r\t \x00\x01\x1f\x7f é ☃ 😀 \u2028\u2029 bad:\xff\xc3(\xe2\x82 end"

// TestAppendChatRequestMatchesMarshal checks that the hand-written
// encoder writes the bytes encoding/json writes for the same request.
func TestAppendChatRequestMatchesMarshal(t *testing.T) {
	temp, zero := 0.7, 0.0
	tests := []struct {
		name string
		cr   ChatRequest
	}{
		{"empty", ChatRequest{}},
		{"no messages", ChatRequest{Model: "m", Messages: []Message{}}},
		{"plain", ChatRequest{Model: "gpt-4o-mini", Messages: []Message{
			{Role: "system", Content: Content{Text: "You inspect."}},
			{Role: "user", Content: Content{Text: hardText}, Name: "al<i>ce"},
		}}},
		{"every message field", ChatRequest{Model: "m", Messages: []Message{
			{Role: "assistant", Content: Content{Null: true, Text: "ignored"}, Name: "n", Reasoning: "r\n", ReasoningContent: "rc",
				Refusal: "no", ToolCalls: []ToolCall{{ID: "c1", Type: "function", Function: FunctionCall{Name: "f", Arguments: `{"a":"<1>"}`}}},
				ToolCallID: "t1", FunctionCall: &FunctionCall{Name: "g", Arguments: "{}"}},
			{Role: "tool", Content: Content{Text: ""}, ToolCallID: "c1"},
			{Role: "user", Content: Content{Text: "see " + hardText, Images: []ImageURL{{URL: "data:image/png;base64,AAAA", Detail: "high"}, {URL: "u&v"}}}},
			{Role: "user", Content: Content{Images: []ImageURL{{URL: "x"}}}},
		}}},
		{"every request field", ChatRequest{Model: hardText, Messages: []Message{{Role: "user", Content: Content{Text: "x"}}},
			Tools: []ToolSpec{{Type: "function", Function: FunctionSpec{Name: "search", Description: "d<>",
				Parameters: json.RawMessage(`{ "type" : "object" }`), Strict: true}}},
			ToolChoice: functionChoice("search"), MaxTokens: -3, Temperature: &temp, ReasoningEffort: "low",
			Stream: true, StreamOptions: &StreamOptions{IncludeUsage: true}}},
		{"zero values set", ChatRequest{Model: "m", Messages: []Message{{}}, Tools: []ToolSpec{}, ToolChoice: "auto",
			Temperature: &zero, StreamOptions: &StreamOptions{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkSameAsMarshal(t, &tt.cr)
		})
	}
}

func checkSameAsMarshal(t *testing.T, cr *ChatRequest) {
	t.Helper()
	want, werr := json.Marshal(cr)
	got, gerr := appendChatRequest(cr)
	if (werr == nil) != (gerr == nil) {
		t.Fatalf("error %v, encoding/json's %v", gerr, werr)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("encoded\n%s\nencoding/json\n%s", got, want)
	}
}

func TestAppendChatRequestTemperatureError(t *testing.T) {
	nan := math.NaN()
	checkSameAsMarshal(t, &ChatRequest{Model: "m", Temperature: &nan})
	_, err := EncodeRequest(model.Request{Messages: []model.Message{{Role: model.RoleUser, Content: "x"}}, Temperature: &nan}, "m")
	if fault.KindOf(err) != model.KindInvalidRequest {
		t.Fatalf("error %v, want kind %s", err, model.KindInvalidRequest)
	}
}

func FuzzAppendChatRequest(f *testing.F) {
	f.Add("gpt-4o-mini", hardText, "name", "call_1", true, false)
	f.Add("", "", "", "", false, true)
	f.Fuzz(func(t *testing.T, modelName, text, name, id string, null, images bool) {
		m := Message{Role: "user", Content: Content{Text: text, Null: null}, Name: name, ToolCallID: id, Reasoning: text}
		if images {
			m.Content.Images = []ImageURL{{URL: text, Detail: name}}
		}
		cr := ChatRequest{Model: modelName, Messages: []Message{m, {Role: "assistant", Content: Content{Text: name + text}}},
			ReasoningEffort: id}
		checkSameAsMarshal(t, &cr)
	})
}

// conversation is a root conversation of n turns like bench/turnserver's
// (msgcachetest.Turns).
func conversation(n int) model.Request {
	return model.Request{Messages: msgcachetest.Turns(n)}
}

// BenchmarkEncodeRequest encodes the request of a conversation's 40th turn
// (about 45 KB): EncodeRequest; a Provider's encoding of it when it has
// sent the 39th turn's request (only the two new messages are encoded);
// and the encoding/json call EncodeRequest replaced, on the same wire
// request. Since the requests of a conversation share their encodings,
// the cached one allocates about the new messages only.
func BenchmarkEncodeRequest(b *testing.B) {
	req := conversation(40)
	body, err := EncodeRequest(req, "gpt-4o-mini")
	if err != nil {
		b.Fatal(err)
	}
	b.Run("EncodeRequest", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := EncodeRequest(req, "gpt-4o-mini"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("next-turn-cached", func(b *testing.B) {
		// The request after one of 39 turns, that one's encodings cached.
		warm := new(msgcache.Cache)
		if _, err := encodeRequest(conversation(39), "gpt-4o-mini", warm); err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			// The entries as they were after turn 39: the new
			// messages are appended in place after theirs.
			mc := warm.Clone()
			if _, err := encodeRequest(req, "gpt-4o-mini", mc); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		var cr ChatRequest
		if err := json.Unmarshal(body, &cr); err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := json.Marshal(&cr); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestEncodeCachedMatchesUncached encodes conversations through one
// msgcache.Cache and checks every body against the encoding without it: a
// conversation growing turn by turn, one whose earlier messages change
// (the same lengths, other text; a compaction that shortens it), tool
// calls and images, and two conversations taking turns.
func TestEncodeCachedMatchesUncached(t *testing.T) {
	mc := new(msgcache.Cache)
	check := func(t *testing.T, req model.Request) {
		t.Helper()
		checkCached(t, req, mc)
	}
	t.Run("growing", func(t *testing.T) {
		for n := range 12 {
			check(t, conversation(n))
		}
	})
	t.Run("earlier messages changed", func(t *testing.T) {
		req := conversation(6)
		check(t, req)
		edited := slices.Clone(req.Messages)
		edited[3].Content = strings.Replace(edited[3].Content, "needle", "noodle", 1) // same length
		check(t, model.Request{Messages: edited})
		edited[5].Name = "tool"
		check(t, model.Request{Messages: edited})
		compacted := append([]model.Message{req.Messages[0], {Role: model.RoleUser, Content: "summary of turns 1-5"}}, req.Messages[10:]...)
		check(t, model.Request{Messages: compacted})
		check(t, model.Request{Messages: req.Messages[:4]})
	})
	t.Run("tool calls and images", func(t *testing.T) {
		req := conversation(2)
		img := model.Image{MediaType: "image/png", Data: []byte("\x89PNG....")}
		req.Messages = append(req.Messages,
			model.Message{Role: model.RoleAssistant, ToolCalls: []model.ToolCall{{ID: "c1", Name: "peek", Arguments: `{"n":1}`}}},
			model.Message{Role: model.RoleTool, ToolCallID: "c1", Content: "<one>", Images: []model.Image{img}},
			model.Message{Role: model.RoleUser, Content: "look", Images: []model.Image{img}})
		check(t, req)
		req.Messages = append(req.Messages, model.Message{Role: model.RoleAssistant, Content: "done"})
		check(t, req)
		req.Messages[6].ToolCalls = []model.ToolCall{{ID: "c1", Name: "peek", Arguments: `{"n":2}`}}
		check(t, req)
		req.Messages[7].Images = []model.Image{{MediaType: "image/png", Data: []byte("\x89PNG,,,,")}}
		check(t, req)
	})
	t.Run("interleaved", func(t *testing.T) {
		other := func(n int) model.Request {
			req := conversation(n)
			req.Messages[0].Content = "another system prompt"
			return req
		}
		for n := range 8 {
			check(t, conversation(n))
			check(t, other(n))
			check(t, model.Request{Messages: []model.Message{{Role: model.RoleUser, Content: fmt.Sprint("sub-call ", n)}}})
		}
	})
}

// TestEncodeCacheReuses checks that a conversation's next request takes
// all the messages of its last one from the cache, and that a request of
// fewer than msgcache.MinCached messages is not remembered.
func TestEncodeCacheReuses(t *testing.T) {
	mc := new(msgcache.Cache)
	if _, err := encodeRequest(model.Request{Messages: []model.Message{{Role: model.RoleUser, Content: "sub-call"}}}, "m", mc); err != nil {
		t.Fatal(err)
	}
	if same, _ := mc.Reuses([]model.Message{{Role: model.RoleUser, Content: "sub-call"}}); same != 0 {
		t.Fatalf("a one-message request was remembered (%d messages reused)", same)
	}
	for n := 1; n < 6; n++ {
		if _, err := encodeRequest(conversation(n), "m", mc); err != nil {
			t.Fatal(err)
		}
		same, claimed := mc.Reuses(conversation(n + 1).Messages)
		if same != 2+2*n || !claimed {
			t.Fatalf("turn %d: %d messages reused (appended in place: %t), want %d in place", n+1, same, claimed, 2+2*n)
		}
	}
}

// TestEncodeCacheConcurrent encodes several conversations at once through
// one cache (for the race detector) and checks every body.
func TestEncodeCacheConcurrent(t *testing.T) {
	mc := new(msgcache.Cache)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Go(func() {
			for n := range 10 {
				req := conversation(n)
				req.Messages[0].Content += fmt.Sprint(g % 3)
				want, _ := EncodeRequest(req, "m")
				got, err := encodeRequest(req, "m", mc)
				if err != nil || !bytes.Equal(got.Bytes(), want) {
					errs <- fmt.Errorf("goroutine %d, turn %d: cached encoding differs (%v)", g, n, err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}
