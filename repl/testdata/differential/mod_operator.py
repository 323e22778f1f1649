# The operator module.
# ---- itemgetter_attrgetter
import operator
rows = [("ann", 31, "eng"), ("bob", 25, "ops"), ("cy", 31, "hr")]
print(sorted(rows, key=operator.itemgetter(1)), sorted(rows, key=operator.itemgetter(1, 0)))
print(list(map(operator.itemgetter(0), rows)), operator.itemgetter(0, 2)(rows[0]))
class P:
    def __init__(self, n, a):
        self.name, self.age = n, a
ps = [P("x", 3), P("y", 1)]
print([p.name for p in sorted(ps, key=operator.attrgetter("age"))], operator.attrgetter("name", "age")(ps[0]))
# ---- arithmetic_functions
import operator
print(operator.add(2, 3), operator.sub(2, 3), operator.mul(4, 5), operator.truediv(7, 2), operator.floordiv(7, 2))
print(operator.mod(7, 3), operator.pow(2, 8), operator.neg(5), operator.abs(-3), operator.concat("a", "b"))
print(operator.lt(1, 2), operator.eq("a", "a"), operator.not_(0), operator.truth([1]), operator.contains([1, 2], 2))
# ---- methodcaller_and_index
import operator
up = operator.methodcaller("upper")
split2 = operator.methodcaller("split", ",", 1)
print(up("abc"), split2("a,b,c"), operator.index(5), operator.getitem([1, 2, 3], 1), operator.getitem("abc", slice(1, None)))
# ---- itemgetter_dicts
import operator
recs = [{"n": "b", "v": 2}, {"n": "a", "v": 2}, {"n": "c", "v": 1}]
print(sorted(recs, key=operator.itemgetter("v", "n")))
print(max(recs, key=operator.itemgetter("v"))["n"], list(map(operator.itemgetter("n"), recs)))
# ---- inplace_and_setitem
import operator
d = {}
operator.setitem(d, "k", 1)
xs = [1, 2]
ys = operator.iadd(xs, [3])
print(d, xs, ys is xs, operator.delitem(d, "k"), d)
# ---- reduce_with_operator
import operator, functools
print(functools.reduce(operator.mul, range(1, 11)), functools.reduce(operator.or_, [1, 2, 4]), functools.reduce(operator.xor, [5, 3]))
print(list(map(operator.mul, [1, 2, 3], [4, 5, 6])), sum(map(operator.mul, [1, 2, 3], [4, 5, 6])))
# ---- itemgetter_missing
import operator
operator.itemgetter("x")({"y": 1})
# ---- length_hint_and_countof
import operator
print(operator.countOf([1, 2, 1, 1], 1), operator.indexOf("abc", "c"), operator.length_hint([1, 2, 3]), operator.is_(None, None))
