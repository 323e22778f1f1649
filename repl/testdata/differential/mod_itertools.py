# The itertools module.
# ---- count_cycle_repeat
import itertools
print(list(itertools.islice(itertools.count(10, 5), 4)), list(itertools.islice(itertools.count(1.5, 0.5), 3)))
print(list(itertools.islice(itertools.cycle("ab"), 5)), list(itertools.repeat("x", 3)))
print(list(zip(itertools.count(), "abc")), list(map(pow, range(4), itertools.repeat(2))))
# ---- chain_and_from_iterable
import itertools
print(list(itertools.chain([1, 2], "ab", (3,))), list(itertools.chain.from_iterable([[1], [2, 3], []])))
print(list(itertools.chain()), "".join(itertools.chain("ab", "cd")))
# ---- islice_variants
import itertools
s = "abcdefghij"
print(list(itertools.islice(s, 3)), list(itertools.islice(s, 2, 8, 2)), list(itertools.islice(s, 8, None)))
print(list(itertools.islice(range(100), 95, None, 2)))
# ---- islice_negative
import itertools
itertools.islice("abc", -1)
# ---- product_permutations_combinations
import itertools
print(list(itertools.product("ab", [1, 2])))
print(list(itertools.product([0, 1], repeat=3))[:5], len(list(itertools.product(range(3), repeat=3))))
print(list(itertools.permutations("abc", 2)))
print(list(itertools.combinations("abcd", 2)), len(list(itertools.permutations(range(5)))))
print(list(itertools.combinations_with_replacement("ab", 2)))
# ---- groupby_sorted
import itertools
data = [("eng", "ann"), ("ops", "bob"), ("eng", "cy"), ("hr", "di"), ("ops", "ed")]
for k, g in itertools.groupby(sorted(data), key=lambda r: r[0]):
    print(k, [name for _, name in g])
print([(k, len(list(g))) for k, g in itertools.groupby("aaabccdaa")])
# ---- groupby_runs_unsorted
import itertools
statuses = [200, 200, 500, 500, 500, 200, 404, 404, 200]
runs = [(k, len(list(g))) for k, g in itertools.groupby(statuses)]
print(runs, max(runs, key=lambda r: r[1]))
# ---- accumulate_variants
import itertools, operator
print(list(itertools.accumulate([1, 2, 3, 4])), list(itertools.accumulate([1, 2, 3, 4], operator.mul)))
print(list(itertools.accumulate([5, 1, 7, 3], max)), list(itertools.accumulate([1, 2], initial=100)))
print(list(itertools.accumulate(["a", "b", "c"])))
# ---- takewhile_dropwhile_filterfalse
import itertools
nums = [1, 4, 6, 3, 8, 2]
print(list(itertools.takewhile(lambda x: x < 5, nums)), list(itertools.dropwhile(lambda x: x < 5, nums)))
print(list(itertools.filterfalse(lambda x: x % 2, nums)), list(filter(None, [0, 1, "", "a", None])))
# ---- zip_longest_starmap_compress
import itertools
print(list(itertools.zip_longest("abc", [1], fillvalue="-")), list(itertools.zip_longest([1, 2], "x")))
print(list(itertools.starmap(pow, [(2, 3), (3, 2)])), list(itertools.compress("abcdef", [1, 0, 1, 0, 1, 1])))
# ---- tee_and_pairwise
import itertools
a, b = itertools.tee([1, 2, 3])
print(list(a), list(b))
print(list(itertools.pairwise([1, 4, 9, 16])), [y - x for x, y in itertools.pairwise([1, 4, 9, 16])])
# ---- batched_312
import itertools
print(list(itertools.batched(range(10), 4)), list(itertools.batched("", 2)))
# ---- batched_invalid
import itertools
list(itertools.batched("abc", 0))
# ---- combinatorics_search
import itertools
items = {"a": 3, "b": 5, "c": 7, "d": 2}
best = [c for r in range(1, 5) for c in itertools.combinations(items, r) if sum(items[k] for k in c) == 10]
print(best)
print(sum(1 for _ in itertools.permutations(range(6), 3)))
# ---- itertools_pipeline_lazy
import itertools
def gen():
    for i in itertools.count(1):
        yield i * i
evens = (x for x in gen() if x % 2 == 0)
print(list(itertools.islice(evens, 5)))
print(next(itertools.dropwhile(lambda x: x < 500, gen())))
# ---- product_grid_coordinates
import itertools
grid = ["#.#", "..#", "#.."]
walls = [(r, c) for r, c in itertools.product(range(3), range(3)) if grid[r][c] == "#"]
print(walls, len(walls))
# ---- chain_dedupe_sorted_merge
import itertools, heapq
a, b = [1, 4, 9], [2, 3, 10]
print(sorted(itertools.chain(a, b)), list(heapq.merge(a, b)))
print(list(dict.fromkeys(itertools.chain("abc", "bcd"))))
# ---- groupby_log_consecutive_levels
import itertools
levels = [l.split()[2] for l in context.splitlines()[1:30] if l[:4] == "2024"]
print([(k, len(list(g))) for k, g in itertools.groupby(levels)][:8])
