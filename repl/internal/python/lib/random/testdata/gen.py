# Records CPython 3.12's random module draws for the Go kernel's tests.
# Regenerate (from this directory's parent) with:
#   /root/.pyenv/versions/3.12.1/bin/python3.12 testdata/gen.py > testdata/cases.json
# Each line of the output is one JSON case: a seed, an operation with its
# arguments, the number of calls, and each call's result (ints and floats as
# their repr, errors as "Type: message"), then the state's first words after.
import json, random, sys

assert sys.version_info[:2] == (3, 12)

SEEDS = [
    ("int", 0), ("int", 1), ("int", 42), ("int", -42), ("int", 2**32 - 1), ("int", 2**32),
    ("int", 2**64 + 12345), ("int", -(3**100)), ("int", 123456789012345678901234567890),
    ("str", ""), ("str", "hello"), ("str", "héllo wörld ✓"), ("bytes", "abc"),
    ("float", 1.5), ("float", -2.25), ("float", 1e300), ("v1", "spam"), ("v1", ""),
]

def seeded(kind, val):
    r = random.Random()
    if kind == "int" or kind == "float":
        r.seed(val)
    elif kind == "str":
        r.seed(val)
    elif kind == "bytes":
        r.seed(val.encode())
    elif kind == "v1":
        r.seed(val, version=1)
    return r

def enc(v):
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, list):
        return [enc(x) for x in v]
    if isinstance(v, bytes):
        return v.hex()
    return v

POP = list(range(1000))

OPS = [
    ("random", [], 200),
    ("getrandbits", [0], 3), ("getrandbits", [1], 50), ("getrandbits", [7], 50),
    ("getrandbits", [32], 50), ("getrandbits", [33], 50), ("getrandbits", [64], 50),
    ("getrandbits", [65], 30), ("getrandbits", [200], 20), ("getrandbits", [-1], 1),
    ("randbytes", [0], 2), ("randbytes", [5], 20), ("randbytes", [13], 10),
    ("randrange", [10], 100), ("randrange", [0], 1), ("randrange", [-3], 1),
    ("randrange", [3, 17], 100), ("randrange", [5, 5], 1), ("randrange", [-10, 10, 3], 100),
    ("randrange", [10, -10, -3], 100), ("randrange", [0, 10, 0], 1), ("randrange", [0, 10, -1], 1),
    ("randrange", [10, None, 2], 1), ("randrange", [10, None, 1], 10),
    ("randrange", [0, 2**100], 30), ("randrange", [-2**70, 2**70, 7**20], 30),
    ("randrange", [1, 2**64], 30), ("randrange", [0, 2**64 + 1], 30),
    ("randint", [1, 6], 200), ("randint", [-5, -5], 5), ("randint", [3, 2], 1),
    ("randint", [0, 10**30], 20),
    ("choice", [0], 1), ("choice", [1], 5), ("choice", [7], 100), ("choice", [1000], 100),
    ("shuffle", [0], 1), ("shuffle", [1], 1), ("shuffle", [10], 20), ("shuffle", [100], 3),
    ("sample", [10, 3], 20), ("sample", [10, 10], 5), ("sample", [10, 0], 2), ("sample", [10, 11], 1),
    ("sample", [10, -1], 1), ("sample", [1000, 5], 10), ("sample", [1000, 6], 10),
    ("sample", [1000, 50], 3), ("sample", [1000, 400], 1), ("sample", [30, 21], 3), ("sample", [22, 5], 5),
    ("sample", [1000, 1000], 1), ("sample", [100, 30], 5),
    ("samplecounts", [[4, 2], 5], 10), ("samplecounts", [[1, 0, 3, 100], 50], 3),
    ("samplecounts", [[0, 0], 1], 1), ("samplecounts", [[2, -1, 5], 3], 5),
    ("samplecounts", [[10**20, 5], 4], 5), ("samplecounts", [[3, 3], 7], 1),
    ("samplecounts", [[], 0], 1),
    ("choices", [10, None, 5], 20), ("choices", [3, None, 0], 2), ("choices", [3, None, -2], 2),
    ("choices", [0, None, 3], 1), ("choices", [4, [1, 2, 3, 4], 10], 10),
    ("choices", [4, [0.5, 0, 0, 10], 10], 10), ("choices", [3, [0, 0, 0], 1], 1),
    ("choices", [3, [1, 2], 1], 1), ("choices", [0, [], 1], 1),
    ("choices", [2, [1e308, 1e308], 1], 1), ("choices", [2, [1, -5], 1], 1),
    ("cumchoices", [4, [1, 1, 5, 5], 20], 5), ("cumchoices", [3, [0.1, 0.2, 0.30000000000000004], 30], 3),
    ("uniform", [0.0, 1.0], 50), ("uniform", [-3.5, 7.25], 50), ("uniform", [5.0, 1.0], 20),
    ("triangular", [0.0, 1.0, None], 50), ("triangular", [1.0, 10.0, 3.0], 50),
    ("triangular", [2.0, 2.0, 2.0], 5), ("triangular", [10.0, 1.0, 9.0], 30),
    ("normalvariate", [0.0, 1.0], 100), ("normalvariate", [100.0, 15.0], 50),
    ("gauss", [0.0, 1.0], 101), ("gauss", [-5.0, 0.5], 51),
    ("lognormvariate", [0.0, 1.0], 50), ("lognormvariate", [1000.0, 1.0], 2),
    ("expovariate", [1.0], 100), ("expovariate", [0.25], 50), ("expovariate", [0.0], 1), ("expovariate", [-2.0], 20),
    ("vonmisesvariate", [0.0, 0.0], 30), ("vonmisesvariate", [1.0, 4.0], 100), ("vonmisesvariate", [-2.0, 0.5], 50),
    ("gammavariate", [0.5, 1.0], 100), ("gammavariate", [1.0, 2.0], 50), ("gammavariate", [2.5, 3.0], 100),
    ("gammavariate", [0.0, 1.0], 1), ("gammavariate", [1.0, -1.0], 1), ("gammavariate", [30.0, 0.1], 50),
    ("betavariate", [2.0, 5.0], 100), ("betavariate", [0.5, 0.5], 50),
    ("paretovariate", [1.0], 50), ("paretovariate", [3.5], 50), ("paretovariate", [0.0], 1),
    ("weibullvariate", [1.0, 1.5], 50), ("weibullvariate", [2.0, 0.0], 1),
    ("binomialvariate", [1, 0.5], 50), ("binomialvariate", [10, 0.3], 100), ("binomialvariate", [100, 0.05], 50),
    ("binomialvariate", [100, 0.5], 100), ("binomialvariate", [1000, 0.9], 50), ("binomialvariate", [10**6, 0.37], 50),
    ("binomialvariate", [5, 0.0], 2), ("binomialvariate", [5, 1.0], 2), ("binomialvariate", [-1, 0.5], 1),
    ("binomialvariate", [5, 1.5], 1), ("binomialvariate", [0, 0.5], 3),
]

def call(r, op, args):
    if op == "shuffle":
        x = list(range(args[0])); r.shuffle(x); return x
    if op == "sample":
        return r.sample(range(args[0]), args[1])
    if op == "samplecounts":
        counts, k = args[0], args[1]
        return r.sample(list(range(len(counts))), k, counts=counts)
    if op == "choices":
        n, w, k = args
        return r.choices(list(range(n)), w, k=k)
    if op == "cumchoices":
        n, w, k = args
        return r.choices(list(range(n)), cum_weights=w, k=k)
    if op == "choice":
        return r.choice(list(range(args[0])))
    if op == "triangular":
        return r.triangular(*args)
    return getattr(r, op)(*args)

for kind, val in SEEDS:
    for op, args, n in OPS:
        r = seeded(kind, val)
        out = []
        for _ in range(n):
            try:
                out.append(enc(call(r, op, args)))
            except Exception as e:
                out.append("%s: %s" % (type(e).__name__, e))
        st = r.getstate()
        argsenc = [a if not isinstance(a, int) or abs(a) < 2**53 else str(a) for a in args]
        print(json.dumps({"seed": [kind, val if not isinstance(val, int) or abs(val) < 2**53 else str(val)],
                          "op": op, "args": argsenc, "calls": out,
                          "state": [st[1][0], st[1][1], st[1][-1]], "gauss": repr(st[2])}))
