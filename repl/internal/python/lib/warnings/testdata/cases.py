# Cases for the warnings module; gen.py records CPython's output (stderr
# included).
# ---- warn_basic
import warnings
warnings.warn("plain")
warnings.warn("runtime", RuntimeWarning)
warnings.warn(UserWarning("instance"))
warnings.warn("kw", category=DeprecationWarning)
print("after")
# ---- once_per_location
import warnings
for i in range(3):
    warnings.warn("loop")
    warnings.warn("loop %d" % (i % 2))
warnings.warn("loop")
print("done")
# ---- deprecation_in_main
import warnings
def old():
    warnings.warn("old() is deprecated", DeprecationWarning)
old()
old()
warnings.warn("pending", DeprecationWarning)
# ---- filters_default
import warnings
print(warnings.filters[:2], warnings.defaultaction, warnings.onceregistry)
# ---- category_errors
import warnings
for args in [("x", "notcat"), ("x", int), ("x", 5)]:
    try:
        warnings.warn(*args)
    except TypeError as e:
        print(e)
# ---- simplefilter_actions
import warnings
warnings.simplefilter("ignore")
warnings.warn("hidden")
warnings.simplefilter("always")
warnings.warn("shown twice")
warnings.warn("shown twice")
warnings.simplefilter("error")
try:
    warnings.warn("boom")
except UserWarning as e:
    print("raised", repr(e))
try:
    warnings.warn("boom2", RuntimeWarning)
except RuntimeWarning as e:
    print("raised", repr(e))
warnings.resetwarnings()
print(warnings.filters)
warnings.warn("after reset")
# ---- once_and_module
import warnings
warnings.simplefilter("once")
warnings.warn("one")
warnings.warn("one")
warnings.simplefilter("module")
warnings.warn("two")
warnings.warn("two")
warnings.warn("three")
# ---- filterwarnings
import warnings
warnings.filterwarnings("ignore", message="ign.*")
warnings.warn("ignored msg")
warnings.warn("IGNORE case too")
warnings.warn("not ign")
warnings.filterwarnings("error", category=RuntimeWarning)
try:
    warnings.warn("rt", RuntimeWarning)
except RuntimeWarning as e:
    print("error", e)
warnings.filterwarnings("ignore", module="__main__")
warnings.warn("module ignored")
print([(f[0], f[2], f[4]) for f in warnings.filters[:3]])
for call in [lambda: warnings.filterwarnings("bogus"), lambda: warnings.simplefilter("x"), lambda: warnings.filterwarnings("ignore", category=int), lambda: warnings.filterwarnings("ignore", message=1)]:
    try:
        call()
    except AssertionError as e:
        print("AssertionError", e)
# ---- catch_warnings_record
import warnings
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    warnings.warn("rec1")
    warnings.warn("rec2", RuntimeWarning)
    print(len(w), w[0].message, w[0].category, w[0].filename, w[0].lineno, w[1].category.__name__)
    print(str(w[0]))
warnings.warn("outside")
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    warnings.warn("quiet")
warnings.warn("loud")
with warnings.catch_warnings(action="error"):
    try:
        warnings.warn("err")
    except UserWarning as e:
        print("caught", e)
print(warnings.catch_warnings(), warnings.catch_warnings(record=True))
# ---- showwarning_override
import warnings
def show(message, category, filename, lineno, file=None, line=None):
    print("custom:", message, category.__name__, lineno)
warnings.showwarning = show
warnings.warn("via custom")
print(warnings.formatwarning("msg", UserWarning, "f.py", 3), end="")
print(repr(warnings.formatwarning("msg", RuntimeWarning, "<cell>", 3, "  x = 1  ")))
