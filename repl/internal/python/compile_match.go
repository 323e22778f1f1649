package python

import (
	"github.com/rlm-go/rlm/repl/internal/python/syntax"
)

type binding struct {
	store func(*Frame, Object) error
	value Object
}

type matcher func(f *Frame, subj Object, binds *[]binding) (bool, error)

func (u *unit) matchStmt(n *syntax.Match) (execFn, error) {
	subj, err := u.expr(n.Subject)
	if err != nil {
		return nil, err
	}
	type arm struct {
		pat   matcher
		guard func(*Frame) (bool, error)
		body  execFn
	}
	arms := make([]arm, len(n.Cases))
	for i, c := range n.Cases {
		if arms[i].pat, err = u.pattern(c.Pattern); err != nil {
			return nil, err
		}
		if c.Guard != nil {
			if arms[i].guard, err = u.cond(c.Guard); err != nil {
				return nil, err
			}
		}
		if arms[i].body, err = u.block(c.Body); err != nil {
			return nil, err
		}
	}
	return func(f *Frame) (ctrl, error) {
		s, err := subj(f)
		if err != nil {
			return 0, err
		}
		for _, a := range arms {
			var binds []binding
			ok, err := a.pat(f, s, &binds)
			if err != nil {
				return 0, err
			}
			if !ok {
				continue
			}
			for _, b := range binds {
				if err := b.store(f, b.value); err != nil {
					return 0, err
				}
			}
			if a.guard != nil {
				g, err := a.guard(f)
				if err != nil {
					return 0, err
				}
				if !g {
					continue
				}
			}
			return a.body(f)
		}
		return ctrlNone, nil
	}, nil
}

// isMatchSequence reports whether a match statement treats x as a
// sequence.
func isMatchSequence(x Object) bool {
	switch v := x.(type) {
	case *List, *Tuple, *Range, *bigRange:
		return true
	case *Instance:
		if v.base != nil {
			return isMatchSequence(v.base)
		}
	}
	if s, ok := x.(interface{ MatchSequence() bool }); ok {
		return s.MatchSequence()
	}
	return false
}

func isMatchMapping(x Object) bool {
	switch v := x.(type) {
	case *Dict:
		return true
	case *Instance:
		if v.base != nil {
			return isMatchMapping(v.base)
		}
	case *MappingProxy:
		return true
	}
	return false
}

func isSelfMatching(c *Type) bool {
	for _, b := range []*Type{BoolType, ByteArrayType, BytesType, DictType, FloatType, FrozenSetType, IntType, ListType, SetType, StrType, TupleType} {
		if c.IsSubtype(b) && c.builtin {
			return true
		}
	}
	return false
}

func (u *unit) pattern(p syntax.Pattern) (matcher, error) {
	switch n := p.(type) {
	case *syntax.MatchValue:
		val, err := u.expr(n.Value)
		if err != nil {
			return nil, err
		}
		return func(f *Frame, s Object, _ *[]binding) (bool, error) {
			v, err := val(f)
			if err != nil {
				return false, err
			}
			return Equal(f.t, s, v)
		}, nil
	case *syntax.MatchSingleton:
		want := constant(n.Value)
		if n.Value == nil {
			want = None
		}
		return func(f *Frame, s Object, _ *[]binding) (bool, error) {
			return identical(s, want), nil
		}, nil
	case *syntax.MatchAs:
		var sub matcher
		if n.Pattern != nil {
			var err error
			if sub, err = u.pattern(n.Pattern); err != nil {
				return nil, err
			}
		}
		var store func(*Frame, Object) error
		if n.Name != "" {
			store = u.storeName(n.Name)
		}
		return func(f *Frame, s Object, binds *[]binding) (bool, error) {
			if sub != nil {
				ok, err := sub(f, s, binds)
				if err != nil || !ok {
					return false, err
				}
			}
			if store != nil {
				*binds = append(*binds, binding{store, s})
			}
			return true, nil
		}, nil
	case *syntax.MatchOr:
		alts := make([]matcher, len(n.Patterns))
		for i, x := range n.Patterns {
			var err error
			if alts[i], err = u.pattern(x); err != nil {
				return nil, err
			}
		}
		return func(f *Frame, s Object, binds *[]binding) (bool, error) {
			for _, a := range alts {
				var local []binding
				ok, err := a(f, s, &local)
				if err != nil {
					return false, err
				}
				if ok {
					*binds = append(*binds, local...)
					return true, nil
				}
			}
			return false, nil
		}, nil
	case *syntax.MatchSequence:
		star := -1
		subs := make([]matcher, len(n.Patterns))
		var starStore func(*Frame, Object) error
		for i, x := range n.Patterns {
			if st, ok := x.(*syntax.MatchStar); ok {
				star = i
				if st.Name != "" {
					starStore = u.storeName(st.Name)
				}
				continue
			}
			var err error
			if subs[i], err = u.pattern(x); err != nil {
				return nil, err
			}
		}
		np := len(n.Patterns)
		return func(f *Frame, s Object, binds *[]binding) (bool, error) {
			if !isMatchSequence(s) {
				return false, nil
			}
			items, err := ToSlice(f.t, s)
			if err != nil {
				return false, err
			}
			if star < 0 && len(items) != np || star >= 0 && len(items) < np-1 {
				return false, nil
			}
			for i, m := range subs {
				if i == star {
					continue
				}
				j := i
				if star >= 0 && i > star {
					j = len(items) - (np - i)
				}
				ok, err := m(f, items[j], binds)
				if err != nil || !ok {
					return false, err
				}
			}
			if star >= 0 && starStore != nil {
				rest := append([]Object(nil), items[star:len(items)-(np-1-star)]...)
				*binds = append(*binds, binding{starStore, NewList(rest)})
			}
			return true, nil
		}, nil
	case *syntax.MatchMapping:
		keys, err := u.exprs(n.Keys)
		if err != nil {
			return nil, err
		}
		subs := make([]matcher, len(n.Patterns))
		for i, x := range n.Patterns {
			if subs[i], err = u.pattern(x); err != nil {
				return nil, err
			}
		}
		var rest func(*Frame, Object) error
		if n.Rest != "" {
			rest = u.storeName(n.Rest)
		}
		return func(f *Frame, s Object, binds *[]binding) (bool, error) {
			if !isMatchMapping(s) {
				return false, nil
			}
			var used []Object
			for i, kf := range keys {
				k, err := kf(f)
				if err != nil {
					return false, err
				}
				for _, x := range used {
					if eq, _ := Equal(f.t, x, k); eq {
						r, _ := Repr(f.t, k)
						return false, Errorf(ValueErrorType, "mapping pattern checks duplicate key (%s)", r)
					}
				}
				used = append(used, k)
				d, _ := unwrap(s).(*Dict)
				var v Object
				var found bool
				if d != nil {
					v, found, err = d.Get(f.t, k)
				} else {
					v, err = GetItem(f.t, s, k)
					found = err == nil
					if err != nil && IsInstance(err, KeyErrorType) {
						err = nil
					}
				}
				if err != nil {
					return false, err
				}
				if !found {
					return false, nil
				}
				ok, err := subs[i](f, v, binds)
				if err != nil || !ok {
					return false, err
				}
			}
			if rest != nil {
				r := NewDict(4)
				if d, ok := unwrap(s).(*Dict); ok {
					var err error
					d.Items(func(k, v Object) bool {
						for _, x := range used {
							if eq, _ := Equal(f.t, x, k); eq {
								return true
							}
						}
						err = r.Set(f.t, k, v)
						return err == nil
					})
					if err != nil {
						return false, err
					}
				}
				*binds = append(*binds, binding{rest, r})
			}
			return true, nil
		}, nil
	case *syntax.MatchClass:
		cls, err := u.expr(n.Cls)
		if err != nil {
			return nil, err
		}
		pos := make([]matcher, len(n.Patterns))
		for i, x := range n.Patterns {
			if pos[i], err = u.pattern(x); err != nil {
				return nil, err
			}
		}
		kw := make([]matcher, len(n.KwdPatterns))
		for i, x := range n.KwdPatterns {
			if kw[i], err = u.pattern(x); err != nil {
				return nil, err
			}
		}
		attrs := n.KwdAttrs
		return func(f *Frame, s Object, binds *[]binding) (bool, error) {
			cv, err := cls(f)
			if err != nil {
				return false, err
			}
			c, ok := cv.(*Type)
			if !ok {
				return false, Errorf(TypeErrorType, "called match pattern must be a class")
			}
			in, err := isInstanceOf(f.t, s, c, 0)
			if err != nil || !in {
				return false, err
			}
			if len(pos) > 0 {
				if isSelfMatching(c) {
					if len(pos) > 1 {
						return false, Errorf(TypeErrorType, "%s() accepts 1 positional sub-pattern (%d given)", c.name, len(pos))
					}
					return pos[0](f, s, binds)
				}
				var names []Object
				ma, err := getAttr(f.t, c, "__match_args__")
				if err != nil && !IsInstance(err, AttributeErrorType) {
					return false, err
				}
				if ma != nil {
					tu, ok := unwrap(ma).(*Tuple)
					if !ok {
						return false, Errorf(TypeErrorType, "%s.__match_args__ must be a tuple (got %s)", c.name, typeName(ma))
					}
					names = tu.items
				}
				if len(pos) > len(names) {
					return false, Errorf(TypeErrorType, "%s() accepts %d positional sub-pattern%s (%d given)", c.name, len(names), pluralS(len(names)), len(pos))
				}
				for i, m := range pos {
					name, ok := names[i].(*Str)
					if !ok {
						return false, Errorf(TypeErrorType, "__match_args__ elements must be strings (got %s)", typeName(names[i]))
					}
					v, err := getAttr(f.t, s, name.s)
					if err != nil {
						if IsInstance(err, AttributeErrorType) {
							return false, nil
						}
						return false, err
					}
					if v == nil {
						return false, nil
					}
					ok, err = m(f, v, binds)
					if err != nil || !ok {
						return false, err
					}
				}
			}
			for i, m := range kw {
				v, err := getAttr(f.t, s, attrs[i])
				if err != nil {
					if IsInstance(err, AttributeErrorType) {
						return false, nil
					}
					return false, err
				}
				if v == nil {
					return false, nil
				}
				ok, err := m(f, v, binds)
				if err != nil || !ok {
					return false, err
				}
			}
			return true, nil
		}, nil
	}
	return nil, NotSupported("this match pattern", "")
}
