# The bisect module.
# ---- bisect_left_right
import bisect
xs = [1, 2, 4, 4, 4, 7, 9]
print(bisect.bisect_left(xs, 4), bisect.bisect_right(xs, 4), bisect.bisect(xs, 4), bisect.bisect_left(xs, 0), bisect.bisect(xs, 10))
print(bisect.bisect_left(xs, 4, 3), bisect.bisect_right(xs, 4, 0, 3))
# ---- insort_keeps_sorted
import bisect
xs = []
for v in [5, 1, 4, 1, 9, 2]:
    bisect.insort(xs, v)
print(xs)
bisect.insort_left(xs, 4)
print(xs)
# ---- grade_lookup
import bisect
def grade(score, breaks=[60, 70, 80, 90], grades="FDCBA"):
    return grades[bisect.bisect(breaks, score)]
print([grade(s) for s in [33, 99, 77, 70, 89, 90, 100, 60]])
# ---- bisect_with_key_312
import bisect
recs = [("a", 1), ("b", 3), ("c", 5)]
print(bisect.bisect_left(recs, 3, key=lambda r: r[1]), bisect.bisect_right(recs, 3, key=lambda r: r[1]))
bisect.insort(recs, ("x", 4), key=lambda r: r[1])
print(recs)
# ---- count_in_range
import bisect
xs = sorted([15, 3, 8, 23, 42, 4, 16, 8])
def count_between(lo, hi):
    return bisect.bisect_right(xs, hi) - bisect.bisect_left(xs, lo)
print(xs, count_between(4, 16), count_between(100, 200), count_between(8, 8))
# ---- timestamps_window
import bisect
times = [l[11:19] for l in context.splitlines() if l[:4] == "2024"]
lo = bisect.bisect_left(times, "09:00:00")
hi = bisect.bisect_left(times, "10:00:00")
print(hi - lo, times[lo], times[hi - 1])
# ---- bisect_strings
import bisect
words = ["apple", "banana", "cherry", "date"]
print(bisect.bisect(words, "blueberry"), bisect.bisect_left(words, "cherry"), bisect.bisect(words, "Zebra"))
