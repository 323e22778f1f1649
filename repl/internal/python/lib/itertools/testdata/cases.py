# Cases for the itertools module; gen.py records CPython's output.
# ---- count
import itertools as it
print(list(it.islice(it.count(10, 5), 4)), list(it.islice(it.count(1.5, 0.5), 3)), list(it.islice(it.count(), 3)))
c = it.count(5)
print(c, next(c), next(c), c, it.count(5, 2), it.count(1.5, 0.5), it.count(0, 1.0), it.count(2**70), it.count(start=2, step=3))
print(list(zip(it.count(), "abc")), list(zip(it.count(-3, -2), range(3))), next(it.count(True)), next(it.count(True, 2)), it.count(0, True))
c = it.count(1+2j, 1j)
print(next(c), next(c), c)
# ---- count_str
import itertools
itertools.count("a")
# ---- count_step_str
import itertools
itertools.count(1, "a")
# ---- count_bad_kw
import itertools
itertools.count(x=1)
# ---- count_three
import itertools
itertools.count(1, 2, 3)
# ---- cycle
import itertools as it
print(list(it.islice(it.cycle("ab"), 5)), list(it.cycle([])), list(it.islice(it.cycle(iter([1, 2, 3])), 8)))
def g():
    print("gen start")
    yield 1
    yield 2
    print("gen end")
c = it.cycle(g())
print([next(c) for _ in range(5)])
# ---- cycle_errors
import itertools
for f in [lambda: itertools.cycle(), lambda: itertools.cycle([1], x=1), lambda: itertools.cycle(1), lambda: itertools.cycle([1], [2])]:
    try:
        f()
    except TypeError as e:
        print(e)
# ---- repeat
import itertools as it
print(list(it.repeat("x", 3)), list(it.repeat(1, 0)), list(it.repeat(1, -5)), list(map(pow, range(4), it.repeat(2))))
r = it.repeat("x", 3)
print(r, next(r), r, r.__length_hint__(), it.repeat(None), it.repeat(1, -5), it.repeat(object=1, times=2))
print(list(it.repeat(1, times=True)), list(it.islice(it.repeat([]), 2)))
# ---- repeat_length_hint_unsized
import itertools
itertools.repeat(1).__length_hint__()
# ---- repeat_errors
import itertools
for f in [lambda: itertools.repeat(), lambda: itertools.repeat(1, 2.0), lambda: itertools.repeat(1, None), lambda: itertools.repeat(1, 2**70)]:
    try:
        f()
    except (TypeError, OverflowError) as e:
        print(type(e).__name__, e)
# ---- accumulate
import itertools as it, operator
print(list(it.accumulate([1, 2, 3, 4])), list(it.accumulate([1, 2, 3, 4], operator.mul)))
print(list(it.accumulate([5, 1, 7, 3], max)), list(it.accumulate([1, 2], initial=100)), list(it.accumulate([], initial=7)))
print(list(it.accumulate(["a", "b", "c"])), list(it.accumulate([])), list(it.accumulate(iterable=[1, 2], func=None, initial=None)))
print(list(it.accumulate([[1], [2]])), list(it.accumulate(range(5), lambda a, b: a - b, initial=10)))
# ---- accumulate_errors
import itertools
for f in [lambda: itertools.accumulate(), lambda: itertools.accumulate(1), lambda: list(itertools.accumulate([1, "a"]))]:
    try:
        f()
    except TypeError as e:
        print(e)
# ---- accumulate_too_many
import itertools
itertools.accumulate([1], None, 3)
# ---- batched
import itertools as it
print(list(it.batched(range(10), 4)), list(it.batched("", 2)), list(it.batched("abc", 1)), list(it.batched(iterable=[1, 2, 3], n=2)))
b = it.batched(iter(range(5)), 2)
print(next(b), list(b), list(b))
# ---- batched_zero
import itertools
list(itertools.batched("abc", 0))
# ---- batched_errors
import itertools
for f in [lambda: itertools.batched([1]), lambda: itertools.batched([1], 1.5), lambda: itertools.batched(1, 2), lambda: itertools.batched([1], -1)]:
    try:
        f()
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
# ---- chain
import itertools as it
print(list(it.chain([1, 2], "ab", (3,))), list(it.chain.from_iterable([[1], [2, 3], []])))
print(list(it.chain()), "".join(it.chain("ab", "cd")), list(it.chain.from_iterable(["ab", "cd"])), list(it.chain([], [], [5])))
c = it.chain([1], 5)
print(next(c))
try:
    next(c)
except TypeError as e:
    print(e)
def gen():
    print("outer")
    yield [1]
    yield [2]
c = it.chain.from_iterable(gen())
print("made")
print(list(c))
print(type(it.chain.from_iterable([])).__name__)
# ---- chain_errors
import itertools
for f in [lambda: itertools.chain([1], x=1), lambda: itertools.chain.from_iterable(), lambda: list(itertools.chain.from_iterable(5)), lambda: itertools.chain.from_iterable([1], [2])]:
    try:
        f()
    except TypeError as e:
        print(e)
# ---- compress
import itertools as it
print(list(it.compress("abcdef", [1, 0, 1, 0, 1, 1])), list(it.compress("abc", [0, 1])), list(it.compress(data=[1, 2], selectors=[0, 1])))
print(list(it.compress(range(10), it.cycle([True, False]))))
# ---- compress_errors
import itertools
for f in [lambda: itertools.compress([1]), lambda: itertools.compress(1, [1]), lambda: itertools.compress([1], 1)]:
    try:
        f()
    except TypeError as e:
        print(e)
# ---- while_filters
import itertools as it
nums = [1, 4, 6, 3, 8, 2]
print(list(it.takewhile(lambda x: x < 5, nums)), list(it.dropwhile(lambda x: x < 5, nums)))
print(list(it.filterfalse(lambda x: x % 2, nums)), list(it.filterfalse(None, [0, 1, "", "a", None])), list(it.filterfalse(bool, [0, 2])))
print(list(it.takewhile(bool, [])), list(it.dropwhile(bool, [1, 1])), list(it.takewhile(lambda x: True, "ab")))
def pred(x):
    print("pred", x)
    return x < 3
print(list(it.takewhile(pred, [1, 2, 3, 4, 1])), list(it.dropwhile(pred, [1, 2, 3, 4, 1])))
# ---- while_filters_errors
import itertools
for f in [lambda: itertools.dropwhile(None), lambda: itertools.dropwhile(predicate=None, iterable=[]), lambda: itertools.filterfalse(function=None, iterable=[]), lambda: itertools.takewhile(), lambda: list(itertools.takewhile(None, [1])), lambda: itertools.filterfalse(None, 3)]:
    try:
        f()
    except TypeError as e:
        print(e)
# ---- groupby
import itertools as it
data = [("eng", "ann"), ("ops", "bob"), ("eng", "cy"), ("hr", "di"), ("ops", "ed")]
for k, g in it.groupby(sorted(data), key=lambda r: r[0]):
    print(k, [name for _, name in g])
print([(k, len(list(g))) for k, g in it.groupby("aaabccdaa")])
print([k for k, g in it.groupby([])], [(k, list(g)) for k, g in it.groupby([1, 1.0, True, 2])])
print([(k, list(g)) for k, g in it.groupby(iterable=range(10), key=lambda x: x // 3)])
# ---- groupby_shared_iterator
import itertools as it
groups = list(it.groupby("aabbbc"))
print([(k, list(g)) for k, g in groups])
gb = it.groupby("aabbbc")
k1, g1 = next(gb)
print(k1, next(g1))
k2, g2 = next(gb)
print(k2, list(g1), list(g2), [k for k, g in gb])
gb = it.groupby([1, 1, 2, 2, 3])
k, g = next(gb)
print(next(g), next(g), list(g), next(gb)[0])
print(type(g).__name__, type(gb).__name__)
# ---- groupby_key_calls
import itertools as it
def key(x):
    print("key", x)
    return x // 2
for k, g in it.groupby([0, 1, 2, 5, 4], key):
    print("group", k)
# ---- groupby_errors
import itertools
for f in [lambda: itertools.groupby(), lambda: itertools.groupby(1), lambda: list(itertools.groupby([1, 2], 5))]:
    try:
        f()
    except TypeError as e:
        print(e)
# ---- islice
import itertools as it
s = "abcdefghij"
print(list(it.islice(s, 3)), list(it.islice(s, 2, 8, 2)), list(it.islice(s, 8, None)), list(it.islice(s, None)))
print(list(it.islice(range(100), 95, None, 2)), list(it.islice(s, 0)), list(it.islice(s, 3, 3)), list(it.islice(s, 5, 2)), list(it.islice(s, None, None, None)))
print(list(it.islice(s, 1, 100, 3)), list(it.islice(it.count(), 2, 20, 7)), list(it.islice(s, True, 3)))
src = iter(range(10))
print(list(it.islice(src, 2)), next(src), list(it.islice(src, 1, 3)), next(src))
x = it.islice(iter("abc"), 1)
print(list(x), list(x))
# ---- islice_errors
import itertools
for args in [("abc", -1), ("abc", -2), ("abc", 1.5), ("abc", 2**70), ("abc", 1.5, 3), ("abc", 2**70, 3), ("abc", 1, 2**70), ("abc", 1, -1), ("abc", 1, 3, 0), ("abc", 1, 3, -1), ("abc", 1, 3, 1.0), ("abc", 1, 3, 2**70), (5, 1), (5, -1), ("abc",), ("abc", 1, 2, 3, 4)]:
    try:
        itertools.islice(*args)
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
try:
    itertools.islice("abc", stop=1)
except TypeError as e:
    print(e)
# ---- pairwise
import itertools as it
print(list(it.pairwise([1, 4, 9, 16])), [y - x for x, y in it.pairwise([1, 4, 9, 16])], list(it.pairwise("a")), list(it.pairwise("")))
print(list(it.pairwise(range(4))), list(it.pairwise(iter("abc"))))
# ---- pairwise_errors
import itertools
for f in [lambda: itertools.pairwise(), lambda: itertools.pairwise(iterable=[1]), lambda: itertools.pairwise(1)]:
    try:
        f()
    except TypeError as e:
        print(e)
# ---- starmap
import itertools as it
print(list(it.starmap(pow, [(2, 3), (3, 2)])), list(it.starmap(pow, [[2, 3]])), list(it.starmap(max, ["ab", "cd"])), list(it.starmap(lambda: 1, [()])))
# ---- starmap_errors
import itertools
for f in [lambda: itertools.starmap(function=None, iterable=[]), lambda: list(itertools.starmap(pow, [1])), lambda: itertools.starmap(pow), lambda: list(itertools.starmap(pow, [(1,)]))]:
    try:
        f()
    except TypeError as e:
        print(e)
# ---- zip_longest
import itertools as it
print(list(it.zip_longest("abc", [1], fillvalue="-")), list(it.zip_longest([1, 2], "x")), list(it.zip_longest()), list(it.zip_longest([])))
print(list(it.zip_longest("ab", "cde", "f")), list(it.zip_longest(range(2), fillvalue=0)))
# ---- zip_longest_errors
import itertools
for f in [lambda: itertools.zip_longest([1], x=1), lambda: itertools.zip_longest([1], fillvalue=1, x=1), lambda: itertools.zip_longest(1)]:
    try:
        f()
    except TypeError as e:
        print(e)
# ---- product
import itertools as it
print(list(it.product("ab", [1, 2])), list(it.product()), list(it.product([1], repeat=0)), list(it.product([], [1])))
print(list(it.product([0, 1], repeat=3))[:5], len(list(it.product(range(3), repeat=3))), list(it.product("ab", repeat=2)))
print(list(it.product("ab", "c", repeat=2)))
grid = ["#.#", "..#", "#.."]
print([(r, c) for r, c in it.product(range(3), range(3)) if grid[r][c] == "#"])
# ---- product_errors
import itertools
for f in [lambda: itertools.product([1], x=1), lambda: itertools.product([1], repeat=1, x=2), lambda: itertools.product([1], repeat=-1), lambda: itertools.product([1], repeat=1.0), lambda: itertools.product(1)]:
    try:
        f()
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
# ---- permutations
import itertools as it
print(list(it.permutations("abc", 2)), len(list(it.permutations(range(5)))), list(it.permutations([1, 2, 3])))
print(list(it.permutations([], 0)), list(it.permutations([1], 2)), list(it.permutations("ab", 0)), list(it.permutations(iterable=[1, 2], r=1)), list(it.permutations("abcd", 4))[-3:])
print(list(it.permutations([1], None)), list(it.permutations([1, 2], True)), sum(1 for _ in it.permutations(range(6), 3)))
# ---- permutations_errors
import itertools
for f in [lambda: itertools.permutations([1], -1), lambda: itertools.permutations([1], 1.0), lambda: itertools.permutations(), lambda: itertools.permutations(5)]:
    try:
        f()
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
# ---- combinations
import itertools as it
print(list(it.combinations("abcd", 2)), list(it.combinations(range(4), 3)), list(it.combinations([], 0)), list(it.combinations("ab", 3)), list(it.combinations("abc", 0)))
print(list(it.combinations_with_replacement("ab", 2)), list(it.combinations_with_replacement("abc", 3))[:6], list(it.combinations_with_replacement([], 0)), list(it.combinations_with_replacement([], 1)))
print(list(it.combinations_with_replacement("ab", 0)), list(it.combinations(iterable=[1, 2], r=1)), len(list(it.combinations(range(10), 4))))
items = {"a": 3, "b": 5, "c": 7, "d": 2}
print([c for r in range(1, 5) for c in it.combinations(items, r) if sum(items[k] for k in c) == 10])
# ---- combinations_errors
import itertools
for f in [lambda: itertools.combinations([1]), lambda: itertools.combinations([1], -1), lambda: itertools.combinations([1], None), lambda: itertools.combinations([1], 2**70), lambda: itertools.combinations_with_replacement([1], -1), lambda: itertools.combinations_with_replacement([1])]:
    try:
        f()
    except (TypeError, ValueError, OverflowError) as e:
        print(type(e).__name__, e)
# ---- tee
import itertools as it
a, b = it.tee([1, 2, 3])
print(list(a), list(b))
a, b, c = it.tee(iter("abcd"), 3)
print(next(a), next(a), next(b), list(c), list(a), list(b))
print(it.tee([1], 0), len(it.tee([1], 5)), type(it.tee([])[0]).__name__)
a, b = it.tee(range(3))
a2, a3 = it.tee(a)
print(next(a), list(a2), list(a3), list(b))
x, = it.tee("xy", 1)
y = x.__copy__()
print(next(x), list(y), list(x))
def g():
    print("pull 1")
    yield 1
    print("pull 2")
    yield 2
a, b = it.tee(g())
print(next(a), next(b), next(b), next(a))
# ---- tee_errors
import itertools
for f in [lambda: itertools.tee([1], -1), lambda: itertools.tee(iterable=[1]), lambda: itertools.tee([1], 2, 3), lambda: itertools.tee([1], 2.0), lambda: itertools.tee(1)]:
    try:
        f()
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
# ---- types_and_reprs
import itertools as it
print(it.chain, it.groupby, it.count, type(it.tee([1])[0]), type(next(it.groupby([1]))[1]), it._grouper, it._tee)
print(type(it.islice([], 1)).__name__, isinstance(it.chain(), it.chain), iter(it.count()) is not None)
c = it.chain([1])
print(iter(c) is c, c.__next__(), callable(it.count.__next__))
print(sorted(n for n in dir(it) if not n.startswith("__")))
# ---- subclass
import itertools as it
class C(it.chain):
    pass
c = C([1], [2])
print(list(c), type(c).__name__, isinstance(c, it.chain))
class Cnt(it.count):
    pass
print(list(it.islice(Cnt(3), 2)))
# ---- pipeline
import itertools as it
def gen(n):
    for i in it.count(1):
        if i > n:
            return
        yield i * i
evens = (x for x in gen(100) if x % 2 == 0)
print(list(it.islice(evens, 5)))
print(list(it.dropwhile(lambda x: x < 500, gen(40)))[0])
levels = ["INFO", "INFO", "WARN", "INFO", "ERROR", "ERROR"]
print([(k, len(list(g))) for k, g in it.groupby(levels)])
print(list(dict.fromkeys(it.chain("abc", "bcd"))))
# ---- next_on_exhausted
import itertools as it
c = it.chain()
print(next(c, "done"))
c.__next__()
