# Core audit: numbers. int/float/complex/bool mixing, divmod and % with
# negatives, huge ints, float repr, round, int()/float() parsing, hash,
# 2**53 comparisons, bitwise operators, pow.
# ---- bool_arithmetic
print(True + True, True * 3, -True, True / 2, True // 2, True ** 5, True & False, True | 2, True ^ True)
print(type(True + True).__name__, type(True & True).__name__, type(True & 1).__name__, sum([True, True, False]))
# ---- int_float_mixing_types
print(1 + 1.0, type(1 + 1.0).__name__, 3 / 1, type(6 // 2.0).__name__, 2 ** -1, 2 ** 0.5, (-8) ** (1 / 3))
# ---- complex_basics
z = 3 + 4j
print(z, abs(z), z.real, z.imag, z.conjugate(), z * 1j, z + 1, z == 3 + 4j, complex(1, 2), complex("1+2j"))
print(1j * 1j, (1 + 2j) / (3 - 4j), type(1j).__name__, repr(-0j), repr(complex(0, -0.0)), 2j ** 2)
# ---- complex_errors
try:
    (1 + 2j) < (2 + 3j)
except TypeError as e:
    print(e)
try:
    int(1j)
except TypeError as e:
    print(e)
try:
    1j // 2
except TypeError as e:
    print(e)
# ---- divmod_negative_ints
for a, b in [(7, 2), (-7, 2), (7, -2), (-7, -2), (0, 3), (-1, 5), (5, -1)]:
    print(a, b, a // b, a % b, divmod(a, b))
# ---- divmod_floats
for a, b in [(7.5, 2), (-7.5, 2), (7.5, -2), (-0.0, 1), (1, 0.3), (5, float("inf")), (-5, float("inf"))]:
    print(a, b, a // b, a % b, divmod(a, b))
# ---- float_mod_sign_zero
print(-0.0 % 5, 0.0 % -5, (-6.0) % 3, 6.0 % -3, -1e-20 % 1.0)
# ---- huge_ints
a = 2 ** 200
print(a, len(str(a)), a // 3 ** 50, a % 1000007, -a // 7, (-a) % 7, a.bit_length())
print(10 ** 30 + 1, 10 ** 30 * 10 ** 30 == 10 ** 60, (10 ** 20) // (10 ** 19), 7 ** 77 % 10 ** 10)
# ---- huge_int_float_conversions
print(float(2 ** 100), float(2 ** 1023), int(1e20), int(1.5e300) == 15 * 10 ** 299, int(-2.5), int(2.9999))
try:
    float(2 ** 1024)
except OverflowError as e:
    print(e)
try:
    int(float("inf"))
except OverflowError as e:
    print(e)
try:
    int(float("nan"))
except ValueError as e:
    print(e)
# ---- huge_int_true_division
print(2 ** 100 / 2 ** 98, (10 ** 400) / (10 ** 399), 1 / 3 ** 200)
try:
    10 ** 400 / 3
except OverflowError as e:
    print(e)
try:
    10 ** 400 * 1.0
except OverflowError as e:
    print(e)
# ---- float_repr_shortest
for f in [0.1, 0.2 + 0.1, 1 / 3, 1e16, 1e15, 123456789012345678.0, 1e-5, 0.0001, 1.5e-7, 2.5, 1e22, 1e23, 5e-324, 1.7976931348623157e308, -0.0, 100.0, 1e100]:
    print(repr(f), str(f))
# ---- float_special_values
inf, nan = float("inf"), float("nan")
print(inf, -inf, nan, inf - inf, inf * 0, nan == nan, nan != nan, inf == inf, inf > 10 ** 400)
print(float("-inf"), float("Infinity"), float("  nan  "), float("-NaN"), float("+inf"), float("iNfInItY"))
# ---- round_half_even
print(round(0.5), round(1.5), round(2.5), round(-0.5), round(-1.5), round(3.5))
print(round(2.675, 2), round(1.005, 2), round(0.125, 2), round(0.375, 2), round(-2.5), round(1e16 + 0.5))
print(round(12345, -2), round(12350, -2), round(12450, -2), round(-150, -2), round(5, 0), type(round(5.5)).__name__, type(round(5.5, 0)).__name__)
# ---- round_special
print(round(float("inf"), 2), round(1.23456789, 5), round(123.456, -1), round(123.456, -3))
try:
    round(float("inf"))
except OverflowError as e:
    print(e)
try:
    round(float("nan"))
except ValueError as e:
    print(e)
# ---- int_parsing_underscores_whitespace
for s in ["1_000", " 42 ", "\t-7\n", "+3", "0", "-0", "00", "1__0", "_1", "1_", "1 0", "٣", "0x10", "1.0", "  ", "12\u00a0"]:
    try:
        print(repr(s), int(s))
    except ValueError as e:
        print(repr(s), "ValueError", e)
# ---- int_parsing_bases
print(int("ff", 16), int("0xff", 16), int("0XFF", 0), int("0o17", 0), int("0b101", 0), int("z", 36), int("Z", 36))
print(int("10", 2), int("-0b11", 0), int("1_0", 0), int("0_7", 8), int(" 0x_1f ", 16))
for s, b in [("08", 0), ("12", 2), ("0b2", 0), ("g", 16), ("0x", 16), ("1", 37), ("1", 1)]:
    try:
        print(int(s, b))
    except ValueError as e:
        print("ValueError", e)
# ---- int_from_non_strings
print(int(3.99), int(-3.99), int(True), int(b"12"), int(bytearray(b"-5")))
try:
    int("12", base=10.0)
except TypeError as e:
    print(e)
try:
    int(12, 10)
except TypeError as e:
    print(e)
try:
    int([1])
except TypeError as e:
    print(e)
# ---- float_parsing_edges
for s in ["1e5", "1E-3", ".5", "5.", "-.5e-2", "1_000.5", "0x1p3", "1e", "e5", "--1", "1.2.3", "infinity", "nanx", " 3.25 ", "1_e5", "١.٥", "1e-400", "1e400"]:
    try:
        print(repr(s), float(s))
    except ValueError as e:
        print(repr(s), "ValueError", e)
# ---- float_methods
print((0.5).as_integer_ratio(), (2.0).is_integer(), (2.5).is_integer(), (1.0).hex(), float.fromhex("0x1.8p1"), (-0.75).as_integer_ratio())
# ---- int_methods
print((255).to_bytes(2, "big"), int.from_bytes(b"\x01\x00", "little"), (10).bit_length(), (-10).bit_length(), (5).bit_count(), (7).as_integer_ratio(), (-5).conjugate())
# ---- hash_of_numbers
print(hash(1), hash(1.0), hash(True), hash(0), hash(-1), hash(-2), hash(0.5), hash(2 ** 61 - 1), hash(2 ** 61), hash(-(2 ** 61)))
print(hash(1.5), hash(float("inf")), hash(-float("inf")), hash(10 ** 20), hash(1e20), hash(complex(1, 0)), hash(1 + 1j))
print(hash(1) == hash(1.0) == hash(True), {1: "a", 1.0: "b", True: "c"})
# ---- comparisons_2_pow_53
big = 2 ** 53
print(big == float(big), big + 1 == float(big + 1), float(big + 1) == big, big + 1 > float(big), big + 1 < 2.0 ** 53 + 2)
print(2 ** 63 == 2.0 ** 63, 2 ** 64 - 1 < 2.0 ** 64, 10 ** 400 > float("inf"), -10 ** 400 < -1e308, 9007199254740993 == 9007199254740992.0)
print(sorted([2 ** 53 + 1, float(2 ** 53), 2 ** 53 - 1]), max(2 ** 53 + 1, 2.0 ** 53))
# ---- int_float_equality_in_containers
print(1 in [1.0], 1.0 in {1}, {1.0: "x"}[1], [0.0] == [0], (1, 2.0) == (1.0, 2), {0, 0.0, False}, {-0.0, 0})
# ---- bitwise_ops
print(~0, ~5, ~-1, 5 & 3, 5 | 3, 5 ^ 3, -5 & 3, -5 | 3, -5 ^ 3, -1 & 0xFF)
print(1 << 100, -1 << 3, 1024 >> 3, -1024 >> 3, -1 >> 100, 5 >> 0, 2 ** 100 >> 98)
try:
    1 << -1
except ValueError as e:
    print(e)
try:
    1.0 << 1
except TypeError as e:
    print(e)
# ---- pow_three_arg_and_negative
print(pow(2, 10, 1000), pow(3, 200, 7), pow(-2, 3, 5), pow(2, -1, 7), pow(3, -2, 11), pow(5, 0, 1), pow(7, 3, -4))
try:
    pow(2, -1, 4)
except ValueError as e:
    print(e)
try:
    pow(2, 3, 0)
except ValueError as e:
    print(e)
try:
    pow(2.0, 3, 5)
except TypeError as e:
    print(e)
# ---- pow_edge_values
print(0 ** 0, 0.0 ** 0, (-1) ** 0.5, (-8) ** 2, 2 ** -2, (-2) ** -1, 10 ** -3, 1 ** float("inf"), (-1) ** 10 ** 20)
try:
    0 ** -1
except ZeroDivisionError as e:
    print(e)
try:
    0.0 ** -1
except ZeroDivisionError as e:
    print(e)
# ---- abs_and_neg
print(abs(-5), abs(-5.5), abs(-0.0), abs(True), -(-0.0), abs(-(2 ** 100)), abs(3 - 4j))
# ---- numeric_tower_comparisons
print(1 < 1.5 < 2, True == 1, False < 0.5, 1 == 1 + 0j, (1 + 0j) == 1.0, 0.1 + 0.2 == 0.3, 0.5 + 0.25 == 0.75)
try:
    1 < 1j
except TypeError as e:
    print(e)
try:
    None < 1
except TypeError as e:
    print(e)
# ---- float_int_str_formatting
print(str(1e16), str(1.0e-4), str(0.00001), str(123456789.0), str(1e15), str(-1.5e-10), str(float(10 ** 16)))
# ---- int_str_digit_limit
try:
    int("1" * 5000)
except ValueError as e:
    print(str(e)[:60])
try:
    str(10 ** 5000)
except ValueError as e:
    print(str(e)[:60])
print(len(str(10 ** 4299)))
# ---- min_max_mixed_numbers
print(max(1, 2.0), max(2.0, 2), max(2, 2.0), min(0, -0.0), min(-0.0, 0), max(True, 1), max([1, 3.5, 2]))
# ---- sum_floats_compensated
print(sum([0.1] * 10), sum([0.1] * 10) == 1.0, sum([1e100, 1.0, -1e100, 1.0]), sum([0.1, 0.2, 0.3]), sum([1, 0.1, 0.2]))
print(sum([1e16, 1.0, 1.0]), sum([], 0.5), sum([0.5], 1), sum(range(10), 0.0), sum([True, 0.5]))
# ---- sum_int_start_kw
print(sum([1, 2], start=10), sum([[1], [2]], []), sum(((1,), (2,)), ()))
try:
    sum(["a"], "")
except TypeError as e:
    print(e)
# ---- divmod_zero_errors
for a, b in [(1, 0), (1.0, 0), (0, 0.0), (5, -0.0)]:
    try:
        divmod(a, b)
    except ZeroDivisionError as e:
        print(e)
    try:
        a % b
    except ZeroDivisionError as e:
        print(e)
# ---- float_int_conversion_rounding
print(int(0.9999999999999999), int(-0.5), int(1e19), float(9007199254740993), float(2 ** 63 + 1), int(float(2 ** 63)))
# ---- augmented_numeric
x = 5
x //= 2
print(x)
x **= 10
print(x)
x %= 7
print(x)
x /= 4
print(x)
x -= 0.25
print(x)
y = 7
y >>= 1
y <<= 4
y ^= 0xF
y |= 256
y &= 0x1F0
print(y)
# ---- bin_oct_hex
print(bin(10), bin(-10), oct(8), oct(-8), hex(255), hex(-255), bin(0), hex(2 ** 70))
try:
    hex(1.5)
except TypeError as e:
    print(e)
# ---- int_constructor_special
print(int(), float(), complex(), bool(), int("  -  5".replace(" ", "")), int("-0x1F", 16))
# ---- chained_comparisons_numeric
x = 5
print(1 < x < 10, 1 < x > 3, 10 > x >= 5, 1 == 1.0 == True, 0 < x < 3 < 10, x == 5 != 6)
# ---- float_precision_arith
print(0.1 * 3, 1.1 * 1.1, 1 - 0.9, 100 * 1.1, 3 * 1.1, 1e16 + 1, 2.0 ** 0.5, 10 / 3, -10 / 3, 7 / 7)
# ---- int_division_exact_large
print(10 ** 25 / 10 ** 5, 2 ** 64 / 3, (2 ** 64 + 1) / 2, 123456789123456789 / 1)
# ---- numbers_in_fstrings
v = 1234567.891
print(f"{v:,.2f} {v:.3e} {v:g} {v:%} {12:08.3f} {-5:+d} {5:+d} {255:#x} {255:#o} {5:#b} {1e-7:g} {1e16:g}")
print(f"{0.000012345:.3g} {123456789:_} {3.0:.0f} {2.5:.0f} {-0.0:.1f} {1e300 * 10:f} {float('nan'):>5}")
# ---- int_bool_isinstance_cases
print(isinstance(True, int), type(True) is int, True is 1 == 1, 1 is True, int is bool)
# ---- complex_formatting_and_repr
print(repr(1 + 0j), repr(1j), repr(-1 - 1j), repr(complex(1.5, -2.25)), str(1e20j), repr(complex("inf+nanj")), format(1 + 2j, ".2f"))
# ---- float_floor_ceil_via_math
import math
print(math.floor(-2.5), math.ceil(-2.5), math.trunc(-2.5), math.floor(2), type(math.floor(2.5)).__name__, math.isclose(0.1 + 0.2, 0.3))
print(math.fsum([0.1] * 10), math.prod([1, 2, 3.5]), math.gcd(12, -18), math.isqrt(99), math.copysign(1, -0.0))
# ---- complex_constructor_signed_zero_and_nan
print(repr(complex(-0.0, 0)), repr(complex(0.0, -0.0)), repr(complex(1, float("nan"))), repr(complex(float("inf"), 0)), repr(complex(0, float("inf"))))
print(repr(-0j), repr(0j), repr(-(0j)), repr(complex("-0-0j")), repr(1j * float("inf")))
# ---- complex_pow_precision
print((-8) ** (1 / 3), (-1) ** 0.5, 1j ** 0.5, (1 + 1j) ** 3.5, (-27) ** (1 / 3), complex(0, 1) ** complex(0, 1))
# ---- int_dunder_notimplemented_mixed
print((1).__add__(1.5), (1).__mul__(2.0), (2).__truediv__(4.0), (1).__eq__(1.0), (5).__lt__(9.5), (1.5).__radd__(1), (1).__radd__(2))
# ---- int64_boundary_arithmetic
M = 2 ** 63
m = -M
print(M - 1 + 1, m - 1, m // -1, abs(m), -m, (2 ** 62) * 2, (2 ** 32) ** 2, 1 << 63, m % -1, m * -1, (M - 1) * (M - 1))
print(sum([M - 1, 1]), sum([m, -1]), (M - 1) + (M - 1), m + m, divmod(m, -1), divmod(m, 7), m >> 1, m >> 64, ~(M - 1), ~m)
x = M - 1
x += 1
print(x, "%d" % M, f"{M:,}", f"{m:x}", hash(M), hash(m), hash(M - 1), round(M - 1, -1), (M).to_bytes(9, "big"))
# ---- range_with_big_bounds
M = 2 ** 63
for src in ["range(-M, M)[-1]", "range(0, M, 2 ** 62)[1]", "len(range(0, M - 1))", "list(range(10**20, 10**20+3))", "range(10**30)[5]", "10**25 in range(10**30)", "range(0, 10**30, 7).index(70)", "repr(range(10**20))", "range(10**20)[::2][3]", "bool(range(10**20))", "sum(range(M-2, M+2))", "len(range(0, M))"]:
    try:
        print(src, "->", eval(src))
    except OverflowError as e:
        print(src, "-> OverflowError", e)
# ---- index_beyond_ssize_t
M = 2 ** 63
l = [0] * 3
for f in [lambda: l[M], lambda: l.__setitem__(M, 1), lambda: l.pop(M), lambda: "x" * M]:
    try:
        f()
    except (IndexError, OverflowError, MemoryError) as e:
        print(type(e).__name__, e)
print([1, 2, 3][-M:M], "abc"[-M:], list(range(10))[::M], list(range(10))[::-M], "abc".find("a", M), "abcdef"[1:M:2])
