package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/textcut"
	"github.com/rlm-go/rlm/meter"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/plan"
	"github.com/rlm-go/rlm/trace"
)

// env implements plan.Env for one loop: every operation is admitted against
// the shared budget, checked against the loop's capabilities, and traced.
type env struct {
	r *run
	n node
}

var _ plan.Env = (*env)(nil)

// ContextOp runs one context-store operation.
func (v *env) ContextOp(ctx context.Context, h corpus.Handle, a corpus.Action) (plan.Value, error) {
	ctx, sp, err := meter.New(v.r.tracker).Context(ctx, v.n.caps, meter.ContextOp{Op: a.Type, Handle: h.String()})
	if err != nil {
		return nil, err
	}
	if a.Type == corpus.ActionSearch {
		// The pattern is plan structure, bounded; trace view shows it.
		sp.Set("pattern", textcut.Prefix(a.Pattern, 120))
		if a.Regex {
			sp.Set("regex", true)
		}
	}
	if a.Type == corpus.ActionPartition {
		a.WithHandles = true
	}
	if a.Type == corpus.ActionImage {
		return v.pageImage(ctx, sp, h, a)
	}
	res, err := v.r.e.cfg.Store.Do(ctx, h, a, v.r.e.cfg.ContextLimits)
	if err == nil {
		sp.SetBytes(res.Accounting.BytesInspected)
		sp.Set("bytes_returned", res.Accounting.BytesReturned)
		sp.Set("items", res.Accounting.ItemsInspected)
		sp.Set("truncated", res.Truncated)
	}
	sp.End(err)
	if err != nil {
		return nil, err
	}
	if chunks, ok := res.Value.([]corpus.Chunk); ok {
		out := make([]any, len(chunks))
		for i, c := range chunks {
			m := map[string]any{"index": c.Index, "start": c.Start, "length": c.Length}
			if c.Handle != nil {
				v.r.track(*c.Handle)
				m["handle"] = *c.Handle
			}
			if c.Text != nil {
				m["text"] = *c.Text
			}
			out[i] = m
		}
		return out, nil
	}
	return toValue(res.Value)
}

// toValue converts a Go result into a plan value through JSON.
func toValue(x any) (plan.Value, error) {
	raw, err := json.Marshal(x)
	if err != nil {
		return nil, fault.Wrap(err, fault.PhaseExecute, fault.KindInternal, "result is not JSON-encodable")
	}
	return decodeValue(raw)
}

// decodeValue decodes JSON into a normalized plan value.
func decodeValue(raw []byte) (plan.Value, error) {
	var x any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&x); err != nil {
		return nil, fault.Wrap(err, fault.PhaseExecute, fault.KindMalformed, "result is not valid JSON")
	}
	return plan.Normalize(x)
}

// Text materializes the text of a handle, bounded by the prompt limit.
func (v *env) Text(ctx context.Context, h corpus.Handle) (string, error) {
	// Reading a handle's raw text is a slice of it: it needs context:slice
	// and counts as one context operation.
	_, sp, err := meter.New(v.r.tracker).Context(ctx, v.n.caps, meter.ContextOp{Op: "text", Handle: h.String()})
	if err != nil {
		return "", err
	}
	s, err := v.r.e.cfg.Store.Text(h, v.r.e.cfg.PromptBytes)
	sp.SetBytes(int64(len(s)))
	sp.End(err)
	if err != nil {
		if fault.KindOf(err) == corpus.KindOutputTooLarge {
			return "", fault.Wrap(err, fault.PhaseExecute, model.KindPromptTooLarge, "the text of a handle exceeds the per-prompt byte limit").With("limit", v.r.e.cfg.PromptBytes)
		}
		return "", err
	}
	return s, nil
}

// Model makes one sub-model call (llm_query) with the prompt as a single
// user message.
func (v *env) Model(ctx context.Context, call plan.ModelCall) (string, error) {
	resp, err := v.modelCall(ctx, call)
	if err != nil {
		return "", err
	}
	return resp.Text, nil
}

// modelCall is Model with the whole response (its finish reason).
func (v *env) modelCall(ctx context.Context, call plan.ModelCall) (*model.Response, error) {
	name := call.Model
	if name == "" {
		name = v.r.e.cfg.SubModel
	}
	if !v.n.caps.Has(capability.Model(name)) {
		return nil, denied(capability.Model(name))
	}
	images := call.Images
	for i, ref := range call.ImageRefs {
		im, ok := v.r.e.cfg.Images.Resolve(ref)
		if !ok {
			im, ok = v.r.pageImage(ref)
		}
		if !ok {
			return nil, fault.New(fault.PhaseExecute, plan.KindTypeError, fmt.Sprintf("images[%d] names no image of the run", i)).
				With("index", i).With("images", v.r.e.cfg.Images.Names()).
				WithHint("name one of the run's images (the context's listing), or pass an image value")
		}
		images = append(images, im)
	}
	req := model.Request{Model: name, Messages: []model.Message{{Role: model.RoleUser, Content: call.Prompt, Images: images}}}
	applyOptions(&req, call.Options)
	if req.MaxTokens == 0 {
		req.MaxTokens = v.r.e.cfg.MaxTokens
	}
	// Admitted against the model's window, re-split when it cannot fit
	// (split.go).
	return v.sized(ctx, req, 0, false)
}

// applyOptions copies the closed set of model options a plan may set.
// Anything else is ignored: a plan never sets headers, keys or endpoints.
func applyOptions(req *model.Request, opts map[string]any) {
	if n, ok := number(opts["max_tokens"]); ok && n > 0 {
		req.MaxTokens = int(n)
	}
	if t, ok := number(opts["temperature"]); ok && t >= 0 && t <= 2 {
		req.Temperature = &t
	}
	if e, ok := opts["reasoning_effort"].(string); ok {
		switch e {
		case "low", "medium", "high":
			req.ReasoningEffort = e
		}
	}
}

func number(x any) (float64, bool) {
	switch n := x.(type) {
	case int64:
		return float64(n), true
	case float64:
		return n, true
	case int:
		return float64(n), true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	}
	return 0, false
}

// RLM runs a recursive child loop over a sub-context with narrowed
// capabilities at depth + 1.
func (v *env) RLM(ctx context.Context, query string, c plan.Value) (plan.Value, error) {
	if !v.n.caps.Has(capability.RLM) {
		return nil, denied(capability.RLM)
	}
	depth := v.n.depth + 1
	if err := v.r.tracker.Depth(depth); err != nil {
		return nil, err
	}
	if out, split, err := v.rlmSplit(ctx, query, c); split {
		return out, err
	}
	var h corpus.Handle
	switch x := c.(type) {
	case corpus.Handle:
		h = x
	case string:
		var err error
		h, err = v.r.e.cfg.Store.AddString("rlm-subcontext", x)
		if err != nil {
			return nil, err
		}
		v.r.track(h)
	default:
		return nil, fault.New(fault.PhaseExecute, plan.KindTypeError, "an rlm context must be a handle or a string").With("got", fmt.Sprintf("%T", c))
	}
	fp := v.r.fingerprintOf(ctx, query, h)
	if slices.Contains(v.n.ancestors, fp) {
		return nil, fault.New(fault.PhaseValidate, KindRecursiveCycle, "a child would repeat an ancestor's query over the same context").With("fingerprint", fp)
	}
	v.r.mu.Lock()
	v.r.rstats.RecursiveCalls++
	v.r.rstats.MaxDepth = max(v.r.rstats.MaxDepth, depth)
	v.r.rstats.Fingerprints = append(v.r.rstats.Fingerprints, fp)
	v.r.mu.Unlock()

	childCaps := v.n.childCaps
	child := node{
		depth: depth, query: query, input: h,
		caps:      childCaps,
		childCaps: childCaps,
		ancestors: append(slices.Clone(v.n.ancestors), fp),
	}
	cctx, sp := trace.Start(trace.WithDepth(ctx, depth), trace.KindChild, fmt.Sprintf("depth %d", depth))
	sp.Set("handle", h.String())
	if v.r.e.cfg.TraceContent {
		sp.Set("query", shown(query, TraceContentBytes))
	}
	var ans answer
	value, err := v.r.exec.Child(cctx, Call{Kind: CallChild, Depth: depth, Turn: turnOf(ctx), Fingerprint: fp}, func(cctx context.Context) (any, error) {
		var err error
		ans, err = v.r.loop(cctx, child)
		return ans.value, err
	})
	sp.Set("turns", ans.turns)
	if err == nil && v.r.e.cfg.TraceContent {
		sp.Set("answer", traceAnswer(ans.value))
	}
	sp.End(err)
	if err != nil {
		return nil, err
	}
	return value, nil
}

// Tool calls a registered tool through the tool runtime.
func (v *env) Tool(ctx context.Context, name string, args plan.Value) (plan.Value, error) {
	if v.r.e.cfg.Tools == nil {
		return nil, fault.New(fault.PhaseTool, KindToolUnavailable, "no tool runtime is configured").With("tool", name)
	}
	if !v.n.caps.Has(capability.Tool(name)) {
		return nil, denied(capability.Tool(name))
	}
	if err := v.r.tracker.ToolCall(); err != nil {
		return nil, err
	}
	raw, err := plan.EncodeJSON(args)
	if err != nil {
		return nil, fault.Wrap(err, fault.PhaseExecute, plan.KindTypeError, "tool arguments are not JSON-encodable")
	}
	release, err := v.r.tracker.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	out, err := v.r.exec.Tool(ctx, Call{Kind: CallTool, Depth: v.n.depth, Turn: turnOf(ctx)}, name, json.RawMessage(raw), func(ctx context.Context) (json.RawMessage, error) {
		// A run the tool starts spends from this run's budget.
		return v.r.e.cfg.Tools.Call(budget.WithTracker(ctx, v.r.tracker, v.n.depth), v.n.caps, name, json.RawMessage(raw))
	})
	if err != nil {
		v.r.notePending(err)
		return nil, err
	}
	return decodeValue(out)
}

// EndsRun reports the engine's run-ending errors (isFatal) to the plan
// runner, so map and retry neither isolate nor retry them: an approval, a
// denial, a cycle or a changed context ends the run wherever it arises.
func (v *env) EndsRun(err error) bool {
	return fault.As(err) != nil && isFatal(err)
}

var _ plan.RunEnder = (*env)(nil)

// Checkpoint records a labelled checkpoint in the trace.
func (v *env) Checkpoint(ctx context.Context, label string, vars map[string]plan.Value) error {
	trace.Emit(ctx, trace.KindNote, "checkpoint "+label, map[string]any{"vars": slices.Sorted(maps.Keys(vars))}, nil)
	return nil
}

// Admit refuses a fan-out whose estimated cost exceeds what is left of
// the run's budget and of any calling run's.
func (v *env) Admit(ctx context.Context, est plan.Estimate) error {
	return v.r.tracker.Fits(est.MinModelCalls(), est.ToolCalls, est.ContextOps)
}

// denied is the error of an operation whose capability c is not granted
// (meter.Denied, the one spelling of it).
func denied(c capability.Cap) error { return meter.Denied(c) }

// pageImage runs a plan's image action: page handle h rendered at a.DPI
// (see renderPage), held by the run for later model steps, as an image
// value {"image": "sha256:...", "media_type", "width", "height",
// "bytes", "page", "dpi"}.
func (v *env) pageImage(ctx context.Context, sp *trace.Span, h corpus.Handle, a corpus.Action) (plan.Value, error) {
	dpi := a.DPI
	if dpi == 0 {
		dpi = corpus.DefaultImageDPI
	}
	if err := corpus.CheckImageDPI(dpi); err != nil {
		sp.End(err)
		return nil, err
	}
	im, err := renderPage(ctx, v.r.e.cfg.Store, h, int(dpi), sp)
	sp.End(err)
	if err != nil {
		return nil, err
	}
	p, _ := v.r.e.cfg.Store.PageOf(h)
	v.r.mu.Lock()
	if v.r.pageImages == nil {
		v.r.pageImages = map[string]model.Image{}
	}
	v.r.pageImages[im.SHA256] = im
	v.r.mu.Unlock()
	return toValue(map[string]any{
		"image": "sha256:" + im.SHA256, "media_type": im.MediaType, "width": im.Width, "height": im.Height,
		"bytes": len(im.Data), "page": p.Page, "dpi": dpi,
	})
}

// pageImage returns the page image an image value of the run's plan
// names ({"image": "sha256:..."} or "sha256:...").
func (r *run) pageImage(ref any) (model.Image, bool) {
	var key string
	switch x := ref.(type) {
	case string:
		key = x
	case map[string]any:
		key, _ = x["image"].(string)
	}
	sum, ok := strings.CutPrefix(key, "sha256:")
	if !ok {
		return model.Image{}, false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	im, ok := r.pageImages[sum]
	return im, ok
}
