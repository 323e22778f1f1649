# Cases for the string module; gen.py records CPython's output.
# ---- constants
import string
print(string.ascii_letters)
print(string.ascii_lowercase, string.ascii_uppercase, string.digits, string.hexdigits, string.octdigits)
print(string.punctuation)
print(repr(string.whitespace), repr(string.printable), len(string.printable))
print(string.__all__)
# ---- capwords
import string
print(string.capwords("hello   world  of python"), string.capwords("a-b c-d", "-"), string.capwords(" x "), repr(string.capwords("")))
print(string.capwords("ÉCOLE élève"), string.capwords("a,b", ","), string.capwords("aXb", sep="X"), string.capwords("a  b", None), string.capwords("ab", ""))
for call in [lambda: string.capwords(), lambda: string.capwords(1), lambda: string.capwords("a", "b", "c"), lambda: string.capwords(s="a b", x=1)]:
    try:
        print(call())
    except (TypeError, AttributeError, ValueError) as e:
        print(type(e).__name__, e)
# ---- template_substitute
from string import Template
t = Template("$who likes $what; ${who}s too. Cost: $$10")
print(t.substitute(who="Ann", what="tea"))
print(t.safe_substitute(who="Bob"))
print(Template("$a$b").substitute({"a": 1}, b=2), Template("$a").substitute({"a": 1}, a=2), Template("${a}_x $a_x").safe_substitute(a="A"))
print(Template("$x $y").substitute(dict(x=[1], y=None)), Template("no placeholders").substitute(), Template("$$$a$$").substitute(a=5))
print(t.template, Template.delimiter, Template.idpattern, Template.braceidpattern)
print(Template("é $ÿ $é").safe_substitute(), Template("$_1 $A9").substitute(_1="u", A9="n"))
# ---- template_missing_key
from string import Template
Template("hello $name").substitute({})
# ---- template_missing_key_kw
from string import Template
try:
    Template("${a} $b").substitute(a=1)
except KeyError as e:
    print(repr(e))
# ---- template_invalid_placeholder
from string import Template
Template("cost $5").substitute()
# ---- template_invalid_positions
from string import Template
for s in ["cost $5", "a\nb $", "x\n\ny ${", "${a", "$ a", "line\r\nnext\r $!", "${1}", "${a b}"]:
    try:
        Template(s).substitute(a=1)
    except ValueError as e:
        print(repr(s), e)
    print(repr(Template(s).safe_substitute(a=1)))
# ---- template_mapping_protocols
from string import Template
class M:
    def __getitem__(self, k):
        if k == "x":
            return "X"
        raise KeyError(k)
print(Template("$x ${y}").safe_substitute(M()), Template("$x").substitute(M()))
class Bad:
    def __getitem__(self, k):
        raise IndexError(k)
try:
    Template("$x").safe_substitute(Bad())
except IndexError as e:
    print("IndexError", e)
# ---- template_identifiers
from string import Template
print(Template("$a ${b} $$ $c $a $5").get_identifiers(), Template("$a $5").is_valid(), Template("$a").is_valid(), Template("").get_identifiers())
# ---- template_subclass_delimiter
from string import Template
class T(Template):
    delimiter = "%"
print(T("%a and $b %%").substitute(a=1), T("%{a}%b").safe_substitute(a=2))
class Multi(Template):
    delimiter = "[["
print(Multi("[[x [[[[ [[{x}").substitute(x=7))
class WithInit(Template):
    def __init__(self, text):
        super().__init__(text.upper())
print(WithInit("$a b").safe_substitute(A=1))
# ---- template_errors
from string import Template
for call in [lambda: Template(5).substitute(), lambda: Template("x").substitute({}, {}), lambda: Template(), lambda: Template("a", "b"), lambda: Template("$a").substitute(1)]:
    try:
        print(call())
    except TypeError as e:
        print(type(e).__name__, e)
# ---- formatter_parse
import string
f = string.Formatter()
print(list(f.parse("Hi {name:>5}! {0} {{x}}")))
print(list(f.parse("{}{a!r:{b}}}}x{{")), list(f.parse("")), list(f.parse("abc")), list(f.parse("{!r}")), list(f.parse("{a.b[0]:x}")))
for s in ["{", "}", "{a", "{a!}", "{a!rr}", "ab{c", "x}y"]:
    try:
        print(list(f.parse(s)))
    except ValueError as e:
        print(repr(s), e)
it = f.parse("ok {0} then {")
print(next(it))
try:
    next(it)
except ValueError as e:
    print("lazy", e)
# ---- formatter_format
import string
f = string.Formatter()
print(f.format("{0}-{x}", 1, x=2), f.vformat("{a}", (), {"a": "A"}), f.format("{:{}}", "x", 5), f.format("{0[1]}{1.real}", "ab", 3))
print(f.format("{!r:>6}|{!s}|{!a}", "é", 1.5, "é"), f.format("{0}{0}{1}", "a", "b"), f.format("{a[k]}", a={"k": "v"}), f.format(""), f.format("{{}}"))
for s, a in [("{}{0}", (1,)), ("{0}{}", (1,)), ("{2}", (1,)), ("{x}", ()), ("{!z}", (1,)), ("{:{:{}}}", (1, 2, 3)), ("{0.nope}", (1,)), ("{0[5]}", ([1],)), ("{:d}", ("s",))]:
    try:
        print(f.format(s, *a))
    except Exception as e:
        print(type(e).__name__, e)
# ---- formatter_subclass
import string
class Default(string.Formatter):
    def get_value(self, key, args, kwargs):
        if isinstance(key, str):
            return kwargs.get(key, f"<{key}?>")
        return super().get_value(key, args, kwargs)
print(Default().format("{name} is {age} ({0})", "pos", name="Ann"))
class Upper(string.Formatter):
    def format_field(self, value, format_spec):
        return super().format_field(value, format_spec).upper()
    def convert_field(self, value, conversion):
        if conversion == "u":
            return str(value).upper()
        return super().convert_field(value, conversion)
print(Upper().format("{0} {1:x} {2!u}", "abc", 255, "q"))
class Strict(string.Formatter):
    def check_unused_args(self, used_args, args, kwargs):
        unused = set(kwargs) - used_args
        if unused:
            raise ValueError(f"unused: {sorted(unused)}")
try:
    Strict().format("{a}", a=1, b=2)
except ValueError as e:
    print(e)
class Parse(string.Formatter):
    def parse(self, s):
        return [("lit:", "0", "", None), ("!", None, None, None)]
print(Parse().format("ignored", "X"))
class BadField(string.Formatter):
    def format_field(self, value, spec):
        return 5
try:
    BadField().format("a{0}", 1)
except TypeError as e:
    print(e)
# ---- constants_for_validation
import string
def is_hex(s):
    return bool(s) and all(c in string.hexdigits for c in s)
print([is_hex(s) for s in ["ff00", "xyz", "", "DEADbeef"]])
allowed = set(string.ascii_lowercase + string.digits + "_")
print([w for w in ["user_1", "Bad", "ok2", "sp ace"] if set(w) <= allowed])
print("".join(c for c in "Hello, World! 123" if c not in string.punctuation))
# ---- refused_template_pattern
from string import Template
class P(Template):
    idpattern = r"[a-z]+"
print("start")
P("$abc").substitute(abc=1)
