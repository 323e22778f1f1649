package rlm

import (
	"context"
	"sort"

	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/trace"
)

// Chat is a persistent code-mode session over the Spec's context: one
// interpreter keeps its variables, the context and the history of earlier
// queries and answers across Ask calls; each Ask is a run with its own
// budgets.
type Chat struct {
	s     *Session
	store *corpus.Store
	es    *engine.Session
	live  *trace.LiveFile
	rec   *trace.Recorder
	seen  uint64 // the last sequence number of the queries so far
}

// Chat opens a chat over the Spec's contexts (code mode whatever
// Spec.Mode says). saved, when not nil, is what Chat.Save returned: the
// session resumes from it. With Spec.Trace one recorder holds the whole
// chat (event ids are unique in the file); Close writes it.
func (s *Session) Chat(ctx context.Context, saved []byte) (*Chat, error) {
	c := &Chat{s: s, store: corpus.NewStore()}
	if err := c.open(ctx, saved); err != nil {
		c.store.Close()
		return nil, err
	}
	return c, nil
}

func (c *Chat) open(ctx context.Context, saved []byte) error {
	h, err := c.s.addContext(ctx, c.store)
	if err != nil {
		return err
	}
	cfg := c.s.engineConfig(c.store, "")
	cfg.Mode = engine.ModeCode
	eng, err := engine.New(cfg)
	if err != nil {
		return err
	}
	if saved != nil {
		c.es, err = eng.ResumeSession(saved, h)
	} else {
		c.es, err = eng.NewSession(h)
	}
	if err != nil {
		return err
	}
	if c.live, err = trace.OpenLive(c.s.spec.Trace); err != nil {
		return err
	}
	if c.s.spec.Trace != "" || len(c.s.opts.observers)+len(c.s.opts.liveObservers) > 0 {
		c.rec = c.s.traceRecorder(c.live, nil)
	}
	return nil
}

// Ask answers one query in the session. The result's Trajectory holds
// this query's events only.
func (c *Chat) Ask(ctx context.Context, query string) (*Result, error) {
	if c.rec != nil {
		ctx = trace.WithRecorder(ctx, c.rec)
	}
	res, err := c.es.Ask(ctx, query)
	if c.rec != nil && res != nil {
		res.Trajectory, c.seen = eventsAfter(res.Trajectory, c.seen)
	}
	return &Result{Result: res}, err
}

// Save returns the session (history and plain-data variables) as JSON,
// for Session.Chat to resume.
func (c *Chat) Save() ([]byte, error) { return c.es.Save() }

// Close writes the trace (Spec.Trace) and releases the chat's context.
func (c *Chat) Close() error {
	defer c.store.Close()
	if c.s.spec.Trace == "" {
		return nil
	}
	return c.live.WriteFile(c.s.spec.Trace, "rlm chat", c.rec.Events(), c.rec.Dropped())
}

// eventsAfter returns the events of a sorted trajectory whose sequence
// numbers follow seen, and the last sequence number of the trajectory.
func eventsAfter(events []trace.Event, seen uint64) ([]trace.Event, uint64) {
	i := sort.Search(len(events), func(i int) bool { return events[i].Seq > seen })
	if n := len(events); n > 0 {
		seen = max(seen, events[n-1].Seq)
	}
	return events[i:], seen
}
