# Cases for the operator module; gen.py records CPython's output.
# ---- arithmetic
import operator as op
print(op.add(2, 3), op.sub(2, 3), op.mul(4, 5), op.truediv(7, 2), op.floordiv(7, 2), op.mod(7, 3), op.pow(2, 10))
print(op.lshift(1, 4), op.rshift(256, 2), op.and_(12, 10), op.or_(12, 10), op.xor(12, 10))
print(op.neg(5), op.pos(-5), op.inv(5), op.invert(0), op.abs(-3.5), op.abs(-7))
print(op.add("a", "b"), op.mul("ab", 3), op.add([1], [2]), op.mod("%d-%s", (1, "x")))
print(op.__add__(1, 2), op.__not__(0), op.__and__(3, 1), op.__inv__(1), op.__abs__(-1))
# ---- comparisons
import operator as op
print(op.lt(1, 2), op.le(2, 2), op.eq(1, 1.0), op.ne("a", "b"), op.gt(3, 2), op.ge(1, 2))
print(op.lt([1, 2], [1, 3]), op.eq((1,), [1]), op.gt("b", "a"))
print(op.__lt__(1, 2), op.__eq__(None, None))
# ---- comparison_error
import operator as op
op.lt(1, "a")
# ---- truth_not_is
import operator as op
print(op.truth([]), op.truth([0]), op.not_(""), op.not_("x"), op.is_(None, None), op.is_not(1, None))
a = [1]
print(op.is_(a, a), op.is_(a, [1]), op.is_not(a, [1]))
# ---- index
import operator as op
class I:
    def __index__(self):
        return 7
print(op.index(5), op.index(True), op.index(I()), op.index(10**30), [1, 2, 3, 4, 5, 6, 7, 8][op.index(I())])
# ---- index_error
import operator as op
op.index("a")
# ---- index_float
import operator as op
op.index(1.5)
# ---- sequence_ops
import operator as op
print(op.contains([1, 2], 2), op.contains("abc", "bc"), op.contains({"k": 1}, "k"), op.__contains__((1,), 2))
print(op.countOf([1, 2, 1, 1], 1), op.countOf("banana", "a"), op.countOf([], 0))
print(op.indexOf("abc", "c"), op.indexOf([3, 4, 5], 5))
print(op.getitem([1, 2, 3], 1), op.getitem("abc", slice(1, None)), op.getitem({"a": 1}, "a"))
d = {}
print(op.setitem(d, "k", 1), d, op.delitem(d, "k"), d)
xs = [1, 2, 3]
op.setitem(xs, slice(0, 2), [9])
print(xs)
# ---- index_of_missing
import operator as op
op.indexOf([1, 2], 3)
# ---- concat
import operator as op
print(op.concat("a", "b"), op.concat([1], [2]), op.concat((1,), (2,)), op.concat(b"x", b"y"))
xs = [1]
ys = op.iconcat(xs, [2])
print(xs, ys is xs)
# ---- concat_int
import operator as op
op.concat(1, 2)
# ---- concat_mismatch
import operator as op
op.concat([1], (2,))
# ---- inplace
import operator as op
xs = [1, 2]
ys = op.iadd(xs, [3])
print(xs, ys is xs)
n = 5
print(op.iadd(n, 1), n, op.isub(5, 2), op.imul(3, 4), op.itruediv(7, 2), op.ifloordiv(7, 2), op.imod(7, 4), op.ipow(2, 5))
print(op.ilshift(1, 3), op.irshift(16, 2), op.iand(6, 3), op.ior(4, 1), op.ixor(5, 1))
s = {1, 2}
print(op.ior(s, {3}), s, op.isub({1, 2}, {1}))
print(op.__iadd__([1], [2]))
# ---- itemgetter
import operator as op
rows = [("ann", 31, "eng"), ("bob", 25, "ops"), ("cy", 31, "hr")]
print(sorted(rows, key=op.itemgetter(1)), sorted(rows, key=op.itemgetter(1, 0)))
print(list(map(op.itemgetter(0), rows)), op.itemgetter(0, 2)(rows[0]), op.itemgetter(slice(1, None))("abc"))
g = op.itemgetter(1)
print(g, op.itemgetter("a", "b"), op.itemgetter(slice(1, 2)), type(g), type(g).__name__)
print(op.itemgetter(-1)([1, 2, 3]), op.itemgetter("k")({"k": 5}))
# ---- itemgetter_missing
import operator
operator.itemgetter("x")({"y": 1})
# ---- itemgetter_no_args
import operator
operator.itemgetter()
# ---- itemgetter_call_count
import operator
operator.itemgetter(1)()
# ---- itemgetter_call_kw
import operator
operator.itemgetter(1)([1, 2], x=1)
# ---- itemgetter_index_error
import operator
operator.itemgetter(5)([1])
# ---- attrgetter
import operator as op
class P:
    def __init__(self, n, a):
        self.name, self.age = n, a
class Box:
    pass
b = Box()
b.inner = P("z", 9)
ps = [P("x", 3), P("y", 1)]
print([p.name for p in sorted(ps, key=op.attrgetter("age"))], op.attrgetter("name", "age")(ps[0]))
print(op.attrgetter("inner.name")(b), op.attrgetter("inner.age", "inner.name")(b))
print(op.attrgetter("name"), op.attrgetter("a.b", "c"), op.attrgetter("real")(3))
# ---- attrgetter_missing
import operator
operator.attrgetter("x")(1)
# ---- attrgetter_dotted_missing
import operator
operator.attrgetter("real.nope")(1)
# ---- attrgetter_bad_name
import operator
operator.attrgetter(1)
# ---- methodcaller
import operator as op
up = op.methodcaller("upper")
split2 = op.methodcaller("split", ",", 1)
print(up("abc"), split2("a,b,c"), op.methodcaller("split", ",", maxsplit=1)("a,b,c"))
print(up, split2, op.methodcaller("split", ",", maxsplit=1), op.methodcaller("f", k="v"))
print(list(map(op.methodcaller("strip"), [" a ", "b "])))
# ---- methodcaller_no_name
import operator
operator.methodcaller()
# ---- methodcaller_bad_name
import operator
operator.methodcaller(1)
# ---- methodcaller_missing
import operator
operator.methodcaller("nope")("x")
# ---- length_hint
import operator as op
class H:
    def __length_hint__(self):
        return 4
class L:
    def __len__(self):
        return 2
print(op.length_hint([1, 2, 3]), op.length_hint(5), op.length_hint(5, 9), op.length_hint(H()), op.length_hint(L()), op.length_hint("abcd", 1))
print(op.length_hint({1: 2}), op.length_hint(x for x in []), op.length_hint(range(10)))
# ---- length_hint_bad_default
import operator
operator.length_hint(5, "x")
# ---- call
import operator as op
print(op.call(max, 1, 5, 2), op.call(sorted, [3, 1], reverse=True), op.__call__(len, "abc"))
# ---- arg_errors_add
import operator
operator.add(1)
# ---- arg_errors_neg
import operator
operator.neg()
# ---- arg_errors_not
import operator
operator.not_(1, 2)
# ---- arg_errors_setitem
import operator
operator.setitem({}, 1)
# ---- arg_errors_countof
import operator
operator.countOf([1])
# ---- arg_errors_kw
import operator
operator.add(a=1, b=2)
# ---- pow_three
import operator
operator.pow(2, 3, 4)
# ---- unsupported_operand
import operator
operator.sub("a", 1)
# ---- bad_unary
import operator
operator.neg("a")
# ---- matmul
import operator
class M:
    def __matmul__(self, o):
        return "mm"
    def __imatmul__(self, o):
        return "imm"
print(operator.matmul(M(), 1), operator.imatmul(M(), 1))
operator.matmul(1, 2)
# ---- map_with_operator
import operator
print(list(map(operator.mul, [1, 2, 3], [4, 5, 6])), sum(map(operator.mul, [1, 2, 3], [4, 5, 6])))
# ---- module_attrs
import operator
print(operator.__name__, len(operator.__all__), operator.__all__[:5], operator.add, operator.__add__ is operator.add)
print(callable(operator.itemgetter), operator.itemgetter, operator.attrgetter, operator.methodcaller)
# ---- call_no_args
import operator
operator.call()
# ---- length_hint_kw
import operator
operator.length_hint([], x=1)
# ---- refused_length_hint_builtin_iterator
import operator
print(operator.length_hint(map(str, [1])))
operator.length_hint(iter([1, 2]))
