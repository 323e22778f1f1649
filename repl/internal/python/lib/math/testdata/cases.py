# Cases for the math module; gen.py records CPython's output.
# ---- constants
import math
print(math.pi, math.e, math.tau, math.inf, -math.inf, math.nan, type(math.pi).__name__)
print(repr(math.pi), f"{math.pi:.10f}", round(math.e, 5), math.tau == 2 * math.pi, math.isnan(math.nan))
# ---- names
import math
print(sorted(n for n in dir(math) if not n.startswith("_")))
print(math.sin, math.__name__)
# ---- sqrt_exp_log
import math
print(math.sqrt(2), math.sqrt(16), math.sqrt(0.0), math.sqrt(-0.0), math.sqrt(float("inf")), math.sqrt(1e-320))
print(math.exp(1), math.exp(0), math.exp(-745.2), math.exp(709.7), math.exp(-1000), math.exp(float("-inf")))
print(math.log(math.e), math.log(100, 10), math.log10(1000), math.log2(1024), math.log(8, 2), math.log(2 ** 1000))
print(math.log(10 ** 400), math.log10(10 ** 400), math.log2(2 ** 2000), math.log(10 ** 400, 2), math.log(10 ** 400, 10 ** 300))
print(math.log(True), math.log(1), math.log(0.5, 0.25), math.log1p(1e-10), math.expm1(1e-10), math.log1p(-0.5))
print(math.exp2(0.5), math.exp2(10), math.exp2(-1074), math.exp2(-1075), math.exp2(1023))
# ---- log_errors
import math
for args in [(0,), (0.0,), (-1.5,), (-(10 ** 400),), (2, 1), (2, 0), (0, 2), (float("nan"),), (float("inf"),), (2, -1)]:
    try:
        print(args, math.log(*args))
    except (ValueError, ZeroDivisionError) as e:
        print(args, type(e).__name__, e)
for f in [math.log2, math.log10, math.log1p]:
    for x in [0, -1, -1.0, float("-inf")]:
        try:
            print(f.__name__, x, f(x))
        except ValueError as e:
            print(f.__name__, x, e)
try:
    math.log1p(10 ** 400)
except OverflowError as e:
    print(e)
# ---- trig
import math
print(math.sin(0), math.cos(0), math.tan(0), math.sin(math.pi / 2), math.cos(math.pi), math.sin(math.pi), math.cos(math.pi / 2))
print(math.sin(1), math.cos(1), math.tan(1), math.sin(-2.5), math.cos(1e6), math.tan(1e22), math.sin(1e300))
print(math.asin(1), math.acos(1), math.acos(-1), math.atan(1) * 4, math.asin(0.5), math.acos(0.5), math.atan(-1e300))
print(math.atan2(1, 1), math.atan2(-1, -1), math.atan2(0.0, -0.0), math.atan2(-0.0, -1), math.atan2(1, 0), math.atan2(float("inf"), float("-inf")))
print(math.degrees(math.pi), math.radians(180), math.degrees(1), math.radians(1), math.degrees(2 ** 1000))
print(math.sin(-0.0), math.tan(-0.0), math.atan(-0.0), math.asin(-0.0), math.sin(5e-324))
# ---- trig_errors
import math
for f, x in [(math.sin, float("inf")), (math.cos, float("-inf")), (math.tan, float("inf")), (math.asin, 1.0000001), (math.acos, -2), (math.asin, float("inf"))]:
    try:
        print(f(x))
    except ValueError as e:
        print(f.__name__, x, e)
print(math.sin(float("nan")), math.atan(float("inf")), math.atan(float("-inf")), math.atan2(float("nan"), 1))
# ---- hyperbolic
import math
print(math.sinh(1), math.cosh(0), math.cosh(1), math.tanh(100), math.tanh(-0.5), math.sinh(-20), math.cosh(30))
print(math.asinh(1), math.acosh(1), math.acosh(2), math.atanh(0.5), math.asinh(-1e300), math.acosh(1e300), math.atanh(-0.25))
print(math.sinh(710), math.cosh(-710), math.tanh(float("inf")), math.asinh(float("-inf")), math.sinh(1e-300))
for f, x in [(math.sinh, 711), (math.cosh, 1000), (math.acosh, 0.5), (math.atanh, 1), (math.atanh, -1), (math.atanh, 2), (math.exp, 710), (math.expm1, 710), (math.exp2, 1024)]:
    try:
        print(f(x))
    except (ValueError, OverflowError) as e:
        print(f.__name__, x, type(e).__name__, e)
# ---- floor_ceil_trunc
import math
for v in [2.7, -2.7, 5.0, -0.5, 1e20, 2 ** 70 + 0.0, True, 7, -(10 ** 30)]:
    print(v, math.floor(v), math.ceil(v), math.trunc(v), type(math.floor(v)).__name__)
print(math.ceil(10 ** 30 + 0.0) == 10 ** 30, math.floor(-0.0), math.ceil(-0.4))
for f in [math.floor, math.ceil, math.trunc]:
    for v in [float("nan"), float("inf"), "x"]:
        try:
            f(v)
        except (ValueError, OverflowError, TypeError) as e:
            print(f.__name__, type(e).__name__, e)
# ---- floor_protocols
import math
class F:
    def __float__(self):
        return 2.5
class Fl:
    def __floor__(self):
        return "floored"
    def __ceil__(self):
        return "ceiled"
    def __trunc__(self):
        return "truncated"
class I:
    def __index__(self):
        return 7
print(math.floor(F()), math.ceil(F()), math.floor(Fl()), math.ceil(Fl()), math.trunc(Fl()), math.floor(I()))
try:
    math.trunc(F())
except TypeError as e:
    print(e)
class MyFloat(float):
    pass
class MyInt(int):
    pass
print(math.floor(MyFloat(2.5)), math.trunc(MyFloat(-2.5)), math.ceil(MyInt(3)), type(math.ceil(MyInt(3))).__name__)
# ---- float_conversion
import math
class F:
    def __float__(self):
        return 2.25
class I:
    def __index__(self):
        return 9
class Bad:
    def __float__(self):
        return "x"
print(math.sqrt(F()), math.sqrt(I()), math.sqrt(True), math.pow(2, True), math.exp(False))
for v in [Bad(), "4", None, [1], 1j]:
    try:
        math.sqrt(v)
    except TypeError as e:
        print(e)
try:
    math.sqrt(10 ** 400)
except OverflowError as e:
    print(e)
# ---- pow
import math
print(math.pow(2, 10), math.pow(2, -1), math.pow(-2, 3), math.pow(-8, 2), math.pow(0, 0), math.pow(float("nan"), 0), math.pow(1, float("nan")))
print(math.pow(2, float("inf")), math.pow(0.5, float("inf")), math.pow(float("-inf"), -3), math.pow(float("-inf"), 3), math.pow(-0.0, 3), math.pow(0.0, float("-inf")))
print(math.pow(100, 1.5), math.pow(1.1, 20), math.pow(2.0, 0.5), math.pow(-1, float("inf")))
for x, y in [(0, -1), (-0.0, -1), (-8, 1 / 3), (10, 400), (-10, 401), (0.0, -2.5)]:
    try:
        print(math.pow(x, y))
    except (ValueError, OverflowError) as e:
        print(x, y, type(e).__name__, e)
# ---- small_float_functions
import math
print(math.copysign(3, -0.0), math.copysign(-1, float("nan")), math.fabs(-2), math.fabs(-0.0), math.fmod(-7, 3), math.fmod(7.5, -2), math.fmod(-0.0, 1))
print(math.modf(3.75), math.modf(-2.5), math.modf(-0.0), math.modf(float("inf")), math.modf(float("-inf")), math.modf(float("nan")))
print(math.remainder(7, 3), math.remainder(5, 2), math.remainder(-5, 2), math.remainder(1, float("inf")), math.fmod(1, float("inf")))
print(math.frexp(8.0), math.frexp(0.0), math.frexp(-1e-310), math.frexp(float("inf")), math.frexp(3))
print(math.ldexp(0.5, 4), math.ldexp(1.0, -1074), math.ldexp(1.0, -1075), math.ldexp(1.5, -1075), math.ldexp(1.0, -(10 ** 20)), math.ldexp(0.0, 10 ** 20), math.ldexp(3, True))
for f, args in [(math.fmod, (1, 0)), (math.fmod, (float("inf"), 1)), (math.remainder, (1, 0)), (math.remainder, (float("inf"), 1)), (math.ldexp, (1.0, 10 ** 20)), (math.ldexp, (1.0, 1024)), (math.ldexp, (1.0, 2.0))]:
    try:
        print(f(*args))
    except (ValueError, OverflowError, TypeError) as e:
        print(f.__name__, args, type(e).__name__, e)
# ---- nextafter_ulp
import math
print(math.nextafter(1.0, 2.0), math.nextafter(1.0, 0.0), math.nextafter(0.0, -1), math.nextafter(0.0, 1), math.nextafter(1.0, 1.0), math.nextafter(1.0, float("nan")))
print(math.nextafter(1.0, 2.0, steps=3), math.nextafter(1.0, 0.0, steps=2), math.nextafter(1.0, 2.0, steps=0), math.nextafter(1.0, 1.0000000000000004, steps=10 ** 30), math.nextafter(-0.0, 1, steps=2))
print(math.nextafter(-1.0, 1.0, steps=2 ** 62 + 5), math.nextafter(float("inf"), 0), math.nextafter(1.7976931348623157e308, float("inf")))
print(math.ulp(1.0), math.ulp(0.0), math.ulp(-1.0), math.ulp(1e300), math.ulp(float("inf")), math.ulp(float("nan")), math.ulp(1.7976931348623157e308))
try:
    math.nextafter(1.0, 2.0, steps=-1)
except ValueError as e:
    print(e)
# ---- isclose_isfinite
import math
print(math.isclose(0.1 + 0.2, 0.3), math.isclose(1, 1.001, rel_tol=1e-2), math.isclose(0, 1e-10), math.isclose(0, 1e-10, abs_tol=1e-9))
print(math.isclose(float("inf"), float("inf")), math.isclose(float("inf"), 1e308), math.isclose(float("nan"), float("nan")), math.isclose(a=1, b=1.0))
print(math.isfinite(1e308), math.isinf(float("-inf")), math.isnan(float("nan")), math.isnan(1.0), math.isfinite(10 ** 300), math.isinf(True))
for call in [lambda: math.isclose(1, 2, rel_tol=-1), lambda: math.isclose(1, 2, 1e-9), lambda: math.isclose(1), lambda: math.isclose(1, 2, tol=1), lambda: math.isclose(1, b=2, a=3)]:
    try:
        print(call())
    except (ValueError, TypeError) as e:
        print(type(e).__name__, e)
# ---- fsum_hypot_dist
import math
vals = [0.1] * 10 + [1e100, -1e100]
print(sum(vals), math.fsum(vals), math.fsum([0.1, 0.2, 0.3]), sum([0.1, 0.2, 0.3]), math.fsum([]), math.fsum(iter([1, 2.5, True])), math.fsum([1e308, -1e308, 1]))
print(math.hypot(3, 4), math.hypot(1, 2, 2), math.hypot(), math.hypot(-3), math.hypot(3, float("nan"), float("inf")), math.hypot(1e308, 1e308))
print(math.dist((0, 0), (3, 4)), math.dist([1, 2, 3], (4, 6, 3)), math.dist(iter([1]), [4]), math.dist((), ()))
for call in [lambda: math.fsum([1e308, 1e308]), lambda: math.fsum([float("inf"), float("-inf")]), lambda: math.fsum(["a"]), lambda: math.hypot("a"), lambda: math.dist((1,), (1, 2)), lambda: math.dist(1, (1,)), lambda: math.dist((1, "x"), (1, 2))]:
    try:
        print(call())
    except (ValueError, OverflowError, TypeError) as e:
        print(type(e).__name__, e)
print(math.fsum([float("inf"), 1]), math.fsum([float("nan"), 1]))
# ---- factorial_comb_perm
import math
print(math.factorial(0), math.factorial(10), math.factorial(30), math.factorial(True), len(str(math.factorial(1000))))
print(math.comb(10, 3), math.comb(52, 5), math.perm(5, 2), math.perm(5), math.comb(3, 5), math.perm(3, 5), math.perm(5, None), math.comb(100, 50))
for call in [lambda: math.factorial(-1), lambda: math.factorial(2.0), lambda: math.factorial("2"), lambda: math.factorial(10 ** 20),
             lambda: math.comb(-1, 2), lambda: math.comb(5, -1), lambda: math.perm(5, -1), lambda: math.comb(5.0, 2), lambda: math.comb(10 ** 20, 10 ** 19),
             lambda: math.comb(5), lambda: math.perm(), lambda: math.perm(1, 2, 3)]:
    try:
        print(call())
    except (ValueError, OverflowError, TypeError) as e:
        print(type(e).__name__, e)
# ---- gcd_lcm_isqrt
import math
print(math.gcd(12, 18), math.gcd(0, 0), math.gcd(-4, 6), math.gcd(), math.gcd(7), math.gcd(12, 18, 27), math.gcd(2 ** 100, 6 ** 50))
print(math.lcm(4, 6), math.lcm(), math.lcm(0, 5), math.lcm(-4, 6), math.lcm(2 ** 100, 3), math.lcm(2, 3, 4))
print(math.isqrt(99), math.isqrt(100), math.isqrt(2 ** 100), math.isqrt(0), math.isqrt(True), math.isqrt(10 ** 40 + 1))
for call in [lambda: math.isqrt(-1), lambda: math.isqrt(2.0), lambda: math.gcd(3, 4.0), lambda: math.lcm("a"), lambda: math.gcd(a=1)]:
    try:
        print(call())
    except (ValueError, TypeError) as e:
        print(type(e).__name__, e)
# ---- prod_sumprod
import math
print(math.prod([1, 2, 3, 4]), math.prod([]), math.prod(range(1, 21)), math.prod([0.5, 4]), math.prod([2], start=1.5), math.prod(range(5), start=[1]), math.prod(["a", 3]))
print(math.sumprod([1, 2], [3, 4]), math.sumprod([1.5, 2], [3, 4]), math.sumprod([], []), math.sumprod([10 ** 20, 2], [10 ** 20, 4]), math.sumprod([0.1] * 10, [0.1] * 10))
print(math.sumprod([1, 2.5, 3], [4, 0.1, 5]), math.sumprod((True, 2), (3, 4)), math.sumprod([1e308, 1e308], [10, -10]), math.sumprod([0.1, 0.2, 0.3], [1, 1, 1]))
for call in [lambda: math.sumprod([1, 2], [3]), lambda: math.sumprod(["a", "b"], [2, 3]), lambda: math.sumprod(1, 2), lambda: math.prod([1, 2], 3), lambda: math.prod(), lambda: math.prod([1], strt=2), lambda: math.prod([2, "a"])]:
    try:
        print(call())
    except (ValueError, TypeError) as e:
        print(type(e).__name__, e)
# ---- argument_errors
import math
for call in [lambda: math.sin(), lambda: math.sin(1, 2), lambda: math.sin(x=1), lambda: math.log(), lambda: math.log(1, 2, 3), lambda: math.pow(1), lambda: math.atan2(1), lambda: math.copysign(1, 2, 3), lambda: math.hypot(x=1), lambda: math.sqrt("4")]:
    try:
        call()
    except TypeError as e:
        print(e)
# ---- statistics_by_hand
import math
data = [2, 4, 4, 4, 5, 5, 7, 9]
mean = sum(data) / len(data)
var = sum((x - mean) ** 2 for x in data) / len(data)
print(mean, var, math.sqrt(var), math.sqrt(sum((x - mean) ** 2 for x in data) / (len(data) - 1)))
p, r, n, t = 1000, 0.05, 12, 10
amount = p * (1 + r / n) ** (n * t)
print(round(amount, 2), f"{amount:,.2f}", round(p * math.exp(r * t), 2), math.log(2) / math.log(1 + r))
# ---- haversine
import math
def haversine(lat1, lon1, lat2, lon2):
    lat1, lon1, lat2, lon2 = map(math.radians, (lat1, lon1, lat2, lon2))
    a = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * 6371 * math.asin(math.sqrt(a)), 2 * 6371 * math.atan2(math.sqrt(a), math.sqrt(1 - a))
print(haversine(52.52, 13.405, 48.8566, 2.3522), haversine(40.7128, -74.006, 34.0522, -118.2437), haversine(0, 0, 0, 0))
# ---- refused_cbrt
import math
print(math.sqrt(4))
math.cbrt(27.0)
# ---- refused_erf
import math
math.erf(0.5)
# ---- refused_gamma
import math
math.gamma(5.5)
# ---- refused_lgamma
import math
math.lgamma(10)
# ---- refused_erfc
import math
math.erfc(1)
