# Records CPython 3.12's difflib results for the Go kernel's tests.
# Regenerate from this directory with:
#   /root/.pyenv/versions/3.12.1/bin/python3.12 testdata/gen.py > testdata/cases.json
# Each line is one JSON case; "junk" is the set of characters (or lines)
# the isjunk callback accepts, or null for None.
import difflib, json, random, sys
assert sys.version_info[:2] == (3, 12)
r = random.Random(3)

def rstr(alpha, lo, hi):
    return "".join(r.choice(alpha) for _ in range(r.randint(lo, hi)))

def mutate(s, alpha, k):
    s = list(s)
    for _ in range(k):
        op = r.random()
        if op < 0.4 and s:
            s[r.randrange(len(s))] = r.choice(alpha)
        elif op < 0.7:
            s.insert(r.randint(0, len(s)), r.choice(alpha))
        elif s:
            del s[r.randrange(len(s))]
    return "".join(s)

cases = []
def matcher_case(a, b, junk, autojunk):
    isjunk = (lambda c: c in junk) if junk is not None else None
    m = difflib.SequenceMatcher(isjunk, a, b, autojunk)
    lm = m.find_longest_match()
    sub = None
    if len(a) > 4 and len(b) > 4:
        sub = [1, len(a) - 2, 2, len(b) - 1]
        sm = m.find_longest_match(*sub)
        sub.append(list(sm))
    c = {"kind": "matcher", "a": a, "b": b, "junk": junk, "autojunk": autojunk,
         "longest": list(lm), "sub": sub,
         "blocks": [list(x) for x in m.get_matching_blocks()],
         "opcodes": [list(x) for x in m.get_opcodes()],
         "grouped": {str(n): [[list(x) for x in g] for g in m.get_grouped_opcodes(n)] for n in [0, 1, 3]},
         "ratio": repr(m.ratio()), "quick": repr(m.quick_ratio()), "realquick": repr(m.real_quick_ratio()),
         "b2j": sorted([k, v] for k, v in m.b2j.items()), "bjunk": sorted(m.bjunk), "bpopular": sorted(m.bpopular)}
    cases.append(c)

for i in range(400):
    alpha = r.choice(["ab", "abc", "abcdefgh", "ab x\t", "héllo wörld", "0123456789 "])
    a = rstr(alpha, 0, 40)
    b = mutate(a, alpha, r.randint(0, 10)) if r.random() < 0.8 else rstr(alpha, 0, 40)
    junk = r.choice([None, None, " ", " \t", "x", "ab"])
    matcher_case(a, b, junk, r.random() < 0.8)
# autojunk: b of 200+ items with popular ones
for i in range(40):
    alpha = r.choice(["ab", "abcde", "abcdefghijklmnopqrstuvwxyz  "])
    b = rstr(alpha, 190, 400)
    a = mutate(b, alpha, r.randint(1, 30))
    matcher_case(a, b, r.choice([None, " "]), r.random() < 0.7)
matcher_case("", "", None, True)
matcher_case("abc", "", None, True)
matcher_case("", "abc", None, True)
matcher_case("private Thread currentThread;", "private volatile Thread currentThread;", " ", True)

WORDS = ["ape", "apple", "peach", "puppy", "applet", "appel", "aple", "pineapple", "happy", "zebra", "ape ", "Apple", "pplea"]
for word in ["appel", "ape", "pupy", "zzz", "", "a"]:
    for n, cutoff in [(3, 0.6), (1, 0.0), (10, 0.3), (2, 1.0), (0, 0.5), (3, 1.5), (3, -0.1)]:
        try:
            out = difflib.get_close_matches(word, WORDS, n, cutoff)
        except ValueError as e:
            out = "ValueError: %s" % e
        cases.append({"kind": "close", "word": word, "n": n, "cutoff": cutoff, "out": out})

LINES = ["one\n", "two\n", "three\n", "four\n", "five\n", "six\n", "seven\n", "eight\n", "\n", "  # comment\n",
         "tab\there\n", "private Thread currentThread;\n", "private volatile Thread currentThread;\n",
         "def f(x):\n", "def f(y):\n", "    return x\n", "    return y + 1\n", "end", "ab cd\n", "ab  cd\n", "abXcd\n"]
def rlines(k):
    return [r.choice(LINES) for _ in range(k)]
def mutate_lines(a, k):
    a = list(a)
    for _ in range(k):
        op = r.random()
        if op < 0.4 and a:
            a[r.randrange(len(a))] = r.choice(LINES)
        elif op < 0.7:
            a.insert(r.randint(0, len(a)), r.choice(LINES))
        elif a:
            del a[r.randrange(len(a))]
    return a
for i in range(250):
    a = rlines(r.randint(0, 25))
    b = mutate_lines(a, r.randint(0, 6))
    n = r.choice([0, 1, 3, 5])
    kw = {}
    if r.random() < 0.3:
        kw = {"fromfile": "a.py", "tofile": "b.py", "fromfiledate": r.choice(["", "2024-01-01"]), "tofiledate": "x", "lineterm": r.choice(["\n", ""])}
    cases.append({"kind": "unified", "a": a, "b": b, "n": n, "kw": kw, "out": list(difflib.unified_diff(a, b, n=n, **kw))})
    cases.append({"kind": "context", "a": a, "b": b, "n": n, "kw": kw, "out": list(difflib.context_diff(a, b, n=n, **kw))})
    cases.append({"kind": "ndiff", "a": a, "b": b, "out": list(difflib.ndiff(a, b))})
    cases.append({"kind": "differ_linejunk", "a": a, "b": b, "out": list(difflib.Differ(difflib.IS_LINE_JUNK, None).compare(a, b))})
# Similar lines, to exercise the intraline hints.
for i in range(150):
    alpha = r.choice(["abcdef ", "the quick brown fox\t", "0123456789"])
    a = [rstr(alpha, 5, 30) + "\n" for _ in range(r.randint(1, 5))]
    b = [mutate(x, alpha, r.randint(0, 4)) for x in a]
    if r.random() < 0.5:
        b = mutate_lines(b, 2)
    cases.append({"kind": "ndiff", "a": a, "b": b, "out": list(difflib.ndiff(a, b))})
    cases.append({"kind": "restore", "a": a, "b": b, "out": [list(difflib.restore(difflib.ndiff(a, b), 1)), list(difflib.restore(difflib.ndiff(a, b), 2))]})
for s in ["", " ", "  # x", "#", " # \n", "x", "\t#\t\n", "##", "# \n\n"]:
    cases.append({"kind": "linejunk", "a": s, "out": difflib.IS_LINE_JUNK(s)})
for c in cases:
    print(json.dumps(c, ensure_ascii=False))
