# Core audit: scoping. Closures in loops, class-body scoping, global/nonlocal,
# deleted names, comprehension isolation, walrus, defaults evaluated once,
# UnboundLocalError.
# ---- closures_in_loop_late_binding
fs = []
for i in range(3):
    fs.append(lambda: i)
print([f() for f in fs])
fs = [lambda i=i: i for i in range(3)]
print([f() for f in fs])
fs = [lambda: j for j in range(3)]
print([f() for f in fs])
# ---- closure_cell_shared_between_functions
def make():
    x = 0
    def inc():
        nonlocal x
        x += 1
        return x
    def get():
        return x
    return inc, get
inc, get = make()
inc(); inc()
print(get(), inc(), get())
# ---- closure_sees_later_assignment
def outer():
    def inner():
        return v
    v = 1
    r1 = inner()
    v = 2
    return r1, inner()
print(outer())
# ---- closure_unbound_free_variable
def outer():
    def inner():
        return v
    r = None
    try:
        r = inner()
    except NameError as e:
        print(type(e).__name__, e)
    v = 5
    return inner()
print(outer())
# ---- class_var_not_visible_in_method
class C:
    x = 10
    def m(self):
        try:
            return x
        except NameError as e:
            return "NameError: " + str(e)
print(C().m())
# ---- class_var_not_visible_in_comprehension
class C:
    xs = [1, 2, 3]
    ys = [v * 2 for v in xs]
print(C.ys)
try:
    class D:
        k = 3
        zs = [v * k for v in range(3)]
except NameError as e:
    print("NameError", e)
# ---- class_var_in_genexp_first_iter
class C:
    base = [4, 5]
    total = sum(b for b in base)
print(C.total)
# ---- class_body_sees_enclosing_function
def f():
    y = 7
    class C:
        z = y + 1
        def m(self):
            return y
    return C.z, C().m()
print(f())
# ---- class_body_local_shadowing_free
def f():
    x = "outer"
    class C:
        print(x)
        x = "class"
        print(x)
    return C.x, x
print(f())
# ---- class_body_global_vs_local
x = "global"
class C:
    y = x
    x = "class"
    z = x
print(C.y, C.z, x)
# ---- global_declared_in_function
counter = 0
def bump():
    global counter
    counter += 1
    return counter
bump(); bump()
print(counter, bump())
# ---- global_creates_name
def make_global():
    global created_later
    created_later = [1, 2]
make_global()
print(created_later)
# ---- global_in_nested_function
x = 1
def outer():
    x = 2
    def inner():
        global x
        x = 3
        return x
    inner()
    return x
print(outer(), x)
# ---- nonlocal_two_levels
def a():
    v = 1
    def b():
        def c():
            nonlocal v
            v += 10
        c()
        return v
    b()
    return v
print(a())
# ---- unbound_local_read_before_assign
x = 5
def f():
    print(x)
    x = 6
try:
    f()
except UnboundLocalError as e:
    print(type(e).__name__, isinstance(e, NameError), e)
# ---- unbound_local_augmented
n = 1
def f():
    n += 1
    return n
try:
    f()
except NameError as e:
    print(type(e).__name__, e)
# ---- unbound_local_in_branch
def f(flag):
    if flag:
        y = 1
    return y
print(f(True))
try:
    f(False)
except UnboundLocalError as e:
    print(e)
# ---- unbound_local_after_del
def f():
    z = 1
    del z
    return z
try:
    f()
except UnboundLocalError as e:
    print(e)
# ---- del_global_then_use
g1 = 3
del g1
try:
    print(g1)
except NameError as e:
    print(type(e).__name__, e)
# ---- del_twice_name_error
q = 1
del q
try:
    del q
except NameError as e:
    print(e)
# ---- del_local_twice
def f():
    a = 1
    del a
    try:
        del a
    except UnboundLocalError as e:
        return str(e)
print(f())
# ---- del_free_variable_in_closure
def f():
    x = 1
    def g():
        return x
    del x
    try:
        g()
    except NameError as e:
        return type(e).__name__ + ": " + str(e)
print(f())
# ---- comprehension_variable_isolation
x = "keep"
lst = [x for x in range(3)]
print(x, lst)
s = {x for x in "ab"}
d = {x: 1 for x in "cd"}
g = list(x for x in "ef")
print(x, sorted(s), d, g)
# ---- comprehension_loop_var_not_leaked
[leaky for leaky in range(2)]
try:
    leaky
except NameError as e:
    print(e)
# ---- nested_comprehension_scoping
m = [[i * j for j in range(3)] for i in range(3)]
print(m)
print([y for x in [[1, 2], [3]] for y in x])
print([(i, j) for i in range(3) for j in range(i)])
# ---- comprehension_sees_enclosing_function_locals
def f(k):
    return [k * v for v in range(3)], {v: k for v in "ab"}
print(f(5))
# ---- walrus_in_comprehension_binds_outer
data = [1, 5, 2, 8, 3]
big = [y for x in data if (y := x * 2) > 5]
print(big, y)
# ---- walrus_in_comprehension_function_scope
def f():
    [last := v for v in range(4)]
    return last
print(f())
# ---- walrus_in_any_last_match
values = [3, 7, 12, 5]
if any((hit := v) > 10 for v in values):
    print("first over 10:", hit)
# ---- walrus_while_loop
items = [1, 2, 3]
out = []
while (n := len(items)) > 0:
    out.append((n, items.pop()))
print(out, n)
# ---- default_argument_evaluated_once
def append_to(v, acc=[]):
    acc.append(v)
    return acc
print(append_to(1), append_to(2), append_to(3, []), append_to(4))
# ---- default_argument_captures_value_at_def
k = 10
def f(a=k):
    return a
k = 20
print(f(), f.__defaults__)
# ---- default_argument_dict_mutation_visible
def f(d={}):
    d[len(d)] = 1
    return len(d)
print(f(), f(), f.__defaults__)
# ---- kwdefaults_dict
def f(a, *, b=3, c=[]):
    return a, b, c
print(f.__kwdefaults__, f.__defaults__)
# ---- loop_variable_after_loop
for i in range(3):
    pass
print(i)
for j in []:
    pass
try:
    print(j)
except NameError as e:
    print(e)
# ---- for_target_can_be_attribute_and_subscript
class O:
    pass
o = O()
d = {}
for o.attr in range(2):
    pass
for d["k"] in "xy":
    pass
print(o.attr, d)
# ---- for_target_unpacking_nested
for (a, (b, c)), d in [((1, (2, 3)), 4)]:
    print(a, b, c, d)
for a, *rest in ["abc", [1]]:
    print(a, rest)
# ---- locals_in_function
def f(a, b=2):
    c = a + b
    return sorted(locals().items())
print(f(1))
# ---- exec_defines_into_dict
ns = {}
exec("a = 1\ndef g():\n    return a + 1\n", ns)
print(ns["a"], ns["g"](), sorted(k for k in ns if k != "__builtins__"))
# ---- eval_uses_given_globals
print(eval("x * 2", {"x": 21}))
print(eval("len(s)", {"s": "abc"}))
# ---- builtins_shadowing_and_del
len = lambda x: "shadowed"
print(len([1, 2]))
del len
print(len([1, 2]))
# ---- shadow_builtin_in_function_only
def f():
    list = "local"
    return list
print(f(), list("ab"))
# ---- name_error_message_suggestion_free
try:
    undefined_thing + 1
except NameError as e:
    print(e, e.name)
# ---- closure_over_loop_with_default_and_nonlocal
def counters():
    out = []
    for i in range(3):
        def mk(i=i):
            c = i
            def inc():
                nonlocal c
                c += 1
                return c
            return inc
        out.append(mk())
    return out
cs = counters()
print([c() for c in cs], [c() for c in cs])
# ---- function_attribute_closure
def f():
    return 1
f.calls = 0
def g():
    f.calls += 1
g(); g()
print(f.calls, f.__name__, f.__qualname__)
# ---- qualname_nested
def outer():
    def inner():
        pass
    class K:
        def m(self):
            pass
    return inner.__qualname__, K.__qualname__, K.m.__qualname__
print(outer())
# ---- lambda_qualname_and_name
f = lambda: 0
print(f.__name__, f.__qualname__)
def g():
    return lambda: 0
print(g().__qualname__)
# ---- class_scope_name_resolution_in_nested_class
class Outer:
    a = 1
    class Inner:
        try:
            b = a
        except NameError as e:
            b = "NameError"
print(Outer.Inner.b)
# ---- if_false_branch_makes_local
x = "g"
def f():
    if False:
        x = 1
    try:
        return x
    except UnboundLocalError as e:
        return "unbound: " + str(e)
print(f())
# ---- except_as_name_deleted_after_block
e = "before"
try:
    raise ValueError("v")
except ValueError as e:
    pass
try:
    print(e)
except NameError as err:
    print("NameError:", err)
# ---- global_statement_in_class_body
gv = 0
class C:
    global gv
    gv = 5
print(gv, hasattr(C, "gv"))
# ---- star_assignment_scoping
first, *middle, last = range(6)
print(first, middle, last)
*init, = "ab"
print(init)
# ---- chained_assignment_order
a = b = []
a.append(1)
print(a, b, a is b)
x = [0, 0]
i = 0
i = x[i] = 1
print(i, x)
# ---- swap_and_evaluation_order
a, b = 1, 2
a, b = b, a
print(a, b)
lst = [0, 1, 2]
i = 0
i, lst[i] = 2, 9
print(i, lst)
# ---- locals_inside_comprehension_312
def f():
    a = 1
    return [sorted(locals()) for _ in range(1)][0]
print(f())
# ---- walrus_in_comprehension_makes_function_local
x = 5
def m():
    return [x for _ in range(1)], [x := 7 for _ in range(1)]
try:
    print(m())
except NameError as e:
    print(type(e).__name__, e)
# ---- comprehension_scoping_312_inlined
def outer():
    v = 1
    def inner():
        return [v for _ in range(1)]
    v = 2
    return inner()
def r():
    i = "keep"
    [[i for i in range(2)] for _ in range(2)]
    return i
def s():
    lst = [lambda: j for j in range(2)]
    j = 10
    return [f() for f in lst]
def n():
    total = 0
    [total := total + v for v in range(4)]
    return total
print(outer(), r(), s(), n())
# ---- global_lookup_after_rebinding
def f():
    return len("abc"), x
x = 1
print([f() for _ in range(3)])
len = lambda s: -1
print(f())
x = 2
print(f())
del len
print(f())
g = globals()
for i in range(3):
    g["y%d" % i] = i
print(f(), y2)
del x
try:
    f()
except NameError as e:
    print("NameError", e)
x = 3
import builtins
orig_len = builtins.len
builtins.len = lambda s: 42
try:
    print(f())
finally:
    builtins.len = orig_len
print(f())
del builtins.len
try:
    f()
except NameError as e:
    print("NameError", e)
builtins.len = orig_len
# ---- global_lookup_after_rebinding / 2
print(f(), x)
# ---- global_lookup_in_loop_with_deletes
total = 0
for i in range(20):
    if i % 5 == 0:
        k = i
    if i % 7 == 0 and "k" in globals():
        del k
    total += k if "k" in globals() else 100
print(total)
