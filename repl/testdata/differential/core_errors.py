# SyntaxError attributes, import errors and codec lookup: what a cell sees when code is wrong.
# ---- syntax_error_text_parser
for src in ["x = (1,", "x = 09 + 1\n", "'''abc", "if x:\n        a\n    b = 1\n", "x = $\n",
            "x = (1,\ny = 2\n", "a b\nc\n", "  x = 1", "for x in y:\npass\n", "x = 'é' +",
            "if x \\\n    and :\n    pass", "f(**a, b)", "del (a, b) + c", "print 1", "x = 0b12"]:
    try:
        exec(src)
    except SyntaxError as e:
        print(type(e).__name__, repr(e.text), e.offset, e.end_offset, e.lineno, e.end_lineno, str(e))
# ---- syntax_error_text_compiler
for src in ["return 1", "break", "def f(x):\n    global x\n", "yield 1", "def f(a, a): pass",
            "__debug__ = 1", "a, *b, *c = d", "[ (yield) for a in b]", "def f():\n    from os import *\n",
            "def f():\n    nonlocal y\n"]:
    try:
        exec(src)
    except SyntaxError as e:
        print(repr(e.text), e.offset, e.end_offset, e.lineno, str(e), e.args[1][3])
# ---- syntax_error_repr_and_args
try:
    exec("x = (1,")
except SyntaxError as e:
    print(repr(e))
    print(e.args, e.msg, e.filename)
# ---- import_missing_names
for name in ["numpy.linalg", "os.nothing", "json.nope.deeper", "json.nope", "math.x",
             "itertools.chain", "nosuch.thing", "nosuch"]:
    try:
        exec("import " + name)
        print(name, "imported")
    except ImportError as e:
        print(type(e).__name__, e, e.name)
import collections.abc, json.decoder, os.path
print(collections.abc.Mapping, json.decoder.JSONDecodeError.__name__, os.path.join("a", "b"))
# ---- import_from_missing
try:
    from os.nothing import x
except ImportError as e:
    print(type(e).__name__, e)
try:
    from json import nothing
except ImportError as e:
    # CPython ends the message with the module's file, which code mode's
    # modules do not have ("(unknown location)").
    print(type(e).__name__, str(e).split(" (")[0], e.name)
# ---- import_stdlib_not_provided
import subprocess
print("imported")
# ---- import_stdlib_package_not_provided
from xml.etree import ElementTree
print("imported")
# ---- codec_lookup_errors
for enc in ["xyz", "rot13", "Rot-13", "hex", "zip", "base64", "UTF8", "latin1", "utf_16_le", "ASCII"]:
    try:
        print(enc, "x".encode(enc))
    except LookupError as e:
        print(type(e).__name__, e)
    try:
        print(enc, b"x".decode(enc))
    except LookupError as e:
        print(type(e).__name__, e)
# ---- codec_not_provided
print("é".encode("cp437"))
