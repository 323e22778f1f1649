package engine

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/textcut"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/plan"
	"github.com/rlm-go/rlm/repl"
	"github.com/rlm-go/rlm/trace"
)

// Compaction configures the root loop's history compaction (Config.
// Compaction; docs/engine.md, "Compaction"). Before each root call the
// conversation's prompt is counted as model.PromptTokens counts it (a
// worst case); when it reaches At of the root model's context window
// (Config.ContextWindow), or when it and the reply's max_tokens
// (Config.MaxTokens) would not fit the window, whichever comes first (the
// limit: the prompt may take min(floor(At×window)-1, window-MaxTokens)
// tokens), the older turns are replaced by one summary written by the
// root model (CompactionPrompt), added to the query message after its
// text. The system prompt, the query, the last KeepTurns turns and a
// listing of the loop's variables (in code mode the REPL's) are kept.
type Compaction struct {
	// Off turns compaction off: a root prompt that cannot fit the window
	// with the reply's max_tokens then fails before it is sent (Kind
	// prompt_too_large). At and KeepTurns are ignored.
	Off bool
	// At is the share of the window (above 0, at most 1) the prompt
	// reaches before it is compacted (0: DefaultCompactAt).
	At float64
	// KeepTurns is how many of the last turns are kept as they are (0:
	// DefaultKeepTurns; negative: none). Fewer are kept when those would
	// take more than half of the room the limit leaves after the system
	// prompt and the query with the summary, and at least one turn is
	// always replaced.
	KeepTurns int
}

// Compaction defaults and bounds.
const (
	// DefaultCompactAt is the share of the root model's window at which
	// the root conversation is compacted.
	DefaultCompactAt = 0.8
	// DefaultKeepTurns is how many of the last turns compaction keeps.
	DefaultKeepTurns = 4
	// CompactVarsBytes bounds the variable listing of a summary message.
	CompactVarsBytes = 2 << 10
	// compactMinSummaryTokens is the least max_tokens of a summary call.
	compactMinSummaryTokens = 256
	// compactSlack covers the tokens a summary's text may add where it
	// joins the text around it in its message.
	compactSlack = 8
)

// NoteCompaction names the trace span of one compaction (trace.KindNote;
// its model_call children are the summary calls). Its attributes:
// tokens_before and tokens_after (the prompt as model.PromptTokens counts
// it), window, threshold, turns_replaced, first_turn and last_turn (the
// turns the summary now stands for, from turn 1), turns_kept,
// summary_calls and compaction (1 for the run's first); under
// Config.TraceContent also summary (its text, bounded and redacted).
const NoteCompaction = "compaction"

// CompactionPrompt is the system message of a summary call; %d is a bound
// in words (half the call's max_tokens). The user message holds the
// query, the summary written before (if any) and the turns to replace.
const CompactionPrompt = `You compact the history of a Recursive Language Model session. A root model is answering a query about a large context it never reads whole; it works in turns, each turn being its reply (code or a plan) and the observation the runtime sent back. The older turns below are being replaced by your summary, to keep the conversation within the model's context window; the model will continue from your summary, the most recent turns and its variables, which stay defined.

Write the summary the model needs to continue: what it has found (facts, counts, names, identifiers, positions in the context, partial results), which variables hold what, what it tried that failed and why, and what remains to do. Copy numbers, identifiers and quoted strings exactly. Do not answer the query, do not write code or plans, and add nothing the turns do not show. Reply with the summary only, in at most %d words.`

func (c Compaction) at() float64 {
	if c.At == 0 {
		return DefaultCompactAt
	}
	return c.At
}

func (c Compaction) keep() int {
	switch {
	case c.KeepTurns == 0:
		return DefaultKeepTurns
	case c.KeepTurns < 0:
		return 0
	}
	return c.KeepTurns
}

// check refuses an At outside (0, 1] and a negative window.
func (c Compaction) check(window int) error {
	if math.IsNaN(c.At) || c.At < 0 || c.At > 1 {
		return fault.New(fault.PhaseConfig, fault.KindInvalidConfig, "compaction threshold out of range").With("field", "compact_at").With("value", c.At).
			WithHint("give a share of the window above 0 and at most 1 (--compact-at 0.8), or turn compaction off (--no-compaction)")
	}
	if window < 0 {
		return fault.New(fault.PhaseConfig, fault.KindInvalidConfig, "negative context window").With("field", "context_window").With("value", window).
			WithHint("give the root model's window in tokens, or 0 for the model table's")
	}
	return nil
}

// windowEntries are the host's entries of the run's model table:
// ModelWindows, then ContextWindow's entry for the root model.
func (c Config) windowEntries() []model.Info {
	entries := append([]model.Info(nil), c.ModelWindows...)
	if c.ContextWindow > 0 && c.Model != "" {
		entries = append(entries, model.Info{Prefix: c.Model, Window: c.ContextWindow})
	}
	return entries
}

// rootWindow is the root model's context window in tokens, as the run's
// model table has it (ContextWindow, a host entry, the shipped table, a
// window learned from the server, else model.DefaultContextWindow), and
// whether anybody knows it: a window nobody gave is only compaction's
// guess, never a reason to refuse a prompt before the server says.
func (r *run) rootWindow() (window int, known bool) {
	w := r.windows.Lookup(r.e.cfg.Model)
	return w.Window, w.Source != model.SourceDefault
}

// history is what the root loop knows of its conversation between
// turns: the query message as it was, the summary that follows it in
// msgs[1] after a compaction and which turns it stands for. msgs[0] is the system prompt, msgs[1] the query (and
// summary), and each turn from msgs[2] on is two messages.
type history struct {
	query       string // the query message's content before any summary
	summary     string // the summary text (empty: none yet)
	replaced    int    // turns 1..replaced are in the summary
	compactions int
}

// firstTurn is the index of the first turn's message.
const firstTurn = 2

// messageTokens counts one message as model.PromptTokens counts it within
// a request (its text and its framing; PromptTokens is the sum of these
// and the reply's framing).
func messageTokens(m model.Message, modelName string) int64 {
	return model.PromptTokens(model.Request{Messages: []model.Message{m}}, modelName) - replyFrame
}

// replyFrame is what model.PromptTokens counts for a request without
// messages (the reply's priming).
var replyFrame = model.PromptTokens(model.Request{}, "")

// promptTokens counts msgs as model.PromptTokens does (which remembers
// the counts of long texts it has counted: a growing conversation
// recounts only its new messages).
func promptTokens(msgs []model.Message, modelName string) int64 {
	return model.PromptTokens(model.Request{Messages: msgs}, modelName)
}

// rootTooLarge is the root loop's window check: the prompt of size tokens
// and the reply's max_tokens (reserve) must fit the window, else the
// call fails before it is sent with prompt_too_large (detail model,
// window, prompt_tokens, max_tokens). compacted says whether compaction
// already ran (the kept part alone does not fit) or was off.
func rootTooLarge(modelName string, window int, size, reserve int64, compacted bool) error {
	if size+reserve <= int64(window) {
		return nil
	}
	hint := "compaction is off: turn it on (drop --no-compaction; --compact-at sets its threshold), or give the model's real window (--context-window)"
	if compacted {
		hint = "even compacted, the system prompt, the query and the variable listing leave no room: use a model with a larger window (--context-window), a shorter query, or a smaller max_tokens"
	}
	return fault.New(fault.PhaseExecute, model.KindPromptTooLarge, "the root prompt does not fit the root model's context window").
		With("model", modelName).With("window", window).With("prompt_tokens", size).With("max_tokens", reserve).
		With("size", size+reserve).WithHint(hint)
}

// fitRoot prepares the root conversation for turn's call: it returns
// msgs when they fit under the threshold, or compacted (see Compaction),
// or fails with prompt_too_large when they cannot fit the window. Loops
// below the root are left as they are. vars lists the loop's variables
// for the summary message. prompt is the returned conversation's tokens
// as promptTokens counts them, which the meter admits the turn's call
// with (meter.ModelCall.PromptTokens) instead of counting them again; 0
// below the root, where nothing is counted.
func (r *run) fitRoot(ctx context.Context, n node, p model.Provider, modelName string, turn int, msgs []model.Message, h *history, vars func() string) (out []model.Message, prompt int64, err error) {
	if n.depth != 0 {
		return msgs, 0, nil
	}
	c := r.e.cfg.Compaction
	window, known := r.rootWindow()
	reserve := int64(r.e.cfg.MaxTokens)
	size := promptTokens(msgs, modelName)
	if c.Off {
		if !known {
			return msgs, size, nil // the server says (the meter learns from it)
		}
		return msgs, size, rootTooLarge(modelName, window, size, reserve, false)
	}
	threshold := int64(math.Floor(c.at() * float64(window)))
	limit := min(threshold-1, int64(window)-reserve)
	if size <= limit {
		return msgs, size, nil
	}
	turns := (len(msgs) - firstTurn) / 2
	if turns == 0 {
		// Nothing to replace: the system prompt and the query alone.
		if !known {
			return msgs, size, nil
		}
		return msgs, size, rootTooLarge(modelName, window, size, reserve, true)
	}
	return r.compact(ctx, p, modelName, turn, msgs, h, vars, compactBounds{window: window, known: known, threshold: threshold, limit: limit, reserve: reserve, before: size})
}

type compactBounds struct {
	window                    int
	known                     bool // the window is not only DefaultContextWindow's guess
	threshold, limit, reserve int64
	before                    int64 // the prompt's tokens before compaction
}

// summaryTokens is the max_tokens of a summary call: a tenth of the
// window, at least compactMinSummaryTokens, at most Config.MaxTokens.
func (r *run) summaryTokens(window int) int64 {
	return int64(min(r.e.cfg.MaxTokens, max(window/10, compactMinSummaryTokens)))
}

// compact replaces the turns before the last kept ones (and the summary
// before them) by one summary, added to the query message, as one traced
// compaction. prompt is out's tokens (promptTokens).
func (r *run) compact(ctx context.Context, p model.Provider, modelName string, turn int, msgs []model.Message, h *history, vars func() string, b compactBounds) (out []model.Message, prompt int64, err error) {
	ctx, sp := trace.Start(ctx, trace.KindNote, NoteCompaction)
	if r.live {
		setLive(sp, Event{Turn: turn, Model: modelName})
	}
	sp.Set("compaction", h.compactions+1)
	sp.Set("window", b.window)
	sp.Set("threshold", b.threshold)
	sp.Set("tokens_before", b.before)
	defer func() { sp.End(err) }()

	if h.query == "" {
		h.query = msgs[1].Content
	}
	turns := (len(msgs) - firstTurn) / 2
	sumTokens := r.summaryTokens(b.window)
	listing := vars()
	// The system prompt, and the query message with the summary at its
	// largest: its text cut to sumTokens.
	head := replyFrame + messageTokens(msgs[0], modelName) +
		messageTokens(model.Message{Role: model.RoleUser, Content: withSummary(h.query, "", h.replaced+turns, turn, listing)}, modelName) + sumTokens + compactSlack
	kept := func(k int) int64 {
		return promptTokens(msgs[len(msgs)-2*k:], modelName) - replyFrame
	}
	// The most turns (at most the configured number, at least one turn
	// replaced) that take at most half of the room the limit leaves after
	// the system prompt, the query and the summary, so that the turns
	// after the compaction have the other half.
	k := min(r.e.cfg.Compaction.keep(), turns-1)
	for k > 0 && kept(k) > (b.limit-head)/2 {
		k--
	}
	if err := rootTooLarge(modelName, b.window, head, b.reserve, true); err != nil {
		if !b.known {
			return msgs, b.before, nil // a guessed window: the server says
		}
		return msgs, b.before, err
	}
	last := h.replaced + turns - k
	sp.Set("first_turn", 1)
	sp.Set("last_turn", last)
	sp.Set("turns_replaced", turns-k)
	sp.Set("turns_kept", k)
	summary, calls, err := r.summarize(ctx, p, modelName, h.query, h.summary, h.replaced, msgs[firstTurn:len(msgs)-2*k], h.replaced+1, sumTokens, b.window)
	sp.Set("summary_calls", calls)
	if err != nil {
		return msgs, b.before, err
	}
	if r.e.cfg.TraceContent {
		sp.Set("summary", shown(summary, TraceContentBytes))
	}
	out = make([]model.Message, 0, firstTurn+2*k)
	out = append(out, msgs[0], model.Message{Role: model.RoleUser, Content: withSummary(h.query, summary, last, turn-1, listing)})
	out = append(out, msgs[len(msgs)-2*k:]...)
	h.summary, h.replaced = summary, last
	h.compactions++
	after := promptTokens(out, modelName)
	sp.Set("tokens_after", after)
	if !b.known {
		return out, after, nil
	}
	return out, after, rootTooLarge(modelName, b.window, after, b.reserve, true)
}

// summarize asks the root model for the summary of prev (the summary of
// turns 1..prevTurns, if any) and the turns held by pairs (an assistant
// reply and the observation after it, turn first onward), in as many
// calls as the window needs: each call's prompt and max_tokens fit the
// window, and its summary is carried into the next.
func (r *run) summarize(ctx context.Context, p model.Provider, modelName, query, prev string, prevTurns int, pairs []model.Message, first int, sumTokens int64, window int) (string, int, error) {
	system := fmt.Sprintf(CompactionPrompt, sumTokens/2)
	room := int64(window) - sumTokens
	calls := 0
	for i := 0; i < len(pairs); {
		intro := summaryIntro(query, prev, prevTurns)
		base := model.PromptTokens(model.Request{Messages: []model.Message{{Role: model.RoleSystem, Content: system}, {Role: model.RoleUser, Content: intro}}}, modelName)
		if base >= room {
			return "", calls, rootTooLarge(modelName, window, base, sumTokens, true)
		}
		var body strings.Builder
		used, taken := base, 0
		for ; i < len(pairs)-1; i += 2 {
			part := turnText(first+i/2, pairs[i].Content, pairs[i+1].Content)
			t := model.TextTokens(part, modelName)
			if used+t > room {
				if taken > 0 {
					break
				}
				// One turn larger than the room on its own: its first
				// part, cut to fit.
				part = cutTokens(part, room-used, modelName)
				t = model.TextTokens(part, modelName)
			}
			body.WriteString(part)
			used += t
			taken++
		}
		req := model.Request{Model: modelName, MaxTokens: int(sumTokens), Messages: []model.Message{
			{Role: model.RoleSystem, Content: system},
			{Role: model.RoleUser, Content: intro + body.String()},
		}}
		calls++
		resp, err := r.complete(ctx, 0, p, req, 0)
		if err != nil {
			return "", calls, err
		}
		if err := model.Refused(resp); err != nil {
			return "", calls, err
		}
		text := strings.TrimSpace(resp.Text)
		if text == "" {
			text = "[the summary call returned no text]"
		}
		prev = cutTokens(text, sumTokens, modelName)
		prevTurns = first + i/2 - 1
	}
	return prev, calls, nil
}

// summaryIntro opens a summary call's user message.
func summaryIntro(query, prev string, prevTurns int) string {
	s := "The session's " + query + "\n\n"
	if prev != "" {
		s += fmt.Sprintf("[summary of turns 1-%d, written earlier]\n%s\n\n", prevTurns, prev)
	}
	return s
}

// turnText is one turn as a summary call reads it.
func turnText(turn int, reply, observation string) string {
	return fmt.Sprintf("[turn %d: the model's reply]\n%s\n[turn %d: the observation]\n%s\n\n", turn, reply, turn, observation)
}

// withSummary is the query message followed by the summary that stands
// for turns 1..last, with the variables as they are after turn now. The
// summary joins the query's message rather than following it as a
// message of its own, so that user and assistant messages still
// alternate (some chat templates refuse two user messages in a row).
func withSummary(query, summary string, last, now int, listing string) string {
	var b strings.Builder
	b.WriteString(query)
	fmt.Fprintf(&b, "\n\n[History compacted: turns 1-%d are replaced by this summary to keep the conversation within the model's context window. The system prompt, the query and the turns after turn %d are as they were.]\n\nSummary of turns 1-%d:\n%s\n", last, last, last, summary)
	if listing != "" {
		fmt.Fprintf(&b, "\nYour variables after turn %d (still defined):\n%s", now, listing)
	}
	return b.String()
}

// cutTokens returns the longest byte prefix of text (with a cut mark)
// that counts at most n tokens for modelName.
func cutTokens(text string, n int64, modelName string) string {
	if model.TextTokens(text, modelName) <= n {
		return text
	}
	const mark = "\n[… cut]"
	lo, hi := 0, len(text)
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if model.TextTokens(textcut.Prefix(text, mid)+mark, modelName) <= n {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return textcut.Prefix(text, lo) + mark
}

// varsListing renders lines (one per variable) bounded by
// CompactVarsBytes, naming how many were left out.
func varsListing(lines []string, more string) string {
	var b strings.Builder
	for i, l := range lines {
		if b.Len()+len(l)+1 > CompactVarsBytes {
			fmt.Fprintf(&b, "... and %d more (%s)\n", len(lines)-i, more)
			break
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}

// codeVarsListing lists the REPL's variables as SHOW_VARS prints them
// (name: type = preview); an interpreter that does not list them here
// (pyodide) is named instead.
func codeVarsListing(it cellRunner) string {
	v, ok := it.(interface{ Vars() []repl.Var })
	if !ok {
		return "(the interpreter keeps them; SHOW_VARS() lists them)\n"
	}
	var lines []string
	for _, x := range v.Vars() {
		lines = append(lines, fmt.Sprintf("%s: %s = %s", x.Name, x.Type, x.Preview))
	}
	return varsListing(lines, "SHOW_VARS() lists them all")
}

// planVarsListing lists a plan session's variables (name = preview).
func planVarsListing(sess *plan.Session) string {
	var lines []string
	for _, name := range sess.Names() {
		lines = append(lines, fmt.Sprintf("%s = %s", name, plan.Preview(sessVar(sess, name), 80)))
	}
	return varsListing(lines, "refer to them by name")
}
