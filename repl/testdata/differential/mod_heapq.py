# The heapq module.
# ---- heappush_heappop
import heapq
h = []
for v in [5, 1, 8, 3, 9, 2]:
    heapq.heappush(h, v)
print(h, h[0])
print([heapq.heappop(h) for _ in range(3)], h)
# ---- heapify_and_order
import heapq
xs = [9, 4, 7, 1, 8, 2, 6]
heapq.heapify(xs)
print(xs)
print(heapq.heappushpop(xs, 0), heapq.heapreplace(xs, 10), xs)
# ---- nlargest_nsmallest
import heapq
scores = {"ann": 88, "bob": 95, "cy": 72, "di": 95, "ed": 60}
print(heapq.nlargest(3, scores.items(), key=lambda kv: kv[1]))
print(heapq.nsmallest(2, scores, key=scores.get), heapq.nlargest(2, [1, 5, 3]), heapq.nsmallest(10, [3, 1]))
# ---- heap_of_tuples_priority_queue
import heapq
tasks = []
for prio, name in [(3, "write"), (1, "fix bug"), (2, "review"), (1, "deploy")]:
    heapq.heappush(tasks, (prio, name))
while tasks:
    print(heapq.heappop(tasks))
# ---- merge_sorted_streams
import heapq
a = [1, 4, 7]
b = [2, 5, 8]
c = [0, 3, 9]
print(list(heapq.merge(a, b, c)), list(heapq.merge(["b", "d"], ["a", "c"], key=str)))
print(list(heapq.merge([5, 3], [4, 1], reverse=True)))
# ---- heappop_empty
import heapq
heapq.heappop([])
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
# ---- running_median_two_heaps
import heapq
lo, hi = [], []
out = []
for x in [5, 15, 1, 3, 8, 7, 9, 10]:
    heapq.heappush(lo, -x)
    heapq.heappush(hi, -heapq.heappop(lo))
    if len(hi) > len(lo):
        heapq.heappush(lo, -heapq.heappop(hi))
    out.append(-lo[0] if len(lo) > len(hi) else (-lo[0] + hi[0]) / 2)
print(out)
