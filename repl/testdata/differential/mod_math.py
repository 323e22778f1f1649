# The math module.
# ---- constants
import math
print(math.pi, math.e, math.tau, math.inf, -math.inf, math.nan)
print(repr(math.pi), f"{math.pi:.10f}", round(math.e, 5))
# ---- sqrt_pow_exp_log
import math
print(math.sqrt(2), math.sqrt(16), math.pow(2, 10), math.exp(1), math.exp(0))
print(math.log(math.e), math.log(100, 10), math.log10(1000), math.log2(1024), math.log1p(1e-10), math.expm1(1e-10))
print(math.log(8, 2), math.log(2 ** 1000), math.isqrt(10 ** 20 + 1), math.cbrt(27.0))
# ---- sqrt_negative
import math
math.sqrt(-1)
# ---- log_zero
import math
math.log(0)
# ---- floor_ceil_trunc_round
import math
for v in [2.7, -2.7, 5.0, -0.5, 1e20]:
    print(v, math.floor(v), math.ceil(v), math.trunc(v), type(math.floor(v)).__name__)
print(math.floor(7), math.ceil(10 ** 30 + 0.0) == 10 ** 30)
# ---- trig_functions
import math
print(math.sin(0), math.cos(0), math.tan(0), math.sin(math.pi / 2), round(math.cos(math.pi), 12))
print(math.degrees(math.pi), math.radians(180), math.atan2(1, 1), math.hypot(3, 4), math.hypot(1, 2, 2))
print(math.asin(1), math.acos(1), math.atan(1) * 4, math.sinh(1), math.cosh(0), math.tanh(100))
# ---- factorial_comb_perm
import math
print(math.factorial(0), math.factorial(10), math.factorial(30))
print(math.comb(10, 3), math.comb(52, 5), math.perm(5, 2), math.perm(5), math.comb(3, 5))
print(math.prod([1, 2, 3, 4]), math.prod([]), math.prod(range(1, 21)), math.prod([0.5, 4]))
# ---- factorial_negative
import math
math.factorial(-1)
# ---- gcd_lcm_isqrt
import math
print(math.gcd(12, 18), math.gcd(0, 0), math.gcd(-4, 6), math.gcd(), math.lcm(4, 6), math.lcm())
print(math.isqrt(99), math.isqrt(100), math.isqrt(2 ** 100))
# ---- isclose_isfinite
import math
print(math.isclose(0.1 + 0.2, 0.3), math.isclose(1, 1.001, rel_tol=1e-2), math.isclose(0, 1e-10), math.isclose(0, 1e-10, abs_tol=1e-9))
print(math.isfinite(1e308), math.isinf(float("-inf")), math.isnan(float("nan")), math.isnan(1.0))
# ---- fsum_precision
import math
vals = [0.1] * 10 + [1e100, -1e100]
print(sum(vals), math.fsum(vals), math.fsum([0.1, 0.2, 0.3]), sum([0.1, 0.2, 0.3]))
# ---- copysign_fabs_fmod_modf
import math
print(math.copysign(3, -0.0), math.fabs(-2), math.fmod(-7, 3), -7 % 3, math.modf(3.75), math.modf(-2.5))
print(math.remainder(7, 3), math.frexp(8.0), math.ldexp(0.5, 4), math.nextafter(1.0, 2.0), math.ulp(1.0))
# ---- math_domain_errors_caught
import math
for f, arg in [(math.sqrt, -4), (math.log, -1), (math.acos, 2), (math.exp, 1000)]:
    try:
        print(f(arg))
    except (ValueError, OverflowError) as e:
        print(f.__name__, type(e).__name__, e)
# ---- dist_and_geometry
import math
p, q = (0, 0), (3, 4)
print(math.dist(p, q), math.dist((1, 2, 3), (4, 6, 3)))
angle = math.degrees(math.atan2(q[1] - p[1], q[0] - p[0]))
print(round(angle, 4), round(math.pi * 2.5 ** 2, 6))
# ---- statistics_by_hand
import math
data = [2, 4, 4, 4, 5, 5, 7, 9]
mean = sum(data) / len(data)
var = sum((x - mean) ** 2 for x in data) / len(data)
print(mean, var, math.sqrt(var), math.sqrt(sum((x - mean) ** 2 for x in data) / (len(data) - 1)))
# ---- integer_math_large
import math
print(math.factorial(25) // math.factorial(20), math.comb(100, 50))
print(math.gcd(2 ** 100, 6 ** 50), math.isqrt(math.factorial(20)))
# ---- math_with_ints_and_bools
import math
print(math.sqrt(True), math.floor(True), math.pow(2, True), math.ceil(-0.0), math.copysign(1, -0.0))
# ---- math_type_error
import math
math.sqrt("4")
# ---- compound_interest
import math
p, r, n, t = 1000, 0.05, 12, 10
amount = p * (1 + r / n) ** (n * t)
print(round(amount, 2), f"{amount:,.2f}", round(p * math.exp(r * t), 2))
years = math.log(2) / math.log(1 + r)
print(round(years, 3), math.ceil(years))
