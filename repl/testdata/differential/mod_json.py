# The json module: loads/dumps, options, errors, Unicode, round trips.
# ---- loads_basic
import json
doc = json.loads('{"name": "Ann", "age": 31, "tags": ["a", "b"], "active": true, "score": 9.5, "boss": null}')
print(doc)
print(type(doc["age"]).__name__, type(doc["score"]).__name__, doc["boss"] is None, doc["active"] is True)
# ---- dumps_basic
import json
data = {"b": 1, "a": [1, 2.5, None, True, False], "c": {"nested": "x"}, "s": "quote\"back\\slash"}
print(json.dumps(data))
print(json.dumps(data, sort_keys=True))
print(json.dumps([1, "two"]), json.dumps("é"), json.dumps(None), json.dumps(3.0), json.dumps(10 ** 20))
# ---- dumps_indent_separators
import json
data = {"x": [1, {"y": []}], "z": {}}
print(json.dumps(data, indent=2))
print(json.dumps(data, indent="\t"))
print(json.dumps(data, separators=(",", ":")))
print(json.dumps([], indent=2), json.dumps({}, indent=2), json.dumps([1], indent=0))
# ---- dumps_unicode_ascii
import json
s = {"name": "Zoë", "city": "東京", "emoji": "🎉", "ctl": "tab\tnl\n"}
print(json.dumps(s))
print(json.dumps(s, ensure_ascii=False))
print(json.loads(json.dumps(s)) == s)
# ---- loads_unicode_escapes
import json
print(json.loads('"\\u00e9\\u6771\\ud83c\\udf89"'), json.loads('"\\n\\t\\/"'), repr(json.loads('"\\u0000"')))
print(json.loads('["Zoë", "東京"]'))
# ---- float_formatting
import json
print(json.dumps([0.1, 1e16, 1.5e-7, 100.0, -0.0, 1 / 3]))
print(json.dumps(float("inf")), json.dumps(float("nan")))
print(json.loads("[1e2, 1E-2, -0.0, 12345678901234567890, 1.0]"))
# ---- dumps_nan_disallowed
import json
json.dumps(float("nan"), allow_nan=False)
# ---- dumps_non_serializable
import json
json.dumps({"s": {1, 2}})
# ---- dumps_default_hook
import json
class Pt:
    def __init__(self, x, y):
        self.x, self.y = x, y
print(json.dumps({"p": Pt(1, 2), "s": {3}}, default=lambda o: sorted(o) if isinstance(o, set) else vars(o)))
# ---- dumps_key_conversion
import json
print(json.dumps({1: "a", 2.5: "b", True: "c", None: "d"}))
print(json.loads(json.dumps({1: "a"})))
# ---- dumps_tuple_becomes_list
import json
print(json.dumps((1, (2, 3))), json.loads(json.dumps({"t": (1, 2)})))
# ---- loads_errors
import json
for bad in ["{'single': 1}", "[1, 2,]", "", "{\"a\" 1}", "nul", "[1] x", '"unterminated']:
    try:
        json.loads(bad)
    except json.JSONDecodeError as e:
        print(repr(bad), "->", e.msg, e.pos, e.lineno, e.colno)
# ---- loads_error_uncaught
import json
json.loads('{"a": 1,}')
# ---- loads_error_multiline_position
import json
try:
    json.loads('{\n  "a": 1,\n  "b": oops\n}')
except ValueError as e:
    print(type(e).__name__, e)
# ---- object_hook_and_parse_float
import json
print(json.loads('{"a": 1.5, "b": [2.25]}', parse_float=lambda s: "F" + s))
print(json.loads('{"a": {"b": 1}}', object_hook=lambda d: sorted(d.items())))
print(json.loads('[1, 2]', parse_int=lambda s: int(s) * 10))
# ---- roundtrip_nested
import json
orig = {"users": [{"id": i, "name": f"user{i}", "scores": [i * 1.5, i / 4]} for i in range(3)], "ok": True}
s = json.dumps(orig, sort_keys=True, indent=1)
back = json.loads(s)
print(back == orig, len(s), s.count("\n"))
print(back["users"][2])
# ---- json_lines_processing
import json
lines = '{"lvl": "info", "ms": 12}\n{"lvl": "error", "ms": 340}\n\n{"lvl": "info", "ms": 8}\n'
recs = [json.loads(l) for l in lines.splitlines() if l.strip()]
print(len(recs), sum(r["ms"] for r in recs), [r["lvl"] for r in recs if r["ms"] > 10])
print(json.dumps({"errors": sum(r["lvl"] == "error" for r in recs)}))
# ---- loads_duplicate_keys_and_whitespace
import json
print(json.loads('  {"a": 1, "a": 2}  '), json.loads('\n[\n1\n]\n'), json.loads("true"), json.loads("12"))
# ---- dumps_special_strings
import json
for s in ["\x00", "\x1f", "\x7f", "\u2028", "</script>", "\\", "'"]:
    print(json.dumps(s), json.dumps(s, ensure_ascii=False))
# ---- dumps_sort_keys_mixed_types_error
import json
json.dumps({"a": 1, 2: "b"}, sort_keys=True)
# ---- json_pretty_report
import json
report = {"summary": {"errors": 3, "warnings": 10}, "top": [["auth", 2], ["db", 1]], "ratio": 0.125}
print(json.dumps(report, indent=4, sort_keys=True))
# ---- loads_big_numbers_and_constants
import json
print(json.loads("[123456789012345678901234567890, 1.7976931348623157e308, 5e-324, -1e400]"))
print(json.loads("[NaN, Infinity, -Infinity]"))
