#!/usr/bin/env python3.12
"""Records CPython 3.12's character database for package pystr.

Regenerate (from repl/internal/python/pystr):

    /root/.pyenv/versions/3.12.1/bin/python3.12 testdata/gen_ucd.py
    go run gen_tables.go

The first command writes testdata/ucd.json and testdata/codecs.json: every property pystr needs, for
every code point 0..0x10FFFF, as observed through Python 3.12's own str
methods and unicodedata module (runs of equal values, or per code point where
values differ). The second turns that file into tables.go. The tests read
testdata/ucd.json and check pystr against it for every code point.

Name aliases and named sequences cannot be listed through Python's API: their
candidates are read from the Unicode 15.0.0 data files of Debian's
unicode-data package (apt-get install unicode-data), and each is kept only if
unicodedata.lookup agrees.
"""

import hashlib
import json
import os
import sys
import unicodedata as ud

assert sys.version_info[:2] == (3, 12), sys.version
assert ud.unidata_version == "15.0.0"

MAX = 0x110000
SIGMA = "\u03a3"


def runs(values):
    """Compresses a list of per-code-point values into [start, end, value] runs."""
    out = []
    start = 0
    for cp in range(1, MAX + 1):
        if cp == MAX or values[cp] != values[start]:
            out.append([start, cp - 1, values[start]])
            start = cp
    return out


def set_runs(pred):
    out = []
    start = None
    for cp in range(MAX + 1):
        v = cp < MAX and pred[cp]
        if v and start is None:
            start = cp
        elif not v and start is not None:
            out.append([start, cp - 1])
            start = None
    return out


chars = [chr(cp) for cp in range(MAX)]
surrogate = [0xD800 <= cp < 0xE000 for cp in range(MAX)]

category = [ud.category(c) for c in chars]
lt = [cat == "Lt" for cat in category]

# The case properties CPython's str methods use, observed through them.
cased = [(c + "a").title()[-1] == "a" for c in chars]
istitle = [c.istitle() for c in chars]
isupper = [c.isupper() for c in chars]
islower = [c.islower() for c in chars]
uppercase = []
lowercase = []
for cp, c in enumerate(chars):
    if lt[cp]:
        # Titlecase letters: swapcase leaves a character that is neither
        # Uppercase nor Lowercase unchanged.
        assert c.swapcase() == c, hex(cp)
        u = l = False
    else:
        u = istitle[cp]  # istitle of one non-Lt char is Uppercase
        l = islower[cp] or (u and not isupper[cp])
    uppercase.append(u)
    lowercase.append(l)
case_ignorable = []
for cp, c in enumerate(chars):
    if cased[cp]:
        ign = (" " + c + SIGMA).lower()[-1] == "\u03c3"
    else:
        ign = ("A" + SIGMA + c + "A").lower()[1] == "\u03c3"
    case_ignorable.append(ign)

flags = {
    "alpha": [c.isalpha() for c in chars],
    "decimal": [c.isdecimal() for c in chars],
    "digit": [c.isdigit() for c in chars],
    "numeric": [c.isnumeric() for c in chars],
    "space": [c.isspace() for c in chars],
    "printable": [c.isprintable() for c in chars],
    "linebreak": [len(("a" + c + "a").splitlines()) == 2 for c in chars],
    "xid_start": [c.isidentifier() for c in chars],
    "xid_continue": [("a" + c).isidentifier() for c in chars],
    "lowercase": lowercase,
    "uppercase": uppercase,
    "cased": cased,
    "case_ignorable": case_ignorable,
    "mirrored": [ud.mirrored(c) == 1 for c in chars],
    # Observed single-character predicates, to check the derivations.
    "islower": islower,
    "isupper": isupper,
    "istitle": istitle,
}

out = {
    "unidata_version": ud.unidata_version,
    "category": runs(category),
    "bidirectional": runs([ud.bidirectional(c) for c in chars]),
    "east_asian_width": runs([ud.east_asian_width(c) for c in chars]),
    "combining": runs([ud.combining(c) for c in chars]),
    "flags": {k: set_runs(v) for k, v in flags.items()},
    "decimal": [[cp, ud.decimal(c)] for cp, c in enumerate(chars) if ud.decimal(c, None) is not None],
    "digit": [[cp, ud.digit(c)] for cp, c in enumerate(chars) if ud.digit(c, None) is not None],
    "numeric": [[cp, repr(ud.numeric(c))] for cp, c in enumerate(chars) if ud.numeric(c, None) is not None],
}

# Full case mappings of single characters, where they change it.
for name, fn in [("lower", str.lower), ("upper", str.upper), ("title", str.title),
                 ("casefold", str.casefold), ("swapcase", str.swapcase),
                 ("capitalize", str.capitalize)]:
    out[name] = [[cp, [ord(x) for x in fn(c)]] for cp, c in enumerate(chars) if fn(c) != c]


def block_hashes(fn, size=256):
    res = []
    for b in range(0, MAX, size):
        h = hashlib.sha256()
        for cp in range(b, b + size):
            v = fn(chars[cp])
            h.update(v.encode("utf-8", "surrogatepass"))
            h.update(b"\x00")
        res.append(h.hexdigest()[:16])
    return res


# Names: per code point where named (outside the algorithmic ranges), and a
# hash per block of 256 for a check of every code point.
names = {}
cjk = []
hangul = []
for cp, c in enumerate(chars):
    n = ud.name(c, None)
    if n is None:
        continue
    if n.startswith("CJK UNIFIED IDEOGRAPH-"):
        assert n == "CJK UNIFIED IDEOGRAPH-%04X" % cp
        cjk.append(cp)
    elif n.startswith("HANGUL SYLLABLE "):
        hangul.append(cp)
out["name_hash"] = block_hashes(lambda c: ud.name(c, ""))
r = []
for cp in cjk:
    if r and r[-1][1] == cp - 1:
        r[-1][1] = cp
    else:
        r.append([cp, cp])
out["cjk_unified_ranges"] = r
assert hangul == list(range(0xAC00, 0xD7A4)), (hangul[0], hangul[-1])

# Aliases and named sequences, each checked through lookup.
aliases = []
seqs = []
ucd = "/usr/share/unicode"
with open(os.path.join(ucd, "NameAliases.txt")) as f:
    for line in f:
        line = line.split("#")[0].strip()
        if not line:
            continue
        cp, alias, kind = line.split(";")
        assert ud.lookup(alias) == chr(int(cp, 16)), alias
        aliases.append([alias, int(cp, 16), kind])
with open(os.path.join(ucd, "NamedSequences.txt")) as f:
    for line in f:
        line = line.split("#")[0].strip()
        if not line:
            continue
        name, cps = line.split(";")
        s = "".join(chr(int(x, 16)) for x in cps.split())
        assert ud.lookup(name) == s, name
        seqs.append([name, [ord(x) for x in s]])
out["aliases"] = aliases
out["named_sequences"] = seqs

# Normalization of single code points, hashed per block.
for form in ["NFC", "NFD", "NFKC", "NFKD"]:
    out["normalize_" + form] = block_hashes(
        lambda c, form=form: "" if 0xD800 <= ord(c) < 0xE000 else ud.normalize(form, c))

# repr of every code point (without the quotes), hashed per block.
out["repr_hash"] = block_hashes(lambda c: "" if 0xD800 <= ord(c) < 0xE000 else repr(c)[1:-1])

path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ucd.json")
with open(path, "w") as f:
    json.dump(out, f, separators=(",", ":"))
    f.write("\n")
print("wrote", path, os.path.getsize(path), "bytes")

# Codec names: the aliases of the codecs pystr implements, and every name
# Python knows (to tell "unsupported" from "unknown").
import encodings
import encodings.aliases
import pkgutil

SUPPORTED = ["utf_8", "utf_8_sig", "ascii", "latin_1", "utf_16", "utf_16_le",
             "utf_16_be", "utf_32", "utf_32_le", "utf_32_be", "cp1252"]
modules = sorted(m.name for m in pkgutil.iter_modules(encodings.__path__))
codecs_out = {
    "supported": {m: __import__("codecs").lookup(m).name for m in SUPPORTED},
    "aliases": {k: v for k, v in sorted(encodings.aliases.aliases.items()) if v in SUPPORTED},
    "cp1252": [ord(bytes([b]).decode("cp1252", "replace")) if bytes([b]).decode("cp1252", "replace") != "\ufffd" else -1
               for b in range(256)],
    "known_aliases": sorted(encodings.aliases.aliases),
    "known_modules": [m for m in modules if m != "aliases"],
}
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "codecs.json")
with open(path, "w") as f:
    json.dump(codecs_out, f, indent=1)
    f.write("\n")
print("wrote", path)
