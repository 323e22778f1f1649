# Hand-written cases for bytes and bytearray; gen.py records CPython's
# outcome of each (with the helpers E and X of gen.py's PRELUDE defined) and
# adds seeded random cases. A case begins at a line "# ---- name".
# Cases named pct_bytes_* use the bytes % operator, which the interpreter
# core routes to bytesFormat (format.go's bytesPercent).

# ---- construct_bytes
class I:
    def __index__(self): return 3
class BB:
    def __bytes__(self): return b'from bytes'
class BS:
    def __bytes__(self): return 'str'
class BI:
    def __bytes__(self): return b'x'
    def __index__(self): return 2
class IB:
    def __iter__(self): return iter([65, 66])
for s in ["bytes()", "bytes(encoding='utf-8')", "bytes(errors='strict')", "bytes('abc')", "bytes('abc', 'ascii')",
          "bytes('é', 'ascii')", "bytes('é', 'ascii', 'ignore')", "bytes('abc', errors='strict')", "bytes('é', 'utf-8')",
          "bytes(b'x', 'utf-8')", "bytes(3, 'utf-8')", "bytes(3, errors='x')", "bytes(3)", "bytes(0)", "bytes(-1)",
          "bytes(2**70)", "bytes(-2**70)", "bytes(I())", "bytes(True)", "bytes(1.5)", "bytes(None)", "bytes([1, 2])",
          "bytes([1, 'a'])", "bytes([256])", "bytes([-1])", "bytes([2**70])", "bytes((1, 2))", "bytes(range(3))",
          "bytes(x for x in [1])", "bytes({1: 2})", "bytes({3})", "bytes(BB())", "bytes(BS())", "bytes(BI())", "bytes(IB())",
          "bytes(bytearray(b'ab'))", "bytes(b'ab', encoding=None)", "bytes('a', None)", "bytes('a', 5)",
          "bytes('a', 'utf-8', 5)", "bytes(source=b'x')", "bytes(x=1)", "bytes(1, 2, 3, 4)", "bytes('a', 'nope')",
          "bytes([True, False])", "bytes(iter(b'xyz'))", "bytes(b'')", "bytes(object())"]:
    E(s)

# ---- construct_bytearray
class I:
    def __index__(self): return 3
class BB:
    def __bytes__(self): return b'from bytes'
class IB:
    def __iter__(self): return iter([65, 66])
for s in ["bytearray()", "bytearray(encoding='utf-8')", "bytearray(errors='strict')", "bytearray('abc')",
          "bytearray('abc', 'ascii')", "bytearray(b'x', 'utf-8')", "bytearray(3, errors='x')", "bytearray(-1)",
          "bytearray(2**70)", "bytearray(I())", "bytearray(1.5)", "bytearray(None)", "bytearray([1, 'a'])",
          "bytearray([256])", "bytearray(BB())", "bytearray(IB())", "bytearray(source=b'x')", "bytearray(x=1)",
          "bytearray(1, 2, 3, 4)", "bytearray('a', 5)", "bytearray('a', None)", "bytearray(range(5))",
          "bytearray(bytearray(b'q'))", "bytearray((x for x in range(3)))", "bytearray({1: 2})", "bytearray(4)",
          "bytearray('é', 'latin-1')", "bytearray('é', 'ascii', 'replace')"]:
    E(s)
ba = bytearray(b'abc')
X("ba.__init__(b'xyz')")
E("ba")
X("ba.__init__()")
E("ba")
X("ba.__init__(3)")
E("ba")
X("ba.__init__('hi', 'ascii')")
E("ba")
X("ba.__init__([1, 'x'])")

# ---- subclasses
class B(bytes):
    def hello(self): return 'hi'
class BA(bytearray):
    pass
class BT(bytearray):
    def __init__(self, text):
        super().__init__(text.encode())
b = B(b'abc')
ba = BA(b'xyz')
E("b")
E("bytes(ba)")
E("type(b.upper())")
E("type(ba.upper())")
E("type(b + b'x')")
E("type(ba + b'x')")
E("type(b[0:1])")
E("type(ba[0:1])")
E("b.hello()")
E("isinstance(b, bytes)")
E("isinstance(ba, bytearray)")
E("B.fromhex('4142')")
E("type(B.fromhex('4142'))")
E("bytes(BA.fromhex('4142'))")
E("type(BA.fromhex('4142'))")
E("bytes(BT('héllo'))")
E("type(BT('x'))")
E("b == b'abc'")
E("ba == b'xyz'")
E("hash(b) == hash(b'abc')")
E("b.split(b'b')")
E("[type(p) for p in ba.split(b'y')]")
E("b.partition(b'b')")
E("bytes(b)")
E("type(bytes(b))")
E("bytearray(ba)")
E("b'-'.join([b, ba])")
E("ba.copy()")
E("type(ba.copy())")
X("ba.append(33)")
E("bytes(ba)")
X("ba += b'!'")
E("bytes(ba)")
E("type(ba)")
X("ba *= 2")
E("bytes(ba)")
E("type(ba)")
E("len(ba)")
E("b'b' in b")
E("98 in b")
E("b.find(98)")
E("B(b'x').__bytes__()")
E("type(B(b'x').__bytes__())")
E("b.__getnewargs__()")
E("ba.__reduce__()")

# ---- index_protocol
class I:
    def __init__(self, n): self.n = n
    def __index__(self): return self.n
class Bad:
    def __index__(self): return 'x'
class Boom:
    def __index__(self): raise ValueError('boom')
b = b'abcabc'
ba = bytearray(b'abcabc')
for s in ["b.center(I(9), b'*')", "b.ljust(I(8))", "b.zfill(I(8))", "b.find(b'c', I(3))", "b.find(b'c', 0, I(2))",
          "b.count(I(97))", "b.find(I(98))", "b.index(I(99), I(3))", "b.split(b'b', I(1))", "b.rsplit(maxsplit=I(1))",
          "b.replace(b'a', b'A', I(1))", "b.expandtabs(I(2))", "b.hex(':', I(2))", "b * I(2)", "I(2) * b",
          "ba * I(2)", "I(2) * ba", "b[I(1)]", "ba[I(1)]", "b[I(1):I(3)]", "bytes(I(2))", "bytearray(I(2))",
          "b.center(Bad())", "b.center(Boom())", "b.find(b'a', Bad())", "b.count(Bad())", "bytes(Bad())",
          "b.startswith(b'b', I(1))", "b.endswith(b'c', I(0), I(3))", "ba.pop(I(0))", "b.center(True)",
          "b.find(b'a', True)", "b.ljust(2**70)", "b.rjust(-2**70)", "b.find(b'a', -2**70, 2**70)"]:
    E(s)
X("ba.insert(I(0), I(65))")
X("ba.append(I(66))")
X("ba[I(0)] = I(67)")
X("ba[I(1):I(2)] = [I(68), I(69)]")
X("ba.remove(I(66))")
X("ba.append(Bad())")
X("ba.append(Boom())")
X("ba[0] = Bad()")
X("del ba[I(0)]")
E("ba")

# ---- search_find
b = b'abracadabra'
for s in ["b.find(b'a')", "b.find(b'bra')", "b.find(b'bra', 2)", "b.find(b'bra', 2, 9)", "b.find(b'bra', 2, 10)",
          "b.find(b'')", "b.find(b'', 11)", "b.find(b'', 12)", "b.find(b'', -3)", "b.find(b'', 5, 2)",
          "b.rfind(b'a')", "b.rfind(b'bra')", "b.rfind(b'bra', 0, 9)", "b.rfind(b'')", "b.rfind(b'', 3, 5)",
          "b.find(97)", "b.rfind(97)", "b.find(0)", "b.find(256)", "b.find(-1)", "b.find(2**70)", "b.find(True)",
          "b.find('a')", "b.find(1.5)", "b.find(None)", "b.find([97])", "b.find(bytearray(b'cad'))",
          "b.find(b'a', None, None)", "b.find(b'a', -4)", "b.find(b'a', -100, -8)", "b.find(b'a', 2**70)",
          "b.find(b'a', 'x')", "b.find('a', 'x')", "b.find()", "b.find(b'a', 1, 2, 3)", "b.find(b'a', start=1)",
          "b.index(b'z')", "b.index(b'c')", "b.rindex(b'z')", "b.rindex(b'a', 0, 5)", "b.index(b'a', 1, 3)",
          "b.count(b'a')", "b.count(b'abra')", "b.count(b'')", "b.count(b'', 3)", "b.count(b'', 12)",
          "b.count(b'a', 1, -1)", "b.count(97)", "b.count(300)", "b''.count(b'')", "b''.find(b'')",
          "b'aaa'.count(b'aa')", "b'aaaa'.count(b'aa')", "b'aaa'.rfind(b'aa')", "bytearray(b).find(b'cad')",
          "bytearray(b).count(97, 3)", "bytearray(b).rindex(b'bra')", "bytearray(b).index(b'x')"]:
    E(s)

# ---- search_affix
b = b'hello world'
for s in ["b.startswith(b'hello')", "b.startswith(b'world', 6)", "b.startswith(b'wor', 6, 8)", "b.startswith(b'wor', 6, 9)",
          "b.startswith(b'')", "b.startswith(b'', 11)", "b.startswith(b'', 12)", "b.startswith(b'', 5, 2)",
          "b.endswith(b'world')", "b.endswith(b'hello', 0, 5)", "b.endswith(b'hell', 0, -7)", "b.endswith(b'')",
          "b.endswith(b'', 11)", "b.endswith(b'', 12)", "b.endswith(b'd', -1, 100)", "b.endswith(b'ab', 0, 2)",
          "b.startswith((b'x', b'he'))", "b.startswith(())", "b.endswith((b'x', b'y'))", "b.startswith((b'x', 'a'))",
          "b.startswith((b'h', 'a'))", "b.startswith([b'h'])", "b.startswith('h')", "b.startswith(104)",
          "b.startswith(bytearray(b'hel'))", "b.endswith((bytearray(b'ld'),))", "b.startswith(b'h', 'x')",
          "b.startswith()", "b.startswith(b'h', 0, 1, 2)", "b.endswith(b'd', end=3)", "b.startswith(b'h', None, None)",
          "b.startswith(b'world', -5)", "b.endswith(b'hello', -100, -6)", "bytearray(b).startswith(b'hello')",
          "bytearray(b).endswith((b'x', bytearray(b'd')))", "b.startswith(b'hello world!')", "b''.startswith(b'')",
          "b''.endswith(b'', 0, 0)", "b.startswith(b'lo', 3, 2**70)", "b.startswith(b'h', -2**70)"]:
    E(s)

# ---- split_rsplit
for s in ["b'a b  c'.split()", "b'  a b  c  '.split()", "b'  a  b  '.split(None, 1)", "b'  a  b  '.rsplit(None, 1)",
          "b'  a  b  '.rsplit(None, 0)", "b'  a  b  '.split(None, 0)", "b''.split()", "b'   '.split()", "b''.split(b',')",
          "b'a,b,,c'.split(b',')", "b'a,b,,c'.split(b',', 1)", "b'a,b,,c'.rsplit(b',', 1)", "b'a,b,,c'.split(b',', -5)",
          "b'a,b,,c'.split(b',', 0)", "b'abcabc'.split(b'bc')", "b'abcabc'.rsplit(b'bc')", "b'a\\x1cb'.split()",
          "b'a\\x85b\\xa0c'.split()", "b'a\\tb\\nc\\rd\\x0be\\x0cf'.split()", "b'a b'.split(sep=None)",
          "b'a b c'.split(maxsplit=1)", "b'a b c'.rsplit(maxsplit=1)", "b'a b'.split(b'')", "b'a b'.rsplit(b'')",
          "b'a b'.split(' ')", "b'a b'.split(32)", "b'a b'.split(maxsplit='x')", "b'a b'.split(b' ', 1, 2)",
          "b'a b'.split(x=1)", "b'a b'.split(b' ', sep=b'c')", "b'a b'.split(sep=None, maxsplit=1, x=2)",
          "b'a b'.split(maxsplit=2**70)", "b'aXbXc'.split(bytearray(b'X'))", "bytearray(b'a b c').split()",
          "bytearray(b'a,b').rsplit(b',')", "b'a  b'.split(b' ')", "b'xxAxx'.split(b'xx')", "b'xxxAxxx'.rsplit(b'xx')",
          "b'xxxAxxx'.split(b'xx')", "b'a b'.split(None, -2**70)"]:
    E(s)

# ---- splitlines
for s in ["b'ab\\r\\ncd\\rx\\n'.splitlines()", "b'ab\\r\\ncd\\rx\\n'.splitlines(True)", "b'ab\\x0bcd\\x0c\\x1c\\x85'.splitlines()",
          "b''.splitlines()", "b'\\n'.splitlines()", "b'\\n\\n'.splitlines(keepends=True)", "b'\\r\\r\\n\\n'.splitlines()",
          "b'a'.splitlines(1)", "b'a\\n'.splitlines('x')", "b'a\\nb'.splitlines(keepends=0)", "b'a'.splitlines(x=1)",
          "b'a'.splitlines(True, 1)", "b'a'.splitlines(True, x=1)", "bytearray(b'a\\nb').splitlines()", "b'no newline'.splitlines()"]:
    E(s)

# ---- strip_family
for s in ["b'  ab  '.strip()", "b'  ab  '.lstrip()", "b'  ab  '.rstrip()", "b'\\t\\n\\x0b\\x0c\\r ab \\x1c'.strip()",
          "b'xyabyx'.strip(b'xy')", "b'xyabyx'.lstrip(b'yx')", "b'xyabyx'.rstrip(b'x')", "b'ab'.strip(b'')",
          "b'ab'.strip(None)", "b'ab'.strip('a')", "b'ab'.strip(97)", "b'ab'.lstrip(b'a', b'b')", "b'ab'.strip(sep=b'a')",
          "b'aaa'.strip(b'a')", "b''.strip()", "b'\\xff\\x00ab\\x00'.strip(b'\\x00\\xff')", "b'ab'.strip(bytearray(b'b'))",
          "bytearray(b'  x  ').strip()", "type(bytearray(b'x').strip())", "b'\\xa0a\\xa0'.strip()", "b'\\x85a'.strip()"]:
    E(s)

# ---- replace
for s in ["b'abc'.replace(b'', b'-')", "b'abc'.replace(b'', b'-', 2)", "b''.replace(b'', b'x')", "b''.replace(b'', b'x', 0)",
          "b'aaa'.replace(b'a', b'bb', -2)", "b'aaa'.replace(b'aa', b'b')", "b'abc'.replace(b'', b'', 2)",
          "b'abc'.replace(b'', b'-', 10)", "b'abc'.replace(b'x', b'y')", "b'abcabc'.replace(b'bc', b'')",
          "b'abcabc'.replace(b'bc', b'XYZ', 1)", "b'abc'.replace(b'abc', b'')", "b'abc'.replace(b'abcd', b'')",
          "b'a'.replace(b'a', b'b', 0)", "b'abc'.replace('a', b'b')", "b'abc'.replace(b'a', 'b')", "b'abc'.replace(b'a', b'b', 'x')",
          "b'abc'.replace('a', 'b', 'x')", "b'abc'.replace(b'a', b'b', count=1)", "b'abc'.replace(b'a')", "b'abc'.replace()",
          "b'abc'.replace(b'a', b'b', 1, 2)", "b'abc'.replace(bytearray(b'b'), bytearray(b'B'))", "bytearray(b'abc').replace(b'b', b'')",
          "b'aaaa'.replace(b'a', b'', 2)", "b'abc'.replace(b'a', b'b', 2**70)", "b'abc'.replace(b'a', b'b', -2**70)",
          "b'abc'.replace(b'', b'')"]:
    E(s)

# ---- pad_family
for s in ["b'abc'.center(6, b'*')", "b'abc'.center(7, b'*')", "b'ab'.center(5, b'*')", "b'ab'.center(6)", "b'abc'.center(2)",
          "b'abc'.center(-5)", "b'a'.center(4)", "b'a'.center(5)", "b''.center(3, b'-')", "b'abc'.ljust(6, b'.')",
          "b'abc'.rjust(6, b'.')", "b'abc'.ljust(2)", "b'abc'.center('x')", "b'abc'.center(10, 'x')",
          "b'abc'.center(10, b'xy')", "b'abc'.center(10, 120)", "b'abc'.center()", "b'abc'.center(10, fillchar=b'x')",
          "b'abc'.ljust(10, bytearray(b'-'))", "b'abc'.ljust(10, bytearray(b'--'))", "b'abc'.center(1, 2, 3)",
          "b'abc'.center(2**70)", "b'abc'.center(3.0)", "bytearray(b'x').center(3)", "type(bytearray(b'x').ljust(3))",
          "b'abc'.center(10, b'')", "b'ab'.rjust(4, b'\\xff')"]:
    E(s)

# ---- zfill_expandtabs
for s in ["b'-42'.zfill(6)", "b'+'.zfill(3)", "b''.zfill(3)", "b'42'.zfill(1)", "b'-'.zfill(3)", "b'a-1'.zfill(5)",
          "b'--1'.zfill(5)", "b'42'.zfill(-1)", "b'42'.zfill('x')", "b'42'.zfill(2**70)", "b'42'.zfill()",
          "b'42'.zfill(5, 6)", "b'42'.zfill(width=5)", "bytearray(b'-7').zfill(4)",
          "b'a\\tb\\r\\tc\\n\\td'.expandtabs(4)", "b'a\\tb'.expandtabs(0)", "b'a\\tb'.expandtabs(-3)", "b'a\\tb'.expandtabs()",
          "b'\\t'.expandtabs(1)", "b'abcdefgh\\tx'.expandtabs()", "b'ab\\tc'.expandtabs(tabsize=3)", "b'a'.expandtabs('x')",
          "b'a'.expandtabs(2**40)", "b'a'.expandtabs(4, 5)", "b'a'.expandtabs(x=1)", "b'a'.expandtabs(4, x=1)",
          "bytearray(b'\\tx').expandtabs(2)", "b'\\xff\\tx'.expandtabs(4)"]:
    E(s)

# ---- partition
for s in ["b'a=b=c'.partition(b'=')", "b'a=b=c'.rpartition(b'=')", "b'abc'.partition(b'x')", "b'abc'.rpartition(b'x')",
          "b'abc'.partition(b'')", "b'abc'.rpartition(b'')", "b'abc'.partition('a')", "b'abc'.partition(97)",
          "b'abc'.partition()", "b'abc'.partition(b'a', b'b')", "b'abc'.partition(sep=b'b')", "b'abc'.partition(bytearray(b'b'))",
          "bytearray(b'a=b').partition(b'=')", "bytearray(b'ab').partition(b'x')", "bytearray(b'ab').rpartition(b'x')",
          "b'abcabc'.partition(b'bc')", "b'abcabc'.rpartition(b'bc')", "b'abc'.partition(b'abc')"]:
    E(s)

# ---- removeaffix
for s in ["b'abc'.removeprefix(b'ab')", "b'abc'.removeprefix(b'x')", "b'abc'.removeprefix(b'')", "b'abc'.removesuffix(b'bc')",
          "b'abc'.removesuffix(b'abcd')", "b'abc'.removeprefix('a')", "b'abc'.removesuffix(97)", "b'abc'.removeprefix()",
          "b'abc'.removeprefix(b'a', b'b')", "bytearray(b'abc').removeprefix(b'a')", "bytearray(b'abc').removesuffix(bytearray(b'c'))",
          "b'aa'.removeprefix(b'a')"]:
    E(s)

# ---- join
def gen():
    yield b'x'
    yield 1
    raise ValueError('late')
for s in ["b'-'.join([b'a', b'b', b'c'])", "b''.join([])", "b'-'.join([b'a'])", "b'-'.join('abc')", "b'-'.join(5)",
          "b'-'.join([b'a', 'b'])", "b'-'.join([b'a', 1])", "b'-'.join([bytearray(b'x'), b'y'])", "b'-'.join()",
          "b'-'.join([b'a'], [b'b'])", "b'-'.join(iterable_of_bytes=[b'a'])", "b'-'.join(x for x in [b'p', b'q'])",
          "b'-'.join(gen())", "b', '.join((b'a', b'b'))", "bytearray(b'/').join([b'a', b'b'])", "type(bytearray(b'').join([]))",
          "b'-'.join({b'k': 1})", "b'-'.join([None])", "b'-'.join([b'a', b'b', 'c', 'd'])", "b'ab'.join([b'', b''])"]:
    E(s)

# ---- hex_fromhex
b = b'abcabc'
for s in ["b.hex()", "b.hex(':')", "b.hex(':', 2)", "b.hex(':', -2)", "b.hex(':', 4)", "b.hex(':', -4)", "b.hex('::')",
          "b.hex(b':')", "b.hex(5)", "b.hex('é')", "b.hex(sep=':', bytes_per_sep=4)", "b.hex(bytes_per_sep=2)",
          "b.hex(':', 'x')", "b''.hex(':')", "b.hex(None)", "b.hex(':', 0)", "b.hex(':', 2**40)", "b.hex(':', 100)",
          "b.hex(':', -100)", "b.hex(bytearray(b'-'))", "b.hex(sep='')", "b.hex(b'\\xff')", "b.hex([1])", "b.hex([])",
          "b'\\x00\\xff\\x10'.hex()", "b.hex(':', 1, 2)", "b.hex(x=1)", "b.hex(':', bytes_per_sep=1, x=1)",
          "bytearray(b).hex('-', 3)", "b'a'.hex(':', 5)",
          "bytes.fromhex('4142')", "bytes.fromhex(b'ab')", "bytes.fromhex('a')", "bytes.fromhex('abx')",
          "bytes.fromhex(' 01 02 ')", "bytes.fromhex('01\\t02')", "bytes.fromhex('0 1')", "bytes.fromhex('é')",
          "bytes.fromhex()", "bytearray.fromhex('4142')", "bytes.fromhex('zz é')", "bytes.fromhex('0\\x1c1')",
          "bytes.fromhex('ab cd\\x0b ef\\x0c')", "bytes.fromhex('\\u00a0ab')", "bytes.fromhex('ab\\n')",
          "bytes.fromhex('abc ')", "bytes.fromhex('AbCdEf')", "bytes.fromhex('')", "bytes.fromhex('   ')",
          "bytes.fromhex('41', '42')", "bytes.fromhex(string='41')", "bytes.fromhex(5)", "bytearray.fromhex('0g')",
          "b'x'.fromhex('41')", "bytearray(b'z').fromhex('41')", "bytes.fromhex('12 34é')"]:
    E(s)

# ---- translate_maketrans
t = bytes.maketrans(b'abc', b'xyz')
for s in ["t[97:100]", "len(t)", "type(t)", "bytes.maketrans(b'', b'') == bytes(range(256))",
          "bytes.maketrans('a', 'b')", "bytes.maketrans(b'a', b'bc')", "bytes.maketrans(b'a')", "bytes.maketrans(b'a', b'b', b'c')",
          "bytes.maketrans(bytearray(b'ab'), b'cd')[97:100]", "bytearray.maketrans(b'a', b'b')[97:99]",
          "type(bytearray.maketrans(b'a', b'b'))", "b'x'.maketrans(b'x', b'y')[120]", "bytes.maketrans(frm=b'a', to=b'b')",
          "b'abcabc'.translate(t)", "b'abc'.translate(None, b'ab')", "b'abc'.translate(bytes(range(256))[::-1])",
          "bytearray(b'abc').translate(None)", "b'abc'.translate(None, 'a')", "b'abc'.translate(None, None)",
          "b'abc'.translate(b'x')", "b'abc'.translate(None, delete=b'a')", "b'abc'.translate(table=None)",
          "b'abc'.translate('x'*256)", "b'abc'.translate(5)", "b'abc'.translate(b'x', 'a')", "b'abc'.translate('x', 'a')",
          "b'abc'.translate()", "b'abc'.translate(None, b'a', b'b')", "b'abc'.translate(None, x=1)", "b'abc'.translate(x=1)",
          "b'abc'.translate(t, b'c')", "bytearray(b'abc').translate(t, bytearray(b'a'))", "b'abc'.translate(bytearray(t))"]:
    E(s)

# ---- predicates_all_bytes
for name in ['isalnum', 'isalpha', 'isdigit', 'isspace', 'islower', 'isupper', 'istitle', 'isascii']:
    print(name, [c for c in range(256) if getattr(bytes([c]), name)()])
for s in ["b''.isalnum()", "b''.isalpha()", "b''.isdigit()", "b''.isspace()", "b''.islower()", "b''.isupper()",
          "b''.istitle()", "b''.isascii()", "b'abc1'.isalnum()", "b'ab c'.isalpha()", "b'123'.isdigit()", "b'1.5'.isdigit()",
          "b' \\t\\n'.isspace()", "b'abc1!'.islower()", "b'ABC1!'.isupper()", "b'123'.islower()", "b'Hello World'.istitle()",
          "b'Hello world'.istitle()", "b'A'.istitle()", "b'1'.istitle()", "b'A1B'.istitle()", "b'Ab1Cd'.istitle()",
          "b'AB'.istitle()", "b'aB'.istitle()", "b'\\x80'.isascii()", "b'\\x7f'.isascii()", "b'a'.isalnum(1)",
          "b'a'.isupper(x=1)", "bytearray(b'Ab').istitle()", "bytearray(b'x').isalpha()"]:
    E(s)

# ---- case_conversions
allb = bytes(range(256))
for name in ['upper', 'lower', 'swapcase', 'title', 'capitalize']:
    r = getattr(allb, name)()
    print(name, r == allb, [i for i in range(256) if r[i] != i][:5], len(r))
for s in ["b'hello world'.title()", "b'hELLO wORLD1a'.title()", "b\"they're bill's\".title()", "b'aBC'.capitalize()",
          "b'\\xe9a'.upper()", "b'ab12cD'.swapcase()", "b''.title()", "b'a'.capitalize()", "b'1a'.capitalize()",
          "b'MiXeD'.lower()", "b'MiXeD'.upper()", "bytearray(b'ab').upper()", "type(bytearray(b'ab').title())",
          "b'a'.upper(1)", "b'a'.lower(x=1)", "b'x_y-z'.title()"]:
    E(s)

# ---- decode
for s in ["b'abc'.decode()", "b'\\xc3\\xa9'.decode()", "b'\\xc3\\xa9'.decode('latin-1')", "b'\\xff'.decode()",
          "b'\\xff'.decode('utf-8', 'replace')", "b'\\xff'.decode('ascii', 'ignore')", "b'\\xffa'.decode('ascii', 'backslashreplace')",
          "b'abc'.decode('nope')", "b'abc'.decode(1)", "b'abc'.decode(errors=1)", "b'abc'.decode(encoding='ascii')",
          "b'abc'.decode('utf-8', errors='strict')", "b'abc'.decode('ascii', 'strict', 1)", "b'abc'.decode(x=1)",
          "b'abc'.decode(encoding=None)", "bytearray(b'\\xc3\\xa9').decode()", "b'a\\x80b'.decode('ascii')",
          "b'\\xe2\\x82'.decode('utf-8')", "b'\\xe2\\x82\\xac'.decode('utf-8')", "b'\\x00a'.decode('utf-16-le')",
          "b'abc'.decode('UTF8')", "b'abc'.decode('utf_8')"]:
    E(s)
try:
    b'a\xffb'.decode('utf-8')
except UnicodeDecodeError as e:
    print(e.encoding, e.object, e.start, e.end, e.reason)

# ---- arg_errors_methods
b = b'ab'
ba = bytearray(b'ab')
for s in ["b.upper(1)", "b.upper(x=1)", "b.count()", "b.count(b'a', 1, 2, 3)", "b.count(b'a', start=1)", "b.center()",
          "b.center(1, b'x', 3)", "b.center(1, fillchar=b'x')", "b.join()", "b.join([], [])", "b.join(x=[])",
          "b.decode('utf-8', 'strict', 'x')", "b.decode(zz=1)", "b.expandtabs(1, zz=1)", "b.split(1, 2, 3)",
          "b.translate(zz=1)", "b.translate(None, zz=1)", "b.maketrans()", "bytes.maketrans(b'a')", "b.zfill()",
          "b.partition()", "b.removeprefix()", "b.strip(b'a', b'b')", "b.replace()", "b.hex(1, 2, 3)",
          "b.splitlines(True, True)", "b.isalnum(1)", "ba.append()", "ba.append(1, 2)", "ba.append(x=1)",
          "ba.insert(0)", "ba.insert(0, 1, 2)", "ba.insert(index=0, item=1)", "ba.pop(1, 2)", "ba.pop(index=0)",
          "ba.remove()", "ba.clear(1)", "ba.copy(1)", "ba.reverse(1)", "ba.extend()", "ba.extend([], [])",
          "ba.__alloc__(1)", "b.__sizeof__(1)", "b.__getnewargs__(1)", "b.__bytes__(1)", "ba.__add__()",
          "ba.__add__(b'a', b'b')", "ba.__mul__()", "ba.__setitem__(0)", "ba.__iadd__(x=1)", "ba.__len__(1)",
          "b.__contains__()", "b.__eq__(b'a', 1)", "b.__rmod__()", "b.__hash__(1)"]:
    E(s)

# ---- descriptor_errors
for s in ["bytes.upper('x')", "bytes.upper()", "bytearray.upper(b'x')", "bytes.upper(bytearray(b'x'))",
          "bytes.find(bytearray(b'ab'), b'b')", "bytearray.append(b'x', 1)", "bytearray.pop(bytearray(b'ab'))",
          "bytes.decode(b'abc')", "bytes.join(b',', [b'a', b'b'])", "bytearray.copy(b'x')", "bytes.__getnewargs__(bytearray(b'x'))",
          "bytes.hex(b'ab')", "bytearray.__alloc__(b'')", "bytearray.__sizeof__(b'')"]:
    E(s)

# ---- descriptor_errors_slots
# The core's Builtin call checks the receiver of an unbound method with its
# own messages, before the slot wrapper's.
for s in ["bytes.__len__(bytearray())", "bytes.__add__(bytearray(b'a'), b'b')", "bytearray.__iadd__(b'a', b'b')",
          "bytes.__len__()", "bytearray.__iadd__()", "bytes.__sizeof__()"]:
    E(s)

# ---- setitem_index
ba = bytearray(b'abcdef')
for s in ["ba[0] = 300", "ba[0] = 'a'", "ba[0] = -1", "ba[10] = 1", "ba['x'] = 1", "ba[0] = 2**70", "ba[0] = -2**70",
          "ba[2**70] = 1", "ba[-7] = 1", "ba[0] = 1.0", "ba[0] = b'a'", "ba[0] = None", "ba[-1] = 90", "ba[0] = True",
          "ba[1.5] = 1", "ba[None] = 1"]:
    ba = bytearray(b'abcdef')
    X(s)
    print(ba)

# ---- setitem_slice
for s in ["ba[1:3] = 5", "ba[1:3] = 'xy'", "ba[1:3] = [300]", "ba[1:3] = ['a']", "ba[::2] = b'xy'", "ba[::2] = b'xyz'",
          "ba[::-1] = b'123456'", "ba[1:3] = ba", "ba[2:1] = b'zz'", "ba[5:] = range(3)", "ba[1:2] = None",
          "ba[1:2] = 1.5", "ba[1:2] = {1: 2}", "ba[1:2] = ''", "ba[1:2] = True", "ba[1:2] = [True]", "ba[1:2] = [1.0]",
          "ba[::2] = b''", "ba[::-2] = []", "ba[:] = b''", "ba[:] = ba", "ba[10:20] = ba", "ba[0:0] = b'12'",
          "ba[-2:] = b'XYZ'", "ba[1:5:2] = bytearray(b'PQ')", "ba[5:1:-2] = [65, 66]", "ba[::3] = (x for x in b'MN')",
          "ba[1:3] = b''", "ba[0:4] = b'Z'", "ba[1:1] = []", "ba[::-1] = ba", "ba[100:] = b'end'", "ba[:-100] = b'start'",
          "ba[::2] = range(3)", "ba[::2] = [1, 2]", "ba[1:3:0] = b'x'", "ba['a':'b'] = b''", "ba[1:3] = (256,)",
          "ba[1:3] = [2**70]", "ba[1:4] = object()", "ba[0:1] = bytearray(b'')", "ba[::-3] = b'ab'"]:
    ba = bytearray(b'abcdef')
    X(s)
    print(ba, len(ba))

# ---- delitem
for s in ["del ba[10]", "del ba['x']", "del ba[::2]", "del ba[::-2]", "del ba[-1]", "del ba[2:4]", "del ba[0]",
          "del ba[:]", "del ba[4:2]", "del ba[2**70]", "del ba[1.0]", "del ba[::-1]", "del ba[1:5:3]", "del ba[-100:2]",
          "del ba[::0]", "del ba[5:0:-2]", "del ba[-6]", "del ba[-7]", "del ba[True]"]:
    ba = bytearray(b'abcdef')
    X(s)
    print(ba)

# ---- bytearray_methods
for s in ["r = ba.pop()", "r = ba.pop(0)", "r = ba.pop(10)", "r = bytearray().pop()", "r = ba.pop('x')", "r = ba.pop(-6)",
          "r = ba.pop(-7)", "r = ba.pop(2**70)", "r = bytearray().pop('x')",
          "r = ba.remove(99)", "r = ba.remove(300)", "r = ba.remove(1000)", "r = ba.remove('c')", "r = ba.remove(b'c')",
          "r = ba.remove(122)", "r = ba.remove(2**70)",
          "r = ba.insert(100, 65)", "r = ba.insert(-100, 65)", "r = ba.insert(0, 256)", "r = ba.insert(-1, 90)",
          "r = ba.insert(2**70, 1)", "r = ba.insert(0, 2**70)", "r = ba.insert('x', 1)", "r = ba.insert(0, 'x')",
          "r = ba.clear()", "r = ba.copy()", "r = ba.reverse()", "r = ba.append(256)", "r = ba.append('a')",
          "r = ba.append(True)", "r = ba.append(2**70)", "r = ba.extend([1, 2])", "r = ba.extend('ab')",
          "r = ba.extend('')", "r = ba.extend(5)", "r = ba.extend(None)", "r = ba.extend([256])", "r = ba.extend([1, 'a'])",
          "r = ba.extend(b'xyz')", "r = ba.extend(bytearray(b'q'))", "r = ba.extend(ba)", "r = ba.extend(range(3))",
          "r = ba.extend({1: 2})", "r = ba.extend(x for x in b'gen')", "r = ba.extend(iter([1, 2]))", "r = ba.extend(1.5)"]:
    ba = bytearray(b'abcdef')
    r = None
    X(s)
    print(ba, r)

# ---- operators
class R:
    def __radd__(self, other): return ('radd', other)
    def __rmul__(self, other): return ('rmul', other)
class RN:
    def __radd__(self, other): return NotImplemented
ba = bytearray(b'abc')
b = b'abc'
for s in ["ba + b'x'", "b'x' + ba", "type(b'x' + ba)", "ba + bytearray(b'1')", "b + b", "b + ba", "ba + 'x'", "b + 'x'",
          "ba * 'x'", "b * 'x'", "ba * 2.0", "'x' + ba", "[1] + ba", "ba + [1]", "ba - ba", "b - b", "ba * 2", "2 * ba",
          "ba * 0", "ba * -1", "b * 3", "3 * b", "ba * 2**70", "ba * -2**70", "b * 2**70", "ba + R()", "ba * R()", "b + R()",
          "ba + RN()", "ba == b'abc'", "ba == bytearray(b'abc')", "b == ba", "ba != b'abd'", "ba < b'abd'", "b <= ba",
          "ba > b'ab'", "ba >= b'abc'", "ba == 'abc'", "b == 'abc'", "ba < 'abc'", "b < 'abc'", "b < bytearray(b'b')",
          "b'a' in ba", "b'bc' in ba", "98 in ba", "300 in ba", "'a' in ba", "None in ba", "2**70 in ba",
          "bytearray(b'bc') in b", "b'' in b", "b'' in ba", "-1 in ba", "True in bytearray(b'\\x01')",
          "ba.__contains__(300)", "b.__contains__(300)", "b.__contains__(98)", "b.__contains__('a')",
          "hash(b) == hash(b'abc')", "hash(b'')", "hash(b'abc')", "hash(ba)", "bytearray.__hash__", "bytes.__hash__(b) == hash(b)",
          "{b: 1}[b'abc']", "{ba: 1}", "b'x' * True", "not bytearray()", "not b'x'", "bool(bytearray(b'\\x00'))"]:
    E(s)
for s in ["ba += b'x'", "ba += 'x'", "ba += [1]", "ba += bytearray(b'y')", "ba *= 3", "ba *= -1", "ba *= 'x'",
          "ba *= 2**70", "ba *= -2**70", "ba += ba", "ba += R()", "ba *= R()", "ba -= b'a'", "ba %= ()",
          "ba @= b'x'", "ba |= b'x'"]:
    ba = bytearray(b'abc')
    X(s)
    print(ba)

# ---- dunder_methods
b = b'abcabc'
ba = bytearray(b)
for s in ["b.__mul__('x')", "b.__add__('x')", "ba.__add__('x')", "ba.__iadd__('x')", "ba.__imul__('x')", "b.__rmul__(2)",
          "ba.__rmul__(2)", "b.__mul__(2**70)", "b.__mod__(1)", "b.__rmod__(1)", "b.__getnewargs__()", "b.__bytes__()",
          "b.__sizeof__()", "ba.__sizeof__()", "bytearray().__sizeof__()", "b''.__sizeof__()", "ba.__reduce__()",
          "ba.__reduce_ex__(2)", "ba.__reduce_ex__(4)", "bytearray().__reduce__()", "bytearray().__reduce_ex__(4)",
          "bytearray(b'\\xff').__reduce__()", "bytearray.__hash__", "b.__len__()", "b.__getitem__(1)", "ba.__getitem__(slice(1, 3))",
          "b.__iter__().__next__()", "b.__repr__()", "ba.__str__()", "b.__eq__(b'abcabc')", "b.__eq__('x')", "ba.__lt__(b'b')",
          "ba.__setitem__(0, 65)", "ba", "ba.__delitem__(0)", "ba", "ba.__iadd__(b'!')", "ba.__imul__(2)", "ba.__alloc__()",
          "b.__contains__(b'ca')", "ba.__contains__(b'zz')", "b.__hash__() == hash(b)", "ba.__mod__(())",
          "bytearray(b'%s').__mod__(b'x')", "bytearray(b'x').__rmod__(b'%s')", "b'x'.__rmod__(b'%s')",
          "b'x'.__rmod__(bytearray(b'%s'))", "bytearray(b'x').__rmod__(bytearray(b'%s'))", "bytearray(b'x').__imul__(3)",
          "bytearray(b'x').__iadd__(b'y')", "sorted(n for n in dir(bytes) if not n.startswith('_'))",
          "sorted(n for n in dir(bytearray) if not n.startswith('_'))",
          "[n for n in ['__getnewargs__', '__bytes__', '__alloc__', '__iadd__', '__imul__', '__setitem__', '__delitem__', '__mod__', '__rmod__', '__rmul__', '__sizeof__', '__hash__', '__init__', '__buffer__'] if hasattr(bytes, n)]",
          "[n for n in ['__getnewargs__', '__bytes__', '__alloc__', '__iadd__', '__imul__', '__setitem__', '__delitem__', '__mod__', '__rmod__', '__rmul__', '__sizeof__', '__hash__', '__init__', '__buffer__'] if hasattr(bytearray, n)]"]:
    E(s)

# ---- alloc_growth
def A(ba): return (len(ba), ba.__alloc__())
ba = bytearray()
out = []
for i in range(40):
    ba.append(1)
    out.append(A(ba))
print(out)
ba = bytearray(b'x' * 10)
out = []
for i in range(10):
    ba.pop()
    out.append(A(ba))
print('pop', out)
ba = bytearray(b'x' * 20); del ba[:3]; print('delfront', A(ba))
del ba[:8]; print('delfront2', A(ba))
ba = bytearray(b'x' * 20); del ba[15:]; print('delback', A(ba))
ba = bytearray(b'x' * 20); del ba[5:]; print('delback2', A(ba))
ba = bytearray(b'x' * 20); ba.clear(); print('clear', A(ba))
ba = bytearray(b'x' * 5); ba.extend(b'y' * 3); print('ext', A(ba))
ba = bytearray(b'x' * 5); ba.extend(b'y' * 30); print('ext2', A(ba))
ba = bytearray(b'x' * 5); ba += b'y' * 3; print('iadd', A(ba))
ba = bytearray(b'x' * 5); ba *= 3; print('imul', A(ba))
ba = bytearray(b'x' * 5); ba.extend([1, 2, 3]); print('extl', A(ba))
ba = bytearray(b'x' * 5); ba.extend(range(30)); print('extl2', A(ba))
ba = bytearray(b'x' * 5); ba.insert(0, 1); print('ins', A(ba))
ba = bytearray(b'x' * 5); ba[1:2] = b'abc'; print('setsl', A(ba))
ba = bytearray(b'x' * 5); ba[1:4] = b''; print('setsl2', A(ba))
print('n', A(bytearray(5)), 'list', A(bytearray([1, 2, 3])), 'range', A(bytearray(range(30))),
      'gen', A(bytearray(x for x in range(30))), 'str', A(bytearray('abc', 'ascii')))
print([A(x) for x in [bytearray(b'ab') + b'c', bytearray(b'ab') * 3, bytearray(b'ab').copy(), bytearray(b'ab').upper()]])
print([A(x) for x in [bytearray(b'abc').split(b'b')[0], bytearray(b'a b').split()[0], bytearray(b'abc').strip(),
                      bytearray(b'abc').replace(b'a', b'x'), bytearray.fromhex('414243'), bytearray(b',').join([b'a', b'b'])]])
print([A(x) for x in [bytearray(b'abc').center(10), bytearray(b'abc').zfill(10), bytearray(b'abc').expandtabs(),
                      bytearray(b'abc').translate(None), bytearray(b'abc').partition(b'b')[0],
                      bytearray(b'abc').partition(b'x')[0], bytearray(b'abc').partition(b'x')[1]]])
print([A(x) for x in [bytearray(b'ab\ncd').splitlines()[0], bytearray(b'abc').removeprefix(b'a'),
                      bytearray(b'abc').removeprefix(b'x'), bytearray(b'abc')[::2], bytearray(b'%d') % 5]])
ba = bytearray(b'abc'); ba.reverse(); print(A(ba)); ba.remove(97); print(A(ba))
ba = bytearray(b'abcdefgh'); ba[::2] = b'1234'; print(A(ba)); del ba[::2]; print(A(ba))
ba = bytearray(b'abcdefgh'); ba[0:0] = b'12'; print('front ins', A(ba))
ba = bytearray(b'abcdefgh' * 4); del ba[0:2]; print(A(ba)); ba[0:0] = b'1'; print('refill', A(ba))
ba = bytearray(b'abcdefgh' * 4); ba.pop(0); print('pop0', A(ba))
ba = bytearray(b'abcdefgh' * 4); del ba[0]; print('del0', A(ba))
ba = bytearray(b'abcdefgh' * 4); del ba[3]; print('del3', A(ba))
ba = bytearray(b'abcdefgh' * 4); ba.__init__(b'xy'); print('init', A(ba))
print(bytearray(b'abcd').__sizeof__(), bytearray().__sizeof__(), b''.__sizeof__(), b'abc'.__sizeof__())

# ---- alloc_offsets
def A(ba): return (len(ba), ba.__alloc__())
ba = bytearray(); ba.clear(); print('clear0', A(ba))
print('empty', A(bytearray([])), A(bytearray(())), A(bytearray(range(0))), A(bytearray(0)), A(bytearray('', 'ascii')))
ba = bytearray(b'abcdefgh'); ba *= 1; print('imul1', A(ba)); ba *= 0; print('imul0', A(ba)); ba *= 5; print(A(ba))
ba = bytearray(b'ab'); ba[0:2] = b'xy'; print('same', A(ba))
ba = bytearray(b'abcdefgh'); ba.extend([]); print('ext0', A(ba)); ba.extend(b''); print(A(ba))
ba = bytearray(); ba.extend([]); print('ext00', A(ba)); ba.extend(b''); print(A(ba)); ba += b''; print(A(ba))
ba = bytearray(b'abc'); ba.__init__(); print('init0', A(ba))
ba = bytearray(b'abc'); ba.__init__([1, 2]); print('initl', A(ba))
ba = bytearray(b'abc'); ba.__init__(range(10)); print('initr', A(ba))
ba = bytearray(b'abc'); ba.__init__(5); print('initn', A(ba))
ba = bytearray(b'abc'); ba.__init__('xy', 'ascii'); print('inits', A(ba))
ba = bytearray(b'x' * 100); del ba[:60]; print(A(ba)); ba.append(1); print(A(ba))
ba = bytearray(b'x' * 100); del ba[:40]; print(A(ba)); ba.extend(b'y' * 39); print(A(ba)); ba.append(1); print(A(ba)); ba.append(1); print(A(ba))
ba = bytearray(b'x' * 100); ba[0:40] = b'ab'; print('repl front', A(ba)); ba[0:0] = b'z' * 37; print(A(ba)); ba[0:0] = b'q'; print(A(ba))
ba = bytearray(b'x' * 100); del ba[0]; print('del0', A(ba)); ba.extend(b'y'); print(A(ba)); ba.extend(b'y'); print(A(ba))
ba = bytearray(b'x' * 100); ba.pop(0); print('pop0', A(ba)); ba.extend(b'y'); print(A(ba)); ba.extend(b'y'); print(A(ba))
ba = bytearray(b'x' * 100); ba.remove(120); print('rem', A(ba)); ba.extend(b'y'); print(A(ba)); ba.extend(b'y'); print(A(ba))
ba = bytearray(b'x' * 100); del ba[0:10:2]; print('delext', A(ba)); ba.extend(b'y' * 5); print(A(ba)); ba.extend(b'y'); print(A(ba))
ba = bytearray(b'x' * 100); ba[0:10:1] = b''; print('setempty', A(ba)); ba.extend(b'y' * 10); print(A(ba)); ba.extend(b'y'); print(A(ba))
ba = bytearray(b'x' * 100); ba.insert(0, 1); print('ins0', A(ba))
ba = bytearray(b'x' * 100); del ba[:]; print('delall', A(ba))
ba = bytearray(b'x' * 100); ba[:] = b''; print('setall', A(ba))
ba = bytearray(b'x' * 100); ba[:] = ba; print('self', A(ba)); ba[10:20] = ba; print(A(ba))
ba = bytearray(b'x' * 10); ba[0:0] = ba; print(A(ba)); ba *= 2; print(A(ba))
ba = bytearray(b'x' * 10); ba.extend(ba); print('extself', A(ba))
ba = bytearray(b'x' * 10); ba.extend(iter([1, 2, 3])); print('extiter', A(ba))
ba = bytearray(b'x' * 10); ba.extend(x for x in range(50)); print('extgen', A(ba))
ba = bytearray(b'x' * 10); ba[2:3] = [1, 2, 3, 4]; print('setlist', A(ba))
ba = bytearray(b'x' * 10); ba[2:3] = (x for x in range(50)); print('setgen', A(ba))
print(bytearray(b'ab').__sizeof__(), A(bytearray(b'ab')[0:0]), A(bytearray(b'abc').strip(b'abc')), A(bytearray(b'abc') * 0),
      A(bytearray(b'') + b''), A(bytearray(b'a').copy()), A(bytearray().copy()))
class B(bytes): pass
class C(bytearray): pass
print(B(b'ab').__sizeof__(), C(b'ab').__sizeof__(), C(b'ab').__alloc__())
buf = bytearray(b'0123456789' * 10)
seen = []
while buf:
    seen.append(A(buf))
    del buf[:7]
print(seen)

# ---- consume_buffer
# The idiom of consuming a buffer from the front.
data = bytearray()
for i in range(50):
    data += str(i).encode() + b';'
out = []
while True:
    i = data.find(b';')
    if i < 0:
        break
    out.append(int(bytes(data[:i])))
    del data[:i + 1]
print(sum(out), len(out), data, data.__alloc__())

# ---- int_float_of_bytes
print(int(b'12'), int(b' -7 '), float(b'1.5'), int(b'ff', 16))
print(int(bytearray(b'12')), float(bytearray(b'2.5')), int(bytearray(b'11'), 2))

# ---- iteration_and_slicing
b = b'hello'
ba = bytearray(b)
print(list(b), list(ba), b[1], ba[-1], b[1:3], ba[::-1], b[::2], ba[10:], b[-100:2])
print([x for x in bytearray(b'\x00\xff')], sum(b), max(ba), sorted(ba), list(reversed(b)))
print(len(b), len(ba), ba.count(108), list(enumerate(b'ab')))
print(dict(zip(b'ab', b'cd')), set(b'aab') == {97, 98}, tuple(bytearray(b'xy')))

# ---- repr_str
for s in ["repr(b'')", "repr(b\"'\")", "repr(b'\"')", "repr(b'\\'\"')", "repr(b'\\x00\\x7f\\x80\\xff\\t\\n\\r\\\\')",
          "str(b'ab')", "str(bytearray(b'ab'))", "ascii(b'\\xe9')", "f'{b\"x\"}'",
          "format(b'ab')", "format(b'ab', '')", "format(b'ab', '10')", "'%s' % b'ab'", "'%r' % bytearray(b'x')",
          "str(b'ab', 'ascii')", "str(bytearray(b'\\xc3\\xa9'), 'utf-8')", "str(b'\\xff', 'utf-8', 'replace')"]:
    E(s)

# ---- repr_bytearray_core
# The repr of a bytearray escapes every single quote, and names a subclass.
class BA(bytearray): pass
for s in ['''bytearray(b"a'b")''', '''bytearray(b"'")''', '''bytearray(b'\\'"')''', "BA(b'x')", "repr(BA(b'x'))"]:
    E(s)

# ---- subclass_item_assignment_core
# Item assignment and deletion on an instance of a bytearray subclass.
class BA(bytearray): pass
ba = BA(b'abc')
X("ba[0] = 65")
X("del ba[0]")
X("ba[0:1] = b'xy'")
E("bytes(ba)")

# ---- bytes_index_core
# The messages of bytes indexing, and `in` with an int out of range.
for s in ["b'ab'[5]", "b'ab'[-3]", "b'ab'['x']", "b'ab'[None]", "b'ab'[2**70]", "300 in b'ab'", "-1 in b'ab'",
          "2**70 in b'ab'", "1.0 in b'ab'"]:
    E(s)

# ---- bytearray_iterator_core
# A bytearray iterator sees later changes (and is a bytearray_iterator).
x = bytearray(b'ab')
it = iter(x)
x.append(99)
print(list(it), type(iter(x)).__name__, type(iter(b'x')).__name__)
x = bytearray(b'abc')
out = []
for c in x:
    out.append(c)
    if len(x) < 6:
        x.append(c + 1)
print(out, x)

# ---- percent_bytearray
class BB:
    def __bytes__(self): return b'BB'
class BS:
    def __bytes__(self): return 'no'
class I:
    def __index__(self): return 66
class F:
    def __float__(self): return 2.5
class N:
    def __int__(self): return 7
for s in ["bytearray(b'%d') % 3", "bytearray(b'%5d|%-5d|%05d|%+d|% d') % (1, 2, 3, 4, 5)",
          "bytearray(b'%x %X %o %#x %#o') % (255, 255, 8, 255, 8)", "bytearray(b'%s') % b'x'", "bytearray(b'%s') % 'x'",
          "bytearray(b'%b') % bytearray(b'y')", "bytearray(b'%s') % BB()", "bytearray(b'%s') % BS()", "bytearray(b'%s') % 3",
          "bytes(bytearray(b'%r') % 'é')", "bytes(bytearray(b'%a') % 'é')", "bytearray(b'%c') % 65", "bytearray(b'%c') % b'A'",
          "bytearray(b'%c') % 256", "bytearray(b'%c') % b'AB'", "bytearray(b'%c') % 1.5", "bytearray(b'%c') % I()",
          "bytearray(b'%d') % I()", "bytearray(b'%f') % F()", "bytearray(b'%f') % I()", "bytearray(b'%d') % N()",
          "bytearray(b'%x') % N()", "bytearray(b'%f') % N()", "bytearray(b'%(a)s') % {b'a': b'z'}", "bytearray(b'%q') % 1",
          "bytearray(b'%\\xff') % 1", "bytearray(b'abc') % ()", "bytearray(b'abc') % 5", "bytearray(b'%.2s|%5s') % (b'xyz', b'ab')",
          "bytearray(b'%*d') % (4, 1)", "bytearray(b'%.*f') % (1, 2.25)", "bytearray(b'%%') % ()", "bytearray(b'%5%') % (1,)",
          "bytearray(b'%s') % (bytearray(b'q'),)", "type(bytearray(b'%d') % 1)", "bytearray(b'%d') % 'x'",
          "bytearray(b'%x') % 1.5", "bytearray(b'%f') % 'x'", "bytearray(b'%') % ()", "bytearray(b'%d') % ()"]:
    E(s)
ba = bytearray(b'%d-%s')
X("ba %= (1, b'x')")
E("ba")

# ---- pct_bytes_basic
class BB:
    def __bytes__(self): return b'BB'
class BS:
    def __bytes__(self): return 'no'
for s in ["b'%d' % 3", "b'%5d|%-5d|%05d|%+d|% d' % (1, 2, 3, 4, 5)", "b'%x %X %o %#x %#o' % (255, 255, 8, 255, 8)",
          "b'%s' % b'x'", "b'%s' % 'x'", "b'%b' % bytearray(b'y')", "b'%s' % BB()", "b'%s' % BS()", "b'%s' % 3",
          "b'%r' % 'é'", "b'%a' % 'é'", "b'%r' % b'x'", "b'%c' % 65", "b'%c' % b'A'", "b'%c' % bytearray(b'A')",
          "b'%c' % 256", "b'%c' % -1", "b'%c' % b'AB'", "b'%c' % 'A'", "b'%c' % 1.5", "b'%c' % 2**70",
          "b'%5s|%-5s|%.1s|%5.1s' % (b'ab', b'ab', b'ab', b'ab')", "b'%05s' % b'ab'", "b'%.2s' % b'\\xc3\\xa9x'",
          "b'%5s' % b'\\xc3\\xa9'", "b'%5r' % 'é'", "b'%(a)s %(b)d' % {b'a': b'x', b'b': 2}", "b'%(a)s' % {'a': b'x'}",
          "b'%(a)s' % (1,)", "b'%(a' % {b'a': 1}", "b'%' % ()", "b'%d' % ()", "b'%d %d' % (1,)", "b'%d' % (1, 2)",
          "b'abc' % ()", "b'abc' % 5", "b'abc' % []", "b'abc' % bytearray(b'x')", "b'abc' % b'x'", "b'abc' % {}",
          "b'abc' % 'x'", "b'%q' % 1", "b'%\\xff' % 1", "b'%*d' % (5, 1)", "b'%*d' % ('x', 1)", "b'%.*f' % (2, 1.5)",
          "b'%-*d|' % (-5, 1)", "b'%5%' % ()", "b'%%' % ()", "b'%f %e %g %E %G %F' % (1.5, 1.5, 1.5, 1.5, 1.5, float('inf'))",
          "b'%d' % 'x'", "b'%x' % 1.5", "b'%f' % 'x'", "b'%d' % 1.7", "b'%i %u' % (3, 4)", "b'%s %s' % (b'a', [1])",
          "b'%a' % [1, 'é']", "b'%(a)s %s' % {b'a': 1}", "b'%s' % {b'a': 1}", "b'%()s' % {b'': b'e'}", "b'%(a)*d' % {b'a': 1}",
          "b'%ld %hd %Ld' % (1, 2, 3)", "b'%s' % None", "b'%10.3f' % 3.14159", "b'%#.3g' % 1.0", "b'%c%c' % (1, b'\\xff')",
          "b'%.0s' % b'x'", "b'%(a)s' % [1]", "b'%s' % [1]", "b'%d' % True", "b'%5c|' % 65", "b'%-5c|' % b'x'",
          "b'%.3c' % 65", "b'%0*d' % (5, 3)", "b'%.*d' % (3, 3)", "b'%*.*d' % (6, 3, 3)", "b'%.*s' % (2**40, b'x')",
          "b'%*s' % (2**70, b'x')", "b'%.*s' % (-3, b'abc')", "b'%d %s' % (1, 'x')", "b'%5%' % (1,)", "b'%\\x01' % 1",
          "b'%\\n' % 1", "b'%d' % 2**80", "b'%x' % -255", "b'%#X' % 255", "b'%+.2e' % 12345.678", "b'%g' % 1e20",
          "b'%r' % 1.5", "b'%a' % 'x\\n'", "b'%s' % (b'a' * 3,)", "b'%(x)s' % {b'x': bytearray(b'q')}",
          "b'%d' % float('nan')", "b'%d' % float('inf')", "b'%f' % float('nan')", "b'%.3f' % -0.0", "b'%e' % 2**80",
          "b'%o' % -8", "b'%#o' % 0", "b'%x' % True", "b'%-#8x|' % 255", "b'%+05d' % -3", "b'% 05d' % 3"]:
    E(s)

# ---- refused_decode_surrogateescape
print(b'a'.decode('utf-8', 'surrogateescape'))
b'\xff\xfe'.decode('utf-8', 'surrogateescape')

# ---- refused_buffer
print(b'x' * 2)
b'x'.__buffer__(0)
