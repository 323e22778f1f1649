package engine

import (
	"context"
	"iter"
	"maps"
	"strings"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/fault"
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
	TraceContentBytes = trace.ContentBytes
)

// Event is one observable step of a run, delivered to Config.Observer and
// yielded by Engine.Events. It is a view of the run's trace events
// (trace.Event): the engine records each step on the trace recorder, as
// live attributes (trace.Event.Live) of a span or a point event, and
// EventOf derives the Event from it; a program that reads a trace
// recorder's live observer (trace.WithLiveObserver, rlm.WithLiveObserver)
// sees the same steps without this type. Model text in an event is
// bounded and has credentials redacted (trace.RedactText); it is for
// people reading along, never fed back to a model.
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
	// Images names the images a sub-call sent (EventSubCall), each
	// "sha256:PREFIX WxH MEDIA-TYPE" (model.Image.Short), joined with
	// ", " (a string keeps Event comparable).
	Images string `json:"images,omitempty"`
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

// Which trace event reports each kind of Event (see EventOf):
//
//	EventTurn     the turn span (trace.KindTurn), as it ends
//	EventSubCall  a note trace.NoteSubCall in the calling loop
//	EventDelta    a live-only trace.KindDelta point event
//	EventReply    the note trace.NoteReply of a code-mode reply
//	EventCell     the cell's plan_step span announced as it starts
//	              (trace.StatusStarted)
//
// Each carries the Event's fields as live attributes (trace.Attr*), which
// the recorder never keeps: stored traces hold model text only under
// Config.TraceContent.

// EventOf returns the Event a trace event reports, and false for a trace
// event that reports none (every event without the engine's live
// attributes: a context operation, a model call, a turn recorded with no
// live observer listening).
func EventOf(ev trace.Event) (Event, bool) {
	l := ev.Live
	if l == nil {
		return Event{}, false
	}
	e := Event{Depth: ev.Depth}
	switch {
	case ev.Kind == trace.KindTurn:
		if _, ok := l[trace.AttrOutcome]; !ok {
			return Event{}, false
		}
		e.Kind = EventTurn
	case ev.Kind == trace.KindDelta:
		e.Kind = EventDelta
	case ev.Kind == trace.KindNote && ev.Name == trace.NoteReply:
		e.Kind = EventReply
	case ev.Kind == trace.KindPlanStep && ev.Status == trace.StatusStarted:
		e.Kind = EventCell
	case ev.Kind == trace.KindNote && ev.Name == trace.NoteSubCall:
		// Recorded in the loop that made the call, one level up.
		e.Kind, e.Depth = EventSubCall, ev.Depth+1
	default:
		return Event{}, false
	}
	e.Turn, _ = l[trace.AttrTurn].(int)
	e.Attempt, _ = l[trace.AttrAttempt].(int)
	e.Model, _ = l[trace.AttrModel].(string)
	e.Reply, _ = l[trace.AttrReply].(string)
	e.ReplyBytes, _ = l[trace.AttrReplyBytes].(int)
	e.Outcome, _ = l[trace.AttrOutcome].(string)
	e.Repair, _ = l[trace.AttrRepair].(bool)
	e.Error, _ = l[trace.AttrError].(*fault.Error)
	e.Observation, _ = l[trace.AttrObservation].(string)
	e.Delta, _ = l[trace.AttrDelta].(string)
	e.Mode, _ = l[trace.AttrMode].(string)
	e.Cell, _ = l[trace.AttrCell].(int)
	e.Cells, _ = l[trace.AttrCells].(int)
	e.Images, _ = l[trace.AttrImages].(string)
	return e, true
}

// liveAttrs returns the live attributes reporting ev (its non-zero
// fields; Kind and Depth are the trace event's own).
func liveAttrs(ev Event) map[string]any {
	l := make(map[string]any, 8)
	put := func(key string, v any, zero bool) {
		if !zero {
			l[key] = v
		}
	}
	put(trace.AttrTurn, ev.Turn, ev.Turn == 0)
	put(trace.AttrAttempt, ev.Attempt, ev.Attempt == 0)
	put(trace.AttrModel, ev.Model, ev.Model == "")
	put(trace.AttrReply, ev.Reply, ev.Reply == "")
	put(trace.AttrReplyBytes, ev.ReplyBytes, ev.ReplyBytes == 0)
	put(trace.AttrOutcome, ev.Outcome, ev.Outcome == "")
	put(trace.AttrRepair, ev.Repair, !ev.Repair)
	put(trace.AttrError, ev.Error, ev.Error == nil)
	put(trace.AttrObservation, ev.Observation, ev.Observation == "")
	put(trace.AttrDelta, ev.Delta, ev.Delta == "")
	put(trace.AttrMode, ev.Mode, ev.Mode == "")
	put(trace.AttrCell, ev.Cell, ev.Cell == 0)
	put(trace.AttrCells, ev.Cells, ev.Cells == 0)
	put(trace.AttrImages, ev.Images, ev.Images == "")
	return l
}

// setLive sets ev's live attributes on sp.
func setLive(sp *trace.Span, ev Event) {
	for k, v := range liveAttrs(ev) {
		sp.SetLive(k, v)
	}
}

// liveContext prepares the run's live events. The run records them (live
// attributes, live-only events: r.live) when Config.Observer is set, or
// when the recorder has a live observer (trace.WithLiveObserver) and the
// run is not one a tool call of another run started (an rlm_subagent
// child): without an observer of its own, such a run's steps stay out of
// its parent's live view, as they always have. Config.Observer sees this run's events only (the returned context
// carries it, serialized, as the scope's live observer; an enclosing
// run's is removed): each trace event that reports an Event (EventOf), one
// call at a time, so the observer need not be safe for concurrent use,
// but it runs on the engine's goroutines and should return quickly.
func (r *run) liveContext(ctx context.Context) context.Context {
	caller, _ := budget.FromContext(ctx)
	obs := r.e.cfg.Observer
	r.live = obs != nil || caller == nil && trace.Listening(ctx)
	if obs == nil {
		return trace.WithLiveContext(ctx, nil)
	}
	return trace.WithLiveContext(ctx, func(ev trace.Event) {
		e, ok := EventOf(ev)
		if !ok {
			return
		}
		r.obsMu.Lock()
		defer r.obsMu.Unlock()
		obs(e)
	})
}

// shown returns model text as events and errors show it: credentials
// redacted, then cut at a UTF-8 boundary to at most n bytes. Redaction
// comes first (over a margin past n), so a cut never leaves the start of a
// secret unrecognized, and a long reply costs only its first bytes.
func shown(text string, n int) string {
	return trace.Content(text, n)
}

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
// asks for a streamed reply and, when someone listens (r.live), hands the
// provider an OnDelta that reports the pieces as live-only
// trace.KindDelta events of turn (EventDelta) under ctx, the turn's. The
// returned shower's flush releases what it holds back once the reply is
// complete; it is nil (and flush a no-op) when nothing is reported.
func (r *run) streamRoot(ctx context.Context, req *model.Request, n node, turn int, modelName string) *deltaShower {
	if n.depth != 0 {
		return nil
	}
	req.Stream = r.e.cfg.Stream
	if !r.live {
		return nil
	}
	d := &deltaShower{emit: func(s string) {
		trace.EmitLive(ctx, trace.KindDelta, "", liveAttrs(Event{Turn: turn, Model: modelName, Delta: s}))
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

// subCall reports one model step (at depth, one below ctx's loop) as the
// note trace.NoteSubCall under the step: kept, with its response, only
// with Config.TraceContent and a response text; live-only otherwise. Its
// live attributes (EventSubCall) are set when someone listens.
func (r *run) subCall(ctx context.Context, depth int, req model.Request, resp *model.Response, err error) {
	modelName := req.Model
	var images []string
	for _, m := range req.Messages {
		for _, im := range m.Images {
			images = append(images, im.Short())
		}
	}
	var text string
	if resp != nil {
		text = resp.Text
	}
	// The note is the calling loop's, one level above the call (EventOf
	// adds the level back).
	if trace.DepthOf(ctx) != depth-1 {
		ctx = trace.WithDepth(ctx, depth-1)
	}
	var live map[string]any
	if r.live {
		live = liveAttrs(Event{Model: modelName, Reply: shown(text, EventTextBytes), ReplyBytes: len(text), Error: fault.As(err), Images: strings.Join(images, ", ")})
	}
	if r.e.cfg.TraceContent && text != "" {
		_, sp := trace.Start(ctx, trace.KindNote, trace.NoteSubCall)
		sp.Set("reply", shown(text, TraceContentBytes))
		sp.Set("model", modelName)
		for k, v := range live {
			sp.SetLive(k, v)
		}
		sp.End(nil)
		return
	}
	if live != nil {
		trace.EmitLive(ctx, trace.KindNote, trace.NoteSubCall, live)
	}
}

// endTurn ends a turn's span with err, its outcome ev (EventTurn) set as
// live attributes when someone listens.
func (r *run) endTurn(sp *trace.Span, err error, ev Event) {
	if r.live {
		setLive(sp, ev)
	}
	sp.End(err)
}

// frozen returns err's *fault.Error as it stands now, a copy with its own
// detail, so that later additions to err's detail do not reach it; err
// itself when it holds none.
func frozen(err error) error {
	fe := fault.As(err)
	if fe == nil {
		return err
	}
	c := *fe
	c.Detail = maps.Clone(fe.Detail)
	return &c
}
