package engine

import (
	"context"
	"iter"
	"strings"

	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/textcut"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/plan"
	"github.com/rlm-go/rlm/trace"
)

// EventKind names what an Event reports.
type EventKind string

// The kinds of engine events.
const (
	// EventTurn: one turn of a completion loop ended (at any depth): the
	// model's reply, what became of it, and the observation fed back.
	EventTurn EventKind = "turn"
	// EventSubCall: one model step (llm_query) of a plan ended.
	EventSubCall EventKind = "sub_call"
	// EventDelta: a piece of a root reply arrived from a streamed
	// response (see Config.Stream).
	EventDelta EventKind = "delta"
	// EventReply: a code-mode turn's reply arrived and its code cells are
	// about to run (code mode only: a plan turn reports its reply with its
	// EventTurn). Every turn of a code-mode loop whose model call returned
	// a reply reports it so, before its cells' sub-calls and children, and
	// its EventTurn then follows with a non-zero ReplyBytes.
	EventReply EventKind = "reply"
	// EventCell: a code cell of the reply starts running (code mode);
	// what it does (sub-calls, children's turns) is reported after it.
	EventCell EventKind = "cell"
	// EventDone: the run ended. Only Engine.Events yields it, last, with
	// the Result.
	EventDone EventKind = "done"
)

// Outcomes of a turn (Event.Outcome).
const (
	// OutcomeAnswer: the reply, or the plan it held, gave the final answer.
	OutcomeAnswer = "answer"
	// OutcomePlan: the reply's plan (in code mode, its code cells) ran
	// without a final answer; Event.Observation is what the model reads
	// next.
	OutcomePlan = "plan"
	// OutcomeRejected: the reply failed parsing or validation and nothing
	// ran; Event.Repair reports whether a repair message follows.
	OutcomeRejected = "rejected"
	// OutcomeFailed: the turn ended the run with an error (a model call
	// that failed, a fatal step error, a budget).
	OutcomeFailed = "failed"
)

// Bounds of the text carried by events and errors.
const (
	// EventTextBytes bounds Event.Reply and the text of a sub-call event.
	EventTextBytes = 2 << 10
	// ReplyExcerptBytes bounds detail "reply_excerpt" of a rejected reply.
	ReplyExcerptBytes = 256
	// TraceContentBytes bounds the reply text recorded on spans with
	// Config.TraceContent.
	TraceContentBytes = 4 << 10
)

// Event is one observable step of a run, delivered to Config.Observer and
// yielded by Engine.Events. Model text in an event is bounded and has
// credentials redacted (trace.RedactText); it is for people reading along,
// never fed back to a model.
type Event struct {
	Kind EventKind `json:"kind"`
	// Depth is the loop's recursion depth (0: the root loop; sub-calls
	// report the depth of the call, parent + 1).
	Depth int `json:"depth"`
	// Turn is the loop's turn number, from 1 (turn and delta events).
	Turn int `json:"turn,omitempty"`
	// Attempt is 1 plus the repairs made before this reply (turn events).
	Attempt int `json:"attempt,omitempty"`
	// Model is the model asked.
	Model string `json:"model,omitempty"`
	// Reply is the model's reply text (turn events), or a sub-call's
	// response text; bounded by EventTextBytes, redacted.
	Reply string `json:"reply,omitempty"`
	// ReplyBytes is the full length of the reply.
	ReplyBytes int `json:"reply_bytes,omitempty"`
	// Outcome is one of the Outcome constants (turn events).
	Outcome string `json:"outcome,omitempty"`
	// Repair reports that a repair message follows a rejected reply.
	Repair bool `json:"repair,omitempty"`
	// Error is the rejection or failure of the turn or sub-call.
	Error *fault.Error `json:"error,omitempty"`
	// Observation is the observation fed back after a plan (turn events
	// with OutcomePlan), as the model reads it.
	Observation string `json:"observation,omitempty"`
	// Delta is the new piece of text (delta events), redacted.
	Delta string `json:"delta,omitempty"`
	// Mode is ModeCode for the turn, reply and cell events of a code-mode
	// loop, and empty for plan mode.
	Mode string `json:"mode,omitempty"`
	// Cell is the cell's index in its reply, from 1 (cell events).
	Cell int `json:"cell,omitempty"`
	// Cells is, in code mode, the number of code cells of the reply (reply
	// and cell events) or how many of them ran (turn events).
	Cells int `json:"cells,omitempty"`
	// Result is the run's result (EventDone only).
	Result *Result `json:"-"`
}

// emit delivers ev to the observer, one event at a time: events of
// concurrent children and sub-calls are serialized, so the observer need
// not be safe for concurrent use, but it runs on the engine's goroutines
// and should return quickly.
func (r *run) emit(ev Event) {
	obs := r.e.cfg.Observer
	if obs == nil {
		return
	}
	r.obsMu.Lock()
	defer r.obsMu.Unlock()
	obs(ev)
}

// shown returns model text as events and errors show it: credentials
// redacted, then cut at a UTF-8 boundary to at most n bytes. Redaction
// comes first (over a margin past n), so a cut never leaves the start of a
// secret unrecognized, and a long reply costs only its first bytes.
func shown(text string, n int) string {
	return textcut.Prefix(trace.RedactText(textcut.Prefix(text, n+redactMargin)), n)
}

// redactMargin is how far past a cut text is redacted.
const redactMargin = 512

// Events runs the query like Run and yields its events as they happen (the
// same events Config.Observer receives), then one EventDone carrying the
// Result, paired with the run's error. Stopping the iteration early
// cancels the run and waits for it to end; no goroutine outlives the
// loop. An Observer configured on the engine still receives every event.
func (e *Engine) Events(ctx context.Context, query string, input corpus.Handle) iter.Seq2[Event, error] {
	return func(yield func(Event, error) bool) {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		events := make(chan Event)
		cfg := e.cfg
		prev := cfg.Observer
		cfg.Observer = func(ev Event) {
			if prev != nil {
				prev(ev)
			}
			select {
			case events <- ev:
			case <-ctx.Done():
			}
		}
		eng := &Engine{cfg: cfg}
		var (
			res *Result
			err error
		)
		go func() {
			defer close(events)
			res, err = eng.Run(ctx, query, input)
		}()
		stopped := false
		for ev := range events {
			if !stopped && !yield(ev, nil) {
				stopped = true
				cancel()
			}
		}
		if !stopped {
			yield(Event{Kind: EventDone, Result: res}, err)
		}
	}
}

// streamRoot prepares the request of a root turn: with Config.Stream it
// asks for a streamed reply and, with an Observer, hands the provider an
// OnDelta that reports the pieces as EventDelta events of turn. The
// returned shower's flush releases what it holds back once the reply is
// complete; it is nil (and flush a no-op) when nothing is reported.
func (r *run) streamRoot(req *model.Request, n node, turn int, modelName string) *deltaShower {
	if n.depth != 0 {
		return nil
	}
	req.Stream = r.e.cfg.Stream
	if r.e.cfg.Observer == nil {
		return nil
	}
	d := &deltaShower{emit: func(s string) {
		r.emit(Event{Kind: EventDelta, Depth: n.depth, Turn: turn, Model: modelName, Delta: s})
	}}
	req.OnDelta = d.add
	return d
}

// answerMeta converts an answer document's metadata to the result's form.
func answerMeta(m map[string]plan.Value) map[string]any {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// deltaShower turns streamed pieces of a reply into redacted delta events.
// A credential may arrive split over pieces, and "Bearer X" or
// "api_key: X" only reads as one with its key: so the last few words are
// held back until more text (or the end of the reply) arrives, and what is
// released is redacted as a whole. A nil *deltaShower does nothing.
type deltaShower struct {
	emit    func(string)
	pending string
}

// heldWords is how many trailing words are held back.
const heldWords = 3

func (d *deltaShower) add(s string) {
	if d == nil || s == "" {
		return
	}
	d.pending += s
	cut := len(d.pending)
	for range heldWords {
		k := strings.LastIndexAny(d.pending[:cut], " \t\r\n")
		if k < 0 {
			return
		}
		// Step over the run of whitespace before the word.
		for k > 0 && strings.ContainsRune(" \t\r\n", rune(d.pending[k-1])) {
			k--
		}
		cut = k
	}
	// Never release a word that starts a credential ("Bearer", a secret
	// key, a separator) without what follows it.
	for range heldWords {
		k := strings.LastIndexAny(d.pending[:cut], " \t\r\n") + 1
		if !startsSecret(d.pending[k:cut]) {
			break
		}
		cut = len(strings.TrimRight(d.pending[:k], " \t\r\n"))
	}
	if cut == 0 {
		return
	}
	out := d.pending[:cut]
	d.pending = d.pending[cut:]
	d.emit(trace.RedactText(out))
}

// flush releases what is held back at the end of the reply.
func (d *deltaShower) flush() {
	if d == nil || d.pending == "" {
		return
	}
	out := d.pending
	d.pending = ""
	d.emit(trace.RedactText(out))
}

// startsSecret reports whether word may be followed by a credential: an
// Authorization scheme, a key naming a secret, or a bare separator.
func startsSecret(word string) bool {
	w := strings.Trim(word, `"':=,{`)
	switch strings.ToLower(w) {
	case "":
		return word != ""
	case "bearer", "basic":
		return true
	}
	return trace.IsSecretKey(w)
}

// subCall reports one model step to the observer and, with
// Config.TraceContent, records its response as a note under the step.
func (r *run) subCall(ctx context.Context, depth int, modelName string, resp *model.Response, err error) {
	var text string
	if resp != nil {
		text = resp.Text
	}
	if r.e.cfg.TraceContent && text != "" {
		trace.Emit(ctx, trace.KindNote, "sub_call reply", map[string]any{"reply": shown(text, TraceContentBytes), "model": modelName}, nil)
	}
	if r.e.cfg.Observer != nil {
		r.emit(Event{Kind: EventSubCall, Depth: depth, Model: modelName, Reply: shown(text, EventTextBytes), ReplyBytes: len(text), Error: fault.As(err)})
	}
}
