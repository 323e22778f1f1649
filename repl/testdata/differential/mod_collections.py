# The collections module: Counter, defaultdict, deque, OrderedDict, namedtuple, ChainMap.
# ---- counter_basics
from collections import Counter
c = Counter("mississippi")
print(c)
print(c["s"], c["z"], c.most_common(2), sorted(c.elements())[:5], c.total())
print(Counter(["a", "b", "a"]), Counter({"x": 2}), Counter(a=1, b=0))
# ---- counter_arithmetic
from collections import Counter
a = Counter(a=3, b=1, c=0)
b = Counter(a=1, b=2, d=4)
print(a + b, a - b, a & b, a | b)
print(+Counter(a=2, b=-1), -Counter(a=-2, b=1))
a.update("aab")
a.subtract({"b": 5})
print(a)
# ---- counter_most_common_ties
from collections import Counter
c = Counter(["x", "y", "z", "y", "x", "w"])
print(c.most_common(), c.most_common(1), c.most_common(0))
print(sorted(c.items(), key=lambda kv: (-kv[1], kv[0])))
# ---- counter_words_report
from collections import Counter
text = "the cat and the hat and the bat sat on the mat"
c = Counter(text.split())
for w, n in c.most_common(3):
    print(f"{w:<5}{n:>3} {'*' * n}")
print(len(c), sum(c.values()), list(c)[:4])
# ---- counter_comparisons_and_dict_ops
from collections import Counter
a = Counter("aab")
print(a == Counter("aba"), dict(a), a.get("z", 0), "a" in a, list(a.keys()))
del a["a"]
print(a, a.most_common())
print(Counter("abc") <= Counter("aabbcc"), Counter(a=1) == Counter(a=1, b=0))
# ---- defaultdict_list_int
from collections import defaultdict
groups = defaultdict(list)
for word in ["apple", "avocado", "banana", "blueberry", "cherry"]:
    groups[word[0]].append(word)
print(groups)
print(dict(groups), groups["z"], len(groups))
counts = defaultdict(int)
for ch in "hello":
    counts[ch] += 1
print(dict(counts), counts.default_factory)
# ---- defaultdict_nested_and_lambda
from collections import defaultdict
tree = defaultdict(lambda: defaultdict(int))
for svc, lvl in [("auth", "ERROR"), ("auth", "INFO"), ("db", "ERROR"), ("auth", "ERROR")]:
    tree[svc][lvl] += 1
print({k: dict(v) for k, v in tree.items()})
d = defaultdict(set)
d["a"].add(1)
print(d, "b" in d, d.get("b"), d.get("a"))
# ---- defaultdict_missing_no_factory
from collections import defaultdict
d = defaultdict()
d["x"]
# ---- deque_basics
from collections import deque
d = deque([1, 2, 3])
d.append(4)
d.appendleft(0)
print(d, d.pop(), d.popleft(), d, len(d), d[0], d[-1])
d.extend([7, 8])
d.extendleft([-1, -2])
print(d)
d.rotate(2)
print(d)
d.rotate(-3)
print(d, d.count(7), d.index(7))
# ---- deque_maxlen
from collections import deque
last3 = deque(maxlen=3)
for i in range(6):
    last3.append(i)
    print(list(last3))
print(last3, last3.maxlen)
last3.appendleft(99)
print(last3)
# ---- deque_tail_of_lines
from collections import deque
lines = [f"line {i}" for i in range(1, 11)]
print(list(deque(lines, maxlen=3)))
window = deque(maxlen=4)
avgs = []
for v in [10, 20, 30, 40, 50, 60]:
    window.append(v)
    avgs.append(sum(window) / len(window))
print(avgs)
# ---- deque_pop_empty
from collections import deque
deque().pop()
# ---- deque_bfs
from collections import deque
graph = {"a": ["b", "c"], "b": ["d"], "c": ["d", "e"], "d": ["f"], "e": ["f"], "f": []}
def bfs(start, goal):
    q = deque([[start]])
    seen = {start}
    while q:
        path = q.popleft()
        if path[-1] == goal:
            return path
        for n in graph[path[-1]]:
            if n not in seen:
                seen.add(n)
                q.append(path + [n])
print(bfs("a", "f"), bfs("c", "f"), bfs("f", "a"))
# ---- ordereddict_ops
from collections import OrderedDict
od = OrderedDict()
od["b"] = 1
od["a"] = 2
od["c"] = 3
od.move_to_end("b")
print(od, list(od))
od.move_to_end("c", last=False)
print(list(od.items()), od.popitem(), od.popitem(last=False), od)
print(OrderedDict(a=1, b=2) == OrderedDict(b=2, a=1), OrderedDict(a=1, b=2) == {"b": 2, "a": 1})
# ---- ordereddict_lru_cache
from collections import OrderedDict
class LRU:
    def __init__(self, cap):
        self.cap, self.d = cap, OrderedDict()
    def get(self, k):
        if k not in self.d:
            return None
        self.d.move_to_end(k)
        return self.d[k]
    def put(self, k, v):
        self.d[k] = v
        self.d.move_to_end(k)
        if len(self.d) > self.cap:
            self.d.popitem(last=False)
c = LRU(2)
c.put("a", 1); c.put("b", 2); c.get("a"); c.put("c", 3)
print(list(c.d), c.get("b"), c.get("a"))
# ---- namedtuple_features
from collections import namedtuple
Row = namedtuple("Row", "id name score", defaults=[0.0])
r = Row(1, "ann")
print(r, r.score, Row._field_defaults, Row(*[2, "bob", 3.5]))
print(r._asdict(), r._replace(score=9), Row._make([3, "cy", 1.0]))
rows = [Row(1, "b", 5), Row(2, "a", 7), Row(3, "c", 5)]
print(sorted(rows, key=lambda r: (-r.score, r.name)))
print(max(rows, key=lambda r: r.score).name, [r.name for r in rows if r.score == 5])
# ---- namedtuple_rename_and_errors
from collections import namedtuple
P = namedtuple("P", ["x", "def", "x"], rename=True)
print(P._fields)
try:
    namedtuple("Q", ["a", "1b"])
except ValueError as e:
    print("ValueError:", e)
Pt = namedtuple("Pt", "x y")
try:
    Pt(1)
except TypeError as e:
    print("TypeError:", e)
# ---- chainmap_lookup
from collections import ChainMap
defaults = {"color": "red", "user": "guest", "debug": False}
env = {"user": "admin"}
cli = {"debug": True}
cfg = ChainMap(cli, env, defaults)
print(cfg["color"], cfg["user"], cfg["debug"], len(cfg), sorted(cfg))
cfg["color"] = "blue"
print(cli, defaults["color"], cfg.maps[0] is cli)
child = cfg.new_child({"user": "root"})
print(child["user"], child.parents["user"], dict(child) == {**defaults, **env, **cli, "user": "root"})
# ---- counter_from_context_words
from collections import Counter
words = [w for w in context.split() if w.isalpha() and w.islower()]
c = Counter(words)
print(c.most_common(5))
print(len(c), c["failed"], c["✓"])
# ---- defaultdict_grouping_log
from collections import defaultdict
import re
bylevel = defaultdict(list)
for line in context.splitlines()[1:40]:
    m = re.match(r"\S+ (\S+) (\w+)\s+\[(\w+)\]", line)
    if m:
        bylevel[m.group(2)].append(m.group(3))
for lvl in sorted(bylevel):
    print(lvl, len(bylevel[lvl]), sorted(set(bylevel[lvl])))
# ---- counter_update_and_missing
from collections import Counter
inventory = Counter()
for item, n in [("apple", 3), ("pear", 2), ("apple", -1)]:
    inventory[item] += n
print(inventory, inventory["kiwi"], "kiwi" in inventory)
inventory.clear()
print(inventory, bool(inventory))
# ---- deque_slicing_unsupported
from collections import deque
d = deque(range(5))
print(d[2], list(d)[1:3])
print(d[1:3])
# ---- userdict_like_subclass
from collections import Counter
class TopK(Counter):
    def top(self, k):
        return [w for w, _ in self.most_common(k)]
t = TopK("abracadabra")
print(t.top(2), isinstance(t, dict), type(t).__name__)
# ---- counter_repr_order
from collections import Counter
c = Counter({"b": 2, "a": 2, "c": 5, "d": 1})
print(c, repr(c), str(c))
print(Counter(), Counter("aaa") + Counter())
