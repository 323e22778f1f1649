package python

func selfSet(args []Object, name string) (*Set, error) {
	if len(args) > 0 {
		if s, ok := unwrap(args[0]).(*Set); ok {
			return s, nil
		}
	}
	return nil, Errorf(TypeErrorType, "descriptor '%s' for 'set' objects doesn't apply to this object", name)
}

// setArg returns an argument as a set (any iterable is accepted by the
// named methods).
func setArg(t *Thread, x Object) (*Set, error) {
	if s, ok := unwrap(x).(*Set); ok {
		return s, nil
	}
	s := NewSet(false)
	return s, s.Update(t, x)
}

func initSetMethods() {
	for _, c := range []*Type{SetType, FrozenSetType} {
		frozen := c == FrozenSetType
		addDunders(c, "__len__", "__contains__", "__iter__", "__repr__", "__eq__", "__ne__", "__lt__",
			"__le__", "__gt__", "__ge__", "__or__", "__and__", "__sub__", "__xor__")
		if frozen {
			addDunders(c, "__hash__")
		} else {
			c.dict.SetStr("__hash__", None)
		}
		method(c, "copy", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
			s, err := selfSet(args, "copy")
			if err != nil {
				return nil, err
			}
			if s.frozen {
				return s, nil
			}
			return s.copySet(t, false), nil
		})
		multi := func(name string, op func(t *Thread, s *Set, o Object) (*Set, error)) {
			method(c, name, func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
				s, err := selfSet(args, name)
				if err != nil {
					return nil, err
				}
				if err := noKwargs(name, kwargs); err != nil {
					return nil, err
				}
				r := s.copySet(t, s.frozen)
				if len(args) == 1 {
					return r, nil
				}
				for _, o := range args[1:] {
					if !isIterable(o) {
						return nil, Errorf(TypeErrorType, "'%s' object is not iterable", typeName(o))
					}
					if r, err = op(t, r, unwrap(o)); err != nil {
						return nil, err
					}
				}
				r.frozen = s.frozen
				return r, nil
			})
		}
		multi("union", func(t *Thread, s *Set, o Object) (*Set, error) { return s.union(t, o) })
		multi("intersection", func(t *Thread, s *Set, o Object) (*Set, error) { return s.intersection(t, o) })
		multi("difference", func(t *Thread, s *Set, o Object) (*Set, error) { return s.difference(t, o) })
		method(c, "symmetric_difference", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
			s, err := selfSet(args, "symmetric_difference")
			if err != nil {
				return nil, err
			}
			if err := nargs("symmetric_difference", args[1:], kwargs, 1, 1); err != nil {
				return nil, err
			}
			r, err := s.symmetricDifference(t, unwrap(args[1]))
			if r != nil {
				r.frozen = s.frozen
			}
			return r, err
		})
		method(c, "issubset", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
			s, err := selfSet(args, "issubset")
			if err != nil {
				return nil, err
			}
			if err := nargs("issubset", args[1:], kwargs, 1, 1); err != nil {
				return nil, err
			}
			o, err := setArg(t, args[1])
			if err != nil {
				return nil, err
			}
			b, err := subsetOf(t, s, o)
			return MakeBool(b), err
		})
		method(c, "issuperset", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
			s, err := selfSet(args, "issuperset")
			if err != nil {
				return nil, err
			}
			if err := nargs("issuperset", args[1:], kwargs, 1, 1); err != nil {
				return nil, err
			}
			o, err := setArg(t, args[1])
			if err != nil {
				return nil, err
			}
			b, err := subsetOf(t, o, s)
			return MakeBool(b), err
		})
		method(c, "isdisjoint", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
			s, err := selfSet(args, "isdisjoint")
			if err != nil {
				return nil, err
			}
			if err := nargs("isdisjoint", args[1:], kwargs, 1, 1); err != nil {
				return nil, err
			}
			disjoint := true
			err = Iterate(t, args[1], func(x Object) error {
				in, err := s.Contains(t, x)
				if err != nil {
					return err
				}
				if in {
					disjoint = false
					return ErrStop
				}
				return nil
			})
			return MakeBool(disjoint), err
		})
	}
	c := SetType
	method(c, "__init__", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		s, err := selfSet(args, "__init__")
		if err != nil {
			return nil, err
		}
		if err := nargs("set", args[1:], kwargs, 0, 1); err != nil {
			return nil, err
		}
		s.Clear()
		if len(args) == 2 {
			return None, s.Update(t, args[1])
		}
		return None, nil
	})
	method(c, "add", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		s, err := selfSet(args, "add")
		if err != nil {
			return nil, err
		}
		if err := nargs("set.add", args[1:], kwargs, 1, 1); err != nil {
			return nil, err
		}
		return None, s.Add(t, args[1])
	})
	method(c, "discard", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		s, err := selfSet(args, "discard")
		if err != nil {
			return nil, err
		}
		if err := nargs("set.discard", args[1:], kwargs, 1, 1); err != nil {
			return nil, err
		}
		_, err = s.Discard(t, args[1])
		return None, err
	})
	method(c, "remove", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		s, err := selfSet(args, "remove")
		if err != nil {
			return nil, err
		}
		if err := nargs("set.remove", args[1:], kwargs, 1, 1); err != nil {
			return nil, err
		}
		found, err := s.Discard(t, args[1])
		if err != nil {
			return nil, err
		}
		if !found {
			return nil, NewException(KeyErrorType, args[1])
		}
		return None, nil
	})
	method(c, "pop", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		s, err := selfSet(args, "pop")
		if err != nil {
			return nil, err
		}
		v, ok := s.Pop()
		if !ok {
			return nil, Errorf(KeyErrorType, "pop from an empty set")
		}
		return v, nil
	})
	method(c, "clear", func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
		s, err := selfSet(args, "clear")
		if err != nil {
			return nil, err
		}
		s.Clear()
		return None, nil
	})
	updater := func(name string, op func(t *Thread, s *Set, o Object) error) {
		method(c, name, func(t *Thread, args []Object, kwargs []Kwarg) (Object, error) {
			s, err := selfSet(args, name)
			if err != nil {
				return nil, err
			}
			if err := noKwargs(name, kwargs); err != nil {
				return nil, err
			}
			for _, o := range args[1:] {
				if err := op(t, s, unwrap(o)); err != nil {
					return nil, err
				}
			}
			return None, nil
		})
	}
	updater("update", func(t *Thread, s *Set, o Object) error { return s.Update(t, o) })
	updater("difference_update", func(t *Thread, s *Set, o Object) error { return s.differenceUpdate(t, o) })
	updater("intersection_update", func(t *Thread, s *Set, o Object) error {
		r, err := s.intersection(t, o)
		if err != nil {
			return err
		}
		s.table, s.mask, s.fill, s.used = r.table, r.mask, r.fill, r.used
		s.version++
		return nil
	})
	updater("symmetric_difference_update", func(t *Thread, s *Set, o Object) error {
		return s.symmetricDifferenceUpdate(t, o)
	})
	for _, n := range []string{"__ior__", "__iand__", "__isub__", "__ixor__"} {
		n := n
		method(c, n, func(t *Thread, args []Object, _ []Kwarg) (Object, error) {
			s, err := selfSet(args, n)
			if err != nil {
				return nil, err
			}
			op := map[string]string{"__ior__": "update", "__iand__": "intersection_update", "__isub__": "difference_update", "__ixor__": "symmetric_difference_update"}[n]
			if _, err := CallMethod(t, s, op, args[1:], nil); err != nil {
				return nil, err
			}
			return args[0], nil
		})
	}
}
