package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/plan"
)

// scripted answers the i-th request (0-based) with replies[i].
func scripted(replies ...string) func(req model.Request) string {
	return func(req model.Request) string {
		i := 0
		for _, m := range req.Messages {
			if m.Role == model.RoleAssistant {
				i++
			}
		}
		if i >= len(replies) {
			return `{"answer":"out of script"}`
		}
		return replies[i]
	}
}

const fakeKey = "sk-FAKE-rlm-9f8e7d6c5b4a3210"

var searchPlan = `{"steps":[{"op":"context","handle":{"ref":"input","name":"context"},"action":{"type":"search","pattern":"secret"},"bind":"hits"}]}`

// Real models' habits: a reasoning block before the JSON and extra keys on
// the answer object. Both are accepted; the extras are metadata.
func TestRealModelReplies(t *testing.T) {
	cases := []struct {
		name  string
		reply string
		meta  map[string]any
	}{
		{"think block", "<think>\nMaybe {\"answer\": \"no\"}? Let me check {\"steps\": []}.\n</think>\n{\"answer\": \"yes\"}", nil},
		{"reasoning block", "<reasoning>draft {\"answer\":1}</reasoning>\n```json\n{\"answer\": \"yes\"}\n```", nil},
		{"extra keys", `{"answer": "yes", "confidence": 0.9, "sources": ["line 2"]}`, map[string]any{"confidence": 0.9, "sources": []any{"line 2"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			eng, p, h := newRecorderEngine(t, haystack, Config{}, scripted(c.reply))
			res, err := eng.Run(context.Background(), "q", h)
			if err != nil || res.Answer != "yes" || len(p.requests()) != 1 {
				t.Fatalf("%v answer=%v requests=%d", err, res.Answer, len(p.requests()))
			}
			if fmt.Sprint(res.AnswerMeta) != fmt.Sprint(c.meta) {
				t.Fatalf("answer_meta %v, want %v", res.AnswerMeta, c.meta)
			}
		})
	}
}

// MaxRepairs rejected replies in a row are each answered with a repair
// message that shows the expected shapes; one more fails the run with the
// attempt, the repairs and a redacted excerpt of the reply.
func TestMaxRepairs(t *testing.T) {
	bad := "not json, and my key is " + fakeKey + " ok"
	t.Run("two repairs then success", func(t *testing.T) {
		eng, p, h := newRecorderEngine(t, haystack, Config{}, scripted(bad, bad, `{"answer":"fixed"}`))
		res, err := eng.Run(context.Background(), "q", h)
		if err != nil || res.Answer != "fixed" {
			t.Fatalf("%v %+v", err, res)
		}
		reqs := p.requests()
		if len(reqs) != 3 {
			t.Fatalf("%d requests", len(reqs))
		}
		last := reqs[2].Messages[len(reqs[2].Messages)-1].Content
		for _, want := range []string{"rejected without execution", "kind=no_json", `{"answer": `, `{"steps": [`, "Repair 2 of 2"} {
			if !strings.Contains(last, want) {
				t.Fatalf("repair message lacks %q:\n%s", want, last)
			}
		}
		if strings.Contains(allText(reqs[2]), "FAKE") {
			t.Fatal("the repair conversation echoes the rejected reply")
		}
	})
	t.Run("third rejection fails", func(t *testing.T) {
		eng, p, h := newRecorderEngine(t, haystack, Config{}, scripted(bad, bad, bad, `{"answer":"never"}`))
		res, err := eng.Run(context.Background(), "q", h)
		fe := fault.As(err)
		if fe == nil || fe.Kind != plan.KindNoJSON || len(p.requests()) != 3 {
			t.Fatalf("%v after %d requests", err, len(p.requests()))
		}
		if fe.Detail["attempt"] != 3 || fe.Detail["repairs"] != 2 {
			t.Fatalf("detail %v", fe.Detail)
		}
		excerpt, _ := fe.Detail["reply_excerpt"].(string)
		if !strings.HasPrefix(excerpt, "not json, and my key is ") || strings.Contains(excerpt, "9f8e7d6c") {
			t.Fatalf("reply_excerpt %q", excerpt)
		}
		raw, _ := json.Marshal(res)
		if strings.Contains(string(raw), "9f8e7d6c") || !strings.Contains(string(raw), "not json, and my key is") {
			t.Fatalf("result JSON: %s", raw)
		}
		part, _ := res.Partial.(map[string]any)
		if part["rejected_reply"] != excerpt || part["attempt"] != 3 {
			t.Fatalf("partial %v", res.Partial)
		}
	})
	t.Run("configured", func(t *testing.T) {
		for _, c := range []struct{ max, calls int }{{-1, 1}, {1, 2}, {4, 5}} {
			eng, p, h := newRecorderEngine(t, haystack, Config{MaxRepairs: c.max}, scripted(bad, bad, bad, bad, bad, bad))
			_, err := eng.Run(context.Background(), "q", h)
			if fault.KindOf(err) != plan.KindNoJSON || len(p.requests()) != c.calls {
				t.Fatalf("MaxRepairs %d: %v after %d requests", c.max, err, len(p.requests()))
			}
		}
	})
	t.Run("long reply is bounded", func(t *testing.T) {
		long := strings.Repeat("é", 1000)
		eng, _, h := newRecorderEngine(t, haystack, Config{MaxRepairs: -1}, scripted(long))
		_, err := eng.Run(context.Background(), "q", h)
		if ex, _ := fault.As(err).Detail["reply_excerpt"].(string); len(ex) > ReplyExcerptBytes || len(ex) < ReplyExcerptBytes-2 {
			t.Fatalf("excerpt of %d bytes", len(ex))
		}
	})
}

// The observer sees every turn: the reply, its outcome, the repair, and
// the observation fed back; and every sub-call.
func TestObserverSeesEveryTurn(t *testing.T) {
	modelStep := `{"steps":[{"op":"model","prompt":"say hi","bind":"hi"}]}`
	var events []Event
	cfg := Config{Observer: func(ev Event) { events = append(events, ev) }}
	eng, _, h := newRecorderEngine(t, haystack, cfg, func(req model.Request) string {
		if len(req.Messages) == 1 {
			return "hi " + fakeKey
		}
		return scripted(searchPlan, "oops", modelStep, `{"answer":"ABC-123"}`)(req)
	})
	res, err := eng.Run(context.Background(), "q", h)
	if err != nil || res.Answer != "ABC-123" {
		t.Fatalf("%v %+v", err, res)
	}
	var got []string
	for _, ev := range events {
		got = append(got, fmt.Sprintf("%s d%d t%d a%d %s repair=%v", ev.Kind, ev.Depth, ev.Turn, ev.Attempt, ev.Outcome, ev.Repair))
	}
	want := []string{
		"turn d0 t1 a1 plan repair=false",
		"turn d0 t2 a1 rejected repair=true",
		"sub_call d1 t0 a0  repair=false",
		"turn d0 t3 a2 plan repair=false",
		"turn d0 t4 a1 answer repair=false",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if events[0].Reply != searchPlan || !strings.Contains(events[0].Observation, "hits = ") || !strings.Contains(events[0].Observation, "ABC-123") {
		t.Fatalf("first turn: %+v", events[0])
	}
	if events[1].Reply != "oops" || events[1].Error == nil || events[1].Error.Kind != plan.KindNoJSON {
		t.Fatalf("rejected turn: %+v", events[1])
	}
	if sc := events[2]; !strings.HasPrefix(sc.Reply, "hi ") || strings.Contains(sc.Reply, "9f8e7d6c") || sc.Model != "m" {
		t.Fatalf("sub-call: %+v", sc)
	}
	if events[4].Reply != `{"answer":"ABC-123"}` {
		t.Fatalf("answer turn: %+v", events[4])
	}
}

// Events yields the same events, then the result; breaking out early
// cancels the run.
func TestEventsIterator(t *testing.T) {
	eng, _, h := newRecorderEngine(t, haystack, Config{}, scripted(searchPlan, `{"answer":"done"}`))
	var kinds []string
	for ev, err := range eng.Events(context.Background(), "q", h) {
		kinds = append(kinds, string(ev.Kind)+":"+ev.Outcome)
		if ev.Kind == EventDone && (err != nil || ev.Result.Answer != "done") {
			t.Fatalf("done: %v %+v", err, ev.Result)
		}
	}
	if got := strings.Join(kinds, " "); got != "turn:plan turn:answer done:" {
		t.Fatalf("events %s", got)
	}
	// Stop after the first event: the run ends, nothing leaks (goleak in
	// TestMain), and no done event follows.
	n := 0
	for range eng.Events(context.Background(), "q", h) {
		n++
		break
	}
	if n != 1 {
		t.Fatal(n)
	}
}

// With TraceContent the turn span keeps the reply (redacted); without it
// the trace holds no model text.
func TestTraceContent(t *testing.T) {
	reply := `{"answer":"the key is ` + fakeKey + `"}`
	for _, on := range []bool{false, true} {
		eng, _, h := newRecorderEngine(t, haystack, Config{TraceContent: on}, scripted(reply))
		res, err := eng.Run(context.Background(), "q", h)
		if err != nil {
			t.Fatal(err)
		}
		var found string
		for _, ev := range res.Trajectory {
			if s, ok := ev.Attrs["reply"].(string); ok && ev.Kind == "turn" {
				found = s
			}
		}
		raw, _ := json.Marshal(res.Trajectory)
		if strings.Contains(string(raw), "9f8e7d6c") {
			t.Fatalf("trace leaks the key: %s", raw)
		}
		if on != strings.Contains(found, `{"answer":"the key is `) {
			t.Fatalf("TraceContent=%v: reply attribute %q", on, found)
		}
	}
}

// streamer answers in pieces through Request.OnDelta, as a streaming
// provider does.
type streamer struct {
	pieces []string
	reqs   []model.Request
}

func (s *streamer) Complete(ctx context.Context, req model.Request) (*model.Response, error) {
	s.reqs = append(s.reqs, req)
	for _, p := range s.pieces {
		if req.OnDelta != nil {
			req.OnDelta(p)
		}
	}
	return &model.Response{Text: strings.Join(s.pieces, ""), Meta: model.Meta{Streamed: req.Stream}}, nil
}

// Config.Stream asks for streamed root replies; the deltas reach the
// observer in order, with a credential split over pieces still redacted.
func TestStreamDeltas(t *testing.T) {
	pieces := []string{`{"answer": "use `, "Bearer", " sk-FA", "KE-rlm-9f8e", "7d6c5b4a3210", ` now"`, "}"}
	s := &streamer{pieces: pieces}
	var deltas strings.Builder
	cfg := Config{Stream: true, Observer: func(ev Event) {
		if ev.Kind == EventDelta {
			deltas.WriteString(ev.Delta)
		}
	}}
	eng, _, h := newRecorderEngine(t, haystack, cfg, nil)
	eng.cfg.Provider = s
	res, err := eng.Run(context.Background(), "q", h)
	if err != nil || !strings.HasPrefix(fmt.Sprint(res.Answer), "use Bearer sk-FAKE") {
		t.Fatalf("%v %v", err, res.Answer)
	}
	if !s.reqs[0].Stream {
		t.Fatal("root request not streamed")
	}
	got := deltas.String()
	if strings.Contains(got, "9f8e") || !strings.HasPrefix(got, `{"answer": "use Bearer [redacted]`) || !strings.HasSuffix(got, ` now"}`) {
		t.Fatalf("deltas %q", got)
	}
}
