package console

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"golang.org/x/term"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/internal/termsafe"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/model/cache"
	"github.com/rlm-go/rlm/model/openai"
	"github.com/rlm-go/rlm/trace"
)

// Status follows the model calls of one command: it counts calls, tokens
// and cost for the final usage line, and on a terminal keeps a live status
// line (what is being waited for, retries and their back-off). It is safe
// for concurrent use.
type Status struct {
	w    io.Writer
	live bool // redraw a status line on w

	mu       sync.Mutex
	started  int
	inFlight int
	turns    int
	usage    budget.Usage
	cache    *cache.Cache
	unpriced []string // models without a price, in use
	note     string   // what is happening now
	drawn    bool     // a live line is on screen
}

// NewStatus returns a Status writing on w; live redraws a status line
// there (w is a terminal: see IsTerminal).
func NewStatus(w io.Writer, live bool) *Status { return &Status{w: w, live: live} }

// Wrap returns p with every call counted and shown.
func (s *Status) Wrap(p model.Provider) model.Provider {
	return model.ProviderFunc(func(ctx context.Context, req model.Request) (*model.Response, error) {
		s.mu.Lock()
		s.started++
		s.inFlight++
		s.note = "waiting for the model"
		s.drawLocked()
		s.mu.Unlock()
		resp, err := p.Complete(ctx, req)
		s.mu.Lock()
		defer s.mu.Unlock()
		s.inFlight--
		if resp != nil {
			s.usage = s.usage.Add(resp.Usage)
		}
		s.note = ""
		if s.inFlight > 0 {
			s.note = "waiting for the model"
		}
		s.drawLocked()
		return resp, err
	})
}

// Retry is the provider's OnRetry hook.
func (s *Status) Retry(r openai.Retry) {
	s.mu.Lock()
	defer s.mu.Unlock()
	after := "a connection error"
	if r.Status != 0 {
		after = fmt.Sprintf("HTTP %d", r.Status)
	}
	s.note = fmt.Sprintf("retrying in %s after %s (attempt %d failed)", r.Wait.Round(100*time.Millisecond), after, r.Attempt)
	s.drawLocked()
}

// Observe is a trace observer counting turns: the root loop's, as the
// final line's turns (engine.Result.Turns) count them; children's turns
// are not the run's.
func (s *Status) Observe(ev trace.Event) {
	if ev.Kind != trace.KindTurn || ev.Depth != 0 {
		return
	}
	s.mu.Lock()
	s.turns++
	s.drawLocked()
	s.mu.Unlock()
}

// Say prints a line on stderr without garbling the live line; control
// characters in it (from a model name, a server's text) are neutralized.
func (s *Status) Say(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clearLocked()
	fmt.Fprintln(s.w, termsafe.Text(fmt.Sprintf(format, args...)))
	s.drawLocked()
}

// Write writes p on the status's writer without garbling the live line
// (the line is cleared first and redrawn after): a session's log
// (rlm.WithLog) can write here. p is written as it is.
func (s *Status) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clearLocked()
	n, err := s.w.Write(p)
	s.drawLocked()
	return n, err
}

func (s *Status) drawLocked() {
	if !s.live {
		return
	}
	line := "rlm: "
	if s.turns > 0 {
		line += fmt.Sprintf("turns %d · ", s.turns)
	}
	line += fmt.Sprintf("model calls %d", s.started)
	if s.usage.Calls > 0 || s.usage.TotalTokens > 0 { // a call has returned
		line += fmt.Sprintf(" · tokens %d · %s", s.usage.TotalTokens, s.costLocked(s.usage))
	}
	if s.note != "" {
		line += " · " + s.note + "…"
	}
	fmt.Fprint(s.w, "\r\033[K"+termsafe.Text(line))
	s.drawn = true
}

func (s *Status) clearLocked() {
	if s.drawn {
		fmt.Fprint(s.w, "\r\033[K")
		s.drawn = false
	}
}

// Stop removes the live line.
func (s *Status) Stop() {
	s.mu.Lock()
	s.clearLocked()
	s.live = false
	s.mu.Unlock()
}

// costLocked describes u's cost: "$0.0123" when reported, "~$0.0123
// (estimated)" from the price table, "cost unknown" when neither (an
// unpriced model, or a server that reported no tokens). A run that used an
// unpriced model has an unknown cost unless every call's cost was reported.
func (s *Status) costLocked(u budget.Usage) string {
	switch {
	case u.CostKnown:
		return "cost " + usd(u.CostUSD)
	case u.Calls == 0 && s.started == 0:
		return "cost $0"
	case u.CostEstimated && len(s.unpriced) == 0:
		return "cost ~" + usd(u.CostUSD) + " (estimated)"
	case u.CostEstimated:
		return fmt.Sprintf("cost unknown (at least ~%s; no price for %s)", usd(u.CostUSD), strings.Join(s.unpriced, ", "))
	}
	return "cost unknown"
}

// usd formats a cost; a positive cost below the shown precision is
// "<$0.0001", not "$0.0000".
func usd(v float64) string {
	if v > 0 && v < 0.00005 {
		return "<$0.0001"
	}
	return fmt.Sprintf("$%.4f", v)
}

// Summary is the final usage line of a command: its status, turns (when
// known, turns >= 0), model calls, tokens and cost.
func (s *Status) Summary(state string, turns int, u *budget.Usage) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	usage := s.usage
	if u != nil {
		usage = *u
	}
	calls := max(int64(s.started), usage.Calls)
	var b strings.Builder
	b.WriteString("rlm: " + state)
	if turns >= 0 {
		fmt.Fprintf(&b, " · turns %d", turns)
	}
	fmt.Fprintf(&b, " · model calls %d · tokens %d", calls, usage.TotalTokens)
	if !usage.TokensKnown && usage.TotalTokens == 0 && calls > 0 {
		b.WriteString(" (not reported)")
	}
	b.WriteString(" · " + s.costLocked(usage))
	if s.cache != nil {
		if st := s.cache.Stats(); st.Saved.SavedCalls > 0 {
			fmt.Fprintf(&b, " · cache hits %d (saved %d tokens)", st.Saved.SavedCalls, st.Saved.SavedTokens)
		}
	}
	return termsafe.Text(b.String())
}

// SetCache makes the final usage line report the cache's savings.
func (s *Status) SetCache(c *cache.Cache) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cache = c
}

// NoteUnpriced records the models that have no price and prints, once, that
// their cost is unknown and --max-cost cannot be enforced for them.
func (s *Status) NoteUnpriced(models []string) {
	if len(models) == 0 {
		return
	}
	s.mu.Lock()
	s.unpriced = models
	s.mu.Unlock()
	s.Say("rlm: note: no price for %s in the price table: the cost is unknown unless the server reports it, and --max-cost cannot be enforced for its calls (--strict-cost refuses such models)", strings.Join(models, ", "))
}

// IsTerminal reports whether w is a terminal: an *os.File whose
// descriptor the terminal driver answers for. Other character devices
// (/dev/null, where 2>/dev/null sends stderr) are not: a status line
// redrawn there is work nobody sees.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
