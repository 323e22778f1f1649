# String formatting: f-strings, format specs, str.format, %-formatting, format().
# ---- fstring_basic
name, n, x = "Ann", 7, 3.14159
print(f"{name} has {n} items costing {x:.2f}")
print(f"{name!r} {name!s} {name!a} {n!r}")
print(f"{n + 1} {n * 2 = } {x=:.1f} {name=}")
print(f"{{braces}} {'quoted'} {len(name)}")
# ---- fstring_nested_spec
width, prec = 10, 3
v = 2.718281828
print(f"[{v:{width}.{prec}f}]", f"[{v:<{width}}]", f"[{'x':{'^'}{width}}]")
print(f"[{n:0{width}d}]" if (n := 42) else "")
# ---- fstring_expressions
items = {"a": 1, "b": 2}
print(f"{items['a']} {len(items)} {[k for k in items]} {sum(items.values()) / 2:.1f}")
print(f"{'yes' if items else 'no'} {items.get('z', 'none')} {(lambda q: q * 2)(4)}")
print(f"{3:>{2 + 3}}|{'ab' * 2}|{max(items, key=items.get)}")
# ---- fstring_same_quotes_312
d = {"key": "value"}
print(f"{d["key"]} {", ".join(["a", "b"])}")
print(f"{'\n'.join(['x', 'y'])}")
# ---- fstring_multiline_and_comments
total = 10
msg = (
    f"total={total} "
    f"half={total / 2} "
    f"{'even' if total % 2 == 0 else 'odd'}"
)
print(msg)
print(f"""multi
line {total}""")
# ---- format_spec_alignment
for s in ["a", "abc", "abcdefgh"]:
    print(f"|{s:<5}|{s:>5}|{s:^5}|{s:*^7}|{s:.2}|")
# ---- format_spec_numbers
for v in [0, 1, -1, 1234.5, -0.001, 1e10, 2 / 3]:
    print(f"{v:8.2f}|{v:+.1e}|{v:g}|{v:10.3g}|{v:.0%}")
# ---- format_spec_ints
for v in [0, 7, -7, 255, 1000000, -1234567]:
    print(f"{v:5d}|{v:+5d}|{v:05d}|{v:,}|{v:_x}|{v:#b}|{v:o}|{v:>+8,}")
# ---- format_builtin
print(format(3.14159, ".2f"), format(42, "b"), format("x", ">3"), format(1234567, ","), format(0.5, "%"))
print(format(12), format(1.0), format("s"), format(True), format(None))
print(format(255, "#06x"), format(-255, "#x"), format(3, "c") if False else format(65, "c"))
# ---- format_invalid_spec
print(f"{'abc':d}")
# ---- format_invalid_int_spec
print(format(12, ".2s"))
# ---- str_format_fields
print("{0} {1} {0}".format("a", "b"))
print("{name:>8}|{val:08.3f}".format(name="pi", val=3.14159))
print("{:,.2f} {:x} {!r} {!s:>5}".format(12345.678, 255, "q", "z"))
print("{0.real} {0.imag}".format(3 + 4j), "{[0]}".format("xyz"))
print("{:{w}.{p}f}".format(2.5, w=8, p=2))
# ---- str_format_errors
try:
    "{} {}".format(1)
except IndexError as e:
    print("IndexError:", e)
try:
    "{x}".format(y=1)
except KeyError as e:
    print("KeyError:", e)
try:
    "{0} {}".format(1, 2)
except ValueError as e:
    print("ValueError:", e)
# ---- percent_format_variety
print("%s|%r|%5s|%-5s|%.2s" % ("ab", "ab", "ab", "ab", "abc"))
print("%d|%5d|%-5d|%05d|%+d|% d" % (42, 42, 42, 42, 42, 42))
print("%f|%.2f|%8.3f|%e|%.1E|%g|%G" % (3.14159, 3.14159, 3.14159, 31415.9, 31415.9, 0.00001234, 1e20))
print("%x|%X|%#x|%o|%#o|%%" % (255, 255, 255, 8, 8))
print("%(a)s-%(b)05.1f" % {"a": "k", "b": 2.25})
print("%s" % [1, 2], "%s" % (1,), "%s %s" % ("a", "b"))
# ---- percent_format_errors
for fmt, args in [("%d", ("x",)), ("%s %s", ("one",)), ("%s", ("a", "b")), ("%z", (1,))]:
    try:
        print(fmt % args)
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
# ---- fstring_datetime_like
y, m, d = 2024, 3, 7
print(f"{y:04d}-{m:02d}-{d:02d}", f"{d}/{m}/{y % 100:02d}")
secs = 3725
print(f"{secs // 3600:02d}:{secs % 3600 // 60:02d}:{secs % 60:02d}")
# ---- fstring_padding_unicode
for w in ["é", "日本", "🎉", "e\u0301"]:
    print(f"[{w:>4}][{w:<4}][{w:^5}]", len(w))
# ---- fstring_debug_specifier
x, y = 3, "s"
print(f"{x=}", f"{y=}", f"{x + 1=}", f"{x=:>4}", f"{y=!s}", f"{ x = }")
# ---- format_float_repr_vs_str
for v in [0.1, 1/3, 1e16, 1.0, 100.0, 1e-5, 123456789.0]:
    print(str(v), repr(v), f"{v}", f"{v!r}", "%s" % v, "{}".format(v))
# ---- format_percent_and_rounding
for v in [0.125, 0.375, 0.5, 2.5, 1.005, 0.045]:
    print(f"{v:.2f} {v:.1f} {v:.0f} {v:.1%} {round(v, 2)}")
# ---- format_large_and_small
print(f"{1e300:.3e} {1e-300:.3e} {123456789012345678:,} {2**64:e} {0.1:.20f}")
print(f"{float('inf'):10.2f}|{float('-inf'):<6}|{float('nan'):^7}|{-0.0:.2f}")
# ---- format_signs_and_zero_padding
for v in [5, -5, 0]:
    print(f"[{v:=8}] [{v:=+8}] [{v:08}] [{v: }] [{v:-}]")
for v in [1.5, -1.5]:
    print(f"[{v:=10.2f}] [{v:010.2f}] [{v:+010.2f}]")
# ---- format_thousands_variants
n = 1234567.891
print(f"{n:,.2f} {n:_.1f} {int(n):,d} {int(n):_} {n:,.0f} {-n:,.3f}")
print(f"{123:,} {1234:,} {-1234:,} {0.5:,}")
# ---- format_z_option
print(f"{-0.0:z.1f} {-0.001:z.2f} {-0.001:.2f} {0.0:z}")
# ---- report_block
rows = [("cpu", 0.8712, 12), ("mem", 0.4, 3), ("disk", 0.99999, 120)]
print(f"{'metric':<8}{'usage':>9}{'alerts':>8}")
for name, u, a in rows:
    flag = " !" if u > 0.9 else ""
    print(f"{name:<8}{u:>9.1%}{a:>8d}{flag}")
print("=" * 25)
# ---- format_object_with_format_method
class Temp:
    def __init__(self, c):
        self.c = c
    def __format__(self, spec):
        if spec == "f":
            return f"{self.c * 9 / 5 + 32:.1f}°F"
        return f"{self.c:.1f}°C"
t = Temp(21.5)
print(f"{t} {t:f} {format(t, 'f')} {'{:f}'.format(t)}")
# ---- str_center_table
title = "Quarterly Report"
print(title.center(30, "="))
for q, v in [("Q1", 10.5), ("Q2", 7.25)]:
    print(f"{q:.<20}{v:.>10.2f}")
# ---- fstring_conversion_ascii
s = "Zoë ✓ 🎉"
print(f"{s!a}", ascii(s), ascii(["é"]), repr(s))
# ---- format_with_dict_unpacking
rec = {"user": "ann", "n": 3, "ratio": 0.4567}
print("{user} made {n} requests ({ratio:.1%})".format(**rec))
print("%(user)s/%(n)d" % rec)
print(f"{rec['user']:>6}:{rec['n']:<3}|")
