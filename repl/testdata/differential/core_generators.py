# Core audit: generators. send, throw, close, yield from with return values,
# generator expressions, next with default, exhaustion state.
# ---- send_protocol
def acc():
    total = 0
    while True:
        x = yield total
        if x is None:
            break
        total += x
g = acc()
print(next(g), g.send(5), g.send(10))
try:
    g.send(None)
except StopIteration as e:
    print("stopped", e.value)
# ---- send_non_none_to_fresh_generator
def g():
    yield 1
gen = g()
try:
    gen.send(5)
except TypeError as e:
    print(e)
print(gen.send(None))
gen.close()
# ---- throw_caught_inside
def g():
    while True:
        try:
            yield "ready"
        except ValueError as e:
            yield "handled " + str(e)
gen = g()
print(next(gen), gen.throw(ValueError("bad")), next(gen))
gen.close()
# ---- throw_uncaught_propagates
def g():
    yield 1
    yield 2
gen = g()
next(gen)
try:
    gen.throw(KeyError("k"))
except KeyError as e:
    print("propagated", repr(e))
print(next(gen, "exhausted"))
# ---- throw_into_fresh_generator
def g():
    print("started")
    yield 1
gen = g()
try:
    gen.throw(ValueError("early"))
except ValueError as e:
    print("raised", e)
print(list(gen))
# ---- throw_class_and_finally
def g():
    try:
        yield 1
    finally:
        print("cleanup")
gen = g()
next(gen)
try:
    gen.throw(IndexError)
except IndexError as e:
    print("IndexError", repr(e))
# ---- close_runs_finally
def g():
    try:
        yield 1
        yield 2
    finally:
        print("finally on close")
gen = g()
print(next(gen))
print(gen.close())
print(next(gen, "done"))
# ---- close_generator_exit_catch_and_yield
def g():
    try:
        yield 1
    except GeneratorExit:
        yield "bad"
gen = g()
next(gen)
try:
    gen.close()
except RuntimeError as e:
    print(e)
# ---- close_generator_exit_return_value
def g():
    try:
        yield 1
    except GeneratorExit:
        return "ret"
gen = g()
next(gen)
print(gen.close())
# ---- close_unstarted_and_finished
def g():
    yield 1
a = g()
print(a.close(), list(a))
b = g()
list(b)
print(b.close())
# ---- yield_from_return_value
def inner():
    yield 1
    yield 2
    return "inner-result"
def outer():
    r = yield from inner()
    yield "got " + r
print(list(outer()))
# ---- yield_from_send_passthrough
def inner():
    a = yield "i1"
    b = yield "i2:" + str(a)
    return a + b
def outer():
    r = yield from inner()
    yield r
g = outer()
print(next(g), g.send(3), g.send(4))
g.close()
# ---- yield_from_throw_passthrough
def inner():
    try:
        yield 1
    except ValueError:
        yield "inner caught"
def outer():
    yield from inner()
    yield "outer continues"
g = outer()
next(g)
print(g.throw(ValueError), next(g))
g.close()
# ---- yield_from_iterables
def g():
    yield from [1, 2]
    yield from "ab"
    yield from range(3, 5)
    yield from {"k": 1}
print(list(g()))
# ---- yield_from_close_propagates
def inner():
    try:
        yield 1
    finally:
        print("inner closed")
def outer():
    try:
        yield from inner()
    finally:
        print("outer closed")
g = outer()
next(g)
g.close()
# ---- generator_expression_lazy_first_iter_eager
def src():
    print("src called")
    return [1, 2]
ge = (x * 2 for x in src())
print("created")
print(list(ge))
try:
    ge2 = (x for x in 5)
except TypeError as e:
    print("eager error:", e)
# ---- generator_expression_late_binding_condition
n = 1
ge = (x for x in range(5) if x > n)
n = 3
print(list(ge))
# ---- nested_generator_expressions
g = ((i, j) for i in range(3) for j in (k * i for k in range(2)))
print(list(g))
print(sum(x for x in (y * y for y in range(4))))
# ---- next_with_default
it = iter([1])
print(next(it, "d"), next(it, "d"), next(it, None))
def g():
    return
    yield
print(next(g(), "empty"))
# ---- infinite_generator_with_break
def naturals():
    n = 0
    while True:
        yield n
        n += 1
out = []
for v in naturals():
    if v > 4:
        break
    out.append(v)
print(out)
# ---- state_after_exhaustion
def g():
    yield 1
gen = g()
print(list(gen), list(gen), next(gen, "x"))
try:
    next(gen)
except StopIteration as e:
    print("StopIteration", e.value)
# ---- generator_is_iterator
def g():
    yield 1
gen = g()
print(iter(gen) is gen, hasattr(gen, "__next__"), type(gen).__name__)
# ---- generator_running_reentry
def g():
    yield me.send(None)
me = g()
try:
    next(me)
except ValueError as e:
    print(e)
# ---- generator_with_return_in_middle
def g(n):
    for i in range(n):
        if i == 2:
            return
        yield i
print(list(g(5)), list(g(1)))
# ---- generator_local_state_independent
def counter():
    c = 0
    while True:
        c += 1
        yield c
a, b = counter(), counter()
print(next(a), next(a), next(b), next(a))
a.close()
b.close()
# ---- generator_in_zip_and_enumerate
def letters():
    yield from "xyz"
print(list(zip(letters(), range(10))), list(enumerate(letters(), 1)))
# ---- zip_stops_consuming_extra
it = iter([1, 2, 3, 4])
print(list(zip(it, "ab")), list(it))
# ---- yield_expression_value_none
def g():
    x = yield 1
    print("received", x)
    yield 2
gen = g()
print(next(gen))
print(next(gen))
gen.close()
# ---- generator_exception_then_dead
def g():
    yield 1
    raise ValueError("inside")
gen = g()
next(gen)
try:
    next(gen)
except ValueError:
    print("raised")
print(next(gen, "dead"))
# ---- generator_attributes
def my_gen():
    yield 1
g = my_gen()
print(g.__name__, g.__qualname__, g.gi_running, g.gi_frame is not None)
list(g)
print(g.gi_frame)
# ---- yield_in_try_finally_with_list
def g():
    try:
        yield 1
        yield 2
    finally:
        print("fin")
print(list(g()))
# ---- generator_comprehension_as_only_argument
print(sum(x * x for x in range(5)), max(len(w) for w in ["a", "abc"]), "-".join(str(i) for i in range(3)))
# ---- pipeline_of_generators
def read(lines):
    for ln in lines:
        yield ln
def strip(lines):
    for ln in lines:
        yield ln.strip()
def nonempty(lines):
    for ln in lines:
        if ln:
            yield ln
print(list(nonempty(strip(read([" a ", "", "  ", "b"])))))
# ---- iter_callable_sentinel
data = [3, 2, 1, 0, 5]
it = iter(lambda: data.pop(0), 0)
print(list(it), data)
# ---- generator_throw_with_traceback_arg_deprecated_form
def g():
    try:
        yield
    except Exception as e:
        yield repr(e)
gen = g()
next(gen)
print(gen.throw(ValueError("one")))
gen.close()
# ---- send_after_close
def g():
    yield 1
gen = g()
next(gen)
gen.close()
try:
    gen.send(None)
except StopIteration:
    print("StopIteration after close")
# ---- generator_closure_over_loop
gens = [(lambda k: (k * i for i in range(3)))(k) for k in range(1, 3)]
print([list(g) for g in gens])
# ---- yield_from_generator_return_none
def inner():
    yield 1
def outer():
    r = yield from inner()
    yield r
print(list(outer()))
# ---- generator_return_value_in_for_ignored
def g():
    yield 1
    return 99
print([x for x in g()])
# ---- map_filter_laziness
seen = []
def f(x):
    seen.append(x)
    return x * 2
m = map(f, [1, 2, 3])
print(seen)
print(next(m), seen)
fl = filter(lambda v: v % 2, range(6))
print(next(fl), list(fl))
print(list(filter(None, [0, 1, "", "a", None, [], [0]])))
# ---- reversed_generator_error
def g():
    yield 1
try:
    reversed(g())
except TypeError as e:
    print(e)
# ---- len_of_generator_error
try:
    len(x for x in [])
except TypeError as e:
    print(e)
# ---- generator_subscript_error
def g():
    yield 1
try:
    g()[0]
except TypeError as e:
    print(e)
# ---- throw_into_generator_expression_finishes_it
ge = (x * 2 for x in range(3))
print(ge.send(None), next(ge))
try:
    ge.throw(ValueError("into genexp"))
except ValueError as e:
    print("ValueError", e)
print(list(ge))
ge = (x for x in range(5))
next(ge)
try:
    ge.throw(KeyError)
except KeyError:
    pass
print(next(ge, "done"))
ge.close()
# ---- generator_expression_attributes
g2 = (x for x in range(3))
print(g2.gi_running, g2.__name__, type(g2).__name__)
print(list(g2))
