package replay

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/openai"
)

// MaxMatchSnippet bounds the "contains" snippet a Recorder writes, in bytes.
const MaxMatchSnippet = 200

// Recorder is a model.Provider that forwards calls to another provider and
// records every successful exchange as a cassette interaction. Only the
// response and a snippet of the request are recorded: never headers, keys
// or provider configuration. The usage keeps every figure the provider
// reported, the prompt cache's reads and writes included
// (prompt_tokens_details.cached_tokens and .cache_write_tokens), so a
// replay prices the call as the live one was priced. When next has a
// Scrub method (as *openai.Provider does), every recorded string, the
// match snippet included, passes through it, so a key a server echoed
// never reaches the cassette. It is safe for concurrent use; interactions are appended in
// the order calls complete.
type Recorder struct {
	next  model.Provider
	scrub func(string) string
	mu    sync.Mutex
	ins   []Interaction
}

var _ model.Provider = (*Recorder)(nil)

// Scrubber is a provider that can remove its credentials from text.
type Scrubber interface {
	Scrub(s string) string
}

// NewRecorder returns a Recorder wrapping next.
func NewRecorder(next model.Provider) *Recorder {
	r := &Recorder{next: next, scrub: func(s string) string { return s }}
	if sc, ok := next.(Scrubber); ok {
		r.scrub = sc.Scrub
	}
	return r
}

// Complete calls the wrapped provider and records the exchange when it
// succeeds. The interaction's match is {"contains": S} where S is the last
// MaxMatchSnippet bytes (trimmed of surrounding space) of the last user or
// tool message, or no match when there is none; when that message has
// images, the match also names them by hash ({"images": [SHA256, ...]}),
// never holding their bytes.
func (r *Recorder) Complete(ctx context.Context, req model.Request) (*model.Response, error) {
	resp, err := r.next.Complete(ctx, req)
	if err != nil || resp == nil {
		return resp, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	c := openai.CompletionFromResponse(r.scrubbed(resp), fmt.Sprintf("chatcmpl-replay-%d", len(r.ins)+1))
	raw, merr := json.Marshal(c)
	if merr != nil {
		return resp, nil // a response always encodes; never fail the live call
	}
	in := Interaction{Response: raw}
	if s := scrubbedSnippet(req.Messages, r.scrub); s != "" {
		in.Match = &Match{Contains: s}
	}
	if hs := lastImages(req.Messages); len(hs) > 0 {
		if in.Match == nil {
			in.Match = &Match{}
		}
		in.Match.Images = hs
	}
	r.ins = append(r.ins, in)
	return resp, nil
}

// scrubbed returns a copy of resp with every string scrubbed.
func (r *Recorder) scrubbed(resp *model.Response) *model.Response {
	c := *resp
	c.Text, c.Reasoning, c.Refusal, c.FinishReason = r.scrub(c.Text), r.scrub(c.Reasoning), r.scrub(c.Refusal), r.scrub(c.FinishReason)
	c.RefusalCategory, c.RefusalExplanation = r.scrub(c.RefusalCategory), r.scrub(c.RefusalExplanation)
	c.Meta.ID, c.Meta.Model, c.Meta.Provider = r.scrub(c.Meta.ID), r.scrub(c.Meta.Model), r.scrub(c.Meta.Provider)
	if len(resp.ToolCalls) > 0 {
		c.ToolCalls = make([]model.ToolCall, len(resp.ToolCalls))
		for i, tc := range resp.ToolCalls {
			c.ToolCalls[i] = model.ToolCall{ID: r.scrub(tc.ID), Type: r.scrub(tc.Type), Name: r.scrub(tc.Name), Arguments: r.scrub(tc.Arguments)}
		}
	}
	return &c
}

// lastImages returns the hashes of the images of the last user or tool
// message (the match of an image request: its images by hash).
func lastImages(msgs []model.Message) []string {
	for i := len(msgs) - 1; i >= 0; i-- {
		m := msgs[i]
		if m.Role != model.RoleUser && m.Role != model.RoleTool {
			continue
		}
		var out []string
		for _, im := range m.Images {
			out = append(out, im.SHA256)
		}
		return out
	}
	return nil
}

// matchSnippet returns the tail of the last user or tool message.
func matchSnippet(msgs []model.Message) string {
	return scrubbedSnippet(msgs, func(s string) string { return s })
}

// scrubbedSnippet is matchSnippet of the message scrubbed whole before it
// is cut: a tail that starts inside a key would keep all of the key but
// its first characters, which the scrubber no longer recognises.
func scrubbedSnippet(msgs []model.Message, scrub func(string) string) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		m := msgs[i]
		if m.Role != model.RoleUser && m.Role != model.RoleTool {
			continue
		}
		s := strings.TrimSpace(scrub(m.Content))
		if len(s) > MaxMatchSnippet {
			s = tail(s, MaxMatchSnippet)
		}
		return strings.TrimSpace(s)
	}
	return ""
}

// tail returns at most n trailing bytes of s, cut at a UTF-8 boundary.
func tail(s string, n int) string {
	start := len(s) - n
	for start < len(s) && s[start]&0xC0 == 0x80 {
		start++
	}
	return s[start:]
}

// Len returns the number of recorded interactions.
func (r *Recorder) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.ins)
}

// Cassette returns a copy of what was recorded so far.
func (r *Recorder) Cassette() *Cassette {
	r.mu.Lock()
	defer r.mu.Unlock()
	c := &Cassette{Version: Version, Interactions: make([]Interaction, len(r.ins))}
	copy(c.Interactions, r.ins)
	return c
}

// Save writes the recorded cassette to path atomically: it writes a
// temporary file in the same directory and renames it over path.
func (r *Recorder) Save(path string) error { return r.Cassette().Save(path) }

// Save writes c to path atomically (temporary file and rename).
func (c *Cassette) Save(path string) error {
	b, err := c.Marshal()
	if err != nil {
		return err
	}
	ioErr := func(err error, msg string) error {
		return fault.Wrap(err, fault.PhaseReplay, fault.KindIO, msg).With("path", path)
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return ioErr(err, "cannot create cassette file")
	}
	tmp := f.Name()
	if _, err := f.Write(b); err != nil {
		f.Close()
		os.Remove(tmp)
		return ioErr(err, "cannot write cassette file")
	}
	if err := f.Sync(); err != nil {
		f.Close()
		os.Remove(tmp)
		return ioErr(err, "cannot write cassette file")
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return ioErr(err, "cannot write cassette file")
	}
	if err := os.Chmod(tmp, 0o644); err != nil {
		os.Remove(tmp)
		return ioErr(err, "cannot write cassette file")
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return ioErr(err, "cannot replace cassette file")
	}
	return nil
}
