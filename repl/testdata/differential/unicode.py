# Unicode text: code points, not bytes; case mapping; width-independent operations.
# ---- len_codepoints
for s in ["abc", "héllo", "日本語", "🎉", "e\u0301", "👩‍💻", "Zoë ✓"]:
    print(repr(s), len(s), len(s.encode("utf-8")), len(s.encode("utf-16-le")) // 2)
# ---- index_non_ascii
s = "naïve café ✓ 東京"
print(s[2], s[-1], s[9], s[11], s[-2:])
print(s.index("é"), s.find("✓"), s.find("東"), s.rfind("a"))
# ---- slice_non_ascii
s = "Grüße aus Köln 🎉!"
print(s[:5], s[6:9], s[-2:], s[::-1])
print(s[4:5] == "e", s[15], len(s[10:]))
# ---- upper_lower_special
for s in ["straße", "İstanbul", "ﬁne", "ǆungla", "ΣΊΣΥΦΟΣ", "ŉ"]:
    print(s, s.upper(), s.lower(), s.title(), len(s.upper()))
# ---- greek_final_sigma
print("ΟΔΥΣΣΕΥΣ".lower())
print("ΣΑΣ ΑΣ".lower())
print("Σ".lower(), "AΣ".lower(), "AΣB".lower())
# ---- swapcase_capitalize_unicode
print("ÀbÇ dÉf".swapcase(), "élan vital".capitalize(), "ǅemal".capitalize())
print("ﬀ".capitalize(), "ß".capitalize(), "ß".title())
# ---- isalpha_unicode
for s in ["é", "日本", "ß", "Ω", "١٢٣", "½", "①", "🎉", "\u0301", "Ⅻ"]:
    print(repr(s), s.isalpha(), s.isdigit(), s.isnumeric(), s.isdecimal(), s.isalnum())
# ---- isspace_unicode
for s in [" ", "\t\n", "\xa0", "\u2003", "\u200b", "\u3000", "\x1c", ""]:
    print(repr(s), s.isspace())
# ---- split_unicode_whitespace
s = "a\u3000b\xa0c\u2003d e\u200bf"
print(s.split())
print(len(s.split()))
# ---- int_from_unicode_digits
print(int("١٢٣"), int("٤٢") + 1, int("  ７  "), float("１.５"))
print(int("²") if "²".isdecimal() else "not decimal")
# ---- sorted_codepoint_order
names = ["Émile", "Zoë", "adam", "Ådne", "Bob", "émile", "zed", "Ölga"]
print(sorted(names))
print(sorted(names, key=str.casefold))
print(sorted(names, key=len))
# ---- ord_values_mixed
s = "aé€😀"
print([ord(c) for c in s])
print([hex(ord(c)) for c in s])
print("".join(chr(ord(c) + 1) for c in "HAL"))
# ---- emoji_handling
s = "I ❤️ Python 🐍🐍"
print(len(s), s.count("🐍"), s.index("🐍"), s.replace("🐍", "snake"))
print([c for c in s if ord(c) > 0xFFFF])
print(s.encode("utf-8")[:8])
# ---- combining_characters
s1 = "café"
s2 = "cafe\u0301"
print(s1 == s2, len(s1), len(s2))
print(s2.upper(), s2[-1] == "\u0301", repr(s2[-2:]))
# ---- unicode_center_and_format
for w in ["日本", "Zoë", "🎉"]:
    print(f"[{w:^7}] [{w:<5}] [{w:>4}]")
# ---- reverse_unicode
print("東京タワー"[::-1], "Zoë"[::-1], "abc✓"[::-1])
# ---- count_non_ascii_chars
s = "Ünïcödé tëxt with ÀSCII"
print(sum(1 for c in s if ord(c) > 127))
print([c for c in s if not c.isascii()])
print(s.isascii(), "plain".isascii(), "".isascii())
# ---- utf8_roundtrip
for s in ["ascii", "Grüße", "日本語", "🎉x"]:
    b = s.encode()
    print(len(s), len(b), b.decode() == s, b.hex()[:12])
# ---- encode_errors_modes
s = "naïve ✓"
print(s.encode("ascii", "ignore"), s.encode("ascii", "replace"))
print(s.encode("ascii", "backslashreplace"), s.encode("ascii", "xmlcharrefreplace"))
# ---- escapes_in_literals
s = "\u00e9\N{GREEK SMALL LETTER ALPHA}\U0001F600\x41"
print(s, len(s), repr(s))
print("\N{BULLET} item", "\N{EM DASH}".encode())
# ---- str_repr_nonprintable_unicode
for s in ["\u200e", "\ufeff", "\u2028", "\U000e0001", "\x85", "\u00ad", "\ud7ff"]:
    print(repr(s), s.isprintable())
# ---- maxmin_unicode
print(max("héllo wörld"), min("ÄBC"), max(["é", "z", "Z"]))
# ---- find_after_multibyte
line = "Zoë → Björn: 42 €"
i = line.find("42")
print(i, line[i:i + 2], line[:i].strip(), len(line[:i]))
print(line.split("→")[1].strip().split(":")[0])
# ---- casefold_matching
needle = "STRASSE"
hay = ["Straße", "strasse", "Strase", "STRAẞE"]
print([h for h in hay if h.casefold() == needle.casefold()])
print("ẞ".lower(), "ß".upper(), "ẞ".casefold())
# ---- title_unicode_words
print("élan ñandú über ÆSIR".title())
print("hello-world o'brien ﬂow".title())
