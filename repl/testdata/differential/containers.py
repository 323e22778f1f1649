# Containers: list, tuple, dict, set, frozenset; methods, ordering, copying, equality.
# ---- list_methods
xs = [5, 3, 8]
xs.append(1)
xs.extend([9, 2])
xs.insert(0, 7)
xs.insert(100, 0)
print(xs)
print(xs.pop(), xs.pop(0), xs.pop(-2), xs)
xs.remove(8)
print(xs, xs.index(3), xs.count(3))
xs.reverse()
print(xs)
xs.sort()
print(xs)
xs.clear()
print(xs, len(xs))
# ---- list_remove_missing
xs = [1, 2]
xs.remove(3)
# ---- list_pop_empty
[].pop()
# ---- list_index_missing
print([1, 2, 3].index(4))
# ---- list_sort_keys
people = [("ann", 31), ("bob", 25), ("cy", 31), ("di", 22)]
print(sorted(people, key=lambda p: p[1]))
print(sorted(people, key=lambda p: (-p[1], p[0])))
print(sorted(people, key=lambda p: p[1], reverse=True))
people.sort(key=lambda p: len(p[0]))
print(people)
# ---- sort_stability
data = [("b", 2), ("a", 2), ("c", 1), ("d", 1), ("e", 2)]
print(sorted(data, key=lambda x: x[1]))
print(sorted(data, key=lambda x: x[1], reverse=True))
# ---- sort_mixed_types_raises
print(sorted([3, "a", 1]))
# ---- list_slicing_assignment
xs = list(range(10))
xs[2:5] = ["a", "b"]
print(xs)
xs[::3] = [0, 0, 0]
print(xs)
xs[1:1] = [99, 98]
print(xs)
del xs[::2]
print(xs)
xs[:] = []
print(xs)
# ---- extended_slice_size_mismatch
xs = [1, 2, 3, 4]
xs[::2] = [9]
# ---- list_aliasing
a = [1, 2, [3, 4]]
b = a
c = a[:]
d = list(a)
a.append(5)
a[2].append(6)
print(a, b, c, d)
print(a is b, a is c, a == b, c == d, c[2] is a[2])
# ---- list_multiplication_shared
grid = [[0] * 3] * 2
grid[0][0] = 1
print(grid)
grid2 = [[0] * 3 for _ in range(2)]
grid2[0][0] = 1
print(grid2)
# ---- list_comparison
print([1, 2] < [1, 3], [1, 2] < [1, 2, 0], [] < [0], [2] > [1, 9], [1, 2] == [1, 2.0])
print((1, "a") < (1, "b"), (1, 2) == (1, 2), max([[1, 2], [1, 3], [0, 9]]))
# ---- list_in_and_count
xs = [1, [2, 3], "four", (5,), None]
print([2, 3] in xs, 2 in xs, "four" in xs, (5,) in xs, None in xs, len(xs))
# ---- tuple_basics
t = (1, "two", 3.0)
print(t, t[1], t[-1], t[:2], len(t), t + (4,), t * 2)
print((1,), (), tuple([1, 2]), tuple("ab"), (1, 2).count(2), (1, 2, 1).index(1, 1))
x, y, z = t
print(x, y, z)
# ---- tuple_immutable
t = (1, 2)
t[0] = 5
# ---- tuple_with_list_inside
t = (1, [2, 3])
t[1].append(4)
print(t)
try:
    t[1] += [5]
except TypeError as e:
    print("TypeError:", e)
print(t)
# ---- dict_basics
d = {"b": 2, "a": 1}
d["c"] = 3
d["a"] = 10
print(d, len(d), d["b"], "a" in d, 1 in d)
print(list(d), list(d.keys()), list(d.values()), list(d.items()))
del d["b"]
print(d)
# ---- dict_insertion_order
d = {}
for k in ["zeta", "alpha", "mid", "alpha"]:
    d[k] = d.get(k, 0) + 1
print(d)
d.pop("zeta")
d["zeta"] = 9
print(d, list(d)[0])
# ---- dict_methods
d = {"a": 1, "b": 2}
print(d.get("a"), d.get("z"), d.get("z", 0))
print(d.setdefault("c", 3), d.setdefault("a", 99), d)
print(d.pop("b"), d.pop("zz", "none"), d)
d.update({"d": 4}, e=5)
d.update([("f", 6)])
print(d)
print(d.popitem(), d)
print(dict.fromkeys("abc", 0), dict(a=1, b=2), dict([("x", 1)]), dict(zip("ab", [1, 2])))
# ---- dict_missing_key
d = {"a": 1}
print(d["b"])
# ---- dict_missing_tuple_key
d = {}
print(d[(1, 2)])
# ---- dict_pop_missing
{}.pop("k")
# ---- dict_union_operators
a = {"x": 1, "y": 2}
b = {"y": 20, "z": 30}
print(a | b, b | a)
a |= {"w": 0}
print(a)
print({**a, **b, "extra": True})
# ---- dict_views_dynamic
d = {"a": 1}
ks = d.keys()
d["b"] = 2
print(ks, len(ks), "b" in ks)
print(d.keys() & {"a", "z"}, sorted(d.keys() | {"q"}), d.items() == {("a", 1), ("b", 2)})
# ---- dict_equality_and_order
print({"a": 1, "b": 2} == {"b": 2, "a": 1}, list({"a": 1, "b": 2}) == list({"b": 2, "a": 1}))
print({1: "int", 1.0: "float", True: "bool"})
# ---- dict_unhashable_key
d = {}
d[[1, 2]] = "x"
# ---- dict_mutation_during_iteration
d = {"a": 1, "b": 2}
for k in d:
    d[k + "x"] = 0
# ---- dict_iterate_sorted_by_value
scores = {"ann": 88, "bob": 95, "cy": 72, "di": 95}
for name, s in sorted(scores.items(), key=lambda kv: (-kv[1], kv[0])):
    print(f"{name:>4}: {s}")
print(max(scores, key=scores.get), min(scores.values()), sum(scores.values()) / len(scores))
# ---- nested_dict_building
events = [("auth", "login"), ("db", "query"), ("auth", "logout"), ("auth", "login"), ("db", "query")]
tree = {}
for svc, ev in events:
    tree.setdefault(svc, {}).setdefault(ev, 0)
    tree[svc][ev] += 1
print(tree)
print({k: sum(v.values()) for k, v in tree.items()})
# ---- set_basics
s = {3, 1, 2, 3}
s.add(5)
s.discard(10)
s.remove(1)
print(sorted(s), len(s), 2 in s, 1 in s)
print(sorted({1, 2, 3} | {3, 4}), sorted({1, 2, 3} & {2, 3, 4}), sorted({1, 2, 3} - {2}), sorted({1, 2} ^ {2, 3}))
print({1, 2} <= {1, 2, 3}, {1, 2} < {1, 2}, {1, 2}.isdisjoint({3}), {1, 2, 3} >= {3})
# ---- set_small_int_order
print({5, 1, 3}, {10, 2, 7, 1}, set(range(5)), set(), {0})
# ---- set_remove_missing
s = {1}
s.remove(2)
# ---- set_methods
a = {1, 2, 3}
b = [3, 4]
print(sorted(a.union(b)), sorted(a.intersection(b)), sorted(a.difference(b)), sorted(a.symmetric_difference(b)))
c = a.copy()
c.update([9, 8])
c.intersection_update({1, 9, 8, 7})
print(sorted(c), a.issubset(range(10)), a.issuperset([1]))
print(len({"x".upper(), "X"}), sorted(set("mississippi")))
# ---- frozenset_usage
f = frozenset([1, 2, 2, 3])
print(len(f), 2 in f, sorted(f | {4}), f == {1, 2, 3}, type(f | {4}).__name__)
d = {f: "key"}
print(d[frozenset({3, 2, 1})])
# ---- set_of_unhashable
print({[1], [2]})
# ---- list_unpacking_nested
data = [("a", (1, 2)), ("b", (3, 4))]
for name, (x, y) in data:
    print(name, x + y)
(a, b), c = [1, 2], 3
print(a, b, c)
# ---- copy_semantics_list
import copy
a = [[1, 2], {"k": [3]}]
s = copy.copy(a)
d = copy.deepcopy(a)
a[0].append(9)
a[1]["k"].append(4)
print(s, d)
# ---- list_len_bool
for c in [[], [0], (), (None,), {}, {0: 0}, set(), {0}]:
    print(repr(c), len(c), bool(c))
# ---- list_repr_nested
x = [1, "a", 2.5, None, True, (1,), [], {}, {"k": [1, (2, 3)]}, "it's"]
print(x)
print(repr(x) == str(x))
# ---- recursive_list_repr
a = [1, 2]
a.append(a)
print(a)
d = {"self": None}
d["self"] = d
print(d)
# ---- enumerate_zip_combos
names = ["ann", "bob", "cy"]
ages = [30, 25]
print(list(enumerate(names, start=1)))
print(list(zip(names, ages)))
print(dict(zip(names, ages)))
print(list(zip(*[(1, "a"), (2, "b"), (3, "c")])))
# ---- zip_strict
print(list(zip([1, 2], [3, 4], strict=True)))
print(list(zip([1, 2, 3], [4], strict=True)))
# ---- reversed_and_range
print(list(reversed([1, 2, 3])), list(reversed(range(5))), list(reversed("abc")), list(reversed({"a": 1, "b": 2})))
r = range(10, 0, -3)
print(list(r), len(r), r[1], r[-1], 4 in r, 7 in r, r.index(7), range(0, 10, 2)[1:3])
print(range(5), range(1, 5), range(0, 10, 2), range(3) == range(0, 3))
# ---- sum_min_max_containers
nums = [4, -2, 7, 0]
print(sum(nums), min(nums), max(nums), sorted(nums), sorted(nums, key=abs))
print(sum([[1], [2, 3]], []), sum(((1,), (2,)), ()), sum([0.5, 0.25], 1))
# ---- sum_strings_raises
print(sum(["a", "b"], ""))
# ---- list_of_dicts_grouping
rows = [
    {"dept": "eng", "name": "ann", "salary": 120},
    {"dept": "ops", "name": "bob", "salary": 90},
    {"dept": "eng", "name": "cy", "salary": 110},
    {"dept": "ops", "name": "di", "salary": 95},
    {"dept": "hr", "name": "ed", "salary": 70},
]
by = {}
for r in rows:
    by.setdefault(r["dept"], []).append(r)
for dept, rs in by.items():
    total = sum(r["salary"] for r in rs)
    print(dept, len(rs), total, round(total / len(rs), 1), [r["name"] for r in rs])
# ---- matrix_transpose
m = [[1, 2, 3], [4, 5, 6]]
print([list(r) for r in zip(*m)])
print([[m[j][i] for j in range(len(m))] for i in range(len(m[0]))])
print([sum(col) for col in zip(*m)], [sum(row) for row in m])
# ---- stack_and_queue_with_list
stack = []
for tok in "3 4 + 2 *".split():
    if tok.isdigit():
        stack.append(int(tok))
    else:
        b, a = stack.pop(), stack.pop()
        stack.append(a + b if tok == "+" else a * b)
print(stack)
queue = [1, 2, 3]
queue.append(4)
print(queue.pop(0), queue)
# ---- del_statements
xs = [0, 1, 2, 3, 4, 5]
del xs[0]
del xs[-1]
del xs[1:3]
print(xs)
d = {"a": 1, "b": 2}
del d["a"]
print(d)
x = 5
del x
print("x" in dir())
# ---- list_index_out_of_range
xs = [1, 2, 3]
print(xs[3])
# ---- list_assign_out_of_range
xs = []
xs[0] = 1
# ---- list_index_with_float
print([1, 2][1.0])
# ---- containers_equality_identity
a = [1, 2]
b = [1, 2]
print(a == b, a is b, a != b, (a,) == (b,), {"k": a} == {"k": b})
print([] == [], () == (), set() == frozenset(), [] == ())
# ---- string_list_conversions
csv = "3,1,2"
nums = sorted(map(int, csv.split(",")))
print(nums, ",".join(map(str, nums)), list(map(str.strip, [" a ", "b "])))
print(str(nums), repr(tuple(nums)), list(str(123)))
# ---- dict_small_str_keys
class S(str):
    pass
d = {}
for i, k in enumerate(["a", "b", "c", "a", "d"]):
    d[k] = i
del d["b"]
print(d, "b" in d, d.get("c"), len(d))
for k in "efghijkl":
    d[k] = k * 2
print(d, d["a"], d["l"], "b" in d)
e = {"x": 1, 2: "two", 2.0: "float two", S("y"): 3}
print(e, e["y"], e[S("x")], "y" in e, S("z") in e)
f = {S("p"): 1}
f["p"] = 2
f[S("q")] = 3
print(f, type(list(f)[0]).__name__, f.pop("q"), f)
g = dict.fromkeys("abcdefghij", 0)
for k in list(g)[:7]:
    del g[k]
g["z"] = 1
print(g, g.setdefault("h", 5), g.setdefault("new", 6), g)
print(dict(a=1, b=2) == {"b": 2, "a": 1}, {**{"a": 1}, "a": 2})
# ---- str_split_strip_search
line = "2026-03-01 12:00:00 INFO api req=0a1b2c user=josé latency_ms=12 msg=ok"
parts = line.split()
print(parts, line.split(" ", 3), line.rsplit(" ", 2), line.split("=", 1))
print(line.split(sep=" ", maxsplit=1), line.split(None, 2), "a,,b".split(","))
print("x\ny\r\nz".splitlines(), "x\ny\n".splitlines(True), "".split(), "".split(","))
print("..word,.".strip(".,"), "xxaxx".lstrip("x"), "ñañ".rstrip("ñ"), "abc".strip(""))
chunk = ("josé " * 50)[7:200]
print(len(chunk), chunk.count("é"), chunk.count("s"), chunk.find("é"), chunk.index("j"))
print(chunk.count(""), chunk.find("zzz"), chunk.rfind("é"), chunk[10:].find("é"))
print(chunk.count("é", 5), chunk.find("é", 10, 40), len(chunk[3:150]))
# ---- slice_two_bounds
class I:
    def __index__(self):
        return 2
class L(list):
    def __getitem__(self, k):
        return ("L", type(k).__name__, k.start, k.stop, k.step)
class T(str):
    pass
s, xs = "josé zoë", [0, 1, 2, 3, 4, 5]
print(s[2:], s[:-2], s[I():], s[True:10**30], s[-10**30:3], s[5:2], s[:], s[:] is s)
print(xs[1:-1], xs[I():None], xs[None:False], xs[:] is xs, xs[-2:], (1, 2, 3)[1:])
print(L([1, 2])[1:2], T("abcdef")[1:3], type(T("abcdef")[1:3]).__name__, b"bytes"[1:3])
try:
    s[1.0:2]
except TypeError as e:
    print("TypeError", e)
try:
    xs["a":]
except TypeError as e:
    print("TypeError", e)
# ---- split_then_index
line = "2026-03-01 12:00:00 WARN  auth  user=zoë"
print(line.split()[2], line.split()[-1], line.split(" ", 2)[1], line.rsplit(None, 1)[0], line.split("=")[1])
print("a,b,,c".split(",")[2] == "", "x".split()[0], "é".split()[0], " a b ".rsplit(" ", 1)[-1])
class S(str):
    def split(self, *a):
        return {2: "custom", -1: "last"}
class W:
    def __init__(self):
        self.calls = []
    def split(self, sep=None, n=-1):
        self.calls.append((sep, n))
        return ["w0", "w1"]
w = W()
def arg(v):
    print("arg", v)
    return v
print(S("a b c").split()[2], S("a b c").split(" ")[-1], w.split(arg(","), arg(1))[1], w.calls)
for bad in ("line.split()[9]", "line.split(1)[0]", "line.split(' ', 'x')[0]", "(5).split()[0]",
            "line.split('')[0]", "w.split(1, 2, 3)[0]", "line.split(arg(None), arg(1))[-3]"):
    try:
        print(eval(bad))
    except Exception as e:
        print(type(e).__name__, e)
print([l.split()[0] for l in ["a b", "c d"]], "k=v".split("=", 1)[1], "1 2 3".split()[True])
