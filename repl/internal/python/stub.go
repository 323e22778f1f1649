package python

import "sync"

// stub is a placeholder object: any call, attribute or item gives a stub;
// it iterates as empty, has length 0 and is false (repl.Stub).
type stub struct{}

var (
	stubOnce sync.Once
	stubCls  *Type
)

// NewStub returns a placeholder object.
func NewStub() Object { return stub{} }

func (stub) Type() *Type {
	stubOnce.Do(func() { stubCls = NewBuiltinType("Stub", "builtins", nil, nil) })
	return stubCls
}
func (stub) PyCall(*Thread, []Object, []Kwarg) (Object, error) { return stub{}, nil }
func (stub) PyGetAttr(*Thread, string) (Object, error)         { return stub{}, nil }
func (stub) PyGetItem(*Thread, Object) (Object, error)         { return stub{}, nil }
func (stub) PyLen(*Thread) (int, error)                        { return 0, nil }
func (stub) PyBool(*Thread) (bool, error)                      { return false, nil }
func (stub) PyContains(*Thread, Object) (bool, error)          { return false, nil }
func (stub) PyRepr(*Thread) (string, error)                    { return "<stub>", nil }
func (stub) PyIter(t *Thread) (Object, error)                  { return Iter(t, NewList(nil)) }
func (stub) PyHash(*Thread) (int64, error)                     { return 7, nil }
