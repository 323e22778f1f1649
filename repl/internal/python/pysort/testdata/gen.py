#!/usr/bin/env python3.12
"""Records CPython 3.12's list.sort, comparison by comparison, for package pysort.

Regenerate (from repl/internal/python/pysort) with:

    /root/.pyenv/versions/3.12.1/bin/python3.12 testdata/gen.py

It writes testdata/cases.jsonl.gz: one JSON object a line, one sort a line.
Item i of a case is an object with id i whose __lt__ appends the pair
(self.id, other.id) to a log; the ids are the items' positions before the
sort. Fields:

    name     what the input is (for messages)
    v        the items' values (ints; only their order matters, so they are
             recorded as dense ranks); __lt__ compares them, unless "seed"
    n        instead of v when __lt__ does not look at the values
    reverse  whether the sort was list.sort(reverse=True)
    key      whether the ids sorted were keys computed by key= (the list held
             other objects, whose order is recorded)
    calls    the log, flattened: a0, b0, a1, b1, ... for the calls a < b;
             for a long log (more than FULL calls), instead:
    ncalls   the number of calls, and
    sha256   the SHA-256 of the log written as 4-byte little-endian ids
             a0 b0 a1 b1 ...
    seed, p  for an inconsistent comparison: __lt__ answered the k-th call
             (k from 0) with whether rand(seed, k) < p * 2**64 (see rand),
             not from v
    fail     when present, __lt__ raised on call number fail (0-based; that
             call is the last in calls) and the sort stopped
    order    the ids in the order the list held after the sort (after the
             exception when fail is present); for more than FULL items,
             instead "ordersha256", the SHA-256 of the ids as 4-byte
             little-endian integers

The choices are seeded: the file is the same on every run.
"""

import gzip
import hashlib
import itertools
import json
import os
import random
import struct
import sys

assert sys.version_info[:2] == (3, 12), sys.version

rng = random.Random(20240611)

FULL = 1000
MASK = (1 << 64) - 1


def rand(seed, k):
    """The k-th output of SplitMix64 started at seed."""
    z = (seed + (k + 1) * 0x9E3779B97F4A7C15) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


class Stop(Exception):
    pass


class State:
    def __init__(self):
        self.calls = []
        self.seed = None
        self.threshold = None
        self.fail = None


class K:
    __slots__ = ("id", "v", "st")

    def __init__(self, i, v, st):
        self.id, self.v, self.st = i, v, st

    def __lt__(self, other):
        st = self.st
        st.calls.append(self.id)
        st.calls.append(other.id)
        if st.fail is not None and len(st.calls) // 2 - 1 == st.fail:
            raise Stop
        if st.seed is not None:
            return rand(st.seed, len(st.calls) // 2 - 1) < st.threshold
        return self.v < other.v


class Item:
    """What the list holds in a key= sort: no comparison at all."""

    __slots__ = ("id",)

    def __init__(self, i):
        self.id = i


cases = []
seen = set()


def record(name, v, reverse=False, fail=None, p=None, key=False):
    st = State()
    st.fail = fail
    if p is not None:
        st.seed = rng.getrandbits(64)
        st.threshold = int(p * 2**64)
    keys = [K(i, x, st) for i, x in enumerate(v)]
    if key:
        lst = [Item(i) for i in range(len(v))]
        kw = {"key": lambda it: keys[it.id]}
    else:
        lst = keys
        kw = {}
    try:
        lst.sort(reverse=reverse, **kw)
        failed = False
    except Stop:
        failed = True
    if fail is not None and not failed:
        return  # the sort made fewer calls than fail
    if p is None:
        rank = {x: i for i, x in enumerate(sorted(set(v)))}
        c = {"name": name, "v": [rank[x] for x in v]}
    else:
        c = {"name": name, "n": len(v)}
    if len(st.calls) // 2 <= FULL:
        c["calls"] = st.calls
    else:
        c["ncalls"] = len(st.calls) // 2
        c["sha256"] = hashlib.sha256(struct.pack("<%dI" % len(st.calls), *st.calls)).hexdigest()
    order = [x.id for x in lst]
    if len(order) <= FULL:
        c["order"] = order
    else:
        c["ordersha256"] = hashlib.sha256(struct.pack("<%dI" % len(order), *order)).hexdigest()
    if reverse:
        c["reverse"] = True
    if key:
        c["key"] = True
    if p is not None:
        c["seed"] = str(st.seed)
        c["p"] = p
    if failed:
        c["fail"] = fail
    sig = json.dumps(c, sort_keys=True)
    if sig in seen:
        return
    seen.add(sig)
    cases.append(c)


def ncalls(v, reverse=False):
    st = State()
    lst = [K(i, x, st) for i, x in enumerate(v)]
    lst.sort(reverse=reverse)
    return len(st.calls) // 2


# Every permutation of up to 7 distinct items, and every sequence of up to 7
# items over 3 values (duplicates, strictly and non-strictly descending runs).
for n in range(8):
    for perm in itertools.permutations(range(n)):
        record("perm", list(perm))
for n in range(8):
    for seq in itertools.product(range(3), repeat=n):
        record("dup3", list(seq))
for n in range(6):
    for seq in itertools.product(range(3), repeat=n):
        record("dup3-rev", list(seq), reverse=True)


def shapes(n):
    """Named input shapes of n items."""
    out = {}
    out["random"] = [rng.randrange(1 << 30) for _ in range(n)]
    out["perm"] = rng.sample(range(n), n)
    out["fewvalues"] = [rng.randrange(4) for _ in range(n)]
    out["manydups"] = [rng.randrange(max(1, n // 8)) for _ in range(n)]
    out["sorted"] = list(range(n))
    out["reversed"] = list(range(n, 0, -1))
    out["equal"] = [7] * n
    s = list(range(n))
    for _ in range(max(1, n // 50)):
        if n > 1:
            i, j = rng.randrange(n), rng.randrange(n)
            s[i], s[j] = s[j], s[i]
    out["fewswaps"] = s
    s = sorted(rng.randrange(1000) for _ in range(n))
    for _ in range(rng.randrange(1, 10)):
        if n:
            s[rng.randrange(n)] = rng.randrange(1000)
    out["fewchanged"] = s
    s = []
    while len(s) < n:
        k = rng.choice([1, 2, 3, 5, 8, 20, 64, 100, 300, 1000])
        run = sorted(rng.randrange(10000) for _ in range(k))
        if rng.random() < 0.5:
            run.reverse()
        s += run
    out["runs"] = s[:n]
    s = []
    while len(s) < n:
        k = rng.choice([2, 3, 4, 10, 33, 70, 200])
        run = sorted(rng.randrange(8) for _ in range(k))
        if rng.random() < 0.5:
            run.reverse()  # descending with equal items: not a strict run
        s += run
    out["dupruns"] = s[:n]
    out["sawtooth"] = [i % max(1, n // 7 + 1) for i in range(n)]
    out["organpipe"] = list(range(n // 2)) + list(range(n - n // 2, 0, -1))
    # Galloping: long runs whose items fall in a few clumps of one another.
    a = sorted(rng.randrange(0, 1 << 20) for _ in range(n // 2))
    b = sorted(rng.choice([rng.randrange(0, 100), rng.randrange(1 << 19, (1 << 19) + 100),
                           rng.randrange(1 << 21, 1 << 22)]) for _ in range(n - n // 2))
    out["gallop"] = a + b
    a = list(range(0, 4 * (n // 2), 4))
    b = []
    x = 0
    while len(b) < n - n // 2:
        k = rng.choice([1, 1, 2, 3, 7, 15, 40, 120])
        x += rng.randrange(0, 200)
        b += [x + 2 * t for t in range(k)]
    out["blocks"] = a + b[: n - n // 2]
    small = sorted(rng.randrange(1 << 16) for _ in range(max(1, n // 20)))
    out["smallbig"] = sorted(rng.randrange(1 << 16) for _ in range(n - len(small))) + small
    out["bigsmall"] = small + sorted(rng.randrange(1 << 16) for _ in range(n - len(small)))
    halves = []
    for part in range(4):
        m = n // 4 if part < 3 else n - 3 * (n // 4)
        halves.append(sorted(rng.randrange(1 << 12) for _ in range(m)))
    out["quarters"] = halves[0] + halves[1] + halves[2] + halves[3]
    return out


sizes = list(range(8, 70)) + [70, 100, 127, 128, 129, 200, 255, 256, 257, 500, 1000,
                              1023, 1024, 1025, 2000, 3000, 4096, 5000]
for n in sizes:
    for name, v in shapes(n).items():
        record(name, v)
        if n <= 300 or name in ("random", "runs", "gallop", "dupruns"):
            if rng.random() < 0.5 or n > 300:
                record(name + "-rev", v, reverse=True)

# Random sizes and shapes.
for _ in range(150):
    n = rng.randrange(2, 2500)
    name, v = rng.choice(list(shapes(n).items()))
    record(name, v, reverse=rng.random() < 0.3)

# key=: the keys are compared, the objects moved with them.
for n in [0, 1, 2, 5, 33, 64, 65, 200, 1500]:
    for name in ["random", "runs", "fewvalues"]:
        v = shapes(n)[name]
        record(name + "-key", v, key=True)
        record(name + "-key-rev", v, key=True, reverse=True)

# Inconsistent comparisons: __lt__ answers at random (with bias p), which
# takes the merges down paths a consistent order never takes.
for _ in range(300):
    n = rng.choice([rng.randrange(2, 70), rng.randrange(70, 300), rng.randrange(300, 2000)])
    p = rng.choice([0.5, 0.5, 0.1, 0.9, 0.02, 0.98, 0.3, 0.7])
    name, v = rng.choice(list(shapes(n).items()))
    record("inconsistent-%s-p%g" % (name, p), v, reverse=rng.random() < 0.3, p=p,
           key=rng.random() < 0.1)

# __lt__ raises: the order the list is left in at every kind of point.
for _ in range(500):
    n = rng.choice([rng.randrange(2, 70), rng.randrange(70, 400), rng.randrange(400, 2000)])
    name, v = rng.choice(list(shapes(n).items()))
    reverse = rng.random() < 0.3
    total = ncalls(v, reverse)
    if total == 0:
        continue
    if rng.random() < 0.5:
        at = rng.randrange(total)
    else:
        at = total - 1 - min(total - 1, int(rng.expovariate(1 / 50)))
    record("fail-" + name, v, reverse=reverse, fail=at, key=rng.random() < 0.1)
for v in (list(range(40, 0, -1)), [3, 1, 2], list(range(100)) + list(range(50))):
    for at in range(min(ncalls(v), 60)):
        record("failall", v, fail=at)

here = os.path.dirname(os.path.abspath(__file__))
with gzip.GzipFile(os.path.join(here, "cases.jsonl.gz"), "wb", mtime=0) as f:
    for c in cases:
        f.write(json.dumps(c, separators=(",", ":")).encode() + b"\n")
total = sum(c.get("ncalls", len(c.get("calls", [])) // 2) for c in cases)
print("%d cases, %d comparisons" % (len(cases), total), file=sys.stderr)
