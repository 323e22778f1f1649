# Cases for the bisect module; gen.py records CPython's output.
# ---- bisect_left_right
import bisect
xs = [1, 2, 4, 4, 4, 7, 9]
print(bisect.bisect_left(xs, 4), bisect.bisect_right(xs, 4), bisect.bisect(xs, 4), bisect.bisect_left(xs, 0), bisect.bisect(xs, 10))
print(bisect.bisect_left(xs, 4, 3), bisect.bisect_right(xs, 4, 0, 3), bisect.bisect_left(xs, 4, lo=4, hi=5), bisect.bisect(xs, 4, hi=None))
print(bisect.bisect_left([], 1), bisect.bisect_right([], 1), bisect.bisect_left(xs, 4, 5, 2))
# ---- insort
import bisect
xs = []
for v in [5, 1, 4, 1, 9, 2]:
    bisect.insort(xs, v)
print(xs)
bisect.insort_left(xs, 4)
bisect.insort_right(xs, 4.0)
print(xs, bisect.insort(xs, 0))
ys = [1, 3]
bisect.insort(ys, 2, 0, 1)
print(ys)
# ---- insort_identity
import bisect
a, b = [1], [1]
xs = [a]
bisect.insort_left(xs, b)
print(xs[0] is b, xs[1] is a)
ys = [a]
bisect.insort_right(ys, b)
print(ys[0] is a, ys[1] is b)
# ---- key
import bisect
recs = [("a", 1), ("b", 3), ("c", 5)]
print(bisect.bisect_left(recs, 3, key=lambda r: r[1]), bisect.bisect_right(recs, 3, key=lambda r: r[1]))
bisect.insort(recs, ("x", 4), key=lambda r: r[1])
bisect.insort_left(recs, ("y", 3), key=lambda r: r[1])
print(recs, bisect.bisect(recs, 10, key=None))
# ---- strings_and_tuples
import bisect
words = ["apple", "banana", "cherry", "date"]
print(bisect.bisect(words, "blueberry"), bisect.bisect_left(words, "cherry"), bisect.bisect(words, "Zebra"))
print(bisect.bisect("acegi", "f"), bisect.bisect((1, 3, 5), 3), bisect.bisect(range(0, 100, 10), 35))
# ---- grade
import bisect
def grade(score, breaks=[60, 70, 80, 90], grades="FDCBA"):
    return grades[bisect.bisect(breaks, score)]
print([grade(s) for s in [33, 99, 77, 70, 89, 90, 100, 60]])
# ---- negative_lo
import bisect
bisect.bisect_left([1], 1, -1)
# ---- missing_x
import bisect
bisect.bisect_left([1])
# ---- hi_past_end
import bisect
bisect.bisect_left([1], 1, 0, 5)
# ---- bad_lo
import bisect
bisect.bisect_left([1], 1, "a")
# ---- none_lo
import bisect
bisect.bisect_left([1], 1, None)
# ---- insort_tuple
import bisect
bisect.insort((1, 2), 1)
# ---- uncomparable
import bisect
bisect.bisect([1, 2], "a")
# ---- unsized
import bisect
bisect.bisect(5, 1)
# ---- key_positional
import bisect
bisect.bisect([1], 1, 0, 1, len)
# ---- unknown_kw
import bisect
bisect.bisect([1], 1, k=2)
# ---- insort_subclass_insert
import bisect
class L(list):
    def insert(self, i, x):
        print("insert", i, x)
        list.insert(self, i, x)
xs = L([1, 3])
bisect.insort(xs, 2)
print(xs)
# ---- custom_sequence
import bisect
class Seq:
    def __init__(self, n):
        self.n = n
    def __len__(self):
        return self.n
    def __getitem__(self, i):
        return i * 2
print(bisect.bisect_left(Seq(50), 31), bisect.bisect_right(Seq(50), 30))
# ---- custom_lt
import bisect
class V:
    def __init__(self, v):
        self.v = v
    def __lt__(self, o):
        print("lt", self.v, o.v)
        return self.v < o.v
    def __repr__(self):
        return f"V({self.v})"
xs = [V(1), V(3), V(5)]
print(bisect.bisect_left(xs, V(4)), bisect.bisect_right(xs, V(3)))
# ---- module_attrs
import bisect
print(bisect.bisect is bisect.bisect_right, bisect.insort is bisect.insort_right, bisect.bisect_left)
