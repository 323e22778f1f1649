# Cases for the csv module wrapper; module_gen.py records CPython's output.
# The cases use a small file class rather than io.StringIO.
# ---- reader_basics
import csv
class F:
    def __init__(self, text):
        self.lines = text.splitlines(keepends=True)
    def __iter__(self):
        return iter(self.lines)
data = 'name,age,city\nAnn,34,Oslo\n"Lee, Bo",27,"New\nYork"\nCé,45,"say ""hi"""\n\n,,\nlast'
r = csv.reader(F(data))
print(r.line_num, type(r).__name__, iter(r) is r)
for row in r:
    print(r.line_num, row)
print(list(csv.reader(["a,b", "", "c"])), list(csv.reader([])), list(csv.reader("abc")))
print(list(csv.reader(data.splitlines())))
# ---- reader_dialects
import csv
print(list(csv.reader(["a\tb\tc", "1\t\t3"], delimiter="\t")), list(csv.reader(["a\tb"], "excel-tab")), list(csv.reader(["a\tb"], csv.excel_tab)))
print(list(csv.reader(["x, y, z"], skipinitialspace=True)), list(csv.reader(["'a,b',c"], quotechar="'")), list(csv.reader(['a\\,b,c'], escapechar="\\")))
print(list(csv.reader(['"a"b,c'])), list(csv.reader(['a"b",c'])), list(csv.reader(['"a,b'])), list(csv.reader(['1,"2",3.5'], quoting=csv.QUOTE_NONNUMERIC)))
print(list(csv.reader(['"a,b",c'], quoting=csv.QUOTE_NONE)), list(csv.reader(['"a,b",c'], quotechar=None)), list(csv.reader(['a;b'], dialect="unix", delimiter=";")))
print(list(csv.reader(['"a""b",c'], doublequote=False, escapechar="\\")), list(csv.reader(["a,b"], dialect=csv.get_dialect("excel"))))
# ---- reader_errors
import csv
for src, kw in [(['a,"b'], {"strict": True}), (['"a"b'], {"strict": True}), ([b"abc"], {}), ([1], {}), (['1,x'], {"quoting": csv.QUOTE_NONNUMERIC}), (["a\0b"], {})]:
    try:
        print(list(csv.reader(src, **kw)))
    except Exception as e:
        print(type(e).__name__, e)
for f in [lambda: csv.reader(), lambda: csv.reader(5), lambda: csv.reader([], "excel", 1), lambda: csv.reader([], "nope"), lambda: csv.reader([], foo=1)]:
    try:
        f()
    except Exception as e:
        print(type(e).__name__, e)
# ---- dialect_params
import csv
def t(f):
    try:
        print(repr(f()))
    except Exception as e:
        print(type(e).__name__, e)
t(lambda: csv.reader([], delimiter=None))
t(lambda: csv.reader([], delimiter=1))
t(lambda: csv.reader([], delimiter="ab"))
t(lambda: csv.reader([], quotechar=None).dialect.quoting)
t(lambda: csv.reader([], quotechar=1))
t(lambda: csv.reader([], quoting=9))
t(lambda: csv.reader([], quoting="a"))
t(lambda: csv.reader([], quoting=csv.QUOTE_ALL, quotechar=None))
t(lambda: csv.reader([], lineterminator=None))
t(lambda: csv.reader([], lineterminator=5))
t(lambda: csv.reader([], escapechar=5))
t(lambda: csv.reader([], escapechar="ab"))
t(lambda: csv.reader([], doublequote=0).dialect.doublequote)
d = csv.reader([], delimiter=";", quotechar="'", escapechar="/", skipinitialspace=1, strict=True, lineterminator="\n", quoting=csv.QUOTE_ALL).dialect
print(d.delimiter, d.quotechar, d.escapechar, d.skipinitialspace, d.strict, repr(d.lineterminator), d.quoting, d.doublequote)
d = csv.get_dialect("excel")
print(d.delimiter, d.quotechar, d.escapechar, d.skipinitialspace, d.strict, repr(d.lineterminator), d.quoting, d.doublequote, d is csv.get_dialect("excel"))
# ---- writer_basics
import csv
class W:
    def __init__(self):
        self.parts = []
    def write(self, s):
        self.parts.append(s)
        return len(s)
    def getvalue(self):
        return "".join(self.parts)
w = W()
cw = csv.writer(w)
print(cw.writerow(["plain", "has,comma", 'has "quote"', "multi\nline", 3, 2.5, None, "", True, 1e20, 1+2j, -0.0]))
print(cw.writerows([[1, 2], ["a b", "c"], (), "xy", range(3)]))
print(repr(w.getvalue()))
class N:
    def __float__(self): return 1.5
    def __str__(self): return "n"
class O:
    def __str__(self): return "o,o"
for q in range(6):
    w = W()
    csv.writer(w, quoting=q, escapechar="\\").writerow(["a", 1, 2.5, None, "", N(), O(), "b,c"])
    print(q, repr(w.getvalue()))
# ---- writer_options
import csv
class W:
    def __init__(self):
        self.parts = []
    def write(self, s):
        self.parts.append(s)
def run(rows, *args, **kw):
    w = W()
    try:
        csv.writer(w, *args, **kw).writerows(rows)
        print(repr("".join(w.parts)))
    except Exception as e:
        print(type(e).__name__, e)
run([["x", 1, 2.5, "y;z"]], delimiter=";", quoting=csv.QUOTE_NONNUMERIC, lineterminator="\n")
run([["it's", "ok"]], quotechar="'", lineterminator="|\n")
run([['a"b', "c"]], doublequote=False, escapechar="\\")
run([['a"b', "c"]], doublequote=False)
run([["a,b"]], quoting=csv.QUOTE_NONE, escapechar="$")
run([["a,b"]], quoting=csv.QUOTE_NONE)
run([[""]])
run([[None]])
run([[""]], quoting=csv.QUOTE_NONE)
run([["a"]], "unix")
run([["a", "b\tc"]], csv.excel_tab)
run([[" lead", "trail "]], skipinitialspace=True)
run([["a\rb"]], lineterminator="\n")
# ---- writer_errors
import csv
class W:
    def write(self, s):
        return None
for f in [lambda: csv.writer(5), lambda: csv.writer(), lambda: csv.writer(W()).writerow(5), lambda: csv.writer(W()).writerow(),
          lambda: csv.writer(W()).writerows(5), lambda: csv.writer(W()).writerows([5]), lambda: csv.writer(W(), "excel", 1)]:
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
# ---- registry
import csv
print(csv.list_dialects())
csv.register_dialect("semi", delimiter=";", quoting=csv.QUOTE_ALL)
csv.register_dialect("tabs", csv.excel_tab)
csv.register_dialect("based", "semi", lineterminator="\n")
print(csv.list_dialects(), csv.get_dialect("semi").delimiter, csv.get_dialect("based").quoting, repr(csv.get_dialect("based").lineterminator))
print(list(csv.reader(["a;b"], "semi")))
csv.unregister_dialect("semi")
print(csv.list_dialects())
for f in [lambda: csv.get_dialect("semi"), lambda: csv.unregister_dialect("semi"), lambda: csv.register_dialect(1), lambda: csv.register_dialect("x", "y"),
          lambda: csv.register_dialect(), lambda: csv.get_dialect(), lambda: csv.register_dialect("bad", delimiter="")]:
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
# ---- field_limit
import csv
print(csv.field_size_limit(), csv.field_size_limit(10), csv.field_size_limit())
print(list(csv.reader(["a" * 10])))
try:
    list(csv.reader(["a" * 11]))
except csv.Error as e:
    print(type(e).__name__, e)
for f in [lambda: csv.field_size_limit("a"), lambda: csv.field_size_limit(1, 2)]:
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
# ---- dialect_classes
import csv
print(csv.excel.delimiter, repr(csv.excel.lineterminator), csv.excel_tab.delimiter, csv.unix_dialect.quoting, csv.Dialect.delimiter, csv.excel()._valid, csv.excel._name)
print(issubclass(csv.excel_tab, csv.excel), issubclass(csv.unix_dialect, csv.Dialect), isinstance(csv.excel(), csv.Dialect))
class D(csv.Dialect):
    delimiter = ";"
    quotechar = "'"
    lineterminator = "\n"
    quoting = csv.QUOTE_MINIMAL
print(list(csv.reader(["a;'b;c'"], D)), D()._valid, list(csv.reader(["a;'b;c'"], D())))
class E(csv.excel):
    delimiter = "|"
print(list(csv.reader(["a|b"], E)))
for f in [lambda: csv.Dialect(), lambda: type("B", (csv.Dialect,), {"delimiter": ";"})(), lambda: list(csv.reader(["a;b"], type("B", (csv.Dialect,), {"delimiter": ";"})))]:
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
print(csv.Error.__mro__, csv.__version__, (csv.QUOTE_MINIMAL, csv.QUOTE_ALL, csv.QUOTE_NONNUMERIC, csv.QUOTE_NONE, csv.QUOTE_STRINGS, csv.QUOTE_NOTNULL))
# ---- dict_reader
import csv
d = csv.DictReader(["a,b", "1,2,3", "", "4"], restkey="rest", restval="RV")
print(d.line_num, d.fieldnames, d.line_num)
print(list(d), d.line_num)
d = csv.DictReader(["1,2"], fieldnames=["x", "y"])
print(d.fieldnames, list(d), d.reader.line_num, d.dialect, d.restkey, d.restval)
print(list(csv.DictReader([])), csv.DictReader([]).fieldnames, list(csv.DictReader(["a,a,b", "1,2,3"])))
print(csv.DictReader(["a;b", "1;2"], delimiter=";").fieldnames, list(csv.DictReader(["a;b", "1;2"], None, None, None, "excel", delimiter=";")))
d = csv.DictReader(["h1,h2", "1,2", "3,4"])
print(next(d), d.line_num)
d.fieldnames = ["X", "Y"]
print(next(d), type(d).__module__, iter(d) is d)
d = csv.DictReader(["a,b", "1,2"], fieldnames=iter(["p", "q"]))
print(d.fieldnames, list(d))
class R(csv.DictReader):
    def upper_rows(self):
        return [{k.upper(): v for k, v in row.items()} for row in self]
print(R(["a,b", "1,2"]).upper_rows())
for f in [lambda: csv.DictReader(), lambda: list(csv.DictReader(5))]:
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
# ---- dict_writer
import csv
class W:
    def __init__(self):
        self.parts = []
    def write(self, s):
        self.parts.append(s)
        return len(s)
w = W()
dw = csv.DictWriter(w, fieldnames=["name", "n"], lineterminator="\n")
print(dw.writeheader(), dw.writerow({"name": "ann", "n": 1}), dw.writerows([{"name": "bob", "n": 2}, {"name": "cy"}]))
print(repr("".join(w.parts)), dw.fieldnames, repr(dw.restval), dw.extrasaction, type(dw.writer).__name__)
w = W()
dw = csv.DictWriter(w, ["a", "b"], restval="?", extrasaction="IGNORE", delimiter=";")
dw.writerow({"c": 1, "a": 5})
dw.writerow({"b": None})
print(repr("".join(w.parts)), dw.extrasaction)
w = W()
csv.DictWriter(w, iter(["x", "y"])).writerow({"x": 1})
print(repr("".join(w.parts)))
for f in [lambda: csv.DictWriter(W(), ["a"]).writerow({"c": 1, "d": 2}), lambda: csv.DictWriter(W(), ["a"], extrasaction="Bad"), lambda: csv.DictWriter(W()),
          lambda: csv.DictWriter(W(), ["a"]).writerow(5)]:
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
# ---- error_extra_key
import csv
class W:
    def write(self, s):
        pass
csv.DictWriter(W(), fieldnames=["a"]).writerow({"a": 1, "b": 2, "zz": 3})
# ---- error_strict
import csv
list(csv.reader(['a,"b'], strict=True))
# ---- refused_sniffer
import csv
print("sniff")
csv.Sniffer().sniff("a,b\n1,2\n")
