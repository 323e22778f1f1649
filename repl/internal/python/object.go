// Package python is code mode's embedded Python 3.12 interpreter: the object
// model, the compiler from package syntax's tree to closures, the evaluator,
// the built-in functions and types. It is pure Go, deterministic and
// hermetic: no file system, network, environment, clock or entropy. Every
// construct either behaves as CPython 3.12 does or raises
// NotImplementedError naming what is not supported.
//
// Standard modules live in sub-packages of repl/internal/python/lib and are
// registered with an Interp by package repl.
package python

import (
	"fmt"
	"sync/atomic"
)

// Object is a Python value.
type Object interface {
	// Type returns the value's class.
	Type() *Type
}

// Kwarg is one keyword argument of a call.
type Kwarg struct {
	Name  string
	Value Object
}

// NoneType is the type of None.
type NoneType struct{}

// None is Python's None.
var None Object = NoneType{}

// Type returns NoneType's class.
func (NoneType) Type() *Type { return NoneTypeType }

type notImplementedType struct{}

// NotImplemented is returned by binary special methods that do not handle
// the other operand.
var NotImplemented Object = notImplementedType{}

func (notImplementedType) Type() *Type { return NotImplementedTypeType }

type ellipsisType struct{}

// Ellipsis is the value of the literal ... .
var Ellipsis Object = ellipsisType{}

func (ellipsisType) Type() *Type { return EllipsisTypeType }

// Bool is True or False. bool is a subclass of int.
type Bool bool

// True and False.
var (
	True  Object = Bool(true)
	False Object = Bool(false)
)

// Type returns bool.
func (Bool) Type() *Type { return BoolType }

// MakeBool returns True or False.
func MakeBool(b bool) Object {
	if b {
		return True
	}
	return False
}

// nextID numbers objects that need an identity (id(), default hashes), so
// that identities are deterministic from run to run.
var nextID atomic.Uint64

func newID() uint64 { return nextID.Add(1) }

// identity is embedded in objects whose identity Python code can observe.
type identity struct{ id uint64 }

// Identity gives a Go-implemented object a stable identity for id(),
// hash() and `is`: embed it (by value) in the object's struct.
type Identity = identity

func (i *identity) ident() uint64 {
	if id := atomic.LoadUint64(&i.id); id != 0 {
		return id
	}
	// The object may be shared by interpreters on other goroutines (a
	// built-in type): the first identity published wins.
	if id := newID(); atomic.CompareAndSwapUint64(&i.id, 0, id) {
		return id
	}
	return atomic.LoadUint64(&i.id)
}

type hasIdentity interface{ ident() uint64 }

// typeName returns the Python name of x's type, for messages: a type
// implemented in Go by a library module is named with its module
// ('collections.deque'), as CPython's C types are.
func typeName(x Object) string {
	if x == nil {
		return "NULL"
	}
	return qualifiedName(x.Type())
}

// Sprintf-like helpers for exceptions.
func q(s string) string { return "'" + s + "'" }

var _ = fmt.Sprint
