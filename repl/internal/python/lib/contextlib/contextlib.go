// Package contextlib is code mode's contextlib module: contextmanager
// (generator functions as context managers and as decorators, with
// CPython's RuntimeErrors for a generator that does not yield once),
// suppress, nullcontext, closing, ExitStack, redirect_stdout,
// redirect_stderr, AbstractContextManager and ContextDecorator. The
// asynchronous variants and chdir are refused.
// redirect_stdout sets sys.stdout, as CPython does (print writes there).
package contextlib

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/rlm-go/rlm/repl/internal/python"
)

// Register makes contextlib importable.
func Register() {
	python.Setup()
	python.RegisterModule("contextlib", load)
}

var (
	typesOnce                                              sync.Once
	gcmType, suppressType, nullType, closingType, exitType *python.Type
	redirType, redirErrType, acmType, decoType, helperType *python.Type
	nextID                                                 atomic.Int64
)

func load(in *python.Interp) (*python.Module, error) {
	typesOnce.Do(initTypes)
	m := python.NewModule("contextlib")
	m.Func("contextmanager", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		if len(args) != 1 || len(kwargs) > 0 {
			return nil, python.Errorf(python.TypeErrorType, "contextmanager() takes 1 positional argument but %d were given", len(args))
		}
		return &helper{fn: args[0]}, nil
	})
	m.Set("suppress", suppressType)
	m.Set("nullcontext", nullType)
	m.Set("closing", closingType)
	m.Set("ExitStack", exitType)
	m.Set("redirect_stdout", redirType)
	m.Set("redirect_stderr", redirErrType)
	m.Set("AbstractContextManager", acmType)
	m.Set("ContextDecorator", decoType)
	for _, n := range []string{"asynccontextmanager", "aclosing", "AsyncExitStack", "AbstractAsyncContextManager", "AsyncContextDecorator", "chdir"} {
		n := n
		m.Func(n, func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
			if n == "chdir" {
				return nil, python.NotSupported("contextlib.chdir", "code mode has no file system")
			}
			return nil, python.NotSupported("contextlib."+n, "code mode runs no asynchronous code")
		})
	}
	return m, nil
}

// id gives Go objects an identity for hash() and reprs.
func id() int64 { return nextID.Add(1) }

// enterExit calls a context manager's __enter__, and returns its exit.
func enterExit(t *python.Thread, cm python.Object) (python.Object, func(exc *python.Exception) (bool, error), error) {
	if c, ok := cm.(python.ContextManager); ok {
		v, err := c.Enter(t)
		if err != nil {
			return nil, nil, err
		}
		return v, func(exc *python.Exception) (bool, error) { return c.Exit(t, exc) }, nil
	}
	cls := cm.Type()
	if _, ok := cls.Lookup("__enter__"); !ok {
		return nil, nil, python.Errorf(python.TypeErrorType, "'%s' object does not support the context manager protocol", typeQualname(cls))
	}
	exit, ok := cls.Lookup("__exit__")
	if !ok {
		return nil, nil, python.Errorf(python.TypeErrorType, "'%s' object does not support the context manager protocol (missed __exit__ method)", typeQualname(cls))
	}
	_ = exit
	v, err := python.CallMethod(t, cm, "__enter__", nil, nil)
	if err != nil {
		return nil, nil, err
	}
	return v, func(exc *python.Exception) (bool, error) {
		return callExit(t, cm, exc)
	}, nil
}

func typeQualname(c *python.Type) string {
	if c.Module() == "builtins" || c.Module() == "" {
		return c.Qualname()
	}
	return c.Module() + "." + c.Qualname()
}

// callExit calls cm.__exit__(type, value, None).
func callExit(t *python.Thread, cm python.Object, exc *python.Exception) (bool, error) {
	args := []python.Object{python.None, python.None, python.None}
	if exc != nil {
		args = []python.Object{exc.Class(), exc, python.None}
	}
	r, err := python.CallMethod(t, cm, "__exit__", args, nil)
	if err != nil {
		return false, err
	}
	if exc == nil {
		return false, nil
	}
	return python.TruthE(t, r)
}

// asException converts an error to a Python exception, or returns it as a
// stop (not an exception).
func asException(err error) (*python.Exception, bool) {
	return python.AsException(err)
}

// helper is what @contextmanager returns: calling it makes a
// _GeneratorContextManager.
type helper struct {
	fn python.Object
	id int64
}

// Type returns function.
func (h *helper) Type() *python.Type { return helperType }

// PyCall makes a _GeneratorContextManager.
func (h *helper) PyCall(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	return &gcm{fn: h.fn, args: args, kwargs: kwargs}, nil
}

// PyRepr renders <function name at 0x...>.
func (h *helper) PyRepr(t *python.Thread) (string, error) {
	if h.id == 0 {
		h.id = id()
	}
	name := "helper"
	if n, err := python.GetAttr(t, h.fn, "__qualname__"); err == nil {
		name = python.StrValue(n)
	}
	return fmt.Sprintf("<function %s at 0x7f%010x>", name, h.id*16), nil
}

// PyHash hashes by identity.
func (h *helper) PyHash(*python.Thread) (int64, error) {
	if h.id == 0 {
		h.id = id()
	}
	return h.id, nil
}

// PyGetAttr gives the wrapped function's __name__, __qualname__,
// __doc__, __module__ and __wrapped__ (functools.wraps).
func (h *helper) PyGetAttr(t *python.Thread, name string) (python.Object, error) {
	switch name {
	case "__wrapped__":
		return h.fn, nil
	case "__name__", "__qualname__", "__doc__", "__module__", "__annotations__", "__dict__":
		return python.GetAttr(t, h.fn, name)
	}
	return nil, nil
}

// gcm is a _GeneratorContextManager.
type gcm struct {
	fn     python.Object
	args   []python.Object
	kwargs []python.Kwarg
	gen    python.Object
}

// Type returns contextlib._GeneratorContextManager.
func (g *gcm) Type() *python.Type { return gcmType }

// Enter starts the generator: its first value is the with target.
func (g *gcm) Enter(t *python.Thread) (python.Object, error) {
	gen, err := python.Call(t, g.fn, g.args, g.kwargs)
	if err != nil {
		return nil, err
	}
	g.gen = gen
	v, err := python.Next(t, gen)
	if err != nil {
		return nil, err
	}
	if v == nil {
		return nil, python.Errorf(python.RuntimeErrorType, "generator didn't yield")
	}
	return v, nil
}

// Exit resumes the generator: to its end, or throwing the exception in.
func (g *gcm) Exit(t *python.Thread, exc *python.Exception) (bool, error) {
	if g.gen == nil {
		return false, python.Errorf(python.RuntimeErrorType, "generator didn't yield")
	}
	if exc == nil {
		v, err := python.Next(t, g.gen)
		if err != nil {
			return false, err
		}
		if v == nil {
			return false, nil
		}
		return false, python.Errorf(python.RuntimeErrorType, "generator didn't stop")
	}
	_, err := python.CallMethod(t, g.gen, "throw", []python.Object{exc}, nil)
	if err == nil {
		return false, python.Errorf(python.RuntimeErrorType, "generator didn't stop after throw()")
	}
	e, ok := asException(err)
	if !ok {
		return false, err
	}
	switch {
	case e.Class().IsSubtype(python.StopIterationType):
		return e != exc, nil
	case e == exc:
		return false, nil
	case e.Class().IsSubtype(python.RuntimeErrorType) && exc.Class().IsSubtype(python.StopIterationType) && e.Cause() == exc:
		return false, nil
	}
	return false, e
}

// decorate returns a function running fn inside a fresh context manager
// made by recreate (ContextDecorator.__call__).
func decorate(fn python.Object, recreate func(t *python.Thread) (python.Object, error)) python.Object {
	return python.NewBuiltin("inner", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		cm, err := recreate(t)
		if err != nil {
			return nil, err
		}
		if _, exit, err := enterExit(t, cm); err != nil {
			return nil, err
		} else {
			r, err := python.Call(t, fn, args, kwargs)
			if err != nil {
				e, ok := asException(err)
				if !ok {
					return nil, err
				}
				suppress, err2 := exit(e)
				if err2 != nil {
					return nil, err2
				}
				if suppress {
					return python.None, nil
				}
				return nil, err
			}
			if _, err := exit(nil); err != nil {
				return nil, err
			}
			return r, nil
		}
	})
}

// suppressCM is suppress(*exceptions).
type suppressCM struct{ excs []python.Object }

// Type returns contextlib.suppress.
func (s *suppressCM) Type() *python.Type { return suppressType }

// Enter returns None.
func (s *suppressCM) Enter(*python.Thread) (python.Object, error) { return python.None, nil }

// Exit suppresses the listed exceptions.
func (s *suppressCM) Exit(t *python.Thread, exc *python.Exception) (bool, error) {
	if exc == nil {
		return false, nil
	}
	return python.IsInstanceOf(t, exc, python.NewTuple(s.excs))
}

// nullCM is nullcontext(enter_result=None).
type nullCM struct{ v python.Object }

// Type returns contextlib.nullcontext.
func (n *nullCM) Type() *python.Type { return nullType }

// Enter returns enter_result.
func (n *nullCM) Enter(*python.Thread) (python.Object, error) { return n.v, nil }

// Exit does nothing.
func (n *nullCM) Exit(*python.Thread, *python.Exception) (bool, error) { return false, nil }

// closingCM is closing(thing).
type closingCM struct{ thing python.Object }

// Type returns contextlib.closing.
func (c *closingCM) Type() *python.Type { return closingType }

// Enter returns the thing.
func (c *closingCM) Enter(*python.Thread) (python.Object, error) { return c.thing, nil }

// Exit calls thing.close().
func (c *closingCM) Exit(t *python.Thread, _ *python.Exception) (bool, error) {
	_, err := python.CallMethod(t, c.thing, "close", nil, nil)
	return false, err
}

// redirect is redirect_stdout(new_target) and redirect_stderr(new_target).
type redirect struct {
	target python.Object
	stream string
	olds   []python.Object
}

// Type returns contextlib.redirect_stdout (or _stderr).
func (r *redirect) Type() *python.Type {
	if r.stream == "stderr" {
		return redirErrType
	}
	return redirType
}

// Enter sets sys.stdout (or sys.stderr) to the target.
func (r *redirect) Enter(t *python.Thread) (python.Object, error) {
	sys, err := t.Interp().Import(t, "sys")
	if err != nil {
		return nil, err
	}
	old, err := python.GetAttr(t, sys, r.stream)
	if err != nil {
		return nil, err
	}
	r.olds = append(r.olds, old)
	if err := python.SetAttr(t, sys, r.stream, r.target); err != nil {
		return nil, err
	}
	return r.target, nil
}

// Exit restores the stream.
func (r *redirect) Exit(t *python.Thread, _ *python.Exception) (bool, error) {
	if len(r.olds) == 0 {
		return false, nil
	}
	sys, err := t.Interp().Import(t, "sys")
	if err != nil {
		return false, err
	}
	old := r.olds[len(r.olds)-1]
	r.olds = r.olds[:len(r.olds)-1]
	if err := python.SetAttr(t, sys, r.stream, old); err != nil {
		return false, err
	}
	return false, nil
}

// exitStack is ExitStack: exit callbacks run in reverse order, passing an
// exception along and letting a callback suppress it.
type exitStack struct {
	cbs []func(t *python.Thread, exc *python.Exception) (bool, error)
}

// Type returns contextlib.ExitStack.
func (s *exitStack) Type() *python.Type { return exitType }

// Enter returns the stack.
func (s *exitStack) Enter(*python.Thread) (python.Object, error) { return s, nil }

// Exit unwinds the callbacks.
func (s *exitStack) Exit(t *python.Thread, exc *python.Exception) (bool, error) {
	received := exc
	pending := exc
	suppressed := false
	for len(s.cbs) > 0 {
		cb := s.cbs[len(s.cbs)-1]
		s.cbs = s.cbs[:len(s.cbs)-1]
		ok, err := cb(t, pending)
		if err != nil {
			e, isExc := asException(err)
			if !isExc {
				return false, err
			}
			if pending != nil && e != pending {
				if e.Context() == nil {
					_ = python.SetAttr(t, e, "__context__", pending)
				}
			}
			pending = e
			suppressed = false
			continue
		}
		if ok {
			pending = nil
			suppressed = true
		}
	}
	if pending != nil && pending != received {
		return false, pending
	}
	return received != nil && suppressed && pending == nil, nil
}

func (s *exitStack) push(cb func(t *python.Thread, exc *python.Exception) (bool, error)) {
	s.cbs = append(s.cbs, cb)
}

func initTypes() {
	helperType = python.NewBuiltinType("function", "builtins", nil, nil)
	helperType.SetFinal()
	gcmType = python.NewBuiltinType("_GeneratorContextManager", "contextlib", nil, nil)
	gcmType.AddMethod("__enter__", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		return args[0].(*gcm).Enter(t)
	})
	gcmType.AddMethod("__exit__", exitMethod)
	gcmType.AddMethod("__call__", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		if len(args) != 2 {
			return nil, python.Errorf(python.TypeErrorType, "__call__() takes 2 positional arguments but %d were given", len(args))
		}
		g := args[0].(*gcm)
		return decorate(args[1], func(t *python.Thread) (python.Object, error) {
			return &gcm{fn: g.fn, args: g.args, kwargs: g.kwargs}, nil
		}), nil
	})
	suppressType = python.NewBuiltinType("suppress", "contextlib", nil, func(t *python.Thread, cls *python.Type, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		if len(kwargs) > 0 {
			return nil, python.Errorf(python.TypeErrorType, "suppress.__init__() got an unexpected keyword argument '%s'", kwargs[0].Name)
		}
		return &suppressCM{excs: append([]python.Object(nil), args...)}, nil
	})
	cmMethods(suppressType)
	nullType = python.NewBuiltinType("nullcontext", "contextlib", nil, func(t *python.Thread, cls *python.Type, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		v, err := python.UnpackArgs("nullcontext", args, kwargs, 0, "enter_result")
		if err != nil {
			return nil, err
		}
		r := v[0]
		if r == nil {
			r = python.None
		}
		return &nullCM{v: r}, nil
	})
	cmMethods(nullType)
	closingType = python.NewBuiltinType("closing", "contextlib", nil, func(t *python.Thread, cls *python.Type, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		v, err := python.UnpackArgs("closing", args, kwargs, 1, "thing")
		if err != nil {
			return nil, err
		}
		return &closingCM{thing: v[0]}, nil
	})
	cmMethods(closingType)
	redirType = python.NewBuiltinType("redirect_stdout", "contextlib", nil, func(t *python.Thread, cls *python.Type, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		v, err := python.UnpackArgs("redirect_stdout", args, kwargs, 1, "new_target")
		if err != nil {
			return nil, err
		}
		return &redirect{target: v[0], stream: "stdout"}, nil
	})
	cmMethods(redirType)
	redirErrType = python.NewBuiltinType("redirect_stderr", "contextlib", nil, func(t *python.Thread, cls *python.Type, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		v, err := python.UnpackArgs("redirect_stderr", args, kwargs, 1, "new_target")
		if err != nil {
			return nil, err
		}
		return &redirect{target: v[0], stream: "stderr"}, nil
	})
	cmMethods(redirErrType)
	initExitStack()
	acmType = python.NewBuiltinType("AbstractContextManager", "contextlib", nil, nil)
	acmType.AddMethod("__enter__", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		return args[0], nil
	})
	acmType.AddMethod("__exit__", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		return python.None, nil
	})
	acmType.Hooks = &python.TypeHooks{
		SubclassCheck: func(t *python.Thread, cls, c *python.Type) (bool, error) {
			if c.IsSubtype(cls) {
				return true, nil
			}
			if cls != acmType {
				return false, nil
			}
			_, e := c.Lookup("__enter__")
			_, x := c.Lookup("__exit__")
			return e && x, nil
		},
		InstanceCheck: func(t *python.Thread, cls *python.Type, x python.Object) (bool, error) {
			if x.Type().IsSubtype(cls) {
				return true, nil
			}
			if cls != acmType {
				return false, nil
			}
			if _, ok := x.(python.ContextManager); ok {
				return true, nil
			}
			_, e := x.Type().Lookup("__enter__")
			_, xx := x.Type().Lookup("__exit__")
			return e && xx, nil
		},
	}
	decoType = python.NewBuiltinType("ContextDecorator", "contextlib", nil, nil)
	decoType.AddMethod("_recreate_cm", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		return args[0], nil
	})
	decoType.AddMethod("__call__", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		if len(args) != 2 {
			return nil, python.Errorf(python.TypeErrorType, "__call__() takes 2 positional arguments but %d were given", len(args))
		}
		self := args[0]
		return decorate(args[1], func(t *python.Thread) (python.Object, error) {
			return python.CallMethod(t, self, "_recreate_cm", nil, nil)
		}), nil
	})
}

func exitMethod(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	cm, ok := args[0].(python.ContextManager)
	if !ok {
		return nil, python.Errorf(python.TypeErrorType, "__exit__ of a non-context manager")
	}
	var exc *python.Exception
	if len(args) > 2 {
		if e, ok := args[2].(*python.Exception); ok {
			exc = e
		} else if c, ok := args[1].(*python.Type); ok && args[2] == python.None {
			r, err := python.Call(t, c, nil, nil)
			if err != nil {
				return nil, err
			}
			exc, _ = r.(*python.Exception)
		}
	}
	s, err := cm.Exit(t, exc)
	if err != nil {
		return nil, err
	}
	return python.MakeBool(s), nil
}

// cmMethods gives a Go context manager type __enter__ and __exit__.
func cmMethods(c *python.Type) {
	c.AddMethod("__enter__", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		return args[0].(python.ContextManager).Enter(t)
	})
	c.AddMethod("__exit__", exitMethod)
}

func initExitStack() {
	exitType = python.NewBuiltinType("ExitStack", "contextlib", nil, func(t *python.Thread, cls *python.Type, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		if len(args)+len(kwargs) > 0 {
			return nil, python.Errorf(python.TypeErrorType, "ExitStack() takes no arguments")
		}
		return &exitStack{}, nil
	})
	cmMethods(exitType)
	self := func(args []python.Object) *exitStack { return args[0].(*exitStack) }
	exitType.AddMethod("enter_context", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		if len(args) != 2 {
			return nil, python.Errorf(python.TypeErrorType, "enter_context() takes 2 positional arguments but %d were given", len(args))
		}
		v, exit, err := enterExit(t, args[1])
		if err != nil {
			return nil, err
		}
		self(args).push(func(t *python.Thread, exc *python.Exception) (bool, error) { return exit(exc) })
		return v, nil
	})
	exitType.AddMethod("push", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		if len(args) != 2 {
			return nil, python.Errorf(python.TypeErrorType, "push() takes 2 positional arguments but %d were given", len(args))
		}
		x := args[1]
		if _, ok := x.Type().Lookup("__exit__"); ok {
			self(args).push(func(t *python.Thread, exc *python.Exception) (bool, error) { return callExit(t, x, exc) })
			return x, nil
		}
		self(args).push(func(t *python.Thread, exc *python.Exception) (bool, error) {
			a := []python.Object{python.None, python.None, python.None}
			if exc != nil {
				a = []python.Object{exc.Class(), exc, python.None}
			}
			r, err := python.Call(t, x, a, nil)
			if err != nil {
				return false, err
			}
			if exc == nil {
				return false, nil
			}
			return python.TruthE(t, r)
		})
		return x, nil
	})
	exitType.AddMethod("callback", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		if len(args) < 2 {
			return nil, python.Errorf(python.TypeErrorType, "ExitStack.callback() missing 1 required positional argument: 'callback'")
		}
		fn, cargs := args[1], append([]python.Object(nil), args[2:]...)
		ckw := append([]python.Kwarg(nil), kwargs...)
		self(args).push(func(t *python.Thread, exc *python.Exception) (bool, error) {
			_, err := python.Call(t, fn, cargs, ckw)
			return false, err
		})
		return fn, nil
	})
	exitType.AddMethod("pop_all", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		s := self(args)
		n := &exitStack{cbs: s.cbs}
		s.cbs = nil
		return n, nil
	})
	exitType.AddMethod("close", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		_, err := self(args).Exit(t, nil)
		return python.None, err
	})
}
