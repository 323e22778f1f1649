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

// SetGetattr sets the module's __getattr__ (for names refused with a hint).
func (m *Module) SetGetattr(f func(t *Thread, name string) (Object, error)) { m.getattr = f }

// ModuleLoader builds a module for one interpreter.
type ModuleLoader func(in *Interp) (*Module, error)

var (
	registryMu sync.RWMutex
	registry   = map[string]ModuleLoader{}
	refused    = map[string]string{}
)

// RegisterModule makes a module importable by name in every interpreter.
func RegisterModule(name string, load ModuleLoader) {
	registryMu.Lock()
	registry[name] = load
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

// importModule implements import name.
func (in *Interp) importModule(t *Thread, name string) (Object, error) {
	if m, ok := in.modules[name]; ok {
		return m, nil
	}
	registryMu.RLock()
	load, ok := registry[name]
	hint, isRefused := refused[name]
	registryMu.RUnlock()
	if !ok {
		if isRefused {
			return nil, NotSupported("the module '"+name+"'", hint)
		}
		if i := strings.LastIndexByte(name, '.'); i > 0 {
			parent := name[:i]
			registryMu.RLock()
			_, pok := registry[parent]
			registryMu.RUnlock()
			if pok {
				if _, err := in.importModule(t, parent); err != nil {
					return nil, err
				}
				return nil, moduleNotFound(name)
			}
		}
		return nil, moduleNotFound(name)
	}
	m, err := load(in)
	if err != nil {
		return nil, err
	}
	in.modules[name] = m
	if i := strings.LastIndexByte(name, '.'); i > 0 {
		if p, err := in.importModule(t, name[:i]); err == nil {
			if pm, ok := p.(*Module); ok {
				if _, has := pm.dict.GetStr(name[i+1:]); !has {
					pm.dict.SetStr(name[i+1:], m)
				}
			}
		}
	}
	return m, nil
}

func moduleNotFound(name string) error {
	e := Errorf(ModuleNotFoundErrorType, "No module named '%s'", name)
	e.dictOf().SetStr("name", NewStr(name))
	return e
}

// Import returns a module, importing it into the interpreter (library use).
func (in *Interp) Import(t *Thread, name string) (Object, error) { return in.importModule(t, name) }
