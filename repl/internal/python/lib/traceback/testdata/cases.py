# Cases for the traceback module; gen.py records CPython's output (stderr
# included).
# ---- format_exc_nested
import traceback
def f():
    return 1 / 0
def g():
    f()
try:
    g()
except ZeroDivisionError:
    print(traceback.format_exc(), end="")
    traceback.print_exc()
    print(repr(traceback.format_exc(limit=1)))
    print(repr(traceback.format_exc(limit=0)))
    print(repr(traceback.format_exc(limit=-1)))
# ---- no_exception
import traceback
print(repr(traceback.format_exc()))
traceback.print_exc()
print(traceback.format_exception_only(None), traceback.format_exception(None))
# ---- chained_cause
import traceback
try:
    try:
        {}["k"]
    except KeyError as e:
        raise ValueError("bad") from e
except ValueError as e:
    print("".join(traceback.format_exception(e)), end="")
    print(traceback.format_exception_only(e))
    print("".join(traceback.format_exception(type(e), e, e.__traceback__, chain=False)), end="")
    print("".join(traceback.format_exception(e, chain=False)), end="")
# ---- chained_context
import traceback
try:
    try:
        1 / 0
    except ZeroDivisionError:
        int("x")
except ValueError as e:
    traceback.print_exception(e)
try:
    try:
        1 / 0
    except ZeroDivisionError:
        raise RuntimeError("hidden context") from None
except RuntimeError as e:
    traceback.print_exception(e)
# ---- exception_only
import traceback
class E(Exception):
    def __str__(self):
        return "custom"
class Empty(Exception):
    pass
try:
    raise E()
except E as e:
    print(traceback.format_exception_only(e), traceback.format_exception_only(RuntimeError()), traceback.format_exception_only(Empty()), traceback.format_exception_only(KeyError("k")))
e = KeyError("x")
e.add_note("note 1")
e.add_note("note 2")
print(traceback.format_exception(e))
print(traceback.format_exception_only(ValueError, ValueError("v")), traceback.format_exception_only(ValueError, None))
# ---- syntax_error
import traceback
print(traceback.format_exception_only(SyntaxError("bad syntax", ("<cell>", 3, 5, "x = (1 +\n"))))
print(traceback.format_exception_only(SyntaxError("bad", ("<cell>", 1, 1, "  y\n"))))
print(traceback.format_exception_only(SyntaxError("plain")))
# ---- print_to_file
import traceback
class W:
    def __init__(self):
        self.parts = []
    def write(self, s):
        self.parts.append(s)
w = W()
try:
    [][1]
except IndexError as e:
    traceback.print_exc(file=w)
    traceback.print_exception(e, file=w)
print("".join(w.parts), end="")
# ---- module_error_names
import traceback, json
try:
    json.loads("{")
except ValueError as e:
    print(traceback.format_exception_only(e))
# ---- refused_stack
import traceback
traceback.print_stack()
