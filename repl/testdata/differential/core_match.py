# Core audit: match statements. Every pattern kind, guards, class patterns
# with __match_args__, mapping patterns with **rest, star sequences,
# or-patterns binding.
# ---- literal_patterns
def f(v):
    match v:
        case 0:
            return "zero"
        case 1.5:
            return "one and a half"
        case "s":
            return "str s"
        case b"b":
            return "bytes b"
        case True:
            return "True"
        case None:
            return "None"
        case -3:
            return "minus three"
        case 1 + 2j:
            return "complex"
        case _:
            return "other"
print([f(v) for v in [0, 0.0, False, 1.5, "s", b"b", True, 1, None, -3, 1 + 2j, "x"]])
# ---- singleton_patterns_use_identity
def f(v):
    match v:
        case True:
            return "is True"
        case False:
            return "is False"
        case _:
            return "neither"
print(f(1), f(0), f(True), f(False), f(1.0))
# ---- capture_and_wildcard
match [1, 2]:
    case x:
        print("captured", x)
match 5:
    case _:
        print("wildcard, no binding")
# ---- value_patterns_dotted
class Color:
    RED = "red"
    GREEN = "green"
import math
def f(v):
    match v:
        case Color.RED:
            return "is red"
        case math.pi:
            return "pi"
        case _:
            return "no"
print(f("red"), f("green"), f(math.pi))
# ---- sequence_patterns
def f(v):
    match v:
        case []:
            return "empty"
        case [x]:
            return f"one {x}"
        case [x, y]:
            return f"two {x} {y}"
        case [x, *rest]:
            return f"many {x} {rest}"
print(f([]), f([1]), f((1, 2)), f([1, 2, 3, 4]), f(range(3)))
# ---- sequence_pattern_str_not_matched
def f(v):
    match v:
        case [a, b]:
            return "seq"
        case _:
            return "not seq"
print(f("ab"), f(b"ab"), f(bytearray(b"ab")), f(["a", "b"]), f({"a": 1, "b": 2}), f(iter([1, 2])))
# ---- star_patterns_positions
def f(v):
    match v:
        case [*init, "end"]:
            return ("ends", init)
        case ["start", *_, last]:
            return ("starts", last)
        case [first, *mid, last]:
            return (first, mid, last)
        case _:
            return "short"
print(f(["a", "end"]), f(["start", 1, 2, 3]), f([1, 2, 3]), f([1, 2]), f([1]))
# ---- nested_sequence_patterns
def f(v):
    match v:
        case [(a, b), [c, *d]]:
            return a, b, c, d
        case [[[x]]]:
            return "deep", x
        case _:
            return None
print(f([(1, 2), [3, 4, 5]]), f([[[9]]]), f([[1, 2], [3]]))
# ---- mapping_patterns
def f(v):
    match v:
        case {"type": "point", "x": x, "y": y}:
            return ("point", x, y)
        case {"type": "circle", **rest}:
            return ("circle", rest)
        case {}:
            return "any mapping"
        case _:
            return "not mapping"
print(f({"type": "point", "x": 1, "y": 2, "z": 3}), f({"type": "circle", "r": 5, "c": 0}), f({"a": 1}), f([1]))
# ---- mapping_pattern_rest_is_fresh_dict
d = {"k": 1, "a": 2, "b": 3}
match d:
    case {"k": v, **others}:
        others["new"] = 1
        print(v, others, d)
# ---- mapping_pattern_missing_and_defaultdict
from collections import defaultdict
dd = defaultdict(int, {"a": 1})
match dd:
    case {"zz": v}:
        print("matched missing key?", v)
    case {"a": v}:
        print("a is", v)
print(dict(dd))
# ---- mapping_pattern_with_value_patterns
def f(v):
    match v:
        case {"status": 200 | 201 as code, "body": str(body)}:
            return code, body
        case {"status": int(code)} if code >= 500:
            return "server error", code
        case {"status": code}:
            return "other", code
print(f({"status": 201, "body": "ok"}), f({"status": 503}), f({"status": 404, "body": 5}))
# ---- class_patterns_match_args
class Point:
    __match_args__ = ("x", "y")
    def __init__(self, x, y):
        self.x, self.y = x, y
def f(p):
    match p:
        case Point(0, 0):
            return "origin"
        case Point(x, 0):
            return f"on x axis at {x}"
        case Point(x=0, y=y):
            return f"on y axis at {y}"
        case Point(x, y) if x == y:
            return "diagonal"
        case Point():
            return "somewhere"
        case _:
            return "not a point"
print([f(p) for p in [Point(0, 0), Point(3, 0), Point(0, 4), Point(2, 2), Point(1, 5), (0, 0)]])
# ---- class_pattern_too_many_positional
class P:
    __match_args__ = ("a",)
    def __init__(self):
        self.a = 1
try:
    match P():
        case P(x, y):
            print("no")
except TypeError as e:
    print(e)
class Q:
    pass
try:
    match Q():
        case Q(x):
            print("no")
except TypeError as e:
    print(e)
# ---- class_pattern_builtin_types_self_match
def f(v):
    match v:
        case bool(b):
            return ("bool", b)
        case int(i):
            return ("int", i)
        case float(x):
            return ("float", x)
        case str(s):
            return ("str", s)
        case list([a, *_]):
            return ("list first", a)
        case dict(d):
            return ("dict", len(d))
        case tuple((a, b)):
            return ("pair", a, b)
        case _:
            return "other"
print([f(v) for v in [True, 3, 2.5, "s", [9, 8], {"a": 1}, (1, 2), (1, 2, 3), None]])
# ---- class_pattern_keyword_missing_attribute
class P:
    def __init__(self):
        self.a = 1
match P():
    case P(b=1):
        print("b?")
    case P(a=1):
        print("a is 1")
# ---- class_pattern_with_dataclass
from dataclasses import dataclass
@dataclass
class Item:
    name: str
    qty: int = 0
match Item("pen", 3):
    case Item(name, qty=q) if q > 1:
        print("several", name, q)
print(Item.__match_args__)
# ---- class_pattern_not_a_class
try:
    match 1:
        case len():
            pass
except TypeError as e:
    print(e)
# ---- or_patterns_binding
def f(v):
    match v:
        case [x, 0] | [0, x]:
            return ("axis", x)
        case (1 | 2 | 3) as small:
            return ("small", small)
        case str() | bytes():
            return "text"
        case _:
            return "other"
print(f([5, 0]), f([0, 7]), f(2), f("t"), f(b"b"), f(9))
# ---- as_patterns
match [1, [2, 3]]:
    case [a, [b, c] as inner] as whole:
        print(a, b, c, inner, whole)
# ---- guards_evaluated_after_binding
def f(v):
    match v:
        case [x, y] if x > y:
            return "desc"
        case [x, y] if x < y:
            return "asc"
        case [x, y]:
            return "equal"
print(f([2, 1]), f([1, 2]), f([1, 1]))
# ---- guard_binding_leaks_on_failure
match [10, 20]:
    case [a, b] if a > b:
        print("no")
    case _:
        print("after failed guard", a, b)
# ---- match_subject_tuple
x, y = 1, 2
match x, y:
    case 1, 2:
        print("tuple subject")
match (1,):
    case (a,):
        print("single", a)
# ---- match_on_strings_commands
def run(cmd):
    match cmd.split():
        case ["go", direction]:
            return "going " + direction
        case ["pick", "up", *items] if items:
            return "picking " + ",".join(items)
        case ["quit" | "exit"]:
            return "bye"
        case []:
            return "empty"
        case _:
            return "unknown: " + cmd
print([run(c) for c in ["go north", "pick up a b", "pick up", "quit", "exit", "", "dance"]])
# ---- match_no_case_matches
match 42:
    case 1:
        print("one")
print("fell through")
# ---- match_as_soft_keyword
match = [1, 2]
case = 3
print(match, case)
match match:
    case [1, _]:
        print("soft keyword works")
# ---- match_literal_float_int_equality
match 1.0:
    case 1:
        print("1.0 matches 1")
match 2:
    case 2.0:
        print("2 matches 2.0")
# ---- match_enum_members
import enum
class Color(enum.Enum):
    RED = 1
    BLUE = 2
def f(c):
    match c:
        case Color.RED:
            return "red!"
        case Color.BLUE:
            return "blue!"
print(f(Color.RED), f(Color.BLUE), f(1))
# ---- match_mapping_on_non_dict_mapping
from collections import OrderedDict, Counter
match OrderedDict(a=1):
    case {"a": v}:
        print("ordered", v)
match Counter("aab"):
    case {"a": n, **rest}:
        print("counter", n, rest)
# ---- match_sequence_on_tuple_and_range
match range(3):
    case [0, *rest]:
        print("range", rest)
match (1, 2, 3):
    case [1, *rest]:
        print(type(rest).__name__, rest)
# ---- match_class_pattern_match_args_non_tuple
class Bad:
    __match_args__ = ["a"]
    a = 1
try:
    match Bad():
        case Bad(x):
            print(x)
except TypeError as e:
    print(e)
# ---- match_class_positional_self_for_subclass
class MyInt(int):
    pass
match MyInt(5):
    case int(v):
        print("subclass self-match", v, type(v).__name__)
# ---- match_value_pattern_uses_eq
class AlwaysEq:
    def __eq__(self, other):
        return True
class K:
    V = AlwaysEq()
match 12345:
    case K.V:
        print("custom eq used")
# ---- match_in_loop_with_break_continue
out = []
for item in [1, "skip", 2, None, 3]:
    match item:
        case None:
            break
        case str():
            continue
        case n:
            out.append(n)
print(out)
# ---- match_wildcard_in_sequence_and_mapping
match {"a": [1, 2, 3], "b": 0}:
    case {"a": [_, _, _], "b": _}:
        print("shape ok")
