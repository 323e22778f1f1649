# Cases for the fractions module; gen.py records CPython's outcome.
# ---- construct
from fractions import Fraction as F
print(F(), F(3), F(6, 4), F(-6, 4), F(6, -4), F(-6, -4), F(0, 5), F(True), F(F(1, 3)), F(F(1, 7), 5), F(F(1, 7), F(2, 3)))
print(F(0.5), F(1.47), F(-2.25), F(0.0), F(-0.0), F(1e300) == 10**300, F(2**70), F(10**30, 3))
print(F("314"), F("-35/4"), F("3.1415"), F("-47e-2"), F(" 1/2 "), F("1 / 2"), F("+7"), F(".5"), F("5."), F("1e3"), F("1E-3"), F("1_000"), F("1_0.2_5"), F("2.5e1_0"))
print(F("١٢/٣"), F("\t3.0\n"), F("0/5"), F("-0"), F("007"), F("1.d"), F("12."))
print(F(3, 4).numerator, F(3, 4).denominator, F(-3, 4).numerator, F(5).denominator, F(3, 4).as_integer_ratio(), F(4, 2).is_integer(), F(3, 2).is_integer())
print(F(3, 4).real, F(3, 4).imag, F(3, 4).conjugate(), type(F(3, 4).numerator), repr(F(1, 3)), str(F(1, 3)), str(F(4, 1)), F)
# ---- construct_zero_denominator
from fractions import Fraction
Fraction(1, 0)
# ---- construct_zero_denominator_str
from fractions import Fraction
Fraction("7/0")
# ---- construct_bad_string
from fractions import Fraction as F
for s in ["", "abc", "1/", "/2", "1.5/2", "1/-2", "inf", "nan", "1e", "1..2", "--1", "1 2", ".", "1/2/3", "0x10", "1_", "_1", "1__0", "1.dd"]:
    try:
        print(repr(s), F(s))
    except ValueError as e:
        print(repr(s), "ValueError:", e)
# ---- construct_type_errors
from fractions import Fraction as F
for args in [(1.5, 2), (1, 2.0), ([],), (None,), (1, "2"), (1j,)]:
    try:
        F(*args)
    except TypeError as e:
        print(args, "TypeError:", e)
# ---- construct_nan_inf
from fractions import Fraction as F
for x in [float("nan"), float("inf"), float("-inf")]:
    try:
        F(x)
    except (ValueError, OverflowError) as e:
        print(type(e).__name__, e)
# ---- arithmetic
from fractions import Fraction as F
a, b = F(1, 3), F(1, 6)
print(a + b, a - b, a * b, a / b, a // b, a % b, a ** 2, a ** -2, a ** 0, -a, +a, abs(-a))
print(a + 1, 1 + a, a - 1, 1 - a, a * 3, 3 * a, a / 2, 2 / a, 7 // a, a // 1, 7 % a, a % 1, 2 ** F(3), 2 ** F(1, 2), 4 ** F(-1))
print(a + 0.5, 0.5 + a, a * 1.5, a / 0.25, 1.0 - a, a ** 0.5, a + 1j, 1j * a, a ** F(1, 2))
print(F(-7, 2) // 2, F(-7, 2) % 2, F(7, 2) // -2, F(7, 2) % -2, F(-7, 2) ** -3, F(-1, 2) ** 3, F(3, 4) - F(3, 4), type(F(3, 4) - F(3, 4)))
print(True + F(1, 2), F(1, 2) * False, F(5, 2) % F(1, 3), divmod(7, 2))
# ---- zero_division_fraction
from fractions import Fraction as F
F(1, 2) / F(0)
# ---- zero_division_int
from fractions import Fraction as F
F(1, 2) / 0
# ---- zero_division_floordiv
from fractions import Fraction as F
F(1, 2) // 0
# ---- zero_division_mod
from fractions import Fraction as F
F(1, 2) % 0
# ---- zero_division_pow
from fractions import Fraction as F
F(0) ** -2
# ---- zero_division_float
from fractions import Fraction as F
F(1, 2) / 0.0
# ---- unsupported_operand
from fractions import Fraction as F
F(1, 2) + "x"
# ---- comparisons
from fractions import Fraction as F
a = F(1, 3)
print(a < F(1, 2), a <= F(1, 3), a > 0, a >= 1, a == F(2, 6), a != F(1, 3), F(1, 2) == 0.5, F(1, 3) == 1 / 3, F(2) == 2, 2 == F(2))
print(F(1, 2) < 0.6, 0.6 > F(1, 2), F(1, 2) < float("inf"), F(1, 2) > float("-inf"), F(1, 2) == float("nan"), F(1, 2) < float("nan"), F(1, 2) == 0.5 + 0j, F(1, 2) == 1j)
print(sorted([F(1, 2), 0.25, 1, F(1, 3), 0]), max(F(7, 3), 2), min(F(-1, 3), -0.5), F(1, 2) in [0.5], F(3) in {3})
# ---- compare_complex_error
from fractions import Fraction as F
F(1, 2) < 1j
# ---- compare_str_error
from fractions import Fraction as F
F(1, 2) < "a"
# ---- hashing
from fractions import Fraction as F
print(hash(F(1, 2)) == hash(0.5), hash(F(3)) == hash(3), hash(F(-1)) == hash(-1), hash(F(-1)), hash(F(1, 3)), hash(F(-1, 3)), hash(F(2**80, 3)), hash(F(1, 2**61 - 1)))
print({F(1, 2), F(2, 4), 0.5}, len({F(1, 2): 1, F(2, 4): 2}), {F(1, 2): "x"}.get(F(2, 4)))
# ---- conversions
from fractions import Fraction as F
print(int(F(7, 2)), int(F(-7, 2)), float(F(1, 3)), float(F(-7, 2)), round(F(7, 2)), round(F(5, 2)), round(F(-5, 2)), round(F(1, 3), 2), round(F(2567, 10), -1), round(F(25, 100), 1))
print(bool(F(0)), bool(F(1, 9)), type(round(F(1, 3), 2)).__name__, F(-7, 2).__floor__(), F(-7, 2).__ceil__())
print(F(7, 2).__floor__(), F(7, 2).__ceil__(), F(-7, 2).__trunc__(), F(1, 4).__round__(), F(1, 4).__float__())
# ---- float_overflow
from fractions import Fraction as F
float(F(10**400, 3))
# ---- limit_denominator
from fractions import Fraction as F
print(F("3.141592653589793").limit_denominator(10), F("3.141592653589793").limit_denominator(100), F(4321, 8765).limit_denominator(10000))
print(F(3.141592653589793).limit_denominator(), F(1, 3).limit_denominator(1), F(2, 3).limit_denominator(1), F(1, 2).limit_denominator(1), F(-5, 3).limit_denominator(2), F(0.1).limit_denominator(1000))
F(1, 3).limit_denominator(0)
# ---- from_float_and_decimal
from fractions import Fraction as F
print(F.from_float(0.1), F.from_float(3), F.from_decimal(4))
try:
    F.from_float("1.5")
except TypeError as e:
    print(e)
F.from_decimal(1.5)
# ---- formatting
from fractions import Fraction as F
x = F(1, 3)
print(f"{x}", f"{x:.3f}", f"{x:e}", f"{x:.2%}", f"{x:g}", f"{F(22, 7):.10g}", f"{F(-1, 8):+.2f}", f"{F(1234567, 1):,.2f}", f"{F(1234567, 1):_.1f}")
print(f"{x:10.3f}|", f"{x:<10.3f}|", f"{x:^11.3f}|", f"{x:*>10.2f}|", f"{F(-1, 3):=10.2f}|", f"{x:010.3f}", f"{F(-1, 3):010.3f}", f"{F(10**6):012,.1f}")
print(f"{F(5, 2):.0f}", f"{F(7, 2):.0f}", f"{F(1, 2):.0e}", f"{F(-1, 1000):z.1f}", f"{F(-1, 1000):.1f}", f"{F(0):e}", f"{F(0):g}", f"{F(100):g}", f"{F(10**20):g}", f"{F(1, 10**5):g}", f"{F(1, 10**4):g}")
print(f"{x:#.0f}", f"{F(3):#g}", f"{F(3):.3G}", f"{F(1, 3):E}", f"{F(10**6, 3):F}", f"{F(1, 3): .2f}", format(F(1, 3), ".1%"), "{:.4f}".format(F(2, 3)), f"{F(12345, 1):,g}", f"{F(1, 7):€^9.3f}")
# ---- format_errors
from fractions import Fraction as F
for spec in ["d", "10", "x", "<010f", ".f", ".01f", "1.5.f", "=+010.2f", ",_f"]:
    try:
        print(spec, format(F(1, 3), spec))
    except ValueError as e:
        print(spec, "ValueError:", e)
# ---- fraction_statistics_like
from fractions import Fraction as F
vals = [F(1, 2), F(1, 3), F(1, 6)]
print(sum(vals), sum(vals, F(0)), sum(vals) / len(vals), max(vals), sorted(vals, reverse=True), [str(v) for v in vals])
total = F(0)
for line in ["1/2 apple", "3/4 pear", "5/8 plum"]:
    total += F(line.split()[0])
print(total, float(total), f"{total:.3f}")
# ---- subclass
from fractions import Fraction
class Money(Fraction):
    def __str__(self):
        return f"${float(self):.2f}"
m = Money(7, 4)
print(m, repr(m), isinstance(m, Fraction), m.numerator, m + 1, type(m + 1).__name__)
# ---- misc_methods
from fractions import Fraction as F
x = F(3, 4)
print(x.__copy__() is x, x.__deepcopy__({}) is x, x.__reduce__(), F(3, 4) == F("0.75"), F(-3, 4).__abs__(), F.__name__, F.__module__)
# ---- negative_base_fractional_power
from fractions import Fraction as F
print(F(-8) ** F(1, 3))
# ---- math_floor_ceil
from fractions import Fraction as F
import math
print(math.floor(F(7, 2)), math.ceil(F(7, 2)), math.trunc(F(-7, 2)), math.floor(F(-7, 2)), math.ceil(F(-7, 2)), math.floor(F(10**30 + 1, 1)) == 10**30 + 1)
# ---- divmod_builtin
from fractions import Fraction as F
print(divmod(F(7, 2), 2), divmod(7, F(2, 3)), divmod(F(7, 2), 0.5))
# ---- complex_builtin
from fractions import Fraction as F
print(complex(F(1, 2)))
# ---- dict_key_equal_int
from fractions import Fraction as F
print({1: "one"}[F(1)], {F(2): "two"}[2], {0.5: "half"}[F(1, 2)])
# ---- argument_errors
from fractions import Fraction as F
for f in [lambda: F(1, 2, 3), lambda: F(1).limit_denominator(1, 2), lambda: F(x=1), lambda: F.from_float(), lambda: F(1).__round__(1, 2)]:
    try:
        f()
    except TypeError as e:
        print(e)
print(F(numerator=3, denominator=6), F(denominator=2), F(1).limit_denominator(max_denominator=5))
