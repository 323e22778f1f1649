# Cases for the functools module; gen.py records CPython's output.
# ---- reduce
import functools, operator
print(functools.reduce(operator.add, [1, 2, 3, 4]), functools.reduce(lambda a, b: a * b, range(1, 6), 1))
print(functools.reduce(max, [3, 9, 2]), functools.reduce(lambda acc, s: acc + len(s), ["ab", "c"], 0), functools.reduce(operator.add, [], 7))
print(functools.reduce(operator.add, [5]), functools.reduce(operator.add, "abc"), functools.reduce(lambda a, b: {**a, b: len(b)}, ["x", "yy"], {}))
print(functools.reduce(operator.mul, range(1, 11)), functools.reduce(operator.or_, [1, 2, 4]), functools.reduce(operator.xor, [5, 3]))
# ---- reduce_errors
import functools
for f in [lambda: functools.reduce(), lambda: functools.reduce(max, 5), lambda: functools.reduce(max, [], x=1), lambda: functools.reduce(lambda a, b: a + b, []), lambda: functools.reduce(max, [1], 2, 3), lambda: functools.reduce(None, [1, 2])]:
    try:
        f()
    except TypeError as e:
        print(e)
# ---- partial
import functools
def power(base, exp):
    return base ** exp
square = functools.partial(power, exp=2)
two_to = functools.partial(power, 2)
print(square(5), two_to(10), square.func.__name__, square.keywords, two_to.args, square(3, exp=3))
int_hex = functools.partial(int, base=16)
print(int_hex("ff"), list(map(int_hex, ["a", "10"])), int_hex)
p = functools.partial(max, 1, k=[2])
print(repr(p), p.args, type(p.args).__name__, p.keywords, p.func, functools.partial(max))
nested = functools.partial(functools.partial(print, "a", sep="-"), "b", end="!\n")
print(nested.args, nested.keywords, nested.func)
nested("c")
p = functools.partial(max, 1)
p.note = "x"
print(p.note, p.__dict__, functools.partial(p, 2).func is p, callable(p), type(p), type(p).__name__)
print(functools.partial(sorted, reverse=True)([3, 1, 2]), functools.partial(print, end="")("ok"))
# ---- partial_errors
import functools
for f in [lambda: functools.partial(), lambda: functools.partial(5), lambda: functools.partial(func=max), lambda: setattr(functools.partial(max), "func", 1)]:
    try:
        f()
    except (TypeError, AttributeError) as e:
        print(type(e).__name__, e)
# ---- partial_subclass
import functools
class P(functools.partial):
    def describe(self):
        return f"P of {self.func.__name__}"
p = P(max, 1)
print(p(5), p.describe(), p.args, isinstance(p, functools.partial))
# ---- partialmethod
import functools
class Cell:
    def __init__(self):
        self.alive = False
    def set_state(self, state):
        self.alive = bool(state)
        return self
    set_alive = functools.partialmethod(set_state, True)
    set_dead = functools.partialmethod(set_state, False)
    @classmethod
    def make(cls, n, tag=""):
        return f"{cls.__name__}{n}{tag}"
    make3 = functools.partialmethod(make, 3)
c = Cell()
print(c.set_alive().alive, c.set_dead().alive, Cell.make3(tag="!"), c.make3(), type(c.set_alive).__name__)
print(repr(functools.partialmethod(Cell.set_state, 1, k=2))[:46])
# ---- partialmethod_errors
import functools
functools.partialmethod(5)
# ---- wraps
import functools
def logged(fn):
    @functools.wraps(fn)
    def inner(*args):
        print(f"call {fn.__name__}{args}")
        return fn(*args)
    return inner
@logged
def add(a, b):
    "Add two numbers."
    return a + b
print(add(2, 3), add.__name__, add.__doc__, add.__wrapped__(1, 1), add.__qualname__, add.__module__)
def tagged(fn):
    fn.tag = "t"
    return fn
@tagged
def g():
    pass
def w():
    pass
functools.update_wrapper(w, g)
print(w.__name__, w.tag, w.__wrapped__ is g, functools.WRAPPER_ASSIGNMENTS, functools.WRAPPER_UPDATES)
functools.update_wrapper(w, max)
print(w.__name__, w.__wrapped__)
def x():
    pass
functools.update_wrapper(x, g, assigned=("__doc__",), updated=())
print(x.__name__, hasattr(x, "tag"))
# ---- wraps_errors
import functools
functools.update_wrapper()
# ---- lru_cache_fib
import functools
@functools.lru_cache(maxsize=None)
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
print(fib(100), fib.cache_info().hits, fib.cache_info().misses, fib.cache_info().currsize)
fib.cache_clear()
print(fib.cache_info(), fib.cache_parameters(), fib.__name__, fib.__wrapped__.__name__, type(fib).__name__)
# ---- lru_cache_maxsize
import functools
@functools.lru_cache(maxsize=2)
def f(x):
    print("computing", x)
    return x
f(1); f(2); f(1); f(3); f(2)
print(f.cache_info(), f.cache_parameters())
@functools.lru_cache
def g(x, y=0):
    print("g", x, y)
    return x + y
g(1); g(1); g(1, 0); g(1, y=0); g(y=0, x=1); g(x=1, y=0); g(1.0); g(True)
print(g.cache_info())
@functools.lru_cache(typed=True)
def h(x):
    print("h", x)
    return x
h(1); h(1.0); h(True); h(1)
print(h.cache_info(), h.cache_parameters())
@functools.lru_cache(maxsize=0)
def z(x):
    return x
z(1); z(1)
print(z.cache_info())
print(functools.lru_cache(maxsize=-3)(max).cache_info(), functools.lru_cache(True)(max).cache_info())
# ---- lru_cache_eviction_order
import functools
@functools.lru_cache(maxsize=3)
def sq(x):
    print("miss", x)
    return x * x
for v in [1, 2, 3, 1, 4, 2, 1, 5, 3]:
    sq(v)
print(sq.cache_info())
# ---- lru_cache_method
import functools
class Calc:
    def __init__(self, k):
        self.k = k
    @functools.lru_cache(maxsize=None)
    def mul(self, x):
        print("mul", self.k, x)
        return self.k * x
    def __hash__(self):
        return hash(self.k)
    def __eq__(self, o):
        return self.k == o.k
a, b = Calc(2), Calc(3)
print(a.mul(5), a.mul(5), b.mul(5), Calc.mul.cache_info())
# ---- lru_cache_errors
import functools
for f in [lambda: functools.lru_cache("x"), lambda: functools.cache(), lambda: functools.lru_cache(5, 1)(1), lambda: functools.lru_cache(max)([1]), lambda: functools.lru_cache()(1)]:
    try:
        f()
    except TypeError as e:
        print(e)
# ---- cache_decorator
import functools
calls = []
@functools.cache
def slow_square(x):
    calls.append(x)
    return x * x
print([slow_square(x) for x in [2, 3, 2, 2, 3, 4]], calls, slow_square.cache_info(), slow_square.cache_parameters())
# ---- cmp_to_key
import functools
def cmp(a, b):
    if len(a) != len(b):
        return len(a) - len(b)
    return (a > b) - (a < b)
words = ["bb", "a", "ccc", "ab", "b"]
print(sorted(words, key=functools.cmp_to_key(cmp)))
print(sorted([3, 30, 34, 5, 9], key=functools.cmp_to_key(lambda a, b: int(str(b) + str(a)) - int(str(a) + str(b)))))
K = functools.cmp_to_key(lambda a, b: a - b)
print(K(1) < K(2), K(2) <= K(2), K(3) == K(3), K(3) != K(4), K(5) > K(1), K(1) >= K(2), K(7).obj, max([K(1), K(9), K(3)]).obj)
print(min([3, 1, 2], key=functools.cmp_to_key(lambda a, b: b - a)))
# ---- cmp_to_key_errors
import functools
K = functools.cmp_to_key(lambda a, b: a - b)
for f in [lambda: functools.cmp_to_key(), lambda: K(), lambda: K(1, 2), lambda: K(1) < 5, lambda: K(obj=1) < K(obj=2)]:
    try:
        print(f())
    except TypeError as e:
        print(e)
# ---- cmp_to_key_unhashable
import functools
hash(functools.cmp_to_key(len)(1))
# ---- total_ordering
import functools
@functools.total_ordering
class Card:
    ranks = "23456789TJQKA"
    def __init__(self, r):
        self.r = r
    def __eq__(self, o):
        return self.r == o.r
    def __lt__(self, o):
        return self.ranks.index(self.r) < self.ranks.index(o.r)
    def __repr__(self):
        return self.r
cards = [Card(c) for c in "KA29T"]
print(sorted(cards), max(cards), Card("Q") >= Card("J"), Card("2") > Card("3"), Card("2") <= Card("2"), Card("3") > Card("2"))
@functools.total_ordering
class V:
    def __init__(self, v):
        self.v = v
    def __gt__(self, o):
        if not isinstance(o, V):
            return NotImplemented
        return self.v > o.v
    def __eq__(self, o):
        return isinstance(o, V) and self.v == o.v
print(V(1) < V(2), V(2) <= V(2), V(3) >= V(4), V(1) > V(0), sorted([V(3), V(1)], key=lambda x: x)[0].v)
try:
    V(1) < 5
except TypeError as e:
    print(e)
@functools.total_ordering
class G:
    def __init__(self, v):
        self.v = v
    def __ge__(self, o):
        return self.v >= o.v
    def __le__(self, o):
        return self.v <= o.v
print(G(1) < G(2), G(2) > G(1), G(1) > G(1))
# ---- total_ordering_none
import functools
@functools.total_ordering
class X:
    pass
# ---- cached_property
import functools
class Report:
    def __init__(self, data):
        self.data = data
        self.computed = 0
    @functools.cached_property
    def total(self):
        "The total."
        self.computed += 1
        return sum(self.data)
r = Report([1, 2, 3])
print(r.total, r.total, r.computed, "total" in r.__dict__, Report.total.__doc__, Report.total.attrname, type(Report.total).__name__)
r.data.append(4)
print(r.total)
del r.total
print(r.total, r.computed)
r.total = 100
print(r.total)
# ---- cached_property_errors
import functools
cp = functools.cached_property(lambda self: 1)
class T:
    pass
T.q = cp
try:
    T().q
except TypeError as e:
    print(e)
# ---- singledispatch
import functools
@functools.singledispatch
def describe(x):
    return f"object {x!r}"
@describe.register
def _(x: int):
    return f"int {x}"
@describe.register(list)
def _(x):
    return f"list of {len(x)}"
def for_str(x):
    return f"str {x}"
describe.register(str, for_str)
print(describe(5), describe([1, 2]), describe("s"), describe(True), describe(1.5), describe({}))
print(describe.dispatch(bool).__name__, describe.dispatch(float).__name__, describe.__name__, len(describe.registry), describe.registry[list].__name__)
@describe.register
def _(x: "float"):
    return "float"
print(describe(2.5), describe({}), describe(object())[:6])
# ---- singledispatch_abc
import functools, collections.abc
@functools.singledispatch
def kind(x):
    return "other"
@kind.register
def _(x: collections.abc.Sequence):
    return "sequence"
@kind.register
def _(x: collections.abc.Mapping):
    return "mapping"
print(kind([1]), kind("s"), kind((1,)), kind({}), kind(5), kind(range(2)))
# ---- singledispatch_errors
import functools
@functools.singledispatch
def f(x):
    return x
for g in [lambda: f.register(5), lambda: f(), lambda: f.register(5, len)]:
    try:
        g()
    except TypeError as e:
        print(e)
def noann(x):
    pass
try:
    f.register(noann)
except TypeError as e:
    print(str(e)[:60])
# ---- singledispatchmethod
import functools
class Neg:
    @functools.singledispatchmethod
    def neg(self, arg):
        return f"cannot negate {arg!r}"
    @neg.register
    def _(self, arg: int):
        return -arg
    @neg.register
    def _(self, arg: bool):
        return not arg
n = Neg()
print(n.neg(5), n.neg(True), n.neg("x"), n.neg.__name__)
# ---- module_attrs
import functools
print(functools.__all__)
print(functools.partial, functools.cached_property, functools.partialmethod, functools.singledispatchmethod)
