# Records CPython 3.12's results for the pyfmt package's differential tests.
#
# Regenerate (from repl/internal/python/pyfmt) with:
#
#   /root/.pyenv/versions/3.12.1/bin/python3.12 testdata/gen.py > testdata/corpus.jsonl
#
# Each line is one case: {"op": ..., "in": [...], "out": ..., "err": ...}.
# Floats are written as 16 hex digits of their IEEE bits ("f:3ff0000000000000"),
# ints in decimal, strings as they are (a result of more than 600 characters as
# {"len": n, "sha256": hex}). "err" is "Type: message" when CPython
# raises. The choices are seeded: the file is the same on every run.
import cmath, decimal, hashlib, json, math, random, struct, sys

assert sys.version_info[:2] == (3, 12), sys.version
sys.set_int_max_str_digits(0)
rnd = random.Random(20261205)
out = []


def fb(x):
    return "f:" + struct.pack(">d", x).hex()


def bits_float(u):
    return struct.unpack(">d", u.to_bytes(8, "big"))[0]


def enc(v):
    if isinstance(v, bool):
        return {"bool": v}
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return fb(v)
    if isinstance(v, complex):
        return [fb(v.real), fb(v.imag)]
    if isinstance(v, tuple):
        return [enc(x) for x in v]
    return v


def rec(op, inputs, fn, limit_digits=True):
    if limit_digits:
        sys.set_int_max_str_digits(4300)
    try:
        r = fn()
        sys.set_int_max_str_digits(0)
        case = {"op": op, "in": inputs, "out": enc(r)}
        if isinstance(case["out"], str) and len(case["out"]) > 600:
            # long results are kept as their length and SHA-256
            case["out"] = {"len": len(case["out"]), "sha256": hashlib.sha256(case["out"].encode()).hexdigest()}
    except Exception as e:
        case = {"op": op, "in": inputs, "err": "%s: %s" % (type(e).__name__, e)}
    finally:
        sys.set_int_max_str_digits(0)
    out.append(case)


# ---- floats of every kind
SPECIAL = [0.0, -0.0, 1.0, -1.0, 0.1, 0.5, 1.5, 2.5, -2.5, 2.675, 1e16, 1e15, 9999999999999998.0,
           1e-4, 1e-5, 0.0001, 0.00001, 123.0, 1.5e300, 5e-324, 2.2250738585072014e-308,
           2.225073858507201e-308, 1.7976931348623157e308, math.inf, -math.inf, math.nan,
           0.3, 1 / 3, 2 / 3, 100.0, 1e22, 1e23, 2.0**53, 2.0**53 + 2, 2.0**63, 2.0**64, 123456789.125,
           0.125, 0.375, 1234.5, 1e100, 1e-100, 3.14159, -3.14159, 12345.678, 1e300 * 10, 4.35, 0.045, 1.005]


def rand_floats(n):
    xs = []
    for _ in range(n):
        k = rnd.random()
        if k < 0.4:
            x = bits_float(rnd.getrandbits(64))
            if math.isnan(x):
                x = math.nan
        elif k < 0.6:
            x = rnd.uniform(-1000, 1000)
        elif k < 0.75:
            x = round(rnd.uniform(-1e6, 1e6), rnd.randint(0, 6))
        elif k < 0.9:
            x = rnd.randint(-10**6, 10**6) + rnd.choice([0.5, 0.25, 0.125, 0.375, 0.0])
        else:
            x = math.ldexp(rnd.randint(1, 2**52), rnd.randint(-1126, -1074))  # subnormals
        xs.append(x)
    return xs


FLOATS = SPECIAL + rand_floats(700)

for x in FLOATS:
    rec("repr", [fb(x)], lambda: repr(x))
for x in FLOATS[:300]:
    rec("hex", [fb(x)], lambda: x.hex())
    rec("ratio", [fb(x)], lambda: x.as_integer_ratio())
    rec("is_integer", [fb(x)], lambda: x.is_integer())
    rec("hash_float", [fb(x)], lambda: hash(x) if not math.isnan(x) else None)
    rec("float_to_int", [fb(x)], lambda: int(x))

COMPLEX = [complex(a, b) for a in [0.0, -0.0, 1.0, -1.5, math.inf, math.nan, 1e16, 1e-5, 2.5]
           for b in [0.0, -0.0, 2.0, -1.0, math.inf, -math.inf, math.nan, 1e22, 0.1]]
for z in COMPLEX:
    rec("complex_repr", [fb(z.real), fb(z.imag)], lambda: repr(z))
    if not (math.isnan(z.real) or math.isnan(z.imag)):
        rec("hash_complex", [fb(z.real), fb(z.imag)], lambda: hash(z))

# ---- ints
INTS = [0, 1, -1, 2, -2, 7, 10, 255, -255, 1000, 1234567, -1234567, 2**31, 2**53 + 1, 2**61 - 1, 2**61,
        -2**61, 2**62, 2**63 - 1, -2**63, 2**63, 2**64, -2**64 - 1, 10**20, -10**20, 10**100 + 7,
        3**200, -(7**300), 10**4299, 10**4300 - 1, 10**4300, -(10**4300), 2**14000, 97, 65, 0x10ffff,
        0x110000, 10**30, 2**1024 - 2**970, 2**1024 - 2**971, 2**1024]
INTS += [rnd.randint(-10**rnd.randint(1, 40), 10**rnd.randint(1, 40)) for _ in range(60)]
for x in INTS:
    rec("int_str", [str(x)], lambda: str(x))
    for b in (2, 8, 16):
        rec("int_base", [str(x), b], lambda: {2: bin, 8: oct, 16: hex}[b](x))
    rec("hash_int", [str(x)], lambda: hash(x))
    rec("int_to_float", [str(x)], lambda: float(x))

# ---- int(s, base)
INT_STRS = ["0", "1", "-1", "+1", " 42 ", "\t-7\n", "1_000", "1__0", "_1", "1_", "0x1f", "0X1F", "0o17",
            "0b101", "-0b101", "0b", "0x", "0x_1f", "0_x1", "00", "0_0", "000_0", "01", "0_1", "0_",
            "-0", "z", "Z", "zz", "10", "1e3", "1.0", "", "  ", "+", "-", "+-1", "+ 1", "1 2", "12a",
            "١٢٣", "𝟙𝟚", "\u00a01\u3000", "\x1c1", "1\x00", "é", "9" * 30, "-" + "9" * 30,
            "1" * 4300, "1" * 4301, "1_" * 4300 + "1", "0" * 5000, "1" * 5000 + "x", "f" * 5000,
            "z" * 300, "7" * 300 + "é", "0b1", "0o8", "0xg", "٣_٤", "1\u2003", "\u2003\u20031",
            "123456789012345678901234567890", "9223372036854775807", "9223372036854775808",
            "-9223372036854775808", "-9223372036854775809", "18446744073709551616"]
for s in INT_STRS:
    for b in (10, 0, 2, 8, 16, 36, 7):
        rec("int_parse", [s, b], lambda: int(s, b))
for s in ["\u200b1", "1\U000e0001", "\x7f", "a\u0300", "it's", 'say "hi"', "both ' and \"", "\\n", "\U0001f600",
          "\u0085", "\ud7ff", "\uffff", "1\u2028", "\x85 1"]:
    rec("int_parse", [s, 10], lambda: int(s, 10))
    rec("float_parse", [s], lambda: float(s))
for b in [b"\xff1", b"1\x00", b"'x\"", b"z" * 300, b"'" * 250, b" 12 ", b"0x1f", b"\x851", b"1_000", b"\t\r\n"]:
    s = b.decode("latin-1")
    for base in (10, 0, 16):
        rec("int_parse_bytes", [s, base], lambda: int(b, base))
    rec("float_parse_bytes", [s], lambda: float(b))
for b in (1, 37, -1, 100):
    rec("int_parse", ["1", b], lambda: int("1", b))
for _ in range(150):
    b = rnd.choice([0, 2, 3, 8, 10, 16, 36, rnd.randint(2, 36)])
    x = rnd.randint(-10**rnd.randint(1, 60), 10**rnd.randint(1, 60))
    digs = "0123456789abcdefghijklmnopqrstuvwxyz"[:max(b, 10) if b else 10]
    s = ("-" if x < 0 else "") + "".join(rnd.choice(digs) for _ in range(rnd.randint(1, 40)))
    if rnd.random() < 0.3:
        s = s.upper()
    if rnd.random() < 0.2:
        k = rnd.randint(1, len(s) - 1) if len(s) > 1 else 1
        s = s[:k] + "_" + s[k:]
    rec("int_parse", [s, b], lambda: int(s, b))
    rec("int_parse_bytes", [s, b], lambda: int(s.encode(), b))

# ---- float(s)
FLOAT_STRS = ["1", "1.5", "-1.5", " 2.5 ", "1e10", "1E-10", "1e1_0", "1_000.000_1", "1__0", "_1", "1_",
              "1._0", "1_.0", "1e_1", "0x1p1", "inf", "-inf", "+inf", "INF", "iNfInItY", "-Infinity",
              "infinit", "nan", "-nan", "+NaN", "nan1", "in_f", ".", "1.", ".1", "1e", "1e+", "e1", "+-1",
              "1e+-1", "", " ", "١٫٢", "١٢.٥", "𝟙.𝟚", "\x1c1", "1\x1f", "\u00a01.5\u2028", "1e500",
              "-1e-500", "1e-320", "2.4703282292062327e-324", "2.4703282292062328e-324",
              "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308",
              "0.1" + "0" * 1000 + "1", "9" * 400, "0." + "0" * 400 + "1", "x" * 300, "1.5é", "1,5",
              "0.000001", "123456789012345678901234567890", "4.9e-324", "1e-324", "00001.5", "1e0001",
              "1.e1", ".e1", "1d1", "1.5f", "nanx", "- 1", "1 .5", "\t\n1.25\r\n", "1e-2_0", "1.0e", "∞"]
for s in FLOAT_STRS:
    rec("float_parse", [s], lambda: float(s))
    if all(ord(c) < 128 for c in s):
        rec("float_parse_bytes", [s], lambda: float(s.encode()))
for x in rand_floats(200):
    s = rnd.choice([repr(x), "%.17g" % x, "%.3e" % x, "%.25f" % x])
    rec("float_parse", [s], lambda: float(s))

# ---- float.fromhex
HEX_STRS = ["0x1p0", "0x1.8p1", "-0x1.8p1", "1.8p1", "0X1P-1074", "0x1p-1075", "0x1.0000000000001p-1075",
            "0x1p-1076", "0x1.fffffffffffffp1023", "0x1.fffffffffffff8p1023", "0x1.fffffffffffff7ffp1023",
            "0x1p1024", "0x0p99999999999999999999", "0x1p99999999999999999999", "0x1p-99999999999999999999",
            "x", "", "0x", "0x.p1", "0x.8", ".8", "8.", "0x1p", "0x1p+", "0x1p+3", " 0x1p3 ", "inf", "-Infinity",
            "nan", "0x1.000000000000080p0", "0x1.000000000000080000001p0", "0x1.000000000000180p0",
            "0x" + "f" * 300, "0x0." + "0" * 300 + "1p1200", "0x1P+10", "0x1.5p-1030", "-0x0p0", "0x1_0p0",
            "0xg", "0x1.2.3", "1e1", "0x0.0000000000001p-1022", "0x0.00000000000008p-1022",
            "0x0.00000000000018p-1022", "0x1.23456789abcdef0123p+5"]
for s in HEX_STRS:
    rec("fromhex", [s], lambda: float.fromhex(s))
for x in FLOATS[:200]:
    if not math.isnan(x):
        s = x.hex()
        rec("fromhex", [s], lambda: float.fromhex(s))

# ---- format specs
FILL_ALIGN = ["", "<", ">", "^", "=", "x<", "*>", "0=", "é^", " ="]
SIGNS = ["", "+", "-", " "]
WIDTHS = ["", "0", "1", "5", "12", "20", "05", "010"]
GROUPS = ["", ",", "_"]
PRECS = ["", ".0", ".1", ".2", ".3", ".6", ".10", ".17", ".20"]
INT_TYPES = ["", "b", "c", "d", "o", "x", "X", "n", "e", "f", "g", "%", "E", "G", "F", "s"]
FLOAT_TYPES = ["", "e", "E", "f", "F", "g", "G", "n", "%", "d"]
STR_TYPES = ["", "s", "d"]


def rand_spec(types, allow_prec=True):
    s = rnd.choice(FILL_ALIGN) + rnd.choice(SIGNS)
    if rnd.random() < 0.15:
        s += "z"
    if rnd.random() < 0.25:
        s += "#"
    s += rnd.choice(WIDTHS)
    if rnd.random() < 0.35:
        s += rnd.choice(GROUPS)
    if allow_prec and rnd.random() < 0.5:
        s += rnd.choice(PRECS)
    return s + rnd.choice(types)


SPEC_ERRORS = [",_", "_,", ".", "xx", "99999999999999999999", ".99999999999999999999", "\x01", "é", "z", "+c",
               "#c", ",c", ",x", "_x", ",n", "_n", ",s", "_s", "=5", "#", "05", "+", " ", "-", ".2", ".2d",
               "10.2x", "q", "<<", "<<5", "5<", "%", ",%", ",e", "_f", ",g", ",d", "_d", "_b", "_o",
               "_X", "#_x", "#_b", "#012_x", "#010b", "08,", "09,", "010,", "011,", "0=10,", "x=10,",
               "+010,", "^", "^10", "x^10", "10.10000000000", ".10000000000f", ".2147483648f",
               "z.1f", "z.3e", "zf", "-^", "0^5", "0<5", "05c", "<05", "x<05", "=^5", " z", "+z#010,.2f",
               # the order in which errors are found
               "z.2", "z.2c", "+zc", "z#c", "zc", ".2c", "+.2c", "#.2c", "z,c", "=zc", "z=5", "+z", "z#", "#=5",
               "+=5", " #", "-#", "+d", "z,", "#,", ".2q", "z.2q", "+q", "#=q", ",q", "_.2c", ".2%", "z%", "#n",
               "0=10", "=010", "0<10e", "z=10", ",.2n", "=5s", "=5c", ".0n", "+.2n", "#x=5"]
INTS_FMT = [0, 1, -1, 7, 42, -42, 255, 1234, -1234, 1234567, 65, 97, 0x10ffff, 0x110000, -5, 10**20,
            -(10**25), 2**100, 10**4300, 10**4299, 12345678901234567890, True, False]
for x in INTS_FMT:
    name = "bool" if isinstance(x, bool) else "int"
    specs = SPEC_ERRORS + [rand_spec(INT_TYPES, allow_prec=rnd.random() < 0.2) for _ in range(40)]
    if abs(x) > 10**1000:
        specs = specs[::8]
    for spec in specs:
        rec("format_int", [str(int(x)), spec, name], lambda: format(x, spec))

FLOATS_FMT = [0.0, -0.0, 1.0, -1.0, 0.5, 1.5, 2.5, 2.675, 1234.5, -1234.5, 1234567.891, 1e16, 1e-5, 1e-7,
              123.0, 12.0, 100.0, 0.1, -1e-9, 1e300, 5e-324, math.inf, -math.inf, math.nan,
              9.995, 0.00012345, 123456789.0, 1e22, 0.125, 99.5]
for x in FLOATS_FMT + rand_floats(30):
    for spec in SPEC_ERRORS + [rand_spec(FLOAT_TYPES) for _ in range(45)]:
        rec("format_float", [fb(x), spec, "float"], lambda: format(x, spec))
for x in FLOATS_FMT:
    for spec in ["", ".0", ".1", ".2", ".3", ".16", ".17", "#", "#.0", "#.3", ".0e", "#.0e", ".0f", "#.0f",
                 "#.3g", ".0%", ",.2f", "_.3f", ",", "_", "010,.1f", "015,.2e", "z", "z.0f", "=+012,.3f"]:
        rec("format_float", [fb(x), spec, "float"], lambda: format(x, spec))

for z in COMPLEX + [complex(1, 2), complex(-1.5, 0.25), complex(1234.5, -6789.25), complex(-0.0, -1e-9)]:
    for spec in ["", "g", ".2", ".2f", "+", " ", "10", "<20", "^25", "#g", ",", "_.1f", "e", "E", "F", "n",
                 "%", "d", "05", "0<10", "=10", "z", "z.1f", "x>30.3e", "+.0f", ".0", "#.0", ",.3g", "s",
                 "0=10", "=010", "0=10q", "=10q", "0%", "=%", "_n", ",n", "z=5", "#.3", "x=^10"]:
        rec("format_complex", [fb(z.real), fb(z.imag), spec, "complex"], lambda: format(z, spec))

STRS = ["", "a", "abc", "hello world", "é", "日本語", "🎉x", "a\u0301b", "Σ"]
for s in STRS:
    for spec in ["", "s", "5", "<5", ">5", "^5", "^6", "x^7", "*<3", "05", "010s", ".0", ".1", ".2", "10.2",
                 "é>4", "🎉^5", "+", "-", " ", "z", "#", "=5", ",", "_", ",s", "d", "x", "c", ".", "5.",
                 "99999999999999999999", "ss", "<", "0"]:
        rec("format_str", [s, spec, "str"], lambda: format(s, spec))

# ---- % formatting
# values: ["i", "123"], ["f", bits], ["s", text], ["b", true], ["n"], ["c", re, im], or any other
# object as ["o", type name, str, repr, ascii]. A dict operand is also given as a value ("self").


def penc(v):
    if isinstance(v, bool):
        return ["b", v]
    if isinstance(v, int):
        return ["i", str(v)]
    if isinstance(v, float):
        return ["f", fb(v)]
    if isinstance(v, str):
        return ["s", v]
    if v is None:
        return ["n"]
    if isinstance(v, complex):
        return ["c", fb(v.real), fb(v.imag)]
    return ["o", type(v).__name__, str(v), repr(v), ascii(v)]


def percent(fmt, val):
    if isinstance(val, tuple):
        opnd = {"kind": "tuple", "items": [penc(v) for v in val]}
    elif isinstance(val, dict):
        opnd = {"kind": "dict", "items": {k: penc(v) for k, v in val.items()}, "self": penc(val)}
    elif isinstance(val, list):
        opnd = {"kind": "list", "items": [penc(val)]}
    else:
        opnd = {"kind": "single", "items": [penc(val)]}
    rec("percent", [fmt, opnd], lambda: fmt % val)


PCT_FIXED = [
    ("%s", (1,)), ("%s %s", (1, 2)), ("%d %d", (1,)), ("%d", (1, 2)), ("%q", ()), ("%q", (1,)), ("abc", []),
    ("abc", 5), ("%d", 1j), ("%x", 3.0), ("%f", "a"), ("%c", "ab"), ("%c", 1114112), ("%c", 10**20), ("%c", -(10**20)), ("%5c", 2**63), ("%\x01", 1), ("%é", 1),
    ("%*d", (1.0, 2)), ("%.*f", (-3, 2.0)), ("%*d", (-5, 2)), ("%5", 1), ("%(a", {"a": 1}), ("%(a)", {"a": 1}),
    ("%(a)s", 1), ("%.5d", 3), ("%#.3x", 1), ("%#o", 0), ("%#x", -31), ("%s", [1, 2]), ("%ld", 3),
    ("%999999999999999999999d", 1), ("%.999999999999999999999d", 1), ("%(a)s %s", {"a": 1}),
    ("%s %(a)s", {"a": "x"}), ("%(a)s %(b)s", {"a": 1, "b": 2.5}), ("%(a)s", {}), ("%(a)%", {}),
    ("%(a)%", {"a": 1}), ("%5%", ()), ("%5%", (1,)), ("%%", ()), ("%%%s%%", ("x",)), ("a%", ()),
    ("%(a(b))s", {"a(b)": 1}), ("%*.*f", (8, 3, 2.5)), ("%-*d", (4, 1)), ("%.*s", (2, "abc")),
    ("%.*s", (-2, "abc")), ("%*s", (10**20, "a")), ("%.*f", (2**31, 1.0)), ("%c", 2.0), ("%c", -1),
    ("%c", True), ("%c", "é"), ("%5c", 65), ("%-5c|", 65), ("%05c", 65), ("%c", None), ("%f", True),
    ("%f", 10**400), ("%e", 10**400), ("%d", 10**5000), ("%d", True), ("%s", True), ("%r", True), ("%o", 1.0),
    ("%e", "x"), ("%g", 1j), ("%i", "3"), ("%x", None), ("%u", -3), ("%d", 3.99), ("%d", -3.99),
    ("%d", math.inf), ("%d", math.nan), ("%x", 10**50), ("%X", -10**50), ("%s", None), ("%r", "it's"),
    ("%a", "é"), ("%r", 'a"b'), ("%.2r", "abc"), ("%-10r|", "x"), ("%s", "é" * 3), ("%5s|", "日本"),
    ("%*s", ("3", 1)), ("%.*s", ("3", 1)), ("%*s", (True, "a")), ("%(x)*d", {"x": 5}), ("%hd%lx%Lf", (1, 2, 3.0)),
    ("%s", ()), ("", ()), ("", (1,)), ("%s", ((1, 2),)), ("%F", math.inf), ("%010f", math.inf),
    ("%-010f|", -math.nan), ("%+f", math.nan), ("% e", 0.0), ("%+.0f", -0.0), ("%#.0e", 1.0), ("%#g", 1.0),
    ("%#.0f", 3.0), ("%g", 1e-5), ("%.0g", 123.0), ("%.100f", 0.1), ("%.17g", 0.1), ("%.2f", 2.675),
    ("%.0f", 0.5), ("%.0f", 1.5), ("%.1f", 0.25), ("%10.4e", 12345.678), ("%-+8.2f|", 3.14159),
    ("%08.2f", -3.14159), ("% 08.2f", 3.14159), ("%+08d", 42), ("%-08d|", 42), ("% d", 42), ("%+ d", 42),
    ("%#08x", 255), ("%#8X", 255), ("%#o", 8), ("%#5o", 8), ("%.3d", -7), ("%5.3d", -4), ("%05.3d", -4),
    ("%.0d", 0), ("%.0x", 0), ("%x", True), ("%d", 2**63), ("%i", -2**63), ("%s %s %s", (1, 2.5, "x")),
    ("%(n)d items", {"n": 3}), ("%(n)05.1f", {"n": 2.25}), ("%(n)s", {"n": None}), ("%s", 1.0),
    ("%s", 1e16), ("%r", 1e-5), ("%s", 1j), ("%r", complex(1, -2)), ("%.3s|%-4s|%r", ("abcdef", "x", "y")),
    ("%1$s", (1,)), ("%*", (1,)), ("%.", (1,)), ("%.*", (1,)), ("%-", ()), ("%#", ()), ("%(", {}),
    ("%s%", (1,)), ("x%sy%dz", ("a", 2)), ("%s", "%s"), ("%c%c", (72, "i")), ("%3c|%-3c|", ("a", 98)),
]
for fmt, val in PCT_FIXED:
    percent(fmt, val)
# rounding: near-halfway decimals and exact binary halfway cases at every precision
for _ in range(500):
    nd = rnd.randint(1, 17)
    m = rnd.randint(10**(nd - 1), 10**nd - 1)
    x = float("%de%d" % (m, rnd.randint(-25, 25))) * rnd.choice([1, -1])
    spec = "." + str(rnd.randint(0, 20)) + rnd.choice(["e", "f", "g", "%", "", "E", "G"])
    rec("format_float", [fb(x), spec, "float"], lambda: format(x, spec))
for _ in range(300):
    j = rnd.randint(1, 14)
    x = rnd.randint(0, 10**rnd.randint(0, 6)) + rnd.randrange(1, 2**j, 2) / 2**j
    spec = "." + str(max(0, j - rnd.randint(1, 3))) + rnd.choice(["f", "e", "g"])
    rec("format_float", [fb(x), spec, "float"], lambda: format(x, spec))
    percent("%" + spec, x)

PCT_TYPES = "diuoxXeEfFgGcrsa"
PCT_VALUES = [0, 1, -1, 42, -42, 255, 65, 10**20, -(10**20), 0.0, -0.0, 1.5, -2.5, 3.14159, 1e16, 1e-5, 123456.789,
              math.inf, -math.inf, math.nan, "s", "hello", "é", True, False, None, 9.995, 0.125, 2**64 + 1]
for _ in range(700):
    flags = "".join(rnd.choice("-+ #0") for _ in range(rnd.choice([0, 0, 1, 1, 2, 3])))
    width = rnd.choice(["", "", "1", "5", "10", "*"])
    prec = rnd.choice(["", "", ".0", ".1", ".3", ".10", ".*"])
    t = rnd.choice(PCT_TYPES)
    fmt = "%" + flags + width + prec + t
    v = rnd.choice(PCT_VALUES)
    args = []
    if width == "*":
        args.append(rnd.choice([3, -6, 0, 12]))
    if prec == ".*":
        args.append(rnd.choice([0, 2, -1, 5]))
    args.append(v)
    if rnd.random() < 0.1:
        fmt = "<" + fmt + "|" + fmt + ">"
        args = args + args
    percent(fmt, tuple(args))

for _ in range(200):
    keys = {"a": rnd.choice(PCT_VALUES), "b(c)": rnd.choice(PCT_VALUES), "": rnd.choice(PCT_VALUES)}
    parts = []
    for _ in range(rnd.randint(1, 3)):
        key = rnd.choice(["a", "b(c)", "", "zz"])
        flags = "".join(rnd.choice("-+ #0") for _ in range(rnd.choice([0, 1, 2])))
        parts.append("%(" + key + ")" + flags + rnd.choice(["", "4", "12"]) + rnd.choice(["", ".2"]) + rnd.choice(PCT_TYPES + "%"))
    percent(" ".join(parts), keys)

# ---- round
ROUND_X = [0.5, 1.5, 2.5, -0.5, -1.5, 2.675, 0.125, 0.375, 1.005, 5.5, 15.0, 25.0, -25.0, 1e308,
           1.7976931348623157e308, 123456.789, 0.0, -0.0, 5e-324, 1e-300, 9.995, 0.045, 4.35, 2.0**52 + 0.5,
           2.0**53, 1e22, math.inf, -math.inf, math.nan, 0.1, 1 / 3, -2 / 3, 999999.5, 1234.5678]
ROUND_N = [None, 0, 1, 2, 3, -1, -2, -3, 5, 10, 15, 17, 20, 100, 300, 322, 323, 324, 10**6, -10, -100, -307,
           -308, -309, -10**6]
for x in ROUND_X + rand_floats(60):
    for n in ROUND_N:
        if n is None:
            rec("round_float", [fb(x)], lambda: round(x))
        else:
            rec("round_float_n", [fb(x), str(n)], lambda: round(x, n))
for x in [0, 5, 15, 25, 35, -25, -35, 149, 150, 151, 250, 12345, -12345, 10**20 + 5 * 10**19, 10**30,
          2**100, -(2**100), 5 * 10**50, 999]:
    for n in [0, 2, -1, -2, -3, -20, -50, -51, -100, -10**4]:
        rec("round_int", [str(x), str(n)], lambda: round(x, n))

# ---- arithmetic
PAIRS = [(5.0, 3.0), (-5.0, 3.0), (5.0, -3.0), (-5.0, -3.0), (1.0, 0.0), (0.0, 0.0), (5.0, -0.0),
         (0.0, 3.0), (-0.0, 3.0), (0.0, -3.0), (1.0, math.inf), (-1.0, math.inf), (math.inf, 2.0),
         (math.nan, 1.0), (1e308, 1e-308), (0.1, 0.01), (7.5, 2.5), (-7.5, 2.5), (1e-320, 3e-321),
         (3.0, 0.1), (-3.0, 0.1), (1e16, 3.0), (2.0**53 + 2, 2.0)]
for _ in range(120):
    a = rnd.choice(rand_floats(1) + [rnd.uniform(-100, 100)])
    b = rnd.choice(rand_floats(1) + [rnd.uniform(-10, 10)])
    PAIRS.append((a, b))
for a, b in PAIRS:
    rec("fmod", [fb(a), fb(b)], lambda: a % b)
    rec("floordiv", [fb(a), fb(b)], lambda: a // b)
    rec("divmod", [fb(a), fb(b)], lambda: divmod(a, b))
    rec("truediv", [fb(a), fb(b)], lambda: a / b)

POW_SPECIAL = [(0.0, -1.0), (-0.0, -3.0), (0.0, 0.0), (math.nan, 0.0), (1.0, math.nan), (math.nan, 1.0),
               (-8.0, 1 / 3), (-1.0, 0.5), (-2.0, 3.0), (-2.0, 2.0), (-2.0, -3.0), (10.0, 400.0), (10.0, -400.0),
               (math.inf, -1.0), (-math.inf, 3.0), (-math.inf, 2.0), (-math.inf, -3.0), (0.5, math.inf),
               (2.0, math.inf), (-1.0, math.inf), (2.0, -math.inf), (-0.0, 3.0), (-0.0, 2.0), (100.0, 1.5),
               (1.1, 20.0), (2.0, 0.5), (2.0, -1074.0), (2.0, -1075.0), (2.0, 1023.0), (2.0, 1024.0),
               (134217727.0, 2.0), (68718952449.0, 1.5), (-1.0, 1e300), (-1.0, 2.0**53 + 1), (1e-300, 2.0)]
for a, b in POW_SPECIAL:
    rec("pow", [fb(a), fb(b)], lambda: a ** b if not (a < 0 and math.isfinite(b) and b != math.floor(b)) else "complex")

# correctly rounded references for libm-style functions: decimal with 60 digits
ctx = decimal.Context(prec=60, Emax=10**6, Emin=-10**6)
D = decimal.Decimal


def cr_or_none(f):
    try:
        return fb(float(f()))
    except Exception:
        return None


for _ in range(600):
    a = rnd.choice([rnd.uniform(0, 10), rnd.uniform(0, 2), math.exp(rnd.uniform(-50, 50))])
    b = rnd.choice([rnd.uniform(-30, 30), float(rnd.randint(-40, 40)), rnd.uniform(-3, 3)])
    case_in = [fb(a), fb(b)]
    rec("pow_cr", case_in, lambda: a ** b)
    out[-1]["cr"] = cr_or_none(lambda: ctx.power(D(a), D(b)))
for _ in range(500):
    x = rnd.uniform(-700, 700)
    rec("exp", [fb(x)], lambda: math.exp(x))
    out[-1]["cr"] = cr_or_none(lambda: ctx.exp(D(x)))
for _ in range(150):
    x = rnd.uniform(-745.2, -708)  # subnormal results
    rec("exp", [fb(x)], lambda: math.exp(x))
    out[-1]["cr"] = cr_or_none(lambda: ctx.exp(D(x)))
    a, b = rnd.uniform(0.01, 0.9), rnd.uniform(300, 1000)
    rec("pow_cr", [fb(a), fb(b)], lambda: a ** b)
    out[-1]["cr"] = cr_or_none(lambda: ctx.power(D(a), D(b)))
for _ in range(150):
    y = bits_float(rnd.randint(1, 2**52))  # subnormal arguments
    rec("log", [fb(y)], lambda: math.log(y))
    out[-1]["cr"] = cr_or_none(lambda: ctx.ln(D(y)))
    rec("log2", [fb(y)], lambda: math.log2(y))
    out[-1]["cr"] = cr_or_none(lambda: ctx.divide(ctx.ln(D(y)), ctx.ln(D(2))))
    rec("log10", [fb(y)], lambda: math.log10(y))
    out[-1]["cr"] = cr_or_none(lambda: ctx.log10(D(y)))
    rec("pow_cr", [fb(y), fb(0.5)], lambda: y ** 0.5)
    out[-1]["cr"] = cr_or_none(lambda: ctx.power(D(y), D(0.5)))
for _ in range(500):
    y = math.exp(rnd.uniform(-700, 700))
    rec("log", [fb(y)], lambda: math.log(y))
    out[-1]["cr"] = cr_or_none(lambda: ctx.ln(D(y)))
    rec("log2", [fb(y)], lambda: math.log2(y))
    out[-1]["cr"] = cr_or_none(lambda: ctx.divide(ctx.ln(D(y)), ctx.ln(D(2))))
    rec("log10", [fb(y)], lambda: math.log10(y))
    out[-1]["cr"] = cr_or_none(lambda: ctx.log10(D(y)))
for x in [0.0, -1.0, 1.0, 2.0, 10.0, 1000.0, math.inf, math.nan, 1e-310, 710.0, -750.0, 709.78]:
    for fn in ("exp", "log", "log2", "log10", "sqrt"):
        rec(fn, [fb(x)], lambda: getattr(math, fn)(x))
for _ in range(100):
    x = bits_float(rnd.getrandbits(63))
    if not math.isnan(x):
        rec("sqrt", [fb(x)], lambda: math.sqrt(x))
for x in [1, 2, 10, 10**20, 10**400, 2**1023, 2**1024, 2**5000 + 1, 3**3000, 0, -5]:
    for fn in ("log", "log2", "log10"):
        rec(fn + "_int", [str(x)], lambda: getattr(math, fn)(x))

HYP = [(3.0, 4.0), (0.0, 0.0), (math.inf, math.nan), (math.nan, 1.0), (1e300, 1e300), (1e-320, 1e-320),
       (5e-324, 5e-324), (1.0,), (-2.0,), (1.0, 2.0, 3.0), ()]
for _ in range(300):
    k = rnd.choice([2, 2, 3, 5])
    HYP.append(tuple(rnd.choice([rnd.uniform(-1e10, 1e10), rnd.uniform(-1, 1), bits_float(rnd.getrandbits(63) | 0) * rnd.choice([1, -1])])
                     for _ in range(k)))
for xs in HYP:
    if any(math.isnan(x) and False for x in xs):
        continue
    rec("hypot", [fb(x) for x in xs], lambda: math.hypot(*xs))

FSUM = [[], [0.1] * 10, [1e100, 1.0, -1e100, 1e-100, 1e50, -1.0, -1e50], [math.inf, 1.0], [math.inf, -math.inf],
        [math.nan, 1.0], [1e308, 1e308], [1e308, 1e308, -1e308], [-0.0], [-0.0, 0.0], [2.0**53, 1.0, 2.0**-53],
        [1.0, 2.0**-53, 2.0**-106]]
for _ in range(80):
    FSUM.append([rnd.choice([rnd.uniform(-1, 1) * 10**rnd.randint(-20, 20), float(rnd.randint(-9, 9))])
                 for _ in range(rnd.randint(1, 30))])
for xs in FSUM:
    rec("fsum", [fb(x) for x in xs], lambda: math.fsum(xs))

for x, b in [(8.0, 2.0), (100.0, 10.0), (1.0, 1.0), (2.0, 1.0), (10.0, 0.5), (2.5, 7.25), (1e300, 3.0)]:
    rec("log_base", [fb(x), fb(b)], lambda: math.log(x, b))
for x, b in [(10**400, 10), (2**5000, 2), (3**999, 3), (7, 10**400)]:
    rec("log_base_int", [str(x), str(b)], lambda: math.log(x, b))
for n in [0, 1, 5, 20, 100, -1]:
    rec("perm_n", [str(n)], lambda: math.perm(n))
for n in [0, 1, 5, 20, 21, 100, 500, -1]:
    rec("factorial", [str(n)], lambda: math.factorial(n))
for n, k in [(5, 2), (10, 0), (10, 10), (10, 11), (100, 50), (0, 0), (-1, 2), (5, -1), (10**20, 3), (1000, 500), (60, 30)]:
    rec("comb", [str(n), str(k)], lambda: math.comb(n, k))
    rec("perm", [str(n), str(k)], lambda: math.perm(n, k))
for n in [0, 1, 2, 3, 4, 15, 16, 17, 10**20, 10**41 - 1, 2**200, -1]:
    rec("isqrt", [str(n)], lambda: math.isqrt(n))
for xs in [(), (0,), (12, 18), (-12, 18), (0, 0), (2**100, 6**50), (3, 5, 7), (12, -18, 30)]:
    rec("gcd", [str(x) for x in xs], lambda: math.gcd(*xs))
    rec("lcm", [str(x) for x in xs], lambda: math.lcm(*xs))

for a, b in [(10**25, 10**5), (1, 3), (2, 3), (-1, 3), (0, -5), (10**400, 3), (1, 10**400), (-1, 10**400),
             (10**400, 10**399), (2**1024 - 2**970, 1), (2**1024 - 2**971, 1), (7, 0), (3**700, 2**1000),
             (2**53 + 1, 1), (2**54 + 1, 2), (-(3**500), 7**300), (1, 2**1074), (1, 2**1075), (3, 2**1076)]:
    rec("int_truediv", [str(a), str(b)], lambda: a / b)
for _ in range(100):
    a = rnd.randint(-10**rnd.randint(1, 400), 10**rnd.randint(1, 400))
    b = rnd.randint(1, 10**rnd.randint(1, 400)) * rnd.choice([1, -1])
    rec("int_truediv", [str(a), str(b)], lambda: a / b)
for a, b in [(2, -1), (0, -1), (10, -2), (-3, -3), (10**400, -1), (7, -10**400)]:
    rec("int_pow_neg", [str(a), str(b)], lambda: a ** b)

for a in [0, 7, -7, 10**30 + 1, -(10**30) - 1, 6]:
    for b in [3, -3, 10**20 + 7, -(10**20) - 7, 0, 1, -1, 6]:
        rec("int_floordiv", [str(a), str(b)], lambda: a // b)
        rec("int_mod", [str(a), str(b)], lambda: a % b)
        rec("int_divmod", [str(a), str(b)], lambda: divmod(a, b))
for a, b in [(2, 10), (3, 0), (0, 0), (0, 5), (-1, 7), (-1, 8), (1, 10**30), (-2, 63), (7, 100), (-3, 33),
             (10, 400), (2**64 + 1, 9)]:
    rec("int_pow", [str(a), str(b)], lambda: a ** b)
for a, b, m in [(2, 10, 1000), (3, 200, 10**9 + 7), (-3, 5, 7), (3, 5, -7), (-3, 5, -7), (5, 0, 7), (5, 0, 1),
                (5, 3, 1), (5, 3, -1), (3, -1, 7), (2, -1, 4), (3, -5, 10**9 + 7), (0, 5, 3), (0, -1, 5),
                (2, 10, 0), (12345678901234567890, 98765432109876543210 * 10**300 + 3, 2**521 - 1),
                (7, 2**1000 + 1, 10**50 + 151), (-7, -3, -10), (4, -1, 1)]:
    rec("int_pow_mod", [str(a), str(b), str(m)], lambda: pow(a, b, m))

for line in out:
    sys.stdout.write(json.dumps(line, ensure_ascii=False) + "\n")
sys.stderr.write("%d cases\n" % len(out))
