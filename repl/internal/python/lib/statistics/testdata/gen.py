# Records CPython 3.12's statistics results for the Go kernel's tests.
# Regenerate from this directory with:
#   /root/.pyenv/versions/3.12.1/bin/python3.12 testdata/gen.py > testdata/cases.json
# Values are {"i": decimal}, {"b": bool} or {"f": repr}; errors "Type: message".
import json, math, random, statistics, sys
assert sys.version_info[:2] == (3, 12)
r = random.Random(5)

def enc(v):
    if isinstance(v, bool): return {"b": v}
    if isinstance(v, int): return {"i": str(v)}
    if isinstance(v, float): return {"f": repr(v)}
    if isinstance(v, (list, tuple)): return [enc(x) for x in v]
    raise TypeError(type(v))

def rval(kind):
    if kind == "int": return r.randint(-100, 100)
    if kind == "bigint": return r.randint(-10**30, 10**30)
    if kind == "posint": return r.randint(1, 1000)
    if kind == "float": return r.uniform(-100, 100)
    if kind == "posfloat": return r.uniform(0.001, 1000)
    if kind == "dec": return round(r.uniform(-10, 10), 1)
    if kind == "tiny": return r.uniform(-1, 1) * 1e-300
    if kind == "huge": return r.uniform(-1, 1) * 1e300
    if kind == "bool": return r.random() < 0.5
    if kind == "mixed": return rval(r.choice(["int", "float", "dec"]))
    if kind == "special": return r.choice([math.inf, -math.inf, math.nan, 1.0, 2])
    raise ValueError(kind)

KINDS = ["int", "bigint", "posint", "float", "posfloat", "dec", "tiny", "huge", "bool", "mixed"]

def dataset(kinds=KINDS, lo=0, hi=12):
    k = r.choice(kinds)
    return [rval(k) for _ in range(r.randint(lo, hi))]

def run(fn, *a, **kw):
    try:
        v = fn(*a, **kw)
        if isinstance(v, tuple):
            return enc(list(v))
        return enc(v)
    except Exception as e:
        return "%s: %s" % (type(e).__name__, e)

cases = []
def add(fn, args, kw, out):
    cases.append({"fn": fn, "args": [enc(a) if a is not None and not isinstance(a, str) else a for a in args], "kw": kw, "out": out})

for i in range(500):
    data = dataset()
    if r.random() < 0.05:
        data.append(rval("special"))
    for fn in ["mean", "fmean", "variance", "pvariance", "stdev", "pstdev", "geometric_mean", "harmonic_mean"]:
        add(fn, [data], {}, run(getattr(statistics, fn), data))
    if r.random() < 0.3 and data:
        c = r.choice([data[0], 0, 1.5, statistics.fmean(data) if all(math.isfinite(x) for x in data) else 0.0])
        add("variance", [data, c], {}, run(statistics.variance, data, c))
        add("pvariance", [data, c], {}, run(statistics.pvariance, data, c))
        add("stdev", [data, c], {}, run(statistics.stdev, data, c))
        add("pstdev", [data, c], {}, run(statistics.pstdev, data, c))
    if r.random() < 0.3:
        w = [rval(r.choice(["posint", "posfloat", "bool"])) for _ in range(len(data) + r.choice([0, 0, 0, 1]))]
        add("fmean", [data, w], {}, run(statistics.fmean, data, w))
        add("harmonic_mean", [data, w], {}, run(statistics.harmonic_mean, data, w))
    if all(not (isinstance(x, float) and math.isnan(x)) for x in data):
        for fn in ["median", "median_low", "median_high", "median_grouped"]:
            add(fn, [data], {}, run(getattr(statistics, fn), data))
        if r.random() < 0.3:
            iv = r.choice([0.5, 2.0, 10.0])
            add("median_grouped", [data, iv], {}, run(statistics.median_grouped, data, iv))
        n = r.choice([1, 2, 3, 4, 5, 10, 0])
        for m in ["exclusive", "inclusive"]:
            add("quantiles", [data], {"n": n, "method": m}, run(statistics.quantiles, data, n=n, method=m))
    modedata = [r.choice([1, 2, 2.0, True, 3, 0, False, 0.0, 2.5, 10**20]) for _ in range(r.randint(0, 10))]
    add("mode", [modedata], {}, run(statistics.mode, modedata))
    add("multimode", [modedata], {}, run(statistics.multimode, modedata))
    x = dataset(["int", "float", "dec", "mixed", "posint", "bigint"], 0, 10)
    y = [rval(r.choice(["int", "float", "dec"])) for _ in range(len(x) + r.choice([0, 0, 0, 0, 1]))]
    if r.random() < 0.1:
        y = [5] * len(x)
    add("covariance", [x, y], {}, run(statistics.covariance, x, y))
    add("correlation", [x, y], {}, run(statistics.correlation, x, y))
    add("correlation", [x, y], {"method": "ranked"}, run(statistics.correlation, x, y, method="ranked"))
    add("linear_regression", [x, y], {}, run(statistics.linear_regression, x, y))
    add("linear_regression", [x, y], {"proportional": True}, run(statistics.linear_regression, x, y, proportional=True))
    p = [rval(r.choice(["int", "float", "bigint", "bool"])) for _ in range(r.randint(0, 8))]
    q = [rval(r.choice(["int", "float", "bigint", "bool"])) for _ in range(len(p))]
    add("sumprod", [p, q], {}, run(math.sumprod, p, q))
    add("fsum", [p], {}, run(math.fsum, p))
# Fixed edge cases.
for data in [[], [1], [True, True], [1, 2, 3, 4], [1.5, 2, 3], [10**400, 1], [1e308, 1e308, -1e308], [math.inf, -math.inf],
             [0.1] * 10, [1e-320, 3e-321], [2**53 + 1, 1.0], [-1, 4], [0, 4], [5e-324, 5e-324]]:
    for fn in ["mean", "fmean", "variance", "pvariance", "stdev", "pstdev", "geometric_mean", "harmonic_mean", "median", "median_grouped"]:
        add(fn, [data], {}, run(getattr(statistics, fn), data))
    add("fsum", [data], {}, run(math.fsum, data))
add("quantiles", [[1, 2, 3]], {"n": 4, "method": "bogus"}, run(statistics.quantiles, [1, 2, 3], n=4, method="bogus"))
add("correlation", [[1, 2, 3], [1, 2, 4]], {"method": "other"}, run(statistics.correlation, [1, 2, 3], [1, 2, 4], method="other"))
add("sumprod", [[1.5, 2**70, 3], [2, 1.5, 4.25]], {}, run(math.sumprod, [1.5, 2**70, 3], [2, 1.5, 4.25]))
add("sumprod", [[2**62, 2**62, 1.5], [4, 4, 2.0]], {}, run(math.sumprod, [2**62, 2**62, 1.5], [4, 4, 2.0]))
add("sumprod", [[10**400, 1], [1.5]], {}, run(math.sumprod, [10**400, 1], [1.5]))
add("sumprod", [[True, 0.1, 0.2], [True, 0.3, 0.7]], {}, run(math.sumprod, [True, 0.1, 0.2], [True, 0.3, 0.7]))
add("sumprod", [[1e308, 1e308, -1e308], [10.0, 1.0, 10.0]], {}, run(math.sumprod, [1e308, 1e308, -1e308], [10.0, 1.0, 10.0]))
for c in cases:
    print(json.dumps(c))
