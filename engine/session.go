package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
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
	if e.cfg.ContextInPrompt {
		return nil, fault.New(fault.PhaseConfig, fault.KindInvalidConfig, "a session keeps its contexts in the REPL: the context in the prompt is for single runs").
			WithHint("leave Config.ContextInPrompt off for sessions")
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
//
// Saved data is read under the bounds json.loads meets in a cell: each
// variable, and each answer of the history, is one value whose JSON text
// (compact) is at most the value bound (Config.Code.MaxValueBytes, 64 MiB
// by default), and an integer has at most repl.MaxIntDigits (4300) digits,
// int()'s limit. A value past a bound is refused with Kind
// invalid_session naming the bound (detail "bound": "value_bytes" or
// "int_max_str_digits"), before it is converted: converting a decimal
// integer takes time quadratic in its digits.
func (e *Engine) ResumeSession(data []byte, inputs ...corpus.Handle) (*Session, error) {
	var saved struct {
		Version int `json:"version"`
		History []struct {
			Query  string          `json:"query"`
			Answer json.RawMessage `json:"answer"`
		} `json:"history"`
		Globals map[string]json.RawMessage `json:"globals"`
	}
	if err := json.Unmarshal(data, &saved); err != nil {
		return nil, fault.Wrap(err, fault.PhaseConfig, KindInvalidSession, "saved session is not valid JSON")
	}
	if saved.Version != SessionVersion {
		return nil, fault.New(fault.PhaseConfig, KindInvalidSession, "unsupported saved-session version").With("version", saved.Version).With("want", SessionVersion)
	}
	maxBytes := e.cfg.Code.WithDefaults().MaxValueBytes
	history := make([]HistoryEntry, len(saved.History))
	for i, h := range saved.History {
		var a any
		if err := savedValue(h.Answer, maxBytes, &a); err != nil {
			return nil, wrapSaved(err, "saved answer cannot be read").With("name", "history").With("index", i)
		}
		a, err := plainGo(a)
		if err != nil {
			return nil, wrapSaved(err, "saved answer is not plain data").With("name", "history").With("index", i)
		}
		history[i] = HistoryEntry{Query: h.Query, Answer: a}
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
		var v any
		if err := savedValue(saved.Globals[name], maxBytes, &v); err != nil {
			return nil, wrapSaved(err, "saved variable cannot be read").With("name", name)
		}
		g, err := plainGo(v)
		if err != nil {
			return nil, wrapSaved(err, "saved variable is not plain data").With("name", name)
		}
		if err := s.st.embedded.Restore(name, g); err != nil {
			return nil, fault.Wrap(err, fault.PhaseConfig, KindInvalidSession, "saved variable is not plain data").With("name", name)
		}
	}
	s.history = history
	s.setHistory()
	return s, nil
}

// boundError is a saved value past one of the bounds of ResumeSession.
type boundError struct {
	bound        string // "value_bytes" or "int_max_str_digits"
	limit, value int64  // the bound and the value's size under it
}

func (b *boundError) Error() string {
	if b.bound == boundDigits {
		return fmt.Sprintf("an integer of %d digits exceeds the limit of %d digits for integer string conversion", b.value, b.limit)
	}
	return fmt.Sprintf("a value of %d bytes of JSON exceeds the value bound of %d bytes", b.value, b.limit)
}

// The bounds a saved value meets (boundError.bound).
const (
	boundBytes  = "value_bytes"
	boundDigits = "int_max_str_digits"
)

// wrapSaved is the invalid_session error of a saved value: a bound's
// error names the bound, its limit and the value's size.
func wrapSaved(err error, msg string) *fault.Error {
	var b *boundError
	if errors.As(err, &b) {
		msg = b.Error()
		fe := fault.New(fault.PhaseConfig, KindInvalidSession, "saved session: "+msg).
			With("bound", b.bound).With("limit", b.limit)
		if b.bound == boundDigits {
			return fe.With("digits", b.value).
				WithHint("int() refuses such an integer too: remove the value from the saved file, or keep the number there as a str")
		}
		return fe.With("bytes", b.value).WithHint("a cell cannot build a value this large either: remove the value from the saved file")
	}
	return fault.Wrap(err, fault.PhaseConfig, KindInvalidSession, msg)
}

// savedValue decodes one saved value (JSON text) into dst, numbers as
// json.Number (plainGo converts them under the digit bound), the compact
// text at most maxBytes.
func savedValue(raw json.RawMessage, maxBytes int64, dst any) error {
	if len(raw) == 0 { // left out: null
		return nil
	}
	if int64(len(raw)) > maxBytes {
		var compact bytes.Buffer
		if err := json.Compact(&compact, raw); err != nil {
			return err
		}
		if n := int64(compact.Len()); n > maxBytes {
			return &boundError{bound: boundBytes, limit: maxBytes, value: n}
		}
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	return dec.Decode(dst)
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
	maxBytes := s.e.cfg.Code.WithDefaults().MaxValueBytes
	saved := SavedSession{Version: SessionVersion, History: make([]HistoryEntry, len(s.history)), Globals: map[string]any{}}
	for i, h := range s.history {
		a, ok := saveable(h.Answer, maxBytes)
		if !ok {
			saved.Skipped = append(saved.Skipped, fmt.Sprintf("history[%d]", i))
		}
		saved.History[i] = HistoryEntry{Query: h.Query, Answer: a}
	}
	for _, v := range s.st.embedded.Vars() {
		if v.Name == "history" || !isIdent(v.Name) {
			continue
		}
		g, ok, err := s.st.embedded.Get(v.Name)
		if ok && err == nil {
			g, ok = saveable(g, maxBytes)
		}
		if !ok || err != nil {
			saved.Skipped = append(saved.Skipped, v.Name)
			continue
		}
		saved.Globals[v.Name] = g
	}
	return json.MarshalIndent(saved, "", "  ")
}

// saveable returns plain data v as Save writes it (see keepFloats), or
// nil and false when ResumeSession would refuse it: an integer of more
// than repl.MaxIntDigits digits, or JSON text over maxBytes.
func saveable(v any, maxBytes int64) (any, bool) {
	if overDigits(v) {
		return nil, false
	}
	v = keepFloats(v)
	b, err := json.Marshal(v)
	if err != nil || int64(len(b)) > maxBytes {
		return nil, false
	}
	return json.RawMessage(b), true
}

// overDigits reports whether plain data v holds an integer of more than
// repl.MaxIntDigits digits.
func overDigits(v any) bool {
	switch x := v.(type) {
	case json.Number:
		return intDigits(string(x)) > repl.MaxIntDigits
	case *big.Int:
		return intDigits(x.String()) > repl.MaxIntDigits
	case []any:
		return slices.ContainsFunc(x, overDigits)
	case map[string]any:
		for _, e := range x {
			if overDigits(e) {
				return true
			}
		}
	}
	return false
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
// float64, recursively (what repl converts to int and float). An integer
// of more than repl.MaxIntDigits digits is refused (a *boundError) before
// it is converted.
func plainGo(v any) (any, error) {
	return mapJSON(v, func(leaf any) (any, error) {
		if x, ok := leaf.(json.Number); ok {
			return jsonNumber(x, repl.MaxIntDigits)
		}
		return leaf, nil
	})
}

// mapJSON rebuilds JSON data ([]any, map[string]any and leaves) with f
// applied to every leaf.
func mapJSON(v any, f func(leaf any) (any, error)) (any, error) {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			g, err := mapJSON(e, f)
			if err != nil {
				return nil, err
			}
			out[i] = g
		}
		return out, nil
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			g, err := mapJSON(e, f)
			if err != nil {
				return nil, err
			}
			out[k] = g
		}
		return out, nil
	}
	return f(v)
}

// jsonNumber is a JSON number as repl takes it: int64, *big.Int or
// float64. With maxDigits > 0, an integer of more digits is refused (a
// *boundError) before it is converted.
func jsonNumber(x json.Number, maxDigits int) (any, error) {
	if n, err := x.Int64(); err == nil {
		return n, nil
	}
	if digits := intDigits(string(x)); maxDigits > 0 && digits > maxDigits {
		return nil, &boundError{bound: boundDigits, limit: int64(maxDigits), value: int64(digits)}
	}
	if b, ok := new(big.Int).SetString(string(x), 10); ok {
		return b, nil
	}
	return x.Float64()
}

// intDigits is the number of digits of a JSON integer literal, or 0 for a
// number with a fraction or an exponent (a float).
func intDigits(lit string) int {
	if strings.ContainsAny(lit, ".eE") {
		return 0
	}
	return len(strings.TrimPrefix(lit, "-"))
}
