# Core audit: exceptions. Chaining attributes, finally with control flow,
# __exit__ errors, re-raising, except tuples, exception groups, StopIteration
# in generators, KeyError str, assert, messages of common built-in errors.
# ---- implicit_context
try:
    try:
        1 / 0
    except ZeroDivisionError:
        raise ValueError("second")
except ValueError as e:
    print(repr(e), repr(e.__context__), e.__cause__, e.__suppress_context__)
# ---- explicit_cause
try:
    try:
        {}["k"]
    except KeyError as k:
        raise RuntimeError("wrapped") from k
except RuntimeError as e:
    print(repr(e.__cause__), repr(e.__context__), e.__cause__ is e.__context__, e.__suppress_context__)
# ---- from_none
try:
    try:
        int("x")
    except ValueError:
        raise KeyError("clean") from None
except KeyError as e:
    print(e.__cause__, repr(e.__context__), e.__suppress_context__)
# ---- cause_set_explicitly
e = ValueError("v")
e.__cause__ = TypeError("t")
print(repr(e.__cause__), e.__suppress_context__)
# ---- from_non_exception_error
try:
    raise ValueError("x") from 5
except TypeError as e:
    print(e)
# ---- raise_non_exception_error
for v in [5, "s", None]:
    try:
        raise v
    except TypeError as e:
        print(e)
# ---- raise_class_instantiates
try:
    raise KeyError
except KeyError as e:
    print(repr(e), e.args, str(e) == "")
# ---- bare_raise_reraises_current
def f():
    try:
        raise ValueError("orig")
    except ValueError:
        raise
try:
    f()
except ValueError as e:
    print("caught", e)
# ---- bare_raise_without_active_exception
try:
    raise
except RuntimeError as e:
    print(type(e).__name__, e)
# ---- context_restored_after_handler
try:
    raise KeyError("a")
except KeyError:
    try:
        raise ValueError("b")
    except ValueError:
        pass
    try:
        raise
    except KeyError as e:
        print("still", repr(e))
# ---- finally_return_overrides_exception
def f():
    try:
        raise ValueError("lost")
    finally:
        return "finally wins"
print(f())
# ---- finally_return_overrides_return
def f():
    try:
        return "try"
    finally:
        return "finally"
print(f())
# ---- finally_runs_on_return_value_captured
def f():
    x = [1]
    try:
        return x
    finally:
        x.append(2)
print(f())
# ---- finally_break_swallows_exception
def f():
    for i in range(3):
        try:
            raise ValueError(i)
        finally:
            break
    return "broke", i
print(f())
# ---- finally_continue
out = []
for i in range(3):
    try:
        if i == 1:
            raise KeyError(i)
        out.append(i)
    finally:
        out.append("f%d" % i)
        continue
print(out)
# ---- try_else_finally_order
def f(fail):
    log = []
    try:
        log.append("try")
        if fail:
            raise ValueError
    except ValueError:
        log.append("except")
    else:
        log.append("else")
    finally:
        log.append("finally")
    return log
print(f(False), f(True))
# ---- nested_finally_order
log = []
def f():
    try:
        try:
            return "r"
        finally:
            log.append("inner")
    finally:
        log.append("outer")
print(f(), log)
# ---- exception_in_finally_replaces
try:
    try:
        raise ValueError("first")
    finally:
        raise KeyError("second")
except Exception as e:
    print(repr(e), repr(e.__context__))
# ---- exception_in_exit
class CM:
    def __enter__(self):
        return self
    def __exit__(self, *a):
        raise RuntimeError("from exit")
try:
    with CM():
        raise ValueError("body")
except RuntimeError as e:
    print(repr(e), repr(e.__context__))
# ---- exit_receives_exception_info
class CM:
    def __enter__(self):
        return self
    def __exit__(self, et, ev, tb):
        print(et.__name__, repr(ev), tb is not None)
        return False
try:
    with CM():
        raise KeyError("k")
except KeyError as e:
    print("propagated", e)
# ---- exit_suppression_truthy
class CM:
    def __enter__(self):
        return 1
    def __exit__(self, *a):
        return "yes"
with CM():
    raise ValueError
print("suppressed")
# ---- with_multiple_managers_order
class CM:
    def __init__(self, n):
        self.n = n
    def __enter__(self):
        print("enter", self.n)
        return self.n
    def __exit__(self, *a):
        print("exit", self.n)
with CM(1) as a, CM(2) as b:
    print("body", a, b)
# ---- with_enter_fails_second
class CM:
    def __init__(self, n, fail=False):
        self.n, self.fail = n, fail
    def __enter__(self):
        if self.fail:
            raise OSError("enter failed")
        return self
    def __exit__(self, *a):
        print("exit", self.n)
try:
    with CM(1), CM(2, True):
        print("never")
except OSError as e:
    print(e)
# ---- with_non_context_manager
try:
    with 5:
        pass
except TypeError as e:
    print(e)
class OnlyEnter:
    def __enter__(self):
        return self
try:
    with OnlyEnter():
        pass
except TypeError as e:
    print(e)
# ---- nested_handlers_reraise
def f():
    try:
        try:
            [][0]
        except IndexError as e:
            raise LookupError("outer") from e
    except LookupError as e:
        return type(e.__cause__).__name__, str(e)
print(f())
# ---- except_tuple
for exc in [ValueError("v"), KeyError("k"), TypeError("t")]:
    try:
        raise exc
    except (ValueError, KeyError) as e:
        print("tuple caught", type(e).__name__)
    except Exception as e:
        print("other", type(e).__name__)
# ---- except_order_first_match
try:
    raise KeyError("x")
except LookupError:
    print("LookupError first")
except KeyError:
    print("KeyError")
# ---- except_non_exception_class
try:
    try:
        raise ValueError
    except 5:
        pass
except TypeError as e:
    print(e)
# ---- exception_group_refused
try:
    raise ExceptionGroup("grp", [ValueError(1), TypeError(2)])
except* ValueError as eg:
    print("values", eg.exceptions)
except* TypeError as eg:
    print("types", eg.exceptions)
# ---- exception_group_plain
eg = ExceptionGroup("many", [ValueError("a"), KeyError("b")])
print(eg.message, len(eg.exceptions), str(eg))
# ---- stop_iteration_in_generator_becomes_runtime_error
def gen():
    yield 1
    raise StopIteration("inner")
g = gen()
print(next(g))
try:
    next(g)
except RuntimeError as e:
    print(type(e).__name__, e, repr(e.__cause__))
# ---- next_inside_generator_leaks_stop
def firsts(its):
    for it in its:
        yield next(it)
try:
    print(list(firsts([iter([1]), iter([])])))
except RuntimeError as e:
    print(e)
# ---- key_error_str_forms
for k in ["a", 1, (1, 2), (), ("x",), None, ""]:
    try:
        {}[k]
    except KeyError as e:
        print(repr(str(e)), repr(e), e.args)
# ---- key_error_multiple_args
e = KeyError("a", "b")
print(str(e), repr(e))
# ---- exception_str_and_repr_variants
for e in [ValueError(), ValueError("x"), ValueError("x", 2), ValueError(5), ValueError(None), Exception("a", "b")]:
    print(repr(str(e)), repr(e), e.args)
# ---- assert_messages
try:
    assert 1 == 2, "one is not two"
except AssertionError as e:
    print(repr(e), e.args)
try:
    assert False
except AssertionError as e:
    print(repr(e), e.args)
try:
    assert [], ["list", "msg"]
except AssertionError as e:
    print(e, e.args)
# ---- assert_message_not_evaluated_when_true
def boom():
    raise RuntimeError("evaluated")
assert True, boom()
print("ok")
# ---- common_builtin_errors_messages
cases = [
    "1 / 0", "1 // 0", "1 % 0", "1.0 / 0", "1.0 // 0.0", "divmod(1, 0)", "2 ** -1 % 0",
    "[1][5]", "(1,)[2]", "'abc'[10]", "{}['x']", "[].pop()", "{}.popitem()", "set().pop()",
    "[1].remove(2)", "[1].index(5)", "'abc'.index('z')", "int('abc')", "float('x')", "int('')",
    "int(None)", "float([])", "'a' + 1", "1 + 'a'", "[] + ()", "'a' * 'b'", "None + 1",
    "len(5)", "iter(5)", "next(iter([]))", "hash([])", "{[]: 1}", "{[1]}", "ord('ab')", "chr(-1)",
    "range(1.5)", "'x'.join([1])", "sum(['a', 'b'])", "int('5', 1)", "[1, 2][1.0]", "'abc'['a']",
    "{}.keys()[0]", "None[0]", "5[0]", "(1).real = 2", "del (1).real",
]
for src in cases:
    try:
        if src.startswith("(1).real") or src.startswith("del"):
            exec(src)
        else:
            eval(src)
        print("no error", src)
    except Exception as e:
        print(f"{src}: {type(e).__name__}: {e}")
# ---- unpacking_errors
for src in ["a, b = [1]", "a, b = [1, 2, 3]", "a, b = 5", "a, *b, c = [1]", "(a,) = ()", "a, b = 'abc'"]:
    try:
        exec(src)
    except (ValueError, TypeError) as e:
        print(type(e).__name__, e)
# ---- unpacking_error_from_iterator
def gen():
    yield 1
    yield 2
    yield 3
try:
    a, b = gen()
except ValueError as e:
    print(e)
try:
    a, b, c, d = gen()
except ValueError as e:
    print(e)
# ---- exception_attributes_args_mutation
e = ValueError("a")
e.args = ("b", "c")
print(str(e), repr(e))
e.extra = 5
print(e.extra)
# ---- exception_hierarchy_checks
print(issubclass(KeyError, LookupError), issubclass(IndexError, LookupError), issubclass(ZeroDivisionError, ArithmeticError))
print(issubclass(UnboundLocalError, NameError), issubclass(ModuleNotFoundError, ImportError), issubclass(RecursionError, RuntimeError))
print(issubclass(NotImplementedError, RuntimeError), issubclass(FileNotFoundError, OSError), issubclass(StopIteration, Exception))
print(issubclass(KeyboardInterrupt, Exception), issubclass(SystemExit, BaseException), issubclass(GeneratorExit, Exception))
print(issubclass(UnicodeDecodeError, ValueError), issubclass(TimeoutError, OSError), issubclass(BrokenPipeError, ConnectionError))
print([c.__name__ for c in KeyError.__mro__])
# ---- custom_exception_str_override
class MyErr(Exception):
    def __str__(self):
        return "custom!"
try:
    raise MyErr(1, 2)
except MyErr as e:
    print(str(e), e.args, repr(e))
# ---- exception_with_init_no_super
class E(Exception):
    def __init__(self, a, b):
        self.a = a
try:
    raise E(1, 2)
except E as e:
    print(e.args, str(e), e.a)
# ---- exception_in_handler_context
try:
    try:
        raise ValueError("A")
    except ValueError:
        {}["missing"]
except KeyError as e:
    print(repr(e), repr(e.__context__))
# ---- exception_in_generator_propagates
def g():
    yield 1
    1 / 0
try:
    for x in g():
        print(x)
except ZeroDivisionError as e:
    print("caught", e)
# ---- return_in_try_with_finally_side_effect
count = 0
def f():
    global count
    for i in range(5):
        try:
            if i == 2:
                return i
        finally:
            count += 1
print(f(), count)
# ---- try_except_else_return
def f(x):
    try:
        v = 10 / x
    except ZeroDivisionError:
        return "div0"
    else:
        return v
    finally:
        print("fin", x)
print(f(2), f(0))
# ---- loop_else_with_break_and_exception
for i in range(3):
    if i == 5:
        break
else:
    print("no break")
for i in range(3):
    if i == 1:
        break
else:
    print("unreachable")
while False:
    pass
else:
    print("while else")
# ---- exception_traceback_attribute_exists
try:
    raise ValueError
except ValueError as e:
    print(e.__traceback__ is not None, type(e.__traceback__).__name__)
# ---- with_traceback_returns_self
e = ValueError("x")
print(e.with_traceback(None) is e)
# ---- exception_notes
e = ValueError("base")
e.add_note("note one")
e.add_note("note two")
print(e.__notes__, str(e))
# ---- system_exit_catchable
try:
    raise SystemExit(3)
except SystemExit as e:
    print("exit code", e.code)
try:
    exit()
except SystemExit as e:
    print("exit()", e.code)
# ---- base_exception_not_caught_by_exception
try:
    try:
        raise KeyboardInterrupt
    except Exception:
        print("wrong")
except BaseException as e:
    print("base", type(e).__name__)
# ---- name_error_vs_attribute_error_in_method
class C:
    def f(self):
        return self.missing_attr
    def g(self):
        return missing_name
for m in ["f", "g"]:
    try:
        getattr(C(), m)()
    except (NameError, AttributeError) as e:
        print(type(e).__name__, e)
# ---- os_error_subclasses_errno
e = FileNotFoundError(2, "No such file", "x.txt")
print(e.errno, e.strerror, e.filename, str(e))
e2 = OSError("plain")
print(e2.errno, str(e2))
# ---- unicode_errors_messages
try:
    "é".encode("ascii")
except UnicodeEncodeError as e:
    print(e, e.start, e.end, e.reason)
try:
    b"\xff".decode("utf-8")
except UnicodeDecodeError as e:
    print(e, e.start, e.reason)
# ---- stopiteration_value
def g():
    yield 1
    return "done"
it = g()
next(it)
try:
    next(it)
except StopIteration as e:
    print(repr(e.value), e.args)
# ---- exception_equality_identity
a = ValueError("x")
b = ValueError("x")
print(a == b, a == a, a.args == b.args)
# ---- raise_in_except_with_from_none_context_kept
try:
    try:
        1 / 0
    except ZeroDivisionError:
        raise ValueError("v") from None
except ValueError as e:
    print(type(e.__context__).__name__, e.__suppress_context__, e.__cause__)
# ---- sys_exc_info_and_exception
import sys
print(sys.exc_info())
try:
    raise ValueError("x")
except ValueError:
    t, v, tb = sys.exc_info()
    print(t.__name__, repr(v), tb is not None, sys.exception() is v)
print(sys.exc_info()[0], sys.exception())
# ---- traceback_module_formatting
import sys
import traceback
try:
    {}["k"]
except KeyError:
    s = traceback.format_exc()
    print(s.splitlines()[0], s.splitlines()[-1])
    print(traceback.format_exception_only(*sys.exc_info()[:2]))
e = ValueError("z")
print(traceback.format_exception_only(type(e), e), "".join(traceback.format_exception(e)).strip())
# ---- traceback_print_exc_frames
import sys
import traceback
def f():
    raise KeyError("deep")
try:
    f()
except Exception as ex:
    lines = traceback.format_exception(ex)
    print(len(lines), lines[0].strip(), lines[-1].strip())
    traceback.print_exc(file=sys.stdout)
# ---- contextlib_contextmanager
import contextlib
@contextlib.contextmanager
def cm(tag):
    print("enter", tag)
    try:
        yield tag.upper()
    except ValueError as e:
        print("handled", e)
    finally:
        print("exit", tag)
with cm("a") as v:
    print(v)
with cm("b"):
    raise ValueError("inside")
try:
    with cm("c"):
        raise KeyError("k")
except KeyError as e:
    print("propagated", e)
with contextlib.suppress(ZeroDivisionError):
    1 / 0
print("suppressed")
