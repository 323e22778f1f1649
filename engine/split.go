package engine

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/plan"
	"github.com/rlm-go/rlm/trace"
)

// Sub-calls sized to the window (docs/engine.md, "Sub-calls sized to the
// window"). A sub-call (llm_query, llm_query_batched, a plan's model
// call and map items, rlm_query) whose prompt plus reserved output does
// not fit its model's window (model.Windows.Check, the run's table) is
// re-split: the prompt's instruction (splitPrompt) is kept with every
// piece of the rest, cut on line boundaries (token boundaries inside one
// huge line) into pieces that fit; each piece is asked, and the answers
// are merged by one reduce call (mergeAnswers), itself bounded the same
// way. Config.NoAutoSplit turns this off: the meter refuses the call with
// prompt_too_large.

// Names of the trace events of the re-split.
const (
	// SpanAutoSplit is the plan_step span of one re-split call
	// (attributes model, window, window_source, prompt_tokens, pieces,
	// merges, level, reason "window" or "server").
	SpanAutoSplit = "auto_split"
	// NoteWindowLearned is the note of a window corrected by a server's
	// context-length error (attributes model, before, after, stated: the
	// limit the server stated, 0 when it stated none).
	NoteWindowLearned = "window corrected"
)

// maxSplitLevel bounds the nesting of re-splits (a piece or a merge that
// is itself re-split is one level down): with pieces that shrink at each
// level, it is never reached by a prompt a window can hold.
const maxSplitLevel = 12

// splitFrame is the room kept in a piece's budget for the separators and
// what PromptTokens adds to the text (framing, role).
const splitFrame = 32

// sized sends req (one user message, prompt) if it fits its model's
// window, else re-splits it; a call admitted but refused by the server
// for its length corrects the window and is re-split once (retried).
func (v *env) sized(ctx context.Context, req model.Request, level int, retried bool) (*model.Response, error) {
	fit := v.r.windows.Check(req)
	// A call with images is never re-split (its images cannot be cut
	// into pieces, and a piece without them would answer another
	// question): it is sent as is, and the meter refuses it when it does
	// not fit.
	noSplit := v.r.e.cfg.NoAutoSplit || model.CountImages(req) > 0
	if fit.Fits() || noSplit {
		sctx := ctx
		if !retried && !noSplit {
			// A refusal for length is this call's to re-split, not a
			// fallback model's (model.WithResplit).
			sctx = model.WithResplit(ctx)
		}
		resp, err := v.send1(sctx, req)
		if err == nil || retried || noSplit || !model.IsContextLength(err) {
			return resp, err
		}
		// The table was wrong: correct the window for the rest of the
		// run, and re-split this call once.
		before := fit.Window.Window
		stated, ok := model.StatedLimit(err)
		after := stated
		if !ok || stated >= before {
			after = int(float64(before) * model.ShrinkFactor)
		}
		v.r.windows.Learn(req.Model, after)
		v.r.mu.Lock()
		v.r.splits.WindowCorrections++
		v.r.mu.Unlock()
		attrs := map[string]any{"model": req.Model, "before": before, "after": after, "stated": stated}
		trace.Emit(ctx, trace.KindNote, NoteWindowLearned, attrs, nil)
		trace.EmitLive(ctx, trace.KindNote, NoteWindowLearned, attrs)
		fit = v.r.windows.Check(req)
		room := fit.Room()
		if fit.Fits() {
			// Our count is below the server's: halve the prompt.
			room = fit.PromptTokens/2 + splitFrame
		}
		return v.split(ctx, req, fit, room, level, "server")
	}
	return v.split(ctx, req, fit, fit.Room(), level, "window")
}

// send1 makes one admitted sub-call and records it.
func (v *env) send1(ctx context.Context, req model.Request) (*model.Response, error) {
	resp, err := v.r.complete(trace.WithDepth(ctx, v.n.depth+1), v.n.depth+1, v.r.e.cfg.SubProvider, req, 0)
	v.r.subCall(ctx, v.n.depth+1, req, resp, err)
	return resp, err
}

// split re-splits req's prompt into pieces of at most room prompt tokens
// each, asks them, and merges the answers.
func (v *env) split(ctx context.Context, req model.Request, fit model.Fit, room int64, level int, reason string) (*model.Response, error) {
	prompt := req.Messages[len(req.Messages)-1].Content
	count := func(s string) int64 { return model.TextTokens(s, req.Model) }
	head, body, tail := splitPrompt(prompt, (room-splitFrame)/8, count)
	budget := room - splitFrame - count(head) - count(tail)
	if level >= maxSplitLevel || budget < 1 || body == "" {
		return nil, fit.Err().With("auto_split", "the instruction alone leaves no room for a piece")
	}
	pieces := cutPieces(body, budget, count)
	if len(pieces) < 2 && level > 0 && fit.Fits() {
		return nil, fit.Err()
	}
	ctx, sp := trace.Start(ctx, trace.KindPlanStep, SpanAutoSplit)
	sp.Set("model", req.Model)
	sp.Set("window", fit.Window.Window)
	sp.Set("window_source", fit.Source)
	sp.Set("prompt_tokens", fit.PromptTokens)
	sp.Set("pieces", len(pieces))
	sp.Set("level", level)
	sp.Set("reason", reason)
	trace.EmitLive(ctx, trace.KindNote, SpanAutoSplit, map[string]any{
		trace.AttrModel: req.Model, "window": fit.Window.Window, "prompt_tokens": int(fit.PromptTokens), "pieces": len(pieces), "reason": reason})
	v.r.mu.Lock()
	v.r.splits.Calls++
	v.r.splits.Pieces += len(pieces)
	v.r.mu.Unlock()
	answers, err := v.each(ctx, len(pieces), func(ctx context.Context, i int) (string, error) {
		resp, err := v.sized(ctx, withPrompt(req, joinParts(head, pieces[i], tail)), level+1, reason == "server")
		if err != nil {
			return "", err
		}
		return resp.Text, nil
	})
	if err != nil {
		sp.End(err)
		return nil, err
	}
	resp, merges, err := v.mergeAnswers(ctx, req, joinParts(head, tail), answers, level)
	v.r.mu.Lock()
	v.r.splits.Merges += merges
	v.r.mu.Unlock()
	sp.Set("merges", merges)
	sp.End(err)
	return resp, err
}

// each runs n calls, at most MaxStepConcurrency at once (the run's
// MaxConcurrency slots bound what is in flight), and returns their
// answers in order, or the first error (the others cancelled).
func (v *env) each(ctx context.Context, n int, f func(ctx context.Context, i int) (string, error)) ([]string, error) {
	out := make([]string, n)
	err := forEach(ctx, n, MaxStepConcurrency, func(ctx context.Context, i int) error {
		s, err := f(ctx, i)
		out[i] = s
		return err
	})
	return out, err
}

// mergeAnswers merges the answers of the pieces of one request
// (instruction: its kept head and tail) with one reduce call. When the
// merge prompt does not fit the window itself, the answers are merged in
// groups that fit and the groups' answers merged again (a tree of
// reduces). It returns the merged response and the merge calls made.
func (v *env) mergeAnswers(ctx context.Context, req model.Request, instruction string, answers []string, level int) (*model.Response, int, error) {
	if len(answers) == 1 {
		return &model.Response{Text: answers[0], FinishReason: "stop"}, 0, nil
	}
	one := withPrompt(req, mergePrompt(instruction, answers))
	fit := v.r.windows.Check(one)
	if fit.Fits() || level >= maxSplitLevel {
		resp, err := v.sized(ctx, one, level+1, false)
		return resp, 1, err
	}
	// Group the answers greedily into merges that fit.
	var groups [][]string
	for _, a := range answers {
		if k := len(groups) - 1; k >= 0 && v.r.windows.Check(withPrompt(req, mergePrompt(instruction, append(groups[k][:len(groups[k]):len(groups[k])], a)))).Fits() {
			groups[k] = append(groups[k], a)
			continue
		}
		groups = append(groups, []string{a})
	}
	if len(groups) == len(answers) {
		// No two answers fit one merge: the merge prompt is re-split as
		// any prompt (its instruction kept with every piece).
		resp, err := v.sized(ctx, one, level+1, false)
		return resp, 1, err
	}
	var (
		mu     sync.Mutex
		merges int
	)
	merged, err := v.each(ctx, len(groups), func(ctx context.Context, i int) (string, error) {
		resp, m, err := v.mergeAnswers(ctx, req, instruction, groups[i], level+1)
		mu.Lock()
		merges += m
		mu.Unlock()
		if err != nil {
			return "", err
		}
		return resp.Text, nil
	})
	if err != nil {
		return nil, merges, err
	}
	resp, m, err := v.mergeAnswers(ctx, req, instruction, merged, level+1)
	return resp, merges + m, err
}

// mergePrompt is the reduce prompt of a re-split request.
func mergePrompt(instruction string, answers []string) string {
	var b strings.Builder
	if instruction != "" {
		b.WriteString(instruction)
		b.WriteString("\n\n")
	}
	fmt.Fprintf(&b, "The text was too long for one call; the answers for its %d parts, in order:\n", len(answers))
	for i, a := range answers {
		fmt.Fprintf(&b, "\n[%d] %s\n", i+1, a)
	}
	b.WriteString("\nMerge them into one answer, as if over the whole text. Reply with the answer only.")
	return b.String()
}

// withPrompt is req with its last message's content replaced by prompt.
func withPrompt(req model.Request, prompt string) model.Request {
	msgs := append([]model.Message(nil), req.Messages...)
	msgs[len(msgs)-1].Content = prompt
	req.Messages = msgs
	return req
}

// joinParts joins the non-empty parts with a blank line.
func joinParts(parts ...string) string {
	var keep []string
	for _, p := range parts {
		if p != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, "\n\n")
}

// splitPrompt separates an oversized prompt into its instruction (head
// and tail, kept with every piece) and its context part (body, split):
//
//   - head is the prompt's first paragraph (up to its first blank line)
//     when it counts at most maxInstr tokens, else its first line when
//     that does, else nothing;
//   - tail is the last paragraph of the rest (after its last blank line)
//     when the rest has more than one paragraph and the tail counts at
//     most maxInstr tokens, else nothing;
//   - body is what is left between them.
//
// So llm_query("Summarize:\n" + text) keeps "Summarize:" with every piece
// and llm_query(text + "\n\nQuestion: ...") keeps the question.
func splitPrompt(p string, maxInstr int64, count func(string) int64) (head, body, tail string) {
	body = p
	if i := strings.Index(body, "\n\n"); i >= 0 && count(body[:i]) <= maxInstr {
		head, body = body[:i], strings.TrimLeft(body[i:], "\n")
	} else if i := strings.IndexByte(body, '\n'); i >= 0 && count(body[:i]) <= maxInstr {
		head, body = body[:i], body[i+1:]
	}
	if i := strings.LastIndex(strings.TrimRight(body, "\n"), "\n\n"); i > 0 && count(body[i:]) <= maxInstr {
		if rest := strings.TrimRight(body[:i], "\n"); rest != "" {
			body, tail = rest, strings.TrimSpace(body[i:])
		}
	}
	return head, body, tail
}

// cutPieces cuts text on line boundaries into pieces of at most budget
// tokens (counted line by line: a sum never below the whole's count); a
// line longer than budget is cut at token boundaries (cutLine).
func cutPieces(text string, budget int64, count func(string) int64) []string {
	var (
		pieces []string
		cur    strings.Builder
		used   int64
	)
	flush := func() {
		if cur.Len() > 0 {
			pieces = append(pieces, strings.TrimRight(cur.String(), "\n"))
			cur.Reset()
			used = 0
		}
	}
	for text != "" {
		line := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line = text[:i+1]
		}
		text = text[len(line):]
		n := count(line)
		if n > budget {
			flush()
			pieces = append(pieces, cutLine(line, budget, count)...)
			continue
		}
		if used+n > budget {
			flush()
		}
		cur.WriteString(line)
		used += n
	}
	flush()
	return pieces
}

// cutLine cuts one line into parts of at most budget tokens, at a space
// where there is one near the cut, else at a character boundary.
func cutLine(line string, budget int64, count func(string) int64) []string {
	var parts []string
	for line != "" {
		n := count(line)
		if n <= budget {
			parts = append(parts, line)
			break
		}
		// Start from the share of bytes the budget is of the count, and
		// shrink until the part fits.
		cut := int(int64(len(line)) * budget / n)
		for {
			cut = max(cut, 1)
			for cut < len(line) && !utf8.RuneStart(line[cut]) {
				cut--
			}
			if cut == 0 {
				_, size := utf8.DecodeRuneInString(line)
				cut = size
			}
			c := cut
			if i := strings.LastIndexByte(line[:cut], ' '); i > cut/2 {
				c = i + 1
			}
			if count(line[:c]) <= budget || cut <= 1 {
				cut = c
				break
			}
			cut = cut * 9 / 10
		}
		parts = append(parts, line[:cut])
		line = line[cut:]
	}
	return parts
}

// rlmSplit re-splits an rlm_query whose query cannot fit a child's
// prompt: more than half the room the sub-model's window leaves beside
// the reserved output (the other half is the child's system prompt and
// its turns). The query's context part is cut as a sub-call's prompt
// (splitPrompt, cutPieces), each piece is the query of one child (over
// the piece itself when the child's context was the query, else over the
// same context), and the children's answers are merged by one reduce
// call (mergeAnswers). split is false when the query fits (or with
// Config.NoAutoSplit, whose child then fails at the window).
func (v *env) rlmSplit(ctx context.Context, query string, c plan.Value) (plan.Value, bool, error) {
	if v.r.e.cfg.NoAutoSplit {
		return nil, false, nil
	}
	_, name := v.r.provider(v.n.depth + 1)
	req := model.Request{Model: name, MaxTokens: v.r.e.cfg.MaxTokens, Messages: []model.Message{{Role: model.RoleUser, Content: query}}}
	fit := v.r.windows.Check(req)
	room := fit.Room() / 2
	if fit.PromptTokens <= room {
		return nil, false, nil
	}
	count := func(s string) int64 { return model.TextTokens(s, name) }
	head, body, tail := splitPrompt(query, (room-splitFrame)/8, count)
	budget := room - splitFrame - count(head) - count(tail)
	if budget < 1 || body == "" {
		return nil, true, fit.Err().With("auto_split", "the instruction alone leaves no room for a piece")
	}
	pieces := cutPieces(body, budget, count)
	self := false
	if s, ok := c.(string); ok && s == query {
		self = true
	}
	ctx, sp := trace.Start(ctx, trace.KindPlanStep, SpanAutoSplit)
	sp.Set("model", name)
	sp.Set("window", fit.Window.Window)
	sp.Set("window_source", fit.Source)
	sp.Set("prompt_tokens", fit.PromptTokens)
	sp.Set("pieces", len(pieces))
	sp.Set("reason", "rlm_query")
	trace.EmitLive(ctx, trace.KindNote, SpanAutoSplit, map[string]any{
		trace.AttrModel: name, "window": fit.Window.Window, "prompt_tokens": int(fit.PromptTokens), "pieces": len(pieces), "reason": "rlm_query"})
	v.r.mu.Lock()
	v.r.splits.Calls++
	v.r.splits.Pieces += len(pieces)
	v.r.mu.Unlock()
	answers, err := v.each(ctx, len(pieces), func(ctx context.Context, i int) (string, error) {
		q := joinParts(head, pieces[i], tail)
		var cv plan.Value = c
		if self {
			cv = q
		}
		out, err := v.RLM(ctx, q, cv)
		if err != nil {
			return "", err
		}
		if s, ok := out.(string); ok {
			return s, nil
		}
		raw, err := plan.EncodeJSON(out)
		return string(raw), err
	})
	if err != nil {
		sp.End(err)
		return nil, true, err
	}
	resp, merges, err := v.mergeAnswers(ctx, req, joinParts(head, tail), answers, 0)
	v.r.mu.Lock()
	v.r.splits.Merges += merges
	v.r.mu.Unlock()
	sp.Set("merges", merges)
	sp.End(err)
	if err != nil {
		return nil, true, err
	}
	return resp.Text, true, nil
}
