package python

import (
	"sort"
	"strings"
	"sync"
)

// Module is a module object.
type Module struct {
	identity
	name    string
	dict    *Dict
	getattr func(t *Thread, name string) (Object, error)
}

// Type returns module.
func (*Module) Type() *Type { return ModuleType }

// NewModule returns an empty module.
func NewModule(name string) *Module {
	m := &Module{name: name, dict: NewDict(16)}
	m.dict.SetStr("__name__", NewStr(name))
	for _, k := range []string{"__doc__", "__package__", "__loader__", "__spec__"} {
		m.dict.SetStr(k, None)
	}
	return m
}

// Name returns the module's name.
func (m *Module) Name() string { return m.name }

// Dict returns the module namespace.
func (m *Module) Dict() *Dict { return m.dict }

// Set binds a module attribute.
func (m *Module) Set(name string, v Object) { m.dict.SetStr(name, v) }

// Func binds a Go function as a module function.
func (m *Module) Func(name string, fn BuiltinFunc) {
	b := NewBuiltin(name, fn)
	b.module = m.name
	m.dict.SetStr(name, b)
}

// FuncBorrowing is Func for a function that reads its argument slice
// only during the call and keeps neither it nor a part of it: a call
// site passes it the thread's argument stack instead of a new slice.
func (m *Module) FuncBorrowing(name string, fn BuiltinFunc) {
	b := NewBuiltin(name, fn)
	b.module, b.borrows = m.name, true
	m.dict.SetStr(name, b)
}

// SetGetattr sets the module's __getattr__ (for names refused with a hint).
func (m *Module) SetGetattr(f func(t *Thread, name string) (Object, error)) { m.getattr = f }

// ModuleLoader builds a module for one interpreter.
type ModuleLoader func(in *Interp) (*Module, error)

var (
	registryMu sync.RWMutex
	registry   = map[string]ModuleLoader{}
	refused    = map[string]string{}
	packages   = map[string]bool{}
)

// RegisterModule makes a module importable by name in every interpreter.
func RegisterModule(name string, load ModuleLoader) {
	registryMu.Lock()
	registry[name] = load
	registryMu.Unlock()
}

// RegisterPackage registers a package: a module with submodules, which
// registered under its name and a dot ("json.decoder"). Importing a name
// below a module that is not a package raises CPython's "'x' is not a
// package".
func RegisterPackage(name string, load ModuleLoader) {
	registryMu.Lock()
	registry[name] = load
	packages[name] = true
	registryMu.Unlock()
}

// RefuseModule makes importing a standard module code mode does not
// provide a NotImplementedError with a hint (rather than
// ModuleNotFoundError, which is for modules that do not exist).
func RefuseModule(name, hint string) {
	registryMu.Lock()
	refused[name] = hint
	registryMu.Unlock()
}

// Modules lists the importable module names, sorted.
func Modules() []string {
	registryMu.RLock()
	defer registryMu.RUnlock()
	out := make([]string, 0, len(registry))
	for n := range registry {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// importModule implements import name: each package on the dotted path
// is imported first, as CPython does. A name CPython's standard library
// has and code mode does not provide raises NotImplementedError; any
// other unknown name is ModuleNotFoundError, naming the first component
// that is missing (or the parent that is not a package).
func (in *Interp) importModule(t *Thread, name string) (Object, error) {
	if m, ok := in.modules[name]; ok {
		return m, nil
	}
	registryMu.RLock()
	load, ok := registry[name]
	hint, isRefused := refused[name]
	registryMu.RUnlock()
	if isRefused {
		return nil, NotSupported("the module '"+name+"'", hint)
	}
	i := strings.LastIndexByte(name, '.')
	if i > 0 {
		top := name[:strings.IndexByte(name, '.')]
		if !isRegistered(top) && isCPythonModule(top) {
			if h, ok := refusedHint(top); ok {
				return nil, NotSupported("the module '"+top+"'", h)
			}
			return nil, notProvided(name)
		}
		if _, err := in.importModule(t, name[:i]); err != nil {
			return nil, err
		}
		if !ok {
			if !isPackage(name[:i]) {
				e := Errorf(ModuleNotFoundErrorType, "No module named '%s'; '%s' is not a package", name, name[:i])
				e.dictOf().SetStr("name", NewStr(name))
				return nil, e
			}
			return nil, moduleNotFound(name)
		}
	} else if !ok {
		if isCPythonModule(name) {
			return nil, notProvided(name)
		}
		return nil, moduleNotFound(name)
	}
	m, err := load(in)
	if err != nil {
		return nil, err
	}
	in.modules[name] = m
	if i > 0 {
		if pm, ok := in.modules[name[:i]].(*Module); ok {
			if _, has := pm.dict.GetStr(name[i+1:]); !has {
				pm.dict.SetStr(name[i+1:], m)
			}
		}
	}
	return m, nil
}

// notProvided is the error for a standard module CPython has and code
// mode does not provide.
func notProvided(name string) error {
	return NotSupported("the module '"+name+"'",
		"code mode has no file system, network, processes or threads; import one of the modules the system prompt lists")
}

func refusedHint(name string) (string, bool) {
	registryMu.RLock()
	defer registryMu.RUnlock()
	h, ok := refused[name]
	return h, ok
}

func isRegistered(name string) bool {
	registryMu.RLock()
	defer registryMu.RUnlock()
	_, ok := registry[name]
	return ok
}

// isCPythonModule reports whether name is a top-level module of CPython's
// standard library.
func isCPythonModule(name string) bool {
	i := sort.SearchStrings(cpythonModules[:], name)
	return i < len(cpythonModules) && cpythonModules[i] == name
}

// isPackage reports whether a registered module is a package (has
// submodules in CPython), as registered by RegisterPackage.
func isPackage(name string) bool {
	registryMu.RLock()
	defer registryMu.RUnlock()
	return packages[name]
}

func moduleNotFound(name string) error {
	e := Errorf(ModuleNotFoundErrorType, "No module named '%s'", name)
	e.dictOf().SetStr("name", NewStr(name))
	return e
}

// Import returns a module, importing it into the interpreter (library use).
func (in *Interp) Import(t *Thread, name string) (Object, error) { return in.importModule(t, name) }
