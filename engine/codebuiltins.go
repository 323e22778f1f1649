package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"sync"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/plan"
	"github.com/rlm-go/rlm/repl"
	"github.com/rlm-go/rlm/trace"
)

// Host builtins of code mode. Every one goes through the loop's env, so a
// call is admitted against the shared budget, checked against the loop's
// capabilities and traced exactly as the same operation in a plan.

// builtins returns the predeclared host names: context (and context_0..N
// for several inputs), llm_query, llm_query_batched, rlm_query,
// rlm_query_batched and call_tool.
func (h *codeHost) builtins(inputs []corpus.Handle) starlark.StringDict {
	d := starlark.StringDict{
		"llm_query":         starlark.NewBuiltin("llm_query", h.llmQuery),
		"llm_query_batched": starlark.NewBuiltin("llm_query_batched", h.llmQueryBatched),
		"rlm_query":         starlark.NewBuiltin("rlm_query", h.rlmQuery),
		"rlm_query_batched": starlark.NewBuiltin("rlm_query_batched", h.rlmQueryBatched),
		"call_tool":         starlark.NewBuiltin("call_tool", h.callTool),
	}
	for i, in := range inputs {
		c := h.contextOf(in, "context")
		if i == 0 {
			d["context"] = c
		}
		d[fmt.Sprintf("context_%d", i)] = h.contextOf(in, fmt.Sprintf("context_%d", i))
	}
	return d
}

func (h *codeHost) contextOf(in corpus.Handle, name string) *ctxValue {
	size := int64(-1)
	if b, release, err := h.store.Bytes(in); err == nil {
		size = int64(len(b))
		release()
	}
	return &ctxValue{host: h, h: in, name: name, size: size}
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
func (h *codeHost) promptText(thread *starlark.Thread, name string, v starlark.Value) (string, error) {
	switch x := v.(type) {
	case starlark.String:
		return string(x), nil
	case *ctxValue:
		_, e, ctx, err := h.state(thread)
		if err != nil {
			return "", err
		}
		s, err := e.Text(ctx, x.h)
		if err != nil {
			return "", builtinErr(name, err)
		}
		return s, nil
	}
	return "", fmt.Errorf("%s: prompt must be a string, got %s", name, v.Type())
}

func (h *codeHost) llmQuery(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var prompt starlark.Value
	var modelName starlark.Value = starlark.None
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "prompt", &prompt, "model?", &modelName); err != nil {
		return nil, err
	}
	m, err := optString(b.Name(), "model", modelName)
	if err != nil {
		return nil, err
	}
	text, err := h.promptText(thread, b.Name(), prompt)
	if err != nil {
		return nil, err
	}
	_, e, ctx, err := h.state(thread)
	if err != nil {
		return nil, err
	}
	out, err := e.Model(ctx, plan.ModelCall{Prompt: text, Model: m})
	if err != nil {
		return nil, builtinErr(b.Name(), err)
	}
	return starlark.String(out), nil
}

func optString(fn, param string, v starlark.Value) (string, error) {
	switch x := v.(type) {
	case starlark.NoneType:
		return "", nil
	case starlark.String:
		return string(x), nil
	}
	return "", fmt.Errorf("%s: %s must be a string or None, got %s", fn, param, v.Type())
}

func optConcurrency(fn string, v starlark.Value) (int, error) {
	if v == starlark.None {
		return MaxStepConcurrency, nil
	}
	n, err := starlark.AsInt32(v)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("%s: concurrency must be a positive int", fn)
	}
	return min(n, MaxStepConcurrency), nil
}

func listOf(fn, param string, v starlark.Value) ([]starlark.Value, error) {
	it, ok := v.(starlark.Iterable)
	if !ok {
		return nil, fmt.Errorf("%s: %s must be a list, got %s", fn, param, v.Type())
	}
	if _, isStr := v.(starlark.String); isStr {
		return nil, fmt.Errorf("%s: %s must be a list, got a string", fn, param)
	}
	var out []starlark.Value
	iter := it.Iterate()
	defer iter.Done()
	var x starlark.Value
	for iter.Next(&x) {
		out = append(out, x)
	}
	return out, nil
}

// fanOut runs n items with at most conc at once, in input order of
// results. A run-ending error cancels the rest and is returned; any other
// failure becomes that item's error value.
func (h *codeHost) fanOut(ctx context.Context, n, conc int, item func(ctx context.Context, i int) (starlark.Value, error), name string) ([]starlark.Value, error) {
	out := make([]starlark.Value, n)
	bctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var mu sync.Mutex
	var fatal error
	next := 0
	var wg sync.WaitGroup
	for range min(conc, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := next
				next++
				stop := fatal != nil
				mu.Unlock()
				if i >= n || stop {
					return
				}
				v, err := item(bctx, i)
				if err == nil {
					out[i] = v
					continue
				}
				if isFatal(err) {
					mu.Lock()
					// Prefer the cause over the cancellations it provoked.
					if fatal == nil || (fault.KindOf(fatal) == fault.KindCancelled && fault.KindOf(err) != fault.KindCancelled) {
						fatal = err
					}
					mu.Unlock()
					cancel()
					return
				}
				out[i] = starlark.String(fmt.Sprintf("Error: %s failed: %s", name, errText(err)))
			}
		}()
	}
	wg.Wait()
	if fatal != nil {
		if err := ctx.Err(); err != nil {
			return nil, fault.FromContext(fault.PhaseExecute, context.Cause(ctx))
		}
		return nil, fatal
	}
	return out, nil
}

func (h *codeHost) llmQueryBatched(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var prompts starlark.Value
	var concurrency, modelName starlark.Value = starlark.None, starlark.None
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "prompts", &prompts, "concurrency?", &concurrency, "model?", &modelName); err != nil {
		return nil, err
	}
	items, err := listOf(b.Name(), "prompts", prompts)
	if err != nil {
		return nil, err
	}
	conc, err := optConcurrency(b.Name(), concurrency)
	if err != nil {
		return nil, err
	}
	m, err := optString(b.Name(), "model", modelName)
	if err != nil {
		return nil, err
	}
	texts := make([]string, len(items))
	for i, p := range items {
		if texts[i], err = h.promptText(thread, b.Name(), p); err != nil {
			return nil, err
		}
	}
	_, e, ctx, err := h.state(thread)
	if err != nil {
		return nil, err
	}
	// Like a plan's map step, a fan-out that cannot fit the model-call
	// budget is refused before any call is made.
	if err := e.Admit(ctx, plan.Estimate{ModelCalls: len(texts)}); err != nil {
		return nil, repl.Fatal(err)
	}
	ctx, sp := trace.Start(ctx, trace.KindPlanStep, b.Name())
	sp.Set("items", len(texts))
	sp.Set("concurrency", conc)
	out, err := h.fanOut(ctx, len(texts), conc, func(ctx context.Context, i int) (starlark.Value, error) {
		s, err := e.Model(ctx, plan.ModelCall{Prompt: texts[i], Model: m})
		return starlark.String(s), err
	}, "llm_query")
	sp.End(err)
	if err != nil {
		return nil, repl.Fatal(err)
	}
	return starlark.NewList(out), nil
}

// childContext resolves rlm_query's context argument: a (sub-)context, a
// string, or None (the query text itself is the child's context).
func childContext(fn string, query string, v starlark.Value) (plan.Value, error) {
	switch x := v.(type) {
	case starlark.NoneType:
		return query, nil
	case starlark.String:
		return string(x), nil
	case *ctxValue:
		return x.h, nil
	}
	return nil, fmt.Errorf("%s: context must be a context, a string or None, got %s", fn, v.Type())
}

func (h *codeHost) rlmQuery(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var query string
	var c starlark.Value = starlark.None
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "query", &query, "context?", &c); err != nil {
		return nil, err
	}
	cv, err := childContext(b.Name(), query, c)
	if err != nil {
		return nil, err
	}
	_, e, ctx, err := h.state(thread)
	if err != nil {
		return nil, err
	}
	v, err := e.RLM(ctx, query, cv)
	if err != nil {
		return nil, builtinErr(b.Name(), err)
	}
	return h.toStarlark(v)
}

func (h *codeHost) rlmQueryBatched(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var queries starlark.Value
	var contexts, concurrency starlark.Value = starlark.None, starlark.None
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "queries", &queries, "contexts?", &contexts, "concurrency?", &concurrency); err != nil {
		return nil, err
	}
	qs, err := listOf(b.Name(), "queries", queries)
	if err != nil {
		return nil, err
	}
	var cs []starlark.Value
	if contexts != starlark.None {
		if cs, err = listOf(b.Name(), "contexts", contexts); err != nil {
			return nil, err
		}
		if len(cs) != len(qs) {
			return nil, fmt.Errorf("%s: %d queries but %d contexts", b.Name(), len(qs), len(cs))
		}
	}
	conc, err := optConcurrency(b.Name(), concurrency)
	if err != nil {
		return nil, err
	}
	texts := make([]string, len(qs))
	ctxs := make([]plan.Value, len(qs))
	for i, q := range qs {
		s, ok := starlark.AsString(q)
		if !ok {
			return nil, fmt.Errorf("%s: query %d is not a string", b.Name(), i)
		}
		texts[i] = s
		c := starlark.Value(starlark.None)
		if cs != nil {
			c = cs[i]
		}
		if ctxs[i], err = childContext(b.Name(), s, c); err != nil {
			return nil, err
		}
	}
	_, e, ctx, err := h.state(thread)
	if err != nil {
		return nil, err
	}
	ctx, sp := trace.Start(ctx, trace.KindPlanStep, b.Name())
	sp.Set("items", len(texts))
	sp.Set("concurrency", conc)
	out, err := h.fanOut(ctx, len(texts), conc, func(ctx context.Context, i int) (starlark.Value, error) {
		v, err := e.RLM(ctx, texts[i], ctxs[i])
		if err != nil {
			return nil, err
		}
		return h.toStarlark(v)
	}, "rlm_query")
	sp.End(err)
	if err != nil {
		return nil, repl.Fatal(err)
	}
	return starlark.NewList(out), nil
}

func (h *codeHost) callTool(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 1 {
		return nil, fmt.Errorf("call_tool: want the tool name and keyword arguments, e.g. call_tool(\"fs_read\", path=\"notes.txt\")")
	}
	name, ok := starlark.AsString(args[0])
	if !ok {
		return nil, fmt.Errorf("call_tool: the tool name must be a string")
	}
	toolArgs := map[string]any{}
	for _, kv := range kwargs {
		k, _ := starlark.AsString(kv[0])
		v, err := repl.ToGo(kv[1])
		if err != nil {
			return nil, fmt.Errorf("call_tool: argument %s: %v", k, err)
		}
		toolArgs[k] = v
	}
	_, e, ctx, err := h.state(thread)
	if err != nil {
		return nil, err
	}
	av, err := toValue(toolArgs)
	if err != nil {
		return nil, err
	}
	v, err := e.Tool(ctx, name, av)
	if err != nil {
		return nil, builtinErr(b.Name(), err)
	}
	return h.toStarlark(v)
}

// toStarlark converts a plan value (JSON numbers, handles) to a Starlark
// value; a handle becomes a sub-context.
func (h *codeHost) toStarlark(v plan.Value) (starlark.Value, error) {
	x, err := plainGo(v, h)
	if err != nil {
		return nil, err
	}
	if sv, ok := x.(starlark.Value); ok {
		return sv, nil
	}
	return repl.FromGo(x)
}

// plainGo rewrites json.Number into int64 or float64 and handles into
// context values, recursively.
func plainGo(v any, h *codeHost) (any, error) {
	switch x := v.(type) {
	case json.Number:
		if n, err := x.Int64(); err == nil {
			return n, nil
		}
		if _, ok := new(big.Int).SetString(string(x), 10); ok {
			// An integer beyond 64 bits stays exact (repl.FromGo makes it
			// a big int), as repl.ToGo hands it over.
			return x, nil
		}
		f, err := x.Float64()
		return f, err
	case corpus.Handle:
		return h.contextOf(x, "context"), nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			g, err := plainGo(e, h)
			if err != nil {
				return nil, err
			}
			if _, ok := g.(starlark.Value); ok {
				return nil, fmt.Errorf("a nested context cannot be converted")
			}
			out[i] = g
		}
		return out, nil
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			g, err := plainGo(e, h)
			if err != nil {
				return nil, err
			}
			if _, ok := g.(starlark.Value); ok {
				return nil, fmt.Errorf("a nested context cannot be converted")
			}
			out[k] = g
		}
		return out, nil
	}
	return v, nil
}

// ctxValue is a context (or sub-context) as a Starlark value. It is backed
// by the context store without copying: len, find, count, in, startswith
// scan the stored bytes; slices and splits materialize at most the
// per-prompt byte limit at once (a larger slice is a sub-context, a larger
// split an error the model sees).
type ctxValue struct {
	host *codeHost
	h    corpus.Handle
	name string
	size int64
}

var (
	_ starlark.Sliceable = (*ctxValue)(nil)
	_ starlark.HasAttrs  = (*ctxValue)(nil)
	_ starlark.Container = (*ctxValue)(nil)
	_ starlark.HasBinary = (*ctxValue)(nil)
)

func (c *ctxValue) String() string {
	return fmt.Sprintf("<%s: %d bytes, not shown; slice it (x[:1000]) or use its methods>", c.name, c.size)
}
func (c *ctxValue) Type() string         { return "context" }
func (c *ctxValue) Freeze()              {}
func (c *ctxValue) Truth() starlark.Bool { return c.size > 0 }
func (c *ctxValue) Hash() (uint32, error) {
	return 0, fmt.Errorf("unhashable type: context")
}
func (c *ctxValue) Len() int { return int(c.size) }

// op admits one context operation of capability context:OP and opens its
// span; the caller ends the span.
func (c *ctxValue) op(kind string) (*trace.Span, error) {
	r, e, ctx, err := c.host.state(nil)
	if err != nil {
		return nil, err
	}
	capName := kind
	switch kind {
	case "find", "count", "contains":
		capName = corpus.ActionSearch
	case "startswith", "endswith", "splitlines", "split", "text", "index":
		capName = corpus.ActionSlice
	}
	if cp := capability.Context(capName); !e.n.caps.Has(cp) {
		return nil, repl.Fatal(denied(cp))
	}
	if err := r.tracker.ContextOp(); err != nil {
		return nil, repl.Fatal(err)
	}
	_, sp := trace.Start(ctx, trace.KindContextOp, kind)
	sp.Set("handle", c.h.String())
	return sp, nil
}

// read admits one context operation and runs f over the context's bytes
// inside the store's guard, so a mapped file truncated during the run is a
// context_changed error (which ends the run), never a crash. f reports how
// many bytes it examined; read ends the span.
func (c *ctxValue) read(kind string, f func(data []byte) (int64, error)) error {
	sp, err := c.op(kind)
	if err != nil {
		return err
	}
	var n int64
	err = c.host.store.View(c.h, func(data []byte) error {
		var ferr error
		n, ferr = f(data)
		return ferr
	})
	sp.SetBytes(n)
	sp.End(err)
	if fe := fault.As(err); fe != nil && isFatal(fe) {
		return repl.Fatal(fe)
	}
	return err
}

func (c *ctxValue) Index(i int) starlark.Value {
	if i < 0 || int64(i) >= c.size {
		return starlark.String("")
	}
	// Reading a byte is a one-byte slice: context:slice, one context op.
	var out starlark.String
	err := c.read("index", func(data []byte) (int64, error) {
		if i < len(data) {
			out = starlark.String(data[i : i+1])
		}
		return int64(len(out)), nil
	})
	if err != nil {
		c.host.fail(unwrapFatal(err))
		return starlark.String("")
	}
	return out
}

// Slice returns text for a range up to the materialize limit, else a
// sub-context over the range. Errors cannot be returned from here: a fatal
// one stops the cell through the host.
func (c *ctxValue) Slice(start, end, step int) starlark.Value {
	if end < start && step == 1 {
		end = start
	}
	if step == 1 && end-start > c.host.limit {
		return c.subRange(start, end)
	}
	if step != 1 {
		// A stepped slice is text only: one longer than the limit is an
		// error the cell sees, never a silently shortened string.
		n := 0
		if step > 0 && end > start {
			n = (end - start + step - 1) / step
		} else if step < 0 && start > end {
			n = (start - end - step - 1) / -step
		}
		if n > c.host.limit {
			c.host.fail(fault.New(fault.PhaseExecute, KindPromptTooLarge, "a stepped slice of a context is longer than the materialize limit").With("bytes", n).With("limit", c.host.limit))
			return starlark.String("")
		}
	}
	var out starlark.String
	err := c.read(corpus.ActionSlice, func(data []byte) (int64, error) {
		if step == 1 {
			out = starlark.String(data[start:end])
			return int64(end - start), nil
		}
		var b []byte
		for i := start; (step > 0 && i < end) || (step < 0 && i > end); i += step {
			b = append(b, data[i])
		}
		out = starlark.String(b)
		return int64(len(b)), nil
	})
	if err != nil {
		c.host.fail(unwrapFatal(err))
		return starlark.String("")
	}
	return out
}

// subRange returns a sub-context over [start, end) of a range too large to
// materialize.
func (c *ctxValue) subRange(start, end int) starlark.Value {
	sp, err := c.op(corpus.ActionSlice)
	if err != nil {
		c.host.fail(unwrapFatal(err))
		return starlark.String("")
	}
	r, _, ctx, _ := c.host.state(nil)
	sub, err := c.host.store.Sub(ctx, c.h, int64(start), int64(end-start))
	sp.End(err)
	if err != nil {
		c.host.fail(err)
		return starlark.String("")
	}
	r.track(sub)
	return &ctxValue{host: c.host, h: sub, name: c.name + "[...]", size: int64(end - start)}
}

func unwrapFatal(err error) error {
	var fe *fault.Error
	if errors.As(err, &fe) {
		return fe
	}
	return err
}

// Has implements `s in context`.
func (c *ctxValue) Has(x starlark.Value) (bool, error) {
	s, ok := starlark.AsString(x)
	if !ok {
		return false, fmt.Errorf("'in <context>' requires a string, not %s", x.Type())
	}
	var found bool
	err := c.read("contains", func(data []byte) (int64, error) {
		found = bytes.Contains(data, []byte(s))
		return int64(len(data)), nil
	})
	return found, err
}

// Binary implements context + "text" and "text" + context, materializing
// the context within the limit.
func (c *ctxValue) Binary(op syntax.Token, y starlark.Value, side starlark.Side) (starlark.Value, error) {
	if op != syntax.PLUS {
		return nil, nil
	}
	s, ok := starlark.AsString(y)
	if !ok {
		return nil, nil
	}
	text, err := c.text()
	if err != nil {
		return nil, err
	}
	if side == starlark.Left {
		return starlark.String(text + s), nil
	}
	return starlark.String(s + text), nil
}

// text materializes the whole (sub-)context within the limit.
func (c *ctxValue) text() (string, error) {
	if c.size > int64(c.host.limit) {
		return "", c.tooLarge()
	}
	var text string
	err := c.read("text", func(data []byte) (int64, error) {
		text = string(data)
		return int64(len(data)), nil
	})
	return text, err
}

func (c *ctxValue) tooLarge() error {
	return fmt.Errorf("%s is %d bytes; at most %d bytes are materialized at once: slice it (%s[a:b]), search it (%s.search(...)) or split it into sub-contexts (%s.partition(lines=N) or bytes=N)",
		c.name, c.size, c.host.limit, c.name, c.name, c.name)
}

var ctxMethods = []string{"count", "endswith", "find", "partition", "rfind", "search", "split", "splitlines", "startswith", "text"}

func (c *ctxValue) AttrNames() []string { return ctxMethods }

func (c *ctxValue) Attr(name string) (starlark.Value, error) {
	if !slices.Contains(ctxMethods, name) {
		return nil, nil
	}
	return starlark.NewBuiltin(name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		return c.call(b.Name(), args, kwargs)
	}).BindReceiver(c), nil
}

func (c *ctxValue) call(name string, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	switch name {
	case "find", "rfind", "count":
		var sub string
		var start, end starlark.Value = starlark.None, starlark.None
		if err := starlark.UnpackArgs(name, args, kwargs, "sub", &sub, "start?", &start, "end?", &end); err != nil {
			return nil, err
		}
		lo, hi, err := bounds(name, start, end, int(c.size))
		if err != nil {
			return nil, err
		}
		kind := name
		if kind == "rfind" {
			kind = "find"
		}
		var n int
		err = c.read(kind, func(data []byte) (int64, error) {
			window := data[lo:hi]
			switch name {
			case "count":
				n = len(window) + 1
				if sub != "" {
					n = bytes.Count(window, []byte(sub))
				}
			case "find":
				if n = bytes.Index(window, []byte(sub)); n >= 0 {
					n += lo
				}
			default:
				if n = bytes.LastIndex(window, []byte(sub)); n >= 0 {
					n += lo
				}
			}
			return int64(len(window)), nil
		})
		if err != nil {
			return nil, err
		}
		return starlark.MakeInt(n), nil
	case "startswith", "endswith":
		var x string
		if err := starlark.UnpackPositionalArgs(name, args, kwargs, 1, &x); err != nil {
			return nil, err
		}
		var ok bool
		err := c.read(name, func(data []byte) (int64, error) {
			if name == "startswith" {
				ok = bytes.HasPrefix(data, []byte(x))
			} else {
				ok = bytes.HasSuffix(data, []byte(x))
			}
			return int64(len(x)), nil
		})
		return starlark.Bool(ok), err
	case "text":
		if err := starlark.UnpackPositionalArgs(name, args, kwargs, 0); err != nil {
			return nil, err
		}
		s, err := c.text()
		if err != nil {
			return nil, err
		}
		return starlark.String(s), nil
	case "splitlines", "split":
		var sep starlark.Value = starlark.None
		if name == "split" {
			if err := starlark.UnpackArgs(name, args, kwargs, "sep?", &sep); err != nil {
				return nil, err
			}
		} else if err := starlark.UnpackArgs(name, args, kwargs); err != nil {
			return nil, err
		}
		s, err := c.text()
		if err != nil {
			return nil, err
		}
		var parts []string
		switch {
		case name == "splitlines":
			parts = strings.Split(strings.TrimSuffix(s, "\n"), "\n")
			if s == "" {
				parts = nil
			}
			for i, p := range parts {
				parts[i] = strings.TrimSuffix(p, "\r")
			}
		case sep == starlark.None:
			parts = strings.Fields(s)
		default:
			sp, ok := starlark.AsString(sep)
			if !ok || sp == "" {
				return nil, fmt.Errorf("split: separator must be a non-empty string")
			}
			parts = strings.Split(s, sp)
		}
		out := make([]starlark.Value, len(parts))
		for i, p := range parts {
			out[i] = starlark.String(p)
		}
		return starlark.NewList(out), nil
	case "search":
		return c.search(args, kwargs)
	case "partition":
		return c.partition(args, kwargs)
	}
	return nil, fmt.Errorf("context has no method %s", name)
}

func bounds(fn string, start, end starlark.Value, n int) (int, int, error) {
	lo, hi := 0, n
	if start != starlark.None {
		v, err := starlark.AsInt32(start)
		if err != nil {
			return 0, 0, fmt.Errorf("%s: start must be an int", fn)
		}
		lo = v
	}
	if end != starlark.None {
		v, err := starlark.AsInt32(end)
		if err != nil {
			return 0, 0, fmt.Errorf("%s: end must be an int", fn)
		}
		hi = v
	}
	clamp := func(i int) int {
		if i < 0 {
			i += n
		}
		return min(max(i, 0), n)
	}
	lo, hi = clamp(lo), clamp(hi)
	if hi < lo {
		hi = lo
	}
	return lo, hi, nil
}

// search runs the store's search (literal, or RE2 with regex=True) and
// returns a list of {"line", "offset", "text"} dicts, at most max_results.
func (c *ctxValue) search(args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var pattern string
	regex := false
	maxResults := 0
	if err := starlark.UnpackArgs("search", args, kwargs, "pattern", &pattern, "regex?", &regex, "max_results?", &maxResults); err != nil {
		return nil, err
	}
	_, e, ctx, err := c.host.state(nil)
	if err != nil {
		return nil, err
	}
	v, err := e.ContextOp(ctx, c.h, corpus.Action{Type: corpus.ActionSearch, Pattern: pattern, Regex: regex})
	if err != nil {
		return nil, builtinErr("search", err)
	}
	list, _ := v.([]any)
	if maxResults > 0 && len(list) > maxResults {
		list = list[:maxResults]
	}
	out := make([]starlark.Value, 0, len(list))
	for _, m := range list {
		mm, _ := m.(map[string]any)
		d := starlark.NewDict(3)
		line, _ := plainGo(mm["index"], c.host)
		off, _ := plainGo(mm["offset"], c.host)
		lv, _ := repl.FromGo(line)
		ov, _ := repl.FromGo(off)
		tv, _ := mm["value"].(string)
		_ = d.SetKey(starlark.String("line"), lv)
		_ = d.SetKey(starlark.String("offset"), ov)
		_ = d.SetKey(starlark.String("text"), starlark.String(tv))
		out = append(out, d)
	}
	return starlark.NewList(out), nil
}

// partition splits the context into sub-contexts of N lines or about N
// bytes (cut at a line end when one is near).
func (c *ctxValue) partition(args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var lines, nbytes int
	if err := starlark.UnpackArgs("partition", args, kwargs, "lines?", &lines, "bytes?", &nbytes); err != nil {
		return nil, err
	}
	if (lines > 0) == (nbytes > 0) {
		return nil, fmt.Errorf("partition: give exactly one of lines=N or bytes=N (positive)")
	}
	a := corpus.Action{Type: corpus.ActionPartition, Strategy: corpus.StrategyLines, Size: int64(lines)}
	if nbytes > 0 {
		a.Strategy, a.Size = corpus.StrategyBytes, int64(nbytes)
	}
	_, e, ctx, err := c.host.state(nil)
	if err != nil {
		return nil, err
	}
	v, err := e.ContextOp(ctx, c.h, a)
	if err != nil {
		return nil, builtinErr("partition", err)
	}
	list, _ := v.([]any)
	out := make([]starlark.Value, 0, len(list))
	for _, ch := range list {
		m, _ := ch.(map[string]any)
		h, ok := m["handle"].(corpus.Handle)
		if !ok {
			continue
		}
		n, _ := number(m["length"])
		idx, _ := number(m["index"])
		out = append(out, &ctxValue{host: c.host, h: h, name: fmt.Sprintf("%s chunk %d", c.name, int(idx)), size: int64(n)})
	}
	return starlark.NewList(out), nil
}
