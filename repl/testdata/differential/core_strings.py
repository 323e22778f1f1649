# Core audit: strings. str methods on tricky inputs, % and format corners,
# f-strings, join errors, split/rsplit, splitlines, encode/decode errors,
# comparisons, ord/chr.
# ---- split_corner_cases
for s in ["", " ", "  a  b  ", "a,b,,c,", ",", "\ta\nb\x0bc\x0cd\x1ce\u2003f\u00a0g"]:
    print(repr(s), s.split(), s.split(","), s.split(" "), s.split(None, 1), s.rsplit(None, 1))
# ---- split_maxsplit_variants
s = "a-b-c-d"
print(s.split("-", 0), s.split("-", 1), s.split("-", -1), s.rsplit("-", 1), s.rsplit("-", 2), s.split("-", maxsplit=2))
print("  a b c  ".split(maxsplit=1), "  a b c  ".rsplit(maxsplit=1), "a  b".split(" ", 1), "aaa".split("a"), "aXbXc".split("X", 5))
# ---- split_errors
for f in [lambda: "a".split(""), lambda: "a".rsplit(""), lambda: "a".split(1), lambda: "a".split("a", "b")]:
    try:
        f()
    except (ValueError, TypeError) as e:
        print(type(e).__name__, e)
# ---- splitlines_boundaries
s = "a\nb\r\nc\rd\x0be\x0cf\x1cg\x1dh\x1ei\x85j\u2028k\u2029l"
print(s.splitlines())
print(len(s.splitlines(True)), "x\n\ny\n".splitlines(), "x\n\ny\n".splitlines(keepends=True), "".splitlines(), "\n".splitlines())
print("a\r\n".split("\n"), "one\r\ntwo".splitlines(True))
# ---- strip_family
print(repr("  x  ".strip()), repr("xxhixx".strip("x")), repr("abcba".strip("ab")), repr("\u3000x\u00a0".strip()), repr("".strip()))
print(repr("www.example.com".lstrip("w.")), repr("mississippi".rstrip("ips")), repr(" a ".lstrip()), repr(" a ".rstrip()), repr("x".strip("")))
print(repr("prefix_body".removeprefix("prefix_")), repr("body.py".removesuffix(".py")), repr("abc".removeprefix("")), repr("abc".removesuffix("zz")))
# ---- find_index_family
s = "hello world hello"
print(s.find("hello"), s.rfind("hello"), s.find("hello", 1), s.find("hello", 1, 10), s.find(""), s.find("", 100), s.rfind(""), s.find("", 17), s.find("", 18))
print(s.index("world"), s.rindex("l"), s.count("l"), s.count(""), s.count("l", 3, -3), "".count(""), "aaaa".count("aa"))
try:
    s.index("zzz")
except ValueError as e:
    print(e)
try:
    s.rindex("zzz")
except ValueError as e:
    print(e)
# ---- startswith_endswith_tuples
s = "filename.tar.gz"
print(s.startswith(("file", "x")), s.endswith((".gz", ".zip")), s.startswith("name", 4), s.endswith("tar", 0, -3), s.startswith(""), "".endswith(""))
try:
    s.startswith(["file"])
except TypeError as e:
    print(e)
# ---- case_methods_unicode
for s in ["hello WORLD", "ǆungla", "straße", "ﬁre", "İstanbul", "ΣΊΣΥΦΟΣ", "they're bill's", "3rd place", "a_b-c d"]:
    print(s.upper(), s.lower(), s.title(), s.capitalize(), s.swapcase(), s.casefold())
# ---- is_methods_edge_inputs
for s in ["", " ", "a1", "½", "²", "٣", "Ⅻ", "ß", "\t", "A b", "_x", "1a", "x\u0301", "\u00a0"]:
    print(repr(s), s.isalpha(), s.isdigit(), s.isdecimal(), s.isnumeric(), s.isalnum(), s.isspace(), s.isidentifier(), s.isupper(), s.islower(), s.istitle(), s.isprintable(), s.isascii())
# ---- justify_and_zfill
print(repr("ab".center(7, "*")), repr("ab".center(6)), repr("abc".center(6)), repr("x".ljust(3, "-")), repr("x".rjust(3, "0")), repr("long".center(2)))
print("42".zfill(5), "-42".zfill(5), "+42".zfill(5), "abc".zfill(5), "".zfill(3), "--1".zfill(4))
try:
    "x".center(5, "ab")
except TypeError as e:
    print(e)
# ---- partition_family
print("a=b=c".partition("="), "a=b=c".rpartition("="), "abc".partition("x"), "abc".rpartition("x"))
try:
    "abc".partition("")
except ValueError as e:
    print(e)
# ---- replace_corners
print("aaa".replace("a", "b", 2), "abc".replace("", "-"), "abc".replace("", "-", 2), "".replace("", "x"), "aaa".replace("aa", "b"), "abc".replace("b", "", -1))
# ---- expandtabs_and_translate
print(repr("a\tbc\td".expandtabs()), repr("a\tb".expandtabs(4)), repr("\t".expandtabs(0)), repr("ab\n\tc".expandtabs(3)))
tbl = str.maketrans("abc", "xyz", "d")
print("abcd".translate(tbl), "hello".translate({ord("l"): None, ord("h"): "J"}), str.maketrans({"a": "1"}))
# ---- join_errors
for f in [lambda: ",".join([1, 2]), lambda: ",".join(["a", None]), lambda: ",".join(5), lambda: ",".join([b"a"])]:
    try:
        f()
    except TypeError as e:
        print(e)
print(",".join([]), ",".join("abc"), ",".join({"k": 1}), "".join(x for x in "xy"))
# ---- percent_formatting_corners
print("%s|%r|%a" % ("é", "é", "é"))
print("%5d|%-5d|%05d|%+d|% d|%x|%X|%#x|%o|%#o|%e|%E|%g|%G" % (42, 42, 42, 42, 42, 255, 255, 255, 8, 8, 12345.678, 0.00012, 0.00001234, 1e20))
print("%.2f|%10.3f|%-10.1f|%c|%c|%%|%5s|%-5s|%.2s" % (3.14159, 2.5, 2.5, 65, "z", "ab", "ab", "abcdef"))
print("%(name)s is %(age)d" % {"name": "al", "age": 3}, "%s" % [1, 2], "%s" % ((1, 2),), "%d" % 3.99, "%i" % True)
print("%*d|%-*d|%.*f" % (5, 1, 4, 2, 2, 3.14159))
# ---- percent_formatting_errors
for f in [lambda: "%d" % "x", lambda: "%s %s" % "a", lambda: "%s" % (1, 2), lambda: "%z" % 1, lambda: "%(k)s" % 5, lambda: "%c" % 1114112, lambda: "%c" % "ab", lambda: "%" % ()]:
    try:
        f()
    except (TypeError, ValueError, KeyError, OverflowError) as e:
        print(type(e).__name__, e)
# ---- format_mini_language_corners
print(format(3.14159, ".2f"), format(42, "08b"), format(42, "^10"), format("x", "*>5"), format(1234567, ","), format(1234567.5, "_.1f"))
print(format(0.5, "%"), format(0.1234, ".1%"), format(-42, "=8"), format(42, "+"), format(42, " "), format(1e-10, ".2e"), format(123.0, "g"), format(1e6, "g"))
print(format(255, "#06x"), format(-255, "#x"), format(3, "c") if False else "", format(65, "c"), format(10, "n"), format("abc", ".2"), format(True, "d"), format(True, ""))
print(format(1.5, ""), format(1e16, ""), format(1.0, "g"), format(100.0, ".3"), format(12.0, ".10g"), format(0.0001, ".3"), format(float("inf"), "08.2f"))
# ---- format_mini_language_errors
for v, spec in [(1, "s"), ("a", "d"), (1.5, "d"), (1, ".2s"), ("x", "+"), ("x", "="), (1, "z"), (1, ",s"), (1.5, "x"), (1, "c "), ("a", ",")]:
    try:
        print(format(v, spec))
    except (ValueError, TypeError) as e:
        print(type(e).__name__, e)
# ---- str_format_method_corners
print("{} {}".format(1, 2), "{1} {0} {1}".format("a", "b"), "{x[0]} {y.real}".format(x=[9], y=3), "{:{w}.{p}f}".format(3.14159, w=8, p=2))
print("{{}} {0!r:>6} {0!s}".format("q"), "{0[k]}".format({"k": "v"}), "{!a}".format("é"), "{:>{}}".format("x", 4))
for src in ["{", "}", "{0} {}", "{} {0}", "{:d}", "{a}", "{0}{1}", "{!x}"]:
    try:
        print(src.format("s"))
    except (ValueError, KeyError, IndexError) as e:
        print(type(e).__name__, e)
# ---- fstring_nesting_and_equals
x, y = 3, "hi"
width = 6
print(f"{x=}", f"{y=}", f"{x + 1 = }", f"{y!r:>{width}}", f"{x:{'>' if x else '<'}{width}}", f"{'nested ' + f'{x}'}")
print(f"{x=:5}|", f"{y=!s}", f"{[i for i in range(x)]}", f"{ {'k': 1}['k'] }", f"{x!r}{y!a}", f"{3.0=:.1f}")
# ---- fstring_312_quotes_and_backslashes
items = ["a", "b"]
print(f"{", ".join(items)}", f"{'\n'.join(items)!r}", f"{"nested" f"{1}"}", f"{x}" if (x := 5) else "")
# ---- fstring_format_spec_with_conversion
v = "text"
print(f"{v!r:^12}|{v!s:*<8}|{3.5!s:>5}|{None!r}|{True:>5}|{True!s:>5}")
# ---- string_comparisons
print("a" < "b", "a" < "B", "Z" < "a", "abc" < "abd", "ab" < "abc", "" < "a", "é" > "z", "\u00e9" == "e\u0301", sorted(["b", "A", "a", "B", "é", "e"]))
try:
    "a" < 1
except TypeError as e:
    print(e)
# ---- ord_chr_ranges
print(ord("a"), ord("é"), ord("€"), ord("😀"), chr(65), chr(0x10FFFF) == "\U0010ffff", chr(0), repr(chr(127)), repr(chr(0x85)))
for v in [-1, 0x110000, 2 ** 40]:
    try:
        chr(v)
    except (ValueError, OverflowError) as e:
        print(type(e).__name__, e)
for v in ["", "ab"]:
    try:
        ord(v)
    except TypeError as e:
        print(e)
try:
    chr("a")
except TypeError as e:
    print(e)
# ---- encode_decode_errors_modes
s = "café ☃"
print(s.encode(), s.encode("latin-1", "replace"), s.encode("ascii", "ignore"), s.encode("ascii", "xmlcharrefreplace"), s.encode("ascii", "backslashreplace"))
b = b"caf\xc3\xa9 \xff"
print(b.decode("utf-8", "replace"), b.decode("utf-8", "ignore"), b.decode("latin-1"), b.decode("utf-8", "backslashreplace"))
for f in [lambda: s.encode("ascii"), lambda: b.decode("utf-8"), lambda: s.encode("nope"), lambda: b"\xe9".decode("ascii")]:
    try:
        f()
    except (UnicodeError, LookupError) as e:
        print(type(e).__name__, e)
# ---- encode_utf16_32
print("aé".encode("utf-16-le"), "aé".encode("utf-16-be"), "a".encode("utf-32-le"), b"a\x00".decode("utf-16-le"), len("😀".encode("utf-16-le")))
# ---- str_repr_escapes
for s in ["it's", 'say "hi"', "both ' \"", "\\", "\x00\x1f\x7f", "tab\there", "é\u200bz", "\ud7ff", "\U0001f600", "\r\n"]:
    print(repr(s), ascii(s))
# ---- str_multiplication_and_errors
print("ab" * 3, "x" * 0, "x" * -1, 2 * "ab")
try:
    "a" * 2.0
except TypeError as e:
    print(e)
try:
    "a" + 1
except TypeError as e:
    print(e)
try:
    1 + "a"
except TypeError as e:
    print(e)
# ---- str_indexing_errors
s = "abc"
for f in [lambda: s[3], lambda: s[-4], lambda: s[1.0], lambda: s.__setitem__(0, "x")]:
    try:
        f()
    except (IndexError, TypeError) as e:
        print(type(e).__name__, e)
try:
    s[0] = "x"
except TypeError as e:
    print(e)
# ---- str_constructor_variants
print(str(b"ab"), str(b"ab", "ascii"), str(1.0), str(None), str([1, "a"]), str(), str(-0.0), str(1e-7), str(object).startswith("<class"))
try:
    str(1, "utf-8")
except TypeError as e:
    print(e)
# ---- str_methods_on_unicode_whitespace
s = "\u2000a\u3000b\u205f"
print(s.split(), repr(s.strip()), s.isspace(), "\u200b".isspace(), repr("\x1c\x1d\x1e\x1f".strip()), "\x1c".isspace())
# ---- str_count_find_unicode
s = "ñandú ñu"
print(s.find("ñ", 1), s.rfind("ú"), s.count("ñ"), s.index("u"), s[::-1], s.upper(), len(s.encode()))
# ---- format_with_dunder_format
class Money:
    def __format__(self, spec):
        return "M<" + spec + ">"
print(f"{Money():>10}", format(Money(), "x"), "{:abc}".format(Money()), f"{Money()}")
class NoFmt:
    pass
try:
    format(NoFmt(), "d")
except TypeError as e:
    print(e)
# ---- str_is_immutable_identity_free
a = "abc"
b = a
a += "d"
print(a, b)
# ---- string_escape_literals
print("\x41\101\u0041\N{LATIN SMALL LETTER E WITH ACUTE}", r"\n", len("\\n"), "a\
b", b"\x41", rb"\x41", "\N{SNOWMAN}")
# ---- string_concat_adjacent_literals
s = "a" "b" 'c' """d"""
print(s, "x" f"{1}" "y", len("" ""))
# ---- str_title_capitalize_edge
print("hello   world".title(), "HELLO".capitalize(), "ßa".capitalize(), "ǉ".title(), "a1b2".title(), "o'neil mc-d".title())
# ---- str_isdigit_int_mismatch
for s in ["²", "①", "٣٤", "১২"]:
    try:
        print(s, s.isdigit(), s.isdecimal(), int(s))
    except ValueError as e:
        print(s, "ValueError", e)
# ---- format_thousands_and_types
print(f"{1234.5:,}", f"{-1234567:_d}", f"{1234567:,x}" if False else "", f"{0xDEADBEEF:_x}", f"{12345.6789:,.2f}", f"{1e6:,.0f}", f"{123:,}")
# ---- format_nan_inf_signs
print(f"{float('nan'):+f}", f"{-float('inf'):f}", f"{float('inf'):e}", f"{-0.0:+.2f}", f"{0.0:-.1f}", f"{-0.0:z.1f}", f"{-0.001:z.1f}")
# ---- str_hash_consistency
print(hash("abc") == hash("ab" + "c"), hash("") == 0, hash("a") == hash("a"))
# ---- str_contains_and_empty
print("" in "", "a" in "", "" in "a", "ab" in "a", "aé" in "café aé")
try:
    None in "abc"
except TypeError as e:
    print(e)
# ---- percent_format_mapping_missing_hook
class D(dict):
    def __missing__(self, k):
        return "<" + k + ">"
print("{a} {zz}".format_map(D(a=1)))
print("%(a)s %(zz)s" % D(a=1))
# ---- str_methods_reject_keywords
for src in ['"aa".replace("a", "b", count=1)', '"abc".startswith(prefix="a")', '"x".center(width=3)', '"ab".count(sub="a")', '"".join(iterable=[])', '"a,b".split(sep=",", maxsplit=1)', '"a b".rsplit(maxsplit=1)', '"a".encode(encoding="ascii")']:
    try:
        print(src, "->", repr(eval(src)))
    except TypeError as e:
        print(src, "->", e)
