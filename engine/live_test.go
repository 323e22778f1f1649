package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/trace"
)

// splitStreamer answers with script and, for a streamed request, sends
// the reply word by word through OnDelta first.
type splitStreamer struct{ script func(model.Request) string }

func (s splitStreamer) Complete(ctx context.Context, req model.Request) (*model.Response, error) {
	text := s.script(req)
	if req.Stream && req.OnDelta != nil {
		for _, w := range strings.SplitAfter(text, " ") {
			req.OnDelta(w)
		}
	}
	return &model.Response{Text: text}, nil
}

// liveRuns are runs whose replies, observations, sub-call replies,
// deltas and cell output hold markers ("MARK-…"): plan mode (a search
// whose hit is the input's marker, a sub-call, a rejected reply) and code
// mode (cells printing, llm_query).
func liveRuns() []struct {
	name   string
	cfg    Config
	script func(model.Request) string
} {
	planModel := `{"steps":[{"op":"model","prompt":"say it","bind":"said"}]}`
	planSearch := `{"steps":[{"op":"context","handle":{"ref":"input","name":"context"},"action":{"type":"search","pattern":"INPUT"},"bind":"hits"}]}`
	sub := func(next func(model.Request) string) func(model.Request) string {
		return func(req model.Request) string {
			if len(req.Messages) == 1 {
				return "the sub-model says MARK-SUB"
			}
			return next(req)
		}
	}
	return []struct {
		name   string
		cfg    Config
		script func(model.Request) string
	}{
		{"plan", Config{Stream: true}, sub(scripted(planSearch, "MARK-REJECTED reply", planModel, `{"answer":"MARK-ANSWER"}`))},
		{"code", Config{Stream: true, Mode: ModeCode}, sub(scripted(
			"```python\n# MARK-CODE\nprint('MARK' + '-OUT')\n```\n```python\nx = llm_query('say it')\n```",
			"```python\nFINAL(x)\n```"))},
	}
}

// A run without TraceContent keeps no model text in its trace (the
// recorder's events, as files and OTLP export them) while its live
// observer saw the replies, observations, sub-call replies and deltas.
func TestLiveTextNeverStored(t *testing.T) {
	for _, c := range liveRuns() {
		t.Run(c.name, func(t *testing.T) {
			var mu sync.Mutex
			var seen strings.Builder
			kinds := map[trace.Kind]bool{}
			rec := trace.NewRecorder(trace.WithLiveObserver(func(ev trace.Event) {
				mu.Lock()
				defer mu.Unlock()
				for _, v := range ev.Live {
					fmt.Fprintf(&seen, "%v\n", v)
				}
				if ev.Live != nil {
					kinds[ev.Kind] = true
				}
			}))
			eng, _, h := newRecorderEngine(t, "first line\nMARK-INPUT here\n", c.cfg, nil)
			eng.cfg.Provider, eng.cfg.SubProvider = splitStreamer{c.script}, splitStreamer{c.script}
			res, err := eng.Run(trace.WithRecorder(context.Background(), rec), "q", h)
			if err != nil {
				t.Fatal(err)
			}
			stored, _ := json.Marshal(rec.Events())
			if strings.Contains(string(stored), "MARK") {
				t.Fatalf("the trace keeps model text: %s", stored)
			}
			for _, ev := range res.Trajectory {
				if ev.Live != nil {
					t.Fatalf("trajectory event with live attributes: %+v", ev)
				}
			}
			want := []string{"MARK-SUB", "MARK-ANSWER", "MARK-REJECTED", "MARK-INPUT"} // replies, sub-call, observation
			if c.cfg.Mode == ModeCode {
				want = []string{"MARK-CODE", "MARK-OUT", "MARK-SUB"}
			}
			for _, m := range want {
				if !strings.Contains(seen.String(), m) {
					t.Errorf("the live observer did not see %s:\n%s", m, seen.String())
				}
			}
			if !kinds[trace.KindDelta] || !kinds[trace.KindTurn] || !kinds[trace.KindNote] {
				t.Errorf("live events of kinds %v", kinds)
			}
		})
	}
}

// Config.Observer's events are EventOf of the trace events a live
// observer of the same run sees, in the same order.
func TestObserverIsAViewOfTraceEvents(t *testing.T) {
	for _, c := range liveRuns() {
		t.Run(c.name, func(t *testing.T) {
			var fromCfg, fromTrace []Event
			cfg := c.cfg
			cfg.Observer = func(ev Event) { fromCfg = append(fromCfg, ev) }
			rec := trace.NewRecorder(trace.WithLiveObserver(func(ev trace.Event) {
				if e, ok := EventOf(ev); ok {
					fromTrace = append(fromTrace, e)
				}
			}))
			eng, _, h := newRecorderEngine(t, "first line\nMARK-INPUT here\n", cfg, nil)
			eng.cfg.Provider, eng.cfg.SubProvider = splitStreamer{c.script}, splitStreamer{c.script}
			if _, err := eng.Run(trace.WithRecorder(context.Background(), rec), "q", h); err != nil {
				t.Fatal(err)
			}
			if len(fromCfg) < 5 || !reflect.DeepEqual(fromCfg, fromTrace) {
				t.Fatalf("Config.Observer saw %d events:\n%+v\nthe trace's view %d:\n%+v", len(fromCfg), fromCfg, len(fromTrace), fromTrace)
			}
			seen := map[EventKind]bool{}
			for _, ev := range fromCfg {
				seen[ev.Kind] = true
			}
			want := []EventKind{EventTurn, EventSubCall, EventDelta}
			if c.cfg.Mode == ModeCode {
				want = append(want, EventReply, EventCell)
			}
			for _, k := range want {
				if !seen[k] {
					t.Errorf("no %s event", k)
				}
			}
		})
	}
}

// Without a live observer or Config.Observer nothing live is computed:
// the turn spans carry no live attributes and no delta is emitted.
func TestNoListenerNoLiveEvents(t *testing.T) {
	var n int
	rec := trace.NewRecorder(trace.WithObserver(func(ev trace.Event) {
		if ev.Live != nil || ev.LiveOnly() {
			n++
		}
	}))
	c := liveRuns()[0]
	eng, _, h := newRecorderEngine(t, "MARK-INPUT\n", c.cfg, nil)
	eng.cfg.Provider, eng.cfg.SubProvider = splitStreamer{c.script}, splitStreamer{c.script}
	if _, err := eng.Run(trace.WithRecorder(context.Background(), rec), "q", h); err != nil || n != 0 {
		t.Fatalf("%v; %d live events reached a WithObserver observer", err, n)
	}
}

// A run a tool call of another run started (its context carries the
// caller's budget tracker, as an rlm_subagent child's does) keeps its
// steps out of the recorder's live observers, as before the events were
// one type: only its own Config.Observer sees them.
func TestNestedRunNotLive(t *testing.T) {
	c := liveRuns()[0]
	for _, own := range []bool{false, true} {
		var live, mine int
		rec := trace.NewRecorder(trace.WithLiveObserver(func(ev trace.Event) {
			if _, ok := EventOf(ev); ok {
				live++
			}
		}))
		cfg := c.cfg
		if own {
			cfg.Observer = func(Event) { mine++ }
		}
		eng, _, h := newRecorderEngine(t, "MARK-INPUT\n", cfg, nil)
		eng.cfg.Provider, eng.cfg.SubProvider = splitStreamer{c.script}, splitStreamer{c.script}
		ctx := budget.WithTracker(trace.WithRecorder(context.Background(), rec), budget.NewTracker(budget.DefaultLimits), 0)
		if _, err := eng.Run(ctx, "q", h); err != nil {
			t.Fatal(err)
		}
		if own != (mine > 0) || !own && live != 0 {
			t.Fatalf("own observer %v: it saw %d events, the recorder's live observer %d", own, mine, live)
		}
	}
}
