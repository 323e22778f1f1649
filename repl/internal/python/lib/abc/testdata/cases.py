# Cases for the abc module; gen.py records CPython's output.
# ---- abstract_classes
from abc import ABC, abstractmethod
class Shape(ABC):
    @abstractmethod
    def area(self): ...
    @abstractmethod
    def perimeter(self): ...
    def describe(self):
        return f"{type(self).__name__} with area {self.area()}"
class Sq(Shape):
    def __init__(self, s):
        self.s = s
    def area(self):
        return self.s ** 2
    def perimeter(self):
        return 4 * self.s
for c in [lambda: Shape(), lambda: Sq(2)]:
    try:
        print(c().describe())
    except TypeError as e:
        print(e)
class Half(Shape):
    def area(self):
        return 1
try:
    Half()
except TypeError as e:
    print(e)
print(sorted(Shape.__abstractmethods__), Sq.__abstractmethods__, type(Shape), isinstance(Sq(1), Shape), issubclass(Sq, ABC))
# ---- metaclass
from abc import ABCMeta, abstractmethod
class M(metaclass=ABCMeta):
    @abstractmethod
    def f(self):
        pass
try:
    M()
except TypeError as e:
    print(e)
class N(M):
    def f(self):
        return "n"
print(N().f(), type(M).__name__, isinstance(N(), M))
# ---- abstract_property_and_aliases
from abc import ABC, abstractmethod, abstractproperty, abstractclassmethod, abstractstaticmethod
class P(ABC):
    @property
    @abstractmethod
    def name(self): ...
try:
    P()
except TypeError as e:
    print(e)
class Q(P):
    @property
    def name(self):
        return "q"
print(Q().name)
class Old(ABC):
    x = abstractproperty(lambda self: 1)
    @abstractclassmethod
    def make(cls): ...
    @abstractstaticmethod
    def helper(): ...
try:
    Old()
except TypeError as e:
    print(e)
print(abstractmethod(lambda: 1).__isabstractmethod__)
# ---- register_and_hook
from abc import ABC
class Reg(ABC):
    pass
print(Reg.register(int) is int, isinstance(3, Reg), issubclass(int, Reg), isinstance("x", Reg), issubclass(bool, Reg))
class H(ABC):
    @classmethod
    def __subclasshook__(cls, C):
        return hasattr(C, "quack") or NotImplemented
class Duck:
    def quack(self):
        pass
print(isinstance(Duck(), H), isinstance(1, H), issubclass(Duck, H))
# ---- cache_token
import abc
t0 = abc.get_cache_token()
class A(abc.ABC):
    pass
A.register(float)
print(abc.get_cache_token() > t0, abc.update_abstractmethods(A) is A)
