// Package replay records and replays model interactions as cassettes.
//
// A cassette is a JSON file holding recorded interactions, each an optional
// match and a complete OpenAI chat.completion object:
//
//	{"version": 1, "interactions": [
//	  {"match": {"contains": "capital of France"},
//	   "response": {"id": "chatcmpl-1", "object": "chat.completion", ...}}]}
//
// The cassette format is OpenAI's wire format (the chat.completion object)
// whichever provider is replayed: it is the one format rlm records in.
// A Server speaks the OpenAI chat-completions protocol over HTTP
// (/v1/chat/completions) and Anthropic's Messages protocol (/v1/messages,
// the recorded completion translated by package model/anthropic),
// streaming and not, and answers each request with the first unused
// interaction whose match fits, so model-facing code is always tested
// through the real HTTP providers. A Recorder wraps a live provider and
// writes what it saw as a cassette.
package replay

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/openai"
)

// Version is the cassette format version.
const Version = 1

// Error kinds of the replay package (Phase replay).
const (
	// KindMalformedCassette reports a cassette that does not follow the
	// format.
	KindMalformedCassette fault.Kind = "malformed_cassette"
)

// Cassette is a list of recorded interactions.
type Cassette struct {
	Version      int           `json:"version"`
	Interactions []Interaction `json:"interactions"`
}

// Interaction is one recorded exchange: a request matcher and either a
// complete chat.completion response or an injected HTTP error.
type Interaction struct {
	// Name optionally labels the interaction for humans.
	Name string `json:"name,omitempty"`
	// Match selects the requests this interaction can answer; nil matches
	// any request.
	Match *Match `json:"match,omitempty"`
	// Response is a complete chat.completion JSON object. It is sent
	// verbatim to non-streaming requests, unknown fields included.
	Response json.RawMessage `json:"response,omitempty"`
	// Status, when set, injects an HTTP error (400-599) instead of a
	// response; ErrorBody is then the JSON body sent (an OpenAI-style
	// error object is generated when it is empty).
	Status    int             `json:"status,omitempty"`
	ErrorBody json.RawMessage `json:"error_body,omitempty"`
	// RetryAfter, with Status, is sent as the Retry-After header value.
	RetryAfter string `json:"retry_after,omitempty"`
	// DelayMS delays the answer by this many milliseconds.
	DelayMS int `json:"delay_ms,omitempty"`
}

// Match is a request matcher. All set fields must fit.
type Match struct {
	// Contains must occur in the request's messages: the contents of all
	// messages joined with newlines.
	Contains string `json:"contains,omitempty"`
	// Model must equal the request's model.
	Model string `json:"model,omitempty"`
	// Images are the hex SHA-256 of images the request must carry (in
	// any message, any order): a cassette names images by hash and never
	// holds them, so it stays small, and a replay matches the images a
	// request sends.
	Images []string `json:"images,omitempty"`
}

// maxCassetteBytes bounds the size of a cassette file Load reads. It is a
// variable for tests.
var maxCassetteBytes int64 = 256 << 20

// Load reads and parses the cassette file at path. A file larger than
// 256 MiB fails with Kind malformed_cassette (detail limit_bytes) without
// being read into memory.
func Load(path string) (*Cassette, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fault.Wrap(err, fault.PhaseReplay, fault.KindIO, "cannot read cassette").With("path", path)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxCassetteBytes+1))
	if err != nil {
		return nil, fault.Wrap(err, fault.PhaseReplay, fault.KindIO, "cannot read cassette").With("path", path)
	}
	if int64(len(b)) > maxCassetteBytes {
		return nil, malformed("cassette file is too large", nil).With("path", path).With("limit_bytes", maxCassetteBytes)
	}
	c, err := Parse(b)
	if err != nil {
		if fe := fault.As(err); fe != nil {
			fe.With("path", path)
		}
		return nil, err
	}
	return c, nil
}

// Parse decodes and validates a cassette. Unknown fields in the cassette
// structure are rejected (they are usually typos), but a response object
// may carry any fields a server sends. Errors have Kind malformed_cassette.
func Parse(b []byte) (*Cassette, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var c Cassette
	if err := dec.Decode(&c); err != nil {
		return nil, malformed("cassette is not a valid cassette JSON object", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, malformed("trailing data after the cassette object", nil)
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return &c, nil
}

// Validate checks the version and every interaction.
func (c *Cassette) Validate() error {
	if c.Version != Version {
		return malformed(fmt.Sprintf("unsupported cassette version %d (want %d)", c.Version, Version), nil).With("version", c.Version)
	}
	for i := range c.Interactions {
		if err := c.Interactions[i].validate(); err != nil {
			return err.With("interaction", i)
		}
	}
	return nil
}

func (in *Interaction) validate() *fault.Error {
	if in.DelayMS < 0 {
		return malformed("delay_ms is negative", nil)
	}
	if in.Status != 0 {
		if in.Status < 400 || in.Status > 599 {
			return malformed("status must be an HTTP error status (400-599)", nil).With("status", in.Status)
		}
		if len(in.Response) > 0 {
			return malformed("an interaction has either a response or an error status, not both", nil)
		}
		if len(in.ErrorBody) > 0 && !json.Valid(in.ErrorBody) {
			return malformed("error_body is not JSON", nil)
		}
		return nil
	}
	if len(in.ErrorBody) > 0 || in.RetryAfter != "" {
		return malformed("error_body and retry_after need a status", nil)
	}
	if len(in.Response) == 0 {
		return malformed("interaction has no response", nil)
	}
	if _, err := completionOf(in.Response); err != nil {
		return malformed("response is not a chat.completion object", err)
	}
	return nil
}

// completionOf decodes a recorded response, which must be a JSON object
// with "object": "chat.completion" and at least one choice.
func completionOf(raw json.RawMessage) (*openai.ChatCompletion, error) {
	c, err := openai.DecodeCompletion(raw)
	if err != nil {
		return nil, err
	}
	if c.Object != "chat.completion" {
		return nil, fmt.Errorf("object is %q, want \"chat.completion\"", c.Object)
	}
	return c, nil
}

// Marshal encodes c as indented JSON with a trailing newline.
func (c *Cassette) Marshal() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(c); err != nil {
		return nil, fault.Wrap(err, fault.PhaseReplay, KindMalformedCassette, "cannot encode cassette")
	}
	return buf.Bytes(), nil
}

func malformed(msg string, cause error) *fault.Error {
	return fault.Wrap(cause, fault.PhaseReplay, KindMalformedCassette, msg)
}

// errorJSON builds an OpenAI-style error body.
func errorJSON(typ, code, msg string) []byte {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{
		"message": msg, "type": typ, "param": nil, "code": code,
	}})
	return b
}

// Reply returns an interaction that answers requests whose messages contain
// match (any request when match is empty) with resp, encoded as the
// chat.completion object a server would have sent. It is the way to write
// cassettes in code, for tests and examples.
func Reply(match string, resp model.Response) Interaction {
	if resp.Meta.Model == "" {
		resp.Meta.Model = "replay-model"
	}
	if resp.FinishReason == "" {
		resp.FinishReason = "stop"
		if len(resp.ToolCalls) > 0 {
			resp.FinishReason = "tool_calls"
		}
	}
	raw, err := json.Marshal(openai.CompletionFromResponse(&resp, "chatcmpl-replay"))
	if err != nil {
		panic("replay: a model.Response must encode: " + err.Error())
	}
	in := Interaction{Response: raw}
	if match != "" {
		in.Match = &Match{Contains: match}
	}
	return in
}
