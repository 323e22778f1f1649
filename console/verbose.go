package console

import (
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/termsafe"
	"github.com/rlm-go/rlm/trace"
)

// Verbose prints a run's trace events as rlm run and rlm chat -v/--verbose
// do (level 1: the root loop's turns; level 2 adds children's turns, code
// cells and sub-calls) and, with Stream, the root replies' text while it
// arrives: raw at level 1 and above, as a one-line status on a terminal
// otherwise. A
// code-mode reply is printed when it arrives, before its cells run, so
// that the cells, their sub-calls and children follow under it; a plan's
// reply is printed with its turn's outcome. Everything goes to stderr; the
// engine has bounded the text and redacted credentials, and the printer
// neutralizes control sequences in it (termsafe.Text) unless Raw. Its
// Observe method is a live trace observer (rlm.WithLiveObserver,
// trace.WithLiveObserver): it reads the engine's live attributes
// (trace.Event.Live, the trace.Attr keys) of turn spans, code-mode reply
// notes, announced cells, sub-call notes and deltas, and ignores every
// other event. It is safe for concurrent use.
type Verbose struct {
	w       io.Writer
	level   int
	stream  bool
	live    bool
	raw     bool
	mu      sync.Mutex
	inReply bool   // deltas of the current reply were printed
	tail    string // the last streamed text, for the status line
}

// VerboseOptions choose what a Verbose printer prints.
type VerboseOptions struct {
	// Level is the -v count: 1 prints the root loop's turns, 2 adds
	// children's turns, code cells and sub-calls; 0 prints only streamed
	// text on a live terminal.
	Level int
	// Stream prints root replies' text as it arrives (with Level 0, as a
	// one-line status when Live).
	Stream bool
	// Live is true when the writer is a terminal with a progress line.
	Live bool
	// Raw prints the model's text byte for byte; by default control
	// characters are shown inert (termsafe: ESC as ␛).
	Raw bool
}

// NewVerbose returns a printer of a run's events on w.
func NewVerbose(w io.Writer, o VerboseOptions) *Verbose {
	return &Verbose{w: w, level: o.Level, stream: o.Stream, live: o.Live, raw: o.Raw}
}

// Observe prints one event; it is a live trace observer.
func (p *Verbose) Observe(ev trace.Event) {
	if ev.Live == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case ev.Kind == trace.KindDelta:
		p.delta(ev)
	case ev.Kind == trace.KindTurn:
		if liveStr(ev, trace.AttrOutcome) == "" || ev.Depth > 0 && p.level < 2 || p.level < 1 {
			return
		}
		p.turn(ev)
	case ev.Kind == trace.KindNote && ev.Name == trace.NoteReply:
		if ev.Depth > 0 && p.level < 2 || p.level < 1 {
			return
		}
		p.reply(ev)
	case ev.Kind == trace.KindPlanStep && ev.Status == trace.StatusStarted:
		if p.level < 2 {
			return
		}
		p.clearLine()
		label := fmt.Sprintf("cell %d", liveInt(ev, trace.AttrCell))
		if n := liveInt(ev, trace.AttrCells); n > 1 {
			label += fmt.Sprintf(" of %d", n)
		}
		fmt.Fprintf(p.w, "%s   %s:\n", indent(ev.Depth), label)
	case ev.Kind == trace.KindNote && ev.Name == engine.NoteCompaction:
		if p.level < 1 {
			return
		}
		p.compaction(ev)
	case ev.Kind == trace.KindNote && ev.Name == engine.SpanAutoSplit:
		if p.level < 1 {
			return
		}
		// The re-split sub-call is one level below the loop that made it.
		depth := ev.Depth + 1
		p.clearLine()
		fmt.Fprintf(p.w, "%s── auto split · depth %d · %s · prompt %d tokens, window %d · %d pieces and a merge\n", indent(depth), depth,
			p.safe(liveStr(ev, trace.AttrModel)), liveInt(ev, "prompt_tokens"), liveInt(ev, "window"), liveInt(ev, "pieces"))
	case ev.Kind == trace.KindNote && ev.Name == engine.NoteWindowLearned:
		if p.level < 1 {
			return
		}
		p.clearLine()
		fmt.Fprintf(p.w, "%s── window corrected · %s · %d → %d tokens (the server refused a prompt as too long)\n", indent(ev.Depth+1),
			p.safe(liveStr(ev, trace.AttrModel)), liveInt(ev, "before"), liveInt(ev, "after"))
	case ev.Kind == trace.KindNote && ev.Name == trace.NoteSubCall:
		// The note is the calling loop's; the call is one level deeper.
		depth := ev.Depth + 1
		if p.level == 1 {
			// -v names the images a sub-call sent (one line); -vv
			// prints every sub-call whole.
			if ims := liveStr(ev, trace.AttrImages); ims != "" {
				p.clearLine()
				fmt.Fprintf(p.w, "%s── sub-call · depth %d · %s · images: %s\n", indent(depth), depth, p.safe(liveStr(ev, trace.AttrModel)), p.safe(ims))
			}
			return
		}
		if p.level < 2 {
			return
		}
		p.clearLine()
		fmt.Fprintf(p.w, "%s── sub-call · depth %d · %s\n", indent(depth), depth, p.safe(liveStr(ev, trace.AttrModel)))
		if ims := liveStr(ev, trace.AttrImages); ims != "" {
			fmt.Fprintf(p.w, "%s   images: %s\n", indent(depth), p.safe(ims))
		}
		if liveErr(ev) != nil {
			fmt.Fprintf(p.w, "%s   error: %s\n", indent(depth), p.errKind(ev))
		}
		p.block(depth, "reply", liveStr(ev, trace.AttrReply), liveInt(ev, trace.AttrReplyBytes))
	}
}

func (p *Verbose) delta(ev trace.Event) {
	turn, text := liveInt(ev, trace.AttrTurn), liveStr(ev, trace.AttrDelta)
	if p.level >= 1 {
		if !p.inReply {
			p.clearLine()
			fmt.Fprintf(p.w, "── turn %d · depth %d · %s · streaming\n", turn, ev.Depth, p.safe(liveStr(ev, trace.AttrModel)))
			p.inReply = true
		}
		io.WriteString(p.w, p.safe(text))
		return
	}
	if p.live && p.stream {
		p.tail += text
		if len(p.tail) > 256 {
			p.tail = p.tail[len(p.tail)-256:]
		}
		// Neutralized even with --raw: the line is redrawn in place.
		line := strings.Join(strings.Fields(termsafe.Text(p.tail)), " ")
		if r := []rune(line); len(r) > 60 {
			line = "…" + string(r[len(r)-60:])
		}
		fmt.Fprintf(p.w, "\r\033[Kturn %d · streaming: %s", turn, line)
	}
}

// reply prints a code-mode reply before its cells run: the turn's header
// and the reply (ended, when it was streamed, by a newline), so that what
// the cells do (-vv: cells, sub-calls, children) is printed under it.
func (p *Verbose) reply(ev trace.Event) {
	p.tail = ""
	if p.inReply && ev.Depth == 0 {
		fmt.Fprintln(p.w)
		p.inReply = false
		return
	}
	p.clearLine()
	fmt.Fprintf(p.w, "%s── turn %d · depth %d · %s\n", indent(ev.Depth), liveInt(ev, trace.AttrTurn), ev.Depth, p.safe(liveStr(ev, trace.AttrModel)))
	p.block(ev.Depth, "reply", liveStr(ev, trace.AttrReply), liveInt(ev, trace.AttrReplyBytes))
}

func (p *Verbose) turn(ev trace.Event) {
	in := indent(ev.Depth)
	mode := liveStr(ev, trace.AttrMode)
	// A code-mode turn that got a reply printed it with its reply note.
	shown := mode == engine.ModeCode && liveInt(ev, trace.AttrReplyBytes) > 0
	streamed := !shown && p.inReply && ev.Depth == 0
	switch {
	case shown:
		p.clearLine()
	case streamed:
		fmt.Fprintln(p.w)
		p.inReply = false
	default:
		p.clearLine()
		fmt.Fprintf(p.w, "%s── turn %d · depth %d · %s\n", in, liveInt(ev, trace.AttrTurn), ev.Depth, p.safe(liveStr(ev, trace.AttrModel)))
	}
	p.tail = ""
	if !streamed && !shown {
		p.block(ev.Depth, "reply", liveStr(ev, trace.AttrReply), liveInt(ev, trace.AttrReplyBytes))
	}
	switch liveStr(ev, trace.AttrOutcome) {
	case engine.OutcomeRejected:
		if liveErr(ev) == nil {
			break
		}
		next := "no repair left: the run fails"
		if repair, _ := ev.Live[trace.AttrRepair].(bool); repair {
			next = "a repair message follows"
		}
		fmt.Fprintf(p.w, "%s   rejected (attempt %d): %s%s; %s\n", in, liveInt(ev, trace.AttrAttempt), p.errKind(ev), p.safe(errPath(ev)), next)
		if obs := liveStr(ev, trace.AttrObservation); obs != "" {
			// Code mode: the cells ran before their answer was refused.
			p.block(ev.Depth, "observation", obs, 0)
		}
	case engine.OutcomeFailed:
		if liveErr(ev) != nil {
			fmt.Fprintf(p.w, "%s   failed: %s\n", in, p.errKind(ev))
		}
	case engine.OutcomePlan:
		ran := "plan ran"
		if mode == engine.ModeCode {
			ran = "cell ran"
			if n := liveInt(ev, trace.AttrCells); n > 1 {
				ran = fmt.Sprintf("%d cells ran", n)
			}
		}
		fmt.Fprintf(p.w, "%s   %s\n", in, ran)
		p.block(ev.Depth, "observation", liveStr(ev, trace.AttrObservation), 0)
	case engine.OutcomeAnswer:
		fmt.Fprintf(p.w, "%s   final answer\n", in)
	}
}

// compaction prints a root-history compaction (engine.NoteCompaction):
// the turns the summary stands for, its calls, and the prompt's tokens
// before and after, from the span's kept attributes (counts only).
func (p *Verbose) compaction(ev trace.Event) {
	p.clearLine()
	n := func(key string) int64 {
		switch v := ev.Attrs[key].(type) {
		case int:
			return int64(v)
		case int64:
			return v
		}
		return 0
	}
	fmt.Fprintf(p.w, "%s── compaction %d · before turn %d · %s\n", indent(ev.Depth), n("compaction"), liveInt(ev, trace.AttrTurn), p.safe(liveStr(ev, trace.AttrModel)))
	if ev.Error != nil {
		fmt.Fprintf(p.w, "%s   failed: %s\n", indent(ev.Depth), p.safe(string(ev.Error.Phase)+"/"+string(ev.Error.Kind)))
		return
	}
	fmt.Fprintf(p.w, "%s   turns 1-%d replaced by a summary (%d call(s)), %d kept; prompt %d -> %d tokens of a %d-token window (threshold %d)\n",
		indent(ev.Depth), n("last_turn"), n("summary_calls"), n("turns_kept"), n("tokens_before"), n("tokens_after"), n("window"), n("threshold"))
}

// liveStr, liveInt and liveErr read the event's live attribute key.
func liveStr(ev trace.Event, key string) string {
	s, _ := ev.Live[key].(string)
	return s
}

func liveInt(ev trace.Event, key string) int {
	n, _ := ev.Live[key].(int)
	return n
}

func liveErr(ev trace.Event) *fault.Error {
	fe, _ := ev.Live[trace.AttrError].(*fault.Error)
	return fe
}

// safe is s as printed: neutralized for the terminal unless --raw.
func (p *Verbose) safe(s string) string {
	if p.raw {
		return s
	}
	return termsafe.Text(s)
}

// errKind is "phase/kind" of the event's error.
func (p *Verbose) errKind(ev trace.Event) string {
	fe := liveErr(ev)
	return p.safe(string(fe.Phase) + "/" + string(fe.Kind))
}

func errPath(ev trace.Event) string {
	d := liveErr(ev).Detail
	if path, ok := d["path"].(string); ok && path != "" {
		return " at " + path
	}
	// A final answer the answer schema refused: its first violation.
	if kw, ok := d["keyword"].(string); ok && kw != "" {
		ptr, _ := d["pointer"].(string)
		if ptr == "" {
			ptr = "the answer"
		}
		return " at " + ptr + " (keyword " + kw + ")"
	}
	return ""
}

// block prints a labelled multi-line text, indented.
func (p *Verbose) block(depth int, label, text string, total int) {
	in := indent(depth)
	more := ""
	if total > engine.EventTextBytes {
		more = fmt.Sprintf(" (first %d of %d bytes)", engine.EventTextBytes, total)
	}
	fmt.Fprintf(p.w, "%s   %s%s:\n", in, label, more)
	for _, line := range strings.Split(strings.TrimRight(p.safe(text), "\n"), "\n") {
		fmt.Fprintf(p.w, "%s   │ %s\n", in, line)
	}
}

// clearLine ends the progress line before printing full lines.
func (p *Verbose) clearLine() {
	if p.live {
		io.WriteString(p.w, "\r\033[K")
	}
}

func indent(depth int) string { return strings.Repeat("  ", depth) }
