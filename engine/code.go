package engine

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"time"

	"github.com/rlm-go/rlm/capability"
	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/engine/internal/fence"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/internal/textcut"
	"github.com/rlm-go/rlm/model"
	"github.com/rlm-go/rlm/repl"
	"github.com/rlm-go/rlm/repl/pyodide"
	"github.com/rlm-go/rlm/trace"
)

// Modes of Config.Mode.
const (
	// ModePlan: the model writes JSON plans that the engine validates and
	// executes (the default).
	ModePlan = "plan"
	// ModeCode: the model writes Python-style code that a sandboxed,
	// budgeted interpreter (package repl) runs; it needs capability code.
	ModeCode = "code"
)

// KindMissingCode is reported when a code-mode loop receives replies
// without any code block beyond its repair limit.
const KindMissingCode fault.Kind = "missing_code"

// codeTraceContent reports whether traces keep the code, its output and the
// reply text (Config.TraceContent, rlm run --trace-content).
func codeTraceContent(r *run) bool { return r.e.cfg.TraceContent }

// codeMode reports whether loop n runs in code mode. The root of a
// code-mode run needs capability code; a child without it (its parent did
// not grant code to children) runs in plan mode.
func (r *run) codeMode(n node) (bool, error) {
	if r.e.cfg.Mode != ModeCode {
		return false, nil
	}
	if n.caps.Has(capability.Code) {
		return true, nil
	}
	if n.depth == 0 {
		return false, denied(capability.Code)
	}
	return false, nil
}

// codeLoop runs one code-mode completion loop: each reply's code blocks run
// in one persistent interpreter; the loop ends when executed code finishes
// (FINAL, FINAL_VAR or the answer dict), on a fatal error, or when a budget
// runs out.
func (r *run) codeLoop(ctx context.Context, n node) (ans answer, err error) {
	meta, err := r.e.cfg.Store.Metadata(ctx, n.input)
	if err != nil {
		return ans, err
	}
	var st *codeState
	if n.depth == 0 {
		st = r.session
	}
	inPrompt := n.depth == 0 && st == nil && r.e.cfg.ContextInPrompt
	if st == nil {
		inputs := []corpus.Handle{n.input}
		if inPrompt {
			inputs = nil // the context is in the prompt, not in the REPL
		}
		st, err = newCodeState(ctx, r.e, inputs)
		if err != nil {
			return ans, err
		}
		defer st.close()
	}
	st.host.bind(r, &env{r: r, n: n})
	defer st.host.bind(nil, nil)
	defer func() { ans.vars = codeVars(st.it) }()

	p, modelName := r.provider(n.depth)
	system, user := codeSystemPrompt(r, n, meta, st), userPrompt(n.query)
	if inPrompt {
		text, err := r.contextText(n.input)
		if err != nil {
			return ans, err
		}
		system, user = codeInPromptSystemPrompt(r, n, meta), contextInPrompt(text, n.query)
	}
	system, shared := sharedText(system)
	defer runtime.KeepAlive(shared)
	msgs := []model.Message{
		{Role: model.RoleSystem, Content: system},
		{Role: model.RoleUser, Content: user + r.answerInstructions(n)},
	}
	repairs, answerRepairs := 0, 0
	var hist history
	for {
		if err := ctx.Err(); err != nil {
			return ans, fault.FromContext(fault.PhaseExecute, context.Cause(ctx))
		}
		if err := r.tracker.Iteration(); err != nil {
			return ans, err
		}
		ans.turns++
		tctx, turn := trace.Start(withTurn(ctx, ans.turns), trace.KindTurn, fmt.Sprintf("turn %d", ans.turns))
		var text string
		var obs codeObs
		var done bool
		var prompt int64
		msgs, prompt, err = r.fitRoot(tctx, n, p, modelName, ans.turns, msgs, &hist, func() string { return codeVarsListing(st.it) })
		if err == nil {
			text, obs, done, err = r.codeTurn(tctx, n, p, modelName, msgs, prompt, st, &ans, repairs+1)
		}
		if r.e.cfg.TraceContent && text != "" {
			turn.Set("reply", shown(text, TraceContentBytes))
		}
		// The turn's span ends with its outcome as live attributes
		// (EventTurn) and its error as it came.
		ev := Event{Kind: EventTurn, Depth: n.depth, Turn: ans.turns, Attempt: repairs + 1, Model: modelName, ReplyBytes: len(text),
			Mode: ModeCode, Cells: obs.ran}
		if r.live {
			ev.Reply = shown(text, EventTextBytes)
		}
		if err != nil {
			ev.Outcome, ev.Error = OutcomeFailed, fault.As(err)
			r.endTurn(turn, err, ev)
			return ans, err
		}
		if done {
			ev.Outcome = OutcomeAnswer
			r.endTurn(turn, nil, ev)
			return ans, nil
		}
		if obs.invalid != nil {
			// The cells ran; their final answer the answer schema refuses:
			// the observation with a repair message, or the run's end.
			repairs = 0
			msg, ferr := r.answerRepair(obs.invalid, &answerRepairs, codeFinishAgain)
			ev.Outcome, ev.Error = OutcomeRejected, fault.As(ferr)
			if ferr != nil {
				r.endTurn(turn, frozen(ferr), ev)
				return ans, ferr
			}
			obs.text = strings.TrimSuffix(obs.text, codeObservationTail) + msg
			ev.Repair, ev.Error, ev.Observation = true, obs.invalid.err, obs.text
			r.endTurn(turn, frozen(obs.invalid.err), ev)
			msgs = append(msgs, model.Message{Role: model.RoleAssistant, Content: text}, model.Message{Role: model.RoleUser, Content: obs.text})
			continue
		}
		if obs.noCode {
			if repairs >= max(r.e.cfg.MaxRepairs, 0) {
				err := fault.New(fault.PhaseParse, KindMissingCode, "the model replied without a code block").
					With("repairs", repairs).WithHint("code mode needs replies with ```python blocks")
				ev.Outcome, ev.Error = OutcomeRejected, fault.As(err)
				r.endTurn(turn, nil, ev)
				return ans, err
			}
			repairs++
			ev.Outcome, ev.Repair = OutcomeRejected, true
			ev.Error = fault.New(fault.PhaseParse, KindMissingCode, "the reply held no code block")
		} else {
			repairs = 0
			ev.Outcome, ev.Observation = OutcomePlan, obs.text
		}
		r.endTurn(turn, nil, ev)
		msgs = append(msgs, model.Message{Role: model.RoleAssistant, Content: text}, model.Message{Role: model.RoleUser, Content: obs.text})
	}
}

type codeObs struct {
	text   string
	noCode bool
	ran    int // cells run
	// invalid is the final answer of a cell that the answer schema
	// refused (text then ends with the cells' observation).
	invalid *answerRejection
}

// codeTurn makes one model call and runs the code blocks of its reply in
// order. done reports a final answer (in ans.value). prompt is msgs'
// tokens when fitRoot counted them (else 0); attempt is 1 plus the
// repairs before this reply. The reply is reported to live observers
// (the note trace.NoteReply, EventReply) before any of its cells runs,
// and each cell as it starts (its span announced, EventCell), so what a
// cell does (its sub-calls, children) is seen under the reply and the
// cell that did it.
func (r *run) codeTurn(ctx context.Context, n node, p model.Provider, modelName string, msgs []model.Message, prompt int64, st *codeState, ans *answer, attempt int) (string, codeObs, bool, error) {
	req := model.Request{Model: modelName, Messages: msgs}
	deltas := r.streamRoot(ctx, &req, n, ans.turns, modelName)
	resp, err := r.complete(ctx, n.depth, p, req, prompt)
	deltas.flush()
	if err != nil {
		return "", codeObs{}, false, err
	}
	if err := model.Refused(resp); err != nil {
		return "", codeObs{}, false, err
	}
	text := resp.Text
	if strings.TrimSpace(text) == "" && resp.Reasoning != "" {
		text = resp.Reasoning
	}
	blocks, prose := fence.Blocks(text)
	if len(blocks) == 0 && strings.TrimSpace(text) == "" {
		text = "[empty reply]"
	}
	_, note := trace.Start(ctx, trace.KindNote, trace.NoteReply)
	note.Set("code_blocks", len(blocks))
	note.Set("prose_bytes", prose)
	if r.live {
		setLive(note, Event{Turn: ans.turns, Attempt: attempt, Model: modelName,
			Reply: shown(text, EventTextBytes), ReplyBytes: len(text), Mode: ModeCode, Cells: len(blocks)})
	}
	note.End(nil)
	if len(blocks) == 0 {
		return text, codeObs{text: noCodeMessage, noCode: true}, false, nil
	}
	var cells []cellReport
	printed := false
	for i, src := range blocks {
		var start func(*trace.Span)
		if r.live {
			start = func(sp *trace.Span) {
				setLive(sp, Event{Turn: ans.turns, Model: modelName, Mode: ModeCode, Cell: i + 1, Cells: len(blocks)})
				sp.Announce()
			}
		}
		out, err := st.host.exec(ctx, st.it, src, i+1, codeTraceContent(r), start)
		cells = append(cells, cellReport{index: i + 1, out: out})
		if err != nil {
			// What the interrupted cell printed is the partial result.
			if out != nil && out.Stdout != "" {
				ans.partial = textcut.Prefix(out.Stdout, 4096)
			}
			return text, codeObs{ran: len(cells)}, false, err
		}
		if out.Final != nil {
			if printed {
				// A later cell answered before the model could see the
				// earlier cells' output: the typical invented-output reply.
				// The answer is not accepted; the model sees the real
				// output and must finish again.
				cells[len(cells)-1].deferred = true
				if err := st.host.clearAnswer(ctx, st.it); err != nil {
					return text, codeObs{ran: len(cells)}, false, err
				}
				break
			}
			if err := r.accept(n, ans, out.Final.Value); err != nil {
				var ar *answerRejection
				if !errors.As(err, &ar) {
					return text, codeObs{ran: len(cells)}, false, err
				}
				// Not accepted: the model sees the cells' output and why,
				// and an answer dict is dropped so it does not finish the
				// next cell unseen.
				cells[len(cells)-1].invalid = true
				if err := st.host.clearAnswer(ctx, st.it); err != nil {
					return text, codeObs{ran: len(cells)}, false, err
				}
				ran := len(cells)
				for j := i + 1; j < len(blocks); j++ {
					cells = append(cells, cellReport{index: j + 1, skipped: true, afterFinal: true})
				}
				return text, codeObs{text: r.codeObservation(cells), ran: ran, invalid: ar}, false, nil
			}
			return text, codeObs{ran: len(cells)}, true, nil
		}
		if out.Exception != nil {
			for j := i + 1; j < len(blocks); j++ {
				cells = append(cells, cellReport{index: j + 1, skipped: true})
			}
			break
		}
		if out.Stdout != "" || out.CutBytes > 0 {
			printed = true
		}
	}
	ran := 0
	for _, c := range cells {
		if !c.skipped {
			ran++
		}
	}
	return text, codeObs{text: r.codeObservation(cells), ran: ran}, false, nil
}

// codeObservationTail ends every observation of cells that gave no
// final answer.
const codeObservationTail = "No final answer yet. Continue with code; finish with FINAL(value), FINAL_VAR(\"name\") or answer = {\"content\": value, \"ready\": True}."

const noCodeMessage = "Your reply contained no code block, so nothing ran. Reply with Python code in a ```python block; " +
	"it runs in the REPL and its output comes back. Finish by calling FINAL(value) or FINAL_VAR(\"name\") in code."

type cellReport struct {
	index    int
	out      *repl.Outcome
	skipped  bool
	deferred bool
	invalid  bool // its final answer did not match the answer schema
	// afterFinal: skipped because an earlier cell finished (with an
	// answer the answer schema refused).
	afterFinal bool
}

// codeObservation renders the cells' output and errors, bounded by
// ObservationBytes with a note of how much was cut. Only the cells'
// stdout is cut: the host-written lines (cell headers, exceptions, cells
// not run, a FINAL not accepted) always reach the model.
func (r *run) codeObservation(cells []cellReport) string {
	type seg struct {
		text   string
		stdout bool
	}
	var segs []seg
	add := func(text string, stdout bool) { segs = append(segs, seg{text, stdout}) }
	cut := 0
	for _, c := range cells {
		switch {
		case c.skipped && c.afterFinal:
			add(fmt.Sprintf("[cell %d not run: an earlier cell finished]\n", c.index), false)
			continue
		case c.skipped:
			add(fmt.Sprintf("[cell %d not run: an earlier cell raised an exception]\n", c.index), false)
			continue
		case c.out == nil:
			continue
		}
		if len(cells) > 1 {
			add(fmt.Sprintf("[cell %d]\n", c.index), false)
		}
		add(c.out.Stdout, true)
		cut += c.out.CutBytes
		if e := c.out.Exception; e != nil {
			if e.Line > 0 {
				add(fmt.Sprintf("%s (line %d): %s\n", e.Type, e.Line, e.Message), false)
			} else {
				add(fmt.Sprintf("%s: %s\n", e.Type, e.Message), false)
			}
		}
		if c.invalid {
			add(cellAnswerRejected(c.index), false)
		}
		if c.deferred {
			add(fmt.Sprintf("[cell %d called FINAL before you saw the output above: not accepted; check the output and finish again]\n", c.index), false)
		}
	}
	const tail = codeObservationTail
	room := max(r.e.cfg.ObservationBytes-len(tail)-48, 64)
	for _, sg := range segs {
		if !sg.stdout {
			room -= len(sg.text)
		}
	}
	var b strings.Builder
	for _, sg := range segs {
		text := sg.text
		if sg.stdout {
			kept := textcut.Prefix(text, max(room, 0))
			cut += len(text) - len(kept)
			room -= len(kept)
			text = kept
			if text != "" && !strings.HasSuffix(text, "\n") {
				text += "\n"
				room--
			}
		}
		b.WriteString(text)
	}
	body := b.String()
	if body == "" {
		body = "[no output]\n"
	}
	if cut > 0 {
		body += fmt.Sprintf("[output truncated: %d bytes cut]\n", cut)
	}
	return body + tail
}

// codeState is one persistent interpreter with its host builtins: one per
// completion loop, or one per Session (kept across its queries).
type codeState struct {
	it      cellRunner
	host    *codeHost
	inputs  int
	session bool
	// embedded is it when it is the embedded interpreter (sessions need
	// its Set and Vars).
	embedded *repl.Interp
}

// cellRunner is what the loop needs of an interpreter: the embedded
// *repl.Interp or a *pyodide.Interp, both reporting repl.Outcome values.
type cellRunner interface {
	Exec(ctx context.Context, src string) (*repl.Outcome, error)
}

// Interpreters of Config.Python.
const (
	// PythonEmbedded is the embedded Python 3.12 interpreter (package
	// repl): pure Go, deterministic, hermetic. The default.
	PythonEmbedded = "embedded"
	// PythonPyodide is CPython in WebAssembly on Node.js (package
	// repl/pyodide), for exact Python; it needs Node.js and the npm
	// package pyodide.
	PythonPyodide = "pyodide"
)

func newCodeState(ctx context.Context, e *Engine, inputs []corpus.Handle) (*codeState, error) {
	h := &codeHost{store: e.cfg.Store, limit: e.cfg.PromptBytes}
	predeclared := h.builtins(inputs)
	if e.cfg.Python == PythonPyodide {
		// The same builtins, bridged: one implementation of validation,
		// budgets and tracing for both interpreters.
		funcs, host := pyodide.NewBridge().WithMaxValueBytes(e.cfg.Code.MaxValueBytes).Expose(predeclared)
		pcfg := e.cfg.Pyodide
		if pcfg.CellTimeout == 0 {
			pcfg.CellTimeout = e.cfg.Code.CellTimeout
		}
		if pcfg.MaxOutputBytes == 0 {
			pcfg.MaxOutputBytes = e.cfg.Code.MaxOutputBytes
		}
		it, err := pyodide.Start(ctx, pcfg, funcs, host)
		if err != nil {
			return nil, err
		}
		return &codeState{it: it, host: h, inputs: len(inputs)}, nil
	}
	cfg := e.cfg.Code
	if cfg.Now.IsZero() {
		cfg.Now = time.Now()
	}
	it, err := repl.New(cfg, predeclared)
	if err != nil {
		return nil, err
	}
	return &codeState{it: it, host: h, inputs: len(inputs), embedded: it}, nil
}

// close stops an interpreter that holds a process (pyodide) or goroutines
// (suspended generators).
func (st *codeState) close() {
	if c, ok := st.it.(interface{ Close() }); ok {
		c.Close()
	}
}

type sessionKey struct{}

func withSessionState(ctx context.Context, st *codeState) context.Context {
	return context.WithValue(ctx, sessionKey{}, st)
}

func sessionState(ctx context.Context) *codeState {
	st, _ := ctx.Value(sessionKey{}).(*codeState)
	return st
}

// codeVars previews the interpreter's user globals for Result.Vars (the
// embedded interpreter lists them; pyodide keeps them in its process).
func codeVars(it cellRunner) map[string]any {
	v, ok := it.(interface{ Vars() []repl.Var })
	if !ok {
		return nil
	}
	vs := v.Vars()
	if len(vs) == 0 {
		return nil
	}
	out := make(map[string]any, len(vs))
	for _, v := range vs {
		out[v.Name] = v.Preview
	}
	return out
}

// exec runs one cell as a traced span (code fingerprint, steps, bytes out)
// whose sub-calls are its children. start, when not nil, is given the
// span before the cell runs (to announce it: EventCell).
func (h *codeHost) exec(ctx context.Context, it cellRunner, src string, index int, content bool, start func(*trace.Span)) (*repl.Outcome, error) {
	cctx, sp := trace.Start(ctx, trace.KindPlanStep, "cell")
	sp.Set("cell", index)
	sp.Set("code_bytes", len(src))
	if start != nil {
		start(sp)
	}
	out, err := it.Exec(cctx, src)
	if out == nil {
		out = &repl.Outcome{}
	}
	if err == nil && ctx.Err() != nil {
		err = fault.FromContext(fault.PhaseExecute, context.Cause(ctx))
	}
	sp.Set("fingerprint", out.Fingerprint)
	sp.Set("steps", out.Steps)
	sp.Set("bytes_out", len(out.Stdout)+out.CutBytes)
	if out.Exception != nil {
		sp.Set("exception", out.Exception.Type)
	}
	if out.Final != nil {
		sp.Set("final", true)
	}
	if content {
		sp.Set("code", shown(src, TraceContentBytes))
		sp.Set("stdout", shown(out.Stdout, TraceContentBytes))
		if out.Exception != nil {
			// What the model saw of the exception, its message included
			// (model code wrote it, so only under TraceContent).
			sp.Set("stderr", shown(out.Exception.String(), TraceContentBytes))
		}
	}
	sp.End(cellSpanErr(err, out.Exception))
	return out, err
}

// cellSpanErr is the error a cell's span ends with: the run-ending error
// that stopped the cell, or for a cell that raised an exception the model
// sees, a trace.KindCellException error naming the exception's type and line
// (never its message, which model code wrote), so that trace views, the
// web viewer and the OTLP export show the cell as a failed step.
func cellSpanErr(err error, exc *repl.Exception) error {
	if err != nil || exc == nil {
		return err
	}
	typ := textcut.Prefix(exc.Type, maxExceptionType)
	fe := fault.New(fault.PhaseExecute, trace.KindCellException, "the cell raised "+typ).With("exception", typ)
	if exc.Line > 0 {
		fe = fe.With("line", exc.Line)
	}
	return fe
}

// maxExceptionType bounds the exception type recorded on a cell's span.
const maxExceptionType = 100

// clearAnswer drops an answer dict whose finish was not accepted, so it
// does not finish the next cell unseen. Any other value of answer (the
// model's own variable, after a FINAL that was not accepted) is kept.
func (h *codeHost) clearAnswer(ctx context.Context, it cellRunner) error {
	v, ok := it.(interface{ Vars() []repl.Var })
	if !ok {
		_, err := it.Exec(ctx, clearAnswerCode)
		return err
	}
	for _, x := range v.Vars() {
		if x.Name == "answer" {
			_, err := it.Exec(ctx, clearAnswerCode)
			return err
		}
	}
	return nil
}

const clearAnswerCode = "if isinstance(globals().get(\"answer\"), dict) and answer.get(\"ready\") == True:\n    answer = None\n"
