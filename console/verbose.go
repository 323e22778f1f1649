package console

import (
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/internal/termsafe"
)

// Verbose prints a run's engine events as rlm run and rlm chat -v/--verbose
// do (level 1: the root loop's turns; level 2 adds children's turns, code
// cells and sub-calls) and, with Stream, the root replies' text while it
// arrives: raw at level 1 and above, as a one-line status on a terminal
// otherwise. A
// code-mode reply is printed when it arrives, before its cells run, so
// that the cells, their sub-calls and children follow under it; a plan's
// reply is printed with its turn's outcome. Everything goes to stderr; the
// engine has bounded the text and redacted credentials, and the printer
// neutralizes control sequences in it (termsafe.Text) unless Raw. Its
// Observe method is an engine observer (engine.Config.Observer,
// rlm.WithEngineObserver); it is safe for concurrent use.
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

// Observe prints one event; it is an engine observer.
func (p *Verbose) Observe(ev engine.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch ev.Kind {
	case engine.EventDelta:
		p.delta(ev)
	case engine.EventTurn:
		if ev.Depth > 0 && p.level < 2 || p.level < 1 {
			return
		}
		p.turn(ev)
	case engine.EventReply:
		if ev.Depth > 0 && p.level < 2 || p.level < 1 {
			return
		}
		p.reply(ev)
	case engine.EventCell:
		if p.level < 2 {
			return
		}
		p.clearLine()
		label := fmt.Sprintf("cell %d", ev.Cell)
		if ev.Cells > 1 {
			label += fmt.Sprintf(" of %d", ev.Cells)
		}
		fmt.Fprintf(p.w, "%s   %s:\n", indent(ev.Depth), label)
	case engine.EventSubCall:
		if p.level < 2 {
			return
		}
		p.clearLine()
		fmt.Fprintf(p.w, "%s── sub-call · depth %d · %s\n", indent(ev.Depth), ev.Depth, p.safe(ev.Model))
		if ev.Error != nil {
			fmt.Fprintf(p.w, "%s   error: %s\n", indent(ev.Depth), p.errKind(ev))
		}
		p.block(ev.Depth, "reply", ev.Reply, ev.ReplyBytes)
	}
}

func (p *Verbose) delta(ev engine.Event) {
	if p.level >= 1 {
		if !p.inReply {
			p.clearLine()
			fmt.Fprintf(p.w, "── turn %d · depth %d · %s · streaming\n", ev.Turn, ev.Depth, p.safe(ev.Model))
			p.inReply = true
		}
		io.WriteString(p.w, p.safe(ev.Delta))
		return
	}
	if p.live && p.stream {
		p.tail += ev.Delta
		if len(p.tail) > 256 {
			p.tail = p.tail[len(p.tail)-256:]
		}
		// Neutralized even with --raw: the line is redrawn in place.
		line := strings.Join(strings.Fields(termsafe.Text(p.tail)), " ")
		if r := []rune(line); len(r) > 60 {
			line = "…" + string(r[len(r)-60:])
		}
		fmt.Fprintf(p.w, "\r\033[Kturn %d · streaming: %s", ev.Turn, line)
	}
}

// reply prints a code-mode reply before its cells run: the turn's header
// and the reply (ended, when it was streamed, by a newline), so that what
// the cells do (-vv: cells, sub-calls, children) is printed under it.
func (p *Verbose) reply(ev engine.Event) {
	p.tail = ""
	if p.inReply && ev.Depth == 0 {
		fmt.Fprintln(p.w)
		p.inReply = false
		return
	}
	p.clearLine()
	fmt.Fprintf(p.w, "%s── turn %d · depth %d · %s\n", indent(ev.Depth), ev.Turn, ev.Depth, p.safe(ev.Model))
	p.block(ev.Depth, "reply", ev.Reply, ev.ReplyBytes)
}

func (p *Verbose) turn(ev engine.Event) {
	in := indent(ev.Depth)
	// A code-mode turn that got a reply printed it with its reply event.
	shown := ev.Mode == engine.ModeCode && ev.ReplyBytes > 0
	streamed := !shown && p.inReply && ev.Depth == 0
	switch {
	case shown:
		p.clearLine()
	case streamed:
		fmt.Fprintln(p.w)
		p.inReply = false
	default:
		p.clearLine()
		fmt.Fprintf(p.w, "%s── turn %d · depth %d · %s\n", in, ev.Turn, ev.Depth, p.safe(ev.Model))
	}
	p.tail = ""
	if !streamed && !shown {
		p.block(ev.Depth, "reply", ev.Reply, ev.ReplyBytes)
	}
	switch ev.Outcome {
	case engine.OutcomeRejected:
		if ev.Error == nil {
			break
		}
		next := "no repair left: the run fails"
		if ev.Repair {
			next = "a repair message follows"
		}
		fmt.Fprintf(p.w, "%s   rejected (attempt %d): %s%s; %s\n", in, ev.Attempt, p.errKind(ev), p.safe(errPath(ev)), next)
	case engine.OutcomeFailed:
		if ev.Error != nil {
			fmt.Fprintf(p.w, "%s   failed: %s\n", in, p.errKind(ev))
		}
	case engine.OutcomePlan:
		ran := "plan ran"
		if ev.Mode == engine.ModeCode {
			ran = "cell ran"
			if ev.Cells > 1 {
				ran = fmt.Sprintf("%d cells ran", ev.Cells)
			}
		}
		fmt.Fprintf(p.w, "%s   %s\n", in, ran)
		p.block(ev.Depth, "observation", ev.Observation, 0)
	case engine.OutcomeAnswer:
		fmt.Fprintf(p.w, "%s   final answer\n", in)
	}
}

// safe is s as printed: neutralized for the terminal unless --raw.
func (p *Verbose) safe(s string) string {
	if p.raw {
		return s
	}
	return termsafe.Text(s)
}

// errKind is "phase/kind" of the event's error.
func (p *Verbose) errKind(ev engine.Event) string {
	return p.safe(string(ev.Error.Phase) + "/" + string(ev.Error.Kind))
}

func errPath(ev engine.Event) string {
	if path, ok := ev.Error.Detail["path"].(string); ok && path != "" {
		return " at " + path
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
