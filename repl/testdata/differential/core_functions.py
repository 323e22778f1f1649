# Core audit: functions. Parameter kinds, the TypeError messages of bad calls,
# decorators, recursion limits, lambdas as keys, closures over loop variables.
# ---- missing_positional_one
def f(a, b):
    return a + b
try:
    f(1)
except TypeError as e:
    print(e)
# ---- missing_positional_two_and_three
def f(a, b, c):
    pass
for args in [(), (1,)]:
    try:
        f(*args)
    except TypeError as e:
        print(e)
# ---- too_many_positional
def f(a, b=2):
    pass
try:
    f(1, 2, 3)
except TypeError as e:
    print(e)
def g(a):
    pass
try:
    g(1, 2)
except TypeError as e:
    print(e)
def h():
    pass
try:
    h(1)
except TypeError as e:
    print(e)
# ---- too_many_positional_with_kwonly
def f(a, *, k):
    pass
try:
    f(1, 2, k=3)
except TypeError as e:
    print(e)
try:
    f(1, 2)
except TypeError as e:
    print(e)
# ---- unexpected_keyword
def f(a):
    pass
try:
    f(1, b=2)
except TypeError as e:
    print(e)
try:
    f(a=1, zz=3, yy=4)
except TypeError as e:
    print(e)
# ---- multiple_values_for_argument
def f(a, b):
    pass
try:
    f(1, a=2)
except TypeError as e:
    print(e)
try:
    f(1, 2, **{"b": 3})
except TypeError as e:
    print(e)
# ---- missing_keyword_only
def f(*, a, b):
    pass
try:
    f()
except TypeError as e:
    print(e)
try:
    f(a=1)
except TypeError as e:
    print(e)
try:
    f(1)
except TypeError as e:
    print(e)
# ---- positional_only_passed_by_keyword
def f(a, b, /, c):
    return a, b, c
print(f(1, 2, 3), f(1, 2, c=3))
try:
    f(1, b=2, c=3)
except TypeError as e:
    print(e)
try:
    f(a=1, b=2, c=3)
except TypeError as e:
    print(e)
# ---- positional_only_name_in_kwargs
def f(a, /, **kw):
    return a, kw
print(f(1, a=2))
# ---- all_parameter_kinds
def f(a, b=2, /, c=3, *args, d, e=5, **kw):
    return a, b, c, args, d, e, kw
print(f(1, d=4))
print(f(1, 20, 30, 40, 50, d=4, z=9))
print(f(1, c=7, d=8, e=9, extra=0))
# ---- defaults_with_positional_only_missing
def f(a, b=1, /, c=2):
    pass
try:
    f()
except TypeError as e:
    print(e)
# ---- star_args_forwarding
def inner(*args, **kwargs):
    return args, kwargs
def outer(*args, **kwargs):
    return inner(*args, **kwargs)
print(outer(1, 2, x=3))
print(outer(*[1, 2], *(3,), **{"a": 1}, **{"b": 2}))
print(outer())
# ---- duplicate_keyword_in_double_star
def f(**kw):
    return kw
try:
    f(**{"a": 1}, **{"a": 2})
except TypeError as e:
    print(e)
try:
    f(a=1, **{"a": 2})
except TypeError as e:
    print(e)
# ---- double_star_non_mapping
def f(**kw):
    return kw
try:
    f(**[1, 2])
except TypeError as e:
    print(e)
try:
    f(**{1: 2})
except TypeError as e:
    print(e)
# ---- star_non_iterable
def f(*a):
    return a
try:
    f(*5)
except TypeError as e:
    print(e)
print(f(*"ab", *range(2)))
# ---- keyword_argument_order_preserved
def f(**kw):
    return list(kw)
print(f(z=1, a=2, m=3))
# ---- kwargs_is_fresh_dict
d = {"a": 1}
def f(**kw):
    kw["b"] = 2
    return kw
print(f(**d), d)
# ---- args_is_tuple
def f(*a):
    return type(a).__name__, a
print(f(), f(1), f(*[1, 2]))
# ---- builtin_function_bad_calls
tests = [
    lambda: len(),
    lambda: len([], []),
    lambda: len(5),
    lambda: abs("x"),
    lambda: sorted([1], kee=1),
    lambda: int("1", 2, 3),
    lambda: divmod(1),
    lambda: isinstance(1),
    lambda: [].append(),
    lambda: "x".split(1),
]
for t in tests:
    try:
        t()
    except TypeError as e:
        print(e)
# ---- method_missing_argument_message
class C:
    def m(self, a):
        return a
try:
    C().m()
except TypeError as e:
    print(e)
try:
    C().m(1, 2)
except TypeError as e:
    print(e)
try:
    C.m(1)
except TypeError as e:
    print(e)
# ---- init_missing_argument_message
class P:
    def __init__(self, x, y):
        pass
try:
    P(1)
except TypeError as e:
    print(e)
try:
    P(1, 2, 3)
except TypeError as e:
    print(e)
# ---- object_init_takes_no_args
class E:
    pass
try:
    E(1)
except TypeError as e:
    print(e)
try:
    object(1)
except TypeError as e:
    print(e)
# ---- lambda_bad_call
f = lambda x, y=1: x + y
try:
    f()
except TypeError as e:
    print(e)
print(f(1), f(1, 2), f(y=3, x=4))
# ---- call_non_callable
for v in [1, "s", None, [1]]:
    try:
        v()
    except TypeError as e:
        print(e)
# ---- decorator_with_arguments
def repeat(n):
    def deco(fn):
        def wrapper(*a, **k):
            return [fn(*a, **k) for _ in range(n)]
        return wrapper
    return deco
@repeat(3)
def hello(name):
    return "hi " + name
print(hello("bo"), hello.__name__)
# ---- stacked_decorators_order
log = []
def tag(t):
    def deco(fn):
        log.append("apply " + t)
        def w():
            return t + "(" + fn() + ")"
        return w
    return deco
@tag("a")
@tag("b")
def base():
    return "x"
print(base(), log)
# ---- decorator_returning_non_function
def count(fn):
    return 42
@count
def f():
    pass
print(f)
# ---- manual_wraps_copy
def deco(fn):
    def w(*a):
        return fn(*a)
    w.__name__ = fn.__name__
    w.__doc__ = fn.__doc__
    w.__wrapped__ = fn
    return w
@deco
def documented(x):
    "Doc string."
    return x
print(documented.__name__, documented.__doc__, documented.__wrapped__(5))
# ---- class_decorator
def register(cls):
    cls.registered = True
    return cls
@register
class K:
    pass
print(K.registered)
# ---- recursion_limit_error
def down(n):
    return down(n + 1)
try:
    down(0)
except RecursionError as e:
    print(type(e).__name__, e)
# ---- deep_but_ok_recursion
def depth(n):
    return 0 if n == 0 else 1 + depth(n - 1)
print(depth(500))
# ---- mutual_recursion
def even(n):
    return True if n == 0 else odd(n - 1)
def odd(n):
    return False if n == 0 else even(n - 1)
print(even(10), odd(7), even(7))
# ---- lambda_sort_keys
people = [("bob", 25), ("al", 30), ("cy", 25), ("di", 22)]
print(sorted(people, key=lambda p: p[1]))
print(sorted(people, key=lambda p: (-p[1], p[0])))
print(sorted(people, key=lambda p: p[1], reverse=True))
print(max(people, key=lambda p: p[1]), min(people, key=lambda p: len(p[0])))
# ---- closures_capturing_loop_variable
adders = []
for n in range(3):
    adders.append(lambda x: x + n)
print([a(10) for a in adders])
adders = [(lambda n: lambda x: x + n)(n) for n in range(3)]
print([a(10) for a in adders])
# ---- function_attributes
def f(a, b=1, *c, d, **e):
    "doc"
    return 1
print(f.__name__, f.__doc__, f.__defaults__, f.__kwdefaults__, f.__module__)
def g():
    pass
print(g.__doc__, g.__defaults__, g.__kwdefaults__)
# ---- function_annotations
def f(a: int, b: "str" = "x") -> list:
    return [a, b]
print(f.__annotations__)
# ---- function_equality_and_repr_free
def f():
    pass
g = f
print(f == g, f is g, callable(f), type(f).__name__)
# ---- return_none_implicit
def f():
    pass
def g():
    return
print(f(), g())
# ---- generator_function_call_doesnt_run
ran = []
def gen():
    ran.append(1)
    yield 1
g = gen()
print(ran, next(g), ran)
g.close()
# ---- keyword_argument_evaluation_order
order = []
def v(x):
    order.append(x)
    return x
def f(*a, **k):
    return a, k
f(v(1), b=v(2), *[v(3)], **{"c": v(4)})
print(order)
# ---- default_evaluation_order
order = []
def v(x):
    order.append(x)
    return x
def f(a=v(1), *, b=v(2), c=v(3)):
    pass
print(order)
# ---- call_with_unpack_generator
def f(a, b, c):
    return a * 100 + b * 10 + c
print(f(*(x for x in [1, 2, 3])))
try:
    f(*(x for x in [1, 2]))
except TypeError as e:
    print(e)
# ---- nested_function_default_referencing_outer
def outer(n):
    def inner(k=n * 2):
        return k
    return inner
print(outer(3)(), outer(4)(1))
# ---- recursion_with_memo_dict
memo = {}
def fib(n):
    if n < 2:
        return n
    if n not in memo:
        memo[n] = fib(n - 1) + fib(n - 2)
    return memo[n]
print(fib(90), len(memo))
# ---- keyword_only_after_varargs_defaults
def f(*args, sep="-", end="."):
    return sep.join(args) + end
print(f("a", "b"), f("a", sep="+"), f(end="!"))
# ---- starred_call_mixed_positions
def f(*a, **k):
    return a, sorted(k.items())
print(f(1, *[2, 3], 4, *(), x=1, **{"y": 2}, z=3))
# ---- lambda_default_and_closure
x = 1
f = lambda y=x: y + x
x = 10
print(f(), f(0))
# ---- immediately_called_lambda
print((lambda *a, **k: (a, k))(1, 2, c=3))
print((lambda: (yield))  .__name__)
# ---- function_called_with_too_many_kw_and_pos
def f(a, b):
    pass
try:
    f(1, 2, c=3)
except TypeError as e:
    print(e)
try:
    f(b=1)
except TypeError as e:
    print(e)
# ---- map_with_lambda_and_multiple_iterables
print(list(map(lambda a, b: a * b, [1, 2, 3], [4, 5])))
print(list(map(str, range(3))))
# ---- callable_instance
class Adder:
    def __init__(self, n):
        self.n = n
    def __call__(self, x, *, times=1):
        return (x + self.n) * times
a = Adder(2)
print(a(3), a(3, times=2), callable(a), callable(Adder))
try:
    a()
except TypeError as e:
    print(e)
# ---- bound_method_attributes
class C:
    def m(self):
        return 1
c = C()
bm = c.m
print(bm.__self__ is c, bm.__func__ is C.m, bm.__name__, bm())
# ---- function_dict_and_setattr
def f():
    pass
f.x = 1
setattr(f, "y", 2)
print(f.x, getattr(f, "y"), sorted(f.__dict__))
# ---- functools_partial_like_closure
def partial(fn, *a, **k):
    def w(*b, **j):
        return fn(*a, *b, **{**k, **j})
    return w
p = partial(lambda x, y, z=0: (x, y, z), 1, z=5)
print(p(2), p(2, z=6))
# ---- function_closure_cells
def f():
    x = 1
    def g():
        return x
    return g
g = f()
print(g.__closure__ is not None, len(g.__closure__), g.__closure__[0].cell_contents, f.__closure__)
# ---- sort_key_lambda_state_per_call
xs = [5, 3, 9, 1, 7]
seen, ls = [], []
print(sorted(xs, key=lambda v: (y := v * 2, seen.append(y))[0]), seen)
print(sorted(xs, key=lambda v: ls.append(locals()) or v), [d['v'] for d in ls])
print(sorted(xs, key=lambda v, k=10: (v % 3, k - v)), sorted(xs, key=lambda *a: a[0]))
def outer():
    m = 3
    return sorted(xs, key=lambda v: (v + m) % 4)
print(outer(), sorted(xs, key=lambda v: sorted([v, -v], key=lambda w: w)[0]))
print(sorted(xs, key=lambda v: eval('v * 2')), sorted([(1, 'b'), (1, 'a'), (0, 'c')], key=lambda kv: (-kv[0], kv[1])))
# ---- sort_key_lambda_frames_kept
errs = []
def g(v):
    try:
        1 / 0
    except ZeroDivisionError as e:
        errs.append(e)
    return v
print(sorted([5, 3, 9], key=lambda v: g(v)))
print([(e.__traceback__.tb_frame.f_locals, e.__traceback__.tb_frame.f_back.f_locals) for e in errs])
try:
    sorted([1, 0, 2], key=lambda v: 1 / v)
except ZeroDivisionError as e:
    print(e, e.__traceback__.tb_next.tb_frame.f_locals)
