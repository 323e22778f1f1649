# Core audit: the object model underneath classes. Special-method lookup on
# the type, NotImplemented from builtin dunders, __class__ cells, super()
# corners, class dicts, generic aliases, __slots__ conflicts.
# ---- special_method_looked_up_on_type
class C:
    pass
c = C()
c.__len__ = lambda: 5
c.__repr__ = lambda: "instance repr"
try:
    len(c)
except TypeError as e:
    print(e)
print(repr(c).startswith("<__main__.C object"), c.__len__())
# ---- special_method_added_to_class_later
class C:
    pass
C.__len__ = lambda self: 3
C.__eq__ = lambda self, o: True
print(len(C()), C() == 1)
# ---- builtin_dunders_return_notimplemented
print((1).__add__(1.5), (1).__add__(2), (1.5).__add__(1), "a".__add__("b"), [1].__eq__((1,)), (2).__lt__("x"))
print(int.__add__(2, 3), str.upper("x"), list.__len__([1, 2]), dict.get({"a": 1}, "a"), float.__floordiv__(7.0, 2))
# ---- builtin_dunder_calls_direct
print((5).__sub__(2), (5).__rsub__(2), (2).__pow__(10), "ab".__mul__(2), [1].__add__([2]), (3).__neg__(), "abc".__contains__("b"), {1: 2}.__getitem__(1))
print([3, 1].__len__(), (1).__bool__(), (0.0).__bool__(), "x".__hash__() == hash("x"), (7).__index__(), (7).__format__("03"), (1).__repr__())
# ---- class_cell_magic
class A:
    def cls(self):
        return __class__
class B(A):
    pass
print(B().cls().__name__)
# ---- super_without_args_in_lambda_and_nested
class A:
    def f(self):
        return "A.f"
class B(A):
    def f(self):
        g = lambda: super().f()
        try:
            return g()
        except RuntimeError as e:
            return "RuntimeError: " + str(e)
    def h(self):
        return [super().f() for _ in range(2)]
print(B().f(), B().h())
# ---- super_outside_class_error
def f():
    return super()
try:
    f()
except RuntimeError as e:
    print(e)
# ---- super_in_staticmethod_error
class A:
    @staticmethod
    def s():
        return super().x
try:
    A.s()
except (RuntimeError, TypeError) as e:
    print(type(e).__name__, e)
# ---- super_repr_and_type
class A:
    def who(self):
        return "A"
class B(A):
    def test(self):
        s = super()
        return type(s).__name__, s.who()
print(B().test())
# ---- super_property_access
class A:
    @property
    def val(self):
        return "A.val"
class B(A):
    @property
    def val(self):
        return "B+" + super().val
print(B().val)
# ---- class_dict_mappingproxy
class C:
    x = 1
    def m(self):
        pass
d = C.__dict__
print(type(d).__name__, d["x"], "m" in d, sorted(k for k in d if not k.startswith("__")))
try:
    d["y"] = 2
except TypeError as e:
    print(e)
# ---- class_attribute_set_and_delete
class C:
    a = 1
C.b = 2
del C.a
print(hasattr(C, "a"), C.b)
try:
    del C.zz
except AttributeError as e:
    print(e)
# ---- instance_dict_assignment
class C:
    pass
c = C()
c.__dict__["direct"] = 5
c.__dict__.update(more=6)
print(c.direct, c.more, vars(c))
# ---- class_doc_and_module
class D:
    "Docstring here."
class N:
    pass
print(D.__doc__, N.__doc__, D.__module__, D.__name__, D.__qualname__)
# ---- method_doc_and_name
class C:
    def m(self):
        "Method doc."
print(C.m.__doc__, C().m.__doc__, C.m.__name__)
# ---- generic_alias_repr
print(list[int], dict[str, list[int]], tuple[int, ...], type(list[int]).__name__)
print(list[int]([1, 2]), list[int] == list[int])
# ---- type_hints_are_ignored_at_runtime
x: int = "not an int"
y: list[str]
print(x, "y" in globals(), __annotations__)
# ---- slots_conflict_with_class_variable
try:
    class S:
        __slots__ = ("x",)
        x = 1
except ValueError as e:
    print(e)
# ---- slots_inheritance_and_dict
class A:
    __slots__ = ("a",)
class B(A):
    __slots__ = ("b",)
b = B()
b.a, b.b = 1, 2
print(b.a, b.b, hasattr(b, "__dict__"))
try:
    b.c = 3
except AttributeError as e:
    print(e)
# ---- contains_returns_truthy_non_bool
class C:
    def __contains__(self, x):
        return "yes"
print(1 in C(), 1 not in C())
# ---- iter_none_blocks_iteration
class C:
    __iter__ = None
    def __getitem__(self, i):
        return i
try:
    iter(C())
except TypeError as e:
    print(e)
# ---- eq_returning_non_bool_in_list_ops
class E:
    def __eq__(self, o):
        return "truthy"
print(E() == 1, [E()] == [1], E() in [1], [1, 2].count(E()), [5].index(E()))
# ---- ne_uses_eq_inverse_not_reflected
class A:
    def __eq__(self, o):
        print("A.eq")
        return True
class B:
    def __ne__(self, o):
        print("B.ne")
        return "B.ne"
print(A() != B())
print(B() != A())
# ---- subclass_reflected_eq_priority
class A:
    def __eq__(self, o):
        return "A.eq"
class B(A):
    def __eq__(self, o):
        return "B.eq"
print(A() == B(), B() == A(), 1 == A(), A() == 1)
# ---- comparison_chain_with_custom_objects
class V:
    def __init__(self, v):
        self.v = v
    def __lt__(self, o):
        print("cmp", self.v, o.v)
        return self.v < o.v
print(V(1) < V(2) < V(0))
# ---- gt_falls_back_to_reflected_lt
class A:
    def __lt__(self, o):
        return "A.lt"
class B:
    pass
print(B() > A())
try:
    A() > B()
except TypeError as e:
    print(e)
# ---- hash_returning_bad_values
class H:
    def __init__(self, v):
        self.v = v
    def __hash__(self):
        return self.v
print(hash(H(5)), hash(H(-1)), hash(H(2 ** 64)) == hash(2 ** 64), hash(H(True)))
try:
    hash(H("x"))
except TypeError as e:
    print(e)
# ---- round_trunc_floor_ceil_dunders
import math
class N:
    def __round__(self, n=None):
        return ("round", n)
    def __trunc__(self):
        return 7
    def __floor__(self):
        return "floor"
    def __ceil__(self):
        return "ceil"
print(round(N()), round(N(), 2), math.trunc(N()), math.floor(N()), math.ceil(N()))
# ---- format_default_object_spec_error
class C:
    pass
print(format(C(), "").startswith("<__main__.C object"), f"{C()!s}".startswith("<"))
try:
    format(C(), "x")
except TypeError as e:
    print(e)
# ---- reversed_and_len_dunders
class R:
    def __reversed__(self):
        return iter("cba")
class S:
    def __len__(self):
        return 3
    def __getitem__(self, i):
        if i >= 3:
            raise IndexError
        return i * 10
print(list(reversed(R())), list(reversed(S())), list(S()))
# ---- class_getitem_hook
class Box:
    def __class_getitem__(cls, item):
        return f"Box of {item!r}"
print(Box[int], Box["x"])
# ---- init_subclass_receives_class_and_kwargs_default
class Base:
    subs = []
    def __init_subclass__(cls):
        Base.subs.append(cls.__name__)
class A(Base): pass
class B(A): pass
print(Base.subs)
# ---- instance_class_assignment
class A:
    def who(self):
        return "A"
class B:
    def who(self):
        return "B"
a = A()
a.__class__ = B
print(a.who(), type(a).__name__, isinstance(a, B))
# ---- bound_method_equality
class C:
    def m(self):
        pass
c = C()
print(c.m == c.m, c.m is c.m, C.m is C.m, c.m != C().m)
# ---- staticmethod_classmethod_objects
class C:
    @staticmethod
    def s():
        return 1
    @classmethod
    def c(cls):
        return cls
sm = C.__dict__["s"]
cm = C.__dict__["c"]
print(type(sm).__name__, type(cm).__name__, sm.__func__(), cm.__func__(C) is C, callable(sm))
# ---- property_attributes
class C:
    @property
    def p(self):
        "P doc"
        return 1
prop = C.__dict__["p"]
print(prop.fget.__name__, prop.fset, prop.fdel, prop.__doc__)
# ---- dunder_getattr_not_used_for_dunders
class P:
    def __getattr__(self, name):
        return lambda *a: "proxied " + name
p = P()
print(p.anything())
try:
    len(p)
except TypeError as e:
    print(e)
try:
    p + 1
except TypeError as e:
    print(e)
# ---- object_new_with_args_errors
class A:
    pass
try:
    A(1, 2)
except TypeError as e:
    print(e)
class B:
    def __init__(self, x):
        self.x = x
print(B(1).x)
try:
    object.__new__(B, 1)
    print("object.__new__ with extra args ok when __init__ overridden")
except TypeError as e:
    print(e)
# ---- type_checks_on_classes
class A: pass
class B(A): pass
print(type(A), isinstance(A, type), issubclass(B, A), issubclass(A, A), issubclass(A, B), isinstance(B(), A), type(B()) is A)
print(A.__subclasscheck__ if False else "", isinstance(int, type), isinstance(type, object), isinstance(object, type))
# ---- mro_method_and_attribute_lookup_order
class A:
    x = "A"
class B(A):
    pass
class C(A):
    x = "C"
class D(B, C):
    pass
print(D.x, D().x, [k.__name__ for k in D.__mro__])
# ---- descriptor_on_class_access_owner
class Desc:
    def __get__(self, obj, owner):
        return ("obj" if obj is not None else "class", owner.__name__)
class C:
    d = Desc()
class Sub(C):
    pass
print(C.d, C().d, Sub.d, Sub().d)
# ---- functions_are_descriptors
def f(self, x):
    return (self, x)
class C:
    pass
bound = f.__get__(C(), C)
print(type(bound).__name__, bound(1)[1], f.__get__(None, C) is f)
# ---- classmethod_on_builtin_types
print(dict.fromkeys("ab", 0), int.from_bytes(b"\x00\x10", "big"), str.maketrans("a", "b"), bytes.fromhex("ff"), float.fromhex("0x1p-1"))
# ---- init_subclass_with_super_chain
class A:
    def __init_subclass__(cls, **kw):
        print("A hook", cls.__name__, kw)
        super().__init_subclass__()
class B(A, tag=1):
    pass
class C(B):
    pass
# ---- set_name_with_type_call
class D:
    def __set_name__(self, owner, name):
        print("set_name", owner.__name__, name)
T = type("T", (), {"attr": D()})
print(T.__name__)
# ---- class_body_returns_namespace_order
class C:
    b = 1
    a = 2
    def z(self): pass
    c = 3
print([k for k in C.__dict__ if not k.startswith("__")])
# ---- object_dunder_methods_exist
o = object()
print(o.__eq__(o), o.__ne__(o), o.__eq__(1), o.__hash__() == hash(o), o.__str__() == o.__repr__(), type(o.__class__).__name__)
# ---- getattr_on_class_with_getattr_instance_hook
class C:
    def __getattr__(self, n):
        return "inst"
try:
    C.missing
except AttributeError as e:
    print(e)
print(C().missing)
# ---- attribute_error_name_and_obj
class C:
    pass
try:
    C().nope
except AttributeError as e:
    print(e.name, type(e.obj).__name__)
# ---- numbers_abc_checks
import numbers
print(isinstance(1, numbers.Number), isinstance(1.5, numbers.Real), isinstance(1, numbers.Integral), isinstance(True, numbers.Integral), isinstance(1j, numbers.Real))
# ---- abc_register_virtual_subclass
from collections.abc import Sequence
class MySeq:
    pass
Sequence.register(MySeq)
print(isinstance(MySeq(), Sequence), issubclass(MySeq, Sequence))
# ---- deep_nesting_repr_recursion_error
a = []
for _ in range(5000):
    a = [a]
try:
    print(len(repr(a)))
except RecursionError as e:
    print("RecursionError", e)
d = {}
for _ in range(5000):
    d = {"k": d}
try:
    print(len(str(d)))
except RecursionError as e:
    print("RecursionError", e)
# ---- deep_nesting_equality_recursion_error
a = []
b = []
for _ in range(5000):
    a = [a]
    b = [b]
try:
    print(a == b)
except RecursionError as e:
    print("RecursionError", e)
# ---- self_recursive_repr_method
class R:
    def __repr__(self):
        return repr(self)
try:
    repr(R())
except RecursionError as e:
    print(e)
# ---- dict_subclass_getitem_override
class D(dict):
    def __getitem__(self, k):
        return "sub:" + str(dict.get(self, k))
d = D(a=1)
print(d["a"], d.get("a"), dict(d), {**d}, list(d.items()), d, repr(d), type(d.copy()).__name__)
# ---- list_subclass_len_getitem_override
class L(list):
    def __getitem__(self, i):
        return "L" + str(list.__getitem__(self, i))
    def __len__(self):
        return 99
l = L([1, 2])
print(l[0], list(l), len(l), [x for x in l], l, sorted(l), l + [3], type(l + [3]).__name__, bool(L()), max(l))
# ---- str_subclass_str_override
class S(str):
    def __str__(self):
        return "custom str"
    def __len__(self):
        return 42
s = S("abc")
print(s, str(s), len(s), s.upper(), f"{s}", "%s" % s, "{}".format(s), s + "!", repr(s), s == "abc")
# ---- int_subclass_operators_and_repr
class I(int):
    def __add__(self, o):
        return "I.add"
    def __repr__(self):
        return "I!"
i = I(5)
print(i + 1, 1 + i, i * 2, i, str(i), f"{i}", "%d" % i, sum([i]), [i], i == 5, int(i), float(i))
# ---- dict_subclass_setitem_not_used_by_update
class DD(dict):
    def __init__(self, *a, **k):
        super().__init__(*a, **k)
        self.extra = "x"
    def __setitem__(self, k, v):
        super().__setitem__(k, v * 10)
dd = DD({"a": 1}, b=2)
dd["c"] = 3
dd.update(d=4)
dd.setdefault("e", 5)
print(dd, dd.extra, vars(dd))
# ---- tuple_float_subclasses
class T(tuple):
    pass
t = T((1, 2))
print(t, t + (3,), type(t + (3,)).__name__, t[0:1], type(t[0:1]).__name__, T(), hash(t) == hash((1, 2)))
class F(float):
    pass
print(F(1.5), F(1.5) + 1, type(F(1.5) + 1).__name__, repr(F("2.5")), F(3) == 3)
# ---- property_attribute_error_falls_back_to_getattr
class P:
    @property
    def broken(self):
        raise AttributeError("inner attr error")
    def __getattr__(self, n):
        return "getattr fallback for " + n
print(P().broken)
# ---- setattr_via_super
class Q:
    def __setattr__(self, k, v):
        super().__setattr__(k, str(v))
q = Q()
q.a = 5
print(q.a, type(q.a).__name__)
# ---- instance_dict_reassignment
class R:
    pass
r = R()
r.__dict__ = {"z": 26}
print(r.z, vars(r))
# ---- call_in_instance_dict_not_callable
class C:
    pass
c = C()
c.__call__ = lambda: 1
print(callable(c))
try:
    c()
except TypeError as e:
    print(e)
# ---- slots_including_dict
class S:
    __slots__ = ("a", "__dict__")
s = S()
s.a = 1
s.b = 2
print(s.a, s.b, s.__dict__)
# ---- class_dict_standard_entries
class V:
    x = 1
print(sorted(V.__dict__), V.__dict__.get("x"), "x" in V.__dict__)
class W(V):
    pass
print(sorted(W.__dict__))
# ---- print_writes_items_before_failing_str
class R:
    def __str__(self):
        raise ValueError("str failed")
try:
    print("a", R(), "b")
except ValueError as e:
    print("ValueError", e)
