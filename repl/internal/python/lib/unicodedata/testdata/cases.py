# Cases for the unicodedata module; gen.py records CPython's outcome.
# ---- name_and_lookup
import unicodedata as ud
for ch in "aÉ€✓🎉中\u0301가\x00 ":
    print(repr(ch), ud.name(ch, "<none>"), ud.category(ch), ud.bidirectional(ch), ud.combining(ch), ud.mirrored(ch), ud.east_asian_width(ch))
print(ud.lookup("GREEK SMALL LETTER ALPHA"), ud.lookup("snowman"), ud.lookup("HANGUL SYLLABLE GAG"), ud.lookup("CJK UNIFIED IDEOGRAPH-4E2D"))
print(ud.lookup(b"SNOWMAN"), repr(ud.lookup("LATIN CAPITAL LETTER A WITH MACRON AND GRAVE")), ud.lookup("NULL"))
# ---- name_missing
import unicodedata
unicodedata.name("\x00")
# ---- name_not_a_char
import unicodedata
unicodedata.name("ab")
# ---- name_int
import unicodedata
unicodedata.category(65)
# ---- lookup_missing
import unicodedata
unicodedata.lookup("NO SUCH THING")
# ---- lookup_int
import unicodedata
unicodedata.lookup(1)
# ---- numeric_values
import unicodedata as ud
for ch in "7٣½Ⅻ①a¼௰":
    print(repr(ch), ud.numeric(ch, None), ud.decimal(ch, None), ud.digit(ch, None))
print(ud.numeric("a", "n/a"), ud.decimal("x", -1))
# ---- decimal_error
import unicodedata
unicodedata.decimal("½")
# ---- digit_error
import unicodedata
unicodedata.digit("a")
# ---- numeric_error
import unicodedata
unicodedata.numeric("a")
# ---- normalize_forms
import unicodedata as ud
s = "Cafe\u0301 ﬁ ½ Å ㎏ ｱ"
for form in ["NFC", "NFD", "NFKC", "NFKD"]:
    n = ud.normalize(form, s)
    print(form, repr(n), len(n), ud.is_normalized(form, s), ud.is_normalized(form, n))
print(ud.normalize("NFC", "e\u0301") == "é", ud.is_normalized("NFC", "é"), ud.normalize("NFC", ""), ud.normalize("XX", ""))
# ---- normalize_bad_form
import unicodedata
unicodedata.normalize("NFX", "a")
# ---- normalize_bad_type
import unicodedata
unicodedata.normalize("NFC", b"a")
# ---- strip_accents
import unicodedata as ud
def strip_accents(s):
    return "".join(c for c in ud.normalize("NFD", s) if ud.category(c) != "Mn")
print(strip_accents("Zoë Björn François Dvořák naïve café crème brûlée"))
# ---- decomposition
import unicodedata as ud
for ch in "éﬁ½Å가aªⅫ①ｱ㎏":
    print(repr(ch), repr(ud.decomposition(ch)))
print(ud.unidata_version)
# ---- refused_ucd_3_2_0
import unicodedata
unicodedata.ucd_3_2_0.name("a")
