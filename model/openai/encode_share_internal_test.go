package openai

import (
	"math/rand/v2"
	"testing"

	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/internal/msgcache"
	"github.com/rlm-go/rlm/model/internal/msgcache/msgcachetest"
)

// encodeCached encodes req through mc, and fails unless the body is
// what EncodeRequest gives without it.
func encodeCached(req model.Request, mc *msgcache.Cache) (msgcachetest.Sent, error) {
	want, wantErr := EncodeRequest(req, "gpt-4o-mini")
	got, err := encodeRequest(req, "gpt-4o-mini", mc)
	return msgcachetest.Compare(got, err, want, wantErr)
}

// checkCached is encodeCached failing t.
func checkCached(t *testing.T, req model.Request, mc *msgcache.Cache) {
	t.Helper()
	if _, err := encodeCached(req, mc); err != nil {
		t.Fatal(err)
	}
}

// encoder is the msgcachetest.Encode of plain requests through mc.
func encoder(mc *msgcache.Cache) msgcachetest.Encode {
	return func(_ *rand.Rand, msgs []model.Message) (msgcachetest.Sent, error) {
		return encodeCached(model.Request{Messages: msgs}, mc)
	}
}

// TestEncodeSharedMatchesReference is the differential test of the
// shared encodings (msgcachetest.Conversations): random conversations,
// grown, forked, edited in place, cut and sent again, with tool calls
// and runs of tool images, all through one msgcache.Cache; every body
// must be the bytes EncodeRequest (which is json.Marshal's encoding,
// TestAppendChatRequestMatchesMarshal) gives without the cache, and
// still hold them at the end.
func TestEncodeSharedMatchesReference(t *testing.T) {
	msgcachetest.Conversations(t, 20, false, func() msgcachetest.Encode { return encoder(new(msgcache.Cache)) })
}

// TestEncodeSharedFanOut encodes, from 8 goroutines at once, requests
// that continue one conversation's prefix each its own way, through one
// msgcache.Cache (msgcachetest.FanOut, for the race detector).
func TestEncodeSharedFanOut(t *testing.T) {
	msgcachetest.FanOut(t, conversation(6).Messages, 8, false, encoder(new(msgcache.Cache)))
}
