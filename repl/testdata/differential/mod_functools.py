# The functools module.
# ---- reduce_variants
import functools, operator
print(functools.reduce(operator.add, [1, 2, 3, 4]), functools.reduce(lambda a, b: a * b, range(1, 6), 1))
print(functools.reduce(max, [3, 9, 2]), functools.reduce(lambda acc, s: acc + len(s), ["ab", "c"], 0))
# ---- reduce_empty
import functools
functools.reduce(lambda a, b: a + b, [])
# ---- partial_usage
import functools
def power(base, exp):
    return base ** exp
square = functools.partial(power, exp=2)
two_to = functools.partial(power, 2)
print(square(5), two_to(10), square.func.__name__, square.keywords, two_to.args)
int_hex = functools.partial(int, base=16)
print(int_hex("ff"), list(map(int_hex, ["a", "10"])))
# ---- lru_cache_fib
import functools
@functools.lru_cache(maxsize=None)
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
print(fib(100), fib.cache_info().hits, fib.cache_info().misses, fib.cache_info().currsize)
fib.cache_clear()
print(fib.cache_info())
# ---- cache_decorator
import functools
calls = []
@functools.cache
def slow_square(x):
    calls.append(x)
    return x * x
print([slow_square(x) for x in [2, 3, 2, 2, 3, 4]], calls)
# ---- lru_cache_maxsize
import functools
@functools.lru_cache(maxsize=2)
def f(x):
    print("computing", x)
    return x
f(1); f(2); f(1); f(3); f(2)
print(f.cache_info())
# ---- cmp_to_key_sort
import functools
def cmp(a, b):
    if len(a) != len(b):
        return len(a) - len(b)
    return (a > b) - (a < b)
words = ["bb", "a", "ccc", "ab", "b"]
print(sorted(words, key=functools.cmp_to_key(cmp)))
print(sorted([3, 30, 34, 5, 9], key=functools.cmp_to_key(lambda a, b: int(str(b) + str(a)) - int(str(a) + str(b)))))
# ---- wraps_preserves_metadata
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
print(add(2, 3), add.__name__, add.__doc__, add.__wrapped__(1, 1))
# ---- total_ordering_sorting
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
print(sorted(cards), max(cards), Card("Q") >= Card("J"), Card("2") > Card("3"))
# ---- cached_property
import functools
class Report:
    def __init__(self, data):
        self.data = data
        self.computed = 0
    @functools.cached_property
    def total(self):
        self.computed += 1
        return sum(self.data)
r = Report([1, 2, 3])
print(r.total, r.total, r.computed)
r.data.append(4)
print(r.total)
del r.total
print(r.total, r.computed)
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
print(describe(5), describe([1, 2]), describe("s"), describe(True))
# ---- reduce_build_dict
import functools
pairs = [("a", 1), ("b", 2), ("a", 3)]
merged = functools.reduce(lambda acc, kv: {**acc, kv[0]: acc.get(kv[0], 0) + kv[1]}, pairs, {})
print(merged)
# ---- partial_chain_pipeline
import functools
def pipeline(*fns):
    return functools.reduce(lambda f, g: lambda x: g(f(x)), fns)
clean = pipeline(str.strip, str.lower, lambda s: s.replace(" ", "_"))
print(clean("  Hello World  "))
