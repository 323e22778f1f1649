# Generators: yield, yield from, laziness, send, close, infinite generators with islice.
# ---- simple_generator
def count_up(n):
    i = 0
    while i < n:
        yield i
        i += 1
print(list(count_up(5)), sum(count_up(101)), list(count_up(0)))
g = count_up(2)
print(next(g), next(g), next(g, "done"))
# ---- generator_laziness_order
def gen():
    print("start")
    yield 1
    print("middle")
    yield 2
    print("end")
g = gen()
print("created")
for x in g:
    print("got", x)
# ---- stop_iteration_on_exhausted
def one():
    yield 1
g = one()
print(next(g))
next(g)
# ---- generator_return_value
def g():
    yield 1
    return "result"
it = g()
print(next(it))
try:
    next(it)
except StopIteration as e:
    print("StopIteration value:", e.value)
# ---- yield_from_delegation
def inner():
    yield 1
    yield 2
    return "inner done"
def outer():
    r = yield from inner()
    print("inner returned", r)
    yield from [10, 20]
    yield from "ab"
print(list(outer()))
# ---- yield_from_recursive_flatten
def flatten(x):
    if isinstance(x, (list, tuple)):
        for y in x:
            yield from flatten(y)
    else:
        yield x
print(list(flatten([1, [2, (3, [4, 5])], [], [[6]]])))
# ---- send_protocol
def accumulator():
    total = 0
    while True:
        x = yield total
        if x is None:
            break
        total += x
acc = accumulator()
print(next(acc))
print(acc.send(5), acc.send(10), acc.send(-3))
try:
    acc.send(None)
except StopIteration:
    print("stopped")
# ---- send_to_unstarted
def g():
    x = yield 1
g().send(5)
# ---- generator_close_finally
def g():
    try:
        yield 1
        yield 2
    finally:
        print("cleanup")
it = g()
print(next(it))
it.close()
print("closed")
print(list(g()))
# ---- generator_throw
def g():
    while True:
        try:
            yield "ok"
        except ValueError as e:
            print("caught", e)
            yield "recovered"
it = g()
print(next(it), it.throw(ValueError("boom")), next(it))
# ---- infinite_generator_islice
import itertools
def naturals():
    n = 1
    while True:
        yield n
        n += 1
print(list(itertools.islice(naturals(), 5)))
print(list(itertools.islice(naturals(), 10, 20, 3)))
evens = (n for n in naturals() if n % 2 == 0)
print([next(evens) for _ in range(4)])
# ---- fibonacci_generator
def fib():
    a, b = 0, 1
    while True:
        yield a
        a, b = b, a + b
import itertools
print(list(itertools.islice(fib(), 15)))
print(next(x for x in fib() if x > 1000))
print(list(itertools.takewhile(lambda x: x < 100, fib())))
# ---- generator_pipeline
lines = ["INFO start", "ERROR disk", "INFO ok", "ERROR net", "WARN slow"]
def grep(pat, it):
    for line in it:
        if pat in line:
            yield line
def field(n, it):
    for line in it:
        yield line.split()[n]
print(list(field(1, grep("ERROR", lines))))
# ---- generator_state_independent
def squares():
    for i in range(3):
        yield i * i
a, b = squares(), squares()
print(next(a), next(a), next(b), list(a), list(b))
# ---- generator_expression_vs_list_memory
g = (i * 2 for i in range(5))
print(type(g).__name__, 4 in g, list(g))
# ---- chained_generators_sum
nums = range(1, 11)
evens = (n for n in nums if n % 2 == 0)
sq = (n * n for n in evens)
print(sum(sq))
# ---- generator_in_class_iter
class Tree:
    def __init__(self, v, *kids):
        self.v, self.kids = v, kids
    def __iter__(self):
        yield self.v
        for k in self.kids:
            yield from k
t = Tree(1, Tree(2, Tree(3)), Tree(4))
print(list(t), max(t), 3 in t)
# ---- enumerate_generator_lazy
def letters():
    for c in "xyz":
        print("yield", c)
        yield c
for i, c in enumerate(letters()):
    print(i, c)
    if i == 1:
        break
# ---- generator_with_return_in_loop
def first_even(xs):
    for x in xs:
        if x % 2 == 0:
            yield x
            return
print(list(first_even([1, 3, 4, 6])), list(first_even([1])))
# ---- batched_chunks
def chunks(xs, n):
    for i in range(0, len(xs), n):
        yield xs[i:i + n]
print(list(chunks(list(range(7)), 3)), list(chunks("abcdefg", 2)))
import itertools
print(list(itertools.batched("abcdefg", 3)))
# ---- sliding_window
def window(xs, n):
    it = iter(xs)
    buf = []
    for x in it:
        buf.append(x)
        if len(buf) == n:
            yield tuple(buf)
            buf.pop(0)
print(list(window([1, 2, 3, 4, 5], 3)))
import itertools
print(list(itertools.pairwise("abcd")))
# ---- iter_with_sentinel
data = [3, 1, 4, 0, 5]
it = iter(data)
print(list(iter(lambda: next(it), 0)))
# ---- next_default_and_iter_builtin
it = iter([1, 2])
print(next(it), next(it), next(it, None), next(iter([]), "empty"))
it2 = iter({"a": 1, "b": 2})
print(list(it2), list(iter("hi")))
# ---- generator_exception_propagates
def bad():
    yield 1
    raise RuntimeError("generator failed")
for x in bad():
    print(x)
# ---- generator_running_totals
def running(xs):
    total = 0
    for x in xs:
        total += x
        yield total
print(list(running([5, 10, -3, 8])))
import itertools
print(list(itertools.accumulate([5, 10, -3, 8])), list(itertools.accumulate([3, 1, 4], max)))
# ---- yield_expression_values
def echo():
    received = []
    while len(received) < 3:
        v = yield len(received)
        received.append(v)
    yield received
e = echo()
print(next(e), e.send("a"), e.send("b"), e.send("c"))
# ---- generator_name_and_type
def gen():
    yield
g = gen()
print(type(g).__name__, gen.__name__, next(g), hasattr(g, "__next__"), iter(g) is g)
# ---- lazy_file_like_processing
text = "line one\nline two\n\nline four\n"
def nonblank(lines):
    return (l for l in lines if l.strip())
def numbered(lines):
    for n, l in enumerate(lines, 1):
        yield f"{n:03d}: {l}"
for row in numbered(nonblank(text.splitlines())):
    print(row)
