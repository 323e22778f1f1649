package rlm

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/rlm-go/rlm/budget"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/engine"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/meter"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/trace"
)

// ModeAuto is Spec.Mode "auto": a run whose whole context and query fit
// in Spec.AutoShare of the root model's window is answered by one direct
// call holding them (AutoDirect); any other runs the RLM in code mode
// (AutoCode). Result.Auto says which, and why.
const ModeAuto = "auto"

// The paths of a ModeAuto run (Auto.Chosen).
const (
	AutoDirect = "direct"
	AutoCode   = "code"
)

// DefaultAutoShare is the share of the root model's window a ModeAuto
// run's direct prompt may take (Spec.AutoShare zero): the other half is
// left for the answer and for the model to read well (quality falls as
// a prompt nears the window).
const DefaultAutoShare = 0.5

// NoteAuto names the trace note of a ModeAuto run's choice (trace.KindNote,
// the attributes of Auto).
const NoteAuto = "auto mode"

// Auto is the choice of a ModeAuto run: details.auto in the JSON result.
type Auto struct {
	// Chosen is AutoDirect or AutoCode.
	Chosen string `json:"chosen"`
	// Reason says why, in words.
	Reason string `json:"reason"`
	// ContextTokens counts the direct request (the system message, the
	// context, the query and the chat framing) with the root model's
	// tokenizer, never below what the provider counts. When the count
	// passed Threshold the counting stopped there (Counted false): the
	// prompt has at least that many tokens.
	ContextTokens int64 `json:"context_tokens"`
	Counted       bool  `json:"counted"`
	// ContextBytes is the size of the context.
	ContextBytes int64 `json:"context_bytes"`
	// Window is the root model's context window in tokens, from
	// WindowSource: "spec" (Spec.ContextWindow, --context-window),
	// "host" (Spec.ModelWindows, --model-window, WithModelWindows),
	// "table" (model.ContextWindow) or "default"
	// (model.DefaultContextWindow, a model the table does not know).
	Window       int    `json:"window"`
	WindowSource string `json:"window_source"`
	// Share is Spec.AutoShare (or DefaultAutoShare) and Threshold
	// floor(Share×Window), at most the window less the output the direct
	// call reserves (model.Window.OutputReserve: a share near 1 never
	// chooses a call the window admission refuses): the direct path is
	// taken when ContextTokens is at most Threshold.
	Share     float64 `json:"share"`
	Threshold int64   `json:"threshold"`
}

// NoteAnswerRejected names the trace note of an AutoDirect answer that
// did not match the answer schema (attributes pointer, keyword, repair):
// a repair call follows.
const NoteAnswerRejected = "answer rejected"

// directSystem is the system message of an AutoDirect answer.
const directSystem = "You answer questions about the document the user provides. Read all of it. Reply with the answer only, without explanation."

// DirectMessages are the messages of one direct call answering query
// over the whole context text: ModeAuto's direct path, and rlm bench's
// direct method.
func DirectMessages(context, query string) []model.Message {
	return []model.Message{
		{Role: model.RoleSystem, Content: directSystem},
		{Role: model.RoleUser, Content: "Document:\n<<<\n" + context + ">>>\n\nQuestion: " + query},
	}
}

// autoWindow is the root model's window in the run's model table and
// where it came from: "spec" for Spec.ContextWindow (the host's entry for
// the root model, modelWindows), "host", "table" or "default".
func (s *Session) autoWindow() (model.Window, string) {
	w := model.NewWindows(s.modelWindows()...).Lookup(s.spec.Model)
	if s.spec.ContextWindow > 0 {
		return w, "spec"
	}
	return w, w.Source
}

// countPieceBytes is the size of the pieces the context is counted in:
// the count stops at the first piece that takes it past the threshold.
const countPieceBytes = 1 << 20

// chooseAuto decides a ModeAuto run over h: the direct prompt's tokens
// (counted in pieces, whose sum is never below the whole's count)
// against the threshold. It reads the context, never a model.
func (s *Session) chooseAuto(store *corpus.Store, h corpus.Handle, query string) (*Auto, error) {
	w, source := s.autoWindow()
	window := w.Window
	share := s.spec.AutoShare
	if share == 0 {
		share = DefaultAutoShare
	}
	reserve := w.OutputReserve(engine.DefaultMaxTokens)
	a := &Auto{Window: window, WindowSource: source, Share: share, Threshold: min(int64(math.Floor(share*float64(window))), int64(window-reserve)), Counted: true}
	if s.spec.Durable.Database != "" {
		a.Chosen, a.Reason, a.Counted = AutoCode, "a durable run runs the RLM (its calls are journaled)", false
		return a, nil
	}
	name := s.spec.Model
	// The request without the context: its count plus the context's is
	// not below the count of the request with it.
	a.ContextTokens = model.PromptTokens(model.Request{Model: name, Messages: DirectMessages("", query)}, name)
	err := store.View(h, func(data []byte) error {
		a.ContextBytes = int64(len(data))
		for len(data) > 0 && a.ContextTokens <= a.Threshold {
			n := pieceEnd(data, countPieceBytes)
			a.ContextTokens += model.TextTokens(string(data[:n]), name)
			data = data[n:]
		}
		a.Counted = len(data) == 0
		return nil
	})
	if err != nil {
		return nil, err
	}
	if a.ContextTokens <= a.Threshold {
		a.Chosen = AutoDirect
		a.Reason = fmt.Sprintf("the context and query take %d tokens, at most %g of the %d-token window (%d): one direct call", a.ContextTokens, share, window, a.Threshold)
	} else {
		a.Chosen = AutoCode
		more := ""
		if !a.Counted {
			more = "at least "
		}
		a.Reason = fmt.Sprintf("the context and query take %s%d tokens, more than %g of the %d-token window (%d): the RLM in code mode", more, a.ContextTokens, share, window, a.Threshold)
	}
	return a, nil
}

// pieceEnd is where the piece of data of at most max bytes ends: after
// the last whitespace of its second half, else at a rune start.
func pieceEnd(data []byte, max int) int {
	if len(data) <= max {
		return len(data)
	}
	if i := strings.LastIndexAny(string(data[max/2:max]), " \n\t"); i >= 0 {
		return max/2 + i
	}
	n := max
	for n > 0 && !utf8.RuneStart(data[n]) {
		n--
	}
	return n
}

// note records a's choice in the trace of ctx.
func (a *Auto) note(ctx context.Context) {
	trace.Emit(ctx, trace.KindNote, NoteAuto, map[string]any{
		"chosen": a.Chosen, "reason": a.Reason, "context_tokens": a.ContextTokens, "counted": a.Counted,
		"context_bytes": a.ContextBytes, "window": a.Window, "window_source": a.WindowSource, "share": a.Share, "threshold": a.Threshold}, nil)
}

// answerDirect answers query over the context h with one call of the
// root model holding the whole text (DirectMessages), sent through p,
// admitted and charged as every call is (package meter) under lim,
// traced as a run span with the call in it. The result is an engine result of one turn.
func (s *Session) answerDirect(ctx context.Context, p model.Provider, store *corpus.Store, h corpus.Handle, query string, lim budget.Limits) (*engine.Result, error) {
	start := time.Now()
	res := &engine.Result{Status: engine.StatusFailed}
	rec := trace.FromContext(ctx)
	if rec == nil {
		rec = trace.NewRecorder()
		ctx = trace.WithRecorder(ctx, rec)
	}
	err := func() error {
		resolved, err := lim.Resolve()
		if err != nil {
			return err
		}
		tracker := budget.NewTracker(resolved)
		defer func() {
			res.Usage, res.UsageByDepth, res.Counters = tracker.Usage(), tracker.UsageByDepth(), tracker.Counters()
		}()
		ctx := ctx
		if deadline, ok := tracker.Deadline(); ok {
			var cancel context.CancelFunc
			ctx, cancel = context.WithDeadline(ctx, deadline)
			defer cancel()
		}
		ctx, span := trace.Start(trace.WithDepth(ctx, 0), trace.KindRun, "rlm")
		span.Set("query_bytes", len(query))
		span.Set("mode", "direct")
		err = func() error {
			size := 0
			if verr := store.View(h, func(d []byte) error { size = len(d); return nil }); verr != nil {
				return verr
			}
			text, err := store.Text(h, max(size, 1))
			if err != nil {
				return err
			}
			msgs := DirectMessages(text, query)
			if s.answer != nil {
				msgs[1].Content += s.answer.Instructions()
			}
			repairs := 0
			for {
				req := model.Request{Model: s.spec.Model, Messages: msgs, MaxTokens: engine.DefaultMaxTokens}
				resp, err := meter.New(tracker).Model(ctx, meter.ModelCall{Provider: p, Request: req, Turn: true, Windows: model.NewWindows(s.modelWindows()...)})
				res.Turns++
				if err != nil {
					if ctx.Err() != nil {
						if terr := tracker.Spendable(); fault.KindOf(terr) == budget.KindTimeLimit {
							return terr
						}
					}
					return err
				}
				if err := tracker.Output(len(resp.Text)); err != nil {
					res.Partial = resp.Text
					return err
				}
				if s.answer != nil {
					// A typed answer: checked, and repaired like the
					// engine's (answer.Schema), one more call per repair.
					raw := s.answer.TextValue(resp.Text)
					vs, fe := s.answer.Check(raw)
					if fe != nil {
						limit := s.spec.MaxRepairs
						if limit == 0 {
							limit = engine.DefaultMaxRepairs
						}
						repair, err := s.answer.Repair(vs, fe, &repairs, limit, "Reply with the answer again, as JSON matching the schema.")
						if err != nil {
							return err
						}
						trace.Emit(ctx, trace.KindNote, NoteAnswerRejected, map[string]any{"pointer": vs[0].Pointer, "keyword": vs[0].Keyword, "repair": repairs}, nil)
						msgs = append(msgs, model.Message{Role: model.RoleAssistant, Content: resp.Text}, model.Message{Role: model.RoleUser, Content: repair})
						continue
					}
					res.AnswerJSON = raw
				}
				res.Answer = resp.Text
				return nil
			}
		}()
		span.End(err)
		return err
	}()
	if err == nil {
		res.Status = engine.StatusCompleted
	} else {
		if res.Error = fault.Or(err, fault.PhaseExecute, fault.KindInternal, ""); fault.As(err) == nil {
			err = res.Error
		}
		if res.Error.Kind == fault.KindCancelled || errors.Is(err, context.Canceled) {
			res.Status = engine.StatusCancelled
		}
	}
	res.Trajectory = rec.Events()
	res.ElapsedMS = float64(time.Since(start).Microseconds()) / 1000
	return res, err
}
