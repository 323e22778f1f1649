package python

import (
	"strings"

	"github.com/rlm-go/rlm/repl/internal/python/syntax"
)

// The compiler turns a syntax tree into Go closures over frames, with every
// name resolved to a fast slot, a cell or a dictionary lookup.

type evalFn func(f *Frame) (Object, error)

type ctrl uint8

const (
	ctrlNone ctrl = iota
	ctrlBreak
	ctrlContinue
	ctrlReturn
)

type execFn func(f *Frame) (ctrl, error)

type compiler struct {
	scopes   map[any]*scope
	binds    map[syntax.Stmt]string // mangled names of def and class statements
	localsNS bool                   // module names live in a locals mapping (exec)
	file     string
	warnings []syntax.Warning
}

// unit is the compilation state of one code object.
type unit struct {
	c        *compiler
	s        *scope
	code     *Code
	fast     map[string]int
	cells    map[string]int // cells then frees
	qualname string
	loops    int
}

func (c *compiler) newUnit(s *scope, name, qualname string, line int) *unit {
	u := &unit{c: c, s: s, fast: map[string]int{}, cells: map[string]int{}, qualname: qualname}
	u.code = &Code{Name: name, Qualname: qualname, File: c.file, Line: line, classCell: -1}
	for i, n := range s.fastList {
		u.fast[n] = i
	}
	for i, n := range s.cells {
		u.cells[n] = i
	}
	for i, n := range s.frees {
		u.cells[n] = len(s.cells) + i
	}
	u.code.nfast = len(s.fastList)
	u.code.ncells = len(s.cells)
	u.code.fastNames = s.fastList
	u.code.cellNames = append(append([]string(nil), s.cells...), s.frees...)
	u.code.generator = s.generator
	if s.kind == scopeClass {
		u.code.isClassBody = true
		if i, ok := u.cells["__class__"]; ok && s.classCell {
			u.code.classCell = i
		}
	}
	return u
}

// ref resolves a name in u.
func (u *unit) ref(name string) varRef {
	k := u.s.kinds[name]
	switch u.s.kind {
	case scopeModule:
		if u.c.localsNS && k != symGlobalExplicit {
			return varRef{kind: varName, name: name}
		}
		return varRef{kind: varGlobal, name: name}
	case scopeClass:
		switch k {
		case symFree:
			return varRef{kind: varClassDeref, index: u.cells[name], name: name}
		case symGlobalExplicit:
			return varRef{kind: varGlobal, name: name}
		case symCell:
			return varRef{kind: varCell, index: u.cells[name], name: name}
		}
		return varRef{kind: varName, name: name}
	}
	switch k {
	case symLocal:
		return varRef{kind: varFast, index: u.fast[name], name: name}
	case symCell, symFree:
		return varRef{kind: varCell, index: u.cells[name], name: name}
	case symGlobalImplicit:
		if u.c.localsNS && inlinedInModule(u.s) {
			// A comprehension inlined in exec'd code (PEP 709) sees
			// the locals mapping as that code does.
			return varRef{kind: varName, name: name}
		}
	}
	return varRef{kind: varGlobal, name: name}
}

// inlinedFunctionLocal reports whether s is a list, set or dict
// comprehension (nested only in such) in a function that binds name.
func inlinedFunctionLocal(s *scope, name string) bool {
	if s.kind != scopeComprehension {
		return false
	}
	for ; s.kind == scopeComprehension; s = s.parent {
		if _, ok := s.node.(*syntax.GeneratorExp); ok {
			return false
		}
	}
	return s.kind == scopeFunction && s.kinds[name] == symCell
}

// inlinedInModule reports whether s is a list, set or dict comprehension
// (nested only in such) at module level: CPython 3.12 inlines them there.
func inlinedInModule(s *scope) bool {
	for ; s.kind == scopeComprehension; s = s.parent {
		if _, ok := s.node.(*syntax.GeneratorExp); ok {
			return false
		}
	}
	return s.kind == scopeModule
}

// load returns an evaluator of a name.
func (u *unit) load(name string) evalFn {
	r := u.ref(name)
	switch r.kind {
	case varFast:
		i := r.index
		return func(f *Frame) (Object, error) {
			if v := f.fast[i]; v != nil {
				return v, nil
			}
			return nil, Errorf(UnboundLocalErrorType, "cannot access local variable '%s' where it is not associated with a value", name)
		}
	case varCell:
		i := r.index
		// A variable of the function a list, set or dict comprehension
		// is inlined in (PEP 709) is that function's local there.
		free := i >= u.code.ncells && !inlinedFunctionLocal(u.s, name)
		return func(f *Frame) (Object, error) {
			if v := f.cells[i].v; v != nil {
				return v, nil
			}
			if free {
				return nil, Errorf(NameErrorType, "cannot access free variable '%s' where it is not associated with a value in enclosing scope", name)
			}
			return nil, Errorf(UnboundLocalErrorType, "cannot access local variable '%s' where it is not associated with a value", name)
		}
	case varClassDeref:
		i := r.index
		return func(f *Frame) (Object, error) {
			if v, ok := f.locals.GetStr(name); ok {
				return v, nil
			}
			if v := f.cells[i].v; v != nil {
				return v, nil
			}
			return nil, Errorf(NameErrorType, "cannot access free variable '%s' where it is not associated with a value in enclosing scope", name)
		}
	case varName:
		return func(f *Frame) (Object, error) {
			if v, ok := f.locals.GetStr(name); ok {
				return v, nil
			}
			return loadGlobal(f, name)
		}
	}
	c := &globalSite{}
	return func(f *Frame) (Object, error) { return c.load(f, name) }
}

// globalSite caches where a global name was last found, as CPython's
// LOAD_GLOBAL specialization does: the index of its entry in the globals
// dict, or (when globals lack it) in the builtins dict, valid while those
// dicts' versions (which change when a key is added or removed, never
// when a value is replaced) are the ones seen then.
type globalSite struct {
	g, b       *Dict // b nil: found in g
	gver, bver uint64
	i          int32
}

func (c *globalSite) load(f *Frame, name string) (Object, error) {
	g := f.globals
	if c.g == g && c.gver == g.version {
		if c.b == nil {
			return g.entries[c.i].value, nil
		}
		if b := f.t.interp.builtins; c.b == b && c.bver == b.version {
			return b.entries[c.i].value, nil
		}
	}
	if i, ok := g.strIndex(name); ok {
		*c = globalSite{g: g, gver: g.version, i: i}
		return g.entries[i].value, nil
	}
	b := f.t.interp.builtins
	if i, ok := b.strIndex(name); ok {
		*c = globalSite{g: g, gver: g.version, b: b, bver: b.version, i: i}
		return b.entries[i].value, nil
	}
	return loadGlobal(f, name)
}

func loadGlobal(f *Frame, name string) (Object, error) {
	if v, ok := f.globals.GetStr(name); ok {
		return v, nil
	}
	if v, ok := f.t.interp.builtins.GetStr(name); ok {
		return v, nil
	}
	if f.t.interp.autoImport[name] {
		// A predeclared module, imported on first use.
		m, err := f.t.interp.importModule(f.t, name)
		if err != nil {
			return nil, err
		}
		f.t.interp.globals.SetStr(name, m)
		return m, nil
	}
	return nil, nameError(f.t, name)
}

func nameError(t *Thread, name string) error {
	e := Errorf(NameErrorType, "name '%s' is not defined", name)
	if hint := t.interp.unsupportedName(name); hint != "" {
		return NotSupported("the name '"+name+"'", hint)
	}
	if _, ok := t.interp.stdlibNames[name]; ok {
		e = Errorf(NameErrorType, "name '%s' is not defined. Did you forget to import '%s'?", name, name)
	}
	e.dictOf().SetStr("name", NewStr(name))
	return e
}

// storeName returns a setter of a name.
func (u *unit) storeName(name string) func(f *Frame, v Object) error {
	r := u.ref(name)
	switch r.kind {
	case varFast:
		i := r.index
		return func(f *Frame, v Object) error { f.fast[i] = v; return nil }
	case varCell, varClassDeref:
		i := r.index
		return func(f *Frame, v Object) error { f.cells[i].v = v; return nil }
	case varName:
		return func(f *Frame, v Object) error { f.locals.SetStr(name, v); return nil }
	}
	return func(f *Frame, v Object) error { f.globals.SetStr(name, v); return nil }
}

// deleteName returns a deleter of a name.
func (u *unit) deleteName(name string) func(f *Frame) error {
	r := u.ref(name)
	switch r.kind {
	case varFast:
		i := r.index
		return func(f *Frame) error {
			if f.fast[i] == nil {
				return Errorf(UnboundLocalErrorType, "cannot access local variable '%s' where it is not associated with a value", name)
			}
			f.fast[i] = nil
			return nil
		}
	case varCell, varClassDeref:
		i := r.index
		return func(f *Frame) error {
			if f.cells[i].v == nil {
				return Errorf(UnboundLocalErrorType, "cannot access local variable '%s' where it is not associated with a value", name)
			}
			f.cells[i].v = nil
			return nil
		}
	case varName:
		return func(f *Frame) error {
			if _, found, _ := f.locals.Delete(f.t, NewStr(name)); !found {
				return Errorf(NameErrorType, "name '%s' is not defined", name)
			}
			return nil
		}
	}
	return func(f *Frame) error {
		if _, found, _ := f.globals.Delete(f.t, NewStr(name)); !found {
			return Errorf(NameErrorType, "name '%s' is not defined", name)
		}
		return nil
	}
}

// compileModule compiles a cell. With localsNS, the module's names are
// looked up in the frame's locals mapping first, then in its globals (exec
// and eval with a separate locals mapping).
func compileModule(mod *syntax.Module, file string, localsNS bool) (*Code, error) {
	binds := manglePrivate(mod)
	top, scopes, err := buildScopes(mod, binds)
	if err != nil {
		return nil, err
	}
	c := &compiler{scopes: scopes, file: file, binds: binds, localsNS: localsNS}
	u := c.newUnit(top, "<module>", "<module>", 1)
	body, err := u.block(mod.Body)
	if err != nil {
		return nil, err
	}
	u.code.body = body
	u.code.Warnings = append(append([]syntax.Warning(nil), mod.Warnings...), c.warnings...)
	return u.code, nil
}

// block compiles a statement list.
func (u *unit) block(stmts []syntax.Stmt) (execFn, error) {
	fns := make([]execFn, 0, len(stmts))
	lines := make([]int, 0, len(stmts))
	for _, s := range stmts {
		fn, err := u.stmt(s)
		if err != nil {
			return nil, err
		}
		if fn == nil {
			continue
		}
		fns = append(fns, fn)
		lines = append(lines, s.Position().Line)
	}
	switch len(fns) {
	case 0:
		return func(*Frame) (ctrl, error) { return ctrlNone, nil }, nil
	case 1:
		fn, line := fns[0], lines[0]
		return func(f *Frame) (ctrl, error) {
			f.line = line
			if err := f.t.tick(); err != nil {
				return 0, err
			}
			c, err := fn(f)
			if err != nil {
				return 0, traced(err, f, line)
			}
			return c, nil
		}, nil
	}
	return func(f *Frame) (ctrl, error) {
		for i, fn := range fns {
			f.line = lines[i]
			if err := f.t.tick(); err != nil {
				return 0, err
			}
			c, err := fn(f)
			if err != nil {
				return 0, traced(err, f, lines[i])
			}
			if c != ctrlNone {
				return c, nil
			}
		}
		return ctrlNone, nil
	}, nil
}

// traced records the frame and line an exception passes through.
func traced(err error, f *Frame, line int) error {
	if e, ok := err.(*Exception); ok {
		e.addTrace(f, line)
	}
	return err
}

func qualJoin(parent, name string, parentKind scopeKind) string {
	switch parentKind {
	case scopeModule:
		return name
	case scopeFunction, scopeComprehension:
		return parent + ".<locals>." + name
	}
	return parent + "." + name
}

var _ = strings.Join
