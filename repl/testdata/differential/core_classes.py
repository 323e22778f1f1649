# Core audit: classes. MRO, super(), __init_subclass__, descriptors,
# attribute hooks, __slots__, operators, hashing, truthiness, iteration,
# containment, reprs, type() with 3 args, isinstance with ABCs, metaclasses.
# ---- mro_diamond
class A:
    def who(self):
        return "A"
class B(A):
    def who(self):
        return "B>" + super().who()
class C(A):
    def who(self):
        return "C>" + super().who()
class D(B, C):
    def who(self):
        return "D>" + super().who()
print([k.__name__ for k in D.__mro__])
print(D().who())
print([k.__name__ for k in D.mro()])
# ---- mro_conflict_error
class X:
    pass
class Y(X):
    pass
try:
    class Z(X, Y):
        pass
except TypeError as e:
    print(e)
# ---- mro_complex_hierarchy
class O: pass
class A(O): pass
class B(O): pass
class C(O): pass
class D(O): pass
class E(O): pass
class K1(A, B, C): pass
class K2(D, B, E): pass
class K3(D, A): pass
class Z(K1, K2, K3): pass
print([k.__name__ for k in Z.__mro__])
# ---- duplicate_base_error
class A:
    pass
try:
    class B(A, A):
        pass
except TypeError as e:
    print(e)
# ---- super_in_multiple_inheritance_init
log = []
class Base:
    def __init__(self):
        log.append("Base")
class Left(Base):
    def __init__(self):
        log.append("Left")
        super().__init__()
class Right(Base):
    def __init__(self):
        log.append("Right")
        super().__init__()
class Both(Left, Right):
    def __init__(self):
        log.append("Both")
        super().__init__()
Both()
print(log)
# ---- super_two_arg_form
class A:
    def f(self):
        return "A.f"
class B(A):
    def f(self):
        return "B.f"
class C(B):
    def f(self):
        return super(B, self).f()
print(C().f())
# ---- super_classmethod
class A:
    @classmethod
    def make(cls):
        return cls.__name__
class B(A):
    @classmethod
    def make(cls):
        return "B+" + super().make()
print(B.make(), B().make())
# ---- super_attribute_error
class A:
    pass
class B(A):
    def f(self):
        return super().nothing
try:
    B().f()
except AttributeError as e:
    print(e)
# ---- init_subclass_hook
registry = []
class Plugin:
    def __init_subclass__(cls, name=None, **kw):
        super().__init_subclass__(**kw)
        registry.append((cls.__name__, name))
class A(Plugin, name="alpha"):
    pass
class B(Plugin):
    pass
class C(A, name="gamma"):
    pass
print(registry)
# ---- init_subclass_unexpected_kwarg
class Base:
    pass
try:
    class Sub(Base, flavor=1):
        pass
except TypeError as e:
    print(e)
# ---- classmethod_staticmethod_via_instance_and_class
class C:
    n = 1
    @classmethod
    def cm(cls, x):
        return cls.__name__, x
    @staticmethod
    def sm(x):
        return x * 2
class D(C):
    pass
print(C.cm(1), C().cm(2), D.cm(3), D().cm(4))
print(C.sm(1), C().sm(2), D.sm(3))
# ---- staticmethod_callable_directly
class C:
    @staticmethod
    def s():
        return "s"
    helper = s
print(C.s(), C.helper(), type(C.__dict__["s"]).__name__)
# ---- property_getter_setter_deleter
class Temp:
    def __init__(self):
        self._c = 0
    @property
    def c(self):
        return self._c
    @c.setter
    def c(self, v):
        if v < -273:
            raise ValueError("too cold")
        self._c = v
    @c.deleter
    def c(self):
        print("deleting")
        self._c = None
t = Temp()
t.c = 25
print(t.c)
try:
    t.c = -300
except ValueError as e:
    print(e)
del t.c
print(t.c)
# ---- property_read_only_errors
class P:
    @property
    def x(self):
        return 1
p = P()
try:
    p.x = 2
except AttributeError as e:
    print(e)
try:
    del p.x
except AttributeError as e:
    print(e)
# ---- property_constructor_form
class P:
    def _get(self):
        return self._v * 2
    def _set(self, v):
        self._v = v
    v = property(_get, _set, None, "the v")
p = P()
p.v = 4
print(p.v, P.v.__doc__, isinstance(P.v, property))
# ---- property_on_class_access
class P:
    @property
    def x(self):
        return 1
print(type(P.x).__name__, P.x.fget(P()))
# ---- descriptor_get_set
class Typed:
    def __set_name__(self, owner, name):
        self.name = "_" + name
    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return getattr(obj, self.name, None)
    def __set__(self, obj, value):
        if not isinstance(value, int):
            raise TypeError(f"{self.name[1:]} must be int")
        setattr(obj, self.name, value)
class Rec:
    size = Typed()
r = Rec()
print(r.size)
r.size = 5
print(r.size, type(Rec.size).__name__, r.__dict__)
try:
    r.size = "big"
except TypeError as e:
    print(e)
# ---- non_data_descriptor_shadowed_by_instance
class NonData:
    def __get__(self, obj, owner):
        return "from descriptor"
class C:
    attr = NonData()
c = C()
print(c.attr)
c.__dict__["attr"] = "from instance"
print(c.attr)
# ---- data_descriptor_wins_over_instance_dict
class Data:
    def __get__(self, obj, owner):
        return "data"
    def __set__(self, obj, v):
        pass
class C:
    attr = Data()
c = C()
c.__dict__["attr"] = "instance"
print(c.attr)
# ---- set_name_called_with_owner_and_name
calls = []
class D:
    def __set_name__(self, owner, name):
        calls.append((owner.__name__, name))
class K:
    a = D()
    b = D()
print(calls)
# ---- getattr_fallback_only_when_missing
class G:
    x = 1
    def __getattr__(self, name):
        return "dyn:" + name
g = G()
print(g.x, g.y, getattr(g, "z"), hasattr(g, "anything"))
# ---- getattribute_intercepts_all
class G:
    def __init__(self):
        self.real = 1
    def __getattribute__(self, name):
        if name == "secret":
            return 42
        return object.__getattribute__(self, name)
g = G()
print(g.real, g.secret)
try:
    g.missing
except AttributeError as e:
    print(e)
# ---- getattribute_and_getattr_together
class G:
    def __getattribute__(self, name):
        if name.startswith("x"):
            raise AttributeError(name)
        return object.__getattribute__(self, name)
    def __getattr__(self, name):
        return "fallback " + name
print(G().xyz, G().__class__.__name__)
# ---- getattr_raising_attribute_error_message
class G:
    def __getattr__(self, name):
        raise AttributeError(f"no {name} here")
try:
    G().foo
except AttributeError as e:
    print(e)
print(getattr(G(), "foo", "default"))
# ---- attribute_error_messages
class C:
    pass
for expr in ["C().nope", "C.nope", "(1).nope", "'s'.nope", "[].nope", "None.nope"]:
    try:
        eval(expr)
    except AttributeError as e:
        print(e)
# ---- setattr_hook
class S:
    def __setattr__(self, name, value):
        object.__setattr__(self, name, value * 2)
s = S()
s.a = 3
setattr(s, "b", 5)
print(s.a, s.b)
# ---- delattr_hook
class D:
    def __delattr__(self, name):
        print("del", name)
d = D()
del d.anything
delattr(d, "other")
# ---- slots_basic
class P:
    __slots__ = ("x", "y")
    def __init__(self, x):
        self.x = x
p = P(1)
print(p.x, hasattr(p, "__dict__"))
try:
    p.z = 3
except AttributeError as e:
    print(e)
try:
    p.y
except AttributeError as e:
    print(e)
# ---- slots_with_subclass_dict
class P:
    __slots__ = ("x",)
class Q(P):
    pass
q = Q()
q.x = 1
q.other = 2
print(q.x, q.other, P.__slots__)
# ---- add_radd_iadd
class V:
    def __init__(self, n):
        self.n = n
    def __add__(self, o):
        if isinstance(o, V):
            return V(self.n + o.n)
        if isinstance(o, int):
            return V(self.n + o)
        return NotImplemented
    def __radd__(self, o):
        return V(o + self.n) if isinstance(o, int) else NotImplemented
    def __repr__(self):
        return f"V({self.n})"
print(V(1) + V(2), V(1) + 5, 5 + V(1), sum([V(1), V(2)]), sum([V(1)], V(10)))
try:
    V(1) + "s"
except TypeError as e:
    print(e)
try:
    "s" + V(1)
except TypeError as e:
    print(e)
# ---- iadd_falls_back_to_add
class V:
    def __init__(self, n):
        self.n = n
    def __add__(self, o):
        return V(self.n + o)
a = V(1)
b = a
a += 2
print(a.n, b.n, a is b)
class W:
    def __init__(self):
        self.items = []
    def __iadd__(self, o):
        self.items.append(o)
        return self
w = W()
w2 = w
w += 1
w += 2
print(w.items, w is w2)
# ---- iadd_returning_none
class Bad:
    def __iadd__(self, o):
        pass
b = Bad()
b += 1
print(b)
# ---- reflected_subclass_priority
class A:
    def __add__(self, o):
        return "A.add"
    def __radd__(self, o):
        return "A.radd"
class B(A):
    def __add__(self, o):
        return "B.add"
    def __radd__(self, o):
        return "B.radd"
print(A() + B(), B() + A(), A() + A())
# ---- comparison_reflection
class L:
    def __init__(self, v):
        self.v = v
    def __lt__(self, o):
        print("lt", self.v, o.v)
        return self.v < o.v
print(L(1) > L(2))
print(L(3) < L(4))
try:
    L(1) <= L(2)
except TypeError as e:
    print(e)
# ---- eq_notimplemented_falls_to_identity
class N:
    def __eq__(self, o):
        return NotImplemented
a = N()
print(a == a, a == N(), a != a, a != N())
# ---- ne_derived_from_eq
class E:
    def __init__(self, v):
        self.v = v
    def __eq__(self, o):
        return self.v == o.v
print(E(1) != E(1), E(1) != E(2))
# ---- eq_hash_interplay
class OnlyEq:
    def __eq__(self, o):
        return True
print(OnlyEq.__hash__)
try:
    hash(OnlyEq())
except TypeError as e:
    print(e)
class Both:
    def __eq__(self, o):
        return isinstance(o, Both)
    def __hash__(self):
        return 7
print(hash(Both()), len({Both(), Both()}))
class Plain:
    pass
p = Plain()
print(p == p, p == Plain(), {p: 1}[p])
# ---- hash_none_explicit
class H:
    __hash__ = None
try:
    {H()}
except TypeError as e:
    print(e)
# ---- inherited_eq_hash_reset_in_subclass
class A:
    def __hash__(self):
        return 1
class B(A):
    def __eq__(self, o):
        return False
print(hash(A()), B.__hash__ is None)
# ---- bool_and_len_truthiness
class T:
    def __bool__(self):
        return False
class L:
    def __len__(self):
        return 0
class L3:
    def __len__(self):
        return 3
class Nothing:
    pass
print(bool(T()), bool(L()), bool(L3()), bool(Nothing()), not L3())
print("yes" if L() else "no", [x for x in [T(), L3()] if x].__len__())
# ---- bool_returning_non_bool
class B:
    def __bool__(self):
        return 1
try:
    bool(B())
except TypeError as e:
    print(e)
class Ln:
    def __len__(self):
        return -1
try:
    bool(Ln())
except ValueError as e:
    print(e)
# ---- len_returning_non_int
class L:
    def __len__(self):
        return "3"
try:
    len(L())
except TypeError as e:
    print(e)
class Big:
    def __len__(self):
        return 2 ** 70
try:
    len(Big())
except OverflowError as e:
    print(e)
# ---- iter_next_protocol
class Count:
    def __init__(self, n):
        self.i, self.n = 0, n
    def __iter__(self):
        return self
    def __next__(self):
        if self.i >= self.n:
            raise StopIteration
        self.i += 1
        return self.i
c = Count(3)
print(list(c), list(c), sum(Count(4)), 2 in Count(3))
# ---- getitem_iteration_fallback
class Seq:
    def __getitem__(self, i):
        if i >= 4:
            raise IndexError
        return i * i
print(list(Seq()), 9 in Seq(), 5 in Seq())
a, b, c, d = Seq()
print(a, b, c, d)
# ---- contains_fallback_to_iter
class It:
    def __iter__(self):
        return iter([1, 2, 3])
print(2 in It(), 5 in It(), 5 not in It())
# ---- not_iterable_error
class NoIter:
    pass
try:
    iter(NoIter())
except TypeError as e:
    print(e)
try:
    for x in 5:
        pass
except TypeError as e:
    print(e)
try:
    1 in 5
except TypeError as e:
    print(e)
# ---- iter_returning_non_iterator
class BadIter:
    def __iter__(self):
        return [1, 2]
try:
    iter(BadIter())
except TypeError as e:
    print(e)
# ---- repr_str_nested_containers
class R:
    def __repr__(self):
        return "R!"
    def __str__(self):
        return "r-str"
print(R(), [R()], (R(),), {R()}, {"k": R()}, str([R()]), f"{R()}", f"{[R()]}")
print("%s %r" % (R(), [R()]))
# ---- str_falls_back_to_repr_not_reverse
class OnlyStr:
    def __str__(self):
        return "S"
r = repr(OnlyStr())
print(str(OnlyStr()), r.startswith("<__main__.OnlyStr object at 0x"))
# ---- repr_returning_non_str
class B:
    def __repr__(self):
        return 5
try:
    repr(B())
except TypeError as e:
    print(e)
# ---- class_attribute_shadowing
class C:
    v = [1]
    n = 0
a, b = C(), C()
a.v.append(2)
a.n += 1
print(C.v, b.v, C.n, a.n, b.n, "n" in a.__dict__, "n" in b.__dict__)
C.n = 10
print(a.n, b.n)
del a.n
print(a.n)
# ---- type_three_args
def greet(self):
    return "hi " + self.name
P = type("P", (object,), {"name": "p", "greet": greet})
print(P().greet(), P.__name__, P.__bases__, type(P).__name__)
Q = type("Q", (P,), {})
print(Q().greet(), [c.__name__ for c in Q.__mro__], isinstance(Q(), P))
# ---- type_one_arg
print(type(1), type("a"), type([]), type(None), type(type), type(len))
# ---- isinstance_with_tuples_and_nesting
print(isinstance(1, (str, int)), isinstance(1.0, (str, (list, float))), isinstance(True, int))
print(issubclass(bool, int), issubclass(int, (str, object)), isinstance(None, type(None)))
try:
    isinstance(1, [int])
except TypeError as e:
    print(e)
# ---- isinstance_union_types
print(isinstance(1, int | str), isinstance("s", int | None), isinstance(None, int | None))
# ---- isinstance_abcs
from collections.abc import Iterable, Iterator, Sequence, Mapping, MutableMapping, Hashable, Sized, Callable, Container, Generator, Set, MutableSequence
checks = [
    ([], Iterable), ([], Sequence), ([], MutableSequence), ((), MutableSequence),
    ({}, Mapping), ({}, MutableMapping), ("s", Sequence), (iter([]), Iterator),
    ([], Hashable), ((), Hashable), (len, Callable), (5, Sized), ({1}, Set),
    ((x for x in []), Generator), (range(3), Sequence), ({}.keys(), Set), (b"", Sequence),
]
print([isinstance(v, t) for v, t in checks])
# ---- isinstance_abc_user_classes
from collections.abc import Iterable, Sized, Container, Hashable
class I:
    def __iter__(self):
        return iter([])
class S:
    def __len__(self):
        return 0
class U:
    __hash__ = None
print(isinstance(I(), Iterable), isinstance(S(), Sized), isinstance(S(), Iterable), isinstance(U(), Hashable))
print(issubclass(I, Iterable), issubclass(list, Container))
# ---- metaclass_usage
class Meta(type):
    def __new__(mcls, name, bases, ns):
        ns["tag"] = name.lower()
        return super().__new__(mcls, name, bases, ns)
class T(metaclass=Meta):
    pass
print(T.tag)
# ---- abc_abstractmethod
from abc import ABC, abstractmethod
class Shape(ABC):
    @abstractmethod
    def area(self):
        ...
class Sq(Shape):
    def __init__(self, s):
        self.s = s
    def area(self):
        return self.s ** 2
print(Sq(3).area())
try:
    Shape()
except TypeError as e:
    print(e)
# ---- class_repr_and_name
class Outer:
    class Inner:
        pass
print(Outer, Outer.Inner, Outer.Inner.__qualname__, Outer.__module__)
print(repr(int), repr(type(None)))
# ---- instance_dict_and_vars
class C:
    cls_attr = 1
    def __init__(self):
        self.a = 1
        self.b = 2
c = C()
print(vars(c), c.__dict__ is vars(c), sorted(k for k in vars(C) if not k.startswith("__")))
# ---- dir_of_instance_sorted
class C:
    z = 1
    def m(self):
        pass
c = C()
c.a = 1
print([n for n in dir(c) if not n.startswith("__")])
# ---- dunder_class_and_bases
class A: pass
class B(A): pass
print(B().__class__.__name__, B.__bases__, A.__bases__, object.__bases__, B.__base__)
# ---- class_variable_via_self_class
class Counter:
    count = 0
    def __init__(self):
        type(self).count += 1
class Sub(Counter):
    pass
Counter(); Counter(); Sub()
print(Counter.count, Sub.count)
# ---- getitem_setitem_delitem_with_slices
class Rec:
    def __getitem__(self, k):
        return k
    def __setitem__(self, k, v):
        print("set", k, v)
    def __delitem__(self, k):
        print("del", k)
r = Rec()
print(r[1], r[1:2], r[::2], r[1, 2], r[1:2, ::3], r[...])
r[0:1] = 5
del r[:]
# ---- neg_pos_abs_invert
class N:
    def __neg__(self):
        return "neg"
    def __pos__(self):
        return "pos"
    def __abs__(self):
        return "abs"
    def __invert__(self):
        return "inv"
n = N()
print(-n, +n, abs(n), ~n)
try:
    -object()
except TypeError as e:
    print(e)
# ---- index_dunder
class I:
    def __index__(self):
        return 2
print([10, 20, 30][I()], "abc"[I()], bin(I()), range(5)[I()], [0] * I())
# ---- int_float_dunders
class N:
    def __int__(self):
        return 7
    def __float__(self):
        return 2.5
print(int(N()), float(N()))
# ---- matmul_and_pow_dunders
class M:
    def __matmul__(self, o):
        return "matmul"
    def __rpow__(self, o):
        return f"rpow {o}"
    def __pow__(self, o, mod=None):
        return f"pow {o} {mod}"
print(M() @ M(), 2 ** M(), M() ** 3, pow(M(), 2, 5))
# ---- divmod_dunders
class D:
    def __floordiv__(self, o):
        return "fd"
    def __mod__(self, o):
        return "mod"
    def __divmod__(self, o):
        return ("dm", o)
    def __rtruediv__(self, o):
        return "rtd"
print(D() // 1, D() % 1, divmod(D(), 3), 1 / D())
# ---- lt_sorting_uses_lt_only
class K:
    def __init__(self, v):
        self.v = v
    def __lt__(self, o):
        return self.v < o.v
    def __repr__(self):
        return f"K{self.v}"
print(sorted([K(3), K(1), K(2)]), max(K(1), K(5)), min([K(4), K(2)]))
# ---- sort_unorderable_message
class K:
    pass
try:
    sorted([K(), K()])
except TypeError as e:
    print(e)
try:
    [1, "a"].sort()
except TypeError as e:
    print(e)
# ---- enter_exit_protocol
class CM:
    def __enter__(self):
        print("enter")
        return "value"
    def __exit__(self, et, ev, tb):
        print("exit", et.__name__ if et else None, ev)
        return True
with CM() as v:
    print(v)
    raise ValueError("boom")
print("after")
# ---- class_body_executes_in_order
log = []
class C:
    log.append("start")
    def m(self):
        pass
    log.append("end")
print(log, C.__name__)
# ---- class_instantiation_new
class Single:
    _inst = None
    def __new__(cls):
        if cls._inst is None:
            cls._inst = super().__new__(cls)
        return cls._inst
print(Single() is Single())
class Weird:
    def __new__(cls, x):
        return x * 2
print(Weird(21))
# ---- new_and_init_args
class P:
    def __new__(cls, *a):
        print("new", a)
        return super().__new__(cls)
    def __init__(self, *a):
        print("init", a)
P(1, 2)
# ---- init_returning_value_error
class B:
    def __init__(self):
        return 5
try:
    B()
except TypeError as e:
    print(e)
# ---- subclass_builtin_list
class MyList(list):
    def total(self):
        return sum(self)
m = MyList([1, 2, 3])
m.append(4)
print(m, m.total(), len(m), type(m).__name__, isinstance(m, list), m[1:], type(m[1:]).__name__)
# ---- subclass_builtin_dict_missing
class DD(dict):
    def __missing__(self, k):
        return k * 2
d = DD(a=1)
print(d["a"], d["zz"], d.get("zz"), "zz" in d, d)
# ---- subclass_str_and_int
class S(str):
    def shout(self):
        return self.upper() + "!"
class I(int):
    pass
s = S("hey")
print(s.shout(), s + "x", type(s + "x").__name__, I(5) + 1, type(I(5) + 1).__name__, repr(I(7)))
# ---- subclass_exception_with_attrs
class AppError(Exception):
    def __init__(self, code, msg):
        super().__init__(msg)
        self.code = code
try:
    raise AppError(404, "not found")
except AppError as e:
    print(e.code, e, e.args, repr(e))
# ---- class_attribute_function_becomes_method
def f(self):
    return "method"
class C:
    pass
C.m = f
print(C().m())
c = C()
c.g = f
try:
    c.g()
except TypeError as e:
    print(e)
# ---- object_equality_defaults
class A:
    pass
a = A()
print(a == a, a != a, a == 1, (a < a) if False else "skip")
try:
    a < a
except TypeError as e:
    print(e)
# ---- hasattr_propagates_non_attribute_errors
class P:
    @property
    def x(self):
        raise ValueError("inner")
try:
    hasattr(P(), "x")
except ValueError as e:
    print("ValueError", e)
# ---- instance_method_on_class_needs_self
class C:
    def m(self):
        return self
print(C.m(5))
# ---- class_private_name_mangling
class A:
    def __init__(self):
        self.__secret = 1
    def get(self):
        return self.__secret
a = A()
print(a.get(), a._A__secret, hasattr(a, "__secret"))
# ---- mangling_in_subclass
class A:
    __x = "A"
    def ax(self):
        return self.__x
class B(A):
    __x = "B"
    def bx(self):
        return self.__x
b = B()
print(b.ax(), b.bx(), sorted(k for k in B.__dict__ if "x" in k))
# ---- mangling_private_method_call
class D:
    def __m(self):
        return "m"
    def call(self):
        return self.__m()
print(D().call(), hasattr(D, "_D__m"), hasattr(D, "__m"))
# ---- mangling_bare_name_in_method
_C__g = "global mangled"
class C:
    __k = 1
    def f(self):
        return __g
    def k(self):
        try:
            return __k
        except NameError as e:
            return "NameError: " + str(e)
print(C().f(), C().k())
# ---- mangling_leading_underscore_class_and_dunder_exempt
class _Under:
    __p = 3
    __dunder__ = 4
print(sorted(k for k in vars(_Under) if "p" in k or "dunder" in k))
class E:
    def f(self, **kw):
        return kw
    def g(self):
        return self.f(__x=1)
print(E().g())
# ---- getattribute_returns_for_everything
class A:
    def __getattribute__(self, n):
        return "always " + n
a = A()
print(a.x, a.__class__)
# ---- getattribute_sees_method_lookups
class B:
    def __getattribute__(self, n):
        print("lookup", n)
        return object.__getattribute__(self, n)
    def m(self):
        return 1
print(B().m(), getattr(B(), "m")())
# ---- data_descriptor_without_get
class SetOnly:
    def __set__(self, obj, v):
        obj.__dict__["x"] = v * 2
class C:
    x = SetOnly()
c = C()
print(type(C.x).__name__)
c.x = 5
print(c.x)
# ---- descriptor_delete_hook
class DelD:
    def __get__(self, o, t):
        return 1
    def __delete__(self, o):
        print("delete called")
class E:
    d = DelD()
del E().d
print("done")
# ---- caching_non_data_descriptor
class Cached:
    def __init__(self, f):
        self.f = f
    def __get__(self, obj, owner):
        if obj is None:
            return self
        v = self.f(obj)
        obj.__dict__[self.f.__name__] = v
        return v
class W:
    @Cached
    def val(self):
        print("computing")
        return 42
w = W()
print(w.val, w.val)
# ---- property_setter_added_in_subclass
class Base:
    @property
    def p(self):
        return "base"
class Sub(Base):
    @Base.p.setter
    def p(self, v):
        self._p = v
s = Sub()
s.p = 3
print(s.p, s._p)
