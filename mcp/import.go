package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"unicode"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rlm-go/rlm/authority"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/textcut"
	"github.com/rlm-go/rlm/tool"
)

// Hints are a tool's annotations as the server declared them. They are
// shown to the host (Imported) and never decide effect class, authority or
// visibility.
type Hints struct {
	Title           string `json:"title,omitempty"`
	ReadOnlyHint    bool   `json:"readOnlyHint"`
	DestructiveHint *bool  `json:"destructiveHint,omitempty"`
	IdempotentHint  bool   `json:"idempotentHint"`
	OpenWorldHint   *bool  `json:"openWorldHint,omitempty"`
}

// Imported describes one imported tool.
type Imported struct {
	// Name is the registered name, mcp.<server>.<tool>.
	Name string `json:"name"`
	// Server and Tool are the configuration key and the server's own name.
	Server string `json:"server"`
	Tool   string `json:"tool"`
	// Effect and AuthorityCeiling are the host's decisions
	// (configuration), never the hints.
	Effect           authority.Effect `json:"effect"`
	AuthorityCeiling authority.Tier   `json:"authority_ceiling,omitempty"`
	Hints            *Hints           `json:"hints,omitempty"`
	Cap              capability.Cap   `json:"capability"`
}

type imported struct {
	info Imported
	spec tool.Spec
	fp   string // what a re-import compares: schema, result, description, effect
}

// Skipped is a tool a server listed that was not imported, with why.
type Skipped struct {
	Server string       `json:"server"`
	Tool   string       `json:"tool"`
	Error  *fault.Error `json:"error"`
}

// Import starts the named servers (all configured servers when names is
// empty), lists their tools and registers each as mcp.<server>.<tool> in
// reg. Tools whose schemas do not compile are skipped (see Skipped). A
// server that cannot be started fails the import with its typed error.
// Later tools/list_changed notifications re-import into the same registry.
func (h *Host) Import(ctx context.Context, reg *tool.Registry, names ...string) ([]Skipped, error) {
	if len(names) == 0 {
		names = h.Servers()
	}
	var skipped []Skipped
	for _, n := range names {
		s, err := h.server(n)
		if err != nil {
			return skipped, err
		}
		s.mu.Lock()
		if s.reg != nil && s.reg != reg {
			s.mu.Unlock()
			return skipped, newErr(fault.KindInvalidConfig, "a server's tools are imported into one registry").With("server", n)
		}
		s.reg = reg
		s.mu.Unlock()
		sk, _, err := s.importTools(ctx)
		skipped = append(skipped, sk...)
		if err != nil {
			return skipped, err
		}
	}
	return skipped, nil
}

// Imported lists the imported tools of every server, sorted by name.
func (h *Host) Imported() []Imported {
	var out []Imported
	for _, n := range h.Servers() {
		s := h.servers[n]
		s.mu.Lock()
		for _, k := range sortedKeys(s.tools) {
			out = append(out, s.tools[k].info)
		}
		s.mu.Unlock()
	}
	return out
}

// importTools lists the server's tools and brings its registry in line:
// new tools are registered, removed or changed ones unregistered (changed
// ones then registered again). Imports of one server run one at a time; it
// reports whether the registry changed.
func (s *server) importTools(ctx context.Context) ([]Skipped, bool, error) {
	s.importMu.Lock()
	defer s.importMu.Unlock()
	s.mu.Lock()
	reg := s.reg
	s.mu.Unlock()
	if reg == nil {
		return nil, false, nil
	}
	list, err := s.listTools(ctx)
	if err != nil {
		return nil, false, err
	}
	var skipped []Skipped
	next := map[string]*imported{}
	for _, t := range list {
		im, fe := s.build(t)
		if fe != nil {
			skipped = append(skipped, Skipped{Server: s.name, Tool: textcut.Prefix(t.Name, 200), Error: fe})
			continue
		}
		if _, dup := next[im.info.Name]; dup {
			skipped = append(skipped, Skipped{Server: s.name, Tool: textcut.Prefix(t.Name, 200),
				Error: newErr(tool.KindInvalidTool, "two tools of the server map to one name").With("name", im.info.Name)})
			continue
		}
		next[im.info.Name] = im
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	changed := false
	for name, old := range s.tools {
		if n, ok := next[name]; !ok || n.fp != old.fp {
			reg.Unregister(name)
			delete(s.tools, name)
			changed = true
		}
	}
	for _, name := range sortedKeys(next) {
		if _, ok := s.tools[name]; ok {
			continue
		}
		im := next[name]
		if err := reg.Register(im.spec); err != nil {
			skipped = append(skipped, Skipped{Server: s.name, Tool: im.info.Tool,
				Error: fault.Wrap(err, Phase, tool.KindInvalidTool, "the tool cannot be registered").With("name", name)})
			continue
		}
		s.tools[name] = im
		changed = true
	}
	return skipped, changed, nil
}

func (s *server) listTools(ctx context.Context) ([]*mcpsdk.Tool, error) {
	c, err := s.ensure(ctx)
	if err != nil {
		return nil, err
	}
	// The listing is a request like a call: bounded by the call limit,
	// and by MaxTools pages (a page may be empty).
	ctx, cancel := context.WithTimeout(ctx, s.cfg.callTimeout())
	defer cancel()
	rctx, done := c.bind(ctx)
	defer done()
	var out []*mcpsdk.Tool
	params := &mcpsdk.ListToolsParams{}
	for pages := 0; pages < MaxTools && len(out) < MaxTools; pages++ {
		res, err := c.sess.ListTools(rctx, params)
		if err != nil {
			return nil, s.classify(ctx, c, "tools/list", err)
		}
		out = append(out, res.Tools[:min(len(res.Tools), MaxTools-len(out))]...)
		if res.NextCursor == "" {
			break
		}
		params.Cursor = res.NextCursor
	}
	s.succeeded()
	return out, nil
}

// build turns a listed tool into a registry spec.
func (s *server) build(t *mcpsdk.Tool) (*imported, *fault.Error) {
	if t == nil || t.Name == "" {
		return nil, newErr(tool.KindInvalidTool, "a listed tool has no name").With("server", s.name)
	}
	name := ToolName(s.name, t.Name)
	bad := func(err error, msg string) *fault.Error {
		return fault.Wrap(err, Phase, tool.KindInvalidTool, msg).With("server", s.name).With("name", name)
	}
	args, err := json.Marshal(t.InputSchema)
	if err != nil || t.InputSchema == nil {
		return nil, bad(err, "the tool's input schema is not JSON")
	}
	result := json.RawMessage(`{"type":"object","required":["content","isError"],"properties":{"content":{"type":"array"},"isError":{"type":"boolean"}}}`)
	if t.OutputSchema != nil {
		out, ok := t.OutputSchema.(map[string]any)
		if !ok {
			return nil, bad(nil, "the tool's output schema is not an object")
		}
		// The output schema is embedded as its own resource, so its
		// internal references resolve against itself.
		emb := make(map[string]any, len(out)+1)
		for k, v := range out {
			emb[k] = v
		}
		emb["$id"] = "https://rlm.invalid/mcp/" + s.name + "/output/" + name + ".json"
		r, err := json.Marshal(map[string]any{"type": "object", "required": []string{"content", "isError"}, "properties": map[string]any{
			"content": map[string]any{"type": "array"}, "isError": map[string]any{"type": "boolean"}, "structuredContent": emb}})
		if err != nil {
			return nil, bad(err, "the tool's output schema is not JSON")
		}
		result = r
	}
	effect, ceiling := s.cfg.effect(t.Name), s.cfg.ceiling(t.Name)
	desc := Description(s.name, t)
	orig := t.Name
	spec := tool.Spec{
		Name: name, Description: desc, Args: args, Result: result, Effect: effect, AuthorityCeiling: ceiling,
		Limits:  tool.Limits{TimeLimit: s.cfg.callTimeout(), MaxOutputBytes: s.cfg.maxOutput()},
		Handler: func(ctx context.Context, req tool.Request) (any, error) { return s.call(ctx, orig, req) },
	}
	info := Imported{Name: name, Server: s.name, Tool: orig, Effect: effect, AuthorityCeiling: ceiling, Cap: capability.Tool(name)}
	if a := t.Annotations; a != nil {
		info.Hints = &Hints{Title: textcut.Prefix(a.Title, 200), ReadOnlyHint: a.ReadOnlyHint, DestructiveHint: a.DestructiveHint,
			IdempotentHint: a.IdempotentHint, OpenWorldHint: a.OpenWorldHint}
	}
	fp, _ := json.Marshal([]any{string(args), string(result), desc, effect, ceiling})
	return &imported{info: info, spec: spec, fp: string(fp)}, nil
}

// Description is the model-visible description of an imported tool: a
// fixed prefix naming the server, then the server's description with
// control characters and line breaks turned into spaces, cut to
// MaxDescription runes. It is only ever a tool description, never part of
// a system prompt.
func Description(server string, t *mcpsdk.Tool) string {
	d := t.Description
	if d == "" && t.Annotations != nil {
		d = t.Annotations.Title
	}
	clean := oneLine(d)
	if r := []rune(clean); len(r) > MaxDescription {
		clean = string(r[:MaxDescription-1]) + "…"
	}
	// The server's tool name is as untrusted as its description.
	head := "MCP tool " + oneLine(textcut.Prefix(t.Name, 100)) + " of server " + server + "."
	if clean == "" {
		return head
	}
	return head + " " + clean
}

// oneLine turns runs of control characters and white space (line breaks
// included) into single spaces and trims the ends.
func oneLine(d string) string {
	var b strings.Builder
	space := false
	for _, r := range d {
		if unicode.IsSpace(r) || unicode.IsControl(r) {
			if !space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = true
			continue
		}
		space = false
		b.WriteRune(r)
	}
	return strings.TrimSpace(b.String())
}

// call runs one tools/call. The idempotency key of an effectful call is
// sent in _meta as "rlm/idempotency_key".
func (s *server) call(ctx context.Context, name string, req tool.Request) (any, error) {
	c, err := s.ensure(ctx)
	if err != nil {
		return nil, err
	}
	p := &mcpsdk.CallToolParams{Name: name, Arguments: req.Args}
	if req.IdempotencyKey != "" {
		p.Meta = mcpsdk.Meta{"rlm/idempotency_key": req.IdempotencyKey}
	}
	rctx, done := c.bind(ctx)
	defer done()
	res, err := c.sess.CallTool(rctx, p)
	if err != nil {
		return nil, s.classify(ctx, c, "tools/call", err)
	}
	s.succeeded()
	return encodeResult(res)
}

// encodeResult is the value a tool call returns: {"content": [...],
// "structuredContent"?, "isError"}. Binary payloads (images, audio, blobs)
// are replaced by their size and type; text stays.
func encodeResult(res *mcpsdk.CallToolResult) (json.RawMessage, error) {
	content := make([]map[string]any, 0, len(res.Content))
	for _, c := range res.Content {
		content = append(content, contentJSON(c))
	}
	out := map[string]any{"content": content, "isError": res.IsError}
	if res.StructuredContent != nil {
		out["structuredContent"] = res.StructuredContent
	}
	b, err := json.Marshal(out)
	if err != nil {
		return nil, fault.Wrap(err, Phase, KindMalformedMessage, "the tool result cannot be encoded")
	}
	return b, nil
}

func contentJSON(c mcpsdk.Content) map[string]any {
	switch v := c.(type) {
	case *mcpsdk.TextContent:
		return map[string]any{"type": "text", "text": v.Text}
	case *mcpsdk.ImageContent:
		return map[string]any{"type": "image", "mimeType": v.MIMEType, "bytes": len(v.Data)}
	case *mcpsdk.AudioContent:
		return map[string]any{"type": "audio", "mimeType": v.MIMEType, "bytes": len(v.Data)}
	case *mcpsdk.ResourceLink:
		return map[string]any{"type": "resource_link", "uri": v.URI, "name": v.Name, "mimeType": v.MIMEType}
	case *mcpsdk.EmbeddedResource:
		m := map[string]any{"type": "resource"}
		if r := v.Resource; r != nil {
			m["uri"], m["mimeType"] = r.URI, r.MIMEType
			if r.Text != "" {
				m["text"] = r.Text
			}
			if len(r.Blob) > 0 {
				m["bytes"] = len(r.Blob)
			}
		}
		return m
	}
	return map[string]any{"type": "unknown"}
}

// ReadResource reads a resource of a server: the text of its contents
// (blobs as their bytes), concatenated in order, and the MIME type of the
// first. The result is bounded by the server's max_message_bytes.
func (h *Host) ReadResource(ctx context.Context, server, uri string) ([]byte, string, error) {
	s, err := h.server(server)
	if err != nil {
		return nil, "", err
	}
	c, err := s.ensure(ctx)
	if err != nil {
		return nil, "", err
	}
	rctx, done := c.bind(ctx)
	defer done()
	res, err := c.sess.ReadResource(rctx, &mcpsdk.ReadResourceParams{URI: uri})
	if err != nil {
		return nil, "", s.classify(ctx, c, "resources/read", err)
	}
	s.succeeded()
	var out []byte
	var first *mcpsdk.ResourceContents // the first non-null entry: a server may send null ones
	for _, rc := range res.Contents {
		if rc == nil {
			continue
		}
		if first == nil {
			first = rc
		}
		if rc.Text != "" {
			out = append(out, rc.Text...)
		} else {
			out = append(out, rc.Blob...)
		}
	}
	if first == nil {
		return nil, "", newErr(KindInvalidResource, "the resource has no contents").With("server", server).With("uri", textcut.Prefix(uri, 512))
	}
	return out, first.MIMEType, nil
}

// ContextScheme starts a context argument that names an MCP resource:
// mcp://<server>/<uri>.
const ContextScheme = "mcp://"

// ParseContextURI splits "mcp://<server>/<uri>" into the server name and
// the resource URI; ok is false when s is not of that form.
func ParseContextURI(s string) (server, uri string, ok bool) {
	rest, found := strings.CutPrefix(s, ContextScheme)
	if !found {
		return "", "", false
	}
	server, uri, found = strings.Cut(rest, "/")
	if !found || uri == "" || !ValidServerName(server) {
		return "", "", false
	}
	return server, uri, true
}
