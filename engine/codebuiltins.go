package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"sort"
	"strings"
	"sync"

	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/meter"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/plan"
	"github.com/rlm-go/rlm/repl"
	"github.com/rlm-go/rlm/trace"
	"github.com/rlm-go/rlm/vision"
)

// Host builtins of code mode. Every one goes through the loop's env, so a
// call is admitted against the shared budget, checked against the loop's
// capabilities and traced exactly as the same operation in a plan. They
// are plain Go functions over Go values (package repl converts), so the
// embedded interpreter and Pyodide share them.

// codeHost is the host side of an interpreter's builtins. Between cells it
// is rebound to the loop that uses it (a Session's interpreter serves
// several runs).
type codeHost struct {
	store *corpus.Store
	limit int // bytes a prompt argument may materialize at once

	imu    sync.Mutex
	images map[string]model.Image // the image values code holds, by SHA256

	mu  sync.Mutex
	r   *run
	env *env
}

func (h *codeHost) bind(r *run, e *env) {
	h.mu.Lock()
	h.r, h.env = r, e
	h.mu.Unlock()
}

// state returns the loop the host is bound to.
func (h *codeHost) state() (*run, *env, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.r == nil {
		return nil, nil, fault.New(fault.PhaseExecute, fault.KindInternal, "a builtin ran outside a cell")
	}
	return h.r, h.env, nil
}

// builtins returns the predeclared host names: context (and context_0..N
// for several inputs), llm_query, llm_query_batched, rlm_query,
// rlm_query_batched and call_tool.
func (h *codeHost) builtins(inputs []corpus.Handle) map[string]any {
	d := map[string]any{
		"llm_query":         repl.Builtin(h.llmQuery),
		"llm_query_batched": repl.Builtin(h.llmQueryBatched),
		"rlm_query":         repl.Builtin(h.rlmQuery),
		"rlm_query_batched": repl.Builtin(h.rlmQueryBatched),
		"call_tool":         repl.Builtin(h.callTool),
		"load_image":        repl.Builtin(h.loadImage),
	}
	for i, in := range inputs {
		if i == 0 {
			d["context"] = h.textOf(in, "context")
		}
		d[fmt.Sprintf("context_%d", i)] = h.textOf(in, fmt.Sprintf("context_%d", i))
	}
	return d
}

func (h *codeHost) textOf(in corpus.Handle, name string) *ctxText {
	size := int64(-1)
	if b, release, err := h.store.Bytes(in); err == nil {
		size = int64(len(b))
		release()
	}
	return &ctxText{host: h, h: in, name: name, size: size}
}

// builtinErr turns a failed operation into what the cell sees: a run-ending
// error (budget, cancellation, policy) stops the cell at once; anything
// else is an exception the model can react to.
func builtinErr(name string, err error) error {
	if isFatal(err) {
		return repl.Fatal(err)
	}
	return fmt.Errorf("%s failed: %s", name, errText(err))
}

// promptText returns the text of a prompt argument: a string, or a
// (sub-)context, materialized within the per-prompt limit.
func (h *codeHost) promptText(ctx context.Context, name string, v any) (string, error) {
	switch x := v.(type) {
	case string:
		return x, nil
	case *ctxText:
		_, e, err := h.state()
		if err != nil {
			return "", err
		}
		s, err := e.Text(ctx, x.h)
		if err != nil {
			return "", builtinErr(name, err)
		}
		return s, nil
	}
	return "", repl.Raise("TypeError", "%s(): prompt must be a str, not %s", name, pyTypeName(v))
}

// pyTypeName names a converted argument's Python type, for messages.
func pyTypeName(v any) string {
	switch v.(type) {
	case nil:
		return "NoneType"
	case bool:
		return "bool"
	case int64, *big.Int:
		return "int"
	case float64:
		return "float"
	case string:
		return "str"
	case []any:
		return "list"
	case map[string]any:
		return "dict"
	}
	return fmt.Sprintf("%T", v)
}

// args binds a call's arguments to names (positional then keyword); a
// name ending in "?" is optional.
func args(c *repl.Call, names ...string) (map[string]any, error) {
	out := map[string]any{}
	clean := make([]string, len(names))
	required := 0
	for i, n := range names {
		if len(n) > 0 && n[len(n)-1] == '?' {
			clean[i] = n[:len(n)-1]
		} else {
			clean[i] = n
			required = i + 1
		}
	}
	if len(c.Args) > len(clean) {
		return nil, repl.Raise("TypeError", "%s() takes at most %d arguments (%d given)", c.Name, len(clean), len(c.Args))
	}
	for i, a := range c.Args {
		out[clean[i]] = a
	}
	for _, kv := range c.Kwargs {
		known := false
		for _, n := range clean {
			if n == kv.Key {
				known = true
			}
		}
		if !known {
			return nil, repl.Raise("TypeError", "%s() got an unexpected keyword argument '%s'", c.Name, kv.Key)
		}
		if _, dup := out[kv.Key]; dup {
			return nil, repl.Raise("TypeError", "%s() got multiple values for argument '%s'", c.Name, kv.Key)
		}
		out[kv.Key] = kv.Value
	}
	for _, n := range clean[:required] {
		if _, ok := out[n]; !ok {
			return nil, repl.Raise("TypeError", "%s() missing required argument '%s'", c.Name, n)
		}
	}
	return out, nil
}

func optString(fn, param string, v any) (string, error) {
	switch x := v.(type) {
	case nil:
		return "", nil
	case string:
		return x, nil
	}
	return "", repl.Raise("TypeError", "%s(): %s must be a str or None, not %s", fn, param, pyTypeName(v))
}

func optConcurrency(fn string, v any) (int, error) {
	if v == nil {
		return MaxStepConcurrency, nil
	}
	n, ok := v.(int64)
	if !ok || n < 1 {
		return 0, repl.Raise("ValueError", "%s(): concurrency must be a positive int", fn)
	}
	return int(min(n, int64(MaxStepConcurrency))), nil
}

func listOf(fn, param string, v any) ([]any, error) {
	l, ok := v.([]any)
	if !ok {
		return nil, repl.Raise("TypeError", "%s(): %s must be a list, not %s", fn, param, pyTypeName(v))
	}
	return l, nil
}

func optBool(fn, param string, v any, def bool) (bool, error) {
	switch x := v.(type) {
	case nil:
		return def, nil
	case bool:
		return x, nil
	}
	return false, repl.Raise("TypeError", "%s(): %s must be a bool, not %s", fn, param, pyTypeName(v))
}

func optInt(fn, param string, v any, def int64) (int64, error) {
	switch x := v.(type) {
	case nil:
		return def, nil
	case int64:
		return x, nil
	}
	return 0, repl.Raise("TypeError", "%s(): %s must be an int, not %s", fn, param, pyTypeName(v))
}

func (h *codeHost) llmQuery(c *repl.Call) (any, error) {
	a, err := args(c, "prompt", "model?", "images?")
	if err != nil {
		return nil, err
	}
	m, err := optString(c.Name, "model", a["model"])
	if err != nil {
		return nil, err
	}
	text, err := h.promptText(c.Ctx, c.Name, a["prompt"])
	if err != nil {
		return nil, err
	}
	var images []model.Image
	if a["images"] != nil {
		if images, err = h.imageList(c.Name, "images", a["images"]); err != nil {
			return nil, err
		}
	}
	_, e, err := h.state()
	if err != nil {
		return nil, err
	}
	resp, err := e.modelCall(c.Ctx, plan.ModelCall{Prompt: text, Model: m, Images: images})
	if err != nil {
		return nil, builtinErr(c.Name, err)
	}
	if cutAnswer(resp) {
		c.Print(fmt.Sprintf("[%s: the answer was cut at the sub-model's output limit (finish_reason %q)]", c.Name, resp.FinishReason))
	}
	return resp.Text, nil
}

// cutAnswer reports a sub-call answer the sub-model stopped before its
// end (its output limit).
func cutAnswer(resp *model.Response) bool {
	return resp.FinishReason == "length" || resp.FinishReason == "max_tokens"
}

// fanOut runs n items with at most conc at once, in input order of
// results. A run-ending error cancels the rest and is returned; any other
// failure becomes that item's error value.
func (h *codeHost) fanOut(ctx context.Context, n, conc int, item func(ctx context.Context, i int) (any, error), name string) ([]any, error) {
	out := make([]any, n)
	fatal := forEach(ctx, n, conc, func(ctx context.Context, i int) error {
		v, err := item(ctx, i)
		switch {
		case err == nil:
			out[i] = v
		case isFatal(err):
			return err
		default:
			out[i] = fmt.Sprintf("Error: %s failed: %s", name, errText(err))
		}
		return nil
	})
	if fatal != nil {
		if err := ctx.Err(); err != nil {
			return nil, fault.FromContext(fault.PhaseExecute, context.Cause(ctx))
		}
		return nil, fatal
	}
	return out, nil
}

func (h *codeHost) llmQueryBatched(c *repl.Call) (any, error) {
	a, err := args(c, "prompts", "concurrency?", "model?", "images?")
	if err != nil {
		return nil, err
	}
	items, err := listOf(c.Name, "prompts", a["prompts"])
	if err != nil {
		return nil, err
	}
	var images [][]model.Image
	if a["images"] != nil {
		lists, err := listOf(c.Name, "images", a["images"])
		if err != nil {
			return nil, err
		}
		if len(lists) != len(items) {
			return nil, repl.Raise("ValueError", "%s(): %d prompts but %d image lists", c.Name, len(items), len(lists))
		}
		images = make([][]model.Image, len(lists))
		for i, l := range lists {
			if l == nil {
				continue
			}
			if images[i], err = h.imageList(c.Name, fmt.Sprintf("images[%d]", i), l); err != nil {
				return nil, err
			}
		}
	}
	conc, err := optConcurrency(c.Name, a["concurrency"])
	if err != nil {
		return nil, err
	}
	m, err := optString(c.Name, "model", a["model"])
	if err != nil {
		return nil, err
	}
	texts := make([]string, len(items))
	for i, p := range items {
		if texts[i], err = h.promptText(c.Ctx, c.Name, p); err != nil {
			return nil, err
		}
	}
	_, e, err := h.state()
	if err != nil {
		return nil, err
	}
	// Like a plan's map step, a fan-out that cannot fit the model-call
	// budget is refused before any call is made.
	if err := e.Admit(c.Ctx, plan.Estimate{ModelCalls: len(texts)}); err != nil {
		return nil, repl.Fatal(err)
	}
	ctx, sp := trace.Start(c.Ctx, trace.KindPlanStep, c.Name)
	sp.Set("items", len(texts))
	sp.Set("concurrency", conc)
	cut := make([]bool, len(texts))
	out, err := h.fanOut(ctx, len(texts), conc, func(ctx context.Context, i int) (any, error) {
		call := plan.ModelCall{Prompt: texts[i], Model: m}
		if images != nil {
			call.Images = images[i]
		}
		resp, err := e.modelCall(ctx, call)
		if err != nil {
			return nil, err
		}
		cut[i] = cutAnswer(resp)
		return resp.Text, nil
	}, "llm_query")
	sp.End(err)
	if err != nil {
		return nil, repl.Fatal(err)
	}
	for i, c1 := range cut {
		if c1 {
			c.Print(fmt.Sprintf("[%s: answer %d was cut at the sub-model's output limit]", c.Name, i))
		}
	}
	return out, nil
}

// childContext resolves rlm_query's context argument: a (sub-)context, a
// string, or None (the query text itself is the child's context).
func childContext(fn string, query string, v any) (plan.Value, error) {
	switch x := v.(type) {
	case nil:
		return query, nil
	case string:
		return x, nil
	case *ctxText:
		return x.h, nil
	}
	return nil, repl.Raise("TypeError", "%s(): context must be a context, a str or None, not %s", fn, pyTypeName(v))
}

func (h *codeHost) rlmQuery(c *repl.Call) (any, error) {
	a, err := args(c, "query", "context?")
	if err != nil {
		return nil, err
	}
	query, ok := a["query"].(string)
	if !ok {
		return nil, repl.Raise("TypeError", "%s(): query must be a str, not %s", c.Name, pyTypeName(a["query"]))
	}
	cv, err := childContext(c.Name, query, a["context"])
	if err != nil {
		return nil, err
	}
	_, e, err := h.state()
	if err != nil {
		return nil, err
	}
	v, err := e.RLM(c.Ctx, query, cv)
	if err != nil {
		return nil, builtinErr(c.Name, err)
	}
	return h.toGo(v)
}

func (h *codeHost) rlmQueryBatched(c *repl.Call) (any, error) {
	a, err := args(c, "queries", "contexts?", "concurrency?")
	if err != nil {
		return nil, err
	}
	qs, err := listOf(c.Name, "queries", a["queries"])
	if err != nil {
		return nil, err
	}
	var cs []any
	if a["contexts"] != nil {
		if cs, err = listOf(c.Name, "contexts", a["contexts"]); err != nil {
			return nil, err
		}
		if len(cs) != len(qs) {
			return nil, repl.Raise("ValueError", "%s(): %d queries but %d contexts", c.Name, len(qs), len(cs))
		}
	}
	conc, err := optConcurrency(c.Name, a["concurrency"])
	if err != nil {
		return nil, err
	}
	texts := make([]string, len(qs))
	ctxs := make([]plan.Value, len(qs))
	for i, q := range qs {
		s, ok := q.(string)
		if !ok {
			return nil, repl.Raise("TypeError", "%s(): query %d is not a str", c.Name, i)
		}
		texts[i] = s
		var cv any
		if cs != nil {
			cv = cs[i]
		}
		if ctxs[i], err = childContext(c.Name, s, cv); err != nil {
			return nil, err
		}
	}
	_, e, err := h.state()
	if err != nil {
		return nil, err
	}
	ctx, sp := trace.Start(c.Ctx, trace.KindPlanStep, c.Name)
	sp.Set("items", len(texts))
	sp.Set("concurrency", conc)
	out, err := h.fanOut(ctx, len(texts), conc, func(ctx context.Context, i int) (any, error) {
		v, err := e.RLM(ctx, texts[i], ctxs[i])
		if err != nil {
			return nil, err
		}
		return h.toGo(v)
	}, "rlm_query")
	sp.End(err)
	if err != nil {
		return nil, repl.Fatal(err)
	}
	return out, nil
}

func (h *codeHost) callTool(c *repl.Call) (any, error) {
	if len(c.Args) != 1 {
		return nil, repl.Raise("TypeError", "call_tool(): want the tool name and keyword arguments, e.g. call_tool(\"fs_read\", path=\"notes.txt\")")
	}
	name, ok := c.Args[0].(string)
	if !ok {
		return nil, repl.Raise("TypeError", "call_tool(): the tool name must be a str")
	}
	toolArgs := map[string]any{}
	for _, kv := range c.Kwargs {
		if _, isText := kv.Value.(*ctxText); isText {
			return nil, repl.Raise("TypeError", "call_tool(): argument %s is a context; pass a str (slice it)", kv.Key)
		}
		toolArgs[kv.Key] = kv.Value
	}
	_, e, err := h.state()
	if err != nil {
		return nil, err
	}
	av, err := toValue(toolArgs)
	if err != nil {
		return nil, err
	}
	v, err := e.Tool(c.Ctx, name, av)
	if err != nil {
		return nil, builtinErr(c.Name, err)
	}
	return h.toGo(v)
}

// toGo converts a plan value (JSON numbers, handles) to the plain Go data
// repl converts; a handle becomes a sub-context.
func (h *codeHost) toGo(v plan.Value) (any, error) {
	return mapJSON(v, func(leaf any) (any, error) {
		switch x := leaf.(type) {
		case json.Number:
			return jsonNumber(x, 0)
		case corpus.Handle:
			return h.textOf(x, "context"), nil
		}
		return leaf, nil
	})
}

// ctxText is a context (or sub-context) as a repl.Text: code sees a str
// backed by the context store, without copying. Every read is one context
// operation of capability context:slice (reads) or context:search
// (searches), counted and traced like a plan's.
type ctxText struct {
	host *codeHost
	h    corpus.Handle
	name string
	size int64
	page bool // a page of a PDF (context.pages[i]): has image()
}

var (
	_ repl.Text        = (*ctxText)(nil)
	_ repl.TextMethods = (*ctxText)(nil)
)

func (c *ctxText) Size() int64  { return max(c.size, 0) }
func (c *ctxText) Name() string { return c.name }

// View admits one context operation and runs f over the context's bytes
// inside the store's guard, so a mapped file truncated during the run is a
// context_changed error (which ends the run), never a crash.
func (c *ctxText) View(ctx context.Context, op string, f func(b []byte) error) error {
	r, e, err := c.host.state()
	if err != nil {
		return err
	}
	// "index" is the interpreter's own scan (code points, once per text),
	// made on behalf of an operation that was admitted and traced itself.
	if op == "index" {
		err = c.host.store.View(c.h, f)
	} else {
		// The operation's capability comes from the one map of them
		// (meter.ContextCapability): reads need context:slice, searches
		// and re functions context:search.
		_, sp, merr := meter.New(r.tracker).Context(ctx, e.n.caps, meter.ContextOp{Op: op, Handle: c.h.String()})
		if merr != nil {
			return repl.Fatal(merr)
		}
		var n int64
		err = c.host.store.View(c.h, func(data []byte) error {
			n = int64(len(data))
			return f(data)
		})
		sp.SetBytes(n)
		sp.End(err)
	}
	if fe := fault.As(err); fe != nil {
		if isFatal(fe) {
			return repl.Fatal(fe)
		}
		// A failure that does not end the run (a sub-context a finished
		// query of a session released) is an exception the model sees.
		return repl.Raise("ValueError", "context operation failed: %s", errText(fe))
	}
	return err
}

// Methods are the context's own methods beside str's.
func (c *ctxText) Methods() map[string]repl.Builtin {
	m := map[string]repl.Builtin{
		"search":    c.search,
		"partition": c.partition,
		"text":      c.text,
		"files":     c.files,
	}
	if c.page {
		m["image"] = c.image
	}
	return m
}

// Attrs are the context's own attributes: context.pages, the pages of
// the PDFs in it.
func (c *ctxText) Attrs() map[string]repl.Builtin {
	return map[string]repl.Builtin{"pages": c.pages}
}

// DefaultSearchResults is context.search's default max_results.
const DefaultSearchResults = 1000

// search runs the store's search (literal, or RE2 with regex=True) and
// returns whole matching lines as a list of {"line", "offset", "text"}
// dicts ("file" and "file_line" too in a context of several files): at
// most max_results, with .truncated and .total telling what was left out
// (strict=True raises instead).
func (c *ctxText) search(call *repl.Call) (any, error) {
	a, err := args(call, "pattern", "regex?", "max_results?", "strict?")
	if err != nil {
		return nil, err
	}
	pattern, ok := a["pattern"].(string)
	if !ok {
		return nil, repl.Raise("TypeError", "search(): pattern must be a str, not %s", pyTypeName(a["pattern"]))
	}
	regex, err := optBool("search", "regex", a["regex"], false)
	if err != nil {
		return nil, err
	}
	maxResults, err := optInt("search", "max_results", a["max_results"], DefaultSearchResults)
	if err != nil {
		return nil, err
	}
	if maxResults < 1 || maxResults > corpus.MaxMaxResults {
		return nil, repl.Raise("ValueError", "search(): max_results must be between 1 and %d", corpus.MaxMaxResults)
	}
	strict, err := optBool("search", "strict", a["strict"], false)
	if err != nil {
		return nil, err
	}
	r, e, err := c.host.state()
	if err != nil {
		return nil, err
	}
	ctx, sp, err := meter.New(r.tracker).Context(call.Ctx, e.n.caps, meter.ContextOp{Op: corpus.ActionSearch, Handle: c.h.String()})
	if err != nil {
		return nil, repl.Fatal(err)
	}
	lim := r.e.cfg.ContextLimits
	lim.MaxResults = int(maxResults)
	lim.MaxBytes = corpus.MaxMaxBytes
	var hits []corpus.Match
	res, err := c.host.store.SearchEach(ctx, c.h, pattern, regex, lim, func(m corpus.Match) error {
		hits = append(hits, m)
		return nil
	})
	total := int64(len(hits))
	if err == nil && res.Truncated && len(hits) >= int(maxResults) {
		var cr corpus.Result
		cr, err = c.host.store.Search(ctx, c.h, pattern, corpus.SearchOptions{Regex: regex, CountOnly: true}, lim)
		if err == nil {
			total, _ = cr.Value.(int64)
		}
	}
	if err == nil {
		sp.SetBytes(res.Accounting.BytesInspected)
		sp.Set("items", len(hits))
		sp.Set("total", total)
		sp.Set("truncated", res.Truncated)
	}
	sp.End(err)
	if err != nil {
		return nil, builtinErr("search", err)
	}
	// A line the store cut (longer than its per-hit cap) is read whole.
	cut := false
	for _, m := range hits {
		if m.Truncated {
			cut = true
		}
	}
	if cut {
		var total int
		_ = c.host.store.View(c.h, func(data []byte) error {
			for i := range hits {
				m := &hits[i]
				if !m.Truncated || m.Offset < 0 || m.Offset > int64(len(data)) {
					continue
				}
				line := data[m.Offset:]
				if j := bytes.IndexByte(line, '\n'); j >= 0 {
					line = line[:j]
				}
				if total += len(line); total > corpus.MaxMaxBytes {
					return nil
				}
				m.Value, m.Truncated = string(line), false
			}
			return nil
		})
		cut = false
		for _, m := range hits {
			if m.Truncated {
				cut = true
			}
		}
	}
	truncated := int64(len(hits)) < total || cut
	if strict && truncated {
		return nil, repl.Raise("ValueError", "search(): %d lines match, more than max_results=%d (or a line was cut); raise max_results or narrow the pattern", total, maxResults)
	}
	offs := make([]int64, len(hits))
	for i, m := range hits {
		offs[i] = m.Offset
	}
	if err := call.CodePoints(offs); err != nil {
		return nil, err
	}
	items := make([]any, len(hits))
	for i, m := range hits {
		d := repl.Dict{{Key: "line", Value: m.Index}, {Key: "offset", Value: offs[i]}, {Key: "text", Value: m.Value}}
		if m.File != "" {
			d = append(d, repl.KV{Key: "file", Value: m.File}, repl.KV{Key: "file_line", Value: m.FileLine})
		}
		if m.Page > 0 {
			d = append(d, repl.KV{Key: "page", Value: m.Page})
		}
		items[i] = d
	}
	return &repl.List{Class: "SearchResults", Items: items, Attrs: []repl.KV{{Key: "truncated", Value: truncated}, {Key: "total", Value: total}}}, nil
}

// partition splits the context into sub-contexts of N lines, about N
// bytes (cut at a line end when one is near) or N pages of a PDF.
func (c *ctxText) partition(call *repl.Call) (any, error) {
	a, err := args(call, "lines?", "bytes?", "pages?")
	if err != nil {
		return nil, err
	}
	pages, err := optInt("partition", "pages", a["pages"], 0)
	if err != nil {
		return nil, err
	}
	lines, err := optInt("partition", "lines", a["lines"], 0)
	if err != nil {
		return nil, err
	}
	nbytes, err := optInt("partition", "bytes", a["bytes"], 0)
	if err != nil {
		return nil, err
	}
	given := 0
	for _, n := range []int64{lines, nbytes, pages} {
		if n > 0 {
			given++
		}
	}
	if given != 1 {
		return nil, repl.Raise("ValueError", "partition(): give exactly one of lines=N, bytes=N or pages=N (positive)")
	}
	act := corpus.Action{Type: corpus.ActionPartition, Strategy: corpus.StrategyLines, Size: lines}
	switch {
	case nbytes > 0:
		act.Strategy, act.Size = corpus.StrategyBytes, nbytes
	case pages > 0:
		act.Strategy, act.Size = corpus.StrategyPages, pages
	}
	_, e, err := c.host.state()
	if err != nil {
		return nil, err
	}
	v, err := e.ContextOp(call.Ctx, c.h, act)
	if err != nil {
		return nil, builtinErr("partition", err)
	}
	list, _ := v.([]any)
	out := make([]any, 0, len(list))
	for _, ch := range list {
		m, _ := ch.(map[string]any)
		hd, ok := m["handle"].(corpus.Handle)
		if !ok {
			continue
		}
		n, _ := number(m["length"])
		idx, _ := number(m["index"])
		out = append(out, &ctxText{host: c.host, h: hd, name: fmt.Sprintf("%s chunk %d", c.name, int(idx)), size: int64(n)})
	}
	return out, nil
}

// text returns the whole (sub-)context as a str (within the value bound).
func (c *ctxText) text(call *repl.Call) (any, error) {
	if len(call.Args)+len(call.Kwargs) > 0 {
		return nil, repl.Raise("TypeError", "text() takes no arguments")
	}
	var s string
	err := c.View(call.Ctx, "text", func(b []byte) error {
		s = string(b)
		return nil
	})
	return s, err
}

// files returns the files of a context of several files, as a dict of
// name to sub-context (empty for a single text).
func (c *ctxText) files(call *repl.Call) (any, error) {
	if len(call.Args)+len(call.Kwargs) > 0 {
		return nil, repl.Raise("TypeError", "files() takes no arguments")
	}
	meta, err := c.host.store.Metadata(call.Ctx, c.h)
	if err != nil {
		return nil, builtinErr("files", err)
	}
	fs := append([]corpus.FileInfo(nil), meta.Files...)
	sort.SliceStable(fs, func(i, j int) bool { return fs[i].Name < fs[j].Name })
	out := make(repl.Dict, 0, len(fs))
	for _, f := range fs {
		out = append(out, repl.KV{Key: f.Name, Value: &ctxText{host: c.host, h: f.Handle, name: fmt.Sprintf("%s.files()[%q]", c.name, f.Name), size: f.Bytes}})
	}
	return out, nil
}

// imageValue is what code holds for an image: a dict naming it (its hash,
// media type, dimensions, size); the bytes stay on the host, in h.images.
func (h *codeHost) imageValue(im model.Image) repl.Dict {
	h.imu.Lock()
	if h.images == nil {
		h.images = map[string]model.Image{}
	}
	h.images[im.SHA256] = im
	h.imu.Unlock()
	return repl.Dict{
		{Key: "image", Value: "sha256:" + im.SHA256},
		{Key: "media_type", Value: im.MediaType},
		{Key: "width", Value: int64(im.Width)},
		{Key: "height", Value: int64(im.Height)},
		{Key: "bytes", Value: int64(len(im.Data))},
	}
}

// loadImage is load_image(name): one of the run's images (Config.Images)
// as an image value.
func (h *codeHost) loadImage(c *repl.Call) (any, error) {
	a, err := args(c, "name")
	if err != nil {
		return nil, err
	}
	name, ok := a["name"].(string)
	if !ok {
		return nil, repl.Raise("TypeError", "%s(): name must be a str, not %s", c.Name, pyTypeName(a["name"]))
	}
	r, _, err := h.state()
	if err != nil {
		return nil, err
	}
	im, ok := r.e.cfg.Images.Get(name)
	if !ok {
		return nil, repl.Raise("KeyError", "%s(): no image %q (the run's images: %v)", c.Name, name, r.e.cfg.Images.Names())
	}
	return h.imageValue(im), nil
}

// imageList resolves an images= argument: a list of image values (the
// dicts load_image returns) or image names.
func (h *codeHost) imageList(fn, param string, v any) ([]model.Image, error) {
	l, err := listOf(fn, param, v)
	if err != nil {
		return nil, err
	}
	out := make([]model.Image, 0, len(l))
	for i, x := range l {
		var key string
		switch y := x.(type) {
		case map[string]any:
			key, _ = y["image"].(string)
		case repl.Dict:
			for _, kv := range y {
				if kv.Key == "image" {
					key, _ = kv.Value.(string)
				}
			}
		case string:
			r, _, err := h.state()
			if err != nil {
				return nil, err
			}
			if im, ok := r.e.cfg.Images.Get(y); ok {
				out = append(out, im)
				continue
			}
			key = y
		}
		sum, ok := strings.CutPrefix(key, "sha256:")
		h.imu.Lock()
		im, found := h.images[sum]
		h.imu.Unlock()
		if !ok || !found {
			return nil, repl.Raise("TypeError", "%s(): %s[%d] is not an image (use load_image(name))", fn, param, i)
		}
		out = append(out, im)
	}
	return out, nil
}

// pages is context.pages: the pages of a PDF context (or of the PDFs in
// a context of several files) as a list of sub-contexts, one per page in
// order, each a str of the page's text (empty for a context without
// pages).
func (c *ctxText) pages(call *repl.Call) (any, error) {
	meta, err := c.host.store.Metadata(call.Ctx, c.h)
	if err != nil {
		return nil, builtinErr("pages", err)
	}
	out := make([]any, 0, len(meta.Pages))
	for i, p := range meta.Pages {
		out = append(out, &ctxText{host: c.host, h: p.Handle, name: fmt.Sprintf("%s.pages[%d]", c.name, i), size: p.Bytes, page: true})
	}
	return out, nil
}

// image is context.pages[i].image(dpi=100): the page rendered to PNG by
// the store (cached per PDF, page and dpi), bounded and scaled like any
// image (vision.Prepare), as an image value for llm_query(images=[...]).
// It is the context operation "image" (capability context:slice).
func (c *ctxText) image(call *repl.Call) (any, error) {
	a, err := args(call, "dpi?")
	if err != nil {
		return nil, err
	}
	dpi, err := optInt("image", "dpi", a["dpi"], corpus.DefaultImageDPI)
	if err != nil {
		return nil, err
	}
	if corpus.CheckImageDPI(dpi) != nil {
		return nil, repl.Raise("ValueError", "image(): dpi must be between %d and %d, not %d", corpus.MinImageDPI, corpus.MaxImageDPI, dpi)
	}
	r, e, err := c.host.state()
	if err != nil {
		return nil, err
	}
	ctx, sp, err := meter.New(r.tracker).Context(call.Ctx, e.n.caps, meter.ContextOp{Op: corpus.ActionImage, Handle: c.h.String()})
	if err != nil {
		return nil, repl.Fatal(err)
	}
	im, err := renderPage(ctx, c.host.store, c.h, int(dpi), sp)
	sp.End(err)
	if err != nil {
		return nil, builtinErr("image", err)
	}
	return c.host.imageValue(im), nil
}

// renderPage renders page handle h at dpi through store and prepares the
// image for sending, noting the page on sp.
func renderPage(ctx context.Context, store *corpus.Store, h corpus.Handle, dpi int, sp *trace.Span) (model.Image, error) {
	pi, p, err := store.PageImage(ctx, h, dpi, vision.DefaultMaxEdge)
	if err != nil {
		return model.Image{}, err
	}
	im, err := vision.Prepare(pi.PNG, vision.Limits{})
	if err != nil {
		return model.Image{}, err
	}
	sp.SetBytes(int64(len(pi.PNG)))
	sp.Set("page", p.Page)
	sp.Set("dpi", dpi)
	sp.Set("width", im.Width)
	sp.Set("height", im.Height)
	return im, nil
}
