# Functions: defaults, *args/**kwargs, keyword-only, lambda, closures, decorators, recursion, scope.
# ---- def_and_call
def greet(name, greeting="Hello"):
    return f"{greeting}, {name}!"
print(greet("Ann"), greet("Bob", "Hi"), greet(greeting="Yo", name="Cy"))
print(greet.__name__, callable(greet), greet("x") is not None)
# ---- defaults_evaluated_once
def add(item, bucket=[]):
    bucket.append(item)
    return bucket
print(add(1), add(2), add(3, []), add(4))
def add2(item, bucket=None):
    if bucket is None:
        bucket = []
    bucket.append(item)
    return bucket
print(add2(1), add2(2))
# ---- star_args_kwargs
def f(a, *args, b=2, **kw):
    return a, args, b, kw
print(f(1))
print(f(1, 2, 3))
print(f(1, 2, b=5, c=6, d=7))
print(f(*[1, 2], **{"b": 0, "z": 9}))
# ---- keyword_only_and_positional_only
def g(a, b, /, c, *, d):
    return a + b + c + d
print(g(1, 2, 3, d=4), g(1, 2, c=3, d=4))
try:
    g(1, b=2, c=3, d=4)
except TypeError as e:
    print("TypeError:", e)
try:
    g(1, 2, 3, 4)
except TypeError as e:
    print("TypeError:", e)
# ---- missing_argument
def h(a, b):
    return a + b
h(1)
# ---- too_many_arguments
def h(a):
    return a
h(1, 2)
# ---- unexpected_keyword
def h(a):
    return a
h(a=1, z=2)
# ---- multiple_values_for_argument
def h(a, b=1):
    return a
h(1, a=2)
# ---- lambda_usage
sq = lambda x: x * x
print(sq(7), (lambda *a: sum(a))(1, 2, 3), (lambda: "const")())
pairs = [(1, "one"), (3, "three"), (2, "two")]
print(sorted(pairs, key=lambda p: p[1]), list(map(lambda p: p[0] * 10, pairs)))
print(list(filter(lambda x: x % 2, range(10))), sq.__name__)
# ---- closures_counter
def make_counter():
    count = 0
    def inc(step=1):
        nonlocal count
        count += step
        return count
    return inc
c1 = make_counter()
c2 = make_counter()
print(c1(), c1(), c1(5), c2())
# ---- closure_captures_variable_not_value
def make():
    fs = []
    for i in range(3):
        fs.append(lambda: i)
    return fs
print([f() for f in make()])
# ---- global_statement
total = 0
def bump(n):
    global total
    total += n
bump(3); bump(4)
print(total)
# ---- unbound_local
x = 10
def f():
    print(x)
    x = 5
f()
# ---- nonlocal_nested
def outer():
    x = "outer"
    def middle():
        x = "middle"
        def inner():
            nonlocal x
            x = "inner"
        inner()
        return x
    return middle(), x
print(outer())
# ---- recursion_factorial_fib
def fact(n):
    return 1 if n <= 1 else n * fact(n - 1)
def fib(n, memo={}):
    if n < 2:
        return n
    if n not in memo:
        memo[n] = fib(n - 1) + fib(n - 2)
    return memo[n]
print(fact(20), fact(25), fib(80))
# ---- recursion_tree_sum
def depth(t):
    if not isinstance(t, list):
        return 0
    return 1 + max((depth(x) for x in t), default=0)
def flatten(t):
    out = []
    for x in t:
        if isinstance(x, list):
            out.extend(flatten(x))
        else:
            out.append(x)
    return out
tree = [1, [2, [3, [4]], 5], [[6]]]
print(depth(tree), flatten(tree), sum(flatten(tree)))
# ---- recursion_limit
def down(n):
    return down(n + 1)
down(0)
# ---- decorator_simple
def shout(fn):
    def wrapper(*a, **k):
        return fn(*a, **k).upper() + "!"
    return wrapper
@shout
def hello(name):
    return "hello " + name
print(hello("ann"), hello.__name__)
# ---- decorator_with_args_and_wraps
import functools
def repeat(n):
    def deco(fn):
        @functools.wraps(fn)
        def wrapper(*a):
            return [fn(*a) for _ in range(n)]
        return wrapper
    return deco
@repeat(3)
def roll(x):
    """Return x."""
    return x
print(roll(7), roll.__name__, roll.__doc__)
# ---- decorator_counting_calls
def counted(fn):
    def w(*a):
        w.calls += 1
        return fn(*a)
    w.calls = 0
    return w
@counted
def fibc(n):
    return n if n < 2 else fibc(n - 1) + fibc(n - 2)
print(fibc(15), fibc.calls)
# ---- stacked_decorators
def tag(t):
    def d(fn):
        return lambda *a: f"<{t}>{fn(*a)}</{t}>"
    return d
@tag("b")
@tag("i")
def text(s):
    return s
print(text("hi"))
# ---- functions_are_objects
def apply(fn, *args):
    return fn(*args)
ops = {"add": lambda a, b: a + b, "mul": lambda a, b: a * b, "max": max}
print({k: apply(f, 3, 4) for k, f in ops.items()})
print(apply(str.upper, "x"), apply(len, [1, 2]))
# ---- function_attributes_and_defaults
def f(a, b=2, *c, d=4, **e):
    "doc"
    pass
print(f.__defaults__, f.__kwdefaults__, f.__doc__, f.__name__)
print(f(1) is None)
# ---- return_multiple_values
def stats(xs):
    return min(xs), max(xs), sum(xs) / len(xs)
lo, hi, mean = stats([3, 9, 4])
print(lo, hi, mean, stats([1]))
# ---- early_return_and_none
def find(xs, target):
    for i, x in enumerate(xs):
        if x == target:
            return i
print(find([4, 5, 6], 5), find([4, 5, 6], 9))
# ---- argument_unpacking_calls
def vol(l, w, h):
    return l * w * h
dims = [2, 3, 4]
print(vol(*dims), vol(**{"l": 1, "w": 2, "h": 3}), vol(2, *[3], **{"h": 5}))
print(*dims, sep="x")
print(*"abc", sep="-", end="!\n")
# ---- higher_order_compose
def compose(*fns):
    def run(x):
        for f in reversed(fns):
            x = f(x)
        return x
    return run
inc = lambda x: x + 1
dbl = lambda x: x * 2
print(compose(inc, dbl)(5), compose(dbl, inc)(5), compose()(5))
# ---- recursive_permutations
def perms(s):
    if len(s) <= 1:
        return [s]
    out = []
    for i, c in enumerate(s):
        for p in perms(s[:i] + s[i + 1:]):
            out.append(c + p)
    return out
print(perms("abc"), len(perms("abcd")))
# ---- mutual_recursion
def is_even(n):
    return True if n == 0 else is_odd(n - 1)
def is_odd(n):
    return False if n == 0 else is_even(n - 1)
print(is_even(10), is_odd(7), is_even(7))
# ---- calling_non_callable
x = 5
x()
# ---- kwargs_order_preserved
def show(**kw):
    return list(kw.items())
print(show(z=1, a=2, m=3))
# ---- default_referring_global_at_def
rate = 0.1
def tax(x, r=rate):
    return x * r
rate = 0.5
print(tax(100), tax(100, rate))
# ---- nested_function_memo
def solve():
    cache = {}
    def ways(n):
        if n <= 1:
            return 1
        if n in cache:
            return cache[n]
        cache[n] = ways(n - 1) + ways(n - 2)
        return cache[n]
    return ways(60), len(cache)
print(solve())
# ---- generator_function_vs_return
def g():
    yield 1
    return 2
print(type(g()).__name__, list(g()))
# ---- lambda_default_and_conditional
classify = lambda n, lo=0, hi=10: "low" if n < lo else "high" if n > hi else "mid"
print([classify(n) for n in (-5, 5, 50)], classify(5, hi=3))
# ---- scope_builtins_shadowing
def f():
    len = lambda x: 42
    return len("abc")
print(f(), len("abc"))
list_ = list
print(list_("ab"))
# ---- type_hints_ignored
def area(w: float, h: float = 1.0) -> float:
    return w * h
print(area(2, 3), area("ab", 2), area.__annotations__)
# ---- varargs_empty_and_sum
def total(*nums, start=0):
    return start + sum(nums)
print(total(), total(1, 2, 3), total(1, start=10), total(*range(5)))
# ---- keyword_argument_to_builtin
print(sorted([3, 1, 2], reverse=True), max([1, 2], key=lambda x: -x), int("ff", base=16))
print("x".center(5, "-"), round(number=2.567, ndigits=1))
