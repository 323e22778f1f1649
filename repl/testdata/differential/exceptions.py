# Exceptions: types and messages of common errors, handling order, attributes.
# ---- key_error_repr
d = {"a": 1}
try:
    d["missing"]
except KeyError as e:
    print(type(e).__name__, e, repr(e), e.args)
try:
    d[("t", 1)]
except KeyError as e:
    print(e, e.args)
try:
    d[""]
except KeyError as e:
    print(e)
# ---- key_error_uncaught_int
{1: "a"}[2]
# ---- key_error_uncaught_str
counts = {"ok": 1}
counts["fail"] += 1
# ---- index_errors
for seq in ([1, 2], (1,), "ab", range(2)):
    try:
        seq[5]
    except IndexError as e:
        print(type(seq).__name__, e)
# ---- index_error_pop
try:
    [].pop()
except IndexError as e:
    print(e)
try:
    [1].pop(5)
except IndexError as e:
    print(e)
# ---- zero_division_messages
cases = [("1 / 0", lambda: 1 / 0), ("1 // 0", lambda: 1 // 0), ("1 % 0", lambda: 1 % 0),
         ("1.0 / 0", lambda: 1.0 / 0), ("1.0 // 0.0", lambda: 1.0 // 0.0), ("divmod(1, 0)", lambda: divmod(1, 0)),
         ("0 ** -1", lambda: 0 ** -1), ("1.5 % 0", lambda: 1.5 % 0), ("0.0 ** -1", lambda: 0.0 ** -1)]
for label, fn in cases:
    try:
        fn()
    except ZeroDivisionError as e:
        print(label, "->", e)
# ---- type_error_operands
cases = [lambda: 1 + "a", lambda: "a" + 1, lambda: [1] + (2,), lambda: {} + {}, lambda: None + 1, lambda: 3 < "x", lambda: [1] * 1.5, lambda: -"x", lambda: len(5), lambda: 1()]
for c in cases:
    try:
        c()
    except TypeError as e:
        print("TypeError:", e)
# ---- type_error_uncaught
total = 0
total += "5"
# ---- attribute_errors
for obj, name in [(5, "foo"), ("s", "push"), ([], "add"), (None, "x"), ({}, "append")]:
    try:
        getattr(obj, name)
    except AttributeError as e:
        print("AttributeError:", e)
# ---- attribute_error_uncaught
xs = [1, 2]
xs.push(3)
# ---- name_error
def f():
    return undefined_name + 1
try:
    f()
except NameError as e:
    print("NameError:", e)
print(undefined_thing)
# ---- name_error_suggestion
values = [1, 2]
print(valuse)
# ---- value_error_int
for s in ["x", "1.5", "", " ", "12a", "0x10"]:
    try:
        int(s)
    except ValueError as e:
        print("ValueError:", e)
# ---- value_error_float
for s in ["abc", "1,5", ""]:
    try:
        float(s)
    except ValueError as e:
        print("ValueError:", e)
# ---- value_error_uncaught
port = int("80a")
# ---- unbound_local_error
count = 0
def incr():
    count += 1
try:
    incr()
except UnboundLocalError as e:
    print("UnboundLocalError:", e)
    print(isinstance(e, NameError))
# ---- unbound_local_uncaught
def g():
    if False:
        y = 1
    return y
g()
# ---- stop_iteration_next
it = iter([])
try:
    next(it)
except StopIteration as e:
    print("StopIteration", repr(e), e.value)
next(iter(()))
# ---- recursion_error
def r(n):
    return r(n + 1) + 1
try:
    r(0)
except RecursionError as e:
    print("RecursionError:", type(e).__name__, isinstance(e, RuntimeError))
# ---- exception_hierarchy
print(issubclass(KeyError, LookupError), issubclass(IndexError, LookupError), issubclass(ZeroDivisionError, ArithmeticError))
print(issubclass(UnboundLocalError, NameError), issubclass(FileNotFoundError, OSError), issubclass(RecursionError, RuntimeError))
print(issubclass(ModuleNotFoundError, ImportError), issubclass(BaseException, Exception), issubclass(Exception, BaseException))
print([c.__name__ for c in KeyError.__mro__])
# ---- catch_by_base_class
for fn in [lambda: {}["k"], lambda: [][0], lambda: 1 / 0, lambda: int("z")]:
    try:
        fn()
    except LookupError as e:
        print("lookup", type(e).__name__)
    except ArithmeticError as e:
        print("arith", type(e).__name__)
    except Exception as e:
        print("other", type(e).__name__)
# ---- exception_str_and_repr
for e in [ValueError("bad value"), KeyError("k"), Exception(), Exception("a", 2), OSError(2, "No such file"), TypeError("")]:
    print(repr(str(e)), repr(e), e.args)
# ---- raise_class_not_instance
try:
    raise ValueError
except ValueError as e:
    print(repr(e), str(e) == "", e.args)
# ---- raise_non_exception
raise "not an exception"
# ---- exception_chaining_context
try:
    try:
        1 / 0
    except ZeroDivisionError:
        raise ValueError("while handling")
except ValueError as e:
    print(e, type(e.__context__).__name__, e.__cause__)
# ---- custom_exception_hierarchy
class ParseError(ValueError):
    def __init__(self, line, msg):
        super().__init__(f"line {line}: {msg}")
        self.line = line
def parse(lines):
    for i, l in enumerate(lines, 1):
        if "=" not in l:
            raise ParseError(i, f"missing '=' in {l!r}")
try:
    parse(["a=1", "b=2", "oops"])
except ValueError as e:
    print(type(e).__name__, e, e.line, isinstance(e, ParseError))
# ---- exception_in_finally_replaces
def f():
    try:
        raise KeyError("first")
    finally:
        raise ValueError("second")
try:
    f()
except Exception as e:
    print(type(e).__name__, e, type(e.__context__).__name__)
# ---- error_counting_pattern
rows = ["10", "20", "x", "30", None, "4.5", "-2"]
ok, errors = [], {}
for r in rows:
    try:
        ok.append(int(r))
    except (ValueError, TypeError) as e:
        errors[type(e).__name__] = errors.get(type(e).__name__, 0) + 1
print(ok, errors, sum(ok))
# ---- lookup_error_messages_mixed
data = {"users": [{"name": "ann"}]}
for path in [("users", 0, "name"), ("users", 1, "name"), ("groups",), ("users", 0, "age")]:
    cur = data
    try:
        for p in path:
            cur = cur[p]
        print(path, "->", cur)
    except (KeyError, IndexError) as e:
        print(path, "->", type(e).__name__, e)
# ---- type_error_call_signature
def f(a, b, *, c):
    pass
for call in [lambda: f(1), lambda: f(1, 2), lambda: f(1, 2, 3), lambda: f(1, 2, c=3, d=4)]:
    try:
        call()
    except TypeError as e:
        print(e)
# ---- type_error_not_iterable
for x in 42:
    pass
# ---- type_error_not_subscriptable
n = 5
print(n[0])
# ---- type_error_unhashable
d = {}
d[{"a": 1}] = 1
# ---- overflow_error
import math
try:
    math.exp(1000)
except OverflowError as e:
    print("OverflowError:", e)
try:
    2.0 ** 10000
except OverflowError as e:
    print("OverflowError:", e)
# ---- exception_notes
try:
    e = ValueError("base")
    e.add_note("extra context")
    raise e
except ValueError as err:
    print(err, err.__notes__)
# ---- exception_args_access
try:
    raise ValueError("code", 42, [1])
except ValueError as e:
    code, num, lst = e.args
    print(code, num, lst, str(e))
# ---- nested_try_reraise_different
def step(x):
    try:
        return {"a": 1}[x]
    except KeyError:
        raise LookupError(f"no such step: {x}")
for s in ["a", "b"]:
    try:
        print(step(s))
    except LookupError as e:
        print("caught", type(e).__name__, e)
# ---- import_error_unknown_module
import not_a_real_module_xyz
# ---- assertion_error_message
try:
    assert 1 > 2, "math is broken"
except AssertionError as e:
    print("AssertionError:", e, e.args)
# ---- exception_type_checks
errs = [ValueError(), KeyError(), TypeError(), StopIteration(), ZeroDivisionError()]
print([type(e).__name__ for e in errs if isinstance(e, (LookupError, ArithmeticError))])
print(ValueError.__name__, ValueError.__base__.__name__, KeyError.__base__.__name__)
# ---- not_implemented_error
class Base:
    def run(self):
        raise NotImplementedError
try:
    Base().run()
except NotImplementedError as e:
    print("NotImplementedError", repr(e))
# ---- runtime_error_dict_changed_size
d = {"a": 1, "b": 2}
try:
    for k in d:
        del d[k]
except RuntimeError as e:
    print("RuntimeError:", e)
print(d)
# ---- json_decode_error_type
import json
try:
    json.loads("{bad json}")
except json.JSONDecodeError as e:
    print(type(e).__name__, isinstance(e, ValueError), e.pos, e.lineno, e.colno)
json.loads("[1, 2,]")
# ---- re_error_type
import re
try:
    re.compile("(unclosed")
except re.error as e:
    print(type(e).__name__, e.pos)
re.compile("[a-")
# ---- exceptions_in_comprehension_partial_output
out = []
for x in [1, 2, 0, 4]:
    out.append(10 // x)
    print("ok", x)
# ---- exception_message_formatting
values = {"timeout": "30s"}
try:
    seconds = int(values["timeout"])
except ValueError as e:
    print(f"could not parse timeout: {e}")
try:
    values["retries"]
except KeyError as e:
    print(f"missing key {e}")
    print("missing key " + str(e))
