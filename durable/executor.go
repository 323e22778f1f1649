package durable

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/fingerprint"
	"github.com/rlm-go/rlm/internal/convhash"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/trace"
)

// Executor is the durable engine.Executor of one run: each completed model
// request and tool call is recorded in rlm.steps under its key, and a call
// whose key is recorded is answered from the record instead of being sent
// or executed. The engine admits and charges a recorded answer exactly
// like a sent one, so a resumed run's usage is the sum of its records.
//
// A call's key is its place in the run tree: the path of its loop (the
// root, then for each child the parent's turn and the child's (query,
// context) fingerprint), the loop's turn, the call's kind and a digest of
// its content (the request without max_tokens, which admission may shrink;
// the tool name and arguments), and its occurrence among identical calls
// of that turn (a failed call gives its occurrence back to its retry).
// The key does not depend on the order in which a fan-out's calls start,
// so a resumed fan-out finds its calls' records whatever order they run
// in. Identical calls of one turn are interchangeable:
// which of them gets which record does not change the run.
type Executor struct {
	store *Store
	run   string
	fail  func(error)

	// empty is set when the run had no record when its first call came:
	// a new run, whose calls need no lookup.
	mu      sync.Mutex
	checked bool
	empty   bool

	remote model.Provider // the queue, when the run has one

	occ      sync.Map // base key -> *occurrences
	replayed atomic.Int64
	recorded atomic.Int64

	digests *convhash.Memo // requestDigest's states of the run's conversations
}

var _ engine.Executor = (*Executor)(nil)

// NewExecutor returns the durable executor of run. fail, when set, is
// called when a completed call cannot be recorded (the database stayed
// unreachable): the caller should end the run, whose further calls could
// not be resumed.
func NewExecutor(s *Store, run string, fail func(error)) *Executor {
	return &Executor{store: s, run: run, fail: fail, digests: newDigestMemo()}
}

// SubProvider returns the provider for the run's sub-model calls: the
// run's queue when it has one (Config.Queue), else local.
func (x *Executor) SubProvider(local model.Provider) model.Provider {
	if x.remote != nil {
		return x.remote
	}
	return local
}

// Replayed counts the calls answered from records.
func (x *Executor) Replayed() int64 { return x.replayed.Load() }

// Recorded counts the calls this process completed and recorded.
func (x *Executor) Recorded() int64 { return x.recorded.Load() }

// loopKey carries a loop's path in the run tree.
type loopKey struct{}

func loopPath(ctx context.Context) string {
	p, _ := ctx.Value(loopKey{}).(string)
	if p == "" {
		return "root"
	}
	return p
}

// lookup returns the record of key, skipping the query for a run that had
// no records when this execution started.
func (x *Executor) lookup(ctx context.Context, key string) (record, bool, error) {
	x.mu.Lock()
	if !x.checked {
		t, err := x.store.Totals(ctx, x.run)
		if err != nil {
			x.mu.Unlock()
			return record{}, false, err
		}
		x.checked, x.empty = true, t.Steps == 0
	}
	empty := x.empty
	x.mu.Unlock()
	if empty {
		return record{}, false, nil
	}
	return x.store.lookup(ctx, x.run, key)
}

// lookupOrEnd is lookup, ending the execution when the database stayed
// unreachable: the calls after this one could not be looked up either,
// and a fan-out would turn each into an error value and finish the run
// with them.
func (x *Executor) lookupOrEnd(ctx context.Context, key string) (record, bool, error) {
	rec, ok, err := x.lookup(ctx, key)
	if fault.KindOf(err) == KindDBUnavailable {
		x.failed(err)
	}
	return rec, ok, err
}

// key returns the key of the next call with this base in its loop and
// turn, and release, which gives the call's occurrence back when the call
// is not recorded (it failed): its retry then takes the same key, so a
// resumed run finds the retry's record where it looks first.
func (x *Executor) key(ctx context.Context, c engine.Call, digest string) (key string, release func()) {
	base := loopPath(ctx) + "/t" + strconv.Itoa(c.Turn) + "/" + c.Kind + ":" + digest
	v, _ := x.occ.LoadOrStore(base, &occurrences{})
	o := v.(*occurrences)
	n := o.take()
	return base + "#" + strconv.FormatInt(n, 10), func() { o.give(n) }
}

// occurrences numbers the identical calls of one turn: a call takes the
// lowest number no other call holds.
type occurrences struct {
	mu   sync.Mutex
	next int64
	free []int64 // numbers given back, ascending
}

func (o *occurrences) take() int64 {
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.free) > 0 {
		n := o.free[0]
		o.free = o.free[1:]
		return n
	}
	o.next++
	return o.next - 1
}

func (o *occurrences) give(n int64) {
	o.mu.Lock()
	defer o.mu.Unlock()
	i, _ := slices.BinarySearch(o.free, n)
	o.free = slices.Insert(o.free, i, n)
}

// requestDigest identifies a model request by what the model is asked:
// model, messages, tools, options; not max_tokens (admission shrinks it
// to what is left of the budget) nor streaming. It is fingerprint.Bytes of
// the request's encoding/json encoding, CachePrefix's marks written into
// the messages, as the digests of runs recorded before the field existed
// have them. memo, when not nil, remembers the run's conversations, so a
// turn's digest hashes only the messages the turn added (the digest is
// the same: internal/convhash).
func requestDigest(memo *convhash.Memo, req model.Request) string {
	req.MaxTokens, req.Stream, req.OnDelta = 0, false, nil
	if memo != nil {
		if sum, ok := memo.Sum(req, func(bare model.Request) ([]byte, error) { return json.Marshal(bare) }); ok {
			return sum
		}
	}
	req = req.CacheMarked()
	raw, err := json.Marshal(req)
	if err != nil {
		return fingerprint.MustOf(fmt.Sprint(req))
	}
	return fingerprint.Bytes(raw)
}

// newDigestMemo returns a memo of requestDigest's documents, whose
// messages encoding/json writes.
func newDigestMemo() *convhash.Memo {
	return &convhash.Memo{Encode: func(m model.Message) ([]byte, error) { return json.Marshal(m) }}
}

// Model answers req from its record, or sends it and records the response.
func (x *Executor) Model(ctx context.Context, c engine.Call, req model.Request, p model.Provider) (*model.Response, error) {
	key, release := x.key(ctx, c, requestDigest(x.digests, req))
	rec, ok, err := x.lookupOrEnd(ctx, key)
	if err != nil {
		release()
		return nil, err
	}
	if ok {
		var resp model.Response
		if err := json.Unmarshal(rec.Result, &resp); err != nil {
			return nil, fault.Wrap(err, fault.PhaseExecute, KindCheckpointCorrupt, "a recorded model response cannot be decoded").With("key", key)
		}
		x.replayed.Add(1)
		trace.Emit(ctx, trace.KindNote, "replayed from checkpoint", map[string]any{"key": key, "kind": c.Kind}, nil)
		return &resp, nil
	}
	resp, err := p.Complete(ctx, req)
	if err != nil || resp == nil {
		// Failed calls are not recorded: a resumed run sends them again.
		release()
		if fault.KindOf(err) == KindDBUnavailable {
			// A queued call whose queue could not be reached: the
			// calls after it could not be either, and a fan-out would
			// turn each into an error value. End the execution.
			x.failed(err)
		}
		return resp, err
	}
	raw, merr := json.Marshal(resp)
	if merr != nil {
		return nil, fault.Wrap(merr, fault.PhaseExecute, fault.KindInternal, "a model response is not JSON-encodable")
	}
	if err := x.store.save(context.WithoutCancel(ctx), x.run, key, engine.CallModel, raw, resp.Usage); err != nil {
		x.failed(err)
		return resp, nil
	}
	x.recorded.Add(1)
	return resp, nil
}

// Tool answers a tool call from its record, or runs it and records the
// result.
func (x *Executor) Tool(ctx context.Context, c engine.Call, name string, args json.RawMessage, call func(context.Context) (json.RawMessage, error)) (json.RawMessage, error) {
	canon, err := fingerprint.Canonical(args)
	if err != nil || args == nil { // not a document: keyed as given (nil is not "null")
		canon = args
	}
	key, release := x.key(ctx, c, fingerprint.Bytes(append([]byte(name+"\x00"), canon...)))
	rec, ok, err := x.lookupOrEnd(ctx, key)
	if err != nil {
		release()
		return nil, err
	}
	if ok {
		x.replayed.Add(1)
		trace.Emit(ctx, trace.KindNote, "replayed from checkpoint", map[string]any{"key": key, "kind": c.Kind, "tool": name}, nil)
		return rec.Result, nil
	}
	out, err := call(ctx)
	if err != nil {
		release()
		return nil, err
	}
	if !json.Valid(out) {
		release()
		return out, nil
	}
	if err := x.store.save(context.WithoutCancel(ctx), x.run, key, engine.CallTool, out, budget.Usage{}); err != nil {
		x.failed(err)
		return out, nil
	}
	x.recorded.Add(1)
	return out, nil
}

// Child runs a child loop with its place in the run tree in ctx.
func (x *Executor) Child(ctx context.Context, c engine.Call, run func(context.Context) (any, error)) (any, error) {
	path, _ := x.key(ctx, c, c.Fingerprint)
	return run(context.WithValue(ctx, loopKey{}, path))
}

// failed ends the execution through fail with a typed reason: the
// database stayed unreachable past the retries (db_unavailable), for a
// record or a queued call, or the store's own error.
func (x *Executor) failed(err error) {
	if fault.As(err) == nil {
		err = fault.Wrap(err, fault.PhaseExecute, fault.KindInternal, "a completed call could not be recorded")
	}
	if x.fail != nil {
		x.fail(err)
	}
}
