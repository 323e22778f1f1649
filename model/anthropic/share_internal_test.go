package anthropic

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/internal/msgcache"
	"github.com/rlm-go/rlm/model/internal/msgcache/msgcachetest"
)

// encodeCached encodes req through mc and returns an error unless the
// body is EncodeRequest's bytes, or the error EncodeRequest's error.
func encodeCached(req model.Request, mc *msgcache.Cache) (msgcachetest.Sent, error) {
	want, wantErr := EncodeRequest(req, "claude")
	got, err := encodeRequest(req, "claude", mc)
	return msgcachetest.Compare(got, err, want, wantErr)
}

// encoder is the msgcachetest.Encode of requests through mc, streamed
// or not, with CachePrefix or not, now and then with tools, a tool
// choice, a temperature or Extra; shared counts the bodies sent in
// parts (encoded through mc, not by EncodeRequest).
func encoder(mc *msgcache.Cache, shared *int) msgcachetest.Encode {
	return func(r *rand.Rand, msgs []model.Message) (msgcachetest.Sent, error) {
		req := model.Request{Messages: msgs, Stream: r.IntN(2) == 0, CachePrefix: r.IntN(3) > 0}
		switch r.IntN(8) {
		case 0:
			req.Tools = []model.Tool{{Name: "peek", Description: "<look>"}}
			req.ToolChoice = model.ToolChoice{Mode: "auto"}
		case 1:
			temp := 0.5
			req.Temperature, req.MaxTokens, req.Model = &temp, 100, "claude-x"
		case 2:
			req.Extra = map[string]any{"metadata": map[string]string{"user_id": "u"}}
		}
		s, err := encodeCached(req, mc)
		if len(s.Body) > 1 {
			*shared++
		}
		return s, err
	}
}

// TestEncodeSharedMatchesReference is the differential test of the
// shared encodings (msgcachetest.Conversations): random conversations
// grown, forked, edited in place (marks moved too), cut and sent again,
// with tool calls and results, images, blank messages, system messages
// late and messages marked CacheBreakpoint, each request streamed or
// not and with CachePrefix or not, through one msgcache.Cache: every
// body is EncodeRequest's, and still holds its bytes at the end.
func TestEncodeSharedMatchesReference(t *testing.T) {
	shared, total := 0, 0
	msgcachetest.Conversations(t, 20, true, func() msgcachetest.Encode {
		total += 300
		return encoder(&msgcache.Cache{Breakpoints: true}, &shared)
	})
	t.Logf("%d of %d bodies in parts", shared, total)
	if shared < total/2 {
		t.Fatalf("only %d of %d bodies in parts", shared, total)
	}
}

// TestEncodeSharedFanOut encodes, from 8 goroutines at once, requests
// that continue one conversation's prefix each its own way, through one
// msgcache.Cache (msgcachetest.FanOut, for the race detector).
func TestEncodeSharedFanOut(t *testing.T) {
	mc := &msgcache.Cache{Breakpoints: true}
	msgcachetest.FanOut(t, conversation(6), 8, true, func(r *rand.Rand, msgs []model.Message) (msgcachetest.Sent, error) {
		return encodeCached(model.Request{Messages: msgs, CachePrefix: r.IntN(2) == 0, Stream: r.IntN(2) == 0}, mc)
	})
}

// conversation is the messages of an n-turn run (msgcachetest.Turns).
func conversation(n int) []model.Message { return msgcachetest.Turns(n) }

// TestEncodeSharedReuses checks that a conversation's next request takes
// the encodings of all its earlier wire messages but the last from the
// cache, appended in place, and sends them as the body's middle part.
func TestEncodeSharedReuses(t *testing.T) {
	mc := &msgcache.Cache{Breakpoints: true}
	for n := 1; n < 8; n++ {
		req := model.Request{Messages: conversation(n), CachePrefix: true}
		s, err := encodeCached(req, mc)
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Body) != 3 {
			t.Fatalf("turn %d: a body of %d parts, want 3", n, len(s.Body))
		}
		// The shared part: every wire message but the last user turn.
		wantMid := len(s.Want) - len(s.Body[0]) - len(s.Body[2])
		if len(s.Body[1]) != wantMid || !bytes.HasSuffix(s.Body[1], []byte(fmt.Sprintf(`hits%d\"}]}"}]}`, n-1))) {
			t.Fatalf("turn %d: shared part ends %q", n, s.Body[1][max(0, len(s.Body[1])-40):])
		}
		same, inPlace := mc.Reuses(conversation(n + 1))
		if same != len(req.Messages) || !inPlace {
			t.Fatalf("turn %d: %d messages reused (in place: %t), want %d in place", n+1, same, inPlace, len(req.Messages))
		}
	}
}

// TestEncodeSharedErrors: a request with an invalid message after a
// shared prefix fails with EncodeRequest's error, and leaves the cache
// as it was.
func TestEncodeSharedErrors(t *testing.T) {
	mc := &msgcache.Cache{Breakpoints: true}
	base := conversation(3)
	if _, err := encodeCached(model.Request{Messages: base}, mc); err != nil {
		t.Fatal(err)
	}
	img := model.Image{MediaType: "image/png", Data: []byte("\x89PNG")}
	for _, bad := range []model.Message{
		{Role: model.RoleTool, Content: "no id"},
		{Role: model.RoleAssistant, Content: "x", Images: []model.Image{img}},
		{Role: model.RoleSystem, Content: "x", Images: []model.Image{img}},
		{Role: model.RoleUser, Images: []model.Image{{MediaType: "image/bmp", Data: []byte("x")}}},
		{Role: "robot", Content: "x"},
	} {
		msgs := append(append([]model.Message(nil), base...), bad, model.Message{Role: model.RoleUser, Content: "next"})
		if _, err := encodeCached(model.Request{Messages: msgs}, mc); err != nil {
			t.Fatal(err)
		}
		if same, _ := mc.Reuses(base); same != len(base) {
			t.Fatalf("after %v: %d messages of the conversation kept, want %d", bad, same, len(base))
		}
	}
	for _, req := range []model.Request{
		{},
		{Messages: []model.Message{{Role: model.RoleSystem, Content: "only"}, {Role: model.RoleUser, Content: " "}, {Role: model.RoleUser}}},
		{Messages: base, Tools: []model.Tool{{}}},
		{Messages: base, ToolChoice: model.ToolChoice{Mode: "sometimes"}},
	} {
		if _, err := encodeCached(req, mc); err != nil {
			t.Fatal(err)
		}
	}
}
