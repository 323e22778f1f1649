# Cases for the types module; gen.py records CPython's output.
# ---- simple_namespace
import types
ns = types.SimpleNamespace(a=1, b="x")
print(ns, repr(ns), ns == types.SimpleNamespace(a=1, b="x"), ns == types.SimpleNamespace(a=1), ns != types.SimpleNamespace(b="x", a=1), ns.a, vars(ns))
ns.c = 3
del ns.a
print(ns, types.SimpleNamespace(), type(ns).__name__, type(ns), isinstance(ns, types.SimpleNamespace), hasattr(ns, "a"))
class N(types.SimpleNamespace):
    pass
print(N(z=1), N(z=1) == types.SimpleNamespace(z=1), ns == 5)
nested = types.SimpleNamespace(inner=types.SimpleNamespace(v=[1, 2]))
nested.inner.self = nested
print(nested)
for call in [lambda: types.SimpleNamespace(1), lambda: hash(ns), lambda: ns.missing]:
    try:
        call()
    except (TypeError, AttributeError) as e:
        print(type(e).__name__, e)
# ---- mapping_proxy
import types
d = {"a": 1}
mp = types.MappingProxyType(d)
print(mp, repr(mp), mp["a"], len(mp), list(mp), "a" in mp, mp.get("b"), mp.get("b", 0), mp.copy(), type(mp).__name__, list(mp.items()), list(mp.keys()), list(mp.values()))
d["b"] = 2
print(mp, mp == {"a": 1, "b": 2}, mp | {"c": 3})
for call in [lambda: mp.__setitem__("x", 1), lambda: types.MappingProxyType([1])]:
    try:
        call()
    except (TypeError, AttributeError) as e:
        print(type(e).__name__, e)
try:
    mp["x"] = 1
except TypeError as e:
    print(e)
class A:
    pass
print(isinstance(A.__dict__, types.MappingProxyType), isinstance(mp, types.MappingProxyType), isinstance(d, types.MappingProxyType))
# ---- type_names
import types
def f():
    pass
class C:
    def m(self):
        pass
print(types.FunctionType, types.BuiltinFunctionType, types.MethodType, types.ModuleType, types.GeneratorType, types.NoneType, types.GenericAlias, types.UnionType, types.LambdaType is types.FunctionType, types.EllipsisType, types.NotImplementedType)
print(isinstance(f, types.FunctionType), isinstance(len, types.BuiltinFunctionType), isinstance((x for x in []), types.GeneratorType), isinstance(types, types.ModuleType), isinstance(C().m, types.MethodType), isinstance(lambda: 0, types.LambdaType), isinstance(None, types.NoneType), isinstance(list[int], types.GenericAlias), isinstance(int | str, types.UnionType))
m = types.ModuleType("mymod", "doc")
m.x = 1
print(m, m.__name__, m.x)
# ---- refused_codetype
import types
types.CodeType
