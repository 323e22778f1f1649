# Cases for the sys module; gen.py records CPython's output.
# ---- version_info
import sys
print(sys.version_info, sys.version_info[:2], sys.version_info >= (3, 8), sys.version_info.major, sys.version_info.releaselevel, type(sys.version_info).__name__)
print(sys.version_info < (3, 13), tuple(sys.version_info), len(sys.version_info), sys.version.startswith("3.12"), sys.hexversion, sys.api_version)
major, minor, *rest = sys.version_info
print(major, minor, rest, sys.version_info == (3, 12, 1, "final", 0))
# ---- facts
import sys
print(sys.maxsize, sys.maxsize == 2 ** 63 - 1, sys.maxunicode, sys.byteorder, sys.platform, sys.float_repr_style)
print(sys.float_info)
print(sys.float_info.max, sys.float_info.epsilon, sys.float_info.dig, sys.float_info[0], len(sys.float_info))
print(sys.int_info, sys.int_info.default_max_str_digits, sys.get_int_max_str_digits(), sys.getrecursionlimit())
print(sys.hash_info.modulus, sys.hash_info.inf, sys.flags.optimize, sys.getdefaultencoding(), sys.getfilesystemencoding(), sys.intern("abc"))
# ---- struct_seq_readonly
import sys
try:
    sys.version_info.major = 4
except AttributeError as e:
    print(e)
print(type(sys.float_info).n_fields, type(sys.version_info).n_sequence_fields)
# ---- streams
import sys
n = sys.stdout.write("to stdout\n")
m = sys.stderr.write("to stderr\n")
print(n, m, sys.stdout.flush())
print("via print", file=sys.stderr)
print("via print to stdout", file=sys.stdout, end="!\n")
sys.stdout.writelines(["a\n", "b\n"])
# ---- stream_errors
import sys
for call in [lambda: sys.stdout.write(5), lambda: sys.stdout.writelines([1])]:
    try:
        call()
    except TypeError as e:
        print(type(e).__name__)
# ---- exit
import sys
for args in [(), (3,), ("msg",), (None,)]:
    try:
        sys.exit(*args)
    except SystemExit as e:
        print(repr(e), e.code, e.args)
# ---- exit_uncaught
import sys
print("before")
sys.exit(2)
print("after")
# ---- exc_info
import sys
print(sys.exc_info(), sys.exception())
try:
    1 / 0
except ZeroDivisionError:
    t, v, tb = sys.exc_info()
    print(t, repr(v), tb is None or True, sys.exception() is v)
try:
    raise KeyError("k")
except KeyError as e:
    print(sys.exc_info()[1] is e, repr(sys.exception()))
print(sys.exc_info(), sys.exception())
# ---- recursion_limit
import sys
limit = sys.getrecursionlimit()
sys.setrecursionlimit(limit)
for v in [0, -5, 1.5, "x"]:
    try:
        sys.setrecursionlimit(v)
    except (ValueError, TypeError) as e:
        print(type(e).__name__, e)
print(sys.getrecursionlimit() == limit)
# ---- refused_modules
import sys
print("start")
print("json" in sys.modules)
# ---- refused_setrecursionlimit
import sys
sys.setrecursionlimit(100000)
# ---- refused_getsizeof
import sys
sys.getsizeof([1, 2, 3])
# ---- refused_stdin
import sys
sys.stdin.readline()
