# Cases for the difflib module wrapper; module_gen.py records CPython's output.
# ---- matcher_strings
import difflib
s = difflib.SequenceMatcher(None, "abxcd", "abcd")
print(s.get_matching_blocks(), s.ratio(), s.quick_ratio(), s.real_quick_ratio())
print(s.get_opcodes())
m = s.find_longest_match(0, 5, 0, 4)
print(m, m.a, m.b, m.size, m[2], tuple(m), m == (0, 0, 2), isinstance(m, tuple), type(m).__name__)
a, b, size = s.find_longest_match()
print(a, b, size, s.find_longest_match(2, 5, 1, 4), s.find_longest_match(alo=1, bhi=2))
print(s.a, s.b, s.isjunk, s.autojunk, s.b2j)
s.set_seqs("private Thread currentThread;", "private volatile Thread currentThread;")
print(round(s.ratio(), 3), s.get_opcodes())
s.set_seq1("qabxcd")
print(s.get_opcodes())
s.set_seq2("abycdf")
print(s.get_opcodes(), difflib.SequenceMatcher().ratio())
# ---- matcher_junk
import difflib
s = difflib.SequenceMatcher(lambda x: x == " ", "private Thread currentThread;", "private volatile Thread currentThread;")
print(round(s.ratio(), 3), s.get_matching_blocks(), s.bjunk)
s = difflib.SequenceMatcher(lambda x: x in "xy", "axbycz", "abcxyz")
print(s.get_opcodes(), sorted(s.bjunk), s.b2j)
seen = []
def junk(c):
    seen.append(c)
    return c == "a"
difflib.SequenceMatcher(junk, "", "banana split")
print(seen)
b = "a" * 150 + "b" * 60 + "c"
s = difflib.SequenceMatcher(None, "abc", b)
print(s.bpopular, len(s.b2j), s.ratio())
s = difflib.SequenceMatcher(None, "abc", b, autojunk=False)
print(s.bpopular, len(s.b2j), round(s.ratio(), 6))
# ---- matcher_lists
import difflib
a = ["one", "two", "three", 4, (5, 6)]
b = ["one", "three", "two", 4, (5, 6), None]
s = difflib.SequenceMatcher(None, a, b)
print(s.get_opcodes(), s.ratio(), s.b2j)
s = difflib.SequenceMatcher(None, list("abcd"), "abxd")
print(s.get_opcodes(), s.ratio())
s = difflib.SequenceMatcher(None, (1, 2, 3, 1.0), [1.0, 2, True, 3])
print(s.get_matching_blocks())
s = difflib.SequenceMatcher(a=range(10), b=range(3, 12))
print(s.get_opcodes())
# ---- grouped_opcodes
import difflib
a = list(map(str, range(1, 40)))
b = a[:]
b[8:8] = ["i"]
b[20] += "x"
b[23:28] = []
b[30] += "y"
s = difflib.SequenceMatcher(None, a, b)
for g in s.get_grouped_opcodes():
    print(g)
print(list(s.get_grouped_opcodes(1))[:2])
print(s.get_opcodes()[0], s.get_opcodes()[-1])
print(list(difflib.SequenceMatcher(None, "abc", "abc").get_grouped_opcodes()))
print(list(difflib.SequenceMatcher(None, "", "").get_grouped_opcodes()))
# ---- matcher_subclass
import difflib
class M(difflib.SequenceMatcher):
    def __init__(self, a, b):
        super().__init__(None, a, b)
        self.label = "m"
    def pct(self):
        return round(self.ratio() * 100)
m = M("hello", "hallo")
print(m.pct(), m.label, isinstance(m, difflib.SequenceMatcher), m.a)
# ---- matcher_errors
import difflib
for f in [lambda: difflib.SequenceMatcher(None, [[1]], [[1]]), lambda: difflib.SequenceMatcher(None, "a", "b", True, 4), lambda: difflib.SequenceMatcher(None, 5, "a").ratio(), lambda: difflib.SequenceMatcher(None, "a", 5),
          lambda: difflib.SequenceMatcher(None, "a", "b").find_longest_match(0, "x"), lambda: difflib.SequenceMatcher(isjunk=1, a="a", b="ab")]:
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
# ---- close_matches
import difflib
print(difflib.get_close_matches("appel", ["ape", "apple", "peach", "puppy"]))
kwlist = ['False', 'None', 'True', 'and', 'as', 'assert', 'async', 'await', 'break', 'class', 'continue', 'def', 'del', 'elif', 'else', 'except', 'finally', 'for', 'from', 'global', 'if', 'import', 'in', 'is', 'lambda', 'nonlocal', 'not', 'or', 'pass', 'raise', 'return', 'try', 'while', 'with', 'yield']
print(difflib.get_close_matches("wheel", kwlist), difflib.get_close_matches("pineapple", kwlist), difflib.get_close_matches("accept", kwlist))
print(difflib.get_close_matches("abc", ["abd", "abe", "abc", "xbc"], n=2), difflib.get_close_matches("abc", ("ab", "abcd"), 5, 0.0), difflib.get_close_matches("", ["", "a"]))
for args in [("a", ["a"], 0), ("a", ["a"], 1, 1.5), ("a", ["a"], 1, -0.1)]:
    try:
        difflib.get_close_matches(*args)
    except ValueError as e:
        print(e)
# ---- unified
import difflib
a = ["bacon\n", "eggs\n", "ham\n", "guido\n"]
b = ["python\n", "eggy\n", "hamster\n", "guido\n"]
print("".join(difflib.unified_diff(a, b, fromfile="before.py", tofile="after.py")))
print(list(difflib.unified_diff(["a", "b"], ["a", "c"], lineterm="")))
print(list(difflib.unified_diff(["a"], ["a"])), list(difflib.unified_diff([], [])), list(difflib.unified_diff([], ["x"])))
x = list("abcdefghijklmnopqrstuvwxyz")
y = x[:]
y[3], y[20] = "D", "U"
print(list(difflib.unified_diff(x, y, "x", "y", "2024-01-01", "2024-01-02", n=1, lineterm="")))
print(list(difflib.unified_diff(x, y, n=0, lineterm="")))
g = difflib.unified_diff(a, b)
print(type(g).__name__, next(g), next(g))
# ---- context
import difflib
a = ["bacon\n", "eggs\n", "ham\n", "guido\n"]
b = ["python\n", "eggy\n", "hamster\n", "guido\n"]
print("".join(difflib.context_diff(a, b, fromfile="before.py", tofile="after.py")))
print(list(difflib.context_diff(["a", "b", "c"], ["a", "c", "d"], lineterm="")))
print(list(difflib.context_diff(["a", "b"], ["a"], n=0, lineterm="")), list(difflib.context_diff(["a"], ["a", "b"], lineterm="")))
# ---- diff_type_errors
import difflib
for args, kw in [(([1], ["a"]), {}), ((["a"], [2]), {}), ((["a"], ["b"]), {"fromfile": 1}), ((["a"], ["b"]), {"lineterm": None})]:
    g = difflib.unified_diff(*args, **kw)
    try:
        print(list(g))
    except TypeError as e:
        print(e)
try:
    list(difflib.context_diff([3], ["a"]))
except TypeError as e:
    print(e)
# ---- ndiff_differ
import difflib
diff = difflib.ndiff("one\ntwo\nthree\n".splitlines(keepends=True), "ore\ntree\nemu\n".splitlines(keepends=True))
lines = list(diff)
print("".join(lines), end="")
print("".join(difflib.restore(lines, 1)), end="")
print("".join(difflib.restore(lines, 2)), end="")
text1 = """  1. Beautiful is better than ugly.
  2. Explicit is better than implicit.
  3. Simple is better than complex.
  4. Complex is better than complicated.
""".splitlines(keepends=True)
text2 = """  1. Beautiful is better than ugly.
  3.   Simple is better than complex.
  4. Complicated is better than complex.
  5. Flat is better than nested.
""".splitlines(keepends=True)
d = difflib.Differ()
print("".join(d.compare(text1, text2)), end="")
print(list(difflib.Differ(charjunk=difflib.IS_CHARACTER_JUNK).compare(["abcdefg"], ["abcxefg"])))
print(list(difflib.ndiff(["a b c"], ["a  b c"], charjunk=None)), list(difflib.ndiff(["x", "#", ""], ["x", "y"], linejunk=difflib.IS_LINE_JUNK)))
print(d.linejunk, d.charjunk)
try:
    list(difflib.restore(lines, 3))
except ValueError as e:
    print(e)
# ---- junk_predicates
import difflib
print(difflib.IS_LINE_JUNK("\n"), difflib.IS_LINE_JUNK("  #   \n"), difflib.IS_LINE_JUNK("hello\n"), difflib.IS_LINE_JUNK("##"), difflib.IS_LINE_JUNK(""))
print(difflib.IS_CHARACTER_JUNK(" "), difflib.IS_CHARACTER_JUNK("\t"), difflib.IS_CHARACTER_JUNK("\n"), difflib.IS_CHARACTER_JUNK("x"), difflib.IS_CHARACTER_JUNK("x", "xyz"))
# ---- refused_html
import difflib
print("x")
difflib.HtmlDiff()
# ---- refused_bounds
import difflib
print(difflib.SequenceMatcher(None, "abc", "abc").find_longest_match(0, 3, 0, 3))
difflib.SequenceMatcher(None, "abc", "abc").find_longest_match(0, 9, 0, 3)
