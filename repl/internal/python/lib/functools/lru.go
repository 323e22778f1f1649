package functools

import (
	"fmt"

	"github.com/rlm-go/rlm/repl/internal/python"
	"github.com/rlm-go/rlm/repl/internal/python/lib/collections"
)

// lruLink is one cached call, in least- to most-recently-used order.
type lruLink struct {
	key, result obj
	prev, next  *lruLink
}

// Type makes a link storable in a dict; it never reaches Python code.
func (*lruLink) Type() *python.Type { return python.ObjectType }

// lruState is one _lru_cache_wrapper's cache (CPython's lru_cache_object).
type lruState struct {
	fn           obj
	maxsize      int64 // -1: unbounded
	maxsizeObj   obj
	typed        bool
	cache        *python.Dict
	root         lruLink // sentinel of the ring
	hits, misses int64
}

func (s *lruState) unlink(l *lruLink) {
	l.prev.next = l.next
	l.next.prev = l.prev
}

func (s *lruState) pushMostRecent(l *lruLink) {
	last := s.root.prev
	l.prev, l.next = last, &s.root
	last.next = l
	s.root.prev = l
}

// makeKey is CPython's lru_cache_make_key.
func (m *module) makeKey(t *python.Thread, args []obj, kwargs []kwarg, typed bool) obj {
	if !typed && len(kwargs) == 0 {
		if len(args) == 1 {
			switch args[0].(type) {
			case *python.Str, python.Int, *python.BigInt:
				return args[0]
			}
		}
		return python.NewTuple(append([]obj(nil), args...))
	}
	key := append([]obj(nil), args...)
	if len(kwargs) > 0 {
		key = append(key, m.kwdMark)
		for _, kw := range kwargs {
			key = append(key, python.NewStr(kw.Name), kw.Value)
		}
	}
	if typed {
		for _, a := range args {
			key = append(key, a.Type())
		}
		for _, kw := range kwargs {
			key = append(key, kw.Value.Type())
		}
	}
	return python.NewTuple(key)
}

func (m *module) lruCall(t *python.Thread, s *lruState, args []obj, kwargs []kwarg) (obj, error) {
	if s.maxsize == 0 {
		s.misses++
		return python.Call(t, s.fn, args, kwargs)
	}
	key := m.makeKey(t, args, kwargs, s.typed)
	v, ok, err := s.cache.Get(t, key)
	if err != nil {
		return nil, err
	}
	if ok {
		s.hits++
		if s.maxsize < 0 {
			return v, nil
		}
		l := v.(*lruLink)
		s.unlink(l)
		s.pushMostRecent(l)
		return l.result, nil
	}
	s.misses++
	result, err := python.Call(t, s.fn, args, kwargs)
	if err != nil {
		return nil, err
	}
	if s.maxsize < 0 {
		return result, s.cache.Set(t, key, result)
	}
	// A recursive call may have cached the key meanwhile.
	if _, ok, err := s.cache.Get(t, key); err != nil || ok {
		return result, err
	}
	if int64(s.cache.Len()) < s.maxsize || s.root.next == &s.root {
		l := &lruLink{key: key, result: result}
		s.pushMostRecent(l)
		return result, s.cache.Set(t, key, l)
	}
	old := s.root.next
	s.unlink(old)
	if _, _, err := s.cache.Delete(t, old.key); err != nil {
		return nil, err
	}
	l := &lruLink{key: key, result: result}
	s.pushMostRecent(l)
	return result, s.cache.Set(t, key, l)
}

// makeLRU makes _lru_cache_wrapper, the base class of the cache wrappers
// (each wrapper is an instance of a subclass of its own, whose methods
// hold its cache), and _CacheInfo.
func (m *module) makeLRU() {
	m.lruBase = newClass("_lru_cache_wrapper", nil, map[string]python.BuiltinFunc{
		"__get__": func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if len(args) < 2 || args[1] == python.None {
				return args[0], nil
			}
			return python.NewMethodObject(args[0], args[1]), nil
		},
		"__reduce__": func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			return python.GetAttr(t, args[0], "__qualname__")
		},
		"__repr__": func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			return python.NewStr(fmt.Sprintf("<functools._lru_cache_wrapper object at %#x>", idOf(t, args[0]))), nil
		},
	}, nil)
	ci, err := collections.NewNamedTuple(nil, "CacheInfo", []string{"hits", "misses", "maxsize", "currsize"}, nil, "functools")
	if err != nil {
		panic(err)
	}
	m.cacheInfo = ci
}

// newLRUWrapper wraps fn in a cache (_lru_cache_wrapper(fn, maxsize,
// typed)) and copies fn's attributes to it.
func (m *module) newLRUWrapper(t *python.Thread, fn, maxsize obj, typed obj) (obj, error) {
	if !python.Callable(fn) {
		return nil, python.Errorf(python.TypeErrorType, "the first argument must be callable")
	}
	s := &lruState{fn: fn, maxsize: -1, cache: python.NewDict(8)}
	s.root.prev, s.root.next = &s.root, &s.root
	s.maxsizeObj = python.None
	if maxsize != python.None {
		n, ok, err := python.IndexValue(t, maxsize)
		if err != nil {
			return nil, python.Errorf(python.OverflowErrorType, "Python int too large to convert to C ssize_t")
		}
		if !ok {
			return nil, python.Errorf(python.TypeErrorType, "maxsize should be integer or None")
		}
		if n < 0 {
			n = 0
		}
		s.maxsize = n
		s.maxsizeObj = python.MakeInt(n)
	}
	tb, err := python.TruthE(t, typed)
	if err != nil {
		return nil, err
	}
	s.typed = tb
	cls := newClass("_lru_cache_wrapper", []*python.Type{m.lruBase}, map[string]python.BuiltinFunc{
		"__call__": func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			return m.lruCall(t, s, args[1:], kwargs)
		},
		"cache_info": func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if len(args) != 1 || len(kwargs) > 0 {
				return nil, python.Errorf(python.TypeErrorType, "_lru_cache_wrapper.cache_info() takes no arguments (%d given)", len(args)-1)
			}
			return python.Call(t, m.cacheInfo, []obj{python.MakeInt(s.hits), python.MakeInt(s.misses), s.maxsizeObj, python.MakeInt(int64(s.cache.Len()))}, nil)
		},
		"cache_clear": func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
			if len(args) != 1 || len(kwargs) > 0 {
				return nil, python.Errorf(python.TypeErrorType, "_lru_cache_wrapper.cache_clear() takes no arguments (%d given)", len(args)-1)
			}
			s.cache.Clear()
			s.root.prev, s.root.next = &s.root, &s.root
			s.hits, s.misses = 0, 0
			return python.None, nil
		},
	}, nil)
	w := python.NewInstance(cls, nil)
	params := python.NewDict(2)
	params.SetStr("maxsize", maxsize)
	params.SetStr("typed", typed)
	w.Attrs().SetStr("cache_parameters", python.NewBuiltin("<lambda>", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		if len(args) > 0 || len(kwargs) > 0 {
			return nil, python.Errorf(python.TypeErrorType, "lru_cache.<locals>.<lambda>() takes 0 positional arguments but %d were given", len(args))
		}
		d := python.NewDict(2)
		params.Items(func(k, v obj) bool { _ = d.Set(t, k, v); return true })
		return d, nil
	}))
	return updateWrapper(t, w, fn, strs(wrapperAssignments...), strs(wrapperUpdates...))
}

var lruParams = &python.Signature{Name: "lru_cache", Pos: []string{"maxsize", "typed"}, Required: 0}

// lruCache implements functools.lru_cache(maxsize=128, typed=False) and
// lru_cache(user_function).
func (m *module) lruCache(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
	a, err := lruParams.Values(args, kwargs)
	if err != nil {
		return nil, err
	}
	maxsize, typed := a[0], a[1]
	if maxsize == nil {
		maxsize = python.MakeInt(128)
	}
	if typed == nil {
		typed = python.False
	}
	if v, ok := python.IntValue(maxsize); ok {
		if n, ok := python.AsInt64(v); ok && n < 0 {
			maxsize = python.MakeInt(0)
		} else if python.ToBig(v).Sign() < 0 {
			maxsize = python.MakeInt(0)
		}
	} else if _, isBool := typed.(python.Bool); python.Callable(maxsize) && isBool {
		return m.newLRUWrapper(t, maxsize, python.MakeInt(128), typed)
	} else if maxsize != python.None {
		return nil, python.Errorf(python.TypeErrorType, "Expected first argument to be an integer, a callable, or None")
	}
	return python.NewBuiltin("decorating_function", func(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
		b, err := (&python.Signature{Name: "lru_cache.<locals>.decorating_function", Pos: []string{"user_function"}, Required: 1}).Values(args, kwargs)
		if err != nil {
			return nil, err
		}
		return m.newLRUWrapper(t, b[0], maxsize, typed)
	}), nil
}

var cacheParams = &python.Signature{Name: "cache", Pos: []string{"user_function"}, Required: 1}

// cache implements functools.cache(user_function).
func (m *module) cache(t *python.Thread, args []obj, kwargs []kwarg) (obj, error) {
	if len(kwargs) > 0 {
		return nil, python.Errorf(python.TypeErrorType, "cache() got some positional-only arguments passed as keyword arguments: '%s'", kwargs[0].Name)
	}
	a, err := cacheParams.Values(args, nil)
	if err != nil {
		return nil, err
	}
	return m.newLRUWrapper(t, a[0], python.None, python.False)
}
