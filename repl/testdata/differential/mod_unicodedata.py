# The unicodedata module.
# ---- name_and_lookup
import unicodedata as ud
for ch in "aÉ€✓🎉中\u0301":
    print(repr(ch), ud.name(ch), ud.category(ch))
print(ud.lookup("GREEK SMALL LETTER ALPHA"), ud.lookup("SNOWMAN"), ud.name("\x00", "<no name>"))
# ---- name_missing
import unicodedata
unicodedata.name("\x00")
# ---- normalize_forms
import unicodedata as ud
s = "Cafe\u0301 ﬁ ½ Å"
for form in ["NFC", "NFD", "NFKC", "NFKD"]:
    n = ud.normalize(form, s)
    print(form, repr(n), len(n))
print(ud.normalize("NFC", "e\u0301") == "é", ud.is_normalized("NFC", "é"))
# ---- strip_accents
import unicodedata as ud
def strip_accents(s):
    return "".join(c for c in ud.normalize("NFD", s) if ud.category(c) != "Mn")
print(strip_accents("Zoë Björn François Dvořák naïve café crème brûlée"))
# ---- numeric_values
import unicodedata as ud
for ch in "7٣½Ⅻ①":
    print(repr(ch), ud.numeric(ch), ud.decimal(ch, None), ud.digit(ch, None))
# ---- east_asian_width_and_combining
import unicodedata as ud
for ch in "aＡ中😀\u0301é":
    print(repr(ch), ud.east_asian_width(ch), ud.combining(ch), ud.bidirectional(ch), ud.mirrored(ch))
# ---- category_counts_in_context
import unicodedata as ud
from collections import Counter
cats = Counter(ud.category(c) for c in context if ord(c) > 127)
print(sorted(cats.items()))
# ---- unidata_version
import unicodedata as ud
print(ud.unidata_version, ud.decomposition("é"), ud.decomposition("ﬁ"), repr(ud.decomposition("a")))
