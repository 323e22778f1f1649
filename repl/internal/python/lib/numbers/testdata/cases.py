# Cases for the numbers module; gen.py records CPython's outcome.
# ---- isinstance_builtins
import numbers
from fractions import Fraction
vals = [1, True, 2.5, 1j, Fraction(1, 3), "1", None, [1]]
for abc in [numbers.Number, numbers.Complex, numbers.Real, numbers.Rational, numbers.Integral]:
    print(abc.__name__, [isinstance(v, abc) for v in vals])
print(issubclass(int, numbers.Real), issubclass(bool, numbers.Integral), issubclass(float, numbers.Rational), issubclass(complex, numbers.Number), issubclass(Fraction, numbers.Rational), issubclass(str, numbers.Number))
print(issubclass(numbers.Integral, numbers.Number), issubclass(numbers.Real, numbers.Integral), numbers.Real.__mro__[1:3], numbers.__all__)
print(repr(numbers.Real), numbers.Integral.__module__, numbers.Number.__hash__, numbers.Rational.__doc__)
# ---- isinstance_subclasses
import numbers
class MyInt(int):
    pass
class MyFloat(float):
    pass
print(isinstance(MyInt(3), numbers.Integral), isinstance(MyFloat(1.5), numbers.Real), isinstance(MyFloat(1.5), numbers.Rational))
print(isinstance(3, (str, numbers.Number)), isinstance("x", (numbers.Number,)))
# ---- register
import numbers
class Money:
    pass
print(isinstance(Money(), numbers.Number))
print(numbers.Real.register(Money) is Money, isinstance(Money(), numbers.Real), isinstance(Money(), numbers.Complex), isinstance(Money(), numbers.Number), isinstance(Money(), numbers.Rational))
print(issubclass(Money, numbers.Real), numbers.Integral.register(int))
# ---- subclass_abstract_error
import numbers
class R(numbers.Real):
    pass
R()
# ---- subclass_abstract_error_one
import numbers
class N(numbers.Number):
    pass
class C(numbers.Complex):
    def __complex__(self): return 0j
    real = imag = 0
    def conjugate(self): return self
    def __abs__(self): return 0
    def __add__(self, o): return self
    def __radd__(self, o): return self
    def __mul__(self, o): return self
    def __rmul__(self, o): return self
    def __neg__(self): return self
    def __pos__(self): return self
    def __pow__(self, o): return self
    def __rpow__(self, o): return self
    def __truediv__(self, o): return self
    def __rtruediv__(self, o): return self
print(type(N()).__name__)
C()
# ---- subclass_complete
import numbers
class Fixed(numbers.Real):
    def __init__(self, cents):
        self.cents = int(cents)
    def __repr__(self): return f"Fixed({self.cents})"
    def __float__(self): return self.cents / 100
    def __trunc__(self): return self.cents // 100
    def __floor__(self): return self.cents // 100
    def __ceil__(self): return -(-self.cents // 100)
    def __round__(self, nd=None): return round(self.cents / 100, nd)
    def __floordiv__(self, o): return Fixed(self.cents // o.cents * 100)
    def __rfloordiv__(self, o): return NotImplemented
    def __mod__(self, o): return Fixed(self.cents % o.cents)
    def __rmod__(self, o): return NotImplemented
    def __lt__(self, o): return self.cents < o.cents
    def __le__(self, o): return self.cents <= o.cents
    def __add__(self, o): return Fixed(self.cents + o.cents)
    def __radd__(self, o): return NotImplemented
    def __neg__(self): return Fixed(-self.cents)
    def __pos__(self): return Fixed(self.cents)
    def __mul__(self, o): return Fixed(self.cents * o.cents // 100)
    def __rmul__(self, o): return NotImplemented
    def __truediv__(self, o): return Fixed(self.cents * 100 // o.cents)
    def __rtruediv__(self, o): return NotImplemented
    def __pow__(self, o): return NotImplemented
    def __rpow__(self, o): return NotImplemented
    def __abs__(self): return Fixed(abs(self.cents))
    def __eq__(self, o): return isinstance(o, Fixed) and self.cents == o.cents
    __hash__ = None
a, b = Fixed(250), Fixed(100)
print(a, a - b, a.real, a.imag, a.conjugate(), divmod(a, b), a.__complex__(), float(a), bool(Fixed(0)), bool(a))
print(isinstance(a, numbers.Real), isinstance(a, numbers.Rational), isinstance(a, numbers.Number))
# ---- integral_mixins
import numbers
class Bits(int, numbers.Integral):
    pass
b = Bits(6)
print(b.numerator, b.denominator, b.__index__(), float(b), isinstance(b, numbers.Integral), [10, 20, 30, 40, 50, 60, 70][b])
# ---- complex_of_instance
class C:
    def __complex__(self):
        return 1 + 2j
class F:
    def __float__(self):
        return 1.5
print(complex(C()), complex(F()))
