package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"math/big"
	"slices"
	"strings"
	"sync"

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

	mu      sync.Mutex
	st      *codeState
	history []HistoryEntry
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
	st, err := newCodeState(context.Background(), e, inputs)
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
	for _, name := range slices.Sorted(maps.Keys(saved.Globals)) {
		if !isIdent(name) || name == "history" {
			return nil, fault.New(fault.PhaseConfig, KindInvalidSession, "saved variable name is not an identifier").With("name", name)
		}
		if s.st.embedded.Has(name) || repl.IsStandard(name) {
			// A host or standard name (context, FINAL, llm_query, print,
			// True, ...): Save never writes one, and restoring it would
			// replace the session's input or a builtin.
			return nil, fault.New(fault.PhaseConfig, KindInvalidSession, "saved variable would rebind a predeclared name").With("name", name)
		}
		g, err := plainGo(saved.Globals[name])
		if err != nil {
			return nil, fault.Wrap(err, fault.PhaseConfig, KindInvalidSession, "saved variable is not plain data").With("name", name)
		}
		if err := s.st.embedded.Restore(name, g); err != nil {
			return nil, fault.Wrap(err, fault.PhaseConfig, KindInvalidSession, "saved variable is not plain data").With("name", name)
		}
	}
	for i := range saved.History {
		a, err := plainGo(saved.History[i].Answer)
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
	if s == "" || strings.HasPrefix(s, "_") || repl.IsKeyword(s) {
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
		list[i] = repl.Dict{{Key: "query", Value: h.Query}, {Key: "answer", Value: h.Answer}}
	}
	if err := s.st.embedded.Set("history", list); err != nil {
		_ = s.st.embedded.Set("history", []any{})
	}
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
	saved := SavedSession{Version: SessionVersion, History: make([]HistoryEntry, len(s.history)), Globals: map[string]any{}}
	for i, h := range s.history {
		saved.History[i] = HistoryEntry{Query: h.Query, Answer: keepFloats(h.Answer)}
	}
	for _, v := range s.st.embedded.Vars() {
		if v.Name == "history" || !isIdent(v.Name) {
			continue
		}
		g, ok, err := s.st.embedded.Get(v.Name)
		if !ok || err != nil {
			saved.Skipped = append(saved.Skipped, v.Name)
			continue
		}
		saved.Globals[v.Name] = keepFloats(g)
	}
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
	st, err := newCodeState(ctx, e, inputs)
	if err != nil {
		return nil, err
	}
	defer st.close()
	return e.Run(withSessionState(ctx, st), query, inputs[0])
}

// plainGo rewrites the json.Numbers of saved data into int64, *big.Int or
// float64, recursively (what repl converts to int and float).
func plainGo(v any) (any, error) {
	switch x := v.(type) {
	case json.Number:
		if n, err := x.Int64(); err == nil {
			return n, nil
		}
		if b, ok := new(big.Int).SetString(string(x), 10); ok {
			return b, nil
		}
		return x.Float64()
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			g, err := plainGo(e)
			if err != nil {
				return nil, err
			}
			out[i] = g
		}
		return out, nil
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			g, err := plainGo(e)
			if err != nil {
				return nil, err
			}
			out[k] = g
		}
		return out, nil
	}
	return v, nil
}
