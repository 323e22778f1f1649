# Records CPython 3.12's textwrap results for the Go kernel's tests.
# Regenerate from this directory with:
#   /root/.pyenv/versions/3.12.1/bin/python3.12 testdata/gen.py > testdata/cases.json
# Each line is one JSON case: the function, its text and options, and the
# result or the error as "Type: message".
import json, random, signal, sys, textwrap
assert sys.version_info[:2] == (3, 12)

r = random.Random(7)
WORDS = ["Hello", "there", "--", "you", "goof-ball,", "use", "the", "-b", "option!", "a", "I", "x-y-z",
         "well-known", "e-mail", "re-re-entry", "foo--bar", "spam---eggs", "--leading", "trailing--",
         "A-", "-", "---", "mid-1990s", "_under-score_", "Mr.", "end.", 'said."', "ok?", "wow!",
         "supercalifragilisticexpialidocious", "pneumono-ultra-microscopic-silico-volcano",
         "héllo", "naïve-café", "日本語テキスト", "α-β-γ", "x²-y²", "3-4", "a-b", "ab-cd", "abc-d",
         "don't", "it's", "a.b.c", "1.5", "\u00a0", "tab\there", "new\nline", "cr\rx", "\u2003em",
         "...", "?!", "'q'", "(paren)", "[br]", "über-long-compound-word-here", "ccc-dd-eee-ff-gggg"]
SEPS = [" ", " ", " ", "  ", "\t", "\n", " \n ", "\r\n", "\x0b", "\x0c"]

def text():
    n = r.randint(0, 30)
    out = []
    if r.random() < 0.2:
        out.append(r.choice(SEPS))
    for i in range(n):
        out.append(r.choice(WORDS))
        if i < n - 1 or r.random() < 0.2:
            out.append(r.choice(SEPS))
    return "".join(out)

def opts():
    o = {"width": r.choice([1, 2, 3, 5, 8, 10, 12, 15, 20, 30, 40, 70])}
    if r.random() < 0.3: o["initial_indent"] = r.choice(["", "* ", "    ", ">>>", "–"])
    if r.random() < 0.3: o["subsequent_indent"] = r.choice(["", "  ", "| ", "\t"])
    for k in ["expand_tabs", "replace_whitespace", "fix_sentence_endings", "break_long_words",
              "drop_whitespace", "break_on_hyphens"]:
        if r.random() < 0.25: o[k] = r.random() < 0.5
    if r.random() < 0.15: o["tabsize"] = r.choice([0, 1, 4, 3])
    if r.random() < 0.3: o["max_lines"] = r.choice([1, 2, 3, 5])
    if r.random() < 0.2: o["placeholder"] = r.choice(["...", " [...]", "", "  ~~", " (more)"])
    return o

class Hang(Exception):
    pass

def alarm(*_):
    raise Hang()

signal.signal(signal.SIGALRM, alarm)

def run(fn, *args, **kw):
    # Some inputs make CPython loop forever (an indent at least as wide as
    # the width with drop_whitespace): recorded as "HANG".
    signal.setitimer(signal.ITIMER_REAL, 0.5)
    try:
        return fn(*args, **kw)
    except Hang:
        return "HANG"
    except Exception as e:
        return "%s: %s" % (type(e).__name__, e)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)

cases = []
FIXED = [
    "Hello there -- you goof-ball, use the -b option!",
    "Look, goof-ball -- use the -b option!",
    "This is a sentence. This is another.\nAnd a third!  Is it? \"Yes.\" Maybe",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa-bbbbbbbbbbbbbbbbbbbbbbbbbbbb",
    "--------------------",
    "a-b-c-d-e-f-g-h-i-j-k-l-m-n-o-p",
    "", "   ", "\t\tindented\ttabs\t", "x", "word " * 40,
]
for t in FIXED:
    for w in [1, 2, 4, 7, 10, 16, 25, 70]:
        for extra in [{}, {"break_on_hyphens": False}, {"break_long_words": False}, {"max_lines": 2},
                      {"drop_whitespace": False}, {"fix_sentence_endings": True}, {"expand_tabs": False}]:
            o = dict(width=w, **extra)
            cases.append({"fn": "wrap", "text": t, "opts": o, "out": run(textwrap.wrap, t, **o)})
for i in range(1500):
    t, o = text(), opts()
    cases.append({"fn": "wrap", "text": t, "opts": o, "out": run(textwrap.wrap, t, **o)})
for i in range(300):
    t, o = text(), opts()
    o.pop("max_lines", None)
    cases.append({"fn": "shorten", "text": t, "opts": o, "out": run(textwrap.shorten, t, **o)})
for i in range(100):
    t, o = text(), opts()
    cases.append({"fn": "fill", "text": t, "opts": o, "out": run(textwrap.fill, t, **o)})
cases.append({"fn": "wrap", "text": "abc", "opts": {"width": 0}, "out": run(textwrap.wrap, "abc", width=0)})
cases.append({"fn": "wrap", "text": "", "opts": {"width": -3}, "out": run(textwrap.wrap, "", width=-3)})
cases.append({"fn": "wrap", "text": "abc def", "opts": {"width": 4, "max_lines": 1, "placeholder": " [.....]"},
              "out": run(textwrap.wrap, "abc def", width=4, max_lines=1, placeholder=" [.....]")})
cases.append({"fn": "wrap", "text": "ab-cd ef-gh", "opts": {"width": 4, "break_on_hyphens": 1},
              "out": run(textwrap.wrap, "ab-cd ef-gh", width=4, break_on_hyphens=1)})
cases.append({"fn": "wrap", "text": "aa-bb-cc dd", "opts": {"width": 5, "break_on_hyphens": 1},
              "out": run(textwrap.wrap, "aa-bb-cc dd", width=5, break_on_hyphens=1)})

DED = ["    hello\n      world\n", "\thello\n    world", "  a\n\n  b\n   \n  c", "no indent\n  x",
       "   \n   \n", "  x\r\n  y\r\n", " \t a\n \t b\n \t\tc", "  a\n \tb", "\n\n  a\n  b\n\n",
       "        foo\n    bar\n            baz\n", "  \u00a0a\n  b", ""]
for t in DED:
    cases.append({"fn": "dedent", "text": t, "opts": {}, "out": textwrap.dedent(t)})
for i in range(100):
    lines = []
    for j in range(r.randint(0, 6)):
        lines.append(r.choice(["", " ", "\t", "  ", "    ", " \t"]) + r.choice(["", "x", "y z", " ", "\t"]))
    t = r.choice(["\n", "\r\n"]).join(lines) + r.choice(["", "\n"])
    cases.append({"fn": "dedent", "text": t, "opts": {}, "out": textwrap.dedent(t)})
IND = ["hello\n\n \nworld\n", "a\r\nb\rc\x0bd\x0ce\x1cf\x85g\u2028h", "", "   ", "one", "x\n\ny"]
for t in IND:
    for p in ["> ", "", "  "]:
        cases.append({"fn": "indent", "text": t, "opts": {"prefix": p}, "out": textwrap.indent(t, p)})
        cases.append({"fn": "indent_all", "text": t, "opts": {"prefix": p}, "out": textwrap.indent(t, p, lambda l: True)})
for c in cases:
    print(json.dumps(c, ensure_ascii=False))
