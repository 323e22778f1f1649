package console_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlm-go/rlm/answer"
	"github.com/rlm-go/rlm/console"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/plan"
	"github.com/rlm-go/rlm/trace"
)

var update = flag.Bool("update", os.Getenv("UPDATE_GOLDEN") == "1", "rewrite golden files")

// live is a trace event carrying the engine's live attributes.
func live(kind trace.Kind, name string, depth int, attrs map[string]any) trace.Event {
	return trace.Event{Kind: kind, Name: name, Depth: depth, Status: trace.StatusOK, Live: attrs}
}

func turnEv(depth int, attrs map[string]any) trace.Event {
	return live(trace.KindTurn, fmt.Sprintf("turn %v", attrs[trace.AttrTurn]), depth, attrs)
}

func replyEv(depth int, attrs map[string]any) trace.Event {
	return live(trace.KindNote, trace.NoteReply, depth, attrs)
}

func cellEv(depth, cell, cells int) trace.Event {
	ev := live(trace.KindPlanStep, "cell", depth, map[string]any{trace.AttrTurn: 1, trace.AttrModel: "m", trace.AttrMode: engine.ModeCode,
		trace.AttrCell: cell, trace.AttrCells: cells})
	ev.Status = trace.StatusStarted
	return ev
}

// subCallEv is the note of a sub-call made by a loop at depth.
func subCallEv(depth int, attrs map[string]any) trace.Event {
	return live(trace.KindNote, trace.NoteSubCall, depth, attrs)
}

func deltaEv(turn int, text string) trace.Event {
	return live(trace.KindDelta, "", 0, map[string]any{trace.AttrTurn: turn, trace.AttrModel: "m", trace.AttrDelta: text})
}

// verboseCases are event sequences covering every case the printer
// handles: plan and code turns and their outcomes, children, cells,
// sub-calls, streamed replies (printed, or as a status line), long
// replies, control characters with and without Raw, and events it
// ignores.
func verboseCases() []struct {
	name   string
	opts   console.VerboseOptions
	events []trace.Event
} {
	badPath := fault.New(fault.PhaseValidate, plan.KindUnknownOp, "unknown op").With("path", "steps[0].op")
	noJSON := fault.New(fault.PhaseParse, plan.KindNoJSON, "no JSON")
	failed := fault.New(fault.PhaseProvider, "http_error", "HTTP 500")
	badAnswer := fault.New(fault.PhaseValidate, answer.KindInvalid, "x").With("pointer", "/count").With("keyword", "type")
	missing := fault.New(fault.PhaseValidate, answer.KindInvalid, "x").With("pointer", "").With("keyword", "required")
	long := strings.Repeat("x", engine.EventTextBytes)
	planTurns := []trace.Event{
		turnEv(0, map[string]any{trace.AttrTurn: 1, trace.AttrAttempt: 1, trace.AttrModel: "m", trace.AttrReply: "{\"steps\":[]}\n",
			trace.AttrReplyBytes: 13, trace.AttrOutcome: engine.OutcomePlan, trace.AttrObservation: "hits = 2\nline 1\nline 2"}),
		turnEv(0, map[string]any{trace.AttrTurn: 2, trace.AttrAttempt: 1, trace.AttrModel: "m", trace.AttrReply: "oops", trace.AttrReplyBytes: 4,
			trace.AttrOutcome: engine.OutcomeRejected, trace.AttrRepair: true, trace.AttrError: noJSON}),
		turnEv(0, map[string]any{trace.AttrTurn: 3, trace.AttrAttempt: 2, trace.AttrModel: "m", trace.AttrReply: `{"steps":[{"op":"x"}]}`,
			trace.AttrReplyBytes: 22, trace.AttrOutcome: engine.OutcomeRejected, trace.AttrError: badPath}),
	}
	children := []trace.Event{
		turnEv(1, map[string]any{trace.AttrTurn: 1, trace.AttrAttempt: 1, trace.AttrModel: "sub", trace.AttrReply: `{"answer":"a"}`,
			trace.AttrReplyBytes: 14, trace.AttrOutcome: engine.OutcomeAnswer}),
		subCallEv(0, map[string]any{trace.AttrModel: "sub", trace.AttrReply: "hi [redacted]", trace.AttrReplyBytes: 30}),
		subCallEv(1, map[string]any{trace.AttrModel: "sub", trace.AttrError: failed}),
		turnEv(0, map[string]any{trace.AttrTurn: 1, trace.AttrAttempt: 1, trace.AttrModel: "m", trace.AttrReply: long[:100],
			trace.AttrReplyBytes: 3 * engine.EventTextBytes, trace.AttrOutcome: engine.OutcomeAnswer}),
	}
	code := []trace.Event{
		replyEv(0, map[string]any{trace.AttrTurn: 1, trace.AttrAttempt: 1, trace.AttrModel: "m", trace.AttrReply: "```python\nprint(1)\n```\n```python\nx = llm_query('q')\n```",
			trace.AttrReplyBytes: 52, trace.AttrMode: engine.ModeCode, trace.AttrCells: 2}),
		cellEv(0, 1, 2),
		cellEv(0, 2, 2),
		subCallEv(0, map[string]any{trace.AttrModel: "sub", trace.AttrReply: "answer", trace.AttrReplyBytes: 6}),
		turnEv(0, map[string]any{trace.AttrTurn: 1, trace.AttrAttempt: 1, trace.AttrModel: "m", trace.AttrReply: "ignored: shown with its reply",
			trace.AttrReplyBytes: 52, trace.AttrOutcome: engine.OutcomePlan, trace.AttrObservation: "[cell 1]\n1\n", trace.AttrMode: engine.ModeCode, trace.AttrCells: 2}),
		replyEv(0, map[string]any{trace.AttrTurn: 2, trace.AttrAttempt: 1, trace.AttrModel: "m", trace.AttrReply: "no code here",
			trace.AttrReplyBytes: 12, trace.AttrMode: engine.ModeCode}),
		turnEv(0, map[string]any{trace.AttrTurn: 2, trace.AttrAttempt: 1, trace.AttrModel: "m", trace.AttrReply: "no code here", trace.AttrReplyBytes: 12,
			trace.AttrOutcome: engine.OutcomeRejected, trace.AttrRepair: true, trace.AttrError: noJSON, trace.AttrMode: engine.ModeCode}),
		replyEv(0, map[string]any{trace.AttrTurn: 3, trace.AttrAttempt: 1, trace.AttrModel: "m", trace.AttrReply: "```python\nFINAL(1)\n```",
			trace.AttrReplyBytes: 22, trace.AttrMode: engine.ModeCode, trace.AttrCells: 1}),
		cellEv(0, 1, 1),
		turnEv(0, map[string]any{trace.AttrTurn: 3, trace.AttrAttempt: 1, trace.AttrModel: "m", trace.AttrReplyBytes: 22,
			trace.AttrOutcome: engine.OutcomePlan, trace.AttrMode: engine.ModeCode, trace.AttrCells: 1}),
		// A model call that failed: no reply, printed with the turn.
		turnEv(0, map[string]any{trace.AttrTurn: 4, trace.AttrAttempt: 1, trace.AttrModel: "m",
			trace.AttrOutcome: engine.OutcomeFailed, trace.AttrError: failed, trace.AttrMode: engine.ModeCode}),
		turnEv(0, map[string]any{trace.AttrTurn: 5, trace.AttrAttempt: 1, trace.AttrModel: "m",
			trace.AttrOutcome: engine.OutcomeFailed, trace.AttrMode: engine.ModeCode}),
		// Final answers the answer schema refused: the first violation,
		// and the cells' observation with the repair message.
		replyEv(0, map[string]any{trace.AttrTurn: 6, trace.AttrAttempt: 1, trace.AttrModel: "m", trace.AttrReply: "```python\nFINAL(x)\n```",
			trace.AttrReplyBytes: 22, trace.AttrMode: engine.ModeCode, trace.AttrCells: 1}),
		turnEv(0, map[string]any{trace.AttrTurn: 6, trace.AttrAttempt: 1, trace.AttrModel: "m", trace.AttrReplyBytes: 22,
			trace.AttrOutcome: engine.OutcomeRejected, trace.AttrRepair: true, trace.AttrError: badAnswer, trace.AttrMode: engine.ModeCode,
			trace.AttrObservation: "[cell 1 finished with an answer that does not match the answer schema: not accepted]\nYour final answer was not accepted"}),
		replyEv(0, map[string]any{trace.AttrTurn: 7, trace.AttrAttempt: 1, trace.AttrModel: "m", trace.AttrReply: "```python\nFINAL(y)\n```",
			trace.AttrReplyBytes: 22, trace.AttrMode: engine.ModeCode, trace.AttrCells: 1}),
		turnEv(0, map[string]any{trace.AttrTurn: 7, trace.AttrAttempt: 1, trace.AttrModel: "m", trace.AttrReplyBytes: 22,
			trace.AttrOutcome: engine.OutcomeRejected, trace.AttrError: missing, trace.AttrMode: engine.ModeCode}),
	}
	streamed := []trace.Event{
		deltaEv(1, `{"steps":`), deltaEv(1, "[]}"),
		turnEv(0, map[string]any{trace.AttrTurn: 1, trace.AttrAttempt: 1, trace.AttrModel: "m", trace.AttrReply: `{"steps":[]}`,
			trace.AttrReplyBytes: 12, trace.AttrOutcome: engine.OutcomePlan, trace.AttrObservation: "nothing"}),
		deltaEv(2, "```python\nFINAL("), deltaEv(2, "'done')\n```"),
		replyEv(0, map[string]any{trace.AttrTurn: 2, trace.AttrAttempt: 1, trace.AttrModel: "m", trace.AttrReply: "```python\nFINAL('done')\n```",
			trace.AttrReplyBytes: 27, trace.AttrMode: engine.ModeCode, trace.AttrCells: 1}),
		cellEv(0, 1, 1),
		turnEv(0, map[string]any{trace.AttrTurn: 2, trace.AttrAttempt: 1, trace.AttrModel: "m", trace.AttrReplyBytes: 27,
			trace.AttrOutcome: engine.OutcomeAnswer, trace.AttrMode: engine.ModeCode, trace.AttrCells: 1}),
	}
	progress := []trace.Event{
		deltaEv(1, "The answer, "), deltaEv(1, strings.Repeat("word ", 20)), deltaEv(1, "\x1b[31mred\x1b[0m and\nmore"),
		turnEv(0, map[string]any{trace.AttrTurn: 1, trace.AttrAttempt: 1, trace.AttrModel: "m", trace.AttrReply: "x",
			trace.AttrReplyBytes: 1, trace.AttrOutcome: engine.OutcomeAnswer}),
		deltaEv(2, "next"),
	}
	control := []trace.Event{
		deltaEv(1, "bell\a and \x1b[2J"),
		turnEv(0, map[string]any{trace.AttrTurn: 1, trace.AttrAttempt: 1, trace.AttrModel: "m\x1b]0;title\a", trace.AttrReply: "a\x1b[31mred\x1b[0m\r\nb",
			trace.AttrReplyBytes: 20, trace.AttrOutcome: engine.OutcomeRejected, trace.AttrError: fault.New(fault.PhaseParse, "bad\x1bkind", "x").With("path", "p\x1b")}),
		subCallEv(0, map[string]any{trace.AttrModel: "s\x1b[1m", trace.AttrReply: "\x1b[1mbold"}),
	}
	compacted := []trace.Event{
		{Kind: trace.KindNote, Name: engine.NoteCompaction, Status: trace.StatusOK, Live: map[string]any{trace.AttrTurn: 9, trace.AttrModel: "m"},
			Attrs: map[string]any{"compaction": 1, "last_turn": 6, "summary_calls": 1, "turns_kept": 2, "tokens_before": int64(13100),
				"tokens_after": int64(5200), "window": 16000, "threshold": int64(12800)}},
		{Kind: trace.KindNote, Name: engine.NoteCompaction, Status: trace.StatusError, Live: map[string]any{trace.AttrTurn: 14, trace.AttrModel: "m"},
			Attrs: map[string]any{"compaction": 2}, Error: fault.New(fault.PhaseExecute, model.KindPromptTooLarge, "too large")},
		// Recorded with no live observer: not shown.
		{Kind: trace.KindNote, Name: engine.NoteCompaction, Status: trace.StatusOK, Attrs: map[string]any{"compaction": 3}},
	}
	ignored := []trace.Event{
		{Kind: trace.KindModelCall, Name: "m", Status: trace.StatusOK, Attrs: map[string]any{"messages": 2}},
		{Kind: trace.KindTurn, Name: "turn 1", Status: trace.StatusOK},
		{Kind: trace.KindTurn, Name: "turn 1", Status: trace.StatusOK, Live: map[string]any{trace.AttrTurn: 1}},
		{Kind: trace.KindNote, Name: trace.NoteReply, Status: trace.StatusOK, Attrs: map[string]any{"code_blocks": 1}},
		{Kind: trace.KindPlanStep, Name: "cell", Status: trace.StatusOK, Live: map[string]any{trace.AttrCell: 1}},
		{Kind: trace.KindNote, Name: "checkpoint x", Status: trace.StatusOK},
	}
	// Vision sub-calls: -v names the images a call sent (a call without
	// images stays unprinted at -v), -vv as every sub-call.
	vision := []trace.Event{
		subCallEv(0, map[string]any{trace.AttrModel: "vis", trace.AttrImages: "sha256:0123456789ab 400x200 image/png, sha256:ba9876543210 150x300 image/jpeg",
			trace.AttrReply: "revenue doubles", trace.AttrReplyBytes: 15}),
		subCallEv(0, map[string]any{trace.AttrModel: "txt", trace.AttrReply: "no image", trace.AttrReplyBytes: 8}),
		subCallEv(1, map[string]any{trace.AttrModel: "vis\x1b[1m", trace.AttrImages: "sha256:\x1b[1m 1x1 image/png", trace.AttrError: failed}),
	}
	all := func(parts ...[]trace.Event) []trace.Event {
		var out []trace.Event
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	return []struct {
		name   string
		opts   console.VerboseOptions
		events []trace.Event
	}{
		{"plan -v", console.VerboseOptions{Level: 1}, all(planTurns, children)},
		{"plan -vv", console.VerboseOptions{Level: 2}, all(planTurns, children)},
		{"plan -v live", console.VerboseOptions{Level: 1, Live: true}, all(planTurns, children)},
		{"code -v", console.VerboseOptions{Level: 1}, code},
		{"code -vv", console.VerboseOptions{Level: 2}, code},
		{"code -vv live", console.VerboseOptions{Level: 2, Live: true}, code},
		{"stream -v", console.VerboseOptions{Level: 1, Stream: true}, streamed},
		{"stream -vv live", console.VerboseOptions{Level: 2, Stream: true, Live: true}, streamed},
		{"stream no -v live", console.VerboseOptions{Stream: true, Live: true}, all(progress, streamed)},
		{"stream no -v not live", console.VerboseOptions{Stream: true}, all(progress, streamed)},
		{"level 0 no stream live", console.VerboseOptions{Live: true}, all(progress, planTurns)},
		{"control -vv", console.VerboseOptions{Level: 2, Stream: true}, control},
		{"control -vv raw", console.VerboseOptions{Level: 2, Stream: true, Raw: true}, control},
		{"control live", console.VerboseOptions{Stream: true, Live: true, Raw: true}, control},
		{"ignored -vv", console.VerboseOptions{Level: 2, Stream: true, Live: true}, ignored},
		{"compaction -v", console.VerboseOptions{Level: 1}, compacted},
		{"vision -v", console.VerboseOptions{Level: 1}, vision},
		{"vision -vv", console.VerboseOptions{Level: 2}, vision},
		{"vision no -v", console.VerboseOptions{Stream: true, Live: true}, vision},
		{"compaction no -v", console.VerboseOptions{Stream: true, Live: true}, compacted},
	}
}

// Verbose prints trace events as rlm run -v, -vv, --stream and --raw do:
// the golden file holds the output of every case.
func TestVerboseTraceEvents(t *testing.T) {
	var got bytes.Buffer
	for _, c := range verboseCases() {
		var out bytes.Buffer
		p := console.NewVerbose(&out, c.opts)
		for _, ev := range c.events {
			p.Observe(ev)
		}
		fmt.Fprintf(&got, "=== %s %+v\n%s\n", c.name, c.opts, strings.ReplaceAll(out.String(), "\x1b", "<ESC>"))
	}
	golden := filepath.Join("testdata", "verbose.golden")
	if *update {
		if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Fatalf("verbose output differs from %s (UPDATE_GOLDEN=1 to rewrite):\n%s", golden, got.String())
	}
}
