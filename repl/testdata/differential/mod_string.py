# The string module: constants, Template, capwords, Formatter.
# ---- constants
import string
print(string.ascii_letters)
print(string.ascii_lowercase, string.ascii_uppercase, string.digits, string.hexdigits, string.octdigits)
print(string.punctuation)
print(repr(string.whitespace), len(string.printable))
# ---- template_substitute
from string import Template
t = Template("$who likes $what; ${who}s too. Cost: $$10")
print(t.substitute(who="Ann", what="tea"))
print(t.safe_substitute(who="Bob"))
print(Template("$a$b").substitute({"a": 1}, b=2))
# ---- template_missing_key
from string import Template
Template("hello $name").substitute({})
# ---- template_invalid_placeholder
from string import Template
Template("cost $5").substitute()
# ---- capwords
import string
print(string.capwords("hello   world  of python"), string.capwords("a-b c-d", "-"), string.capwords(" x "))
# ---- formatter_parse
import string
f = string.Formatter()
print(list(f.parse("Hi {name:>5}! {0} {{x}}")))
print(f.format("{0}-{x}", 1, x=2), f.vformat("{a}", (), {"a": "A"}))
# ---- constants_for_validation
import string
def is_hex(s):
    return bool(s) and all(c in string.hexdigits for c in s)
print([is_hex(s) for s in ["ff00", "xyz", "", "DEADbeef"]])
allowed = set(string.ascii_lowercase + string.digits + "_")
print([w for w in ["user_1", "Bad", "ok2", "sp ace"] if set(w) <= allowed])
print("".join(c for c in "Hello, World! 123" if c not in string.punctuation))
