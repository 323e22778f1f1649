package viewer

import (
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/trace"
)

// genTrace returns a synthetic run of about n events shaped like a large
// real one: a run, 4 turns, each with the root model call and a map step
// whose branches (8 running at once) search the context and call the
// sub-model at depth 1; every 97th sub-call fails. Figures are
// deterministic.
func genTrace(n int) []trace.Event {
	t0 := time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)
	var evs []trace.Event
	add := func(parent string, depth int, kind trace.Kind, name string, start time.Time, d time.Duration) *trace.Event {
		seq := uint64(len(evs) + 1)
		evs = append(evs, trace.Event{Seq: seq, ID: "e" + strconv.FormatUint(seq, 10), Parent: parent, Depth: depth, Kind: kind, Name: name,
			Status: trace.StatusOK, Start: start, End: start.Add(d), DurationMS: float64(d.Microseconds()) / 1000})
		return &evs[len(evs)-1]
	}
	const turns = 4
	branches := max(1, (n-1-turns*3)/(turns*4))
	run := add("", 0, trace.KindRun, "rlm", t0, 0)
	run.Attrs = map[string]any{"turns": turns}
	at := t0
	calls := 0
	for k := 1; k <= turns; k++ {
		turn := add("e1", 0, trace.KindTurn, fmt.Sprintf("turn %d", k), at, 0)
		turnID, turnIdx := turn.ID, len(evs)-1
		mc := add(turnID, 0, trace.KindModelCall, "gpt-4o", at, 900*time.Millisecond)
		mc.Tokens = &trace.Tokens{Prompt: 2000, Completion: 200, Total: 2200}
		mc.CostUSD = 0.007
		at = at.Add(900 * time.Millisecond)
		mp := add(turnID, 0, trace.KindPlanStep, "map", at, 0)
		mapID, mapIdx := mp.ID, len(evs)-1
		mp.Attrs = map[string]any{"bind": "parts"}
		wave := at
		for b := 0; b < branches; b++ {
			if b > 0 && b%8 == 0 {
				wave = wave.Add(40 * time.Millisecond)
			}
			br := add(mapID, 0, trace.KindPlanStep, fmt.Sprintf("branch %d", b), wave, 40*time.Millisecond)
			br.Attrs = map[string]any{"branch": b}
			brID := br.ID
			op := add(brID, 0, trace.KindContextOp, "search", wave, 5*time.Millisecond)
			op.Attrs = map[string]any{"items": 3, "pattern": "ERROR"}
			sub := add(brID, 1, trace.KindModelCall, "gpt-4o-mini", wave.Add(5*time.Millisecond), 30*time.Millisecond)
			sub.Tokens = &trace.Tokens{Prompt: 900, Completion: 14, Total: 914}
			sub.CostUSD = 0.000145
			calls++
			if calls%97 == 0 {
				sub.Status = trace.StatusError
				sub.Error = fault.New(fault.PhaseProvider, "rate_limited", "429 from the provider")
				evs[len(evs)-2].Status = trace.StatusError // the branch
				evs[len(evs)-2].Error = fault.New(fault.PhaseExecute, "branch_failed", "branch failed")
			}
			add(brID, 1, trace.KindNote, "sub_call reply", wave.Add(35*time.Millisecond), 0)
		}
		end := wave.Add(40 * time.Millisecond)
		evs[mapIdx].End, evs[mapIdx].DurationMS = end, float64(end.Sub(evs[mapIdx].Start).Microseconds())/1000
		evs[turnIdx].End, evs[turnIdx].DurationMS = end, float64(end.Sub(evs[turnIdx].Start).Microseconds())/1000
		at = end
	}
	for len(evs) < n {
		add("e1", 0, trace.KindNote, "note", at, 0)
	}
	evs[0].End, evs[0].DurationMS = at, float64(at.Sub(t0).Microseconds())/1000
	return evs
}

// writeTrace writes evs as JSONL under dir.
func writeTrace(t testing.TB, dir, name string, evs []trace.Event) string {
	t.Helper()
	path := dir + string(os.PathSeparator) + name
	if err := trace.WriteFile(path, name, evs, 0); err != nil {
		t.Fatal(err)
	}
	return path
}

// totals sums what the page must show for evs.
func totals(evs []trace.Event) (tokens int64, cost float64, failed int) {
	for _, ev := range evs {
		if ev.Tokens != nil {
			tokens += ev.Tokens.Total
		}
		cost += ev.CostUSD
		if ev.Status == trace.StatusError {
			failed++
		}
	}
	return
}

// genCodeTrace returns a synthetic code-mode run of about n events, with
// content, shaped like a long real one: turns of a root model call, its
// reply note, one cell (code, output) making three sub-calls (each with
// its reply note); every 7th cell raises, every 25th turn's cell also
// runs a child RLM of one turn. Figures are deterministic.
func genCodeTrace(n int) []trace.Event {
	t0 := time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)
	var evs []trace.Event
	at := t0
	add := func(parent string, depth int, kind trace.Kind, name string, d time.Duration, attrs map[string]any) *trace.Event {
		seq := uint64(len(evs) + 1)
		evs = append(evs, trace.Event{Seq: seq, ID: "e" + strconv.FormatUint(seq, 10), Parent: parent, Depth: depth, Kind: kind, Name: name,
			Status: trace.StatusOK, Start: at, End: at.Add(d), DurationMS: float64(d.Microseconds()) / 1000, Attrs: attrs})
		at = at.Add(d)
		return &evs[len(evs)-1]
	}
	call := func(parent string, depth int, model string) {
		mc := add(parent, depth, trace.KindModelCall, model, 30*time.Millisecond, nil)
		mc.Tokens = &trace.Tokens{Prompt: 900, Completion: 14, Total: 914}
		mc.CostUSD = 0.000145
	}
	add("", 0, trace.KindRun, "rlm", 0, map[string]any{"query": "Which service failed first, and why?"})
	for k := 1; len(evs) < n-12; k++ {
		turn := add("e1", 0, trace.KindTurn, fmt.Sprintf("turn %d", k), 0, map[string]any{
			"reply": fmt.Sprintf("Chunk %d next.\n```python\nhits = context.search(\"ERROR\")[:%d]\nfor h in hits:\n    print(llm_query(h[\"text\"]))\n```", k, 3)})
		turnIdx, turnID := len(evs)-1, turn.ID
		call(turnID, 0, "gpt-4o")
		add(turnID, 0, trace.KindNote, "reply", 0, map[string]any{"code_blocks": 1})
		code := fmt.Sprintf("hits = context.search(\"ERROR\")[:3]  # chunk %d\nfor h in hits:\n    print(llm_query(h[\"text\"]))\n", k)
		cell := add(turnID, 0, trace.KindPlanStep, "cell", 0, map[string]any{"cell": 1, "code": code, "stdout": "no anomalies\nno anomalies\nno anomalies\n"})
		cellIdx, cellID := len(evs)-1, cell.ID
		for range 3 {
			call(cellID, 1, "gpt-4o-mini")
			add(cellID, 0, trace.KindNote, "sub_call reply", 0, map[string]any{"model": "gpt-4o-mini", "reply": "no anomalies"})
		}
		if k%25 == 0 {
			ch := add(cellID, 1, trace.KindChild, "depth 1", 0, map[string]any{"query": "root cause?", "answer": "a config push", "turns": 1})
			chIdx, chID := len(evs)-1, ch.ID
			ct := add(chID, 1, trace.KindTurn, "turn 1", 0, map[string]any{"reply": "```python\nFINAL(\"a config push\")\n```"})
			call(ct.ID, 1, "gpt-4o-mini")
			add(ct.ID, 1, trace.KindPlanStep, "cell", time.Millisecond, map[string]any{"cell": 1, "code": "FINAL(\"a config push\")\n", "final": true})
			evs[chIdx].End, evs[chIdx].DurationMS = at, float64(at.Sub(evs[chIdx].Start).Microseconds())/1000
		}
		if k%7 == 0 {
			c := &evs[cellIdx]
			c.Status = trace.StatusError
			c.Error = fault.New(fault.PhaseExecute, trace.KindCellException, "the cell raised KeyError").With("exception", "KeyError")
			c.Attrs["exception"] = "KeyError"
			c.Attrs["stderr"] = "KeyError: 'text' (line 3)"
		}
		evs[cellIdx].End, evs[cellIdx].DurationMS = at, float64(at.Sub(evs[cellIdx].Start).Microseconds())/1000
		evs[turnIdx].End, evs[turnIdx].DurationMS = at, float64(at.Sub(evs[turnIdx].Start).Microseconds())/1000
	}
	evs[0].End, evs[0].DurationMS = at, float64(at.Sub(t0).Microseconds())/1000
	evs[0].Attrs["answer"] = "payments-db, after a config push"
	return evs
}
