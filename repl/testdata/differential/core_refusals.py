# Core audit: constructs code mode refuses. Each cell prints first, then hits
# the construct: the interpreter must raise NotImplementedError naming it
# ("... not supported in code mode") after printing a prefix of CPython's
# output, never a different value.
# ---- async_def_definition
print("before")
async def fetch():
    return 1
print(type(fetch).__name__)
# ---- await_inside_async
print("before")
async def a():
    return 1
async def b():
    return await a()
print(b.__name__)
# ---- type_alias_statement
print("before")
type Point = tuple[int, int]
print(Point.__name__)
# ---- except_star
print("before")
try:
    raise ExceptionGroup("g", [ValueError(1)])
except* ValueError as eg:
    print("caught", len(eg.exceptions))
# ---- metaclass_keyword
print("before")
class Meta(type):
    pass
class K(metaclass=Meta):
    pass
print(type(K).__name__)
# ---- compile_builtin
print("before")
code = compile("1 + 1", "<s>", "eval")
print(eval(code))
# ---- lone_surrogate
print("before")
s = "\ud800"
print(len(s))
# ---- locals_mapping_in_exec
print("before")
g, l = {}, {}
exec("v = 1", g, l)
print(l)
# ---- function_code_object
print("before")
def f(a, b):
    return a
print(f.__code__.co_argcount, f.__code__.co_varnames)
# ---- generic_class_syntax_312
print("before")
class Box[T]:
    def __init__(self, v: T):
        self.v = v
print(Box(1).v)
# ---- generic_function_syntax_312
print("before")
def first[T](xs: list[T]) -> T:
    return xs[0]
print(first([3, 4]))
