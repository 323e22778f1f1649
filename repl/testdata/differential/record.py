"""Recorder of code mode's differential suite: runs every cell in CPython 3.12.

Regenerate every recording with (from the repository root):

    /root/.pyenv/versions/3.12.1/bin/python3.12 repl/testdata/differential/record.py

The Go harness (repl/differential_test.go) runs the same cells in code mode's
interpreter and compares them byte for byte with what this script records.

Inputs, in this directory:

  *.py (but this file)  cell files. A line "# ---- name" starts a cell (names
                        unique per file, [a-z0-9_]+); "# ---- name / 2",
                        "/ 3", ... continue it: the parts of a sequence run
                        one after the other in one interpreter. Lines before
                        the first marker are a comment about the file.
  exprs.txt             one Python expression a line (lines starting with
                        "#" are comments), written by the Go generator
                        (go test ./repl -run TestDifferentialProperty -args -update);
                        each is run as the cell "print(repr(EXPR))".

Outputs, in this directory:

  NAME.json for NAME.py  per part: name, sha256 of its source, stdout,
                        exception ({type, module, qualname, message} or
                        null) and final (repr text or null).
  exprs.json            the same for every expression of exprs.txt.
  meta.json             Python version and the context's sha256 and sizes.

Each cell (each sequence) runs in a fresh namespace predeclaring what code
mode predeclares and nothing else: context (the text make_context builds),
FINAL, FINAL_VAR, answer = {"content": "", "ready": False}, SHOW_VARS (prints
nothing here), plus __name__ = "__main__" as in any script. FINAL(x) stops the
cell with final repr(x); FINAL_VAR("name") with the global's value (a
non-string argument is taken as FINAL(x)); a cell that ends with answer a dict
whose "ready" is True finishes with repr(answer["content"]), except when the
same dict was already ready before the part started (an earlier part's
answer). An uncaught exception is recorded with type(e).__name__, its
__module__ and __qualname__, and str(e) (e.msg for SyntaxError); stdout up to
it is kept.

Every cell must be deterministic: the recording runs twice in fresh
processes with different PYTHONHASHSEED values and must agree, cells may
not open files, sockets or processes (an audit hook refuses), and a few
clock and entropy calls are refused by a text check.
"""

import sys
import os

_HERE = os.path.dirname(os.path.realpath(__file__))
# Cell files are named so that they shadow no module, but keep this
# directory off the import path all the same.
sys.path[:] = [p for p in sys.path if os.path.realpath(p or os.curdir) != _HERE]

import contextlib  # noqa: E402
import hashlib  # noqa: E402
import io  # noqa: E402
import json  # noqa: E402
import re  # noqa: E402
import subprocess  # noqa: E402
import sysconfig  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402

# ---------------------------------------------------------------------------
# The context text. Keep in step with diffContext in repl/differential_test.go:
# the Go test compares its text's sha256 with the one stored in meta.json.

_MASK = (1 << 64) - 1


class _SplitMix:
    """splitmix64: the same integer sequence in Go and Python."""

    def __init__(self, seed):
        self.state = seed & _MASK

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def n(self, k):
        """A number in [0, k)."""
        return self.next() % k

    def pick(self, xs):
        return xs[self.n(len(xs))]


_ASCII_USERS = ["alice", "bob", "carol", "dave", "erin", "frank", "grace",
                "heidi", "ivan", "judy", "mallory", "oscar"]
_OTHER_USERS = ["José", "Zoë", "Björn", "François", "Łukasz", "Dvořák",
                "Ølga", "Renée", "李雷", "山田太郎", "Günther", "Siân"]
_QUERIES = ["café near me", "東京 hotels", "naïve bayes", "python tutorial",
            "best pizza", "résumé template", "emoji 🎉 meaning", "weather",
            "straße map", "golang generics", "crème brûlée recipe",
            "cheap flights", "error 404", "москва metro"]
_PATHS = ["/api/v1/users", "/api/v1/orders", "/api/v1/search", "/health",
          "/api/v2/reports", "/api/v1/items", "/login", "/static/app.js"]
_STATUSES = [200, 200, 200, 200, 200, 200, 201, 204, 301, 304, 400, 401,
             403, 404, 404, 429, 500, 502, 503]
_METHODS = ["GET", "GET", "GET", "POST", "POST", "PUT", "DELETE"]
_ERRORS = ["timeout after 30s", "connection reset by peer",
           "KeyError: 'user_id'", "out of memory", "données invalides",
           "disk quota exceeded"]
_TABLES = ["users", "orders", "items", "sessions", "payments"]
_SERVICES = ["auth", "billing", "search", "gateway", "worker", "scheduler",
             "db", "cache"]
_SERVICE_WEIGHTS = [0, 0, 1, 2, 2, 3, 3, 3, 3, 4, 4, 5, 6, 6, 7]


def _user(r):
    if r.n(4) == 0:
        return r.pick(_OTHER_USERS)
    return r.pick(_ASCII_USERS)


def _entry(r, service):
    """Returns (level, message, extra lines) of one log entry."""
    if service == "auth":
        k = r.pick([0, 0, 0, 0, 1, 1, 2, 2, 3])
        u = _user(r)
        if k == 0:
            return "INFO", "user %s logged in from 10.%d.%d.%d" % (u, r.n(256), r.n(256), r.n(256)), []
        if k == 1:
            return "WARN", "login failed for %s: invalid password" % u, []
        if k == 2:
            return "DEBUG", "token refreshed for %s" % u, []
        return "ERROR", "account locked: %s after %d attempts" % (u, 3 + r.n(5)), []
    if service == "billing":
        k = r.pick([0, 0, 0, 1, 2, 2, 3])
        u = _user(r)
        d, c, o = r.n(500), r.n(100), 10000 + r.n(90000)
        if k == 0:
            return "INFO", "charged %s $%d.%02d for order #%d" % (u, d, c, o), []
        if k == 1:
            return "WARN", "refund issued to %s: €%d.%02d (order #%d)" % (u, d, c, o), []
        if k == 2:
            return "INFO", "invoice INV-%d sent ✓" % o, []
        return "ERROR", "payment declined for %s: card expired" % u, []
    if service == "search":
        k = r.pick([0, 0, 0, 0, 1, 2])
        q = r.pick(_QUERIES)
        if k == 0:
            return "INFO", 'query="%s" results=%d latency=%dms' % (q, r.n(1000), 5 + r.n(900)), []
        if k == 1:
            return "WARN", 'slow search: query="%s" took %dms' % (q, 1000 + r.n(4000)), []
        return "DEBUG", "index rebuilt: %d documents" % (1000 + r.n(50000)), []
    if service == "gateway":
        m, p, s, ms = r.pick(_METHODS), r.pick(_PATHS), r.pick(_STATUSES), 1 + r.n(1500)
        level = "ERROR" if s >= 500 else "WARN" if s >= 400 else "INFO"
        return level, "%s %s %d %dms" % (m, p, s, ms), []
    if service == "worker":
        k = r.pick([0, 0, 0, 1, 2])
        job = "job-%04d" % r.n(10000)
        if k == 0:
            return "INFO", "%s finished in %dms ✓" % (job, 10 + r.n(20000)), []
        if k == 1:
            err = r.pick(_ERRORS)
            extra = []
            if r.n(2) == 0:
                extra = ["Traceback (most recent call last):",
                         '  File "worker.py", line %d, in run' % (10 + r.n(400)),
                         "    raise RuntimeError(\"%s\")" % err]
            return "ERROR", "%s failed: %s" % (job, err), extra
        return "WARN", "retrying %s (attempt %d/5)" % (job, 1 + r.n(5)), []
    if service == "scheduler":
        if r.n(3) == 0:
            return "DEBUG", "heartbeat ok", []
        return "INFO", "scheduled job-%04d at %02d:%02d" % (r.n(10000), r.n(24), r.n(60)), []
    if service == "db":
        k = r.pick([0, 0, 1, 2])
        t = r.pick(_TABLES)
        if k == 0:
            return "WARN", "slow query (%dms): SELECT * FROM %s WHERE id = %d" % (100 + r.n(5000), t, r.n(100000)), []
        if k == 1:
            return "INFO", "connection pool size=%d" % (1 + r.n(64)), []
        return "ERROR", "deadlock detected on table %s" % t, []
    # cache
    k = r.pick([0, 0, 1, 2])
    if k == 0:
        return "INFO", "hit ratio %d.%d%%" % (50 + r.n(50), r.n(10)), []
    if k == 1:
        return "DEBUG", "evicted %d keys" % r.n(5000), []
    return "WARN", "cache miss storm: %d misses/s" % (100 + r.n(10000)), []


def make_context():
    """The context text of every cell: a multi-service log, about 2,000
    lines, mostly ASCII with non-ASCII names, queries, symbols and emoji."""
    r = _SplitMix(20240301)
    lines = ["# service log export — cluster eu-west, 2024-03-01 (times UTC)"]
    t = 8 * 3600
    for _ in range(1900):
        t += 1 + r.n(45)
        day, rest = 1 + t // 86400, t % 86400
        stamp = "2024-03-%02d %02d:%02d:%02d" % (day, rest // 3600, rest // 60 % 60, rest % 60)
        service = _SERVICES[r.pick(_SERVICE_WEIGHTS)]
        level, msg, extra = _entry(r, service)
        lines.append("%s %-5s [%s] %s" % (stamp, level, service, msg))
        lines.extend(extra)
    lines.append("# end of export: %d entries" % 1900)
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------
# Cells.

MARK = re.compile(r"# ---- (.*)\n?")
NAME = re.compile(r"[a-z0-9_]+(?: / ([0-9]+))?")


def parse_cells(path, text):
    """Returns [(name, source)] in file order; see the module comment."""
    out = []
    names = set()
    cur = None
    buf = []
    for line in text.splitlines(keepends=True):
        m = MARK.fullmatch(line)
        if not m:
            if cur is None:
                if line.strip() and not line.startswith("#"):
                    raise SystemExit("%s: code before the first cell marker: %r" % (path, line))
                continue
            buf.append(line)
            continue
        if cur is not None:
            out.append((cur, "".join(buf)))
        cur, buf = m.group(1), []
        n = NAME.fullmatch(cur)
        if not n:
            raise SystemExit("%s: bad cell name %r" % (path, cur))
        if cur in names:
            raise SystemExit("%s: duplicate cell name %r" % (path, cur))
        if n.group(1) is not None:
            base, part = cur.split(" / ")
            want = base if part == "2" else "%s / %d" % (base, int(part) - 1)
            if not out or out[-1][0] != want:
                raise SystemExit("%s: %r does not follow %r" % (path, cur, want))
        names.add(cur)
    if cur is not None:
        out.append((cur, "".join(buf)))
    return out


def group_sequences(cells):
    """Groups parts: [[(name, source), ...], ...], a sequence per group."""
    groups = []
    for name, src in cells:
        if " / " in name:
            groups[-1].append((name, src))
        else:
            groups.append([(name, src)])
    return groups


class _Finish(BaseException):
    """Raised by FINAL to stop a cell; cells never catch BaseException."""


_MISSING = object()

_guard = [False]
_violations = []
_STDLIB = tuple(sorted({sysconfig.get_paths()[k] for k in ("stdlib", "platstdlib", "purelib", "platlib")}))
_REFUSED_EVENTS = ("socket.", "subprocess.", "os.system", "os.exec", "os.posix_spawn",
                   "os.spawn", "os.fork", "os.remove", "os.rename", "os.mkdir", "shutil.",
                   "os.listdir", "os.scandir", "urllib.", "http.", "ctypes.")


def _audit(event, args):
    if not _guard[0]:
        return
    if event == "open":
        path = args[0]
        if isinstance(path, bytes):
            path = os.fsdecode(path)
        if isinstance(path, str) and os.path.realpath(path).startswith(_STDLIB):
            return  # a module being imported
        if isinstance(path, str) and path.startswith("<") and path.endswith(">"):
            return  # a pseudo-file ("<string>"): CPython looks for a SyntaxError's source line
        _violations.append("open(%r)" % (path,))
        raise RuntimeError("cells may not open files")
    if event in ("os.listdir", "os.scandir") and args and isinstance(args[0], str) \
            and os.path.realpath(args[0]).startswith(_STDLIB):
        return  # the import system listing a directory of the standard library
    if event.startswith(_REFUSED_EVENTS):
        _violations.append(event)
        raise RuntimeError("cells may not use " + event)


sys.addaudithook(_audit)
# Cells and expressions may hold constructs CPython warns about at compile
# time (comparing a literal with "is"); the warnings go to stderr, not stdout.
warnings.simplefilter("ignore", SyntaxWarning)

# Clock and entropy calls a cell must not make (the audit hook does not see them).
_REFUSED_TEXT = re.compile(
    r"\b(?:datetime\.now|datetime\.utcnow|date\.today|datetime\.today|time\.time|time\.monotonic|"
    r"perf_counter|process_time|os\.urandom|uuid[14]|SystemRandom|secrets\.)\b|\bid\(|(?<![.\w])open\(")


def _ready(answer):
    return isinstance(answer, dict) and answer.get("ready") is True and "content" in answer


def _exc_record(e):
    t = type(e)
    msg = e.msg if isinstance(e, SyntaxError) else str(e)
    return {"type": t.__name__, "module": t.__module__, "qualname": t.__qualname__, "message": msg}


def run_sequence(parts, context):
    """Runs the parts of one sequence in one namespace; returns a record per part."""
    g = {"__name__": "__main__"}
    state = {"final": _MISSING}

    def FINAL(value):
        state["final"] = value
        raise _Finish

    def FINAL_VAR(name):
        if not isinstance(name, str):
            FINAL(name)
        key = name.strip("\"'").strip()
        if key in g:
            FINAL(g[key])
        raise NameError("FINAL_VAR: no variable named %r; assign it first, or call FINAL(value)" % key)

    def SHOW_VARS():
        return None

    g.update(context=context, FINAL=FINAL, FINAL_VAR=FINAL_VAR, SHOW_VARS=SHOW_VARS,
             answer={"content": "", "ready": False})
    records = []
    for name, src in parts:
        prev = g.get("answer")
        prev_ready = _ready(prev)
        state["final"] = _MISSING
        out = io.StringIO()
        exc = None
        start = time.perf_counter()
        _guard[0] = True
        try:
            with contextlib.redirect_stdout(out):
                try:
                    exec(compile(src, "<cell>", "exec"), g)
                except _Finish:
                    pass
                except BaseException as e:  # noqa: BLE001 - every outcome is recorded
                    exc = e
        finally:
            _guard[0] = False
        took = time.perf_counter() - start
        if took > 1.0:
            print("warning: %s took %.1fs" % (name, took), file=sys.stderr)
        final = None
        if state["final"] is not _MISSING:
            final = repr(state["final"])
        elif exc is None:
            a = g.get("answer")
            if _ready(a) and not (prev_ready and a is prev):
                final = repr(a["content"])
        records.append({
            "name": name,
            "sha256": hashlib.sha256(src.encode()).hexdigest(),
            "stdout": out.getvalue(),
            "exception": _exc_record(exc) if exc is not None else None,
            "final": final,
        })
    return records


def cell_files():
    return sorted(f for f in os.listdir(_HERE)
                  if f.endswith(".py") and f != os.path.basename(__file__))


def read_exprs():
    path = os.path.join(_HERE, "exprs.txt")
    if not os.path.exists(path):
        raise SystemExit("no exprs.txt: write it with go test ./repl -run TestDifferentialProperty -args -update")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    exprs = [ln for ln in text.split("\n") if ln and not ln.startswith("#")]
    return text, exprs


def record_all():
    """Returns {output file name: JSON-able value}."""
    context = make_context()
    results = {}
    total = 0
    for fname in cell_files():
        with open(os.path.join(_HERE, fname), encoding="utf-8") as f:
            text = f.read()
        cells = parse_cells(fname, text)
        for name, src in cells:
            m = _REFUSED_TEXT.search(src)
            if m:
                raise SystemExit("%s: cell %r calls %r (clock, entropy or files)" % (fname, name, m.group(0)))
        recs = []
        for group in group_sequences(cells):
            recs.extend(run_sequence(group, context))
        total += len(group_sequences(cells))
        results[fname[:-3] + ".json"] = {"file": fname, "cells": recs}
    text, exprs = read_exprs()
    recs = []
    for e in exprs:
        r = run_sequence([("expr", "print(repr(%s))\n" % e)], context)[0]
        recs.append({"expr": e, "stdout": r["stdout"], "exception": r["exception"]})
    results["exprs.json"] = {"sha256": hashlib.sha256(text.encode()).hexdigest(), "results": recs}
    results["meta.json"] = {
        "python": sys.version.split()[0],
        "context_sha256": hashlib.sha256(context.encode()).hexdigest(),
        "context_lines": context.count("\n"),
        "context_chars": len(context),
        "context_bytes": len(context.encode()),
        "context_non_ascii_lines": sum(1 for ln in context.splitlines() if not ln.isascii()),
        "cells": total,
    }
    if _violations:
        raise SystemExit("cells touched the outside world: %s" % sorted(set(_violations)))
    return results


def dump(results):
    """Encodes the recordings: indented, except exprs.json, one result a line."""
    out = {}
    for k, v in results.items():
        if k == "exprs.json":
            rows = ",\n".join(json.dumps(r, ensure_ascii=False) for r in v["results"])
            out[k] = '{"sha256": %s,\n"results": [\n%s\n]}\n' % (json.dumps(v["sha256"]), rows)
        else:
            out[k] = json.dumps(v, ensure_ascii=False, indent=1) + "\n"
    return out


def main():
    if sys.version_info[:2] != (3, 12):
        raise SystemExit("record with CPython 3.12, not %s" % sys.version)
    if "--dump" in sys.argv:
        sys.stdout.buffer.write(json.dumps(dump(record_all())).encode())
        return
    runs = []
    for seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        p = subprocess.run([sys.executable, os.path.realpath(__file__), "--dump"],
                           env=env, capture_output=True, check=False)
        if p.returncode != 0:
            sys.stderr.buffer.write(p.stderr)
            raise SystemExit("recording failed")
        sys.stderr.buffer.write(p.stderr)
        runs.append(json.loads(p.stdout))
    a, b = runs
    if a != b:
        for k in sorted(a):
            if a[k] != b.get(k):
                ra, rb = json.loads(a[k]), json.loads(b[k])
                items = ra.get("cells") or ra.get("results") or []
                other = rb.get("cells") or rb.get("results") or []
                bad = [x.get("name", x.get("expr")) for x, y in zip(items, other) if x != y]
                print("%s: depends on the hash seed: %s" % (k, bad or "(metadata)"), file=sys.stderr)
        raise SystemExit("recording is not deterministic")
    for k, v in sorted(a.items()):
        with open(os.path.join(_HERE, k), "w", encoding="utf-8") as f:
            f.write(v)
    meta = json.loads(a["meta.json"])
    print("recorded %d cells in %d files, %d expressions; context %d lines, %d chars, %d bytes"
          % (meta["cells"], len(a) - 2, len(json.loads(a["exprs.json"])["results"]),
             meta["context_lines"], meta["context_chars"], meta["context_bytes"]))


if __name__ == "__main__":
    main()
