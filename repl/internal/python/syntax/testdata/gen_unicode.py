#!/usr/bin/env python3
"""Records CPython 3.12's Unicode facts the tokenizer and literals use.

Regenerate (from this directory):
    /root/.pyenv/versions/3.12.1/bin/python3.12 gen_unicode.py

Writes:
  xid.txt:    code point ranges of identifier starts (str.isidentifier of one
              character), identifier continuations ("a" + c) and characters
              that are not printable (str.isprintable), one kind a line.
  names.txt:  "NAME<TAB>hex" for every 29th named character, all name aliases
              CPython accepts and the algorithmic names, then "NAME<TAB>-" for
              names \\N{} must refuse; lookups as "\\N{NAME}" decodes them.
  floats.txt: "hex-bits<TAB>repr" for floats, Python's repr.
"""
import random
import struct
import sys
import unicodedata

assert sys.version_info[:3] == (3, 12, 1), sys.version


def ranges(cps):
    out, start, prev = [], None, None
    for x in cps:
        if start is None:
            start = prev = x
        elif x == prev + 1:
            prev = x
        else:
            out.append((start, prev))
            start = prev = x
    out.append((start, prev))
    return " ".join("%x-%x" % r for r in out)


def xid():
    s, c, p = [], [], []
    for i in range(0x110000):
        ch = chr(i)
        if ch.isidentifier():
            s.append(i)
        if ("a" + ch).isidentifier():
            c.append(i)
        if not ch.isprintable():
            p.append(i)
    with open("xid.txt", "w") as f:
        f.write("start " + ranges(s) + "\n")
        f.write("continue " + ranges(c) + "\n")
        f.write("nonprintable " + ranges(p) + "\n")


def decodes(name):
    try:
        return eval('"\\N{%s}"' % name)
    except SyntaxError:
        return None


def names():
    lines = []
    n = 0
    for i in range(0x110000):
        try:
            name = unicodedata.name(chr(i))
        except ValueError:
            continue
        n += 1
        if n % 29 == 0 or name.startswith(("CJK UNIFIED", "HANGUL SYLLABLE")) and n % 97 == 0:
            assert decodes(name) == chr(i)
            lines.append("%s\t%x" % (name, i))
    for line in open("/usr/share/unicode/NameAliases.txt", encoding="utf-8"):
        line = line.split("#")[0].strip()
        if line:
            cp, name, _ = line.split(";")
            got = decodes(name)
            lines.append("%s\t%s" % (name, "%x" % ord(got) if got else "-"))
    for name in ["latin small letter a", "Bullet", "cjk unified ideograph-4e00", "hangul syllable gag",
                 "CJK UNIFIED IDEOGRAPH-2EBF0", "CJK UNIFIED IDEOGRAPH-4DC0", "CJK UNIFIED IDEOGRAPH-04E00",
                 "TANGUT IDEOGRAPH-17000", "HANGUL SYLLABLE", "HANGUL SYLLABLE GAGX", "HANGUL SYLLABLE GA ",
                 "LATIN SMALL LETTER", "NO SUCH NAME", "BULLET ", " BULLET", "LATIN SMALL LETTER A WITH",
                 "LATIN CAPITAL LETTER GHA", "BYTE ORDER MARK", "LF", "NBSP", "ZWJ", "VS1", "VS256",
                 "KHITAN SMALL SCRIPT CHARACTER-18B00", "NUSHU CHARACTER-1B170", "EGYPTIAN HIEROGLYPH A001",
                 "CJK COMPATIBILITY IDEOGRAPH-F900", "<control>", "SPACE", "space", "sPaCe"]:
        got = decodes(name)
        lines.append("%s\t%s" % (name, "%x" % ord(got) if got else "-"))
    with open("names.txt", "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def floats():
    rnd = random.Random(1)
    vals = [0.0, -0.0, 1.0, 0.1, 1e16, 1e15, 1e-4, 1e-5, 123456789.0, 1e22, 1e23, 5e-324, 1.7976931348623157e308,
            float("inf"), float("-inf"), 0.5, 2.5e-8, 1234567890123456789.0, 9007199254740993.0, 100.0, 1e100]
    for _ in range(2000):
        bits = rnd.getrandbits(64)
        f = struct.unpack("<d", struct.pack("<Q", bits))[0]
        if f == f:
            vals.append(f)
    for _ in range(1000):
        vals.append(round(rnd.uniform(-1e6, 1e6), rnd.randrange(0, 10)))
    with open("floats.txt", "w") as f:
        for v in vals:
            f.write("%016x\t%s\n" % (struct.unpack("<Q", struct.pack("<d", v))[0], repr(v)))


xid()
names()
floats()
