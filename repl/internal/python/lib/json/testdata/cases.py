# Cases for the json module; gen.py records CPython's output.
# ---- dumps_scalars
import json
print(json.dumps(None), json.dumps(True), json.dumps(False), json.dumps(0), json.dumps(-12))
print(json.dumps(10 ** 30), json.dumps(-(10 ** 30)), json.dumps(1.0), json.dumps(0.1), json.dumps(1e16), json.dumps(1e-7))
print(json.dumps(-0.0), json.dumps(1 / 3), json.dumps(2.5e300), json.dumps(float("inf")), json.dumps(float("-inf")), json.dumps(float("nan")))
print(json.dumps("plain"), json.dumps(""), json.dumps([]), json.dumps({}), json.dumps(()))
# ---- dumps_containers
import json
data = {"b": 1, "a": [1, 2.5, None, True, False], "c": {"nested": "x"}, "t": (1, (2, 3))}
print(json.dumps(data))
print(json.dumps(data, sort_keys=True))
print(json.dumps([[[]], [{}], {"k": []}]))
# ---- dumps_indent
import json
data = {"x": [1, {"y": []}], "z": {}, "w": "s"}
print(json.dumps(data, indent=2))
print(json.dumps(data, indent="\t"))
print(json.dumps(data, indent=0))
print(json.dumps(data, indent=-3))
print(json.dumps(data, indent="ab", separators=(";", "=")))
print(json.dumps([1, [2, [3]]], indent=1))
print(json.dumps(5, indent=4), json.dumps([], indent=4), json.dumps({}, indent=4))
print(json.dumps([1], indent=True))
# ---- dumps_separators
import json
print(json.dumps({"a": [1, 2]}, separators=(",", ":")))
print(json.dumps({"a": [1, 2]}, separators=[" , ", " : "]))
print(json.dumps({"a": [1, 2]}, indent=2, separators=(", ", ": ")))
# ---- dumps_separators_errors
import json
for seps in [(",",), (",", ":", "x"), 5, (1, ":"), (",", 2)]:
    try:
        print(json.dumps([1], separators=seps))
    except Exception as e:
        print(type(e).__name__, e)
print(json.dumps("str skips the check", separators=(1, 2)))
# ---- dumps_indent_errors
import json
for ind in [2.0, [1], {}]:
    try:
        print(json.dumps([1], indent=ind))
    except Exception as e:
        print(type(e).__name__, e)
print(json.dumps("a str skips the check", indent=2.5))
# ---- dumps_strings_ascii
import json
for s in ["\x00", "\x1f", "\x7f", "\x80", "é", "\u2028", "東京", "🎉", "</script>", "\\", "'", '"', "\b\f\n\r\t", "a\u0000b"]:
    print(json.dumps(s), json.dumps(s, ensure_ascii=False))
# ---- dumps_ensure_ascii_truthiness
import json
print(json.dumps("é", ensure_ascii=0), json.dumps("é", ensure_ascii=[]), json.dumps("é", ensure_ascii="yes"))
# ---- dumps_keys
import json
print(json.dumps({1: "a", 2.5: "b", True: "c", None: "d", False: "e", -3: "f", 1e20: "g"}))
print(json.dumps({float("nan"): 1, float("inf"): 2, float("-inf"): 3}))
print(json.dumps({10 ** 25: 1}))
print(json.loads(json.dumps({1: "a"})))
# ---- dumps_key_errors
import json
for d in [{(1, 2): 3}, {frozenset(): 1}, {b"x": 1}]:
    try:
        json.dumps(d)
    except TypeError as e:
        print(e)
print(json.dumps({(1, 2): 3, "ok": 1, b"x": 2}, skipkeys=True))
print(json.dumps({(1, 2): 3}, skipkeys=True), json.dumps({(1, 2): 3}, skipkeys=True, indent=2))
print(json.dumps({(1, 2): 3, "a": 1}, skipkeys=True, indent=2))
# ---- dumps_sort_keys
import json
print(json.dumps({"b": 1, "a": 2, "C": 3, "aa": 4}, sort_keys=True))
print(json.dumps({3: "x", 1: "y", 2: "z"}, sort_keys=True))
print(json.dumps({10: "x", 9: "y"}, sort_keys=True))
print(json.dumps({"z": {"b": 1, "a": 2}}, sort_keys=True, indent=1))
# ---- dumps_nan_disallowed
import json
for v in [float("nan"), float("inf"), [float("-inf")], {"k": float("nan")}]:
    try:
        json.dumps(v, allow_nan=False)
    except ValueError as e:
        print(e)
try:
    json.dumps({float("inf"): 1}, allow_nan=False)
except ValueError as e:
    print(e)
# ---- dumps_not_serializable
import json
for v in [{1, 2}, b"bytes", object, len, 1j, range(3), frozenset()]:
    try:
        json.dumps(v)
    except TypeError as e:
        print(e)
# ---- dumps_not_serializable_nested
import json
json.dumps({"a": [1, {"b": {1}}]})
# ---- dumps_default
import json
class Pt:
    def __init__(self, x, y):
        self.x, self.y = x, y
print(json.dumps({"p": Pt(1, 2), "s": {3}}, default=lambda o: sorted(o) if isinstance(o, set) else vars(o)))
print(json.dumps([Pt(1, 2)], default=lambda o: {"pt": [o.x, o.y]}, indent=1))
print(json.dumps({1j}, default=list, sort_keys=True))
# ---- dumps_default_raises
import json
def d(o):
    raise ValueError("cannot " + type(o).__name__)
json.dumps([1, {2}], default=d)
# ---- dumps_default_returns_same
import json
class A:
    pass
a = A()
try:
    json.dumps(a, default=lambda o: o)
except ValueError as e:
    print(type(e).__name__, e)
# ---- dumps_circular
import json
a = [1]
a.append(a)
try:
    json.dumps(a)
except ValueError as e:
    print(e)
d = {}
d["self"] = d
try:
    json.dumps(d, indent=2)
except ValueError as e:
    print(e)
shared = [1]
print(json.dumps([shared, shared]))
# ---- dumps_circular_unchecked
import json
a = [1]
a.append(a)
try:
    json.dumps(a, check_circular=False)
except RecursionError as e:
    print("RecursionError")
# ---- dumps_subclasses
import json
class S(str):
    def __str__(self):
        return "other"
class I(int):
    def __repr__(self):
        return "I!"
class F(float):
    def __repr__(self):
        return "F!"
class L(list):
    pass
class D(dict):
    pass
print(json.dumps([S("s"), I(5), F(2.5), L([1]), D(a=1)]))
print(json.dumps({S("k"): I(1), I(2): F(0.5)}))
# ---- dumps_bool_subclass_keys_and_big
import json
print(json.dumps({True: 1, 2: 2}), json.dumps([10 ** 100]))
# ---- dumps_args
import json
for call in [lambda: json.dumps(), lambda: json.dumps(1, 2), lambda: json.dumps(1, foo=2), lambda: json.dumps(obj=[1]), lambda: json.dumps([1], obj=2)]:
    try:
        print(call())
    except TypeError as e:
        print(e)
# ---- dumps_cls
import json
class SetEncoder(json.JSONEncoder):
    def default(self, o):
        if isinstance(o, (set, frozenset)):
            return sorted(o)
        return super().default(o)
print(json.dumps({"a": {3, 1, 2}}, cls=SetEncoder))
print(json.dumps({"a": {3, 1, 2}}, cls=SetEncoder, indent=1, sort_keys=True))
print(SetEncoder().encode([frozenset([2, 1])]), SetEncoder(separators=(",", ":")).encode({"a": [1]}))
try:
    json.dumps({"a": 1j}, cls=SetEncoder)
except TypeError as e:
    print(e)
# ---- dumps_cls_init_kwargs
import json
class E(json.JSONEncoder):
    def __init__(self, **kw):
        print(sorted(kw))
        self.tag = kw.pop("tag", None)
        super().__init__(**kw)
    def default(self, o):
        return [self.tag, str(o)]
print(json.dumps([1j], cls=E, tag="T"))
# ---- encoder_class
import json
e = json.JSONEncoder()
print(e.item_separator, e.key_separator, e.indent, e.sort_keys, e.skipkeys, e.ensure_ascii, e.check_circular, e.allow_nan)
e2 = json.JSONEncoder(indent=2, sort_keys=True)
print(repr(e2.item_separator), e2.encode({"b": 1, "a": [1]}))
print(e.encode("é"), json.JSONEncoder(ensure_ascii=False).encode("é"), e.encode(("t",)))
print(json.JSONEncoder, json.encoder.JSONEncoder is json.JSONEncoder)
try:
    e.default(1j)
except TypeError as e3:
    print(e3)
try:
    json.JSONEncoder(2)
except TypeError as e4:
    print(e4)
try:
    json.JSONEncoder(foo=1)
except TypeError as e5:
    print(e5)
# ---- encoder_default_kwarg
import json
e = json.JSONEncoder(default=repr)
print(e.encode([1j, {2}]))
# ---- dump_to_file_like
import json
class W:
    def __init__(self):
        self.parts = []
    def write(self, s):
        self.parts.append(s)
w = W()
print(json.dump({"a": [1, 2]}, w, indent=1), "".join(w.parts))
try:
    json.dump([1], object())
except AttributeError as e:
    print(e)
# ---- loads_basic
import json
doc = json.loads('{"name": "Ann", "age": 31, "tags": ["a", "b"], "active": true, "score": 9.5, "boss": null}')
print(doc)
print(type(doc["age"]).__name__, type(doc["score"]).__name__, doc["boss"] is None, doc["active"] is True)
print(json.loads("true"), json.loads("false"), json.loads("null"), json.loads("12"), json.loads("-0"), json.loads('"x"'))
print(json.loads(" \t\n\r[ 1 , 2 ] \n"), json.loads("{}"), json.loads("[]"), json.loads('{"":""}'))
# ---- loads_numbers
import json
print(json.loads("[0, -0, 1.5, -1.5, 1e2, 1E-2, 1e+2, -0.0, 2.0, 123456789012345678901234567890, 1.7976931348623157e308, 5e-324, 1e400, -1e400]"))
print(json.loads("[NaN, Infinity, -Infinity]"))
print(repr(json.loads("12345678901234567")), repr(json.loads("-123456789012345678")), json.loads("0.1") + json.loads("0.2"))
# ---- loads_strings
import json
print(json.loads('"\\u00e9\\u6771\\ud83c\\udf89"'), json.loads('"\\n\\t\\/\\b\\f\\r\\"\\\\"') == "\n\t/\b\f\r\"\\", repr(json.loads('"\\u0000"')))
print(json.loads('["Zoë", "東京", "🎉"]'), json.loads('"\\u00E9\\u00e9"'))
print(json.loads('"tab\there"', strict=False) == "tab\there", json.loads('{"a": "x\\ny"}')["a"])
# ---- loads_errors
import json
for bad in ["{'single': 1}", "[1, 2,]", "", "  ", '{"a" 1}', "nul", "[1] x", '"unterminated', "[1 2]", '{"a": 1 "b": 2}',
            "{", '{"a"', '{"a":', "[", "[1", "-", "01", "1.", "1e", "1e+", "-inf", "tru", "nan", "+1", ".5",
            '"\\x"', '"\\u12"', '"\\u12g4"', '"\\uZZZZ"', '"a\tb"', '"a\nb"', '{"a":1,}', "[,]", "{,}", '["a" : 1]', "é", '"é\\q"', '[1,\n 2,\n oops]',
            '"\\ud83d\\u12"', '"\\', '"abc\\']:
    try:
        json.loads(bad)
        print("no error", repr(bad))
    except json.JSONDecodeError as e:
        print(repr(bad), "->", e.msg, "|", e.pos, e.lineno, e.colno, "|", e)
# ---- loads_error_attributes
import json
try:
    json.loads('{\n  "a": 1,\n  "b": oops\n}')
except ValueError as e:
    print(type(e).__name__, e, e.args, repr(e.doc), e.pos, e.lineno, e.colno)
    print(isinstance(e, json.JSONDecodeError), isinstance(e, ValueError), type(e).__module__, json.decoder.JSONDecodeError is json.JSONDecodeError)
# ---- loads_error_uncaught
import json
json.loads('{"a": 1,}')
# ---- loads_error_non_ascii_position
import json
try:
    json.loads('["é", "東京", x]')
except json.JSONDecodeError as e:
    print(e.pos, e.colno, e)
try:
    json.loads('"é\n東\nx\\z"', strict=False)
except json.JSONDecodeError as e:
    print(e.pos, e.lineno, e.colno, e)
# ---- loads_bom
import json
json.loads("\ufeff[1]")
# ---- loads_bytes
import json
print(json.loads(b'{"a": [1, "\xc3\xa9"]}'), json.loads(bytearray(b"[2]")), json.loads(b"\xef\xbb\xbf[3]"))
print(json.loads('[1]'.encode("utf-16")), json.loads('[1]'.encode("utf-16-le")), json.loads('[4]'.encode("utf-32")), json.loads('"x"'.encode("utf-16-be")))
# ---- loads_bytes_bad_utf8
import json
json.loads(b'"\xff"')
# ---- loads_type_error
import json
for v in [1, None, [1]]:
    try:
        json.loads(v)
    except TypeError as e:
        print(e)
# ---- loads_hooks
import json
print(json.loads('{"a": 1.5, "b": [2.25]}', parse_float=lambda s: "F" + s))
print(json.loads('{"a": {"b": 1}}', object_hook=lambda d: sorted(d.items())))
print(json.loads('[1, 2, -3]', parse_int=lambda s: int(s) * 10))
print(json.loads('[NaN, -Infinity, Infinity]', parse_constant=lambda s: "C:" + s))
print(json.loads('{"a": 1, "a": 2, "b": {}}', object_pairs_hook=lambda ps: ps))
print(json.loads('{"a": 1}', object_pairs_hook=lambda ps: ("pairs", ps), object_hook=lambda d: "hook"))
# ---- loads_parse_float_decimal_like
import json
print(json.loads("[1.10, 2]", parse_float=str, parse_int=float))
# ---- loads_hook_errors
import json
def bad(d):
    raise KeyError("nope")
try:
    json.loads('{"a": 1}', object_hook=bad)
except KeyError as e:
    print("KeyError", e)
try:
    json.loads('[1.5]', parse_float=int)
except ValueError as e:
    print(e)
# ---- loads_big_int_limit
import json
try:
    json.loads("1" * 5000)
except ValueError as e:
    print(type(e).__name__, e)
# ---- loads_duplicate_keys_and_whitespace
import json
print(json.loads('  {"a": 1, "a": 2}  '), json.loads('\n[\n1\n]\n'))
# ---- loads_args
import json
for call in [lambda: json.loads(), lambda: json.loads("1", "2"), lambda: json.loads("1", foo=2), lambda: json.loads(s="[1]")]:
    try:
        print(call())
    except TypeError as e:
        print(e)
# ---- load_from_file_like
import json
class R:
    def read(self):
        return '{"k": [true]}'
print(json.load(R()), json.load(R(), object_hook=dict.keys))
# ---- decoder_class
import json
d = json.JSONDecoder()
print(d.decode(' [1, {"a": null}] '), d.raw_decode('[1] x'), d.raw_decode('xx "é" [2]', 3), d.raw_decode('{"a":1}{"b":2}'))
print(d.strict, d.object_hook, d.parse_float is float, d.parse_int is int, d.object_pairs_hook)
print(json.JSONDecoder(object_hook=lambda o: "H").decode('{"x": {}}'))
print(json.JSONDecoder(strict=False).decode('"a\nb"') == "a\nb")
try:
    d.raw_decode("[1]", -1)
except ValueError as e:
    print(e)
try:
    d.raw_decode("[1]", 5)
except json.JSONDecodeError as e:
    print(e)
try:
    d.decode(b"[1]")
except TypeError as e:
    print(e)
try:
    d.raw_decode(b"[1]")
except TypeError as e:
    print(e)
# ---- loads_cls
import json
class D(json.JSONDecoder):
    def __init__(self, **kw):
        print("kw", sorted(kw))
        super().__init__(object_hook=self.hook, **kw)
    def hook(self, d):
        return {k.upper(): v for k, v in d.items()}
print(json.loads('{"a": {"b": 1}}', cls=D, parse_int=str))
# ---- loads_deep_nesting
import json
try:
    json.loads("[" * 100000 + "]" * 100000)
except RecursionError as e:
    print("RecursionError", str(e)[:60])
print(len(json.dumps(json.loads("[" * 50 + "]" * 50))))
# ---- roundtrip
import json
orig = {"users": [{"id": i, "name": f"user{i}", "scores": [i * 1.5, i / 4]} for i in range(3)], "ok": True, "none": None}
for kw in [{}, {"indent": 2}, {"sort_keys": True, "separators": (",", ":")}, {"ensure_ascii": False}]:
    s = json.dumps(orig, **kw)
    print(json.loads(s) == orig, len(s))
u = {"é": ["東京", "🎉", "\x00\x7f"]}
print(json.loads(json.dumps(u)) == u, json.loads(json.dumps(u, ensure_ascii=False)) == u)
# ---- json_lines
import json
lines = '{"lvl": "info", "ms": 12}\n{"lvl": "error", "ms": 340}\n\n{"lvl": "info", "ms": 8}\n'
recs = [json.loads(l) for l in lines.splitlines() if l.strip()]
print(len(recs), sum(r["ms"] for r in recs), [r["lvl"] for r in recs if r["ms"] > 10])
print(json.dumps({"errors": sum(r["lvl"] == "error" for r in recs)}))
# ---- module_attributes
import json
print(json.__all__, sorted(n for n in dir(json) if n in json.__all__) == sorted(json.__all__))
print(json.JSONDecodeError.__mro__)
from json import decoder, encoder
print(decoder.JSONDecoder is json.JSONDecoder, encoder.JSONEncoder is json.JSONEncoder)
# ---- decode_error_constructed
import json
e = json.JSONDecodeError("msg", "ab\ncd", 4)
print(e, e.args, e.msg, e.doc, e.pos, e.lineno, e.colno, repr(e))
e = json.JSONDecodeError("first", "xyz", 0)
print(e.lineno, e.colno, str(e))
# ---- refused_iterencode
import json
print("start")
list(json.JSONEncoder().iterencode([1]))
# ---- refused_lone_surrogate
import json
print("start")
json.loads('"\\ud800"')
