# Comprehensions and generator expressions: scoping, nesting, conditions.
# ---- list_comp_basic
print([x * x for x in range(6)])
print([x for x in range(20) if x % 3 == 0])
print([x if x % 2 else -x for x in range(6)])
print([c.upper() for c in "abc"])
# ---- nested_comprehension
print([(i, j) for i in range(3) for j in range(i)])
print([[i * j for j in range(1, 4)] for i in range(1, 4)])
print([y for x in [[1, 2], [3], []] for y in x])
print([(x, y) for x in "ab" if x != "b" for y in (1, 2) if y > 1])
# ---- dict_comp
words = ["apple", "banana", "cherry", "avocado"]
print({w: len(w) for w in words})
print({w[0]: w for w in words})
print({k: v for k, v in zip("abc", range(3)) if v})
print({v: k for k, v in {"a": 1, "b": 2}.items()})
# ---- set_comp
print(sorted({len(w) for w in ["a", "bb", "cc", "ddd"]}))
print({x % 3 for x in range(10)})
print(sorted({c for c in "hello world" if c.isalpha()}))
# ---- generator_expression_sum
print(sum(x * x for x in range(10)))
print(max(len(w) for w in ["a", "abc", "ab"]))
print(any(x > 5 for x in [1, 7, 3]), all(x > 0 for x in [1, 2, -1]))
print(sorted((x % 4 for x in range(10)), reverse=True))
# ---- comprehension_scope_isolated
x = "outer"
squares = [x for x in range(3)]
print(x, squares)
# ---- comprehension_uses_enclosing
n = 10
print([i + n for i in range(3)])
def f(k):
    return [i * k for i in range(3)]
print(f(5))
# ---- comprehension_in_class_body
class C:
    base = [1, 2, 3]
    doubled = [v * 2 for v in base]
print(C.doubled)
# ---- comprehension_closure_late_binding
fs = [lambda: i for i in range(3)]
print([f() for f in fs])
gs = [lambda i=i: i for i in range(3)]
print([g() for g in gs])
# ---- walrus_in_comprehension
data = [3, 8, 1, 9, 4]
print([y for x in data if (y := x * 2) > 7])
total = 0
running = [total := total + x for x in data]
print(running, total)
# ---- comprehension_with_function_calls
def clean(s):
    return s.strip().lower()
raw = [" Apple", "banana ", " APPLE", "Cherry", "banana"]
print(sorted({clean(r) for r in raw}))
print([clean(r) for r in raw if clean(r).startswith("b")])
# ---- generator_exp_lazy
def noisy(x):
    print("eval", x)
    return x
g = (noisy(x) for x in range(3))
print("created")
print(next(g))
print(list(g))
# ---- generator_exp_exhausted
g = (x for x in range(3))
print(list(g), list(g), sum(x for x in []))
# ---- comprehension_flatten_and_filter
logs = [["ERROR a", "INFO b"], ["ERROR c"], ["WARN d", "ERROR e"]]
errs = [line.split()[1] for chunk in logs for line in chunk if line.startswith("ERROR")]
print(errs)
# ---- comprehension_unpacking
pairs = [("a", 1), ("b", 2), ("c", 3)]
print([k * v for k, v in pairs])
print({k: v ** 2 for k, v in pairs})
print([(*p, i) for i, p in enumerate(pairs)])
# ---- matrix_comprehensions
m = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
print([row[i] for i, row in enumerate(m)])
print([[row[i] for row in m] for i in range(3)])
print(sum(v for row in m for v in row if v % 2))
# ---- comprehension_error_propagates
print([1 / x for x in [1, 2, 0, 4]])
# ---- comprehension_conditional_expression
nums = [-2, -1, 0, 1, 2]
print(["neg" if n < 0 else "zero" if n == 0 else "pos" for n in nums])
print([abs(n) for n in nums if n])
# ---- dict_comp_counting
text = "abracadabra"
print({c: text.count(c) for c in sorted(set(text))})
counts = {}
for c in text:
    counts[c] = counts.get(c, 0) + 1
print(counts == {c: text.count(c) for c in text})
# ---- nested_generator_in_call
print(",".join(str(i) for i in range(5)))
print(dict((k, len(k)) for k in ["x", "yy"]))
print(tuple(i for i in "abc"), set(i % 2 for i in range(4)) == {0, 1})
# ---- comprehension_over_dict
d = {"a": 1, "b": 2, "c": 3}
print([k for k in d], [v for v in d.values()], [(k, v) for k, v in d.items() if v > 1])
# ---- comprehension_string_processing
sentence = "The Quick brown FOX jumps"
print([w for w in sentence.split() if w[0].isupper()])
print(" ".join(w.capitalize() for w in sentence.lower().split()))
print({w.lower(): i for i, w in enumerate(sentence.split())})
# ---- comprehension_range_steps
print([i for i in range(10, 0, -2)], [i for i in range(0)], [i for i in range(-3, 3)])
# ---- comprehension_nested_scope_class_name
class K:
    n = 3
    try:
        vals = [n * i for i in range(2)]
    except NameError as e:
        vals = str(e)
print(K.vals)
