# Corpus of the re module's tests: cells run in CPython 3.12 by gen_cases.py
# and in code mode's interpreter by re_test.go. The _prelude cell is put
# before every other cell. C(s) is s in CPython and a context over s in Go.
# ---- _prelude
import re
def T(*exprs):
    for e in exprs:
        try:
            r = eval(e, globals())
        except Exception as x:
            k = type(x)
            n = k.__name__ if k.__module__ == "builtins" else k.__module__ + "." + k.__name__
            print(e, "!!", n, x)
        else:
            print(e, "->", repr(r))
# ---- search_basic
T("re.search(r'\\d+', 'abc 123 def')", "re.search(r'\\d+', 'abc def')", "re.search('', '')", "re.search('a', '')",
  "re.search(r'(\\w+)@(\\w+)\\.com', 'mail bob@site.com now').groups()", "re.search('x*', 'aaa')")
# ---- match_fullmatch
T("re.match('ab', 'abc')", "re.match('bc', 'abc')", "re.fullmatch('abc', 'abc')", "re.fullmatch('ab', 'abc')",
  "re.fullmatch('a|ab', 'ab')", "re.match('a|ab', 'ab')", "re.fullmatch('a*?', 'aaa')", "re.match('', 'x')")
# ---- nonascii_positions
s = "héllo wörld 東京 ok"
T("re.search('w.rld', s)", "re.search('東京', s).span()", "re.search('ok', s).start()", "[m.span() for m in re.finditer(r'\\w+', s)]",
  "re.search('(ö)(r)', s).regs", "re.match('h(é)', s).end(1)", "re.split(' ', s)", "re.sub('ö', 'oe', s)")
# ---- astral_chars
s = "a😀b😀😀c"
T("re.findall('😀+', s)", "[m.span() for m in re.finditer('😀+', s)]", "re.search('c', s).start()", "re.sub('😀', '', s)", "len(s)", "re.split('😀', s)", "re.search('.', '😀')", "re.match('..', '😀x').span()")
# ---- findall_shapes
T("re.findall(r'\\d', 'a1b2')", "re.findall(r'(\\d)', 'a1b2')", "re.findall(r'(\\w)(\\d)', 'a1b2')", "re.findall(r'(a)|(b)', 'ab')",
  "re.findall(r'(a)(x)?', 'aa')", "re.findall(r'(?:a)(b)?', 'ab a')", "re.findall('', 'abc')", "re.findall('a*', 'baaac')", "re.findall(r'\\b', 'ab cd')")
# ---- finditer_details
it = re.finditer(r'(\w)(\d)?', 'a1 b c3')
print(type(it).__name__)
for m in it:
    print(m.group(), m.groups(), m.span(), m.span(2), m.lastindex, m.pos, m.endpos)
print(next(it, 'done'))
# ---- finditer_empty_matches
print([m.span() for m in re.finditer(r'x*', 'axxbx')])
print([m.span() for m in re.finditer(r'\b|x', 'x a')])
print([m.span() for m in re.finditer(r'(?=a)|a', 'aa')])
print([m.span() for m in re.finditer(r'a|(?=a)', 'aa')])
# ---- pattern_pos_endpos
p = re.compile(r'\w+')
T("p.search('ab cd ef', 3)", "p.search('ab cd ef', 3, 4)", "p.search('ab cd ef', -5)", "p.search('ab cd ef', 100)", "p.search('ab cd ef', 0, -1)",
  "p.search('ab cd ef', 0, 100)", "p.match('ab cd', 3)", "p.match('ab cd', 2)", "p.fullmatch('ab cd', 3)", "p.fullmatch('ab cd', 3, 4)",
  "p.findall('ab cd ef', 1, 7)", "[m.span() for m in p.finditer('ab cd ef', 4)]", "p.search('ab', 2, 1)", "re.compile('').match('axb', 2, 1)",
  "re.compile('').fullmatch('axb', 2, 1)", "re.compile('').findall('abc', 2, 1)", "p.search(string='xx yy', pos=1, endpos=4)", "p.search('ab', True)")
# ---- pattern_pos_anchors
T("re.compile('^b').search('ab', 1)", "re.compile(r'\\Ab').search('ab', 1)", "re.compile('(?m)^b').search('a\\nb', 2)", "re.compile('(?<=a)b').search('ab', 1)",
  "re.compile(r'\\bb').search('ab', 1)", "re.compile('a$').search('ab', 0, 1)", "re.compile(r'a\\Z').search('ab', 0, 1)", "re.compile('b').match('ab', 1).pos")
# ---- pattern_pos_nonascii
p = re.compile('ö+')
s = 'äöö üöx'
T("p.search(s, 2)", "p.search(s, 5).span()", "p.findall(s, 0, 2)", "[m.span() for m in p.finditer(s, 1, 6)]", "p.match(s, 1).endpos", "re.compile('x').search(s, -2)")
# ---- match_object_api
m = re.search(r'(?P<first>\w+) (?P<last>\w+)(?P<x>!)?', 'Hi Jane Doe now')
T("m.group()", "m.group(0)", "m.group(1)", "m.group('last')", "m.group(1, 'last', 0)", "m.group(3)", "m.group('x')", "m['first']", "m[2]",
  "m.groups()", "m.groups('-')", "m.groups(default=0)", "m.groupdict()", "m.groupdict('?')", "m.start()", "m.end()", "m.span()",
  "m.start('last')", "m.end(2)", "m.span('x')", "m.start(3)", "m.pos", "m.endpos", "m.lastindex", "m.lastgroup", "m.re", "m.string", "m.regs", "bool(m)", "str(m)")
# ---- match_object_errors
m = re.match(r'(a)(?P<n>b)?', 'ab')
T("m.group(3)", "m.group(-1)", "m.group('zz')", "m.group(1.0)", "m.group([1])", "m.group(True)", "m.group(10**30)", "m.group(None)",
  "m.span(5)", "m.start('q')", "m.end(-1)", "m.groups(1, 2)", "m.groups(x=1)", "m.groupdict(1, 2)", "m.start(1, 2)", "m.start(group=1)",
  "m.group(group=1)", "m.expand()", "m.expand(1)", "m.__copy__() is m", "m.__deepcopy__({}) is m", "m.__copy__(1)", "m.__deepcopy__()", "m[3]", "m['nope']")
# ---- match_group_argument_errors
# CPython 3.12's match_getindex: __index__ first (big ints clamp, its
# errors propagate), then the groupindex dict when there are named groups.
class KI:
    def __index__(self): raise IndexError('from __index__')
class KO:
    def __index__(self): raise OverflowError('from __index__')
class KS:
    def __index__(self): return 'x'
class KV:
    def __index__(self): return 1
class H:
    def __hash__(self): raise KeyError('h')
class S(str): pass
for pat, subj in [(r'(?P<first>a)(b)?', 'ab'), (r'(a)(b)?', 'ab'), ('ab', 'ab'), (rb'(?P<first>a)(b)?', b'ab')]:
    m = re.match(pat, C(subj) if isinstance(subj, str) else subj)
    print('--', pat)
    for a in ["'x'", "3", "-1", "1.0", "None", "[1]", "{}", "10**30", "-10**30", "2**63", "b'first'", "'first'", "S('first')", "S('x')",
              "(1,)", "KI()", "KO()", "KS()", "KV()", "H()", "True"]:
        T(f"m.group({a})", f"m.group({a}, 1)", f"m.group(1, {a})", f"m.group(0, 1, {a}, 'x')", f"m.start({a})", f"m.end({a})", f"m.span({a})", f"m[{a}]")
    T("m.group('x', [1])", "m.group([1], 'x')", "m.group(1, 'x', KI())", "m.group(KI(), 'x')", "m.start(1, 'x')", "m.span('x', 1)",
      "m.end(1, 2, 3)", "m.__getitem__()", "m.__getitem__('x', 1)", "m.group(0, 1, 2, 3)", "m.group(0, 0, 0, 0, 0)")
# ---- match_group_several_uncaught
m = re.match(r'(?P<first>a)(b)?', C('ab'))
print(m.group(1, 'first', 0, 2))
m.group('x', 1)
# ---- match_lastindex_lastgroup
for pat, s in [(r'(a)(b)?', 'a'), (r'(a)|(b)', 'b'), (r'((a)(b))', 'ab'), (r'(?P<o>(?P<i>x))', 'x'), (r'(?P<n>a)(b)', 'ab'), ('x', 'x'), (r'(a)*', 'aa'), (r'(?:(a)|b)*', 'ab')]:
    m = re.match(pat, s)
    print(pat, m.lastindex, m.lastgroup, m.groups())
# ---- match_repr
T("re.search('b+', 'abbbc')", "re.match('x', 'y')", "re.match('a'*60, 'a'*60)", "re.match(b'a'*60, b'a'*60)", "re.match('.*', 'it\\'s')",
  "re.match('.*', 'say \"hi\" it\\'s')", "re.match('.*', 'é\\n\\t')", "re.match('.*', '')", "re.match('.+', '€'*55)", "re.match(b'.+', b'\\x00\\xff')")
# ---- match_identity_and_copy
import copy
m = re.match('a', 'a')
s = 'abc'
T("m == m", "m != m", "hash(m) == hash(m)", "copy.copy(m) is m", "copy.deepcopy(m) is m", "re.match('.*', s).group() is s", "re.match('b', 'b') == re.match('b', 'b')")
print({m: 1}[m])
# ---- match_ordering_error
T("re.match('a', 'a') < re.match('a', 'a')", "re.compile('a') <= re.compile('b')", "re.compile('a') > 1")
# ---- match_cannot_create
T("re.Match()", "re.Pattern()", "type(re.match('a','a')) is re.Match", "isinstance(re.compile('a'), re.Pattern)", "re.Match.__name__", "re.Pattern.__module__")
# ---- expand
m = re.match(r'(?P<a>\w)(\w)(x)?', 'ab')
T("m.expand(r'\\2\\1')", "m.expand(r'\\g<a>-\\g<2>-\\g<0>')", "m.expand(r'[\\3]')", "m.expand(r'\\n\\t\\\\')", "m.expand('plain')",
  "m.expand(r'\\9')", "m.expand(r'\\g<zz>')", "m.expand(r'\\q')", "m.expand(b'x')", "m.expand(b'\\\\2')", "m.expand(b'\\\\3z')", "m.expand(bytearray(b'\\\\1'))", "m.expand(template=r'\\1')")
# ---- sub_templates
T("re.sub(r'(\\d{4})-(\\d\\d)', r'\\2/\\1', '2024-05 and 1999-12')", "re.sub(r'(?P<y>\\d+)', r'<\\g<y>>', 'a1b22')", "re.sub('a', r'\\n', 'bab')",
  "re.sub('(a)', r'\\\\1', 'a')", "re.sub('a', '\\\\\\\\', 'xa')", "re.sub('(b)', r'\\g<1>\\g<0>', 'abc')", "re.sub('(a)', r'\\10', 'a')",
  "re.sub('(a)', r'\\01', 'a')", "re.sub('(a)', r'\\141', 'a')", "re.sub('a', r'\\0', 'a')", "re.sub('(a)(b)?', r'[\\2]', 'a')", "re.sub('x', r'\\x41', 'x')")
# ---- sub_template_errors
T("re.sub('(a)', r'\\2', 'a')", "re.sub('(a)', r'\\g<2>', 'a')", "re.sub('(a)', r'\\g<x>', 'a')", "re.sub('(a)', r'\\q', 'a')", "re.sub('x', '\\\\', 'x')",
  "re.sub('x', r'\\g', 'x')", "re.sub('x', r'\\g<0', 'x')", "re.sub('x', r'\\g<>', 'x')", "re.sub('x', r'\\g<1a>', 'x')", "re.sub('x', r'\\400', 'x')",
  "re.sub('(a)', r'\\q', 'zzz')", "re.sub('a', r'\\q', 1)")
# ---- sub_callable
T("re.sub(r'\\d+', lambda m: str(int(m.group()) * 2), 'a1 b22 c333')", "re.sub('a', lambda m: None, 'abca')", "re.sub('a', lambda m: m.group().upper(), 'banana', count=2)",
  "re.subn(r'\\w', lambda m: m.group() * 2, 'ab c')", "re.sub('a', lambda m: 1, 'abc')", "re.sub('a', lambda m: 5 if m.start() else None, 'aba')",
  "re.sub('a', lambda m: m, 'xab')", "re.sub('a', lambda m: b'x', 'abc')", "re.sub('(x)', lambda m: 'abc', 'x')", "re.sub('.', lambda m: str(m.pos) + str(m.endpos), 'ab')")
calls = []
def f(m):
    calls.append(m.span())
    return 3
try:
    re.sub('a', f, 'aXa')
except TypeError as e:
    print(e, calls)
def boom(m):
    raise ValueError('boom at %d' % m.start())
T("re.sub('b', boom, 'abc')")
# ---- sub_counts_and_empty
T("re.sub('a', 'x', 'aaaa', 2)", "re.sub('a', 'x', 'aaaa', count=0)", "re.sub('a', 'x', 'aaa', -1)", "re.subn('a', 'x', 'aaa', -1)", "re.sub('x*', '-', 'abc')",
  "re.sub('', '-', 'abc')", "re.subn('', '-', 'abc')", "re.sub('a|', '-', 'abc')", "re.sub('x*', '-', 'abxd')", "re.sub('a', 'x', 'aaa', count=1.5)",
  "re.sub('a', 'x', 'aaa', True)", "re.sub('a', 'x', 'aaa', count=10**30)", "re.sub('a', 'x', 'a', flags=re.I)", "re.subn('a', 'x', 'aAa', flags=re.I)")
# ---- sub_mismatched_types
T("re.sub('a', b'x', 'xab')", "re.sub('z', b'x', 'ab')", "re.sub('a', b'\\\\n', 'ab')", "re.sub('(a)', b'x\\\\1', 'xab')", "re.sub('(x)?(a)', b'\\\\1\\\\2', 'a')",
  "re.sub('(x)?(a)', b'\\\\1y\\\\2', 'a')", "re.sub('(x)?(a)', b'\\\\1', 'a')", "re.sub('(x)?(a)', b'\\\\1\\\\n', 'ba')", "re.sub(b'(a)', '\\\\1', b'xab')",
  "re.sub(b'a', 'x', b'ab')", "re.sub(b'a', bytearray(b'x'), b'ab')", "re.sub('a', 1, 'abc')", "re.sub(b'a', lambda m: 'x', b'abc')", "re.sub(b'a', lambda m: bytearray(b'y'), b'abc')")
# ---- sub_identity
s = 'abc'
T("re.sub('x', 'y', s) is s", "re.sub('x', lambda m: 'y', s) is s", "re.subn('x', 'y', s)[0] is s")
# ---- subn_results
T("re.subn(r'\\s+', ' ', 'a  b   c')", "re.subn('x', 'y', 'abc')", "re.compile('a').subn('b', 'aaa', 2)", "re.compile('a').subn(repl='b', string='aa', count=1)")
# ---- split_variants
T("re.split(r'[,;]\\s*', 'a, b;c ;d')", "re.split(r'(,)', 'a,b,c')", "re.split(r'\\s+', '  lead and trail  ')", "re.split(',', 'a,b,c,d', maxsplit=2)",
  "re.split('x*', 'axbc')", "re.split(r'\\b', 'hi there')", "re.split('', 'ab')", "re.split('x*', 'axbc', maxsplit=2)", "re.split('(a)|(b)', 'xaybz')",
  "re.split('a', 'bab', -1)", "re.split('a', 'bab', 0)", "re.split('x', 'axb', 1.0)", "re.split('(?=b)', 'abab')", "re.split('a', '')", "re.split('', '')",
  "re.split('(x)?y', 'ayb')", "re.compile('a').split('bab', maxsplit=1)", "re.compile('a').split(string='bab')")
# ---- split_identity
s = 'abc'
T("re.split('x', s)[0] is s", "re.findall('.*', s)[0] is s", "re.split('b', 'abc')")
# ---- flags_values_and_reprs
T("re.I", "re.IGNORECASE", "re.M", "re.S", "re.X", "re.A", "re.U", "re.L", "re.T", "re.DEBUG", "re.NOFLAG", "re.TEMPLATE",
  "re.I | re.M", "re.M | re.I", "re.I | 1", "1 | re.I", "re.I + 1", "re.I & re.M", "re.I ^ re.I", "re.I & 3", "3 & re.I", "re.I ^ 3",
  "True | re.I", "~re.I", "~re.NOFLAG", "~(re.I | (1 << 20))", "re.I | (1 << 20)", "re.I | 1.5", "re.I | 'x'", "-re.I", "re.I * 2", "re.I // 2")
# ---- flags_str_format_int
T("str(re.I)", "str(re.I | re.S)", "format(re.I)", "format(re.I, 'd')", "format(re.I, '>5')", "f'{re.M}'", "f'{re.I|re.M!r:>30}'", "'%d' % re.I",
  "int(re.A)", "re.I == 2", "hash(re.I) == hash(2)", "isinstance(re.I, int)", "re.I < 4", "[0, 1, 2][re.I]", "bool(re.NOFLAG)", "bool(re.I)", "re.I.real", "re.I.bit_length()")
# ---- flags_enum_api
T("re.I.name", "re.I.value", "(re.I | re.M).name", "(re.I | re.M).value", "re.NOFLAG.name", "re.RegexFlag(1 << 20).name", "(re.I | (1 << 20)).name",
  "re.RegexFlag", "type(re.I)", "re.RegexFlag(0)", "re.RegexFlag(3)", "re.RegexFlag(1 << 20)", "re.RegexFlag(-1)", "re.RegexFlag(2) is re.I",
  "re.RegexFlag(re.I)", "re.RegexFlag(2.0)", "re.RegexFlag('x')", "re.RegexFlag(2.5)", "re.RegexFlag()", "re.RegexFlag(True)", "list(re.RegexFlag)", "len(re.RegexFlag)",
  "list(re.I | re.M)", "len(re.I | re.S | re.X)", "list(re.NOFLAG)", "re.I in re.I | re.M", "re.M in re.I", "2 in re.I", "re.I in re.RegexFlag", "2 in re.RegexFlag",
  "1.5 in re.RegexFlag", "'x' in re.RegexFlag", "re.RegexFlag['IGNORECASE']", "re.RegexFlag['zz']", "re.RegexFlag.I", "re.RegexFlag.IGNORECASE is re.I",
  "(re.I | re.M) is (re.M | re.I)", "re.RegexFlag.__name__", "re.RegexFlag.__module__", "re.RegexFlag.__members__", "{re.I: 1}", "sorted([re.M, re.I])")
# ---- flags_in_compile
T("re.compile('a', re.I | re.M)", "re.compile('a', flags=re.S)", "re.compile('a', True)", "re.compile('a', re.U)", "re.compile(b'a', re.U)",
  "re.compile('a', re.L)", "re.compile(b'a', re.L)", "re.compile(b'a', re.L | re.A)", "re.compile('a', re.A | re.U)", "re.compile('a', 1.5)",
  "re.compile('a', 'x')", "re.compile('a', None)", "re.compile('a', [1])", "re.compile('a', 1 << 40)", "re.compile('a', -1)", "re.compile(b'a', -1)",
  "re.compile('a', 1 << 20)", "re.compile('a', re.I | re.S | re.M | re.X | re.A)", "re.compile('a', re.T)", "re.compile('a*', re.T)", "re.template('a')",
  "re.template('a+')")
# ---- flags_behaviour
text = "First line\nsecond LINE\nThird"
T("re.findall(r'^\\w+', text)", "re.findall(r'^\\w+', text, re.M)", "re.findall('line', text, re.I)", "re.findall('line$', text, re.I | re.M)",
  "re.search('First.*Third', text)", "re.search('First.*Third', text, re.S).span()", "re.findall('(?i)line', text)", "re.findall('(?m)^T\\\\w+', text)",
  "re.findall(r'\\w+', 'café naïve', re.A)", "re.findall(r'(?a)\\w+', 'café')", "re.findall(r'\\d', '١٢3')", "re.findall(r'\\d', '١٢3', re.ASCII)",
  "re.findall('a b # c', 'ab', re.X)", "re.findall('(?x) a \\\\  b', 'a b')", "re.match('(?i:A)b', 'ab')", "re.match('(?i:A)b', 'aB')", "re.match('(?-i:a)', 'A', re.I)")
# ---- ignorecase_unicode
T("re.findall('straße', 'STRASSE Straße straße', re.I)", "re.findall('é', 'É é e', re.I)", "re.findall('[a-z]+', 'ÀbC déF', re.I)",
  "re.search('σ', 'ΣΑΣ', re.I).group()", "re.findall('k', 'K\\u212a', re.I)", "re.findall('s', 'S\\u017f', re.I)", "re.findall('[k]', '\\u212a', re.I)",
  "re.findall('ǅ', 'Ǆǅǆ', re.I)", "re.match('ß', 'SS', re.I)", "re.findall(b'k', b'K\\xc5', re.I)")
# ---- compile_attributes
p = re.compile(r'(?P<key>\w+)=(?P<val>\d+)(x)?')
T("p.pattern", "p.flags", "p.groups", "p.groupindex", "type(p.groupindex).__name__", "re.compile('a').groupindex",
  "type(re.compile('a').groupindex)", "re.compile(b'a').flags", "re.compile('a', re.I).flags", "re.compile('(?x)a').flags", "re.compile('a', re.A).flags",
  "re.compile('(?s)(?m)a').flags", "p.groupindex is p.groupindex", "list(p.groupindex)", "len(p.groupindex)", "'key' in p.groupindex")
try:
    p.groupindex['new'] = 3
except TypeError as e:
    print('TypeError', e)
# ---- compile_repr
T("re.compile('a+')", "re.compile('a+', re.I)", "re.compile(b'a+')", "re.compile(b'a', re.L)", "re.compile('(?i)a')", "re.compile(\"it's\")",
  "re.compile('a' * 300)", "re.compile('é\\n')", "re.compile(r'\\d')", "re.compile('a', re.U)", "re.compile(b'x', re.I | re.M)", "re.compile('x', re.I | re.M | re.S | re.X)")
# ---- compile_eq_hash_cache
a = re.compile('a+')
T("a == re.compile('a+')", "a != re.compile('a+')", "a == re.compile('a+', re.I)", "a == re.compile(b'a+')", "a == 'a+'", "hash(a) == hash(re.compile('a+'))",
  "re.compile('x') is re.compile('x')", "re.compile('x', re.I) is re.compile('x', re.I)", "re.compile('x') is re.compile('x', re.I)", "re.compile(a) is a",
  "re.compile(a, 0) is a", "re.compile(a, re.I)", "re.search(a, 'baa').span()", "{a: 1}[re.compile('a+')]")
re.purge()
T("re.purge()", "re.purge(1)")
# ---- compile_bad_arguments
T("re.compile()", "re.compile('a', 0, 1)", "re.compile(1)", "re.compile(None)", "re.compile(bytearray(b'a'))", "re.compile(['a'])", "re.compile(pattern='a')",
  "re.compile('a', flags=0, x=1)", "re.search(1, 'a')")
# ---- pattern_methods
p = re.compile(r'(\w+)=(\d+)')
T("p.findall('a=1 b=22')", "p.sub(r'\\1:\\2', 'a=1')", "p.split('x a=1 y')", "p.search('zz a=5', 3)", "p.match('a=5 b=6').group(2)", "p.fullmatch('a=5')",
  "list(map(lambda m: m.span(), p.finditer('a=1 b=2')))", "p.subn('', 'a=1 b=2')", "p.split('a=1 b=2', 1)", "p.findall('a=1 b=2', endpos=3)")
# ---- pattern_method_arg_errors
p = re.compile('(a)')
for meth in ['search', 'match', 'fullmatch', 'findall', 'finditer', 'scanner', 'split', 'sub', 'subn']:
    T(f"p.{meth}()", f"p.{meth}('a','b','c','d')", f"p.{meth}(x=1)", f"p.{meth}('a', string='a')")
T("p.search('a', 'x')", "p.search('a', 1.0)", "p.search('a', 10**30)", "p.search('a', -10**30)", "p.search('a', pos=0, foo=1)", "p.search('a', None)",
  "p.search('a', endpos=None)", "p.search(1)", "p.search(b'a')", "p.split('a', foo=1)", "p.sub('x', 'a', count=None)")
# ---- module_function_arg_errors
T("re.search()", "re.search('a')", "re.search('a', 'b', 0, 1)", "re.search('a', 'b', foo=1)", "re.search('a', 'b', 0, flags=1)", "re.sub('a')",
  "re.sub('a', 'b', 'c', 1, 0, 1)", "re.split('a')", "re.findall(pattern='a', string='a')", "re.finditer('a', 'a', flags=0, x=1)", "re.escape()",
  "re.escape('a', 'b')", "re.template()", "re.fullmatch('a', string='a')", "re.subn(pattern='a', repl='b', string='a')", "re.split('a', 'bab', maxsplit=1, flags=0)",
  "re.findall('a', 'bab', 0, 1)", "re.match(string='a')")
# ---- subject_type_errors
T("re.search('a', 1)", "re.search('a', None)", "re.search('a', ['a'])", "re.search('a', b'a')", "re.search(b'a', 'a')", "re.search('a', bytearray(b'a'))",
  "re.findall(b'a', 'a')", "re.sub('a', 'b', b'a')", "re.split(b'a', 'a')", "re.finditer('a', 1)", "re.compile('a').scanner(1)")
# ---- bytes_subjects
T("re.findall(rb'\\d+', b'a12b3')", "re.search(b'(b+)', b'abbc')", "re.search(b'(b+)', b'abbc').group(1)", "re.sub(b'a', b'x', b'banana')", "re.split(b',', b'a,b')",
  "re.match(b'a', bytearray(b'abc'))", "re.match(b'a', bytearray(b'abc')).group()", "re.findall(b'a', bytearray(b'aa'))", "re.sub(b'a', b'x', bytearray(b'ab'))",
  "re.sub(b'z', b'x', bytearray(b'ab'))", "re.split(b'a', bytearray(b'bab'))", "re.findall(rb'\\w+', b'caf\\xe9 ok')", "re.findall(rb'\\w+', b'caf\\xe9', re.L)",
  "re.search(b'.', b'\\xff').group()", "re.match(b'(a)(b)?', b'a').groups(b'-')", "re.match(b'(?P<n>a)', b'a').groupdict()", "re.fullmatch(b'\\\\xff', b'\\xff')",
  "re.subn(rb'(\\w)', rb'<\\1>', b'ab')", "re.match(b'a', bytearray(b'a')).string", "re.sub(b'a', lambda m: m.group() * 2, b'aba')")
# ---- bytes_identity
b = b'abc'
T("re.match(b'.*', b).group() is b", "re.sub(b'x', b'y', b) is b", "re.split(b'x', b)[0] is b")
# ---- bytes_patterns_flags
T("re.compile(b'a', re.I)", "re.compile(b'(?L)a')", "re.compile(b'(?u)a')", "re.compile('(?L)a')", "re.compile('(?a)(?u)a')", "re.findall(b'(?i)[a-z]+', b'AbC\\xc0')")
# ---- errors_attributes
def E(expr):
    try:
        eval(expr)
    except re.error as x:
        print(expr, "::", repr(x.msg), repr(x.pattern), x.pos, x.lineno, x.colno, "|", str(x), "|", repr(x), x.args)
E("re.compile('(a')"); E("re.compile(b'(a')"); E("re.compile('a\\n(b')"); E("re.compile('ab\\ncd\\n(ef')"); E("re.sub('a', r'\\q', 'a')")
E("re.compile('a*', re.T)"); E("re.compile('(?P<1>a)')"); E("re.compile('é(')"); E("re.compile('[z-a]')"); E("re.compile('x{2,1}')")
E("re.compile('(?<=a+)b')"); E("re.compile('(?P<a>x)(?P=b)')"); E("re.compile('\\\\')"); E("re.compile('a**')"); E("re.compile('(?z)')")
# ---- errors_class
T("re.error", "re.error('x')", "str(re.error('x', 'ab\\ncd', 4))", "re.error('x', 'ab\\ncd', 4).colno", "re.error('x', 'ab\\ncd', 4).lineno",
  "re.error('m', 'pat', 1).pattern", "re.error('m', pos=2)", "str(re.error('m', pos=2))", "re.error('m', pos=2).lineno", "re.error()", "re.error('a', 'b', 'c', 'd')",
  "issubclass(re.error, Exception)", "re.error.__module__", "re.error.__qualname__", "re.error.__name__", "str(re.error('m', b'a\\nb', 3))", "re.error('m', 'abc', 1).args")
class MyErr(re.error):
    pass
try:
    raise MyErr('custom', 'p(q', 1)
except re.error as e:
    print(type(e).__name__, e, e.pos, e.msg)
try:
    re.compile('[')
except Exception as e:
    print(type(e).__name__, isinstance(e, re.error), e)
# ---- error_messages
for p in [r"[a-", r"a{2,1}", r"*a", r"(?P<n>a)(?P<n>b)", r"\1(a)", "(?<=a+)b", "(?P<>a)", "(?P<a-b>x)", "a)", "(?", "(?<", "(?P", "[]", r"\k",
          "(?(1)a|b|c)", "(?(x)a)", "x{1,2}{3}", r"\N{NOT A REAL NAME}", r"\U00110000", "(?i", "(?-x:a)", "(?x", "a|*", "\\", "[\\", r"\x4", r"\9"]:
    try:
        re.compile(p)
        print(p, "ok")
    except re.error as e:
        print(p, "->", e)
# ---- future_warnings
for p in ['[[a]', '[a--b]', '[a&&b]', '[a||b]', '[a~~b]', '[\\w--]', '[a-z--]', '[[a]', '[[b]']:
    try:
        print(re.compile(p))
    except re.error as e:
        print(p, e)
print(re.findall('[[a]', 'a[b'))
re.compile('[[c]'); re.compile('[[d]')
re.compile('[[c]')
# ---- escape_function
T("re.escape('a.b*c?(d)')", "re.escape('100% [sure]')", "re.escape('é ✓')", "re.escape(b'a.b')", "re.escape(bytearray(b'a.b'))", "re.escape(1)",
  "re.escape('')", "re.escape('\\t\\n -#&~')", "re.escape('_az09')", "re.escape(b'\\xff.')", "re.findall(re.escape('1+1=2?'), 'is 1+1=2? yes 1+1=2?')")
# ---- module_attributes
T("re.__all__", "re.__version__", "sorted(n for n in ['findall', 'finditer', 'sub', 'subn', 'split', 'escape', 'fullmatch', 'template', 'purge'] if hasattr(re, n))",
  "re.Pattern", "re.Match", "re.Pattern[str]", "re.Match[bytes]", "re.Scanner", "re.RegexFlag")
# ---- pattern_scanner_object
p = re.compile(r'(a)|b')
sc = p.scanner('abxab')
print(type(sc).__name__, sc.pattern is p)
print(sc.match(), sc.match(), sc.match(), sc.match())
sc = p.scanner('xab')
print(sc.search(), sc.search(), sc.search())
sc = p.scanner('abab', 1, 3)
print(sc.search(), sc.search())
T("p.scanner('a').match(1)", "p.scanner('a').search(x=1)")
# ---- re_scanner_class
def num(scanner, tok):
    return ('N', int(tok))
sc = re.Scanner([(r'\d+', num), (r'[a-z]+', lambda s, t: ('W', t)), (r'\s+', None), (r'[,;]', 'PUNCT')])
print(sc.scan('12 abc, 7;x?rest'))
print(sc.scan(''))
print(sc.lexicon[0][0])
sc2 = re.Scanner([('a', 'A'), ('(?:b)', 'B')], re.I)
print(sc2.scan('AbAB'))
class Lexer(re.Scanner):
    pass
print(Lexer([('x', 1)]).scan('xxy'))
m_seen = []
sc3 = re.Scanner([('a+', lambda s, t: m_seen.append(s.match.span()))])
print(sc3.scan('aab'), m_seen)
# ---- lookaround_backrefs
T("re.findall(r'\\w+(?=@)', 'ann@x.com bob@y.org')", "re.findall(r'(?<=\\$)\\d+(?:\\.\\d\\d)?', 'cost $12.50, tax $3')", "re.findall(r'\\b(?!un)\\w+able\\b', 'unable capable')",
  "re.sub(r'(?<!\\d)(\\d{3})(?!\\d)', r'[\\1]', '12 345 6789')", "re.findall(r'\\b(\\w+) \\1\\b', 'this is is a test test')", "re.sub(r'(\\w)\\1', r'\\1', 'aabbcdd')",
  "bool(re.fullmatch(r'(?P<q>[\\'\"]).*(?P=q)', \"'quoted'\"))", "re.findall(r'(?<=a)b', 'ab cb ab')", "re.search(r'(?<!x)y', 'xy zy').start()",
  "re.findall(r'(?i)(a)\\1', 'aA Aa')", "re.match(r'(a)(?(1)b|c)', 'ab')", "re.findall(r'(<)?(\\w+)(?(1)>|$)', '<a> b <c')")
# ---- possessive_atomic_312
T("re.findall(r'(?>a+)b', 'aaab ab')", "re.findall(r'a++b', 'aaab')", "re.match(r'a*+a', 'aaa')", "re.match(r'(?>a|ab)c', 'abc')", "re.findall(r'\\w{2}+', 'abcde')")
# ---- greedy_lazy_repeats
html = "<b>bold</b> and <i>it</i>"
T("re.findall(r'<.+>', html)", "re.findall(r'<.+?>', html)", "re.findall(r'<(\\w+)>(.*?)</\\1>', html)", "re.match(r'a{2,3}', 'aaaa').group()",
  "re.match(r'a{2,3}?', 'aaaa').group()", "re.match(r'a{,2}', 'aaa').group()", "re.match(r'a{2}', 'aaa').group()", "re.match('a{x}', 'a{x}').group()", "re.match(r'(ab)*', 'ababa').group(1)")
# ---- character_classes_unicode
s = "Zoë, naïve 東京 café_2 ٣٤ ½ 🎉 \u00a0x\u2003y"
T("re.findall(r'\\w+', s)", "re.findall(r'\\d+', s)", "re.findall(r'[^\\W\\d_]+', s)", "re.findall(r'\\s', s)", "re.findall(r'\\S+', s)",
  "re.findall(r'[\\u4e00-\\u9fff]+', s)", "re.findall(r'[^\\x00-\\x7f]', s)", "re.findall(r'\\N{EM DASH}', 'a—b')", "re.findall(r'[\\N{LATIN SMALL LETTER E WITH ACUTE}]', 'café')",
  "re.findall(r'\\b\\w', 'héllo wörld')", "re.findall('.', 'a\\nb')", "re.findall('(?s).', 'a\\nb')", "re.findall(r'[\\w--]', 'a-b')")
# ---- anchors
s = "cat concat catalog\nline2\n"
T("re.findall(r'\\bcat\\b', s)", "re.findall(r'cat\\B', s)", "re.findall(r'\\Bcat', s)", "re.findall(r'\\Acat', s)", "re.findall(r'$', s)", "re.findall(r'(?m)$', s)",
  "re.search(r'\\Z', s).start()", "re.search(r'$', 'ab\\n').start()", "re.findall(r'(?m)^\\w', s)", "re.search(r'2$', s)")
# ---- catastrophic_small
T("re.match(r'(a|aa)+$', 'a' * 24 + 'b')", "bool(re.fullmatch(r'(\\w+\\s?)+', 'word ' * 5))", "re.match(r'(a*)*b', 'a' * 20)", "re.search(r'(x+x+)+y', 'x' * 18)")
# ---- context_subjects
ctx = C("2024-01-05 ERROR café [db] took 12ms\n2024-01-06 INFO naïve [api] took 7ms\n2024-01-07 ERROR 東京 [db] took 30ms\n")
T("re.findall(r'(\\d+)ms', ctx)", "re.findall(r'ERROR (\\S+)', ctx)", "re.search(r'\\[(\\w+)\\]', ctx)", "re.search(r'東京', ctx).span()",
  "[m.span() for m in re.finditer(r'\\[\\w+\\]', ctx)]", "[m.group(1) for m in re.finditer(r'took (\\d+)', ctx)]", "re.split(r'\\n', ctx)[1]",
  "len(re.split(r'\\s+', ctx))", "re.sub(r'\\d{4}-\\d\\d-\\d\\d', 'DATE', ctx)[:30]", "re.subn('ERROR', 'E', ctx)[1]", "re.match('2024', ctx).string is ctx",
  "re.search('café', ctx).start()", "re.compile(r'\\w+').search(ctx, 60, 70)", "re.fullmatch('.*', ctx)", "re.fullmatch('(?s).*', ctx).end()",
  "re.sub('zzz', 'y', ctx) is ctx", "re.sub('café', lambda m: m.group().upper(), ctx)[:40]", "re.escape(C('a.b'))", "re.compile(r'(?m)^(\\S+) (\\w+)').findall(ctx)",
  "re.search(C('E..OR'), ctx).group()", "re.search(r'(?<=café )\\[', ctx).start()")
# ---- context_match_objects
ctx = C("α=1 β=22 γ=333")
ms = list(re.finditer(r'(?P<k>\w)=(?P<v>\d+)', ctx))
for m in ms:
    print(m, m.groupdict(), m.span('v'), m.string is ctx, m.expand(r'\g<v>\g<k>'))
m = re.search(r'(\d+) (\D)', ctx)
print(m.group(0, 1, 2), m.regs, m[2], m.lastindex)
sc = re.compile(r'\w=').scanner(ctx, 2)
print(sc.search(), sc.match(), sc.search())
# ---- context_pos_endpos
ctx = C("äöü abc äöü")
p = re.compile(r'\w+')
T("p.search(ctx, 1)", "p.search(ctx, 3, 6)", "p.findall(ctx, 4)", "[m.span() for m in p.finditer(ctx, 2, 9)]", "p.match(ctx, 4).endpos", "p.fullmatch(ctx, 4, 7)")
# ---- context_sub_callable
ctx = C("a1 b22 c333 d")
seen = []
def rep(m):
    seen.append(m.group())
    return str(len(m.group()))
print(re.sub(r'\d+', rep, ctx), seen)
print(re.subn(r'\d+', lambda m: None, ctx, count=2))
print(re.sub('x', lambda m: 'y', ctx) is ctx)
T("re.sub(r'\\d', lambda m: 1, ctx)")
# ---- string_subclass_subjects
class S(str):
    pass
s = S('abc abc')
m = re.search('b', s)
T("type(m.string).__name__", "type(m.group()).__name__", "type(re.sub('x', 'y', s)).__name__", "type(re.findall('a', s)[0]).__name__", "re.compile(S('a.c')).pattern",
  "type(re.compile(S('a.d')).pattern).__name__", "re.split(' ', s)")
# ---- module_findall_finditer_flags
T("re.findall('a', 'AaA', re.I)", "[m.group() for m in re.finditer('a', 'AaA', flags=re.I)]", "re.split('a', 'xAy', flags=re.I)", "re.fullmatch('a', 'A', re.I)")
# ---- groupdict_order_and_names
m = re.match(r'(?P<z>a)(?P<a>b)(?P<m>c)?', 'ab')
print(m.groupdict(), list(m.re.groupindex.items()), m.lastgroup)
m = re.match(r'(?P<名前>\w+)', '東京')
print(m.groupdict(), m['名前'], repr(m.re.groupindex))
# ---- pattern_as_cache_key
ps = {re.compile('a'): 1, re.compile('b'): 2}
print(ps[re.compile('a')], len(ps), re.compile('a') in ps, re.compile('a', re.I) in ps)
# ---- many_groups
pat = '(' + ')('.join('abcdefghijklmnopqrstuvwxyz') + ')'
m = re.match(pat, 'abcdefghijklmnopqrstuvwxyz')
print(m.groups()[-3:], m.lastindex, m.group(26), m.span(13))
print(re.sub(pat, r'\26\g<13>\1', 'abcdefghijklmnopqrstuvwxyz!'))
# ---- realistic_log_parsing
log = """2024-03-01 08:00:01 INFO [gateway] GET /api/v1/items 200 12ms
2024-03-01 08:00:02 WARN [auth] token near expiry user=ann
2024-03-01 08:00:05 ERROR [worker] job-8741 failed: out of memory
2024-03-01 08:00:09 INFO [gateway] POST /api/v1/orders 201 340ms
"""
rx = re.compile(r'^(?P<date>\S+) (?P<time>\S+) (?P<level>\w+) \[(?P<svc>\w+)\] (?P<msg>.*)$', re.M)
for m in rx.finditer(log):
    print(m['level'], m['svc'], len(m['msg']), m.span('msg'))
print(sum(int(x) for x in re.findall(r'(\d+)ms', log)))
print(re.sub(r'user=(\w+)', lambda m: 'user=' + m.group(1)[0] + '***', log).splitlines()[1])
print(dict(re.findall(r'\[(\w+)\] (\w+)', log)))
# ---- empty_pattern_and_subject
T("re.findall('', '')", "re.split('', '')", "re.sub('', 'x', '')", "re.search('', '').span()", "re.fullmatch('', '')", "re.findall('$', '')", "re.subn('^', '>', 'a\\nb', flags=re.M)")
# ---- nested_quantifier_groups
T("re.match(r'(a(b)?)+', 'aba').groups()", "re.match(r'(?:(a)|(b))+', 'ab').groups()", "re.match(r'(a)+', 'aaa').span(1)", "re.match(r'((a)|b)+', 'ab').groups()",
  "re.match(r'(a*)+', 'b').groups()", "re.match(r'(a|b)*?c', 'abc').groups()", "re.match(r'(?:(a)|b)*', 'ba').groups()")
# ---- split_with_groups_and_none
T("re.split(r'(-)|(\\+)', '1-2+3')", "re.split(r'(?:(x)|y)', 'ayb')", "re.split(r'(\\W)', 'a b')", "re.split(r'(\\s)*', 'a  b')")
# ---- bool_and_none_checks
m = re.match('a', 'b')
print(m is None, not re.match('a', 'a'), re.search('a', 'xa') and 'found')
if re.search(r'\d', 'a1'):
    print('has digit')
# ---- verbose_patterns
phone = re.compile(r"""
    (\d{3})   # area
    [-.\s]?   # separator
    (\d{4})   # number
""", re.VERBOSE)
print(phone.findall("call 555-1234 or 555.9876 or 5551111"))
print(phone)
print(re.findall(r'''(?x) [a-z]+  # word
                     \#  # a hash''', 'ab# cd #'))
# ---- octal_hex_unicode_escapes
T("re.findall(r'\\x41', 'ABA')", "re.findall(r'\\u00e9', 'café')", "re.findall(r'\\U0001F600', 'x😀')", "re.findall(r'\\101', 'A')", "re.findall(r'\\0', 'a\\x00')",
  "re.findall(r'[\\x00-\\x1f]', 'a\\tb\\n')", "re.findall(r'\\t', 'a\\tb')", "re.findall(r'\\a\\f\\v', '\\a\\f\\v')", "re.compile(r'\\u12')", "re.compile(r'\\x')", "re.compile(r'[\\d-z]')")
# ---- corebug_percent_int_subclass
print('%s' % re.X, '%r' % re.I)
# ---- mappingproxy_getitem
p = re.compile(r'(?P<key>\w+)=(?P<val>\d+)')
print(p.groupindex['key'], dict(p.groupindex))
# ---- mappingproxy_str
print(re.compile(r'(?P<first>\w)(?P<rest>\w*)').groupindex)
# ---- refused_debug_flag
re.compile('a', re.DEBUG)
# ---- bytearray_live
ba = bytearray(b'abcdef')
m = re.search(b'c(d)', ba)
ba[2] = 88
ba[3] = 89
print(m.group(), m.group(1), m.string, m.span(), m)
ba.extend(b'zz')
print(m.group(), m.string)
# ---- pattern_copy_and_context_patterns
import copy
p = re.compile('a(b)')
T("copy.copy(p) is p", "copy.deepcopy(p) is p", "re.compile(C('a.c')).pattern", "re.findall(C('[aeiou]'), 'education')", "re.split(C(','), C('a,b'))",
  "re.sub(C('a'), C('<\\\\g<0>>'), C('banana'))", "re.sub('a', lambda m: C('X'), 'banana')", "re.compile(r'(?<=ab)(c)').search('abcabc', 2).regs",
  "re.compile(r'(?=(bc))').search('abc', 0, 2)", "re.compile(r'(?=(bc))').search('abc').span(1)")
# ---- findall_pos_on_context
ctx = C('ünï cöde über')
p = re.compile(r'\w+')
T("p.findall(ctx, 4)", "p.findall(ctx, 4, 8)", "p.split(ctx)", "re.split(r'(\\s)', ctx)", "p.sub(lambda m: m.group()[::-1], ctx)", "p.subn('#', ctx, 2)")
# ---- corebug_bytearray_slice_assign
ba = bytearray(b'abcdef')
m = re.search(b'c(d)', ba)
ba[2:4] = b'XY'
print(m.group(), m.group(1))
del ba[:]
print(repr(m.group()), m, m.groups())
# ---- generated_differential
seed = 12345
def rnd(n):
    global seed
    seed = (seed * 1103515245 + 12345) % 2147483648
    return seed % n
alphabet = "ab é😀\n_1ÄK"
pats = [r'a+', r'(a)|(b)', r'\w+', r'\b', r'(?<=é)\w', r'(é|😀)+', r'x*', r'(?i)k', r'(?m)^\w', r'\s', r'(a)(?=b)', r'[^\W\d]+', r'(?s).{2}',
        r'(\w)\1', r'$', r'(?P<n>1)|_', r'(?:(a)|b)*', r'[ä-ü]', r'\d|😀', r'(?x) a | b ', r'(?<!a)b', r'(?i)ä+', r'(a|é)(?(1)b|\n)',
        r'\B', r'(?>a|ab)b', r'a*?', r'(\S)(\s)?', r'\Z|\A', r'[😀-😀é]{1,2}?', r'(?a)\w']
for k in range(300):
    s = "".join(alphabet[rnd(len(alphabet))] for _ in range(rnd(12)))
    p = re.compile(pats[k % len(pats)])
    subj = C(s) if k % 2 else s
    pos, end = rnd(14) - 2, rnd(16) - 1
    out = [p.findall(subj), p.findall(subj, pos, end), [(m.span(), m.regs, m.lastindex) for m in p.finditer(subj, pos, end)],
           p.split(subj), p.split(subj, 1), p.sub('<\\g<0>>', subj), p.subn(lambda m: str(m.start()), subj, 2),
           (lambda m: m and (m.span(), m.groups()))(p.search(subj, pos, end)), (lambda m: m and m.span())(p.match(subj, pos)),
           (lambda m: m and m.span())(p.fullmatch(subj, pos, end))]
    print(k, repr(s), pos, end, out)
# ---- cache_bounds
p0 = re.compile('p0')
print(re.compile('p0') is p0)
for i in range(1, 600):
    re.compile('p%d' % i)
print(re.compile('p0') is p0, re.compile('p599') is re.compile('p599'))
q = re.compile('q')
re.purge()
print(re.compile('q') is q, re.compile('q') == q)
