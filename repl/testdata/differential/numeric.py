# Numbers: int (arbitrary precision), float (IEEE double, repr), bool, mixed arithmetic.
# ---- int_arithmetic_basic
print(7 + 3, 7 - 10, 7 * 6, 7 / 2, 7 // 2, 7 % 3, 2 ** 10)
print(-7 // 2, -7 % 2, 7 // -2, 7 % -2, -7 // -2, -7 % -2)
print(divmod(17, 5), divmod(-17, 5), divmod(17, -5))
# ---- big_ints
print(2 ** 100)
print(10 ** 30 + 1, -(10 ** 25) - 7)
print(3 ** 200 % 1000007)
print(len(str(2 ** 1000)), str(2 ** 1000)[:20])
# ---- factorial_loop
f = 1
for i in range(1, 31):
    f *= i
print(f)
print(f // (10 ** 20), f % 97)
# ---- big_int_division
a = 123456789012345678901234567890
b = 987654321
print(a // b, a % b, divmod(a, b))
print(a / b)
print(-a // b, -a % b)
# ---- int_str_limit
n = 10 ** 5000
print(len(str(n)))
# ---- int_conversions
print(int("42"), int("-17"), int("  8 "), int("1_000"), int("0x1f", 16), int("ff", 16))
print(int("0b101", 0), int("0o17", 0), int("z", 36), int(3.99), int(-3.99), int(True))
# ---- int_invalid_literal
print(int("3.5"))
# ---- int_base_invalid
print(int("12", 1))
# ---- float_repr
for x in [0.1, 0.1 + 0.2, 1 / 3, 2 / 3, 1e16, 1e15, 1.5e-5, 0.0001, 123456789.123456789, 1e22, 1e-7, 5e-324, 1.7976931348623157e308]:
    print(repr(x), str(x))
# ---- float_special
inf = float("inf")
nan = float("nan")
print(inf, -inf, nan, inf + 1, inf - inf, nan == nan, nan != nan, inf > 1e308)
print(float("-0.0"), -0.0 == 0.0, str(-0.0), repr(0.0 * -1))
print(float("  1e3 "), float("-Infinity"), float("nAn"), float("1_0.5"))
# ---- float_division_by_zero
print(1.0 / 0)
# ---- int_division_by_zero
print(10 // 0)
# ---- modulo_by_zero
print(10 % 0)
# ---- float_int_mixing
print(1 + 2.0, 3 * 0.5, 10 / 4, 10 // 4.0, 10 % 4.0, 2 ** -1, 2 ** 0.5)
print(7.5 // 2, -7.5 // 2, 7.5 % 2, -7.5 % 2, divmod(7.5, 2))
print(1e308 * 10, -1e308 * 10)
# ---- float_pow_overflow
print(10.0 ** 400)
# ---- int_pow_negative
print(2 ** -2, (-2) ** 3, (-8) ** (1 / 3) if False else "skip", 0 ** 0, pow(2, 10, 1000), pow(3, -1, 7))
# ---- round_half_even
print(round(0.5), round(1.5), round(2.5), round(-0.5), round(-1.5))
print(round(2.675, 2), round(1.005, 2), round(0.125, 2), round(0.375, 2))
print(round(1234.5678, -2), round(1250, -2), round(1350, -2), round(-1250, -2))
print(round(3.14159, 3), round(7), type(round(7.0)), round(7.0, 0))
# ---- abs_and_sign
print(abs(-5), abs(5.5), abs(-0.0), abs(-2 ** 70))
print(max(-1, -2), min(3, 2.5), max([1, 5, 3]), min("b", "a"))
# ---- bool_arithmetic
print(True + True, True * 10, False - 1, sum([True, False, True]))
print(True == 1, False == 0, True is True, isinstance(True, int), 1.0 == True)
print(int(True), float(False), str(True), bool(0), bool(0.0), bool(-1))
# ---- comparisons_mixed
print(1 == 1.0, 1 < 1.5, 2 ** 53 == 2.0 ** 53, 2 ** 53 + 1 == 2.0 ** 53 + 1)
print(10 ** 20 == 1e20, 10 ** 22 == 1e22, 10 ** 23 == 1e23)
print(0.1 + 0.2 == 0.3, abs(0.1 + 0.2 - 0.3) < 1e-9)
# ---- bitwise_ops
print(0b1100 & 0b1010, 0b1100 | 0b1010, 0b1100 ^ 0b1010, ~5, ~-1)
print(1 << 10, 1 << 70, 1024 >> 3, -16 >> 2, -1 >> 10)
print((2 ** 64 - 1) & 0xFF, (-(2 ** 64)) | 1)
# ---- negative_shift
print(1 << -1)
# ---- hex_oct_bin
print(hex(255), hex(-255), oct(8), bin(10), bin(-10), hex(2 ** 64))
print(format(255, "x"), format(255, "#o"), format(5, "08b"))
# ---- int_methods
n = 1000
print(n.bit_length(), (255).bit_count(), (-1).bit_length(), (0).bit_length())
print((1024).to_bytes(2, "big"), int.from_bytes(b"\x01\x00", "little"))
print((10).as_integer_ratio(), (7).conjugate(), (5).real, (5).imag)
# ---- float_methods
x = 2.5
print(x.is_integer(), (3.0).is_integer(), x.as_integer_ratio(), (0.1).as_integer_ratio())
print((0.5).hex(), float.fromhex("0x1.8p1"), (1e300).hex())
# ---- float_str_formats
x = 1234.56789
print(f"{x:.2f} {x:10.3f} {x:e} {x:.3e} {x:g} {x:.3g} {x:%} {x:,.2f}")
print(f"{0.000012345:g} {1e20:g} {1e-5:.2g} {100.0:g} {123456789.0:g}")
print(format(0.5, ".0f"), format(1.5, ".0f"), format(2.5, ".0f"), format(-0.0, ".1f"))
# ---- int_format_specs
n = 1234567
print(f"{n:,} {n:_} {n:>12,} {n:<12}| {n:^12}| {n:+} {-n:+}")
print(f"{n:x} {n:X} {n:#x} {n:o} {n:b} {n:e} {n:.2f}")
print(f"{42:05d} {-42:05d} {42: d} {42:=+8d} {42:*^8}")
# ---- sum_of_floats
print(sum([0.1] * 10), sum([0.1, 0.2, 0.3]), sum([1e100, 1.0, -1e100]))
print(sum(range(101)), sum([1, 2.5]), sum([[1], [2]], []))
import math
print(math.fsum([0.1] * 10))
# ---- average_and_percent
values = [12, 7, 3, 21, 9]
avg = sum(values) / len(values)
print(avg, round(avg, 2), f"{avg:.1f}")
print([round(v / sum(values) * 100, 1) for v in values])
# ---- integer_float_conversion
print(int(1e20), int(-1.5), int(2 ** 0.5 * 1000), float(2 ** 60), float(10 ** 20))
print(float(2 ** 1023 * 2 - 1) if False else float(2 ** 1023))
# ---- float_of_huge_int
print(float(10 ** 400))
# ---- int_of_inf
print(int(float("inf")))
# ---- int_of_nan
print(int(float("nan")))
# ---- complex_basics
z = 3 + 4j
print(z, abs(z), z.real, z.imag, z.conjugate(), z * 1j, (1 + 2j) ** 2)
# ---- numeric_tower_isinstance
print(isinstance(1, (int, float)), isinstance(1.0, int), isinstance(True, int), type(1 / 1).__name__, type(2 ** -1).__name__)
print(type(10 // 3).__name__, type(10.0 // 3).__name__, type(divmod(10, 3)).__name__)
# ---- augmented_assignment_numbers
x = 10
x += 5; x -= 3; x *= 2; x //= 5; x **= 3; x %= 7
print(x)
y = 1.5
y /= 2; y *= 3
print(y)
# ---- number_parsing_loop
raw = ["12", "3.5", "-4", "1e3", "abc", "", "0x10", " 7 "]
for r in raw:
    try:
        print(repr(r), int(r))
    except ValueError:
        try:
            print(repr(r), float(r))
        except ValueError as e:
            print(repr(r), "bad:", e)
# ---- gcd_lcm_loop
def gcd(a, b):
    while b:
        a, b = b, a % b
    return a
print(gcd(48, 18), gcd(17, 5), gcd(0, 9), 48 * 18 // gcd(48, 18))
import math
print(math.gcd(48, 18, 12), math.lcm(4, 6, 10))
# ---- primes_sieve
n = 60
sieve = [True] * (n + 1)
sieve[0] = sieve[1] = False
for i in range(2, int(n ** 0.5) + 1):
    if sieve[i]:
        for j in range(i * i, n + 1, i):
            sieve[j] = False
print([i for i, p in enumerate(sieve) if p])
# ---- fibonacci_big
a, b = 0, 1
for _ in range(150):
    a, b = b, a + b
print(a)
print(a % 10 ** 9, len(str(a)))
# ---- collatz_lengths
def collatz(n):
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps
print([collatz(n) for n in range(1, 16)])
print(max(range(1, 1000), key=collatz))
# ---- float_accumulate_error
total = 0.0
for _ in range(10):
    total += 0.1
print(total, total == 1.0, round(total, 10) == 1.0)
print(1.1 * 3, 0.1 * 3, 4.35 * 100, 1.15 * 100)
# ---- int_str_roundtrip
for n in [0, -0, 7, -123, 10 ** 18, -(2 ** 63)]:
    print(str(n), int(str(n)) == n, repr(n))
# ---- float_str_roundtrip
for x in [0.1, 1 / 7, 1e-10, 123.456, 2.0 ** 0.5]:
    print(repr(x), float(repr(x)) == x)
# ---- chained_numeric_comparisons
x = 5
print(1 < x < 10, 1 < x > 3, x == 5 == 5.0, 0 <= x < 5, 1 < 2 < 3 < 2)
# ---- min_max_key_default
print(max([3, -7, 5], key=abs), min([3, -7, 5], key=abs), max([], default=None), min((), default=-1))
print(max(1, 2, 3), min([2.5, 2, 3]), max([1, 1.0]), max([1.0, 1]))
# ---- max_empty_raises
print(max([]))
# ---- unary_ops
x = 5
print(-x, +x, -(-x), not x, ~x, -0.0, +(-0.0))
# ---- scientific_notation_literals
print(1e3, 1E-3, 1_000.5, 0x_ff, 0o_17, 0b_1010, 1_0e1_0)
# ---- bool_ops_short_circuit
print(0 or 5, 3 and 4, 0 and 1 / 0, None or "default", [] or {} or "last", 1 or 1 / 0)
print(not 0, not [], not "a")
# ---- is_integer_checks
for v in [3.0, 3.5, -0.0, 1e20]:
    print(v, v.is_integer(), int(v) if v.is_integer() else None)
# ---- float_floor_ceil_trunc
import math
for v in [2.5, -2.5, 3.0, -0.1]:
    print(v, math.floor(v), math.ceil(v), math.trunc(v), round(v), int(v))
# ---- numeric_string_formatting_table
rows = [("apples", 3, 0.5), ("kiwis", 12, 0.25), ("melons", 1, 3.999)]
for name, qty, price in rows:
    print(f"{name:<8}{qty:>4}{price:>8.2f}{qty * price:>9.2f}")
print(f"{'total':<8}{sum(q for _, q, _ in rows):>4}{'':>8}{sum(q * p for _, q, p in rows):>9.2f}")
