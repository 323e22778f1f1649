package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"go.starlark.net/starlark"

	"github.com/rlm-go/rlm/corpus"
	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/repl"
)

// KindInvalidSession reports saved session data that cannot be resumed.
const KindInvalidSession fault.Kind = "invalid_session"

// SessionVersion is the version of the saved-session JSON format.
const SessionVersion = 1

// Session is a code-mode conversation over fixed inputs, like the official
// RLM's persistent mode: one interpreter whose variables, the context
// (context, context_0..N) and a history of earlier queries and answers
// (history) are kept across several queries. Each Ask is a run of its own,
// with its own budgets. Sub-contexts made by one query (partitions, large
// slices) are released when it ends and do not survive into the next.
//
// A Session is safe for concurrent use; queries run one at a time.
type Session struct {
	e      *Engine
	inputs []corpus.Handle

	mu       sync.Mutex
	st       *codeState
	history  []HistoryEntry
	captured map[string]any            // filled by capture during Save
	restore  map[string]starlark.Value // read by restoreVar during ResumeSession
}

// HistoryEntry is one answered query of a session.
type HistoryEntry struct {
	Query  string `json:"query"`
	Answer any    `json:"answer"`
}

// SavedSession is the JSON form of a saved session: the history and the
// user variables that are plain data (functions, contexts and other
// host values are not saved).
type SavedSession struct {
	Version int            `json:"version"`
	History []HistoryEntry `json:"history"`
	Globals map[string]any `json:"globals"`
	// Skipped names the variables that could not be saved.
	Skipped []string `json:"skipped,omitempty"`
}

// NewSession starts a session over inputs (at least one; the first is
// context). The engine must be in code mode.
func (e *Engine) NewSession(inputs ...corpus.Handle) (*Session, error) {
	if e.cfg.Mode != ModeCode {
		return nil, fault.New(fault.PhaseConfig, fault.KindInvalidConfig, "a session needs code mode").With("mode", e.cfg.Mode).WithHint("set Config.Mode to \"code\"")
	}
	if len(inputs) == 0 {
		return nil, fault.New(fault.PhaseConfig, fault.KindInvalidConfig, "a session needs at least one context")
	}
	s := &Session{e: e, inputs: inputs}
	if e.cfg.Python == PythonPyodide {
		return nil, fault.New(fault.PhaseConfig, fault.KindInvalidConfig, "sessions need the embedded interpreter").With("python", e.cfg.Python).
			With("hint", "leave Config.Python empty (embedded) for sessions")
	}
	st, err := newCodeState(context.Background(), e, inputs, starlark.StringDict{
		"_rlm_session_capture": starlark.NewBuiltin("_rlm_session_capture", s.capture),
		"_rlm_session_restore": starlark.NewBuiltin("_rlm_session_restore", s.restoreVar),
	})
	if err != nil {
		return nil, err
	}
	st.session = true
	s.st = st
	s.setHistory()
	return s, nil
}

// ResumeSession starts a session from data written by Save.
func (e *Engine) ResumeSession(data []byte, inputs ...corpus.Handle) (*Session, error) {
	var saved SavedSession
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&saved); err != nil {
		return nil, fault.Wrap(err, fault.PhaseConfig, KindInvalidSession, "saved session is not valid JSON")
	}
	if saved.Version != SessionVersion {
		return nil, fault.New(fault.PhaseConfig, KindInvalidSession, "unsupported saved-session version").With("version", saved.Version).With("want", SessionVersion)
	}
	s, err := e.NewSession(inputs...)
	if err != nil {
		return nil, err
	}
	// Restored through a cell, so they are ordinary user variables again.
	var src strings.Builder
	s.restore = map[string]starlark.Value{}
	for _, name := range slices.Sorted(maps.Keys(saved.Globals)) {
		if !isIdent(name) || name == "history" {
			return nil, fault.New(fault.PhaseConfig, KindInvalidSession, "saved variable name is not an identifier").With("name", name)
		}
		if s.st.embedded.Get(name) != nil || starlark.Universe.Has(name) {
			// A host or standard name (context, FINAL, llm_query, print,
			// True, ...): Save never writes one, and restoring it would
			// replace the session's input or a builtin.
			return nil, fault.New(fault.PhaseConfig, KindInvalidSession, "saved variable would rebind a predeclared name").With("name", name)
		}
		g, err := plainGo(saved.Globals[name], s.st.host)
		if err != nil {
			return nil, fault.Wrap(err, fault.PhaseConfig, KindInvalidSession, "saved variable is not plain data").With("name", name)
		}
		sv, err := repl.FromGo(g)
		if err != nil {
			return nil, fault.Wrap(err, fault.PhaseConfig, KindInvalidSession, "saved variable is not plain data").With("name", name)
		}
		s.restore[name] = sv
		fmt.Fprintf(&src, "%s = _rlm_session_restore(%q)\n", name, name)
	}
	if src.Len() > 0 {
		out, err := s.st.embedded.Exec(context.Background(), src.String())
		if err == nil && out.Exception != nil {
			err = fault.New(fault.PhaseConfig, KindInvalidSession, "restoring session variables failed").With("exception", out.Exception.Message)
		}
		if err != nil {
			return nil, err
		}
	}
	s.restore = nil
	for i := range saved.History {
		a, err := plainGo(saved.History[i].Answer, s.st.host)
		if err != nil {
			return nil, fault.Wrap(err, fault.PhaseConfig, KindInvalidSession, "saved answer is not plain data")
		}
		saved.History[i].Answer = a
	}
	s.history = saved.History
	s.setHistory()
	return s, nil
}

func isIdent(s string) bool {
	if s == "" || strings.HasPrefix(s, "_") {
		return false
	}
	for i, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

func (s *Session) setHistory() {
	list := make([]any, len(s.history))
	for i, h := range s.history {
		list[i] = map[string]any{"query": h.Query, "answer": h.Answer}
	}
	v, err := repl.FromGo(list)
	if err != nil {
		v = starlark.NewList(nil)
	}
	s.st.embedded.Set("history", v)
}

// Ask answers one query in the session. A completed answer joins history.
func (s *Session) Ask(ctx context.Context, query string) (*Result, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	res, err := s.e.Run(withSessionState(ctx, s.st), query, s.inputs[0])
	if err == nil {
		s.history = append(s.history, HistoryEntry{Query: query, Answer: res.Answer})
		s.setHistory()
	}
	return res, err
}

// History returns the answered queries so far.
func (s *Session) History() []HistoryEntry {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]HistoryEntry(nil), s.history...)
}

// Save returns the session as JSON: the history and the variables that are
// plain data (None, bools, numbers, strings, lists and string-keyed dicts).
func (s *Session) Save() ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var src strings.Builder
	var names []string
	for _, v := range s.st.embedded.Vars() {
		if v.Name == "history" || !isIdent(v.Name) {
			continue
		}
		names = append(names, v.Name)
		fmt.Fprintf(&src, "_rlm_session_capture(%q, %s)\n", v.Name, v.Name)
	}
	saved := SavedSession{Version: SessionVersion, History: make([]HistoryEntry, len(s.history)), Globals: map[string]any{}}
	for i, h := range s.history {
		saved.History[i] = HistoryEntry{Query: h.Query, Answer: keepFloats(h.Answer)}
	}
	s.captured = map[string]any{}
	if len(names) > 0 {
		out, err := s.st.embedded.Exec(context.Background(), src.String())
		if err != nil {
			return nil, err
		}
		if out.Exception != nil {
			return nil, fault.New(fault.PhaseExecute, fault.KindInternal, "capturing session variables failed").With("exception", out.Exception.Message)
		}
	}
	for _, n := range names {
		if v, ok := s.captured[n]; ok {
			saved.Globals[n] = v
		} else {
			saved.Skipped = append(saved.Skipped, n)
		}
	}
	s.captured = nil
	return json.MarshalIndent(saved, "", "  ")
}

// keepFloats returns v with its floats as JSON numbers that keep a
// decimal point (2.0, not 2), so that a resumed session reads them back as
// floats, not integers.
func keepFloats(v any) any {
	switch x := v.(type) {
	case float64:
		b, err := json.Marshal(x)
		if err != nil {
			return x
		}
		if !bytes.ContainsAny(b, ".eE") {
			b = append(b, ".0"...)
		}
		return json.Number(b)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = keepFloats(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = keepFloats(e)
		}
		return out
	}
	return v
}

// capture is the hidden builtin through which Save reads variables.
func (s *Session) capture(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 2 || s.captured == nil {
		return starlark.None, nil
	}
	name, _ := starlark.AsString(args[0])
	if v, err := repl.ToGo(args[1]); err == nil {
		s.captured[name] = keepFloats(v)
	}
	return starlark.None, nil
}

// restoreVar is the hidden builtin through which ResumeSession binds saved
// variables.
func (s *Session) restoreVar(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 1 || s.restore == nil {
		return starlark.None, nil
	}
	name, _ := starlark.AsString(args[0])
	if v, ok := s.restore[name]; ok {
		return v, nil
	}
	return starlark.None, nil
}

// RunInputs answers query over several inputs in code mode: the code sees
// them as context_0..N (context is context_0). With one input it is Run.
func (e *Engine) RunInputs(ctx context.Context, query string, inputs ...corpus.Handle) (*Result, error) {
	if len(inputs) == 0 {
		return nil, fault.New(fault.PhaseConfig, fault.KindInvalidConfig, "a run needs at least one context")
	}
	if len(inputs) == 1 {
		return e.Run(ctx, query, inputs[0])
	}
	if e.cfg.Mode != ModeCode {
		return nil, fault.New(fault.PhaseConfig, fault.KindInvalidConfig, "several inputs need code mode").With("inputs", len(inputs)).WithHint("set Config.Mode to \"code\"")
	}
	st, err := newCodeState(ctx, e, inputs, nil)
	if err != nil {
		return nil, err
	}
	defer st.close()
	return e.Run(withSessionState(ctx, st), query, inputs[0])
}
