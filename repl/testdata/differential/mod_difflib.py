# The difflib module.
# ---- sequence_matcher_ratio
import difflib
sm = difflib.SequenceMatcher(None, "kitten", "sitting")
print(round(sm.ratio(), 6), sm.get_matching_blocks(), sm.find_longest_match(0, 6, 0, 7))
print(difflib.SequenceMatcher(None, "abc", "abc").ratio(), difflib.SequenceMatcher(None, "", "").ratio())
# ---- opcodes
import difflib
a, b = "the quick brown fox", "the quack brown box"
for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b).get_opcodes():
    print(tag, repr(a[i1:i2]), repr(b[j1:j2]))
# ---- get_close_matches
import difflib
words = ["apple", "ape", "apply", "maple", "peach", "happy"]
print(difflib.get_close_matches("appel", words))
print(difflib.get_close_matches("peach", words, n=1), difflib.get_close_matches("zzz", words))
print(difflib.get_close_matches("aple", words, n=5, cutoff=0.5))
# ---- unified_diff
import difflib
old = ["a\n", "b\n", "c\n", "d\n"]
new = ["a\n", "B\n", "c\n", "d\n", "e\n"]
print("".join(difflib.unified_diff(old, new, fromfile="old.txt", tofile="new.txt")))
# ---- ndiff_and_context_diff
import difflib
print("\n".join(difflib.ndiff(["one", "two", "three"], ["one", "too", "three", "four"])))
print("".join(difflib.context_diff(["x\n", "y\n"], ["x\n", "z\n"], "a", "b")))
# ---- fuzzy_dedupe_names
import difflib
names = ["Jon Smith", "John Smith", "Jane Doe", "Jane  Doe", "J. Smith", "Bob Stone"]
groups = []
for n in names:
    for g in groups:
        if difflib.SequenceMatcher(None, n.lower(), g[0].lower()).ratio() > 0.8:
            g.append(n)
            break
    else:
        groups.append([n])
print(groups)
