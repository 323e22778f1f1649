package mcp

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/tool"
	"github.com/rlm-go/rlm/workspace"
)

// Names of the tools `rlm mcp serve` offers.
const (
	ToolRun             = "rlm_run"
	ToolDirect          = "rlm_direct"
	ToolContextMetadata = corpus.ToolContextMetadata
	ToolContextSearch   = corpus.ToolContextSearch
	ToolContextSlice    = corpus.ToolContextSlice
)

// Server error kinds (phase mcp), reported to MCP clients as tool errors.
const (
	// KindContextRequired: rlm_run or rlm_direct got neither or both of
	// context_path and context_text.
	KindContextRequired fault.Kind = "context_required"
	// KindPathNotAllowed: a path lies outside every allowed root (or
	// escapes one through a symbolic link).
	KindPathNotAllowed fault.Kind = "path_not_allowed"
	// KindInlineTooLarge: context_text exceeds MaxInlineBytes.
	KindInlineTooLarge fault.Kind = "inline_too_large"
)

// MaxInlineBytes bounds context_text, counted in bytes of the decoded
// string (UTF-8), not of its JSON form; MaxLineBytes admits it in any
// escaping.
const MaxInlineBytes = 16 << 20

// RunRequest is one rlm_run or rlm_direct call as the host's run function
// receives it: the query, the context already in Store, the budget (the
// server's ceilings narrowed by the caller) and a progress callback.
type RunRequest struct {
	Query    string
	Store    *corpus.Store
	Context  corpus.Handle
	Limits   budget.Limits
	Progress func(message string)
}

// RunResult is what rlm_run and rlm_direct return (structured content).
type RunResult struct {
	Status  string        `json:"status"`
	Answer  any           `json:"answer"`
	Usage   budget.Usage  `json:"usage"`
	TraceID string        `json:"trace_id"`
	Limits  budget.Limits `json:"limits"`
	Error   *fault.Error  `json:"error,omitempty"`
}

// RunFunc runs one query; the server supplies Store, Context, Limits and
// Progress, and fills TraceID and Limits of the result.
type RunFunc func(ctx context.Context, req RunRequest) (*RunResult, error)

// ServeConfig configures the MCP server side.
type ServeConfig struct {
	// Roots are the directories whose files a caller may name as
	// contexts; relative paths resolve against the first. None means no
	// path contexts (inline text only).
	Roots []string
	// Limits are the server's per-call budget ceilings; a caller's
	// arguments can only lower them.
	Limits budget.Limits
	// Run answers rlm_run (required). Direct answers rlm_direct; nil
	// leaves rlm_direct out (it is offered when tools are configured).
	Run    RunFunc
	Direct RunFunc
	// Version is the server version in initialize.
	Version string
}

// Server is `rlm mcp serve`: an MCP server over the official SDK.
type Server struct {
	cfg   ServeConfig
	roots []*workspace.Root
	// given are the roots as configured, made absolute: an absolute path
	// under one is accepted even when the root's own path (Dir) differs
	// (a root reached through a symbolic link).
	given []string
	srv   *mcpsdk.Server
}

// NewServer opens the roots and builds the MCP server. Close releases the
// roots.
func NewServer(cfg ServeConfig) (*Server, error) {
	if cfg.Run == nil {
		return nil, newErr(fault.KindInvalidConfig, "the MCP server needs a run function")
	}
	s := &Server{cfg: cfg}
	for _, r := range cfg.Roots {
		ws, err := workspace.Open(r)
		if err != nil {
			s.Close()
			return nil, err
		}
		s.roots = append(s.roots, ws)
		abs, err := filepath.Abs(r)
		if err != nil {
			abs = ws.Dir()
		}
		s.given = append(s.given, abs)
	}
	v := cfg.Version
	if v == "" {
		v = "dev"
	}
	s.srv = mcpsdk.NewServer(&mcpsdk.Implementation{Name: "rlm", Version: v}, &mcpsdk.ServerOptions{
		Instructions: "rlm answers questions over contexts far larger than a model's window. Call rlm_run with a query and a context " +
			"(a path under the server's allowed roots, or inline text); context_metadata, context_search and context_slice inspect a context directly.",
	})
	mcpsdk.AddTool(s.srv, &mcpsdk.Tool{Name: ToolRun, InputSchema: runInputSchema(), Description: "Answer a query over a context with a recursive language model (rlm run). " +
		"Give context_path (a file or directory under the server's allowed roots) or context_text. Budgets default to the server's and can only be lowered. " +
		"Returns the answer, usage and a trace id.",
		OutputSchema: runOutputSchema(), Annotations: &mcpsdk.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(true)}}, s.runTool(cfg.Run, true))
	if cfg.Direct != nil {
		mcpsdk.AddTool(s.srv, &mcpsdk.Tool{Name: ToolDirect, InputSchema: runInputSchema(), Description: "Answer a query with rlm's native tool-calling loop (rlm direct) over the server's configured tools " +
			"and an optional context. Budgets can only be lowered.", OutputSchema: runOutputSchema(), Annotations: &mcpsdk.ToolAnnotations{OpenWorldHint: ptr(true)}}, s.runTool(cfg.Direct, false))
	}
	ro := &mcpsdk.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: ptr(false)}
	mcpsdk.AddTool(s.srv, &mcpsdk.Tool{Name: ToolContextMetadata, InputSchema: pathInputSchema(), OutputSchema: contextOutputSchema(), Description: "Size, line count and files of a context under the allowed roots.", Annotations: ro}, s.metadataTool)
	mcpsdk.AddTool(s.srv, &mcpsdk.Tool{Name: ToolContextSearch, InputSchema: searchInputSchema(), OutputSchema: contextOutputSchema(), Description: "Lines of a context under the allowed roots that contain a pattern (literal, or regex), with byte offsets.", Annotations: ro}, s.searchTool)
	mcpsdk.AddTool(s.srv, &mcpsdk.Tool{Name: ToolContextSlice, InputSchema: sliceInputSchema(), OutputSchema: contextOutputSchema(), Description: "A byte range of a context under the allowed roots (bounded).", Annotations: ro}, s.sliceTool)
	s.addPrompts()
	return s, nil
}

func ptr[T any](v T) *T { return &v }

// Input schemas, derived from the argument types by the module's one
// deriver (tool.SchemaFor), not by the SDK's inference: their jsonschema
// tags are tool.SchemaFor's keywords and descriptions.
// They are derived on first use (sync.OnceValue), not at init: a process
// that does not serve MCP pays nothing for them.
var (
	runInputSchema    = sync.OnceValue(tool.MustSchemaFor[RunArgs])
	pathInputSchema   = sync.OnceValue(tool.MustSchemaFor[PathArgs])
	searchInputSchema = sync.OnceValue(tool.MustSchemaFor[SearchArgs])
	sliceInputSchema  = sync.OnceValue(tool.MustSchemaFor[SliceArgs])
)

// Output schemas. The usage object is derived from its Go type by the
// module's one deriver, the limits written as budget.Limits encodes them; the free-form answer and value are
// written out as the JSON types they can be (inference would give them the
// empty schema, which strict clients warn about), and the error is the
// typed error's shape (docs/errors.md).
var (
	anyJSON = `{"type":["string","number","boolean","object","array","null"]`
	// limitsJSONSchema is budget.Limits as it encodes (its MarshalJSON
	// writes the time limit in milliseconds; TestRunOutputSchemaValidates
	// checks the two agree).
	limitsJSONSchema = `{"type":"object","additionalProperties":false,"properties":{"max_iterations":{"type":"integer"},"max_depth":{"type":"integer"},` +
		`"max_model_calls":{"type":"integer"},"max_tool_calls":{"type":"integer"},"max_context_ops":{"type":"integer"},"max_total_tokens":{"type":"integer"},` +
		`"max_cost_usd":{"type":"number"},"max_output_bytes":{"type":"integer"},"max_concurrency":{"type":"integer"},"time_limit_ms":{"type":"integer"}}}`
	errorJSONSchema = `{"type":"object","required":["phase","kind"],"properties":{"phase":{"type":"string"},"kind":{"type":"string"},` +
		`"message":{"type":"string"},"detail":{"type":"object"},"hint":{"type":"string"},"cause":{"type":["object","string"]}}}`
	// runOutputSchema and contextOutputSchema are built on first use.
	runOutputSchema = sync.OnceValue(func() json.RawMessage {
		return json.RawMessage(`{"type":"object","required":["status","answer","usage","trace_id","limits"],"properties":{` +
			`"status":{"type":"string","enum":["completed","failed","cancelled","approval_required"]},` +
			`"answer":` + anyJSON + `,"description":"the answer: text, or JSON when the run returned a value; null when it failed"},` +
			`"usage":` + string(tool.MustSchemaFor[budget.Usage]()) + `,` +
			`"trace_id":{"type":"string","description":"the call's trace (empty when the call failed before a run began)"},` +
			`"limits":` + limitsJSONSchema + `,` +
			`"error":` + errorJSONSchema + `}}`)
	})
	contextOutputSchema = sync.OnceValue(func() json.RawMessage {
		return json.RawMessage(`{"type":"object","required":["value","truncated"],"properties":{` +
			`"value":{"type":["object","array","string","number","null"],"description":"the operation's value: metadata, matches or a span; null when it failed"},` +
			`"truncated":{"type":"boolean"},"error":` + errorJSONSchema + `}}`)
	})
)

// SDK returns the underlying SDK server.
func (s *Server) SDK() *mcpsdk.Server { return s.srv }

// Close releases the roots.
func (s *Server) Close() {
	for _, r := range s.roots {
		r.Close()
	}
	s.roots = nil
}

// ServeStdio serves one client on stdin/stdout until stdin ends or ctx
// ends. A line that is not a valid message is answered with a JSON-RPC
// error and the session goes on (see lineTransport); the result is nil at
// the end of stdin, ctx's error when ctx ended, and an mcp/io_error when
// reading stdin or writing stdout failed.
func (s *Server) ServeStdio(ctx context.Context) error {
	return s.ServeLines(ctx, os.Stdin, os.Stdout)
}

// ServeLines serves one client speaking newline-delimited JSON-RPC on r
// and w, as ServeStdio does on stdin and stdout. It closes r when done.
func (s *Server) ServeLines(ctx context.Context, r io.ReadCloser, w io.Writer) error {
	return s.serveLines(ctx, r, w, MaxLineBytes)
}

func (s *Server) serveLines(ctx context.Context, r io.ReadCloser, w io.Writer, limit int) error {
	err := s.srv.Run(ctx, &lineTransport{r: r, w: w, limit: limit})
	if err == nil || ctx.Err() != nil {
		return err
	}
	return fault.Wrap(err, Phase, fault.KindIO, "the stdio session failed: reading stdin or writing stdout")
}

// HTTPHandler serves streamable HTTP. With a non-empty token every request
// must carry "Authorization: Bearer <token>" (compared in constant time).
//
// Streams are resumable (MCP 2025-11-25, "Resumability and
// Redelivery"): every event of a POST or GET stream has an id and the
// events are kept (at most 10 MiB per handler, oldest dropped first), so a
// client that lost a stream reconnects with GET and Last-Event-ID and gets
// what it missed. A POST's stream opens with the priming event (an id and
// empty data) and a retry field of SSERetry, for clients of protocol
// 2025-11-25 and later: earlier clients parse an empty data field as a
// message and fail on it, so the SDK does not prime their streams.
func (s *Server) HTTPHandler(token string) http.Handler {
	sdkh := mcpsdk.NewStreamableHTTPHandler(func(*http.Request) *mcpsdk.Server { return s.srv },
		&mcpsdk.StreamableHTTPOptions{EventStore: mcpsdk.NewMemoryEventStore(nil)})
	var h http.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sdkh.ServeHTTP(&retryWriter{ResponseWriter: w}, r)
	})
	if token == "" {
		return h
	}
	want := []byte("Bearer " + token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if subtle.ConstantTimeCompare([]byte(r.Header.Get("Authorization")), want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="rlm"`)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// SSERetry is the reconnection delay the HTTP server gives clients in the
// retry field of a stream's priming event: a client whose stream broke
// waits this long before it resumes the stream with GET and Last-Event-ID.
const SSERetry = time.Second

// retryWriter adds the retry field (SSERetry) to the SDK's priming event,
// which the SDK writes as the first write of a stream with an id and empty
// data but no retry field. Every other write passes through unchanged.
type retryWriter struct {
	http.ResponseWriter
	wrote bool
}

var (
	primeEvent = []byte("event: prime\n")
	retryField = []byte("\nretry:")
	dataField  = []byte("\ndata:")
)

func (w *retryWriter) Write(b []byte) (int, error) {
	first := !w.wrote
	w.wrote = true
	if first && bytes.HasPrefix(b, primeEvent) && !bytes.Contains(b, retryField) {
		if i := bytes.Index(b, dataField); i >= 0 {
			out := make([]byte, 0, len(b)+24)
			out = append(out, b[:i+1]...)
			out = append(out, "retry: "+strconv.FormatInt(SSERetry.Milliseconds(), 10)+"\n"...)
			out = append(out, b[i+1:]...)
			if _, err := w.ResponseWriter.Write(out); err != nil {
				return 0, err
			}
			return len(b), nil
		}
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController flush the stream through the wrapper.
func (w *retryWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// RunArgs are the arguments of rlm_run and rlm_direct.
type RunArgs struct {
	Query          string  `json:"query" jsonschema:"description=the question to answer"`
	ContextPath    string  `json:"context_path,omitempty" jsonschema:"description=a file or directory under the server's allowed roots (absolute, or relative to the first root)"`
	ContextText    string  `json:"context_text,omitempty" jsonschema:"description=the context as inline text (at most 16 MiB)"`
	MaxIterations  int     `json:"max_iterations,omitempty" jsonschema:"description=lower the server's limit of loop turns"`
	MaxModelCalls  int     `json:"max_model_calls,omitempty" jsonschema:"description=lower the server's limit of model requests"`
	MaxToolCalls   int     `json:"max_tool_calls,omitempty" jsonschema:"description=lower the server's limit of tool calls"`
	MaxTotalTokens int64   `json:"max_total_tokens,omitempty" jsonschema:"description=lower the server's token limit"`
	MaxCostUSD     float64 `json:"max_cost_usd,omitempty" jsonschema:"description=lower the server's cost limit in USD"`
	MaxOutputBytes int     `json:"max_output_bytes,omitempty" jsonschema:"description=lower the server's limit on the answer's bytes"`
	TimeLimitMS    int64   `json:"time_limit_ms,omitempty" jsonschema:"description=lower the server's wall-clock limit"`
}

// Narrow returns ceiling lowered by the caller's arguments: a value is
// taken only when positive and below the ceiling's. A zero ceiling field is
// the default (docs/budget.md: one rule for every limit), so a caller never
// raises a limit above it; a negative one is unlimited, which any positive
// value lowers.
func (a RunArgs) Narrow(ceiling budget.Limits) budget.Limits {
	l, err := ceiling.Resolve()
	if err != nil { // a negative max_depth: the run refuses it
		l = ceiling
	}
	lower := func(dst *int, v int) {
		if v > 0 && (*dst < 0 || v < *dst) {
			*dst = v
		}
	}
	lower(&l.MaxIterations, a.MaxIterations)
	lower(&l.MaxModelCalls, a.MaxModelCalls)
	lower(&l.MaxToolCalls, a.MaxToolCalls)
	lower(&l.MaxOutputBytes, a.MaxOutputBytes)
	if a.MaxTotalTokens > 0 && (l.MaxTotalTokens < 0 || a.MaxTotalTokens < l.MaxTotalTokens) {
		l.MaxTotalTokens = a.MaxTotalTokens
	}
	if a.MaxCostUSD > 0 && (l.MaxCostUSD < 0 || a.MaxCostUSD < l.MaxCostUSD) {
		l.MaxCostUSD = a.MaxCostUSD
	}
	// A value too large for a time.Duration would wrap; it is larger than
	// any limit, so it is ignored like any larger value.
	if d := budget.FromMillis(a.TimeLimitMS); a.TimeLimitMS <= MaxTimeoutMS && d > 0 && (l.TimeLimit < 0 || d < l.TimeLimit) {
		l.TimeLimit = d
	}
	return l
}

// toolError is a failed call as MCP reports it: isError with the typed
// error as text and as structured content.
func toolError(err error) (*mcpsdk.CallToolResult, error) {
	return &mcpsdk.CallToolResult{IsError: true, Content: []mcpsdk.Content{&mcpsdk.TextContent{Text: asFault(err).Error()}}}, nil
}

// failedRun is the result of an rlm_run or rlm_direct call that failed
// before or instead of a run: a tool error whose text and structured
// content carry the typed error (kind, message, hint), status failed, the
// call's limits and no usage.
func failedRun(err error, lim budget.Limits) (*mcpsdk.CallToolResult, *RunResult, error) {
	res, _ := toolError(err)
	return res, &RunResult{Status: "failed", Error: asFault(err), Limits: lim}, nil
}

func (s *Server) runTool(run RunFunc, needContext bool) mcpsdk.ToolHandlerFor[RunArgs, *RunResult] {
	return func(ctx context.Context, req *mcpsdk.CallToolRequest, args RunArgs) (*mcpsdk.CallToolResult, *RunResult, error) {
		lim := args.Narrow(s.cfg.Limits)
		if strings.TrimSpace(args.Query) == "" {
			return failedRun(newErr(fault.KindInvalid, "query is required"), lim)
		}
		store := corpus.NewStore()
		defer store.Close()
		var h corpus.Handle
		var err error
		switch {
		case args.ContextPath != "" && args.ContextText != "":
			err = newErr(KindContextRequired, "give context_path or context_text, not both")
		case args.ContextPath != "":
			h, err = s.open(ctx, store, args.ContextPath)
		case args.ContextText != "":
			if len(args.ContextText) > MaxInlineBytes {
				err = newErr(KindInlineTooLarge, "context_text is larger than 16 MiB").With("bytes", len(args.ContextText)).With("max_bytes", MaxInlineBytes).
					WithHint("put the context in a file under an allowed root and pass context_path")
			} else {
				h, err = store.AddString("inline", args.ContextText)
			}
		case needContext:
			err = newErr(KindContextRequired, "give context_path or context_text")
		}
		if err != nil {
			return failedRun(err, lim)
		}
		out, err := run(ctx, RunRequest{Query: args.Query, Store: store, Context: h, Limits: lim, Progress: s.progress(ctx, req)})
		if err != nil {
			if ctx.Err() != nil {
				return nil, nil, ctx.Err()
			}
			return failedRun(err, lim)
		}
		out.Limits = lim
		if out.TraceID == "" {
			out.TraceID = NewTraceID()
		}
		res := &mcpsdk.CallToolResult{}
		if out.Error != nil {
			res.IsError = true
			res.Content = []mcpsdk.Content{&mcpsdk.TextContent{Text: out.Error.Error()}}
		} else if a, ok := out.Answer.(string); ok {
			res.Content = []mcpsdk.Content{&mcpsdk.TextContent{Text: a}}
		}
		return res, out, nil
	}
}

// NewTraceID returns a fresh trace id, "trace-" and 16 hex digits.
func NewTraceID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "trace-" + hex.EncodeToString(b[:])
}

// progress sends notifications/progress for each message when the client
// asked for progress (a progress token); at most 1000 per call.
func (s *Server) progress(ctx context.Context, req *mcpsdk.CallToolRequest) func(string) {
	token := req.Params.GetProgressToken()
	if token == nil || req.Session == nil {
		return func(string) {}
	}
	var n atomic.Int64
	return func(msg string) {
		k := n.Add(1)
		if k > 1000 {
			return
		}
		_ = req.Session.NotifyProgress(ctx, &mcpsdk.ProgressNotificationParams{ProgressToken: token, Progress: float64(k), Message: msg})
	}
}

// resolve confines path to an allowed root and returns the host path.
func (s *Server) resolve(path string) (string, error) {
	deny := func() error {
		return newErr(KindPathNotAllowed, "the path is outside the server's allowed roots").With("path", path).
			WithHint("start rlm mcp serve with --root DIR for the directory that holds it")
	}
	if len(s.roots) == 0 {
		return "", deny()
	}
	for i, r := range s.roots {
		rel := filepath.ToSlash(path)
		if filepath.IsAbs(path) {
			var ok bool
			if rel, ok = under(r.Dir(), path); !ok {
				if rel, ok = under(s.given[i], path); !ok {
					continue
				}
			}
		} else if i > 0 {
			break
		}
		clean, err := r.Resolve(rel, true)
		if err != nil {
			return "", fault.Wrap(err, Phase, KindPathNotAllowed, "the path is not allowed").With("path", path)
		}
		return filepath.Join(r.Dir(), filepath.FromSlash(clean)), nil
	}
	return "", deny()
}

// under returns the slash-separated path of the absolute path p relative
// to dir, and whether p lies under dir (lexically).
func under(dir, p string) (string, bool) {
	rel, err := filepath.Rel(dir, filepath.Clean(p))
	rel = filepath.ToSlash(rel)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", false
	}
	return rel, true
}

// open adds the file or directory at path to store.
func (s *Server) open(ctx context.Context, store *corpus.Store, path string) (corpus.Handle, error) {
	p, err := s.resolve(path)
	if err != nil {
		return corpus.Handle{}, err
	}
	fi, err := os.Stat(p)
	if err != nil {
		return corpus.Handle{}, fault.Wrap(err, Phase, fault.KindNotFound, "the context does not exist").With("path", path)
	}
	if fi.IsDir() {
		return store.AddFiles(ctx, filepath.Base(p), []string{p}, corpus.FilesOptions{})
	}
	return store.AddFile(ctx, p)
}

// PathArgs name a context.
type PathArgs struct {
	Path string `json:"path" jsonschema:"description=a file or directory under the server's allowed roots"`
}

// SearchArgs are context_search's arguments: a path, the declared search
// arguments (corpus.SearchArgs: pattern, regex) and max_results.
type SearchArgs struct {
	PathArgs
	corpus.SearchArgs
	MaxResults int `json:"max_results,omitempty" jsonschema:"description=at most this many matches (default 100)"`
}

// SliceArgs are context_slice's arguments: a path and the declared slice
// arguments (corpus.SliceArgs: start, length).
type SliceArgs struct {
	PathArgs
	corpus.SliceArgs
}

// ContextOutput is what the context tools return; a failed operation has
// a null value and its typed error.
type ContextOutput struct {
	Value     any          `json:"value"`
	Truncated bool         `json:"truncated"`
	Error     *fault.Error `json:"error,omitempty"`
}

func (s *Server) withContext(ctx context.Context, path string, f func(*corpus.Store, corpus.Handle) (any, bool, error)) (*mcpsdk.CallToolResult, *ContextOutput, error) {
	store := corpus.NewStore()
	defer store.Close()
	h, err := s.open(ctx, store, path)
	if err == nil {
		var v any
		var trunc bool
		if v, trunc, err = f(store, h); err == nil {
			return nil, &ContextOutput{Value: v, Truncated: trunc}, nil
		}
	}
	if ctx.Err() != nil {
		return nil, nil, ctx.Err()
	}
	res, _ := toolError(err)
	return res, &ContextOutput{Error: asFault(err)}, nil
}

// asFault is err as a typed error (Kind internal when it is not one).
func asFault(err error) *fault.Error {
	return fault.Or(err, Phase, fault.KindInternal, "the call failed")
}

func (s *Server) metadataTool(ctx context.Context, _ *mcpsdk.CallToolRequest, a PathArgs) (*mcpsdk.CallToolResult, *ContextOutput, error) {
	return s.withContext(ctx, a.Path, func(st *corpus.Store, h corpus.Handle) (any, bool, error) {
		md, err := st.Metadata(ctx, h)
		return md, false, err
	})
}

func (s *Server) searchTool(ctx context.Context, _ *mcpsdk.CallToolRequest, a SearchArgs) (*mcpsdk.CallToolResult, *ContextOutput, error) {
	return s.withContext(ctx, a.Path, func(st *corpus.Store, h corpus.Handle) (any, bool, error) {
		act := a.SearchArgs.Action()
		r, err := st.Search(ctx, h, act.Pattern, corpus.SearchOptions{Regex: act.Regex}, corpus.Limits{MaxResults: a.MaxResults})
		return r.Value, r.Truncated, err
	})
}

func (s *Server) sliceTool(ctx context.Context, _ *mcpsdk.CallToolRequest, a SliceArgs) (*mcpsdk.CallToolResult, *ContextOutput, error) {
	return s.withContext(ctx, a.Path, func(st *corpus.Store, h corpus.Handle) (any, bool, error) {
		r, err := st.Do(ctx, h, a.SliceArgs.Action(), corpus.Limits{})
		return r.Value, r.Truncated, err
	})
}
