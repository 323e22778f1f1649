package convhash

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"sync"
	"testing"

	"github.com/rlm-go/rlm/fingerprint"
	"github.com/rlm-go/rlm/internal/convhash/convhashtest"
	"github.com/rlm-go/rlm/model"
)

// encoders are the two ways documents write messages: the response
// cache's key (canonical JSON) and the durable record's digest
// (encoding/json).
var encoders = map[string]func(any) ([]byte, error){
	"canonical": fingerprint.Canonical,
	"json":      json.Marshal,
}

func newMemo(enc func(any) ([]byte, error)) *Memo {
	return &Memo{Encode: func(m model.Message) ([]byte, error) { return enc(m) }}
}

// doc is a request's whole document under enc: the request, its marks
// written in, in an envelope as the response cache's key has it.
type doc struct {
	Scope   string        `json:"scope"`
	Request model.Request `json:"request"`
}

// sums returns the memo's sum of req (false when it does not take it)
// and the whole document's fingerprint.
func sums(t *testing.T, m *Memo, enc func(any) ([]byte, error), req model.Request) (got string, ok bool, want string) {
	t.Helper()
	whole, err := enc(doc{"s", req.CacheMarked()})
	if err != nil {
		t.Fatal(err)
	}
	got, ok = m.Sum(req, func(bare model.Request) ([]byte, error) { return enc(doc{"s", bare}) })
	return got, ok, fingerprint.Bytes(whole)
}

// TestSumIsTheWhole: every sum the memo gives is the whole document's,
// under both encodings, over conversations made to fool it.
func TestSumIsTheWhole(t *testing.T) {
	for name, enc := range encoders {
		t.Run(name, func(t *testing.T) {
			m := newMemo(enc)
			i, took := 0, 0
			convhashtest.Conversations(rand.New(rand.NewPCG(43, 35)), 3000, func(req model.Request) {
				got, ok, want := sums(t, m, enc, req)
				if ok && got != want {
					t.Fatalf("request %d (%d messages): sum %q, want %q", i, len(req.Messages), got, want)
				}
				if ok {
					took++
				}
				i++
			})
			if took < 2000 || m.Reused() < 500 {
				t.Fatalf("the memo took %d of 3000 requests and went on from a prefix for %d", took, m.Reused())
			}
		})
	}
}

// A run's conversation, two messages more a turn, is hashed once: every
// turn after the first goes on from the one before, and the conversation
// takes one entry.
func TestSumGoesOn(t *testing.T) {
	m := newMemo(json.Marshal)
	msgs := []model.Message{{Role: model.RoleSystem, Content: "s"}, {Role: model.RoleUser, Content: "q"}}
	for turn := range 50 {
		msgs = append(msgs, model.Message{Role: model.RoleAssistant, Content: fmt.Sprint("a", turn)}, model.Message{Role: model.RoleUser, Content: fmt.Sprint("r", turn)})
		req := model.Request{Model: "m", Messages: msgs, CachePrefix: true}
		if got, ok, want := sums(t, m, json.Marshal, req); !ok || got != want {
			t.Fatalf("turn %d: sum %q (%v), want %q", turn, got, ok, want)
		}
	}
	if r := m.Reused(); r != 49 {
		t.Fatalf("%d turns went on from the one before, want 49", r)
	}
	n := 0
	for _, e := range m.entries {
		if e != nil {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("one conversation takes %d entries", n)
	}
}

// TestSumConcurrent sums conversations from several goroutines at once
// (go test -race).
func TestSumConcurrent(t *testing.T) {
	m := newMemo(fingerprint.Canonical)
	var wg sync.WaitGroup
	for g := range 8 {
		var reqs []model.Request
		var wants []string
		convhashtest.Conversations(rand.New(rand.NewPCG(uint64(g), 1)), 300, func(r model.Request) {
			// Copies: the generator edits its arrays in place.
			r.Messages = slices.Clone(r.Messages)
			_, _, want := sums(t, newMemo(fingerprint.Canonical), fingerprint.Canonical, r)
			reqs, wants = append(reqs, r), append(wants, want)
		})
		wg.Go(func() {
			for i, r := range reqs {
				if got, ok, _ := sums(t, m, fingerprint.Canonical, r); ok && got != wants[i] {
					t.Errorf("goroutine %d, request %d: sum %q, want %q", g, i, got, wants[i])
					return
				}
			}
		})
	}
	wg.Wait()
}

// split refuses a document whose messages it cannot place: none, or the
// bytes twice.
func TestSplit(t *testing.T) {
	head, tail, ok := split([]byte(`{"model":"m","messages":null,"tools":[]}`))
	if !ok || head != `{"model":"m","messages":[` || string(tail) != `],"tools":[]}` {
		t.Fatalf("split: %q %q %v", head, tail, ok)
	}
	for _, d := range []string{`{"model":"m"}`, `{"messages":null,"extra":{"messages":null}}`} {
		if _, _, ok := split([]byte(d)); ok {
			t.Errorf("split(%s) took it", d)
		}
	}
}

// Two prefixes stored from one base (two requests of a conversation
// summed at once, going on differently): the second never writes over
// the messages of the first, which took the room after the base's.
func TestStoreKeepsTheFirst(t *testing.T) {
	var m Memo
	msg := func(s string) model.Message { return model.Message{Role: model.RoleUser, Content: s} }
	base := &prefix{head: "h", msgs: make([]model.Message, 1, 8), tip: new(int), h: fingerprint.NewHasher()}
	base.msgs[0], *base.tip = msg("0"), 1
	m.entries[0] = base
	first := []model.Message{msg("a"), msg("b")}
	second := []model.Message{msg("c"), msg("d")}
	m.store("h", base, first, 1, func(j int) model.Message { return first[j-1] }, fingerprint.NewHasher())
	m.store("h", base, second, 1, func(j int) model.Message { return second[j-1] }, fingerprint.NewHasher())
	var got [][]model.Message
	for _, e := range m.entries {
		if e != nil {
			got = append(got, e.msgs)
		}
	}
	if len(got) != 2 {
		t.Fatalf("%d entries, want the two stored", len(got))
	}
	for _, msgs := range got {
		if len(msgs) != 3 || msgs[0].Content != "0" {
			t.Fatalf("entry %+v", msgs)
		}
	}
	if got[0][1].Content+got[0][2].Content == got[1][1].Content+got[1][2].Content {
		t.Fatalf("the second prefix wrote over the first: %+v and %+v", got[0], got[1])
	}
}

// TestSameMessageFields: SameMessage compares every field a message's
// document is made of. The field lists are the types' own (by
// reflection), so a field added to one fails here until SameMessage and
// this list know it; each change of one field changes both encodings and
// makes the messages differ.
func TestSameMessageFields(t *testing.T) {
	known := map[string][]string{
		"Message":  {"Role", "Content", "Name", "ToolCalls", "ToolCallID", "CacheBreakpoint", "Images"},
		"ToolCall": {"ID", "Type", "Name", "Arguments"},
		"Image":    {"MediaType", "SHA256", "Width", "Height", "Detail", "Data"},
	}
	for _, v := range []any{model.Message{}, model.ToolCall{}, model.Image{}} {
		rt := reflect.TypeOf(v)
		var got []string
		for f := range rt.Fields() {
			got = append(got, f.Name)
		}
		if !slices.Equal(got, known[rt.Name()]) {
			t.Errorf("model.%s has the fields %v; SameMessage knows %v", rt.Name(), got, known[rt.Name()])
		}
	}
	base := func() []model.Message {
		return []model.Message{
			{Role: model.RoleSystem, Content: "s"},
			{Role: model.RoleUser, Content: "u", Images: []model.Image{{MediaType: "image/png", SHA256: "ab", Width: 1, Height: 2, Data: []byte{1}}}},
			{Role: model.RoleAssistant, ToolCalls: []model.ToolCall{{ID: "c", Type: "function", Name: "f", Arguments: "{}"}}},
			{Role: model.RoleTool, ToolCallID: "c", Content: "r", Name: "f"},
		}
	}
	encoded := func(enc func(any) ([]byte, error), msgs []model.Message) string {
		b, err := enc(msgs)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	same := func(a, b []model.Message) bool { return slices.EqualFunc(a, b, SameMessage) }
	a := base()
	if !same(a, base()) {
		t.Fatal("two equal conversations are not the same")
	}
	for name, change := range map[string]func(m []model.Message){
		"Role": func(m []model.Message) { m[0].Role = model.RoleUser }, "Content": func(m []model.Message) { m[1].Content = "v" },
		"Name": func(m []model.Message) { m[3].Name = "g" }, "ToolCallID": func(m []model.Message) { m[3].ToolCallID = "d" },
		"CacheBreakpoint": func(m []model.Message) { m[0].CacheBreakpoint = true },
		"ToolCalls":       func(m []model.Message) { m[2].ToolCalls[0].Arguments = `{"a":1}` },
		"image MediaType": func(m []model.Message) { m[1].Images[0].MediaType = "image/gif" },
		"image SHA256":    func(m []model.Message) { m[1].Images[0].SHA256 = "cd" },
		"image Width":     func(m []model.Message) { m[1].Images[0].Width = 3 },
		"image Height":    func(m []model.Message) { m[1].Images[0].Height = 3 },
		"image Detail":    func(m []model.Message) { m[1].Images[0].Detail = "low" },
	} {
		b := base()
		change(b)
		for en, enc := range encoders {
			if encoded(enc, a) == encoded(enc, b) {
				t.Errorf("%s: the change does not change the %s encoding", name, en)
			}
		}
		if same(a, b) || same(b, a) {
			t.Errorf("%s: messages encoded apart are the same", name)
		}
	}
	// An image's data is named by its hash: not part of a document.
	b := base()
	b[1].Images[0].Data = []byte{2}
	for en, enc := range encoders {
		if !same(a, b) || encoded(enc, a) != encoded(enc, b) {
			t.Errorf("%s: messages differing only in an image's data are not the same", en)
		}
	}
}
