# Cases for the heapq module; gen.py records CPython's output.
# ---- push_pop
import heapq
h = []
for v in [5, 1, 8, 3, 9, 2, 7, 7, 0, 4]:
    heapq.heappush(h, v)
    print(h)
print([heapq.heappop(h) for _ in range(len(h))], h)
# ---- heapify
import heapq
for xs in [[9, 4, 7, 1, 8, 2, 6], [], [1], [2, 1], list(range(20, 0, -1)), [3, 3, 1, 1, 2, 2], ["b", "a", "c"]]:
    heapq.heapify(xs)
    print(xs)
xs = [9, 4, 7, 1, 8, 2, 6]
heapq.heapify(xs)
print(heapq.heappushpop(xs, 0), heapq.heapreplace(xs, 10), xs, heapq.heappushpop(xs, 5), xs, heapq.heappushpop([], 3))
# ---- big_heapify
import heapq
xs = [(i * 7919) % 3001 for i in range(3000)]
heapq.heapify(xs)
print(xs[:20], sum(xs[i] for i in range(0, 3000, 7)))
print([heapq.heappop(xs) for _ in range(10)])
# ---- stability_tuples
import heapq
tasks = []
for prio, name in [(3, "write"), (1, "fix bug"), (2, "review"), (1, "deploy"), (2, "alpha")]:
    heapq.heappush(tasks, (prio, name))
print(tasks)
while tasks:
    print(heapq.heappop(tasks))
# ---- custom_lt
import heapq
class V:
    def __init__(self, v, tag):
        self.v, self.tag = v, tag
    def __lt__(self, o):
        return self.v < o.v
    def __repr__(self):
        return f"{self.v}{self.tag}"
h = [V(2, "a"), V(1, "b"), V(2, "c"), V(1, "d"), V(0, "e"), V(2, "f")]
heapq.heapify(h)
print(h)
print([heapq.heappop(h) for _ in range(6)])
# ---- nlargest_nsmallest
import heapq
scores = {"ann": 88, "bob": 95, "cy": 72, "di": 95, "ed": 60}
print(heapq.nlargest(3, scores.items(), key=lambda kv: kv[1]))
print(heapq.nsmallest(2, scores, key=scores.get), heapq.nlargest(2, [1, 5, 3]), heapq.nsmallest(10, [3, 1]))
print(heapq.nlargest(1, [3, 9, 2]), heapq.nsmallest(1, []), heapq.nlargest(0, [1, 2]), heapq.nsmallest(-3, [1, 2]))
data = [(i * 37) % 23 for i in range(40)]
print(heapq.nlargest(5, data), heapq.nsmallest(5, data), heapq.nlargest(5, iter(data)), heapq.nsmallest(5, iter(data)))
print(heapq.nlargest(4, iter(data), key=lambda x: x % 5), heapq.nsmallest(4, iter(data), key=lambda x: -x))
print(heapq.nlargest(3, "hello world"), heapq.nsmallest(3, (x for x in "hello world")))
# ---- nbest_ties_by_key
import heapq
words = ["bb", "a", "ccc", "dd", "e", "fff", "gg", "h"]
print(heapq.nlargest(3, words, key=len), heapq.nsmallest(3, words, key=len))
print(heapq.nlargest(3, iter(words), key=len), heapq.nsmallest(3, iter(words), key=len))
print(heapq.nlargest(2, [1.0, 1, True]), heapq.nsmallest(2, [1, 1.0, True]))
# ---- nbest_float_n
import heapq
print(heapq.nlargest(1.0, [3, 1]), heapq.nlargest(True, [3, 1]))
heapq.nlargest(2.0, [3, 1])
# ---- nbest_float_n_iter
import heapq
heapq.nlargest(2.5, iter([3, 1, 5]))
# ---- nbest_key_calls
import heapq
def k(x):
    print("key", x)
    return x
print(heapq.nsmallest(2, iter([5, 3, 8, 1]), key=k))
# ---- merge
import heapq
a, b, c = [1, 4, 7], [2, 5, 8], [0, 3, 9]
print(list(heapq.merge(a, b, c)), list(heapq.merge(["b", "d"], ["a", "c"], key=str)))
print(list(heapq.merge([5, 3], [4, 1], reverse=True)), list(heapq.merge()), list(heapq.merge([], [1], [])))
print(list(heapq.merge([1, 1, 2], [1, 2, 2])), list(heapq.merge("ace", "bdf")))
print(list(heapq.merge(["dog", "horse"], ["cat", "fish", "kangaroo"], key=len)))
print(list(heapq.merge([(1, "a"), (2, "b")], [(1, "z")], key=lambda p: p[0])))
print(list(heapq.merge([3, 2], [5, 1], key=lambda x: -x, reverse=False)))
g = heapq.merge([1], [2])
print(type(g).__name__, next(g), list(g), list(g))
# ---- merge_lazy
import heapq, itertools
evens = itertools.count(0, 2)
odds = itertools.count(1, 2)
print(list(itertools.islice(heapq.merge(evens, odds), 7)))
def gen(name, xs):
    for x in xs:
        print("pull", name, x)
        yield x
m = heapq.merge(gen("a", [1, 3]), gen("b", [2]))
print("made")
print(next(m))
print(list(m))
# ---- merge_key_calls
import heapq
def k(x):
    print("key", x)
    return x
print(list(heapq.merge([1, 4, 5, 6], [2, 3], key=k)))
# ---- merge_bad
import heapq
list(heapq.merge(1))
# ---- merge_bad_kw
import heapq
heapq.merge([1], x=2)
# ---- pop_empty
import heapq
heapq.heappop([])
# ---- replace_empty
import heapq
heapq.heapreplace([], 1)
# ---- push_tuple
import heapq
heapq.heappush((), 1)
# ---- heapify_int
import heapq
heapq.heapify(1)
# ---- heappop_int
import heapq
heapq.heappop(1)
# ---- push_uncomparable
import heapq
heapq.heappush([1], "a")
# ---- pop_no_args
import heapq
heapq.heappop()
# ---- push_one_arg
import heapq
heapq.heappush([])
# ---- push_kw
import heapq
heapq.heappush([], 1, k=1)
# ---- nlargest_missing
import heapq
heapq.nlargest(1)
# ---- nlargest_too_many
import heapq
heapq.nlargest(2, [1, 2], 3, 4)
# ---- max_variants
import heapq
xs = [1, 5, 3, 9, 7]
heapq._heapify_max(xs)
print(xs, heapq._heappop_max(xs), xs, heapq._heapreplace_max(xs, 4), xs)
# ---- list_subclass
import heapq
class H(list):
    pass
h = H()
heapq.heappush(h, 3)
heapq.heappush(h, 1)
print(h, type(h).__name__, heapq.heappop(h))
# ---- mutating_lt
import heapq
h = []
class Bad:
    def __lt__(self, o):
        h.append(1)
        return True
h.extend([Bad(), Bad()])
heapq.heappush(h, Bad())
# ---- dijkstra
import heapq
g = {"a": {"b": 4, "c": 1}, "b": {"d": 1}, "c": {"b": 2, "d": 5}, "d": {}}
def shortest(src):
    dist = {src: 0}
    pq = [(0, src)]
    while pq:
        d, u = heapq.heappop(pq)
        if d > dist.get(u, float("inf")):
            continue
        for v, w in g[u].items():
            if d + w < dist.get(v, float("inf")):
                dist[v] = d + w
                heapq.heappush(pq, (d + w, v))
    return dict(sorted(dist.items()))
print(shortest("a"))
# ---- module_attrs
import heapq
print(heapq.__all__, heapq.heappush)
