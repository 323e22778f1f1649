# Records CPython 3.12's datetime results for the Go kernel's tests.
# Regenerate from this directory with (local time must be UTC):
#   TZ=UTC /root/.pyenv/versions/3.12.1/bin/python3.12 testdata/gen.py > testdata/cases.json
# Each line is one JSON case: an operation, its arguments, and the result
# as a string (repr unless the op says otherwise) or "Type: message".
# A datetime is [y, m, d, H, M, S, us, tz, fold]; a tz is null or
# [days, seconds, microseconds, name-or-null].
import json, random, sys, time
from datetime import date, datetime, time as dtime, timedelta, timezone
assert sys.version_info[:2] == (3, 12)
assert time.tzname == ("UTC", "UTC")
r = random.Random(9)

def tzdec(t):
    if t is None: return None
    d = timedelta(t[0], t[1], t[2])
    return timezone(d) if t[3] is None else timezone(d, t[3])

def tzenc(z):
    if z is None: return None
    o = z.utcoffset(None)
    name = None if z is timezone.utc or repr(z).count(",") == 0 and "'" not in repr(z) else z.tzname(None)
    return [o.days, o.seconds, o.microseconds, name]

def dtenc(d):
    return [d.year, d.month, d.day, d.hour, d.minute, d.second, d.microsecond, tzenc(d.tzinfo), d.fold]

def dtdec(a):
    return datetime(*a[:7], tzinfo=tzdec(a[7]), fold=a[8])

def run(f):
    try:
        return f()
    except Exception as e:
        return "%s: %s" % (type(e).__name__, e)

cases = []
def add(op, args, out):
    cases.append({"op": op, "a": args, "out": out})

TZS = [None, None, [0, 0, 0, None], [0, 3600, 0, None], [-1, 86400 - 19800, 0, None], [0, 19815, 0, None],
       [-1, 82800, 1, None], [0, 0, 0, "UTC"], [0, 7200, 0, "CEST"], [0, 86340, 0, None], [-1, 60, 0, "min"], [0, 30, 500000, None]]

def rdt():
    y = r.choice([1, 2, 99, 100, 999, 1000, 1582, 1900, 1970, 1999, 2000, 2004, 2023, 2024, 2038, 9998, 9999, r.randint(1, 9999)])
    m = r.randint(1, 12)
    d = r.randint(1, 28) if r.random() < 0.8 else r.choice([29, 30, 31])
    if d > 28:
        d = min(d, (date(y, m % 12 + 1, 1) - timedelta(1)).day if m < 12 else 31)
    h, mi, s = r.randint(0, 23), r.randint(0, 59), r.randint(0, 59)
    us = r.choice([0, 0, r.randint(0, 999999), 500000, 1, 999999, 123000])
    return [y, m, d, h, mi, s, us, r.choice(TZS), r.choice([0, 0, 0, 1])]

# Construction.
for args in [(2024, 1, 2), (0, 1, 1), (10000, 1, 1), (2024, 0, 1), (2024, 13, 1), (2024, 2, 30), (2023, 2, 29), (2024, 2, 29),
             (1, 1, 1), (9999, 12, 31), (2024, 4, 31), (2024, 1, 0)]:
    add("date", list(args), run(lambda: repr(date(*args))))
for args in [(0, 0), (23, 59, 59, 999999), (24, 0), (-1, 0), (0, 60), (0, 0, 60), (0, 0, 0, 1000000), (12, 30, 0, 0, None, 2), (5, 6, 7, 0, None, 1)]:
    a = list(args) + [0] * (4 - len(args)) if len(args) <= 4 else list(args)
    a = a[:4] + [None, a[5] if len(a) > 5 else 0]
    add("time", a, run(lambda: repr(dtime(*a[:4], fold=a[5]))))
for i in range(300):
    a = rdt()
    add("datetime", a, run(lambda: repr(dtdec(a))))
for a in [[2024, 1, 1, 24, 0, 0, 0, None, 0], [2024, 1, 1, 0, 0, 0, 0, None, 2], [2024, 2, 30, 0, 0, 0, 0, None, 0]]:
    add("datetime", a, run(lambda: repr(dtdec(a))))
for t in TZS[2:] + [[1, 0, 0, None], [-1, 0, 0, None], [0, 0, 0, "it's"], [0, 60, 0, 'x"y']]:
    add("timezone", t, run(lambda: "%r|%s|%s" % (tzdec(t), tzdec(t), tzdec(t).tzname(None))))

# timedelta construction.
KW = ["days", "seconds", "microseconds", "milliseconds", "minutes", "hours", "weeks"]
def rnum():
    c = r.random()
    if c < 0.4: return r.randint(-100, 100)
    if c < 0.5: return r.randint(-10**10, 10**10)
    if c < 0.8: return round(r.uniform(-100, 100), r.randint(0, 7))
    if c < 0.9: return r.choice([0.5, 1.5, 2.5, -0.5, -1.5, 1e-7, 5e-7, 1.5e-6, 2.5e-6, 0.0000005, 1e9, -1e9])
    return r.uniform(-1e6, 1e6)
for i in range(600):
    kw = {k: rnum() for k in r.sample(KW, r.randint(0, 4))}
    enc = {k: (repr(v) if isinstance(v, float) else str(v)) for k, v in kw.items()}
    add("timedelta", enc, run(lambda: "%r|%s|%r" % (timedelta(**kw), timedelta(**kw), timedelta(**kw).total_seconds())))
for kw in [{"days": 999999999, "hours": 24}, {"days": -999999999}, {"days": -999999999, "microseconds": -1}, {"days": 10**9},
           {"days": float("inf")}, {"days": float("nan")}, {"days": 1e10}, {"seconds": 0.5, "microseconds": 0.5}, {"microseconds": 1.5}, {"microseconds": 2.5},
           {"microseconds": -0.5}, {"days": 1, "microseconds": 0.5}, {"days": 10**20}]:
    enc = {k: (repr(v) if isinstance(v, float) else str(v)) for k, v in kw.items()}
    add("timedelta", enc, run(lambda: "%r|%s|%r" % (timedelta(**kw), timedelta(**kw), timedelta(**kw).total_seconds())))

def rtd():
    c = r.random()
    if c < 0.1: return [0, 0, 0]
    if c < 0.2: return [r.choice([-999999999, 999999999]), r.randint(0, 86399), r.randint(0, 999999)]
    return [r.randint(-1000, 1000), r.randint(0, 86399), r.choice([0, r.randint(0, 999999)])]
def td(a): return timedelta(a[0], a[1], a[2])
for i in range(600):
    a, b = rtd(), rtd()
    n = r.choice([0, 1, -1, 2, 3, 7, -7, 10**6, 10**12])
    f = r.choice([0.0, 0.5, 1.5, -2.25, 1/3, 1e-9, 3.7, float("nan"), float("inf"), 1e300, 2.0])
    add("td_ops", [a, b, str(n), repr(f)], run(lambda: "|".join(run(lambda g=g: repr(g())) for g in [
        lambda: td(a) + td(b), lambda: td(a) - td(b), lambda: -td(a), lambda: abs(td(a)), lambda: td(a) * n,
        lambda: td(a) * f, lambda: td(a) / n, lambda: td(a) / f, lambda: td(a) // n, lambda: td(a) / td(b),
        lambda: td(a) // td(b), lambda: td(a) % td(b), lambda: divmod(td(a), td(b)), lambda: td(a) < td(b), lambda: td(a) == td(b),
        lambda: bool(td(a)), lambda: str(td(a)), lambda: td(a).total_seconds()])))

# date operations.
for i in range(300):
    a = rdt()
    d = date(*a[:3])
    t = rtd()
    e = rdt()
    add("date_ops", [a[:3], t, e[:3]], run(lambda: "|".join(run(lambda g=g: repr(g())) for g in [
        lambda: d + td(t), lambda: d - td(t), lambda: d - date(*e[:3]), lambda: d.weekday(), lambda: d.isoweekday(),
        lambda: d.isocalendar(), lambda: d.toordinal(), lambda: date.fromordinal(d.toordinal()), lambda: d.ctime(),
        lambda: d.isoformat(), lambda: str(d), lambda: tuple(d.timetuple()), lambda: d < date(*e[:3]), lambda: d == date(*e[:3]),
        lambda: date.fromisocalendar(*d.isocalendar())])))
for n in [0, 1, 3652059, 3652060, -5, 730120]:
    add("fromordinal", [n], run(lambda: repr(date.fromordinal(n))))
for y, w, dd in [(2024, 54, 1), (10000, 1, 1), (2024, 1, 8), (2020, 53, 1), (2021, 53, 1), (2015, 53, 7), (2024, 0, 1), (1, 1, 1), (9999, 52, 5), (9999, 52, 6), (2004, 53, 3), (2024, 1, 0)]:
    add("fromisocalendar", [y, w, dd], run(lambda: repr(date.fromisocalendar(y, w, dd))))

# datetime operations.
SPECS = ["auto", "hours", "minutes", "seconds", "milliseconds", "microseconds", "x"]
for i in range(500):
    a, e, t = rdt(), rdt(), rtd()
    d, d2 = dtdec(a), dtdec(e)
    ztz = r.choice(TZS)
    spec = r.choice(SPECS)
    add("dt_ops", [a, e, t, ztz, spec], run(lambda: "|".join(run(lambda g=g: repr(g())) for g in [
        lambda: d + td(t), lambda: d - td(t), lambda: d - d2, lambda: d < d2, lambda: d == d2, lambda: d.timestamp(),
        lambda: d.astimezone(tzdec(ztz)), lambda: tuple(d.utctimetuple()), lambda: tuple(d.timetuple()),
        lambda: d.isoformat(), lambda: d.isoformat(" ", spec), lambda: str(d), lambda: d.ctime(), lambda: d.utcoffset(),
        lambda: d.tzname(), lambda: d.date(), lambda: d.time(), lambda: d.timetz(), lambda: d.timetz() < d2.timetz(),
        lambda: d.timetz() == d2.timetz(), lambda: d.timetz().isoformat(spec), lambda: str(d.timetz())])))

# fromtimestamp.
for ts in [0, 1, -1, 1e9, 1700000000.5, 1700000000.0000005, 1700000000.0000015, -0.5, -1e-7, 253402300799, 253402300800,
           -62135596800, -62135596801, 1e12, 1e20, float("nan"), float("inf"), 2**63, 1.9999999, 86399.9999996]:
    for z in [None, [0, 0, 0, None], [0, 3600, 0, None], [-1, 3600, 0, "X"]]:
        enc = repr(ts) if isinstance(ts, float) else str(ts)
        add("fromtimestamp", [enc, z], run(lambda: repr(datetime.fromtimestamp(ts, tzdec(z)))))

# strftime.
FMTS = ["%Y-%m-%d %H:%M:%S.%f", "%a %A %b %B %c", "%d %e %j %U %W %w %u %V %G %g", "%I %l %p %P %k %M", "%x %X %D %F %T %R %r",
        "%y %C %h %n %t %%", "%z %:z %Z", "%s", "%-d %-m %-H %_d %_H %0e %^a %^B %#a %#b %#p %^p", "%10Y %5d %-5d %_5d %05e %3a %08B",
        "%Ey %Od %OH %EY %Oq %Ex %EC %Ec", "%Q %", "%:", "%:x", "%#Z %-z", "x%%y%%%z", "%5", "%%Y", "literal only", ""]
for i in range(200):
    a = rdt()
    d = dtdec(a)
    for f in r.sample(FMTS, 4):
        add("strftime", [a, f], run(lambda: d.strftime(f)))
        add("strftime_date", [a, f], run(lambda: d.date().strftime(f)))
        add("strftime_time", [a, f], run(lambda: d.timetz().strftime(f)))

# fromisoformat.
VALID = ["2024-01-02", "20240102", "2024-W01", "2024W01", "2024-W01-3", "2024W013", "2024-02-29", "2023-02-29",
         "2024-01-02T03:04:05", "2024-01-02 03:04", "2024-01-02T03", "2024-01-02T0304", "2024-01-02T030405",
         "2024-01-02T03:04:05.123", "2024-01-02T03:04:05,5", "2024-01-02T03:04:05.1234567", "2024-01-02T03:04:05.123456789",
         "2024-01-02T03:04:05Z", "2024-01-02T03:04:05+01:00", "2024-01-02T03:04:05-0130", "2024-01-02T03:04:05+01:00:30",
         "2024-01-02T03:04:05+01:00:30.5", "2024-01-02T03:04:05+00:00", "2024-01-02T03:04:05-00:00:00.5", "2024-01-02T03:04:05+24:00",
         "2024-01-02T03:04:05+99:99", "2024-01-02T24:00", "2024-01-02T23:59:60", "2024-W01-1T10", "2024-W01T10:00",
         "2024W0110", "2024W011T10", "2024-01-02T12.5", "2024-01-02T12:30.5", "2024-01-02T1230.5", "2024-01-02X03:04",
         "2024-01-02é03:04", "2024-01-02T03:04:", "2024-01-02T03:04:05.", "2024-01-02T", "2024-01-0", "2024-1-02",
         "2024-01-02T03:04:05Z+01", "2024-01-02T03:04:05+", "2024-01-02T03:04:05+1", "2024-01-02T03:04:05+01:", "2024-W53-1",
         "2020-W53-1", "2024-W00", "2024-W01-0", "2024-W01-8", "0000-01-01", "10000-01-01", "2024-13-01", "2024-01-32",
         "", "2024", "2024-01", "2024-01-02T03:04:05.123+05:30", "T03:04", "03:04:05", "T03:04:05Z", "03:04:05+05", "0304",
         "03:04:05.1", "3:04", "03:4", "03:04:05 ", " 03:04", "03:04:05.1234567Z", "03:04:05-", "03:04Z", "03", "T", "12:30:45,123456",
         "2024-01-02T03:04:05.123456+01:00:00.000001", "2024-01-02T03:04:05+0100", "2024-01-02T03:04:05+010030", "2024-01-02T03:04:05+01:0030",
         "2024-01-02 03:04:05-05:00", "2024-01-02T10:00:00-", "2024-01-02T10-05", "2024-01-02T10Z", "2024-01-02T10:00Z ", "2024-01-02\x0003:04",
         "2024-W01-12", "2024-W011", "2024W0112", "2024W01123", "2024-W01-", "2024-W0"]
def mutate(s):
    s = list(s)
    for _ in range(r.randint(1, 3)):
        c = r.random()
        ch = r.choice("0123456789-:T.+Z W,x")
        if c < 0.4 and s: s[r.randrange(len(s))] = ch
        elif c < 0.7: s.insert(r.randint(0, len(s)), ch)
        elif s: del s[r.randrange(len(s))]
    return "".join(s)
STRS = VALID + [mutate(r.choice(VALID)) for _ in range(1500)]
for s in STRS:
    add("isoformat_parse", [s], "|".join([run(lambda: repr(date.fromisoformat(s))), run(lambda: repr(dtime.fromisoformat(s))),
                                           run(lambda: repr(datetime.fromisoformat(s)))]))

# strptime.
PFMTS = ["%Y-%m-%d", "%Y-%m-%d %H:%M:%S", "%d/%m/%y", "%b %d %Y", "%B %d, %Y", "%a %b %d %H:%M:%S %Y", "%c", "%x", "%X",
         "%I:%M %p", "%H:%M:%S.%f", "%Y-%m-%dT%H:%M:%S%z", "%Y%m%d", "%j/%Y", "%U %w %Y", "%W %a %Y", "%G-W%V-%u", "%y",
         "%Y %Z", "%z", "%A", "%m", "%H", "%Y-%m-%d %H:%M:%S %z", "%d %b", "%%Y %Y", "%Y %Y", "%q", "%", "%Y %", "%Y.%m",
         "%Y  %m", "%Y\t%m", "%G %V", "%V %u %Y", "%G %j %u %V", "%Y (%m) [%d] {%H} ^$*+?|", "%m/%d", "%y%m%d%H%M%S", "%s"]
for i in range(700):
    a = rdt()
    d = dtdec(a)
    f = r.choice(PFMTS)
    s = run(lambda: d.strftime(f))
    if r.random() < 0.3:
        s = mutate(s)
    if r.random() < 0.1:
        s = s.upper() if r.random() < 0.5 else s.lower()
    add("strptime", [s, f], run(lambda: repr(datetime.strptime(s, f))))
for s, f in [("2024-02-30", "%Y-%m-%d"), ("02/29", "%m/%d"), ("60", "%S"), ("61", "%S"), ("12 am", "%I %p"), ("12 PM", "%I %p"),
             ("0 AM", "%H %p"), ("+05:30", "%z"), ("-0530", "%z"), ("+05:30:15.5", "%z"), ("+0530:15", "%z"), ("Z", "%z"),
             ("z", "%z"), ("+99:59", "%z"), ("UTC", "%Z"), ("gmt +0100", "%Z %z"), ("EST", "%Z"), ("2024 1 0", "%Y %W %w"),
             ("2024 0 0", "%Y %U %w"), ("2023 53 5", "%G %V %u"), ("0000", "%Y"), ("366 2023", "%j %Y"), ("366 9999", "%j %Y"),
             ("  5", "%d"), (" 5", "%d"), ("٢٠٢٤", "%Y"), ("1 2", "%m%d"), ("2024-01-01 extra", "%Y-%m-%d"), ("x", "%Y"),
             ("Monday", "%a"), ("mon", "%A"), ("2024-01-01T00:00:00+01:00:00", "%Y-%m-%dT%H:%M:%S%z"), ("1 Jan 2024", "%d %b %Y"),
             ("2024 001 1", "%G %j %u"), ("12", "%V"), ("12 3", "%V %u"), ("2024 12 3", "%Y %V %u"), ("12.5", "%S.%f"), ("5.1234567", "%S.%f")]:
    add("strptime", [s, f], run(lambda: repr(datetime.strptime(s, f))))
for c in cases:
    print(json.dumps(c, ensure_ascii=False))
