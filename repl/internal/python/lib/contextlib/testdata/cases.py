# Cases for the contextlib module; gen.py records CPython's output.
# ---- contextmanager_basic
from contextlib import contextmanager, suppress
@contextmanager
def tag(name):
    print(f"<{name}>")
    try:
        yield name.upper()
    finally:
        print(f"</{name}>")
with tag("p") as t:
    print("content", t)
with suppress(KeyError):
    {}["x"]
    print("not printed")
print("suppressed", tag.__name__, type(tag("x")).__name__, tag.__wrapped__.__name__)
# ---- contextmanager_exceptions
from contextlib import contextmanager
@contextmanager
def catching():
    try:
        yield
    except ValueError as e:
        print("caught", e)
with catching():
    raise ValueError("v")
print("after")
@contextmanager
def passthrough():
    yield
try:
    with passthrough():
        raise KeyError("k")
except KeyError as e:
    print("propagated", repr(e))
@contextmanager
def replacing():
    try:
        yield
    except ValueError:
        raise RuntimeError("replaced")
try:
    with replacing():
        raise ValueError("orig")
except RuntimeError as e:
    print("replaced:", e, repr(e.__context__))
# ---- contextmanager_protocol_errors
from contextlib import contextmanager
@contextmanager
def noyield():
    if False:
        yield
@contextmanager
def twice():
    yield 1
    yield 2
for cm in [noyield(), twice()]:
    try:
        with cm:
            pass
    except RuntimeError as e:
        print(e)
@contextmanager
def swallow_twice():
    try:
        yield
    except Exception:
        yield
try:
    with swallow_twice():
        raise ValueError("x")
except RuntimeError as e:
    print(e)
# ---- contextmanager_decorator
from contextlib import contextmanager
@contextmanager
def logged(name):
    print("enter", name)
    yield
    print("exit", name)
@logged("deco")
def work(x):
    print("working", x)
    return x * 2
print(work(3), work(4))
# ---- suppress_and_null
from contextlib import suppress, nullcontext
with suppress(KeyError, IndexError):
    [][1]
with suppress():
    pass
try:
    with suppress(KeyError):
        raise ValueError("not suppressed")
except ValueError as e:
    print("ValueError", e)
with nullcontext(5) as v:
    print(v)
with nullcontext() as v:
    print(v)
with suppress(Exception):
    1 / 0
print("ok")
# ---- closing
from contextlib import closing
class Res:
    def close(self):
        print("closed")
with closing(Res()) as r:
    print(type(r).__name__)
try:
    with closing(Res()):
        raise KeyError("k")
except KeyError:
    print("propagated after close")
# ---- exit_stack
from contextlib import ExitStack, contextmanager
@contextmanager
def tag(name):
    print("<" + name + ">")
    yield name
    print("</" + name + ">")
with ExitStack() as stack:
    stack.callback(print, "cb1")
    print(stack.enter_context(tag("a")))
    stack.callback(print, "cb2", end="!\n")
    print("in stack")
with ExitStack() as s:
    s.push(lambda *a: print("exit", a[0].__name__ if a[0] else None) or True)
    raise ValueError("suppressed by push")
print("ok")
with ExitStack() as s:
    names = [s.enter_context(tag(n)) for n in "xyz"]
    print(names)
s2 = ExitStack()
s2.callback(print, "closed later")
moved = s2.pop_all()
s2.close()
moved.close()
try:
    with ExitStack() as s:
        s.callback(print, "cleanup")
        raise KeyError("kept")
except KeyError as e:
    print("kept", e)
# ---- exit_stack_errors
from contextlib import ExitStack
class NotCM:
    pass
try:
    with ExitStack() as s:
        s.enter_context(NotCM())
except TypeError as e:
    print(e)
def bad(*a):
    raise RuntimeError("from callback")
try:
    with ExitStack() as s:
        s.push(bad)
        raise ValueError("original")
except RuntimeError as e:
    print("RuntimeError", e, repr(e.__context__))
# ---- redirect
from contextlib import redirect_stdout, redirect_stderr
import sys
class Buf:
    def __init__(self):
        self.parts = []
    def write(self, s):
        self.parts.append(s)
        return len(s)
    def flush(self):
        pass
b = Buf()
with redirect_stdout(b) as target:
    print("captured", 1)
    sys.stdout.write("direct\n")
    print("to stderr", file=sys.stderr)
print("back", target is b, repr("".join(b.parts)))
e = Buf()
with redirect_stderr(e):
    print("err", file=sys.stderr)
print(repr("".join(e.parts)))
# ---- abstract_context_manager
from contextlib import AbstractContextManager, ContextDecorator
class CM(AbstractContextManager):
    def __exit__(self, *a):
        print("exit")
with CM() as c:
    print(type(c).__name__)
class Duck:
    def __enter__(self):
        return self
    def __exit__(self, *a):
        pass
print(isinstance(Duck(), AbstractContextManager), isinstance(1, AbstractContextManager), issubclass(Duck, AbstractContextManager))
class mycontext(ContextDecorator):
    def __enter__(self):
        print("starting")
        return self
    def __exit__(self, *exc):
        print("finishing")
        return False
@mycontext()
def function():
    print("the bit in the middle")
function()
# ---- refused_async
import contextlib
contextlib.asynccontextmanager(lambda: None)
