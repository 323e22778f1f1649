# Records CPython 3.12's csv results for the Go kernel's tests.
# Regenerate from this directory with:
#   /root/.pyenv/versions/3.12.1/bin/python3.12 testdata/gen.py > testdata/cases.json
# Each line is one JSON case. Reader results: a list of [row, line_num] and
# a final error ("Type: message") or null; floats are {"f": repr}.
import csv, io, json, random, sys
assert sys.version_info[:2] == (3, 12)

r = random.Random(11)
ALPHA = [',', ',', '"', '"', '\\', '\n', '\r', ' ', ' ', '\t', ';', "'", 'a', 'b', 'c', '1', '2', '.', 'é', '\r\n', 'x', 'e']
QUOTINGS = [0, 1, 2, 3, 4, 5]

def dialect():
    d = {}
    if r.random() < 0.3: d["delimiter"] = r.choice([",", ";", "\t", " ", "a"])
    if r.random() < 0.3: d["quotechar"] = r.choice(['"', "'", None, "|"])
    if r.random() < 0.4: d["escapechar"] = r.choice(["\\", None, "'"])
    if r.random() < 0.3: d["doublequote"] = r.random() < 0.5
    if r.random() < 0.3: d["skipinitialspace"] = r.random() < 0.5
    if r.random() < 0.3: d["lineterminator"] = r.choice(["\r\n", "\n", "|", "\r", "!!"])
    if r.random() < 0.5: d["quoting"] = r.choice(QUOTINGS)
    if r.random() < 0.3: d["strict"] = r.random() < 0.5
    if r.random() < 0.2: d["dialect"] = r.choice(["excel", "excel-tab", "unix"])
    return d

def enc(v):
    if isinstance(v, float):
        return {"f": repr(v)}
    if isinstance(v, list):
        return [enc(x) for x in v]
    if isinstance(v, dict):
        return [[enc(k), enc(x)] for k, x in v.items()]
    return v

def err(e):
    return "%s: %s" % (type(e).__name__, e)

def read(lines, d, limit=None):
    old = csv.field_size_limit()
    if limit is not None:
        csv.field_size_limit(limit)
    out = []
    try:
        rd = csv.reader(lines, **d)
        for row in rd:
            out.append([enc(row), rd.line_num])
        e = None
    except Exception as ex:
        e = err(ex)
    finally:
        csv.field_size_limit(old)
    return out, e

def randline():
    n = r.randint(0, 12)
    return "".join(r.choice(ALPHA) for _ in range(n))

cases = []
FIXED = [
    ['a,b,c\r\n', '1,2,3\r\n'], ['"a,b",c\n'], ['"multi\n', 'line",x\n', 'y\n'], ['"unterminated\n'],
    ['a"b,c\n'], ['"a"b,c\n'], ['"a""b",c\n'], ['\n', '\r\n', 'a\n', '\n'], ['a\rb\n'], ['a\nb'],
    ['x\\,y,z\n'], ['"x\\"y",z\n'], ['a\\\n', 'b\n'], ['a\\'], ['"a\\'], ['  a,  "b"\n'],
    ['1,2.5,-3e4, 7 ,"x"\n'], ['1,abc\n'], ['inf,nan,1_000\n'], ['', ''], [], ['a,b\n', 'c,d'],
    ['"a"\n', '"b" \n'], ['"a" ,b\n'], ['a,"b\r\n', 'c"\r\n'], ['"\n', '"\n'], ['\r'], ['\r\r\n'],
]
for lines in FIXED:
    for d in [{}, {"strict": True}, {"escapechar": "\\"}, {"quoting": 2}, {"quoting": 3}, {"skipinitialspace": True},
              {"doublequote": False}, {"quotechar": None}, {"doublequote": False, "escapechar": "\\"}, {"dialect": "excel-tab"}]:
        out, e = read(lines, d)
        cases.append({"kind": "read", "lines": lines, "dialect": d, "rows": out, "err": e})
for i in range(1500):
    lines = [randline() for _ in range(r.randint(0, 5))]
    d = dialect()
    try:
        csv.reader([], **d)
    except Exception:
        continue
    out, e = read(lines, d)
    cases.append({"kind": "read", "lines": lines, "dialect": d, "rows": out, "err": e})
for lines, limit in [(['abc,abcd\n'], 3), (['abc,abc\n'], 3), (['"abc""\n'], 3), (['"ab\n', 'c"\n'], 3), (['a\\bc\n'], 3), ([''], 0), (['a'], 0)]:
    for d in [{}, {"escapechar": "\\"}]:
        out, e = read(lines, d, limit)
        cases.append({"kind": "read", "lines": lines, "dialect": d, "limit": limit, "rows": out, "err": e})

VALS = ["", "a", "a,b", 'q"uote', "new\nline", "cr\rx", " lead", "trail ", "tab\tx", "semi;colon", "back\\slash",
        "pipe|x", "apos'x", "é", "!!", None, 0, 1.5, -2, True, 1e100, float("inf")]
def wenc(v):
    if v is None: return {"none": True}
    if isinstance(v, str): return {"s": v}
    return {"n": str(v)}
for i in range(1500):
    d = dialect()
    try:
        csv.writer(io.StringIO(), **d)
    except Exception as ex:
        cases.append({"kind": "dialect", "dialect": d, "err": err(ex)})
        continue
    rows = [[r.choice(VALS) for _ in range(r.randint(0, 4))] for _ in range(r.randint(1, 3))]
    s = io.StringIO()
    w = csv.writer(s, **d)
    res = []
    for row in rows:
        try:
            n = w.writerow(row)
            res.append(s.getvalue())
        except Exception as ex:
            res.append(err(ex))
        s.seek(0); s.truncate()
    cases.append({"kind": "write", "dialect": d, "wrows": [[wenc(v) for v in row] for row in rows], "out": res})
# Dialect checks.
for d in [dict(delimiter=''), dict(delimiter='ab'), dict(quotechar=''), dict(escapechar='ab'), dict(quoting=9), dict(quoting=-1)] + \
         [dict(quoting=q, quotechar=None) for q in QUOTINGS]:
    try:
        csv.reader([], **d); e = None
    except Exception as ex:
        e = err(ex)
    cases.append({"kind": "dialect", "dialect": d, "err": e})
# DictReader.
for lines, kw in [(['a,b,c\n', '1,2\n', '\n', '1,2,3,4,5\n', '\n', 'x,y,z\n'], {}),
                  (['a,b\n', '1,2,3\n'], {"restkey": "rest", "restval": "?"}),
                  ([], {}), (['\n', 'h1,h2\n', '\n', '\n', 'v1\n'], {}),
                  (['1,2\n', '3,4\n'], {"fieldnames": ["x", "y", "x"]}),
                  (['a,a\n', '1,2\n'], {}),
                  (['a,b\n', '"1\n', '2",3\n', '\n', '4,5\n'], {})]:
    out = []
    try:
        dr = csv.DictReader(lines, **kw)
        for row in dr:
            out.append([enc(row), dr.line_num])
        e = None
    except Exception as ex:
        e = err(ex)
    cases.append({"kind": "dictread", "lines": lines, "kw": kw, "rows": out, "err": e})
for c in cases:
    print(json.dumps(c, ensure_ascii=False))
