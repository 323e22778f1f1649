# Core audit: containers. Slicing, slice assignment, list method errors, dict
# views and set operations, dict order, set printing order, frozenset,
# comprehensions, sorted stability, min/max, zip strict, enumerate,
# reversed, list * n aliasing.
# ---- slicing_negative_steps
s = list(range(10))
print(s[::-1], s[::-2], s[8:2:-2], s[2:8:-1], s[-1:-4:-1], s[-3::-3], s[:-11:-1], s[5::-1])
t = "abcdefg"
print(t[::-1], t[-2::-2], t[10:0:-1], t[:0:-1], t[-100:100], t[3:-100:-1])
# ---- slicing_out_of_range
s = [1, 2, 3]
print(s[5:], s[-10:2], s[1:100], s[3:1], s[100:-100:-1], (1, 2, 3)[-100:][:2], s[2:2])
# ---- slice_objects
s = list(range(10))
sl = slice(1, 8, 3)
print(s[sl], sl.start, sl.stop, sl.step, slice(5), slice(None, None, -1).indices(5), slice(-3, None).indices(10))
print(repr(slice(1, 2)), slice(1, 2) == slice(1, 2))
try:
    s[::0]
except ValueError as e:
    print(e)
# ---- slice_assignment_extended
s = list(range(10))
s[::2] = "abcde"
print(s)
try:
    s[::2] = [1, 2]
except ValueError as e:
    print(e)
s = list(range(6))
s[::-2] = [0, 0, 0]
print(s)
# ---- slice_assignment_resize
s = [1, 2, 3, 4, 5]
s[1:3] = []
print(s)
s[1:1] = ["x", "y"]
print(s)
s[:] = range(3)
print(s)
s[10:] = [9]
print(s)
s[-1:] = "ab"
print(s)
s[1:2] = (x * 2 for x in [7, 8])
print(s)
# ---- slice_assignment_self
s = [1, 2, 3]
s[1:] = s
print(s)
s[:] = s[::-1]
print(s)
# ---- slice_assign_non_iterable
s = [1, 2]
try:
    s[0:1] = 5
except TypeError as e:
    print(e)
# ---- slice_deletion_with_steps
s = list(range(10))
del s[::3]
print(s)
s = list(range(10))
del s[::-2]
print(s)
s = list(range(10))
del s[2:8:2]
print(s)
s = list(range(5))
del s[10:]
del s[-2:]
print(s)
# ---- list_methods_errors
s = [1, 2, 3]
for f in [lambda: s.remove(9), lambda: s.index(9), lambda: s.pop(10), lambda: [].pop(), lambda: s.index(1, 1), lambda: s.insert("a", 1), lambda: s.pop("x"), lambda: s.count()]:
    try:
        f()
    except (ValueError, IndexError, TypeError) as e:
        print(type(e).__name__, e)
# ---- list_methods_behaviour
s = [3, 1, 2]
s.insert(100, "end")
s.insert(-100, "start")
s.insert(-1, "before-last")
print(s)
s = [1, 2, 1, 2]
print(s.index(2), s.index(2, 2), s.index(1, -2), s.count(1), s.pop(), s.pop(0), s)
s.extend("ab")
s.extend(range(2))
print(s, s.copy() == s, s.copy() is s)
s.clear()
print(s)
# ---- list_sort_stability_and_key
data = [("b", 2), ("a", 2), ("c", 1), ("d", 1), ("e", 3)]
print(sorted(data, key=lambda p: p[1]))
print(sorted(data, key=lambda p: p[1], reverse=True))
s = ["bb", "a", "ccc", "dd", "e"]
s.sort(key=len)
print(s)
s.sort(key=len, reverse=True)
print(s)
# ---- sort_reverse_stability_equal_keys
items = [(1, "a"), (0, "b"), (1, "c"), (0, "d")]
print(sorted(items, key=lambda t: t[0], reverse=True))
print(sorted(["B", "a", "C", "b"], key=str.lower), sorted(["B", "a", "C", "b"]))
# ---- sort_keyword_only
try:
    sorted([1], None)
except TypeError as e:
    print(e)
try:
    [1].sort(None)
except TypeError as e:
    print(e)
# ---- sort_modify_during
s = [3, 2, 1]
def key(x):
    s.append(0)
    return x
try:
    s.sort(key=key)
except ValueError as e:
    print(e)
# ---- min_max_key_default
print(min([3, 1, 2]), max("hello"), min([], default="none"), max([], key=len, default=0), max(["a", "bbb", "cc"], key=len))
print(max([1, 3, 3, 2], key=lambda v: v % 3), min((5, 2), (5, 1)), max(1, 2, 3, key=lambda v: -v))
for f in [lambda: min([]), lambda: max(), lambda: max(1), lambda: min(1, 2, default=0)]:
    try:
        f()
    except (ValueError, TypeError) as e:
        print(type(e).__name__, e)
# ---- min_max_stability_first_wins
pairs = [(1, "a"), (1, "b"), (0, "c"), (0, "d")]
print(max(pairs, key=lambda p: p[0]), min(pairs, key=lambda p: p[0]))
# ---- dict_views_set_operations
a = {"x": 1, "y": 2, "z": 3}
b = {"y": 20, "w": 40}
print(sorted(a.keys() & b.keys()), sorted(a.keys() | b), sorted(a.keys() - b.keys()), sorted(a.keys() ^ b.keys()))
print(a.keys() == {"x", "y", "z"}, a.items() & {("x", 1)}, "y" in a.keys(), ("y", 2) in a.items(), 2 in a.values())
print(a.keys() <= {"x", "y", "z", "q"}, a.keys().isdisjoint({"q"}))
# ---- dict_views_are_live
d = {"a": 1}
k, v, it = d.keys(), d.values(), d.items()
d["b"] = 2
print(list(k), list(v), list(it), len(k))
print(d.keys(), d.values(), d.items())
# ---- dict_view_types_repr
d = {1: "a"}
print(type(d.keys()).__name__, type(d.values()).__name__, type(d.items()).__name__)
print(repr({}.keys()), list(reversed(d.items())))
# ---- dict_changed_during_iteration
d = {1: 1, 2: 2}
try:
    for k in d:
        d[k + 10] = 0
except RuntimeError as e:
    print(e)
s = {1, 2}
try:
    for x in s:
        s.add(x + 10)
except RuntimeError as e:
    print(e)
# ---- dict_order_after_delete_reinsert
d = {"a": 1, "b": 2, "c": 3}
del d["a"]
d["a"] = 4
print(d, list(d))
d["b"] = 5
print(d)
d.pop("b")
d["b"] = 6
print(d, d.popitem(), d)
# ---- dict_methods_corners
d = {}
print(d.setdefault("k", []), d.setdefault("k", [1]), d.get("z"), d.get("z", 0), d.pop("z", "dflt"))
d.update([("a", 1)], b=2)
d.update({"c": 3})
print(d, dict.fromkeys("ab"), dict.fromkeys([1, 2], []))
try:
    d.pop("nope")
except KeyError as e:
    print("KeyError", e)
try:
    d.update([1, 2])
except TypeError as e:
    print(e)
try:
    dict([("a", 1, 2)])
except ValueError as e:
    print(e)
# ---- dict_union_operators
a = {"a": 1, "b": 2}
b = {"b": 3, "c": 4}
print(a | b, b | a)
a |= b
print(a)
try:
    a | [1]
except TypeError as e:
    print(e)
a |= [("z", 9)]
print(a)
# ---- dict_equality_and_order
print({1: 2, 3: 4} == {3: 4, 1: 2}, list({3: 4, 1: 2}), {1: 1} == {1: 1.0}, {"a": [1]} == {"a": [1]})
try:
    {1: 2} < {3: 4}
except TypeError as e:
    print(e)
# ---- set_printing_order_ints
print({3, 1, 2}, {100, 5, 33, 64, 1}, {-1, -2, 0}, set(range(20, 0, -3)), {2 ** 40, 1, 7})
print(sorted({3, 1, 2}), {1, 2} | {9, 0}, {10, 20, 30} - {20}, {5, 3} ^ {3, 8})
# ---- set_printing_order_after_ops
s = set()
for v in [50, 10, 40, 20, 30, 8, 16, 32, 64]:
    s.add(v)
print(s)
s.discard(40)
s.add(41)
print(s, set([1, 9, 17, 25]), {9, 1, 17})
# ---- set_methods
a = {1, 2, 3}
print(a.union([4], (5,)), a.intersection([2, 3, 9]), a.difference({1}), a.symmetric_difference([3, 4]))
print(a.issubset(range(5)), a.issuperset([1]), a <= a, a < a, a.isdisjoint([7]), {1, 2} < a)
b = a.copy()
b.update([9], [10])
b.intersection_update(range(5, 12))
print(b)
try:
    a.remove(99)
except KeyError as e:
    print("KeyError", e)
print(a.discard(99), len(a))
# ---- set_operator_type_errors
try:
    {1} | [2]
except TypeError as e:
    print(e)
try:
    {1} + {2}
except TypeError as e:
    print(e)
print({1}.union([2]), set() == frozenset(), {1} == frozenset([1]))
# ---- frozenset_hashing
f1 = frozenset([1, 2, 3])
f2 = frozenset([3, 2, 1])
print(f1 == f2, hash(f1) == hash(f2), {f1: "x"}[f2], len({f1, f2}), frozenset(), repr(frozenset([1])))
print(type(f1 | {4}).__name__, type({4} | f1).__name__, f1 & {1}, frozenset("aa"))
try:
    f1.add(4)
except AttributeError as e:
    print(e)
# ---- set_of_unhashable
try:
    {[1, 2]}
except TypeError as e:
    print(e)
try:
    set([{}])
except TypeError as e:
    print(e)
try:
    {1: 2}[[1]]
except TypeError as e:
    print(e)
print({(1, 2), (1, 2)}, {frozenset({1})})
# ---- nested_comprehension_results
print([[j for j in range(i)] for i in range(4)])
print({i: {j for j in range(i)} for i in range(3)})
print([x for row in [[1, 2], [3, 4]] for x in row if x % 2])
print([(x, y) for x in "ab" if x != "c" for y in range(2) if y])
print({c: n for n, c in enumerate("hello")})
# ---- zip_strict
print(list(zip([1, 2], "ab", strict=True)))
try:
    list(zip([1, 2, 3], "ab", strict=True))
except ValueError as e:
    print(e)
try:
    list(zip([1], "ab", strict=True))
except ValueError as e:
    print(e)
try:
    list(zip([1], "a", [2, 3], strict=True))
except ValueError as e:
    print(e)
print(list(zip()), list(zip([1, 2])))
# ---- enumerate_start
print(list(enumerate("abc", 1)), list(enumerate("ab", start=-5)), list(enumerate([], 3)))
e = enumerate(["x", "y"])
print(next(e), next(e), next(e, "end"))
# ---- reversed_of_dicts_and_views
d = {"a": 1, "b": 2, "c": 3}
print(list(reversed(d)), list(reversed(d.keys())), list(reversed(d.values())), list(reversed(d.items())))
print(list(reversed(range(5))), list(reversed("abc")), list(reversed((1, 2))))
try:
    reversed({1, 2})
except TypeError as e:
    print(e)
# ---- list_multiplication_aliasing
grid = [[0] * 3] * 3
grid[0][0] = 1
print(grid)
grid = [[0] * 3 for _ in range(3)]
grid[0][0] = 1
print(grid)
s = [[]] * 2
s[0].append("x")
print(s, s[0] is s[1])
print([1, 2] * 0, [1] * -3, 3 * [1], "ab" * 2, (1,) * 3)
# ---- list_imul_aliasing
a = [1, 2]
b = a
a *= 2
print(a, b, a is b)
t = (1,)
u = t
t *= 2
print(t, u)
# ---- list_equality_and_comparison
print([1, 2] < [1, 2, 3], [1, 3] > [1, 2, 9], [] < [0], (1, "a") < (1, "b"), [1, 2] == (1, 2), [[1]] == [[1]])
try:
    [1, "a"] < [1, 2]
except TypeError as e:
    print(e)
# ---- tuple_behaviour
t = (1, [2, 3])
t[1].append(4)
print(t, t.count(1), t.index([2, 3, 4]), (1,) + (2,), tuple("ab"), tuple(), (1), (1,))
try:
    t[0] = 5
except TypeError as e:
    print(e)
try:
    t += ([5],)
    print(t)
    t[1] += [9]
except TypeError as e:
    print(e, t)
# ---- range_behaviour
r = range(0, 20, 3)
print(r, len(r), r[2], r[-1], r[1:3], r[::-1], 9 in r, 10 in r, r.index(9), r.count(3), list(range(5, 0, -2)))
print(range(0) == range(5, 2), range(3) == range(0, 3, 1), repr(range(1, 5, 2)), bool(range(0)))
try:
    range(0, 5, 0)
except ValueError as e:
    print(e)
try:
    r.index(10)
except ValueError as e:
    print(e)
# ---- in_operator_varieties
print(1 in [1, 2], "a" in "cat", "" in "abc", ("a", 1) in {"a": 1}.items(), 1 in {1: 2}, 2 in {1: 2}, [1] in [[1]], None in [None])
try:
    1 in "abc"
except TypeError as e:
    print(e)
try:
    [] in {1}
except TypeError as e:
    print(e)
# ---- unpacking_in_literals
a = [1, 2]
b = {"x": 1}
print([*a, *"cd"], (*a,), {*a, 3}, {**b, "y": 2}, {**b, "x": 9}, [*range(3), *a])
# ---- del_statements_on_containers
d = {"a": 1, "b": 2}
s = [1, 2, 3, 4]
del d["a"], s[0]
print(d, s)
try:
    del d["zz"]
except KeyError as e:
    print("KeyError", e)
try:
    del s[10]
except IndexError as e:
    print(e)
# ---- list_index_assignment_errors
s = [1]
for f in [lambda: s.__setitem__(5, 1), lambda: s.__getitem__(-2), lambda: s.__setitem__("a", 1)]:
    try:
        f()
    except (IndexError, TypeError) as e:
        print(type(e).__name__, e)
# ---- containers_repr_recursive
a = [1]
a.append(a)
print(a)
d = {}
d["self"] = d
print(d)
# ---- dict_keys_mixed_types_order
d = {1: "int", "1": "str", 1.5: "float", (1,): "tuple", None: "none", True: "bool"}
print(d, len(d))
# ---- list_constructor_from_various
print(list("ab"), list({"k": 1}), list({3: 1, 1: 2}.items()), list(range(3)), list((1, 2)), list(x for x in "xy"))
try:
    list(5)
except TypeError as e:
    print(e)
# ---- sorted_mixed_and_none
try:
    sorted([3, None, 1])
except TypeError as e:
    print(e)
print(sorted([3, None, 1], key=lambda v: (v is None, v or 0)))
# ---- comprehension_with_multiple_conditions
print([x for x in range(20) if x % 2 if x % 3], [x if x % 2 else -x for x in range(5)])
# ---- dict_comprehension_duplicate_keys
print({k % 3: k for k in range(10)}, {len(w): w for w in ["a", "bb", "c", "dd"]})
# ---- list_extend_self_and_iadd_iterables
s = [1, 2]
s.extend(s)
print(s)
s += "ab"
print(s)
s += range(2)
print(s)
try:
    s = s + "ab"
except TypeError as e:
    print(e)
# ---- copy_semantics_shallow
import copy
a = [[1], [2]]
b = a[:]
c = list(a)
d = copy.deepcopy(a)
a[0].append(9)
print(b, c, d)
# ---- bytes_and_bytearray_basics
b = b"abc"
print(b[0], b[-1:], list(b), b + b"d", b * 2, b.upper(), bytes(3), bytes([65, 66]), b"a" in b, 97 in b)
ba = bytearray(b"xy")
ba.append(122)
ba[0] = 65
print(ba, bytes(ba), ba.decode(), len(ba), b.hex(), bytes.fromhex("41 42"))
try:
    bytes([256])
except ValueError as e:
    print(e)
# ---- nan_dict_keys_identity
nan = float("nan")
d = {}
d[nan] = 1
d[nan] = 2
print(d, len(d), nan in d, d.get(nan), {nan: 1}.get(nan), nan in {nan: 0})
import math
print({math.nan: "m"}.get(math.nan), [nan].index(nan), [nan].count(nan), nan is nan)
# ---- frozenset_repr_inside_sets
print({frozenset([1])}, frozenset([frozenset([1, 2])]), {frozenset(), frozenset([3])} == {frozenset([3]), frozenset()})
print([frozenset([1])], {"k": frozenset([2])})
# ---- iterator_type_names
objs = [reversed(range(3)), reversed("ab"), reversed((1,)), reversed([1]), reversed({}), reversed({}.items()), reversed({}.values()), iter("é"), iter("e"), iter(bytearray())]
print([type(o).__name__ for o in objs])
# ---- bytes_methods_available
print([n for n in dir(bytes) if not n.startswith("_")])
print([n for n in dir(bytearray) if not n.startswith("_")])
# ---- bytes_methods_behaviour
b = b"Hello, World"
print(b.center(16, b"*"), b.title(), b.swapcase(), b.zfill(14), b.ljust(14, b"."), b.rjust(14), b.capitalize(), b.isalnum(), b.islower())
print(b.partition(b", "), b.rpartition(b"o"), b.rsplit(b"o", 1), b.rindex(b"o"), b.removeprefix(b"Hel"), b.removesuffix(b"ld"), b.expandtabs())
ba = bytearray(b"hello")
ba.insert(0, 62)
ba.reverse()
print(ba, ba.pop(), ba.copy(), ba.remove(108), ba)
ba.clear()
print(ba)
