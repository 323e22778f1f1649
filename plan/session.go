package plan

import (
	"maps"
	"slices"
	"sync"

	"github.com/rlm-go/rlm/fault"
)

// Standard input names. A run's inputs are "context" (the handle of the
// input context) and "query" (the user's question); hosts may add more.
const (
	InputContext = "context"
	InputQuery   = "query"
)

// SessionOptions configures a Session.
type SessionOptions struct {
	// MaxConcurrency caps the items or branches of one map or parallel
	// step in flight, whatever the step asks for. Zero means
	// DefaultMaxConcurrency.
	MaxConcurrency int
	// MaxValueBytes (max_value_bytes) bounds every value a plan builds
	// and the results of one map or parallel step together. Zero means
	// DefaultMaxValueBytes.
	MaxValueBytes int
}

// Session holds a run's inputs and the variables bound by its plans. The
// variables persist across turns like a REPL session: each Execute adds
// the names its top-level steps bind, and a name is never re-bound. A
// Session is safe for concurrent use.
type Session struct {
	mu      sync.RWMutex
	inputs  map[string]Value
	vars    map[string]Value
	order   []string
	maxConc int
	maxVal  int
}

// NewSession returns a session with the given inputs (copied) and no
// variables.
func NewSession(inputs map[string]Value, opts SessionOptions) *Session {
	mc := opts.MaxConcurrency
	if mc <= 0 {
		mc = DefaultMaxConcurrency
	}
	mv := opts.MaxValueBytes
	if mv <= 0 {
		mv = DefaultMaxValueBytes
	}
	return &Session{inputs: maps.Clone(inputs), vars: map[string]Value{}, maxConc: mc, maxVal: mv}
}

// Input returns the input name.
func (s *Session) Input(name string) (Value, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	v, ok := s.inputs[name]
	return v, ok
}

// InputNames returns the input names, sorted.
func (s *Session) InputNames() []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return slices.Sorted(maps.Keys(s.inputs))
}

// Var returns the variable name.
func (s *Session) Var(name string) (Value, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	v, ok := s.vars[name]
	return v, ok
}

// HasVar reports whether name is bound (ValidateConfig.IsBound).
func (s *Session) HasVar(name string) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	_, ok := s.vars[name]
	return ok
}

// Names returns the bound variable names in binding order (for
// ValidateConfig.Bound).
func (s *Session) Names() []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return slices.Clone(s.order)
}

// Vars returns a copy of the variables.
func (s *Session) Vars() map[string]Value {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return maps.Clone(s.vars)
}

// MaxConcurrency returns the session's concurrency cap.
func (s *Session) MaxConcurrency() int { return s.maxConc }

// MaxValueBytes returns the session's value size limit.
func (s *Session) MaxValueBytes() int { return s.maxVal }

// Bind binds name to v. It fails with Phase execute Kind rebound_variable
// when name is already bound, and Kind invalid_argument when name is not a
// valid variable name.
func (s *Session) Bind(name string, v Value) error {
	if !validIdent(name) {
		return fault.New(fault.PhaseExecute, KindInvalidArgument, "invalid variable name").With("field", "bind").With("name", name)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.vars[name]; ok {
		return fault.New(fault.PhaseExecute, KindReboundVariable, "variable is already bound").With("name", name)
	}
	s.vars[name] = v
	s.order = append(s.order, name)
	return nil
}

// validIdent reports whether name is a variable name:
// [A-Za-z_][A-Za-z0-9_]*, at most MaxNameBytes bytes.
func validIdent(name string) bool {
	if name == "" || len(name) > MaxNameBytes {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '_', c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// scope is a variable scope during execution: the root scope reads and
// writes the session; a child scope (a map item, a parallel branch, a
// retry attempt) has its own variables and reads its parent's. A child's
// variables are written only by the goroutine running it, and a scope is
// never written while its children run, so only the session needs a lock.
type scope struct {
	parent *scope
	sess   *Session // root only
	vars   map[string]Value
}

func (sc *scope) child() *scope {
	return &scope{parent: sc, vars: map[string]Value{}}
}

func (sc *scope) lookup(name string) (Value, bool) {
	for s := sc; s != nil; s = s.parent {
		if s.sess != nil {
			return s.sess.Var(name)
		}
		if v, ok := s.vars[name]; ok {
			return v, true
		}
	}
	return nil, false
}

func (sc *scope) session() *Session {
	s := sc
	for s.parent != nil {
		s = s.parent
	}
	return s.sess
}

// bind binds name in sc; it fails when name is visible already.
func (sc *scope) bind(name string, v Value, path string) error {
	if sc.sess != nil {
		if err := sc.sess.Bind(name, v); err != nil {
			return annotate(err, "path", path)
		}
		return nil
	}
	if _, ok := sc.lookup(name); ok {
		return execErr(KindReboundVariable, path, "variable is already bound").With("name", name)
	}
	sc.vars[name] = v
	return nil
}

// visible returns a snapshot of every variable visible from sc.
func (sc *scope) visible() map[string]Value {
	out := map[string]Value{}
	var chain []*scope
	for s := sc; s != nil; s = s.parent {
		chain = append(chain, s)
	}
	for i := len(chain) - 1; i >= 0; i-- {
		s := chain[i]
		if s.sess != nil {
			maps.Copy(out, s.sess.Vars())
		} else {
			maps.Copy(out, s.vars)
		}
	}
	return out
}
