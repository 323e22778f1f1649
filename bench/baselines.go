package bench

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/rlm-go/rlm"
	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/textcut"
	"github.com/rlm-go/rlm/meter"
	"github.com/rlm-go/rlm/model"
)

// The paper's baselines defined by a prompt (Zhang, Kraska and Khattab,
// Recursive Language Models, arXiv 2512.24601, §3.2 and Appendix C):
// the summary agent and the REPL without sub-calls. The prompts are ours
// (docs/bench.md, "Baselines").

// SummaryChunkPrompt is the system message of the summary method's
// calls that read the context one part at a time (%d: the bound of the
// notes in words, half the call's max_tokens). The user message holds
// the question, the notes so far and the next part.
const SummaryChunkPrompt = `You read a long document one part at a time for someone who will answer a question from your notes alone: they will never see the document. Each message gives you the question, your notes from the parts read so far, and the next part.

Reply with the updated notes. Keep whatever in the earlier notes can matter for the question and add what this part contributes: facts, names, numbers, dates, identifiers and short quotes, with counts and tallies kept up to date across parts. Copy figures and identifiers exactly. When the question needs every item of some kind (every record with a property, every pair), list the items rather than describing them. Do not answer the question yet. Reply with the notes only, in at most %d words.`

// SummaryAnswerPrompt is the system message of the summary method's last
// call, which answers from the notes.
const SummaryAnswerPrompt = `You answer a question about a long document you cannot see. It was read part by part and the notes below were kept; answer from them. Give the answer only, in the form the question asks for, without explanation. If the notes do not settle the question, give your best answer.`

// RLMNoSubCallsInstructions are appended to code mode's system prompt
// for the rlm-no-subcalls method (whose grant holds no model and not
// rlm: the runtime, not this text, refuses sub-calls).
const RLMNoSubCallsInstructions = `This run has no sub-model: you answer by reading and computing in code alone (searches, slices, regular expressions, counting, grouping, joining), and whatever meaning you need you infer yourself from what you print. llm_query, llm_query_batched, rlm_query and rlm_query_batched are not granted: calling one ends the run with an error.`

// CodeActInstructions are appended to the system prompt of the codeact
// method (the context in the prompt, no sub-call granted).
const CodeActInstructions = `This run has no sub-model: llm_query, llm_query_batched, rlm_query and rlm_query_batched are not granted, and calling one ends the run with an error. Answer from what you read and from what your code computes.`

// CodeActSubcallsInstructions are appended to the system prompt of the
// codeact-subcalls method (the context in the prompt, llm_query granted).
const CodeActSubcallsInstructions = `To have a sub-model read or judge a piece of text, pass that text to llm_query (or many pieces to llm_query_batched) from your code; the REPL does not hold the context, so copy the piece you need into your code. rlm_query is not granted.`

// CodeActRetrieverInstructions are appended, for a task given as
// documents (BrowseComp-Plus), to the codeact methods' instructions: the
// documents are not in the prompt and are reached by the retriever.
const CodeActRetrieverInstructions = `The documents this query is about are not in your messages. Search them with call_tool("search_documents", query="...", k=5): a BM25 ranking of the documents for the query's words, best first, a list of {"docid", "score", "text"}. Search several times with different words, print short excerpts, and read the best documents' text.`

// Bounds of the summary method.
const (
	// summaryMinNotesTokens is the least max_tokens of a note-taking call.
	summaryMinNotesTokens = 256
	// summaryMinPartTokens is the least room a part must have beside the
	// prompt and the notes: below it the window is too small to read the
	// context (prompt_too_large).
	summaryMinPartTokens = 64
	// summarySlack covers the tokens a part may add where it joins the
	// text around it in its message.
	summarySlack = 8
	// summaryBytesPerToken bounds the bytes a part is searched in: no
	// tokenizer puts more than this many bytes of text in a token on
	// average, so a part of room tokens is never longer.
	summaryBytesPerToken = 16
)

// runRLMNoSubCalls answers task with the session's engine in code mode
// without sub-calls (rlm.On.NoSubCalls): the model writes code over the
// context in the REPL, and a sub-call ends the trial with
// capability_denied. The paper's "RLM (no sub-calls)".
func runRLMNoSubCalls(ctx context.Context, sess *rlm.Session, p model.Provider, cfg Config, task *instance) Trial {
	return runEngine(ctx, sess, cfg, task, rlm.On{Mode: engine.ModeCode, NoSubCalls: true, Instructions: RLMNoSubCallsInstructions, Provider: p})
}

// runCodeAct answers task as the paper's CodeAct agent: code mode with
// the context in the root model's prompt, not in the REPL
// (rlm.On.ContextInPrompt), and no sub-call granted (subCalls false:
// codeact) or llm_query granted (codeact-subcalls; rlm_query never:
// rlm.On.NoRecursion). For codeact, a task given as documents
// (BrowseComp-Plus) puts no document in the prompt: the BM25 retriever
// search_documents over them is granted instead (the paper's "CodeAct
// (+ BM25)", whose BrowseComp-Plus score could not come from 6M-11M
// tokens in a prompt); codeact-subcalls puts them in the prompt, as the
// paper's "CodeAct (+ sub-calls)" did (0.0*, the context limit).
func runCodeAct(ctx context.Context, sess *rlm.Session, p model.Provider, cfg Config, task *instance, subCalls bool) Trial {
	on := rlm.On{Mode: engine.ModeCode, ContextInPrompt: true, NoSubCalls: !subCalls, NoRecursion: true, Instructions: CodeActInstructions, Provider: p}
	if subCalls {
		on.Instructions = CodeActSubcallsInstructions
	}
	if !subCalls && len(task.docs) > 0 {
		on.Tools = bm25Tools{ix: NewBM25Index(task.docs)}
		on.Instructions += "\n\n" + CodeActRetrieverInstructions
		t := *task
		t.context = "" // the documents are reached by the retriever only
		task = &t
	}
	return runEngine(ctx, sess, cfg, task, on)
}

// runEngine answers task with the session's engine as on says (its
// store, context, query and limits are the trial's).
func runEngine(ctx context.Context, sess *rlm.Session, cfg Config, task *instance, on rlm.On) Trial {
	start := time.Now()
	store := cfg.newStore()
	defer store.Close()
	h, done, err := task.add(ctx, store)
	if err != nil {
		return failed(err, time.Since(start))
	}
	defer done()
	on.Store, on.Context, on.Query, on.Limits = store, h, task.query, cfg.Limits
	out, err := sess.RunOn(ctx, on)
	if out == nil || out.Result == nil {
		return failed(err, time.Since(start))
	}
	res := out.Result
	tr := Trial{Usage: res.Usage, Turns: res.Turns, MaxDepth: res.Recursion.MaxDepth, LatencyMS: ms(time.Since(start)), Auto: out.Auto}
	if err != nil {
		tr.Status, tr.Error = StatusFailed, res.Error
		if tr.Error == nil {
			tr.Error = fault.Or(err, fault.PhaseExecute, fault.KindInternal, "")
		}
		tr.Answer = preview(AnswerText(res.Partial))
		return tr
	}
	return scored(ctx, tr, task, res.Answer)
}

// runSummary answers task as the paper's summary agent: when the direct
// prompt fits the root model's window, one root call holding the whole
// context (nothing needs compacting: the direct method's request);
// else the sub-model reads the context in parts that each fit its window
// and keeps running notes, and the root model answers from the notes.
// Every call goes through one meter under the trial's limits.
func runSummary(ctx context.Context, sess *rlm.Session, p model.Provider, cfg Config, task *instance) Trial {
	start := time.Now()
	lim, err := cfg.Limits.Resolve()
	if err != nil {
		return failed(err, 0)
	}
	tracker := budget.NewTracker(lim)
	callCtx := ctx
	if lim.TimeLimit > 0 { // negative: unlimited
		var cancel context.CancelFunc
		callCtx, cancel = context.WithTimeout(ctx, lim.TimeLimit)
		defer cancel()
	}
	s := summarizer{m: meter.New(tracker), p: p, windows: model.NewWindows(sess.ModelWindows()...), cfg: cfg}
	answer, err := s.answer(callCtx, task)
	if err != nil && ctx.Err() == nil && callCtx.Err() != nil {
		// The trial's own deadline cut a call: the time limit's error,
		// as an engine trial reports it.
		if terr := tracker.Spendable(); terr != nil {
			err = terr
		}
	}
	u := tracker.Usage()
	tr := Trial{Usage: u, LatencyMS: ms(time.Since(start)), Turns: s.calls}
	if err != nil {
		tr.Status, tr.Error = StatusFailed, fault.Or(err, fault.PhaseExecute, fault.KindInternal, "")
		return tr
	}
	return scored(ctx, tr, task, answer)
}

// summarizer is one summary trial's calls.
type summarizer struct {
	m       *meter.Meter
	p       model.Provider
	windows *model.Windows
	cfg     Config
	calls   int
}

func (s *summarizer) call(ctx context.Context, req model.Request) (string, error) {
	s.calls++
	resp, err := s.m.Model(ctx, meter.ModelCall{Provider: s.p, Request: req, Windows: s.windows})
	if err != nil {
		return "", err
	}
	if err := model.Refused(resp); err != nil {
		return "", err
	}
	return strings.TrimSpace(resp.Text), nil
}

func (s *summarizer) answer(ctx context.Context, task *instance) (string, error) {
	root := s.windows.Lookup(s.cfg.Model)
	direct := model.Request{Model: s.cfg.Model, Messages: rlm.DirectMessages(task.context, task.query), MaxTokens: s.cfg.MaxTokens}
	if model.PromptTokens(direct, s.cfg.Model)+int64(root.OutputReserve(s.cfg.MaxTokens)) <= int64(root.Window) {
		return s.call(ctx, direct)
	}
	notes, err := s.read(ctx, task)
	if err != nil {
		return "", err
	}
	return s.call(ctx, model.Request{Model: s.cfg.Model, MaxTokens: s.cfg.MaxTokens, Messages: []model.Message{
		{Role: model.RoleSystem, Content: SummaryAnswerPrompt},
		{Role: model.RoleUser, Content: fmt.Sprintf("Notes taken while reading the whole document (%d bytes) in order:\n%s\n\nQuestion: %s", len(task.context), notes, task.query)},
	}})
}

// read has the sub-model read the context in parts, each the longest
// that fits its window beside the prompt, the notes so far and the
// notes' max_tokens (cut at a line end when one is in its second half),
// and returns the last notes.
func (s *summarizer) read(ctx context.Context, task *instance) (string, error) {
	sub := s.cfg.SubModel
	w := s.windows.Lookup(sub)
	notesTokens := min(s.cfg.MaxTokens, max(w.Window/10, summaryMinNotesTokens))
	reserve := int64(w.OutputReserve(notesTokens))
	system := fmt.Sprintf(SummaryChunkPrompt, notesTokens/2)
	notes := "(none yet: this is the first part)"
	text := task.context
	for off, part := 0, 1; off < len(text); part++ {
		head := summaryPartMessage(task.query, notes, part, off, len(text), "")
		base := model.PromptTokens(model.Request{Messages: []model.Message{{Role: model.RoleSystem, Content: system}, {Role: model.RoleUser, Content: head}}}, sub)
		room := int64(w.Window) - reserve - base - summarySlack
		if room < summaryMinPartTokens {
			return "", fault.New(fault.PhaseExecute, model.KindPromptTooLarge, "the sub-model's window leaves no room for a part of the context beside the prompt and the notes").
				With("model", sub).With("window", w.Window).With("prompt_tokens", base).With("max_tokens", reserve).
				WithHint("use a sub-model with a larger window (--sub-model, --model-window), or a smaller max_tokens")
		}
		n := summaryPart(text[off:], room, sub)
		req := model.Request{Model: sub, MaxTokens: notesTokens, Messages: []model.Message{
			{Role: model.RoleSystem, Content: system},
			{Role: model.RoleUser, Content: summaryPartMessage(task.query, notes, part, off, len(text), text[off:off+n])},
		}}
		out, err := s.call(ctx, req)
		if err != nil {
			return "", err
		}
		if out == "" {
			out = "(no notes from this part)"
		}
		notes = out
		off += n
	}
	return notes, nil
}

// summaryPartMessage is the user message of one note-taking call over
// part (bytes off.. of total).
func summaryPartMessage(query, notes string, part, off, total int, text string) string {
	return fmt.Sprintf("Question: %s\n\nYour notes so far:\n%s\n\nPart %d (bytes %d-%d of %d):\n<<<\n%s\n>>>",
		query, notes, part, off, off+len(text), total, text)
}

// summaryPart returns the length in bytes of the longest prefix of text
// (at a character boundary; at a line end when one falls in its second
// half) that counts at most room tokens for modelName; at least one
// character.
func summaryPart(text string, room int64, modelName string) int {
	hi := len(text)
	if limit := room * summaryBytesPerToken; int64(hi) > limit {
		hi = int(limit)
	}
	if hi == len(text) && model.TextTokens(text, modelName) <= room {
		return len(text)
	}
	lo := 0
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if model.TextTokens(textcut.Prefix(text, mid), modelName) <= room {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	n := len(textcut.Prefix(text, lo))
	if n == 0 {
		// One character larger than the room: it goes alone.
		for n = 1; n < len(text) && !utf8Start(text[n]); n++ {
		}
		return n
	}
	if i := strings.LastIndexByte(text[:n], '\n'); i >= n/2 {
		return i + 1
	}
	return n
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }
