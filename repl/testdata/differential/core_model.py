# Cells of the interpreter core's object model and protocols: private name
# mangling, attribute access (__getattribute__, descriptors, __dict__,
# __class__), introspection, built-in special methods, exec and eval with
# locals, PEP 709 comprehensions, tracebacks, exception groups, big ranges,
# PEP 695 generics and the messages of calls. Recorded by record.py.
# ---- mangle_params_imports_and_nested_classes
class A:
    import math as __m
    def f(self, __a=1, **kw):
        return __a, kw
    def g(self):
        return self.f(__a=5)
    def h(self):
        return [__y * 2 for __y in range(3)], self.__m.floor(2.5)
    class __Inner:
        __z = 1
    def inner(self):
        return self.__Inner
print(sorted(k for k in A.__dict__ if not k.startswith("__")))
print(A().f(), A().g(), A().h())
I = A().inner()
print(I.__name__, I.__qualname__, sorted(k for k in I.__dict__ if "z" in k))
try:
    A().f(_A__a=2, __a=3)
except TypeError as e:
    print(e)

# ---- mangle_globals_and_slots
class G:
    def set(self):
        global __gv
        __gv = 3
    __slots__ = ("__s", "b")
    def put(self, v):
        self.__s = v
        return self._G__s
G().set()
print(sorted(k for k in globals() if "gv" in k), G.__slots__, G().put(4))
class ___:
    __q = 1
print(sorted(k for k in ___.__dict__ if "q" in k))

# ---- mangle_match_and_keywords
class M:
    __match_args__ = ("__w",)
    def __init__(self):
        self.__w = 1
        self.__v = 2
    def m(self, d):
        match d:
            case {"k": 1, **__rest}:
                return __rest
        match self:
            case M(__v=v):
                return v
        return "no keyword match"
print(M().m({"k": 1, "j": 2}), M().m(0))

# ---- getattribute_with_getattr_and_descriptors
class P:
    x = 10
    def __init__(self):
        self.y = 20
    def __getattribute__(self, n):
        if n.startswith("magic"):
            raise AttributeError(n)
        return object.__getattribute__(self, n)
    def __getattr__(self, n):
        return "fallback " + n
p = P()
print(p.x, p.y, p.magic_word, p.other if hasattr(p, "other") else None, getattr(p, "magic2", "dflt"))
try:
    object.__getattribute__(p, "nothing")
except AttributeError as e:
    print("AttributeError", e, e.name)

# ---- setattr_order_user_setattr_before_descriptors
log = []
class D:
    def __set__(self, o, v):
        log.append(("D.__set__", v))
    def __get__(self, o, t):
        return "D"
class S:
    d = D()
    def __setattr__(self, n, v):
        log.append(("S.__setattr__", n, v))
        object.__setattr__(self, n, v)
    def __delattr__(self, n):
        log.append(("S.__delattr__", n))
        object.__delattr__(self, n)
s = S()
s.d = 1
s.e = 2
del s.e
print(log, s.d)

# ---- descriptor_protocol_details
class Named:
    def __set_name__(self, owner, name):
        self.name = name
    def __get__(self, o, t=None):
        return self if o is None else o.__dict__.get(self.name, "unset")
    def __set__(self, o, v):
        o.__dict__[self.name] = v * 2
    def __delete__(self, o):
        o.__dict__.pop(self.name, None)
class H:
    a = Named()
h = H()
print(h.a, H.a.name)
h.a = 4
print(h.a, vars(h))
del h.a
print(h.a)
class NoGet:
    def __set__(self, o, v):
        o.__dict__["b"] = v
class K:
    b = NoGet()
k = K()
print(type(K.b).__name__, type(k.b).__name__)
k.b = 3
print(k.b)

# ---- property_docs_and_copies
class Q:
    def _g(self):
        "getter doc"
        return 1
    p = property(_g)
    r = property(_g, doc="explicit")
    @property
    def t(self):
        "t doc"
        return 2
    @t.setter
    def t(self, v):
        pass
print(Q.p.__doc__, Q.r.__doc__, Q.t.__doc__, Q.t.fset.__name__, Q.t.fdel, property().__doc__)
def g2(self):
    "second"
print(Q.p.getter(g2).__doc__, Q.r.getter(g2).__doc__)
try:
    Q().p = 3
except AttributeError as e:
    print(e)
try:
    del Q().t
except AttributeError as e:
    print(e)

# ---- class_dict_entries_by_base
class A0: pass
class B0(A0): pass
class I0(int): pass
class L0(list): pass
class E0(Exception): pass
class T0(tuple): pass
class S0:
    __slots__ = ("a",)
class S1(S0): pass
for c in [A0, B0, I0, L0, E0, T0, S0, S1]:
    print(c.__name__, sorted(k for k in c.__dict__ if k != "__slots__"))
print(A0.__doc__, A0().__weakref__, repr(A0.__dict__["__dict__"]))

# ---- instance_dict_and_class_assignment
class R:
    pass
class R2:
    def who(self):
        return "R2"
r = R()
r.__dict__ = {"z": 26}
print(r.z, vars(r))
try:
    r.__dict__ = 5
except TypeError as e:
    print(e)
r.__class__ = R2
print(r.who(), type(r).__name__)
for bad in [1, int]:
    try:
        r.__class__ = bad
    except TypeError as e:
        print(e)
class Sl:
    __slots__ = ("a",)
try:
    R2().__class__ = Sl
except TypeError as e:
    print(e)
del r.__dict__
print(vars(r))

# ---- slots_errors
for src in ["class A:\n    __slots__ = ('x',)\n    x = 1", "class B:\n    __slots__ = (1,)"]:
    try:
        exec(src)
    except (ValueError, TypeError) as e:
        print(type(e).__name__, e)
class C:
    __slots__ = ("a", "__weakref__")
c = C()
c.a = 1
try:
    c.b = 2
except AttributeError as e:
    print(e)
print(c.a, c.__weakref__, hasattr(c, "__dict__"))

# ---- bound_methods_and_staticmethods
class C:
    def m(self):
        "m doc"
    @staticmethod
    def s():
        "s doc"
    @classmethod
    def k(cls):
        pass
c = C()
print(c.m == c.m, c.m != C().m, hash(c.m) == hash(c.m), {c.m: 1}[c.m], C.k == C.k)
sm = C.__dict__["s"]
print(sm.__name__, sm.__qualname__, sm.__doc__, sm.__wrapped__ is C.s, C.__dict__["k"].__name__)

# ---- introspection_of_functions_and_generators
def outer():
    v = 1
    def inner(a, *, b, c=3):
        return v
    return inner
f = outer()
print(f.__closure__[0].cell_contents, outer.__closure__, f.__kwdefaults__, f.__defaults__, f.__type_params__)
print(type(f.__closure__[0]).__name__, type(f.__builtins__).__name__)
def cell_empty():
    def g():
        return w
    c = g.__closure__[0]
    try:
        c.cell_contents
    except ValueError as e:
        print(e)
    w = 1
    return c.cell_contents
print(cell_empty())
def gen():
    yield 1
g = gen()
print(g.__name__, g.__qualname__, g.gi_running, g.gi_suspended, g.gi_frame is not None)
next(g)
print(g.gi_suspended, g.gi_frame.f_lineno)
list(g)
print(g.gi_frame, g.gi_suspended)
ge = (x for x in [])
print(ge.__name__, ge.__qualname__, ge.gi_running)

# ---- error_attributes
class C:
    pass
try:
    C().nope
except AttributeError as e:
    print(e.name, type(e.obj).__name__)
try:
    C.nope
except AttributeError as e:
    print(e.name, e.obj is C)
import math
try:
    math.nope
except AttributeError as e:
    print(e.name, e.obj is math)
try:
    undefined_name
except NameError as e:
    print(e.name)
try:
    raise AttributeError("custom")
except AttributeError as e:
    print(e.name, e.obj)

# ---- dir_of_builtins_lengths
print(len(dir(object)), len(dir(1)), len(dir(1.5)), len(dir(1j)), len(dir("")), len(dir([])), len(dir({})), len(dir(())), len(dir(set())), len(dir(None)), len(dir(range(1))), len(dir(True)))
def f():
    pass
class C:
    pass
print(len(dir(f)), len(dir(C)), len(dir(C())), [n for n in dir(C()) if n not in dir(object)])
print(object().__getstate__(), object.__subclasshook__(int), C().__reduce_ex__ is not None)

# ---- number_dunders_not_implemented
print((1).__add__(1.5), (1.5).__add__(1), (1).__eq__(1.0), (2).__lt__(2.5), (1j).__add__(1), (1).__add__(1j))
print((7).__divmod__(2), (7).__rdivmod__(2), (7.5).__divmod__(2), (1).__divmod__(1.5), (-3).__pos__(), (5).__invert__(), (1).__rlshift__(3), (8).__rrshift__(64))
print((2.5).__pos__(), (1j).__neg__(), (0j).__bool__(), (3).__getnewargs__(), "x".__getnewargs__(), "%s!".__rmod__(5), "x".__rmod__("%s"), float.__getformat__("double"))
print([1].__imul__(2), {1: 2}.__ior__({3: 4}), {1: 2}.__ror__({3: 4}), {1}.__rand__({1, 2}), {1}.__rsub__({1, 2}), list.__class_getitem__(int), None.__bool__())

# ---- pow_three_arguments
class M:
    def __pow__(self, o, mod=None):
        return ("pow", o, mod)
    def __rpow__(self, o, mod=None):
        return ("rpow", o, mod)
print(pow(M(), 2, 5), pow(2, M()), 2 ** M())
for args in [(2, M(), 5), (2.0, 2, 5), ("a", 2, 5), (2, 3, 1.5)]:
    try:
        print(pow(*args))
    except TypeError as e:
        print(e)
print(pow(3, 4, 5), pow(2, -1, 5))

# ---- match_args_errors
class T:
    __match_args__ = ("a", 1)
    a = 1
class U:
    __match_args__ = ("a",)
    def __getattribute__(self, n):
        raise KeyError(n)
for subject in [T(), U()]:
    try:
        match subject:
            case T(x, y):
                print("T", x, y)
            case U(z):
                print("U", z)
    except (TypeError, KeyError) as e:
        print(type(e).__name__, e)
class V:
    pass
try:
    match V():
        case V(a, b):
            pass
except TypeError as e:
    print(e)

# ---- mro_errors_and_duplicates
class A: pass
class B(A): pass
class C(A): pass
class D(B, C): pass
class E(C, B): pass
for bases in [(A, A), (A, B), (D, E), (B, A, C)]:
    try:
        type("X", bases, {})
    except TypeError as e:
        print(e)
try:
    class Y(B, B):
        pass
except TypeError as e:
    print(e)

# ---- super_errors
def no_args():
    return super()
def with_arg(x):
    return super()
class C:
    def m(self):
        return [super().__init__ is not None for _ in range(1)]
for f in [no_args, lambda: with_arg(1)]:
    try:
        f()
    except RuntimeError as e:
        print(e)
print(C().m())

# ---- generic_alias_and_union_types
print(type(list[int]).__name__, type(list[int]).__module__, type(int | str).__name__, repr(type(list[int])))
print(list[int] == list[int], dict[str, int].__args__, list[int].__origin__, tuple[int, ...])

# ---- deep_repr_and_equality_limits
for make in [lambda x: [x], lambda x: (x,), lambda x: {"k": x}]:
    a = 0
    for _ in range(3000):
        a = make(a)
    try:
        repr(a)
    except RecursionError as e:
        print("RecursionError", e)
    b = 0
    for _ in range(3000):
        b = make(b)
    try:
        print(a == b)
    except RecursionError as e:
        print("RecursionError", e)
a = 0
for _ in range(150):
    a = [a]
print(len(repr(a)), a == eval(repr(a)))
for _ in range(150):
    a = [a]
try:
    eval(repr(a))
except SyntaxError as e:
    print(e)

# ---- exec_eval_with_locals
def f():
    a = 1
    exec("a = 2\nb = 3")
    l = locals()
    print(a, sorted(l), l["b"])
    exec("print(a + 10)")
    return eval("a * 2"), eval("[a * i for i in range(3)]")
print(f())
g = {}
exec("x = 1\ny = [x * i for i in range(3)]\nz = list(x * i for i in range(3))", g)
print(g["x"], g["y"], g["z"])
l = {}
exec("x = 5\ndef h():\n    return x\ntry:\n    h()\nexcept NameError as e:\n    print('NameError', e)\nq = [x * i for i in range(3)]", {}, l)
print(sorted(l), l["q"])
class C:
    exec("y = 7")
print(C.y, eval("k + 1", {"k": 2}), eval("k + m", {"k": 2}, {"m": 5}))
try:
    exec("print(list(x * i for i in range(2)))", {}, {"x": 3})
except NameError as e:
    print("NameError", e)

# ---- comprehensions_inlined_312
def f():
    a = 1
    return [sorted(locals()) for _ in range(1)][0], {k: sorted(locals()) for k in "x"}["x"], sorted(next(iter(locals() for _ in range(1))))
print(f())
def g():
    y = 0
    r = [(y := y + i) for i in range(4)]
    return r, y
print(g())
def h():
    try:
        return [w for _ in range(1)], [w := 1 for _ in range(1)]
    except NameError as e:
        return type(e).__name__, str(e)
print(h())
def k():
    return list(w for _ in range(1)), [w := 1 for _ in range(1)]
try:
    k()
except NameError as e:
    print(type(e).__name__, e)

# ---- traceback_objects
import sys
def f():
    x = 5
    raise KeyError("deep")
def g():
    f()
try:
    g()
except Exception as ex:
    tb = ex.__traceback__
    print(type(tb).__name__, tb.tb_lineno, tb.tb_next.tb_lineno, tb.tb_next.tb_next.tb_lineno, tb.tb_next.tb_next.tb_next)
    fr = tb.tb_next.tb_next.tb_frame
    print(type(fr).__name__, fr.f_locals, fr.f_lineno, fr.f_back.f_back is tb.tb_frame, tb is ex.__traceback__)
    e2 = ValueError().with_traceback(tb.tb_next)
    print(e2.__traceback__.tb_lineno, ValueError().__traceback__)
    e2.__traceback__ = None
    print(e2.__traceback__)
class CM:
    def __enter__(self):
        return self
    def __exit__(self, et, ev, tb):
        print(et.__name__, tb.tb_lineno, tb.tb_next)
        return True
with CM():
    raise ValueError("v")

# ---- exception_groups
eg = ExceptionGroup("many", [ValueError("a"), KeyError("b"), ExceptionGroup("inner", [TypeError("c"), ValueError("d")])])
print(eg.message, eg.exceptions, str(eg), repr(eg))
m, r = eg.split(ValueError)
print(repr(m), repr(r))
print(repr(eg.subgroup(lambda e: isinstance(e, KeyError))), eg.subgroup(Exception) is eg, eg.subgroup(OSError))
s = eg.subgroup(lambda e: not isinstance(e, ExceptionGroup))
print(s is eg, repr(s), repr(eg.derive([ValueError(9)])))
print(isinstance(eg, BaseExceptionGroup), issubclass(ExceptionGroup, Exception), ExceptionGroup.__mro__)
for args in [(), (1, [ValueError()]), ("m", 5), ("m", []), ("m", [1]), ("m", [KeyboardInterrupt()])]:
    try:
        ExceptionGroup(*args)
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
print(type(BaseExceptionGroup("m", [ValueError()])).__name__, type(BaseExceptionGroup("m", [KeyboardInterrupt()])).__name__)
class MyEG(ExceptionGroup):
    pass
x = MyEG("q", [ValueError(), TypeError()])
print(repr(x), str(x), type(x.split(ValueError)[0]).__name__)
try:
    raise eg
except BaseExceptionGroup as e:
    print("caught", e, e.split((KeyError, TypeError))[0].exceptions)

# ---- print_writes_in_pieces
import io
import sys
class W:
    def __init__(self):
        self.calls = []
    def write(self, s):
        self.calls.append(s)
w = W()
print("a", 1, [2], sep="-", end="!", file=w)
print(w.calls)
class Bad:
    def __str__(self):
        raise ValueError("no str")
w2 = W()
try:
    print("x", Bad(), "y", file=w2)
except ValueError:
    print(w2.calls)
s = io.StringIO()
try:
    print("p", Bad(), file=s)
except ValueError:
    print(repr(s.getvalue()))

# ---- big_ranges
M = 2 ** 63
r = range(10**20, 10**20 + 10, 3)
print(r, len(r), list(r), r[1], r[-1], r[1:3], r[::-1], list(reversed(r)), 10**20 + 3 in r, 10**20 + 4 in r)
print(r.index(10**20 + 6), r.count(10**20), r.start, r.stop, r.step, bool(range(10**20, 0)))
print(type(iter(range(10**20))).__name__, type(iter(range(5))).__name__, type(reversed(range(10**20))).__name__)
print(range(0) == range(10**20, 10**20), hash(range(0)) == hash(range(10**20, 10**20)), hash(range(5, 6)) == hash(range(5, 7, 10)), range(5, 6) == range(5, 7, 10))
print(range(-M, M)[::M], list(range(-M, M, M)), range(M - 1, -M - 1, -1)[0], list(reversed(range(-M, -M + 3))))
big = range(0, 10**30, 7)
print(big[10**20], big[-1], big[10**29:10**29 + 3], range(10**20)[-3:], list(range(M - 2, M + 2)))
for f in [lambda: len(big), lambda: big[10**31], lambda: big["a"]]:
    try:
        f()
    except (OverflowError, IndexError, TypeError) as e:
        print(type(e).__name__, e)
print(3.0 in range(5), range(5).index(3.0), range(5).count(2.0), sum(range(10**20, 10**20 + 3)))
print(range(1, 10)[2:7:2], range(1, 10)[::-3], range(10)[-100:100], range(0, 10, 3)[5:0:-2])
match range(10**20, 10**20 + 2):
    case [a, b]:
        print(a, b)

# ---- numbers_and_indexes_limits
M = 2 ** 63
for f in [lambda: [1][M], lambda: (1,)[M], lambda: "a"[M], lambda: range(3)[M], lambda: b"a"[M], lambda: b"a"[5], lambda: bytearray(b"a")[M], lambda: [1].__delitem__(M)]:
    try:
        f()
    except (IndexError, OverflowError) as e:
        print(type(e).__name__, e)
for x in [b"x", bytearray(b"y"), b" 12 ", bytearray(b"-5")]:
    try:
        print(int(x))
    except ValueError as e:
        print(e)
for v in [2 ** 31, -2 ** 31 - 1, 0x110000]:
    try:
        chr(v)
    except (ValueError, OverflowError) as e:
        print(type(e).__name__, e)
for f in [lambda: 1j // 2, lambda: 2 % 1j, lambda: divmod(1j, 2)]:
    try:
        f()
    except TypeError as e:
        print(e)

# ---- index_type_messages
for f in [lambda: [1]["a"], lambda: (1,)["a"], lambda: "a"["a"], lambda: range(3)["a"], lambda: b"a"["a"], lambda: bytearray(b"a")["a"], lambda: "a"[1.0], lambda: [1].__setitem__("a", 1), lambda: [1].__delitem__("a")]:
    try:
        f()
    except TypeError as e:
        print(e)
s = [1, 2, 3]
for k in [slice(0, 1), slice(None, None, 2), slice(None, None, -1)]:
    try:
        s[k] = 5
    except TypeError as e:
        print(e)
try:
    del (1).real
except AttributeError as e:
    print(e)

# ---- call_messages
class C:
    def m(self, **k):
        pass
def t(f):
    try:
        f()
    except TypeError as e:
        print(e)
t(lambda: C().m(**[1]))
t(lambda: len(**[1]))
t(lambda: [].append(*1))
t(lambda: dict(**[1]))
t(lambda: C(**[1]))
import math
t(lambda: math.sqrt(*1))
t(lambda: print(**{"a": 1}, **{"a": 2}))
t(lambda: staticmethod(len)(*1))
t(lambda: [].pop(index=0))
t(lambda: "a".upper(x=1))
t(lambda: {}.fromkeys(iterable=[]))
t(lambda: "a".replace("a", "b", count=1))
def p(a, b, c, /, d):
    pass
t(lambda: p(c=1, a=2, d=3))
t(lambda: iter(1, 2))
print([].append.__qualname__, len.__qualname__, dict.fromkeys.__qualname__, "a".upper.__qualname__)

# ---- slices_compare_and_hash
print(slice(1, 2) == slice(1, 2), slice(1, 2) < slice(1, 3), slice(1, 2) != slice(1, 2, 1), {slice(1, 2): "a"}[slice(1, 2)])
try:
    hash(slice([], 1))
except TypeError as e:
    print(e)
try:
    slice(1, 2) < slice("a", 2)
except TypeError as e:
    print(e)
print(hash(slice(1, 2)) == hash(slice(1, 2)), hash(slice(1, 2, None)), hash(slice(None, None, None)))

# ---- iterators_and_reversed
objs = [reversed(range(3)), reversed("ab"), reversed((1,)), reversed([1]), reversed({}), reversed({}.items()), reversed({}.values()), iter("é"), iter("e"), iter(bytearray()), reversed(()), reversed([])]
print([type(o).__name__ for o in objs])
class S:
    def __len__(self):
        return 3
    def __getitem__(self, i):
        print("get", i)
        return i * 10
r = reversed(S())
print(next(r))
print(list(r))
ba = bytearray(b"ab")
it = iter(ba)
print(next(it))
ba.append(99)
print(list(it))
class N:
    __reversed__ = None
    def __len__(self):
        return 1
    def __getitem__(self, i):
        return 1
class NI:
    __iter__ = None
for f in [lambda: reversed(N()), lambda: iter(NI()), lambda: list(NI())]:
    try:
        f()
    except TypeError as e:
        print(e)

# ---- generic_functions_and_classes_312
def first[T](xs: list[T]) -> T:
    return xs[0]
print(first([3, 4]), first.__qualname__, len(first.__type_params__), first.__type_params__[0].__name__)
class Box[T]:
    def __init__(self, v: T):
        self.v = v
    def tp(self):
        return T
print(Box(1).v, Box.__qualname__, Box.__bases__, Box.__mro__, Box.__type_params__[0] is Box(1).tp())
class C:
    def m[U](self, x: U) -> U:
        return x
print(C().m(5), C.m.__qualname__, C.m.__annotations__["x"].__name__)
class P[T: int, U: (int, str)]:
    pass
print(P.__type_params__[0].__bound__, P.__type_params__[1].__constraints__, "__type_params__" in P.__dict__)
def deco(f):
    print("deco", f.__name__)
    return f
@deco
def g[T](x=1, *, y: T = 2) -> T:
    return x
print(g(), g.__defaults__, g.__kwdefaults__)
class Q[T](list):
    pass
print(Q.__bases__, Q([1, 2]))
def outer():
    z = 1
    def inner[T](a: T):
        return z, a
    return inner
print(outer()(2))

# ---- generator_expression_throw_and_stop
ge = (x for x in range(5))
next(ge)
try:
    ge.throw(KeyError("k"))
except KeyError as e:
    print("KeyError", e)
print(next(ge, "done"), ge.gi_frame)
def boom():
    raise StopIteration("inner")
ge2 = (boom() for _ in range(1))
try:
    next(ge2)
except RuntimeError as e:
    print(type(e).__name__, e, repr(e.__cause__))

# ---- frozenset_reprs_nested
print({frozenset([1])}, frozenset([frozenset([1, 2])]), [frozenset([1])], {"k": frozenset([2])}, {frozenset()})
s = set()
s.add(frozenset([3]))
print(s, repr({(1, frozenset([4]))}))

# ---- locals_dict_persists_per_frame
def f():
    a = 1
    l1 = locals()
    exec("extra = 5")
    b = 2
    l2 = locals()
    del a
    l3 = locals()
    return l1 is l2, sorted(l3), l3["extra"]
print(f())
def g():
    return [dir() for _ in range(1)][0], vars().keys() == locals().keys()
print(g())
class K:
    v = 1
    names = sorted(locals())
print(K.names)

# ---- isinstance_consults_class_attribute
class Proxy:
    def __init__(self, target):
        self._t = target
    @property
    def __class__(self):
        return type(self._t)
p = Proxy([1])
print(isinstance(p, list), isinstance(p, Proxy), type(p).__name__, p.__class__.__name__)
class Fail:
    def __getattribute__(self, n):
        raise AttributeError(n)
print(isinstance(Fail(), int), isinstance(Fail(), Fail))
