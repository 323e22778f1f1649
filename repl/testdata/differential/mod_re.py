# The re module: syntax, flags, groups, substitution, splitting, Unicode classes.
# ---- findall_basic
import re
text = "Order 66 shipped 3 items at 14:05, order 7 pending"
print(re.findall(r"\d+", text))
print(re.findall(r"[Oo]rder (\d+)", text))
print(re.findall(r"(\w+) (\d+)", text))
print(re.findall(r"z+", text), re.findall(r"", "ab"))
# ---- search_match_fullmatch
import re
print(re.search(r"\d+", "abc 123 def").group())
print(re.match(r"\d+", "abc 123"), re.match(r"\w+", "abc 123").group())
print(re.fullmatch(r"\d{3}", "123") is not None, re.fullmatch(r"\d{3}", "1234"))
m = re.search(r"(?P<key>\w+)=(?P<val>\w+)", "x: k1=v1 k2=v2")
print(m.group(0), m.group("key"), m["val"], m.groups(), m.groupdict(), m.span(), m.start("val"), m.end(2))
# ---- match_object_repr
import re
m = re.search(r"b+", "aabbbcc")
print(m)
print(repr(re.match("x", "y")), bool(m))
print(re.compile(r"\d+", re.I))
# ---- finditer_positions
import re
s = "cat bat rat mat"
for m in re.finditer(r"(\w)at", s):
    print(m.start(), m.end(), m.group(1), m.span(0))
print([m.group() for m in re.finditer(r"\b\w", s)])
# ---- sub_and_subn
import re
s = "2024-01-05 and 2023-12-31"
print(re.sub(r"(\d{4})-(\d\d)-(\d\d)", r"\3/\2/\1", s))
print(re.sub(r"(?P<y>\d{4})", r"<\g<y>>", s))
print(re.sub(r"\d", "#", s, count=3))
print(re.subn(r"-", "", s))
print(re.sub(r"\d+", lambda m: str(int(m.group()) * 2), "a1 b22 c333"))
print(re.sub(r"x*", "-", "abc"))
# ---- sub_replacement_escapes
import re
print(re.sub(r"a", r"\n", "bab") == "b\nb", re.sub(r"(a)", r"\\1", "a"), re.sub("a", "\\\\", "xa"))
print(re.sub(r"(\w+)@(\w+)", r"\2 at \1", "me@home you@work"))
print(re.sub(r"(b)", r"\g<1>\g<0>", "abc"))
# ---- sub_bad_group_reference
import re
re.sub(r"(a)", r"\2", "a")
# ---- split_variants
import re
print(re.split(r"[,;]\s*", "a, b;c ;d"))
print(re.split(r"(,)", "a,b,c"))
print(re.split(r"\s+", "  leading and trailing  "))
print(re.split(r",", "a,b,c,d", maxsplit=2))
print(re.split(r"x*", "axbc"))
print(re.split(r"\b", "hi there"))
# ---- flags_ignorecase_multiline_dotall
import re
text = "First line\nsecond LINE\nThird"
print(re.findall(r"^\w+", text), re.findall(r"^\w+", text, re.M))
print(re.findall(r"line", text, re.I), re.findall(r"line$", text, re.I | re.M))
print(re.search(r"First.*Third", text), re.search(r"First.*Third", text, re.S).group().count("\n"))
print(re.findall(r"(?i)line", text), re.findall(r"(?m)^T\w+", text))
# ---- verbose_flag
import re
phone = re.compile(r"""
    (\d{3})   # area
    [-.\s]?
    (\d{4})   # number
""", re.VERBOSE)
print(phone.findall("call 555-1234 or 555.9876 or 5551111"))
# ---- unicode_word_classes
import re
s = "Zoë, naïve 東京 café_2 ٣٤ ½ 🎉"
print(re.findall(r"\w+", s))
print(re.findall(r"\d+", s), re.findall(r"\d+", s, re.ASCII), re.findall(r"\w+", s, re.A))
print(re.findall(r"[^\W\d_]+", s))
print(re.findall(r"\s", "a\u3000b\xa0c\td"), len(re.findall(r"\S+", s)))
# ---- ignorecase_unicode
import re
print(re.findall(r"straße", "STRASSE Straße straße", re.I))
print(re.findall(r"é", "É é e", re.I), re.findall(r"[a-z]+", "ÀbC déF", re.I))
print(re.search(r"σ", "ΣΑΣ", re.I).group(), re.findall(r"k", "K\u212a", re.I))
# ---- groups_optional_and_nested
import re
m = re.match(r"(\d+)(?:\.(\d+))?(-(\w+))?", "12.5")
print(m.groups(), m.groups("none"), m.group(0, 1, 2), m.lastindex)
m = re.match(r"((a)(b))(c)?", "ab")
print(m.groups(), m.span(3), m.span(4), m.lastgroup, m.lastindex)
# ---- lookaround
import re
print(re.findall(r"\w+(?=@)", "ann@x.com bob@y.org"))
print(re.findall(r"(?<=\$)\d+(?:\.\d\d)?", "cost $12.50, tax $3, total $15.50"))
print(re.findall(r"\b(?!un)\w+able\b", "unable capable unstable readable"))
print(re.sub(r"(?<!\d)(\d{3})(?!\d)", r"[\1]", "12 345 6789 012"))
# ---- backreferences
import re
print(re.findall(r"\b(\w+) \1\b", "this is is a test test ok"))
print(re.sub(r"(\w)\1", r"\1", "aabbcdd"))
print(bool(re.fullmatch(r"(?P<q>['\"]).*(?P=q)", "'quoted'")), bool(re.fullmatch(r"(['\"]).*\1", "'mixed\"")))
# ---- greedy_vs_lazy
import re
html = "<b>bold</b> and <i>italic</i>"
print(re.findall(r"<.+>", html))
print(re.findall(r"<.+?>", html))
print(re.findall(r"<(\w+)>(.*?)</\1>", html))
print(re.match(r"a{2,3}", "aaaa").group(), re.match(r"a{2,3}?", "aaaa").group(), re.match(r"a??", "a").group() == "")
# ---- anchors_and_boundaries
import re
s = "cat concat catalog"
print(re.findall(r"\bcat\b", s), re.findall(r"cat\B", s), re.findall(r"\Bcat", s))
print(re.findall(r"\Acat", s), re.findall(r"log\Z", s), re.search(r"$", "ab\n").start(), re.search(r"\Z", "ab\n").start())
# ---- compile_and_pattern_methods
import re
p = re.compile(r"(\w+)=(\d+)")
print(p.pattern, p.groups, p.flags & re.UNICODE != 0, p.groupindex)
print(p.findall("a=1 b=22"), p.sub(r"\1:\2", "a=1"), p.split("x a=1 y"))
print(p.search("zz a=5", 3), p.match("a=5 b=6").group(2), p.fullmatch("a=5"))
q = re.compile(r"(?P<first>\w)(?P<rest>\w*)")
print(q.groupindex, q.sub(lambda m: m["first"].upper() + m["rest"], "hello big world"))
# ---- escape_function
import re
print(re.escape("a.b*c?(d)"), re.escape("100% [sure]"), re.escape("é ✓"))
needle = "1+1=2?"
print(re.findall(re.escape(needle), "is 1+1=2? yes 1+1=2?"))
# ---- character_classes
import re
s = "a-b_c.d e\tf9G"
print(re.findall(r"[a-c]", s), re.findall(r"[^a-z\s]", s), re.findall(r"[.\-_]", s))
print(re.findall(r"[\w.]+", s), re.findall(r"[\d\s]", s), re.findall(r"[]a]", "a]b"))
# ---- alternation_order
import re
print(re.findall(r"ab|abc", "abc"), re.findall(r"abc|ab", "abc"))
print(re.match(r"(a|ab)(c|bcd)", "abcd").groups())
# ---- invalid_pattern
import re
re.compile(r"(abc")
# ---- invalid_pattern_message
import re
for p in [r"[a-", r"a{2,1}", r"*a", r"(?P<n>a)(?P<n>b)", r"\1(a)", "(?<=a+)b"]:
    try:
        re.compile(p)
    except re.error as e:
        print(p, "->", e)
# ---- parse_key_value_log
import re
line = 'ts=2024-01-01T00:00:00Z level=error msg="disk full" host=db-1 retries=3'
pairs = re.findall(r'(\w+)=("[^"]*"|\S+)', line)
d = {k: v.strip('"') for k, v in pairs}
print(d)
print(int(d["retries"]) + 1, d["msg"].upper())
# ---- extract_numbers_with_units
import re
s = "Latency p50=12.5ms p99=340ms, size 1.5GB or 1536MB, -3.2°C"
print(re.findall(r"(-?\d+(?:\.\d+)?)\s*(ms|GB|MB|°C)", s))
print([float(x) for x in re.findall(r"-?\d+\.?\d*", s)])
# ---- multiline_blocks
import re
text = """[section one]
a = 1
b = 2

[section two]
c = 3
"""
for name, body in re.findall(r"^\[(.+)\]\n((?:(?!\[).*\n?)*)", text, re.M):
    print(name, "->", re.findall(r"^(\w+) = (\d+)$", body, re.M))
# ---- sub_with_function_dict
import re
repl = {"cat": "dog", "red": "blue"}
pat = re.compile("|".join(map(re.escape, repl)))
print(pat.sub(lambda m: repl[m.group()], "the red cat sat on a red mat"))
# ---- findall_overlapping_via_lookahead
import re
print(re.findall(r"(?=(aa))", "aaaa"), len(re.findall(r"aa", "aaaa")))
print([m.start() for m in re.finditer(r"(?=ana)", "banana")])
# ---- match_on_empty_and_none
import re
print(re.findall(r"\d*", "a1"), re.sub(r"\d*", "x", "a1"), re.split(r"\d*", "a1b"))
m = re.search(r"(x)?y", "y")
print(m.group(1), m.groups(), m.span(1))
# ---- conditional_and_atomic_312
import re
print(re.findall(r"(<)?(\w+)(?(1)>|$)", "<a> b <c"))
print(re.findall(r"(?>a+)b", "aaab ab"), re.findall(r"a++b", "aaab"))
# ---- regex_catastrophic_bounded
import re
print(re.match(r"(a|aa)+$", "a" * 24 + "b"))
print(bool(re.fullmatch(r"(\w+\s?)+", "word " * 5)))
# ---- split_log_fields_limits
import re
line = "2024-03-01 08:00:19 ERROR [worker] job-8741 failed: out of memory"
date, time, level, rest = re.split(r"\s+", line, maxsplit=3)
print(date, time, level, "|", rest)
svc, msg = re.match(r"\[(\w+)\] (.*)", rest).groups()
print(svc, msg.split(": ", 1))
# ---- re_purge_and_constants
import re
print(re.I == re.IGNORECASE, re.M == re.MULTILINE, re.S == re.DOTALL, re.X == re.VERBOSE, int(re.A))
print(sorted(n for n in ["findall", "finditer", "sub", "subn", "split", "escape", "fullmatch"] if hasattr(re, n)))
# ---- re_calls_nested_and_repeated
import re
lines = ["a=1 b=22 josé", "a=333 b=4", "none here", "b=5 a=66"]
def repl(m):
    inner = re.search(r"(\d)(\d)?", m.group(1))
    return "<" + inner.group(1) + str(inner.group(2)) + ">" + re.sub(r"\d", "#", m.group(0), 1)
out = []
for l in lines:
    m = re.search(r"a=(\d+)", l)
    out.append((m.group(1), m.group(0, 1), m.span(1)) if m else None)
    out.append(re.sub(r"b=(\d+)", repl, l))
    out.append(re.sub(r"\d+", "N", l))
    out.append(re.subn(r"(\w)=", r"\1:", l))
    out.append(re.fullmatch(r"\w=\d+", l.split()[0]) is not None)
print(out)
m = re.match(r"(?P<k>\w)=(?P<v>\d+)", "a=42")
print(re.Match.group(m, 2), m.group("k", "v"), m.group(), re.findall(r"=(\d)", "x=1 y=2"))
try:
    m.group(5)
except IndexError as e:
    print("IndexError", e)
print(re.search(r"é", "josé zoë").span(), re.sub("o", "0", "josé zoë"), [x.group() for x in re.finditer(r"\w+", "é a")])
