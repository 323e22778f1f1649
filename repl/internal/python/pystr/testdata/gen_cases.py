#!/usr/bin/env python3.12
"""Records CPython 3.12's results for package pystr's differential tests.

Regenerate (from repl/internal/python/pystr):

    /root/.pyenv/versions/3.12.1/bin/python3.12 testdata/gen_cases.py

It writes testdata/cases.json.gz (gzipped JSON): a list of [function, arguments, result]
cases, each the call of a str method (or a unicodedata function, a codec,
str.format...) on a varied set of strings and argument shapes, and what
CPython 3.12 returned or raised. A result is {"v": value} or
{"e": [exception type, message]}, with "u": [encoding, object, start, end,
reason] for a UnicodeError, or {"surrogate": true} when the result holds a
lone surrogate (which pystr must refuse). Bytes are written as strings of
hex digits.
"""

import _string
import gzip
import json
import os
import random
import sys
import unicodedata

assert sys.version_info[:2] == (3, 12), sys.version

rng = random.Random(20240601)

WHITESPACE = "".join(chr(c) for c in range(0x110000) if chr(c).isspace())

STRINGS = [
    "", "a", "A", "abc", "Hello, World!", "  hello  world  ", "a,b,,c,", "aaa",
    "abcabcabc", "ab\tcd\tef", "tab\there\n\tnext\r\tx\t", "MiXeD CaSe 123",
    "hello world", "HELLO WORLD", "Hello World", "hello-world's", "they're bill's friends",
    "o'neil mcdonald", "42abc def", "x", "__init__", "1abc", "a b", "_x9",
    "Ünïcödé café naïve", "ÀÉÎÕÜ àéîõü", "ǅǈǋ ǆemal ǄEMAL", "ﬁﬂﬀ ligatures ﬃ", "ß straße STRASSE",
    "ΣΑΣ", "ὈΔΥΣΣΕΎΣ", "σας", "Σ", "AΣ", "AΣb", "A'Σ'", "ΑΣ.Β", "ΣΑΣ ΟΔΟΣ", "aΣ\u0345", "Σ'A", "AΣ\u0301",
    "İstanbul ıi Iİ", "I\u0307 i\u0307", "ŉ ǰ ΐ", "ᾳ ᾼ ῳ",
    "日本語テキスト", "一二三四五六七八九十百千万", "〇零壱", "中文，标点。", "한국어 텍스트",
    "नमस्ते दुनिया", "क्षत्रिय", "e\u0301 e\u0301\u0301",
    "👍🏽 👨‍👩‍👧‍👦 😀", "🏳️‍🌈", "a😀b😀c",
    "مرحبا بالعالم", "שלום עולם",
    WHITESPACE, "a\u00a0b\u2003c\u3000d\u200be",
    "\x00\x01\x7f\x80\x9f\xad", "line1\nline2\r\nline3\rline4\x0bline5\x0cline6\x1cline7\x85line8\u2028line9\u2029end",
    "a\n\nb\r\n\r\nc\n", "\n", "\r\n\r", "trailing\n",
    "12345", "١٢٣", "²³¹", "½¼", "Ⅻ", "①②", "-42", "+7", "3.14", "-", "+", "-0", "٣",
    "ﬁx", "℘", "·", "x·y", "é", "变量", "Ⅻa", "a\u0300", "\u0300a", "ℌ",
    "it's", 'say "hi"', "both ' and \"", "back\\slash", "\ufeff\u200e\u2066", "\U0001d400\U0001d7ce",
    "\U000e0001\U0010ffff\ue000", "\u0378\ufdd0",
]

# A few longer strings mixing everything.
for i in range(3):
    pool = "".join(STRINGS)
    STRINGS.append("".join(rng.choice(pool) for _ in range(rng.randrange(15, 40))))

cases = []


def hexb(b):
    return b.hex()


def result(fn):
    try:
        v = fn()
    except UnicodeError as e:
        obj = e.object
        obj = hexb(obj) if isinstance(obj, (bytes, bytearray)) else obj
        return {"e": [type(e).__name__, str(e)], "u": [e.encoding, obj, e.start, e.end, e.reason]}
    except Exception as e:
        msg = e.args[0] if isinstance(e, KeyError) and e.args else str(e)
        return {"e": [type(e).__name__, msg]}
    if isinstance(v, bytes):
        v = hexb(v)
    elif isinstance(v, tuple):
        v = list(v)
    if has_surrogate(v):
        # Not representable in Go: pystr must refuse it explicitly.
        return {"surrogate": True}
    return {"v": v}


def has_surrogate(v):
    if isinstance(v, str):
        return any(0xD800 <= ord(c) < 0xE000 for c in v)
    if isinstance(v, list):
        return any(has_surrogate(x) for x in v)
    return False


def add(name, args, fn):
    cases.append([name, args, result(fn)])


def bounds(n):
    return [(None, None), (0, None), (1, None), (-1, None), (None, -1), (2, 5), (-3, -1),
            (100, None), (None, 100), (n, None), (n + 1, None), (-100, None), (None, -100),
            (3, 1), (None, 0), (n, n), (-n, None)]


def subs(s):
    out = ["", "a", " ", "Σ", "😀", "xyz not here", s]
    if s:
        n = len(s)
        out += [s[0], s[-1], s[n // 3: n // 3 + 2], s[n // 2:]]
    return list(dict.fromkeys(out))


for s in STRINGS:
    n = len(s)
    add("len", [s], lambda: len(s))
    for name in ["isascii", "isalpha", "isalnum", "isdecimal", "isdigit", "isnumeric", "isspace",
                 "isupper", "islower", "istitle", "isidentifier", "isprintable",
                 "upper", "lower", "casefold", "swapcase", "title", "capitalize"]:
        add(name, [s], lambda: getattr(s, name)())
    add("repr", [s], lambda: repr(s))
    add("ascii", [s], lambda: ascii(s))
    for i in sorted({0, 1, -1, n - 1, n, -n, -n - 1, 5, -5}):
        add("getitem", [s, i], lambda: s[i])
    for sub in subs(s):
        add("contains", [s, sub], lambda: sub in s)
        bs = bounds(n)
        rng.shuffle(bs)
        for st, en in bs[:3]:
            for name in ["find", "rfind", "index", "rindex", "count", "startswith", "endswith"]:
                add(name, [s, sub, st, en], lambda: getattr(s, name)(sub, st, en))
    olds = list(dict.fromkeys(["", "a", " ", "Σ", "xyz"] + ([s[0], s[1:3]] if s else [])))
    for old in olds:
        for new in ["", "-", "ΣΣ", "💡"]:
            for count in [-1, 0, 1, 2, 100]:
                if rng.random() < 0.3:
                    add("replace", [s, old, new, count], lambda: s.replace(old, new, count))
    for sep in list(dict.fromkeys(["", " ", "a", ",", "Σ", "😀"] + ([s[n // 2]] if s else []))):
        add("partition", [s, sep], lambda: s.partition(sep))
        add("rpartition", [s, sep], lambda: s.rpartition(sep))
    for sep in list(dict.fromkeys([None, " ", ",", "a", "", "Σ", "\n"] + ([s[1:2]] if n > 1 else []))):
        for maxsplit in [-1, 0, 1, 5]:
            add("split", [s, sep, maxsplit], lambda: s.split(sep, maxsplit))
            add("rsplit", [s, sep, maxsplit], lambda: s.rsplit(sep, maxsplit))
    for keep in [False, True]:
        add("splitlines", [s, keep], lambda: s.splitlines(keep))
    for chars in list(dict.fromkeys([None, "", " ", "ab", "aΣ", "💡 ", "\u3000\n", s[:2], s[-1:]])):
        for name in ["strip", "lstrip", "rstrip"]:
            add(name, [s, chars], lambda: getattr(s, name)(chars))
    for p in list(dict.fromkeys(["", "x", s[:1], s[:3], s, s + "x"])):
        add("removeprefix", [s, p], lambda: s.removeprefix(p))
        add("removesuffix", [s, s[-len(p):] if p else p], lambda: s.removesuffix(s[-len(p):] if p else p))
    for ts in [8, 0, 1, 4, -1, 3]:
        add("expandtabs", [s, ts], lambda: s.expandtabs(ts))
    for w in sorted({-1, 0, n - 1, n, n + 1, n + 2, n + 3, 10, 11}):
        for fill in rng.sample([" ", "*", "Σ", "💡"], 2):
            for name in ["center", "ljust", "rjust"]:
                add(name, [s, w, fill], lambda: getattr(s, name)(w, fill))
        add("zfill", [s, w], lambda: s.zfill(w))
    for enc in ["utf-8", "ascii", "latin-1", "utf-16", "utf-16-le", "utf-16-be", "utf-32",
                "utf-32-le", "utf-32-be", "cp1252", "utf-8-sig"]:
        for errors in ["strict", "ignore", "replace", "backslashreplace", "xmlcharrefreplace",
                       "namereplace", "surrogateescape", "surrogatepass", "bogus"]:
            if errors != "strict" and rng.random() < (0.8 if s.isascii() else 0.5):
                continue
            add("encode", [s, enc, errors], lambda: s.encode(enc, errors))
    add("join", [s, ["a", "bc", "", "Σ😀"]], lambda: s.join(["a", "bc", "", "Σ😀"]))

# Slices, on a few strings.
SLICE = [None, 0, 1, 2, -1, -2, 3, 100, -100]
for s in ["", "a", "abcdef", "ΣΑΣ ΟΔΟΣ", "a😀b😀c日本", "👍🏽 👨‍👩‍👧‍👦 😀", "\x80\xff\u0100"]:
    for st in SLICE:
        for sp in SLICE:
            for step in [None, 1, 2, 3, -1, -2, -3, 100, -100, 0]:
                if rng.random() < 0.35:
                    add("slice", [s, st, sp, step], lambda: s[st:sp:step])
for length in [0, 1, 5, 10]:
    for st in SLICE:
        for sp in SLICE:
            for step in [None, 1, 2, -1, -3, 0]:
                if rng.random() < 0.3:
                    add("indices", [length, st, sp, step], lambda: slice(st, sp, step).indices(length)
                        + (len(range(*slice(st, sp, step).indices(length))),))

# Decoding.
BYTES = [b"", b"abc", b"\xff", b"\x80", b"a\xffb", b"\xc3\xa9", b"\xc3", b"\xc3(", b"\xe0\x80",
         b"\xe0\xa0", b"\xe0\xa0\x80", b"\xe0\xa0(", b"\xed\xa0\x80", b"\xed\x9f\xbf", b"\xf0\x9f\x98\x80",
         b"\xf0\x9f\x98", b"\xf0\x9f\x98a", b"\xf0\x80\x80\x80", b"\xf4\x90\x80\x80", b"\xf4\x8f\xbf\xbf",
         b"\xf5\x80", b"\xc0\xaf", b"\xc1\xbf", b"\xfe\xff", b"\xff\xfe", b"\xff\xfea\x00", b"\xfe\xff\x00a",
         b"a\x00", b"\x00a", b"a\x00b", b"\x00\xd8", b"\x00\xd8\x00\xdc", b"\x00\xdc", b"\x00\xd8a\x00",
         b"\x00\xd8\x00", b"\xd8\x00\xdc\x00", b"\xff\xfe\x00\x00a\x00\x00\x00", b"\x00\x00\xfe\xff\x00\x00\x00a",
         b"a\x00\x00\x00", b"\x00\x00\x11\x00", b"\x00\xd8\x00\x00", b"\x00\x00\xd8\x00", b"a\x00\x00",
         b"\xef\xbb\xbfabc", b"\xef\xbb\xbf\xff", b"\xef\xbb", b"\x81\x8d\x8f\x90\x9d", b"\x80\x9f\xa0\xff",
         b"\xe2\x82\xac\xe2\x82", b"\xe2\x82\xe2\x82\xac", b"\xc3\xa9\xa9", b"\xed\xb2\x80\xed\xa0\x80x"]
for _ in range(40):
    BYTES.append(bytes(rng.choice([0, 0x41, 0x80, 0xa0, 0xbf, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff,
                                   0xd8, 0xdc, 0xfe, 0x11, 0x10])
                         for _ in range(rng.randrange(1, 9))))
for s in STRINGS[:80:3]:
    BYTES.append(s.encode("utf-8"))
    BYTES.append(s.encode("utf-16"))
BYTES = list(dict.fromkeys(BYTES))
for b in BYTES:
    for enc in ["utf-8", "ascii", "latin-1", "utf-16", "utf-16-le", "utf-16-be", "utf-32",
                "utf-32-le", "utf-32-be", "cp1252", "utf-8-sig"]:
        for errors in ["strict", "ignore", "replace", "backslashreplace", "xmlcharrefreplace",
                       "surrogateescape", "surrogatepass", "bogus"]:
            if errors != "strict" and rng.random() < 0.75:
                continue
            add("decode", [hexb(b), enc, errors], lambda: b.decode(enc, errors))

import codecs

for name in ["utf-8", "UTF-8", "utf8", "u8", "UTF8", "utf_8", "utf 8", "utf--8", " utf-8 ", "utf-8-sig",
             "utf_8_sig", "UTF-8-SIG", "latin-1", "latin1", "Latin_1", "iso-8859-1", "iso8859-1", "8859",
             "cp819", "l1", "ascii", "us-ascii", "US_ASCII", "646", "utf-16", "utf16", "utf-16le",
             "utf_16_le", "UTF-16-BE", "utf-32", "utf-32-le", "utf32be", "cp1252", "windows-1252", "1252",
             "cp65001", "utf", "x", "", "latin-9", "utf.8", "utf-8.", "ut f8", "utf-８", "utfé-8", "ué8",
             "ISO_8859-1:1987", "ansi_x3.4-1968", "ANSI_X3.4.1968", "iso_646.irv:1991", "utf8-ucs2",
             "unicodelittleunmarked", "U16", "..utf-8", "_utf_8_", "-utf-8-"]:
    add("lookup_encoding", [name], lambda: codecs.lookup(name).name)

# unicodedata.
CHARS = sorted(set("".join(STRINGS)) | set("\x00\u00bd\u2155\u4e00\u5146\u4eac\U00020000\U0002a6df\uac00\ud7a3\u0378"
                                           "\U00017000\U00018b00\U0001b170\uf900\U0001f1e6\u00b2\u0660\u2460\u216b\u3007"))
for c in CHARS:
    add("category", [c], lambda: unicodedata.category(c))
    add("name", [c], lambda: unicodedata.name(c))
    add("decimal", [c], lambda: unicodedata.decimal(c))
    add("digit", [c], lambda: unicodedata.digit(c))
    add("numeric", [c], lambda: unicodedata.numeric(c))
    add("east_asian_width", [c], lambda: unicodedata.east_asian_width(c))
    add("combining", [c], lambda: unicodedata.combining(c))
    add("mirrored", [c], lambda: unicodedata.mirrored(c))
    add("bidirectional", [c], lambda: unicodedata.bidirectional(c))
NAMES = ["LATIN SMALL LETTER A", "latin small letter a", "Latin Small Letter A", "LATIN  SMALL LETTER A",
         "GREEK CAPITAL LETTER SIGMA", "BYTE ORDER MARK", "BOM", "bom", "NULL", "LINE FEED", "LF", "NBSP",
         "LATIN CAPITAL LETTER GHA", "ZWJ", "VS16", "LATIN SMALL LETTER A WITH MACRON AND GRAVE",
         "KEYCAP DIGIT ONE", "CJK UNIFIED IDEOGRAPH-4E00", "CJK UNIFIED IDEOGRAPH-4e00",
         "CJK UNIFIED IDEOGRAPH-04E00", "CJK UNIFIED IDEOGRAPH-004E00", "CJK UNIFIED IDEOGRAPH-20000",
         "CJK UNIFIED IDEOGRAPH-A000", "CJK UNIFIED IDEOGRAPH-9FFF", "CJK UNIFIED IDEOGRAPH-",
         "cjk unified ideograph-4e00", "HANGUL SYLLABLE GA", "HANGUL SYLLABLE GAG", "HANGUL SYLLABLE GGAGG",
         "HANGUL SYLLABLE A", "HANGUL SYLLABLE G", "HANGUL SYLLABLE ", "hangul syllable ga",
         "HANGUL SYLLABLE HIH", "HANGUL SYLLABLE GAX", "TANGUT IDEOGRAPH-17000", "CJK COMPATIBILITY IDEOGRAPH-F900",
         "KHITAN SMALL SCRIPT CHARACTER-18B00", "GRINNING FACE", "grinning face", "", " ", "A" * 256, "A" * 257,
         "É" * 100, "LATIN SMALL LETTER É", "SPACE", "space ", "DIGIT ZERO", "NO-BREAK SPACE",
         "TIBETAN LETTER -A", "HANGUL JUNGSEONG O-E", "HANGUL JUNGSEONG OE"]
for nm in NAMES:
    add("lookup", [nm], lambda: unicodedata.lookup(nm))
    add("lookup_codepoint", [nm], lambda: eval('"\\N{%s}"' % nm) if "}" not in nm and "\\" not in nm else None)
for form in ["NFC", "NFD", "NFKC", "NFKD", "nfc", "XYZ"]:
    for s in STRINGS + ["e\u0301", "Å", "Å", "ﬁ", "한글", "\u1100\u1161\u11a8", "\u0041\u030a\u0301", "ẛ̣",
                        "\u0071\u0307\u0323", "\u1e0b\u0323", "\u00c5\u0327", "①", "㍿", "ﾊﾟ"]:
        add("normalize", [form, s], lambda: unicodedata.normalize(form, s))
        add("is_normalized", [form, s], lambda: unicodedata.is_normalized(form, s))


# str.format, with objects that show what was asked of them.
class R:
    def __init__(self, n):
        self.n = n

    def __getattr__(self, a):
        if a.startswith("__"):
            raise AttributeError(a)
        return R(f"{self.n}.{a}")

    def __getitem__(self, k):
        return R(f"{self.n}[{k!r}]")

    def __repr__(self):
        return f"R({self.n})"

    def __str__(self):
        return f"S({self.n})"

    def __format__(self, spec):
        return f"<{self.n}|{spec}>"


FORMATS = ['{', '}', 'a{', 'a}', '{}}', '{{}', '{0', '{0:', '{0!', '{0!r', '{0!r:', '{0!rr}', '{0!}', '{!r}',
           '{0:{1}}', '{0:{{}}}', '{0:}}', '{0[}', '{0[}]}', '{0[]}', '{0.}', '{0..a}', '{0.a[1]b}', '{0[1]a}',
           '{0]}', '{[}', '{a{b}c}', '{0:{1:{2}}}', '{0:{1:{2:{3}}}}', '{:{}}', '{0:{}}', '{:{0}}', '{ 0 }',
           '{-1}', '{0[-1]}', '{0[ 1]}', '{0[01]}', '{01}', '{0x}', '{0!r!s}', '{0:!r}', '{!}', '{:}',
           '{0!a:{1}}', '{0[a:b]}', '{0[a!b]}', '{0[{]}', '{0[}]:}', 'x}}y{{z', '{0:x{1}y{{z}}}', '{0:{1}{2}}',
           '{0:{1!r}}', '{0:{1:}}', '{0:{}{}}', '{0!r:}', '{0!é}', '{é}', '{0[é]}', '{0.é}', '{0[0][1].x}',
           '{.x}', '{[0]}', '{0:{1}', '{0:{', '{0:{1}}}', '{0:}}}', '{0::}', '{0:!}', '{0!r}}', '{{0}}', '}}{{',
           '{0[a]]}', '{0]', '{0}a{', '{}a}', '{0}{}', '{}{0}', '{1:{}}', '{:{1}}', '{٠}', '{١٠}', '{0[١]}',
           '{99999999999999999999}', '{9223372036854775807}', '{9223372036854775808}', '{0[99999999999999999999]}',
           '{0.a.b[c][2]}', '{0! }', '{0!\x7f}', '{0!!}', '{0!:}', '{0:[}', '{0:{1[}', '{0:{1[}]}}', '{0:{1[}]}',
           '{a.b}', '{a[b]c}', '{0[a]b}', '{}{}{}', '{:{}{}}', '{:{:{}}}', '{0:{1}}}x', '{0!s:{1!r:{2}}}',
           'Hello {name}!', '{0}{1}{0}', '{a}{b}', '{5}', '{c}', '{}{}{}{}{}', 'ΣΑΣ {0:Σ^9} 😀{a!a}', '{0!r:>{1}}',
           '', 'plain', '{{', '}}', '{{}}', '{0}}}{{', 'a{0}b{1}c{2}d', '{0.a!s:{a.b}}', '{!s:{!r}}']
ALPHA = "{}[]:!.0a1 xΣ"
for _ in range(1500):
    FORMATS.append("".join(rng.choice(ALPHA) for _ in range(rng.randrange(1, 12))))
FORMATS = list(dict.fromkeys(FORMATS))
for f in FORMATS:
    add("format", [f], lambda: f.format(R(0), R(1), R(2), R(3), a=R("a"), b=R("b"), name=R("name")))

# str.translate, logging the lookups.
class T(dict):
    def __init__(self, *a):
        super().__init__(*a)
        self.log = []

    def __getitem__(self, k):
        self.log.append(k)
        return dict.__getitem__(self, k)


TABLES = [
    {}, {ord("a"): "b"}, {ord("a"): None}, {ord("a"): ord("A"), ord("b"): None, ord("c"): "xyz"},
    {ord("a"): "é"}, {ord("a"): 0x1F600}, {ord("a"): 0x110000}, {ord("a"): -1}, {ord("a"): 0xD800},
    {ord("Σ"): "s", ord("😀"): None, ord(" "): "_"}, {ord("b"): None, ord("c"): None},
    {ord("a"): "", ord("b"): "bb"}, {ord("a"): 200}, {c: None for c in range(128)},
]


def translate_logged(s, table):
    t = T(table)
    r = s.translate(t)
    return [r, t.log]


def translate_logged_err(s, table):
    t = T(table)
    try:
        s.translate(t)
    except Exception:
        pass
    return t.log


for s in ["", "abc", "aabbcc", "banana", "a b c", "abcΣ😀", "Σ😀 a", "bcbca", "xyz", "cab"]:
    for table in TABLES:
        items = [[k, v] for k, v in table.items()]
        add("translate", [s, items], lambda: translate_logged(s, table))
        add("translate_log", [s, items], lambda: translate_logged_err(s, table))
for x, y, z in [("", "", ""), ("abc", "xyz", ""), ("abc", "xy", ""), ("aa", "bc", ""), ("aΣ", "😀b", "c"),
                ("abc", "def", "be"), ("", "", "abc"), ("a", "b", "a")]:
    add("maketrans", [x, y, z], lambda: [[k, v] for k, v in str.maketrans(x, y, z).items()])
for k in ["a", "", "ab", "Σ", "😀", "😀a"]:
    add("maketrans_key", [k], lambda: list(str.maketrans({k: "x"}).keys())[0])

path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases.json.gz")
lines = ["[\n"]
for i, c in enumerate(cases):
    lines.append(json.dumps(c, ensure_ascii=False))
    lines.append(",\n" if i < len(cases) - 1 else "\n")
lines.append("]\n")
with open(path, "wb") as f:
    f.write(gzip.compress("".join(lines).encode("utf-8"), mtime=0))
print("wrote", path, len(cases), "cases", os.path.getsize(path), "bytes")
