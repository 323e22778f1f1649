# Strings: methods, slicing, searching, splitting, joining, formatting helpers.
# ---- split_default_whitespace
s = "  alpha  beta\tgamma\n delta  "
print(s.split())
print(s.split(" "))
print(s.split(None, 2))
print(len(s.split()))
# ---- split_sep_and_maxsplit
line = "a,b,,c,"
print(line.split(","))
print(line.split(",", 1))
print(line.rsplit(",", 1))
print("".split(","))
print("".split())
# ---- split_empty_separator_raises
print("abc".split(""))
# ---- join_variants
words = ["log", "parse", "count"]
print("-".join(words))
print("".join(reversed(words)))
print(", ".join(w.upper() for w in words))
print(" | ".join(map(str, [1, 2, 3])))
# ---- join_non_string_raises
print(", ".join(["a", 1, "b"]))
# ---- strip_family
s = "xx--hello--xx"
print(s.strip("x"))
print(s.strip("x-"))
print(s.lstrip("x"))
print(s.rstrip("-x"))
print(repr("  \t padded \n ".strip()))
# ---- case_methods
s = "hello WORLD, it's a fine day"
print(s.upper())
print(s.lower())
print(s.title())
print(s.capitalize())
print(s.swapcase())
print("ß".upper(), "ǅ".lower(), "ǆ".title())
# ---- find_index_rfind
s = "the cat sat on the mat"
print(s.find("at"), s.rfind("at"), s.find("at", 6), s.find("dog"))
print(s.index("sat"), s.rindex("the"))
print(s.find(""), s.find("", 100), s.rfind(""))
print(s.count("at"), s.count("t"), s.count(""))
# ---- index_missing_raises
s = "abc"
print(s.index("b"))
print(s.index("z"))
# ---- startswith_endswith_tuples
name = "report_2024_final.csv"
print(name.startswith("report"), name.endswith((".csv", ".tsv")))
print(name.startswith("2024", 7), name.endswith("final", 0, 17))
print(name.startswith(()), "".startswith(""))
# ---- replace_counts
s = "aaa-bbb-aaa"
print(s.replace("a", "x"))
print(s.replace("a", "x", 2))
print(s.replace("", "."))
print(s.replace("zzz", "y"))
print("abc".replace("", "-", 2))
# ---- slicing_basic
s = "0123456789"
print(s[2:5], s[:3], s[7:], s[-3:], s[:-7])
print(s[::2], s[1::2], s[::-1], s[8:2:-2])
print(repr(s[5:2]), repr(s[100:]), s[-100:3])
# ---- slicing_steps_edge
s = "abcdefgh"
print(s[::3], s[-1::-3], s[2:-2:2])
print(s[None:None:-1])
print(s[slice(1, 6, 2)])
# ---- slice_zero_step_raises
print("abc"[::0])
# ---- index_out_of_range
s = "hello"
print(s[4], s[-5])
print(s[5])
# ---- string_immutable
s = "hello"
s[0] = "j"
# ---- partition_rpartition
s = "key=value=more"
print(s.partition("="))
print(s.rpartition("="))
print(s.partition(":"))
print("no sep".rpartition("|"))
# ---- center_ljust_rjust_zfill
print("[" + "mid".center(9) + "]")
print("[" + "mid".center(10, "*") + "]")
print("[" + "left".ljust(8, ".") + "]", "[" + "right".rjust(8) + "]")
print("42".zfill(5), "-42".zfill(5), "+7".zfill(4), "abc".zfill(2))
# ---- predicates
for s in ["abc", "ABC", "Abc Def", "123", "12.5", " ", "", "a1", "Ⅷ", "²", "٣"]:
    print(repr(s), s.isalpha(), s.isupper(), s.istitle(), s.isdigit(), s.isdecimal(), s.isnumeric(), s.isspace(), s.isalnum())
# ---- isidentifier_isprintable
for s in ["abc", "_x1", "1x", "for", "naïve", "a b", "tab\t", "é"]:
    print(repr(s), s.isidentifier(), s.isprintable(), s.isascii())
# ---- splitlines_variants
text = "one\ntwo\r\nthree\rfour\n\nfive"
print(text.splitlines())
print(text.splitlines(True))
print("trailing\n".splitlines(), "".splitlines())
print("a\x0bb\x0cc\x1cd\u2028e".splitlines())
# ---- expandtabs
print(repr("a\tbc\tdef\tg".expandtabs()))
print(repr("a\tbc\tdef\tg".expandtabs(4)))
print(repr("\t".expandtabs(0)))
# ---- removeprefix_suffix
for s in ["test_parse.py", "parse.py", "test_"]:
    print(s.removeprefix("test_"), s.removesuffix(".py"))
# ---- concatenation_and_repeat
s = "ab"
print(s + "cd", s * 3, 3 * s, s * 0 == "", s * -2 == "")
t = s
t += "!"
print(s, t)
# ---- str_plus_int_raises
print("total: " + 5)
# ---- in_operator
s = "error: disk full"
print("disk" in s, "Disk" in s, "" in s, "full" not in s)
# ---- comparison_ordering
print("apple" < "banana", "Zebra" < "apple", "abc" < "abd", "ab" < "abc")
print(sorted(["b", "A", "a", "B", "é", "e", "Z"]))
print(max("hello"), min("hello"))
print("a" == "a", "a" != "b")
# ---- ord_chr
print(ord("A"), ord("é"), ord("€"), ord("😀"))
print(chr(97), chr(0x263A), chr(233))
print([chr(c) for c in range(ord("a"), ord("f"))])
# ---- chr_out_of_range
print(chr(0x110000))
# ---- ord_wrong_length
print(ord("ab"))
# ---- str_constructor
print(str(12), str(1.5), str(None), str(True), str([1, "a"]), str({"k": (1,)}))
print(repr(str()), str(b"ab"), str(-0.0))
# ---- repr_quotes
print(repr("plain"), repr("it's"), repr('say "hi"'), repr("both ' and \""))
print(repr("tab\tnew\nline\\"), repr("\x00\x7f"), repr("é✓🎉"))
print(repr("\u200b"), repr("\xa0"), repr("\u0301"))
# ---- translate_maketrans
table = str.maketrans("abc", "xyz", "!")
print("aabbcc!!".translate(table))
print("hello".translate({ord("l"): "L", ord("o"): None}))
print(str.maketrans({"a": "1"}))
# ---- casefold_compare
words = ["Straße", "STRASSE", "strasse"]
print([w.casefold() for w in words])
print(len({w.casefold() for w in words}))
print("ǅ".casefold(), "ΣΑΣ".lower(), "ΣΑΣ".casefold())
# ---- format_method
print("{} + {} = {}".format(1, 2, 3))
print("{0}{1}{0}".format("ab", "-"))
print("{name} is {age}".format(name="Ann", age=30))
print("{:>6}|{:<6}|{:^6}".format("r", "l", "c"))
print("{0[1]} {1[k]}".format([10, 20], {"k": "v"}))
print("{{literal}} {}".format("x"))
# ---- format_missing_index
print("{} {}".format("only one"))
# ---- percent_formatting
print("%s has %d items (%.1f%%)" % ("cart", 3, 42.456))
print("%5s|%-5s|%05d|%x|%o|%e" % ("a", "b", 42, 255, 8, 12345.678))
print("%r %a" % ("é", "é"))
print("%(name)s=%(val)03d" % {"name": "n", "val": 7})
print("%c%c" % (72, "i"))
# ---- percent_wrong_args
print("%d items" % "three")
# ---- word_frequency
text = "the quick brown fox jumps over the lazy dog the end"
freq = {}
for w in text.split():
    freq[w] = freq.get(w, 0) + 1
top = sorted(freq.items(), key=lambda kv: (-kv[1], kv[0]))[:3]
print(top)
print(max(freq, key=freq.get))
# ---- parse_key_values
raw = "host=db1; port=5432; user=admin ; timeout = 30"
cfg = {}
for part in raw.split(";"):
    k, _, v = part.partition("=")
    cfg[k.strip()] = v.strip()
print(cfg)
print(int(cfg["port"]) + 1, cfg.get("password", "<none>"))
# ---- csv_like_manual
rows = "name,age,city\nAnn,34,Oslo\nBo,27,Lund\nCé,45,Paris"
header, *data = rows.splitlines()
cols = header.split(",")
records = [dict(zip(cols, r.split(","))) for r in data]
print(records[2])
print(sum(int(r["age"]) for r in records) / len(records))
print(sorted(r["name"] for r in records))
# ---- string_building_loop
parts = []
for i in range(5):
    parts.append(f"{i}:{i * i}")
print(";".join(parts))
acc = ""
for ch in "abc":
    acc = ch + acc
print(acc)
# ---- reverse_words_palindromes
def is_pal(s):
    t = "".join(c.lower() for c in s if c.isalnum())
    return t == t[::-1]
for s in ["A man, a plan, a canal: Panama", "hello", "Was it a car or a cat I saw?", ""]:
    print(is_pal(s))
print(" ".join(reversed("one two three".split())))
# ---- count_vowels
s = "Programming in Python is fun"
print(sum(1 for c in s.lower() if c in "aeiou"))
print({v: s.lower().count(v) for v in "aeiou"})
# ---- str_multiplication_table
for i in range(1, 4):
    print(" ".join(str(i * j).rjust(3) for j in range(1, 6)))
# ---- caesar_cipher
def shift(text, k):
    out = []
    for c in text:
        if c.isalpha() and c.isascii():
            base = ord("A") if c.isupper() else ord("a")
            out.append(chr((ord(c) - base + k) % 26 + base))
        else:
            out.append(c)
    return "".join(out)
enc = shift("Hello, World!", 3)
print(enc, shift(enc, -3))
# ---- str_iteration
for i, ch in enumerate("héllo"):
    print(i, ch, end="; ")
print()
print(list("abc"), tuple("ab"), set("aab") == {"a", "b"})
# ---- string_methods_chain
s = "  Error: Disk Quota Exceeded  "
print(s.strip().lower().replace(" ", "_").removeprefix("error:_"))
print(s.strip().split(": ", 1)[1].title().center(30, "="))
# ---- str_count_overlapping
s = "aaaa"
print(s.count("aa"), s.find("aa", 1), s.replace("aa", "b"))
print(sum(1 for i in range(len(s)) if s.startswith("aa", i)))
# ---- str_len_and_bool
for s in ["", " ", "0", "False"]:
    print(repr(s), len(s), bool(s))
# ---- str_mul_float_raises
print("ab" * 2.0)
# ---- str_hash_equal
print(hash("abc") == hash("ab" + "c"))
print({"a": 1}["a"], "abc".__len__(), "x".__add__("y"))
# ---- istitle_title_apostrophe
print("they're bill's friends".title())
print("hello world".title().istitle(), "Hello World".istitle(), "HELLO".istitle())
print("3rd place".title(), "o'neil".capitalize())
# ---- zfill_center_unicode
print("é".center(5, "*"), "日本".ljust(4, "_") + "|", "✓".rjust(3) + "|")
print(len("日本".ljust(4)))
# ---- str_split_rsplit_maxsplit
path = "/usr/local/lib/python3.12/site-packages"
print(path.split("/"))
print(path.rsplit("/", 2))
print(path.split("/", 2))
print(path.rsplit(maxsplit=1))
# ---- str_encode
print("héllo".encode())
print("héllo".encode("utf-8"), len("héllo".encode()))
print("abc".encode("ascii"), "naïve".encode("latin-1"))
print("€".encode("utf-8").hex())
# ---- str_encode_error
print("naïve".encode("ascii"))
# ---- bytes_decode
b = "Zoë ✓".encode()
print(b, len(b), b.decode(), b[:3].decode())
print(b"\xff".decode("utf-8", errors="replace"), b"abc".decode("ascii"))
# ---- bytes_decode_error
print(b"\xff\xfe".decode("utf-8"))
