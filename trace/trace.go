// Package trace records typed runtime events and exports them as JSON or
// JSONL.
//
// Every runtime event (a run, a turn, a model call, a context operation, a
// tool call, a plan step, a recursive child, an error) is an Event with a
// sequence number, an id, the id of its parent, the recursion depth and
// timestamps. Spans are started with Recorder.Start, which returns a derived
// context carrying the span as the parent of anything started under it, and
// are recorded when they end. A nil *Recorder is valid and records nothing.
//
// Traces never contain credentials: attribute keys that look like secrets
// are redacted when recorded, and no package puts HTTP headers into a trace.
package trace

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"

	"github.com/rlm-go/rlm/fault"
)

// Schema is the schema name of the JSON export envelope.
const Schema = "rlm.trace.v1"

// Kind is the type of an event.
type Kind string

// Event kinds.
const (
	KindRun       Kind = "run"        // a whole completion run
	KindTurn      Kind = "turn"       // one iteration of a completion loop
	KindModelCall Kind = "model_call" // one provider request
	KindContextOp Kind = "context_op" // one context-store operation
	KindToolCall  Kind = "tool_call"  // one tool invocation
	KindPlanStep  Kind = "plan_step"  // one plan step
	KindChild     Kind = "rlm_child"  // a recursive child run
	KindError     Kind = "error"      // a standalone error report
	KindNote      Kind = "note"       // an informational point event
	// KindDelta is a piece of a streamed root reply as it arrives. It is a
	// live-only kind: live observers (WithLiveObserver, WithLiveContext)
	// see it, the recorder never keeps it.
	KindDelta Kind = "delta"
)

// Names of notes (KindNote) the engine records with live attributes.
const (
	// NoteReply is a code-mode reply that arrived, before its cells run
	// (attributes code_blocks and prose_bytes; kept).
	NoteReply = "reply"
	// NoteSubCall is one model step (llm_query) of a plan or a cell that
	// ended, recorded in the loop that made it (the call is one level
	// deeper). It is kept, with attributes reply and model, only under the
	// engine's TraceContent and when the call returned text; otherwise it
	// is live-only.
	NoteSubCall = "sub_call reply"
	// NoteToolContent records, in a direct loop's turn, one call of the
	// model's batch (a tool or a context call, or one refused before it
	// ran) with what the model got back: attributes call_id, name,
	// status ("ok", "error", "rejected"), arguments (the argument text
	// the model sent) and observation (the tool message). It is kept only
	// under the direct loop's TraceContent; the call's own span, when it
	// ran, carries the same call_id.
	NoteToolContent = "tool_call content"
)

// Keys of the live attributes (Event.Live) the engine sets, named once
// for producers and readers. Model text under them (reply, observation,
// delta) is bounded and redacted as the engine shows it; it reaches live
// observers only and is never kept, exported or written to a trace file.
const (
	AttrTurn        = "turn"        // int: the loop's turn number, from 1
	AttrAttempt     = "attempt"     // int: 1 plus the repairs before the reply
	AttrModel       = "model"       // string: the model asked
	AttrReply       = "reply"       // string: the reply text, bounded
	AttrReplyBytes  = "reply_bytes" // int: the reply's full length
	AttrImages      = "images"      // string: the images a sub-call sent (hash prefix, dimensions, media type), ", "-joined
	AttrOutcome     = "outcome"     // string: what became of the reply
	AttrRepair      = "repair"      // bool: a repair message follows
	AttrError       = "error"       // *fault.Error: the rejection or failure
	AttrObservation = "observation" // string: the observation fed back
	AttrDelta       = "delta"       // string: a new piece of streamed text
	AttrMode        = "mode"        // string: "code" in a code-mode loop
	AttrCell        = "cell"        // int: a cell's index in its reply, from 1
	AttrCells       = "cells"       // int: code cells of the reply (or run)
)

// Status is the outcome of an event.
type Status string

// Event statuses.
const (
	StatusOK        Status = "ok"
	StatusError     Status = "error"
	StatusCancelled Status = "cancelled"
	// StatusStarted marks a live-only announcement of a span that has
	// begun and not yet ended (Span.Announce); the span itself is recorded
	// when it ends, with its final status.
	StatusStarted Status = "started"
)

// Tokens is the token usage attached to an event.
type Tokens struct {
	Prompt     int64 `json:"prompt"`
	Completion int64 `json:"completion"`
	Total      int64 `json:"total"`
}

// Event is one recorded runtime event.
type Event struct {
	Seq        uint64         `json:"seq"`
	ID         string         `json:"id"`
	Parent     string         `json:"parent,omitempty"`
	Depth      int            `json:"depth"`
	Kind       Kind           `json:"kind"`
	Name       string         `json:"name,omitempty"`
	Status     Status         `json:"status,omitempty"`
	Start      time.Time      `json:"start"`
	End        time.Time      `json:"end"`
	DurationMS float64        `json:"duration_ms"`
	Tokens     *Tokens        `json:"tokens,omitempty"`
	CostUSD    float64        `json:"cost_usd,omitempty"`
	CostKnown  bool           `json:"cost_known,omitempty"`
	Bytes      int64          `json:"bytes,omitempty"`
	Attrs      map[string]any `json:"attrs,omitempty"`
	Error      *fault.Error   `json:"error,omitempty"`
	// Live holds the event's live-only attributes (see the Attr
	// constants): what live observers see while the run goes, such as the
	// model's reply for -v. The recorder never keeps them (Events returns
	// events without them), and they are never encoded.
	Live map[string]any `json:"-"`
}

// LiveOnly reports whether ev is a live-only event, which the recorder
// never keeps: a delta, a span's start announcement (StatusStarted), or
// a point event emitted with EmitLive (Seq 0).
func (ev Event) LiveOnly() bool {
	return ev.Kind == KindDelta || ev.Status == StatusStarted || ev.Seq == 0
}

// DefaultLimit is the default maximum number of events a Recorder keeps.
const DefaultLimit = 100_000

// Recorder collects events. It is safe for concurrent use. The zero value is
// not usable; use NewRecorder. A nil *Recorder records nothing.
type Recorder struct {
	mu  sync.Mutex
	seq uint64
	// chunks hold the events in arrival order, every chunk but the last
	// one full: appending never copies the events already kept, which
	// one growing slice did under the lock, every caller waiting. The
	// first chunk holds firstChunkEvents and each next one twice its
	// predecessor, up to chunkEvents: a recorder that keeps a few events
	// (a child run's, of which a thousand may wait at once) holds a few
	// KiB, not a whole chunk of 1,024 events (~224 KiB).
	chunks  [][]Event
	n       int // events kept, in chunks
	limit   int
	dropped int
	now     func() time.Time
	onEvent func(Event)
	onLive  func(Event)
	onStart func(Event)
}

// Option configures a Recorder.
type Option func(*Recorder)

// WithLimit bounds the number of events kept; later events are counted as
// dropped. A run's events form a tree (each span names its parent), so the
// recorder keeps the first ones, which the rest hang from, and reports how
// many it dropped; agent's runtime trace, a flat status window, keeps the
// newest instead. n <= 0 means DefaultLimit.
func WithLimit(n int) Option {
	return func(r *Recorder) {
		if n > 0 {
			r.limit = n
		}
	}
}

// WithClock sets the clock used for timestamps (for deterministic tests).
func WithClock(now func() time.Time) Option { return func(r *Recorder) { r.now = now } }

// WithObserver registers fn to be called (synchronously, outside the
// recorder's lock) with every event as it is recorded; for live progress.
// Several observers are called in the order they were given; a nil fn is
// ignored.
func WithObserver(fn func(Event)) Option {
	return func(r *Recorder) {
		if fn == nil {
			return
		}
		if prev := r.onEvent; prev != nil {
			r.onEvent = func(ev Event) { prev(ev); fn(ev) }
			return
		}
		r.onEvent = fn
	}
}

// WithLiveObserver registers fn to be called (synchronously, outside the
// recorder's lock, possibly from several goroutines at once) with every
// event as it happens, live-only events and live attributes (Event.Live)
// included, and also with the events the limit drops. It is for people
// reading along (rlm's -v); what fn sees of model text must not be kept
// where a trace would not keep it. Several live observers are called in
// the order they were given, after the WithObserver ones; a nil fn is
// ignored.
func WithLiveObserver(fn func(Event)) Option {
	return func(r *Recorder) {
		if fn == nil {
			return
		}
		if prev := r.onLive; prev != nil {
			r.onLive = func(ev Event) { prev(ev); fn(ev) }
			return
		}
		r.onLive = fn
	}
}

// WithStartObserver registers fn to be called (synchronously, possibly
// from several goroutines at once) with a span as it starts: its seq, id,
// parent, depth, kind, name and start, Status StatusStarted, no
// attributes. Spans started once the limit is reached are not given (they
// will not be kept). It is for a file a viewer follows while the run goes
// (LiveFile.ObserveStart), where a span would otherwise appear only when
// it ends. Point events (Emit) are not given. Several start observers are
// called in the order they were given; a nil fn is ignored.
func WithStartObserver(fn func(Event)) Option {
	return func(r *Recorder) {
		if fn == nil {
			return
		}
		if prev := r.onStart; prev != nil {
			r.onStart = func(ev Event) { prev(ev); fn(ev) }
			return
		}
		r.onStart = fn
	}
}

// NewRecorder returns an empty Recorder.
func NewRecorder(opts ...Option) *Recorder {
	r := &Recorder{limit: DefaultLimit, now: time.Now}
	for _, o := range opts {
		o(r)
	}
	return r
}

type ctxKey struct{}

type scope struct {
	rec    *Recorder
	parent string
	depth  int
	// live is the live observer of WithLiveContext.
	live func(Event)
}

// WithRecorder returns a context that carries rec; spans started from it are
// recorded there.
func WithRecorder(ctx context.Context, rec *Recorder) context.Context {
	s := scopeOf(ctx)
	s.rec = rec
	return context.WithValue(ctx, ctxKey{}, s)
}

// WithDepth returns a context whose spans are recorded at the given
// recursion depth.
func WithDepth(ctx context.Context, depth int) context.Context {
	s := scopeOf(ctx)
	s.depth = depth
	return context.WithValue(ctx, ctxKey{}, s)
}

// WithLiveContext returns a context under which every event recorded
// (spans started from it and below, point events emitted there) is also
// given to fn as a live observer sees it (see WithLiveObserver), whatever
// the recorder keeps. fn replaces the function an enclosing
// WithLiveContext gave; nil removes it. An engine run delivers its
// Config.Observer so, to its own events only.
func WithLiveContext(ctx context.Context, fn func(Event)) context.Context {
	s := scopeOf(ctx)
	s.live = fn
	return context.WithValue(ctx, ctxKey{}, s)
}

// Listening reports whether a live observer would see the events recorded
// under ctx (the recorder's WithLiveObserver, or WithLiveContext): a
// producer computes live attributes only then.
func Listening(ctx context.Context) bool {
	s := scopeOf(ctx)
	return s.live != nil || s.rec != nil && s.rec.onLive != nil
}

// FromContext returns the Recorder carried by ctx, or nil.
func FromContext(ctx context.Context) *Recorder { return scopeOf(ctx).rec }

// ParentID returns the id of the span that encloses ctx, or "".
func ParentID(ctx context.Context) string { return scopeOf(ctx).parent }

// DepthOf returns the recursion depth carried by ctx.
func DepthOf(ctx context.Context) int { return scopeOf(ctx).depth }

func scopeOf(ctx context.Context) scope {
	if s, ok := ctx.Value(ctxKey{}).(scope); ok {
		return s
	}
	return scope{}
}

// Span is an event in progress. End records it. A nil *Span is valid.
type Span struct {
	rec   *Recorder
	ev    Event
	once  sync.Once
	mu    sync.Mutex
	attrs map[string]any
	live  map[string]any
	obs   func(Event) // the scope's live observer (WithLiveContext)
}

// Start begins a span of the given kind under the span carried by ctx, using
// the Recorder carried by ctx. It returns a context in which the new span is
// the parent. When ctx carries no Recorder, Start returns ctx and a nil Span.
func Start(ctx context.Context, kind Kind, name string) (context.Context, *Span) {
	s := scopeOf(ctx)
	if s.rec == nil {
		return ctx, nil
	}
	sp := s.rec.begin(s.parent, s.depth, kind, name)
	sp.obs = s.live
	if fn := s.rec.onStart; fn != nil && s.rec.room() {
		ev := sp.ev
		ev.Status = StatusStarted
		fn(ev)
	}
	child := s
	child.parent = sp.ev.ID
	return context.WithValue(ctx, ctxKey{}, child), sp
}

func (r *Recorder) begin(parent string, depth int, kind Kind, name string) *Span {
	r.mu.Lock()
	r.seq++
	seq := r.seq
	r.mu.Unlock()
	return &Span{rec: r, ev: Event{
		Seq: seq, ID: "e" + strconv.FormatUint(seq, 10), Parent: parent, Depth: depth,
		Kind: kind, Name: name, Start: r.now(),
	}}
}

// ID returns the span's event id, or "" for a nil span.
func (sp *Span) ID() string {
	if sp == nil {
		return ""
	}
	return sp.ev.ID
}

// Set records an attribute on the span. Keys that look like secrets are
// redacted.
func (sp *Span) Set(key string, value any) {
	if sp == nil {
		return
	}
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if sp.attrs == nil {
		sp.attrs = make(map[string]any)
	}
	sp.attrs[key] = value
}

// SetLive sets a live-only attribute of the span (Event.Live): live
// observers see it on the span's events, the recorder never keeps it.
func (sp *Span) SetLive(key string, value any) {
	if sp == nil {
		return
	}
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if sp.live == nil {
		sp.live = make(map[string]any)
	}
	sp.live[key] = value
}

// Announce gives live observers the span as it stands before it ends: its
// id, kind, name, start, the attributes set so far, Status StatusStarted.
// It is a live-only event (nothing is kept); the span is recorded when it
// ends.
func (sp *Span) Announce() {
	if sp == nil {
		return
	}
	sp.mu.Lock()
	ev := sp.ev
	ev.Attrs = Redact(sp.attrs)
	ev.Live = maps.Clone(sp.live)
	sp.mu.Unlock()
	ev.Status = StatusStarted
	sp.rec.live(ev, sp.obs)
}

// SetTokens records token usage on the span.
func (sp *Span) SetTokens(prompt, completion, total int64) {
	if sp == nil {
		return
	}
	sp.mu.Lock()
	defer sp.mu.Unlock()
	sp.ev.Tokens = &Tokens{Prompt: prompt, Completion: completion, Total: total}
}

// SetCost records the cost in USD and whether it was reported (known) rather
// than estimated.
func (sp *Span) SetCost(usd float64, known bool) {
	if sp == nil {
		return
	}
	sp.mu.Lock()
	defer sp.mu.Unlock()
	sp.ev.CostUSD, sp.ev.CostKnown = usd, known
}

// SetBytes records a byte count (inspected, returned or sent) on the span.
func (sp *Span) SetBytes(n int64) {
	if sp == nil {
		return
	}
	sp.mu.Lock()
	defer sp.mu.Unlock()
	sp.ev.Bytes = n
}

// End records the span with a status derived from err: ok for nil,
// cancelled for cancellation kinds, error otherwise. Only the first End
// counts.
func (sp *Span) End(err error) {
	if sp == nil {
		return
	}
	sp.once.Do(func() {
		sp.mu.Lock()
		ev := sp.ev
		// The event takes the span's map, redacted in place: the span
		// lets go of it (a Set after End goes to a new map, recorded
		// nowhere), so a running child does not keep a copy of each
		// ended span's attributes and the span's own map both (issue 35).
		ev.Attrs = redactInPlace(sp.attrs)
		sp.attrs = nil
		live := sp.live
		sp.mu.Unlock()
		ev.End = sp.rec.now()
		ev.DurationMS = float64(ev.End.Sub(ev.Start).Microseconds()) / 1000
		ev.Status = StatusOf(err)
		if err != nil {
			ev.Error = snapshot(asFault(err))
		}
		sp.rec.add(ev, live, sp.obs)
	})
}

// StatusOf maps an error to an event status.
func StatusOf(err error) Status {
	switch {
	case err == nil:
		return StatusOK
	case fault.KindOf(err) == fault.KindCancelled, isContextCancel(err):
		return StatusCancelled
	default:
		return StatusError
	}
}

func isContextCancel(err error) bool { return errors.Is(err, context.Canceled) }

func asFault(err error) *fault.Error {
	if fe := fault.As(fault.FromContext(fault.PhaseExecute, err)); fe != nil {
		return fe
	}
	// The message is the error's own text: redacted like free text.
	return fault.Wrap(err, fault.PhaseExecute, fault.KindInternal, RedactText(err.Error()))
}

// snapshot returns a copy of fe whose detail map is a redacted copy, so
// that the recorded event neither shares a map its producer may still
// annotate nor carries a secret-looking detail. Its cause chain is
// exported too (fault.Error's JSON has "cause"), so it is snapshotted the
// same way: the first fault.Error of the cause chain is copied in turn,
// and a cause without one keeps its chain (errors.Is) behind a redacted
// text (RedactText).
func snapshot(fe *fault.Error) *fault.Error {
	c := *fe
	c.Detail = Redact(fe.Detail)
	if fe.Cause != nil {
		var inner *fault.Error
		if errors.As(fe.Cause, &inner) && inner != fe {
			c.Cause = snapshot(inner)
		} else {
			c.Cause = &redactedCause{text: RedactText(fe.Cause.Error()), err: fe.Cause}
		}
	}
	return &c
}

// RedactError returns a copy of fe with its detail, and the detail of
// every error of its cause chain, redacted (as End records an error); nil
// for nil.
func RedactError(fe *fault.Error) *fault.Error {
	if fe == nil {
		return nil
	}
	return snapshot(fe)
}

// redactedCause is a recorded error's cause that holds no fault.Error: its
// text redacted, its chain kept for errors.Is.
type redactedCause struct {
	text string
	err  error
}

func (r *redactedCause) Error() string { return r.text }
func (r *redactedCause) Unwrap() error { return r.err }

// Emit records a point event (no duration) under the span carried by ctx.
func Emit(ctx context.Context, kind Kind, name string, attrs map[string]any, err error) {
	s := scopeOf(ctx)
	if s.rec == nil {
		return
	}
	sp := s.rec.begin(s.parent, s.depth, kind, name)
	sp.obs = s.live
	for k, v := range attrs {
		sp.Set(k, v)
	}
	sp.End(err)
}

// EmitLive gives live observers a live-only point event under the span
// carried by ctx: kind and name, the live attributes live (Event.Live),
// Seq 0 and no id. The recorder never keeps it and takes no sequence
// number for it, nor a reading of its clock (WithClock): what a trace
// keeps never depends on who watches; its time is the wall clock. It does
// nothing when no live observer listens (see Listening).
func EmitLive(ctx context.Context, kind Kind, name string, live map[string]any) {
	s := scopeOf(ctx)
	if s.rec == nil || s.live == nil && s.rec.onLive == nil {
		return
	}
	now := time.Now()
	s.rec.live(Event{Parent: s.parent, Depth: s.depth, Kind: kind, Name: name, Status: StatusOK, Start: now, End: now, Live: live}, s.live)
}

// Capacities of the chunks of a Recorder: the first holds
// firstChunkEvents, each next one twice its predecessor's up to
// chunkEvents.
const (
	firstChunkEvents = 4
	chunkEvents      = 1024
)

// room reports whether the recorder keeps another event.
func (r *Recorder) room() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.n < r.limit
}

// kept returns the number of events kept; r.mu is held.
func (r *Recorder) kept() int { return r.n }

// nextChunk returns the capacity of the chunk that follows the last one,
// bounded by what the limit leaves room for; r.mu is held.
func (r *Recorder) nextChunk() int {
	c := firstChunkEvents
	if len(r.chunks) > 0 {
		c = min(2*cap(r.chunks[len(r.chunks)-1]), chunkEvents)
	}
	return min(c, r.limit-r.n)
}

// add keeps ev (without live attributes) unless the limit is reached,
// gives it to the observers when kept, and to the live observers (the
// recorder's and obs, the scope's) with live as its Event.Live in any
// case.
func (r *Recorder) add(ev Event, live map[string]any, obs func(Event)) {
	r.mu.Lock()
	kept := r.n < r.limit
	if kept {
		if len(r.chunks) == 0 || len(r.chunks[len(r.chunks)-1]) == cap(r.chunks[len(r.chunks)-1]) {
			r.chunks = append(r.chunks, make([]Event, 0, r.nextChunk()))
		}
		last := &r.chunks[len(r.chunks)-1]
		*last = append(*last, ev)
		r.n++
	} else {
		r.dropped++
	}
	fn := r.onEvent
	r.mu.Unlock()
	if kept && fn != nil {
		fn(ev)
	}
	if r.onLive != nil || obs != nil {
		ev.Live = maps.Clone(live)
		r.live(ev, obs)
	}
}

// live gives ev to the recorder's live observers and to obs, the live
// observer of the event's scope.
func (r *Recorder) live(ev Event, obs func(Event)) {
	if r.onLive != nil {
		r.onLive(ev)
	}
	if obs != nil {
		obs(ev)
	}
}

// Events returns a copy of the recorded events sorted by sequence number.
func (r *Recorder) Events() []Event {
	if r == nil {
		return nil
	}
	// Kept events are only appended to, so the chunks as they stand now
	// can be read without the lock.
	r.mu.Lock()
	chunks := slices.Clone(r.chunks)
	n, last := r.kept(), r.seq
	r.mu.Unlock()
	return inSeqOrder(chunks, n, last)
}

// inSeqOrder returns the n events of chunks ordered by Seq, each a
// number in [1, last] given once (Recorder.begin). Spans are kept when
// they end, out of order: each event is put at its number's place (a
// quarter of the time sorting the 250-byte events took, BenchmarkEvents),
// or, when the numbers are far more than the events (most of a run
// dropped) or not what they should be, sorted.
func inSeqOrder(chunks [][]Event, n int, last uint64) []Event {
	out := make([]Event, 0, n)
	if last <= uint64(4*n+1024) && last < math.MaxInt32 {
		at := make([]int32, last+1) // at[seq]: 1 + the event's index in its chunk, chunk by chunk
		where := make([]uint16, last+1)
		ok := len(chunks) <= math.MaxUint16
		for ci, c := range chunks {
			for j := range c {
				seq := c[j].Seq
				if !ok || seq == 0 || seq > last || at[seq] != 0 {
					ok = false
					break
				}
				at[seq], where[seq] = int32(j+1), uint16(ci)
			}
		}
		if ok {
			for seq, j := range at {
				if j != 0 {
					out = append(out, chunks[where[seq]][j-1])
				}
			}
			return out
		}
	}
	for _, c := range chunks {
		out = append(out, c...)
	}
	slices.SortFunc(out, func(a, b Event) int { return cmp.Compare(a.Seq, b.Seq) })
	return out
}

// Dropped returns how many events were not kept because of the limit.
func (r *Recorder) Dropped() int {
	if r == nil {
		return 0
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.dropped
}

// secretWords are substrings of attribute keys whose values are redacted.
// Keys are compared in lower case with '-' read as '_', so "X-Api-Key"
// matches "api_key"; camelCase boundaries count as '_' too, so
// "privateKey" matches "private_key". The word token is decided apart
// (see tokenWordSecret): "token" names a secret, "tokens" a count.
var secretWords = []string{"authorization", "api_key", "apikey", "password", "secret", "private_key", "cookie", "credential", "bearer"}

// tokenQualifiers are the words before "tokens" that make it name
// credentials ("refresh_tokens", "accessTokens") rather than a count.
var tokenQualifiers = []string{"access", "refresh", "id", "auth", "oauth", "oauth2", "session", "bearer", "api", "csrf", "xsrf",
	"jwt", "secret", "security", "private", "personal", "device", "client", "app", "service", "github", "gh", "gitlab", "npm",
	"pypi", "slack", "hf", "bot", "login", "reset", "verification", "sso", "saml"}

// tokenCountWords after a singular "token" make it a count ("token_count").
var tokenCountWords = []string{"count", "counts", "usage"}

// Redacted is the value that replaces a redacted attribute.
const Redacted = "[redacted]"

// IsSecretKey reports whether an attribute or field key names a secret.
// Keys about token counts ("prompt_tokens", "tokens", "max_tokens",
// "inputTokens", "prompt_tokens_details", "token_count") are not secrets;
// credentials named in the plural ("refresh_tokens", "api_keys",
// "client_secrets") are.
func IsSecretKey(key string) bool {
	if v, ok := secretKeys.Load(key); ok {
		return v.(bool)
	}
	v := isSecretKey(key)
	// Span and event attribute keys are few and come back on every event;
	// the answers to at most secretKeysMax short ones are kept.
	if len(key) <= 64 && secretKeysLen.Load() < secretKeysMax {
		if _, loaded := secretKeys.LoadOrStore(strings.Clone(key), v); !loaded {
			secretKeysLen.Add(1)
		}
	}
	return v
}

// secretKeys caches IsSecretKey's answers (key → bool): lowering and
// splitting each attribute key of every span it ended took 2% of a
// 1,000-call fan-out's CPU.
var (
	secretKeys    sync.Map
	secretKeysLen atomic.Int64
)

const secretKeysMax = 4096

// isSecretKey is IsSecretKey without the cache.
func isSecretKey(key string) bool {
	k := strings.ReplaceAll(strings.ToLower(key), "-", "_")
	for _, w := range secretWords {
		if strings.Contains(k, w) {
			return true
		}
	}
	if !strings.Contains(k, "token") && !strings.Contains(k, "key") {
		return false // the word split below can only add a match of these
	}
	words := splitKey(key)
	joined := strings.Join(words, "_")
	for _, w := range secretWords {
		if strings.Contains(joined, w) {
			return true
		}
	}
	for i, w := range words {
		if tokenWordSecret(words, i, w) {
			return true
		}
	}
	return false
}

// tokenWordSecret decides the word words[i] of a key when it holds
// "token": a plural ("tokens", "inputtokens") is a count unless a
// credential qualifier precedes it ("refresh_tokens", "refreshtokens"); a
// singular is a secret unless a count word follows it ("token_count").
func tokenWordSecret(words []string, i int, w string) bool {
	if !strings.Contains(w, "token") {
		return false
	}
	if q, ok := strings.CutSuffix(w, "tokens"); ok {
		if q == "" && i > 0 {
			q = words[i-1]
		}
		return slices.Contains(tokenQualifiers, q)
	}
	if w == "token" && i+1 < len(words) && slices.Contains(tokenCountWords, words[i+1]) {
		return false
	}
	return true
}

// splitKey returns the lower-case words of a key: split at '_', '-', '.',
// spaces and camelCase boundaries ("refreshTokens", "APIKey").
func splitKey(key string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(key)
	for i, r := range rs {
		switch {
		case r == '_' || r == '-' || r == '.' || r == ' ' || r == '/' || r == ':':
			flush()
			continue
		case unicode.IsUpper(r) && i > 0:
			prev := rs[i-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && nextLower) {
				flush()
			}
		}
		cur = append(cur, r)
	}
	flush()
	return words
}

// Redact returns a copy of attrs with the values of secret-looking keys
// replaced by Redacted, recursively through nested maps (map[string]any,
// map[string]string, and map[string][]string such as HTTP headers) and
// slices. String values that carry a credential ("Bearer ...",
// "Basic ...") are redacted whatever their key.
func Redact(attrs map[string]any) map[string]any {
	if attrs == nil {
		return nil
	}
	return redactInPlace(maps.Clone(attrs))
}

// redactInPlace redacts attrs as Redact does, in attrs itself: for a map
// nobody else holds.
func redactInPlace(attrs map[string]any) map[string]any {
	for k, v := range attrs {
		if IsSecretKey(k) {
			attrs[k] = Redacted
			continue
		}
		attrs[k] = redactValue(v)
	}
	return attrs
}

// RedactValue returns a redacted copy of v, the one redactor for values
// that may be shown or recorded (trace attributes, approval records): the
// values of secret-looking keys (see IsSecretKey) in any nested map, and
// strings that carry a credential ("Bearer ...", "Basic ...") whatever
// their key, become Redacted. A json.RawMessage is decoded and redacted
// (undecodable, it is redacted whole); maps and slices of other types
// (http.Header, []map[string]any, …) are redacted as map[string]any and
// []any; other values are returned as they are.
func RedactValue(v any) any { return redactValue(v) }

func redactValue(v any) any {
	switch v := v.(type) {
	case json.RawMessage:
		var d any
		if json.Unmarshal(v, &d) != nil {
			return Redacted
		}
		return redactValue(d)
	case string:
		if isCredential(v) {
			return Redacted
		}
	case map[string]any:
		return Redact(v)
	case map[string]string:
		out := make(map[string]string, len(v))
		for k, s := range v {
			if IsSecretKey(k) || isCredential(s) {
				s = Redacted
			}
			out[k] = s
		}
		return out
	case map[string][]string:
		out := make(map[string][]string, len(v))
		for k, ss := range v {
			ss = slices.Clone(ss)
			for i := range ss {
				if IsSecretKey(k) || isCredential(ss[i]) {
					ss[i] = Redacted
				}
			}
			out[k] = ss
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = redactValue(e)
		}
		return out
	case []string:
		out := slices.Clone(v)
		for i := range out {
			if isCredential(out[i]) {
				out[i] = Redacted
			}
		}
		return out
	}
	return redactReflect(v)
}

// redactReflect redacts the collections the cases of redactValue do not
// name, which would otherwise be recorded as they are: a string-keyed map
// of any type (http.Header, map[string]int, map[string]json.RawMessage)
// becomes a redacted map[string]any, and a slice or array whose elements
// may hold a secret (maps, slices, interfaces, strings) a redacted []any.
// Anything else is returned as it is.
func redactReflect(v any) any {
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Map:
		if rv.IsNil() || rv.Type().Key().Kind() != reflect.String {
			return v
		}
		out := make(map[string]any, rv.Len())
		for it := rv.MapRange(); it.Next(); {
			k := it.Key().String()
			if IsSecretKey(k) {
				out[k] = Redacted
				continue
			}
			out[k] = redactElem(it.Value())
		}
		return out
	case reflect.Slice, reflect.Array:
		switch rv.Type().Elem().Kind() {
		case reflect.Map, reflect.Slice, reflect.Array, reflect.Interface, reflect.String:
		default:
			return v
		}
		if rv.Kind() == reflect.Slice && rv.IsNil() {
			return v
		}
		out := make([]any, rv.Len())
		for i := range out {
			out[i] = redactElem(rv.Index(i))
		}
		return out
	}
	return v
}

func redactElem(e reflect.Value) any {
	if e.Kind() == reflect.String && isCredential(e.String()) {
		return Redacted
	}
	return redactValue(e.Interface())
}

// isCredential reports whether s looks like an HTTP credential: an
// Authorization value of the Bearer or Basic scheme.
func isCredential(s string) bool {
	s = strings.TrimSpace(s)
	for _, scheme := range []string{"bearer ", "basic "} {
		if len(s) > len(scheme) && strings.EqualFold(s[:len(scheme)], scheme) {
			return true
		}
	}
	return false
}
