# Cases for the datetime module wrapper; module_gen.py records CPython's output.
# ---- constructors
from datetime import date, time, datetime, timedelta, timezone
print(repr(date(2024, 2, 29)), repr(date(year=1, month=1, day=1)), repr(date(True, True, True)))
print(repr(datetime(2024, 1, 2)), repr(datetime(2024, 1, 2, 3, 4, 5, 6, timezone.utc, fold=1)), repr(datetime(2024, 1, 2, second=7)))
print(repr(time()), repr(time(1)), repr(time(1, 2, 3)), repr(time(1, 2, 0, 4)), repr(time(23, 59, 59, 999999, tzinfo=timezone(timedelta(hours=-2)), fold=1)))
print(repr(timedelta()), repr(timedelta(1, 2, 3)), repr(timedelta(weeks=1, days=-1, hours=2.5, minutes=-1, seconds=0.5, milliseconds=1.5, microseconds=-3)))
print(repr(timedelta(microseconds=0.5)), repr(timedelta(microseconds=1.5)), repr(timedelta(microseconds=-0.5)), repr(timedelta(days=-1e-6)), repr(timedelta(seconds=-1)))
print(repr(timedelta(days=999999999, seconds=86399, microseconds=999999)), repr(timedelta(hours=10**9 // 100)))
# ---- constructor_errors
from datetime import date, time, datetime, timedelta, timezone
def t(f):
    try:
        print(repr(f()))
    except Exception as e:
        print(type(e).__name__, e)
for f in [lambda: date(2023, 2, 29), lambda: date(0, 1, 1), lambda: date(2024, 13, 1), lambda: date(2024, 1, 32), lambda: date(2024.0, 1, 1), lambda: date("2024", 1, 1),
          lambda: date(2024, 1), lambda: date(2024, 1, 1, 1), lambda: date(year=2024, month=1, day=1, x=1), lambda: date(2**70, 1, 1), lambda: date(2**40, 1, 1),
          lambda: date(-2**40, 1, 1), lambda: date(), lambda: date(2024, 1, x=1), lambda: date(2024, 1, day=1, year=5),
          lambda: datetime(2024, 1, 1, tzinfo=1), lambda: datetime(2024, 1, 1, 24), lambda: datetime(2024, 1, 1, 0, 60), lambda: datetime(2024, 1, 1, 0, 0, 60),
          lambda: datetime(2024, 1, 1, 0, 0, 0, 10**6), lambda: datetime(2024), lambda: datetime(2024, 1, 1, fold=2), lambda: datetime(2024, 1, 1, 1, 2, 3, 4, None, 1),
          lambda: datetime(2024, 1, 1, fold=1, x=2), lambda: time(24), lambda: time(-1), lambda: time(1, 2, 3, 4, None, 5), lambda: time(1, x=2),
          lambda: timedelta("1"), lambda: timedelta(1, 2, 3, 4, 5, 6, 7, 8), lambda: timedelta(days=1e10), lambda: timedelta(days=10**10),
          lambda: timedelta(x=1), lambda: timedelta(1, days=1), lambda: timedelta(days=None), lambda: timedelta(days=1000000000), lambda: timedelta(seconds=float("nan")),
          lambda: timedelta(minutes=float("inf"))]:
    t(f)
# ---- attributes
from datetime import date, time, datetime, timedelta, timezone
d = datetime(2024, 7, 4, 15, 7, 9, 123456, tzinfo=timezone.utc)
print(d.year, d.month, d.day, d.hour, d.minute, d.second, d.microsecond, d.tzinfo, d.fold, type(d.year).__name__)
tm = time(1, 2, 3, 4, fold=1)
print(tm.hour, tm.minute, tm.second, tm.microsecond, tm.tzinfo, tm.fold)
td = timedelta(days=-1, seconds=5, microseconds=7)
print(td.days, td.seconds, td.microseconds, td.total_seconds(), timedelta(days=10**6).total_seconds(), timedelta(microseconds=1).total_seconds())
print(date.min, date.max, date.resolution, time.min, time.max, time.resolution, datetime.min, datetime.max, datetime.resolution, timedelta.min, timedelta.max, timedelta.resolution)
try:
    d.year = 5
except AttributeError as e:
    print("AttributeError")
# ---- str_repr
from datetime import date, time, datetime, timedelta, timezone
for x in [date(5, 6, 7), datetime(2024, 1, 1), datetime(2024, 1, 1, 0, 0, 1), datetime(2024, 1, 1, 0, 0, 0, 1), datetime(9999, 12, 31, 23, 59, 59, 999999, timezone(timedelta(hours=5, minutes=30), "IST")),
          time(0), time(12, 30, tzinfo=timezone(-timedelta(seconds=90))), timedelta(0), timedelta(-1), timedelta(1, 1), timedelta(2, 0, 1), timedelta(-3, 86399, 999999),
          timezone.utc, timezone(timedelta(hours=1)), timezone(timedelta(hours=-1, microseconds=-5), "odd 'name'"), timezone.min, timezone.max]:
    print(str(x), "|", repr(x))
# ---- isoformat_cases
from datetime import date, time, datetime, timedelta, timezone
d = datetime(2024, 3, 1, 8, 5, 9, 12345, tzinfo=timezone(timedelta(hours=-3, minutes=-30)))
for spec in ["auto", "hours", "minutes", "seconds", "milliseconds", "microseconds"]:
    print(d.isoformat(timespec=spec), d.replace(microsecond=0).isoformat(" ", spec), time(1, 2, 3, 999999).isoformat(spec))
print(d.isoformat("x"), d.isoformat(sep="é"), date(2024, 3, 1).isoformat(), datetime(2024, 1, 1, tzinfo=timezone(timedelta(seconds=5))).isoformat())
for f in [lambda: d.isoformat(sep="ab"), lambda: d.isoformat(timespec="bad"), lambda: d.isoformat(1), lambda: time().isoformat("x"), lambda: date.today(1) if False else date(2024,1,1).isoformat(1)]:
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
# ---- fromiso_cases
from datetime import date, time, datetime, timedelta, timezone
for s in ["2024-03-01", "20240301", "2024-W09-5", "2024W095", "2024-03-01T08:00", "2024-03-01 08:00:19.5+02:00", "2024-03-01T08:00:19Z", "2024-03-01T08:00:19.123456-05:30:15",
          "2024-03-01T08", "2024-03-01T0800", "2024-03-01T24:00", "2024-03-01T25:00", "2024-1-1", "", "2024-03-01T08:00:19.1234567"]:
    for cls in (date, datetime):
        try:
            print(s, "->", repr(cls.fromisoformat(s)))
        except Exception as e:
            print(s, "->", type(e).__name__, e)
for s in ["08:00", "T08:00:19", "08:00:19.5+01:00", "08", "0800", "8:00", "08:00:19Z"]:
    try:
        print(s, "->", repr(time.fromisoformat(s)))
    except Exception as e:
        print(s, "->", type(e).__name__, e)
for f in [lambda: datetime.fromisoformat(5), lambda: date.fromisoformat(b"2024-01-01")]:
    try:
        f()
    except TypeError as e:
        print(e)
# ---- strftime_cases
from datetime import date, time, datetime, timedelta, timezone
d = datetime(2024, 7, 4, 15, 7, 9, 123456, tzinfo=timezone(timedelta(hours=5, minutes=30), "IST"))
for fmt in ["%Y-%m-%d %H:%M:%S.%f", "%a %A %b %B %c", "%d %j %U %W %w %u %V %G %g", "%I %p %y %C %e", "%x %X %D %T %R %r", "%z %:z %Z", "%%", "%Q %", "%-d %-m", "%10Y|%_5d|%05H|%^a|%#b", "no directives", "%n%t|"]:
    print(repr(fmt), repr(d.strftime(fmt)), repr(date(1, 1, 1).strftime(fmt)))
print(time(1, 2, 3, 4).strftime("%H:%M:%S %f %Y %p %z"), time(13, tzinfo=timezone.utc).strftime("%I %p %Z %z"))
print(format(d, "%Y/%m"), format(d, ""), f"{date(2024, 1, 5):%d.%m.%Y}", f"{time(9):%H}", format(date(2024, 1, 5)), "{:%H:%M}".format(datetime(2024, 1, 1, 5, 6)))
for f in [lambda: d.strftime(5), lambda: d.strftime(), lambda: format(timedelta(1), "x"), lambda: format(timezone.utc, "x"), lambda: d.__format__(5)]:
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
print(format(timedelta(1)), format(timezone.utc), f"{timedelta(hours=5)!s:>12}|")
# ---- strptime_cases
from datetime import datetime
for s, f in [("2024-03-01 08:00:19", "%Y-%m-%d %H:%M:%S"), ("01/Mar/2024:10:05:00", "%d/%b/%Y:%H:%M:%S"), ("July 4, 2024", "%B %d, %Y"), ("12:30 PM", "%I:%M %p"),
             ("2024 +0200", "%Y %z"), ("2024-03-01T08:00:19Z", "%Y-%m-%dT%H:%M:%S%z"), ("2024 -05:30 EST", "%Y %z %Z"), ("24", "%y"), ("69", "%y"), ("2024 60", "%Y %j"),
             ("2024 10 1", "%Y %W %w"), ("Tue 2024", "%a %Y"), ("3.5", "%S.%f"), ("", ""), ("  2024", "%Y"), ("2024", "%Y "), ("1/2/3", "%m/%d/%y")]:
    try:
        print(repr(s), repr(f), "->", repr(datetime.strptime(s, f)))
    except Exception as e:
        print(repr(s), repr(f), "->", type(e).__name__, e)
for s, f in [("2024-13-01", "%Y-%m-%d"), ("2024-02-30", "%Y-%m-%d"), ("2024-02-03 x", "%Y-%m-%d"), ("x", "%Q"), ("1", "%"), (1, "%Y"), ("2024", 5)]:
    try:
        datetime.strptime(s, f)
    except Exception as e:
        print(type(e).__name__, e)
# ---- date_arith
from datetime import date, timedelta, datetime
d = date(2024, 1, 31)
print(d + timedelta(days=1), timedelta(days=1) + d, d - timedelta(weeks=5), d + timedelta(days=366), d + timedelta(hours=47), d - timedelta(hours=1), d - timedelta(days=1, hours=23))
print(date(2024, 12, 25) - date(2024, 1, 1), (date(2025, 1, 1) - date(2024, 1, 1)).days, date(2024, 1, 1) - date(2024, 12, 25))
for f in [lambda: date.max + timedelta(1), lambda: date.min - timedelta(1), lambda: d + 1, lambda: d - 1, lambda: 1 - d, lambda: d + d, lambda: d * 2, lambda: d - datetime(2024, 1, 1),
          lambda: datetime(2024, 1, 1) - d, lambda: timedelta(1) - d, lambda: d + datetime(2024, 1, 1), lambda: "a" + d, lambda: [1] + d, lambda: (1,) + timedelta(1), lambda: d + "a"]:
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
# ---- datetime_arith
from datetime import datetime, timedelta, timezone
a = datetime(2024, 3, 1, 8, 0, 19)
b = datetime(2024, 3, 1, 20, 10, 4, 5)
print(b - a, a - b, a + timedelta(microseconds=-1), timedelta(hours=30) + a, a - timedelta(days=400, seconds=5))
u = datetime(2024, 1, 1, tzinfo=timezone.utc)
k = datetime(2024, 1, 1, 3, tzinfo=timezone(timedelta(hours=5)))
print(u - k, k - u, (k + timedelta(hours=1)).tzinfo, k - k.replace(tzinfo=timezone(timedelta(hours=5))))
for f in [lambda: a - u, lambda: datetime.max + timedelta(1), lambda: datetime.min - timedelta(microseconds=1), lambda: a + a, lambda: a * 2, lambda: a - 1]:
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
# ---- delta_arith
from datetime import timedelta
td = timedelta(days=1, hours=3, minutes=25, seconds=7)
print(td * 2, 2 * td, td * 1.5, 0.5 * td, td * True, td / 2, td / 0.1, td // 3, td / td, td // timedelta(hours=5), td % timedelta(hours=5), -td, +td, abs(-td))
print(td - timedelta(days=2), td + timedelta(microseconds=1), timedelta(seconds=1) * (2**30), td / 7, timedelta(microseconds=3) / 2, timedelta(microseconds=5) / 2, timedelta(microseconds=-5) / 2)
print(timedelta(0) / timedelta(-1), sum([timedelta(1), timedelta(2)], timedelta()), bool(timedelta(0)), bool(timedelta(microseconds=1)), timedelta(1) * 0.0, timedelta(1) // timedelta(hours=-7))
for f in [lambda: td / 0, lambda: td / 0.0, lambda: td // 0, lambda: td / timedelta(0), lambda: td // timedelta(0), lambda: td % timedelta(0), lambda: td * float("nan"),
          lambda: td * float("inf"), lambda: td * 1e20, lambda: -timedelta.max, lambda: timedelta.min * -1, lambda: td + 1, lambda: td * "a", lambda: "a" * td, lambda: td / "a",
          lambda: td // 0.5, lambda: td % 3, lambda: 3 / td, lambda: td ** 2, lambda: [1] * td, lambda: sum([td])]:
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
# ---- comparisons
from datetime import date, time, datetime, timedelta, timezone
print(date(2024, 3, 1) > date(2024, 2, 29), date(2024, 1, 1) == date(2024, 1, 1), date(2024, 1, 1) != date(2024, 1, 2), date(2024, 1, 1) == 5, date(2024, 1, 1) == datetime(2024, 1, 1), datetime(2024, 1, 1) != date(2024, 1, 1))
print(timedelta(1) > timedelta(hours=23), timedelta(1) == timedelta(hours=24), timedelta(1) == 1, time(1) < time(2), time(1) == time(1, tzinfo=timezone.utc), time(1, tzinfo=timezone.utc) == time(2, tzinfo=timezone(timedelta(hours=1))))
print(datetime(2024, 1, 1) == datetime(2024, 1, 1, tzinfo=timezone.utc), datetime(2024, 1, 1, 1, tzinfo=timezone(timedelta(hours=1))) == datetime(2024, 1, 1, tzinfo=timezone.utc), datetime(2024, 1, 1, fold=1) == datetime(2024, 1, 1))
print(sorted([date(2024, 5, 1), date(2023, 1, 1), date(2024, 1, 1)]), max(time(5), time(1)), min(timedelta(-1), timedelta(0)), timezone.utc == timezone(timedelta(0), "x"), timezone(timedelta(hours=1)) != timezone.utc)
for f in [lambda: datetime(2024, 1, 1) < datetime(2024, 1, 1, tzinfo=timezone.utc), lambda: time(1) < time(1, tzinfo=timezone.utc), lambda: datetime(2024, 1, 1) < date(2024, 1, 1),
          lambda: date(2024, 1, 1) < datetime(2024, 1, 1), lambda: date(2024, 1, 1) >= datetime(2024, 1, 1)]:
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
# ---- error_compare_other
from datetime import date
date(2024, 1, 1) < 5
# ---- hashing
from datetime import date, time, datetime, timedelta, timezone
print(hash(date(2024, 1, 1)) == hash(date(2024, 1, 1)), hash(timedelta(1)) == hash(timedelta(hours=24)), hash(time(1, tzinfo=timezone.utc)) == hash(time(2, tzinfo=timezone(timedelta(hours=1)))))
print(hash(datetime(2024, 1, 1, 1, tzinfo=timezone(timedelta(hours=1)))) == hash(datetime(2024, 1, 1, 0, tzinfo=timezone.utc)), hash(timezone.utc) == hash(timezone(timedelta(0), "Z")))
print(len({datetime(2024, 1, 1, 1, tzinfo=timezone(timedelta(hours=1))), datetime(2024, 1, 1, 0, tzinfo=timezone.utc)}), len({date(2024, 1, 1), date(2024, 1, 1), date(2024, 1, 2)}))
counts = {}
for d in [date(2024, 1, 1), date(2024, 1, 2), date(2024, 1, 1)]:
    counts[d] = counts.get(d, 0) + 1
print(counts, {timedelta(0): "zero"}[timedelta()], {time(5): 1}.get(time(5)))
# ---- date_methods
from datetime import date, datetime
d = date(2024, 2, 29)
print(d.toordinal(), date.fromordinal(738945), date.fromordinal(1), d.replace(year=2028), d.replace(month=3, day=1), d.replace(2025, 3), d.weekday(), d.isoweekday(), d.ctime())
ic = d.isocalendar()
print(ic, ic.year, ic.week, ic.weekday, ic[1], tuple(ic), ic == (2024, 9, 4), isinstance(ic, tuple), type(ic).__name__, len(ic))
y, w, wd = date(2021, 1, 1).isocalendar()
print(y, w, wd, date(2020, 12, 31).isocalendar(), date(2026, 12, 31).isocalendar(), date.fromisocalendar(2024, 9, 4), date.fromisocalendar(2020, 53, 7), datetime.fromisocalendar(2024, 1, 1))
tt = d.timetuple()
print(tt, tt.tm_year, tt.tm_yday, tt[0], tt[-1], len(tt), datetime(2024, 3, 1, 5, 6, 7).timetuple().tm_hour)
for f in [lambda: d.replace(month=13), lambda: d.replace(year=2023), lambda: d.replace(x=1), lambda: date.fromordinal(0), lambda: date.fromordinal("1"), lambda: date.fromisocalendar(2024, 54, 1),
          lambda: date.fromisocalendar(2024, 1, 8), lambda: date.fromisocalendar(0, 1, 1), lambda: date.fromordinal(10**7)]:
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
# ---- datetime_methods
from datetime import date, time, datetime, timedelta, timezone
d = datetime(2024, 3, 1, 12, 30, 45, 500, tzinfo=timezone(timedelta(hours=2), "EET"))
print(d.date(), repr(d.time()), repr(d.timetz()), d.utcoffset(), d.dst(), d.tzname(), d.timestamp(), d.ctime(), d.toordinal(), d.weekday())
print(d.timetuple(), d.utctimetuple())
n = datetime(2024, 3, 1, 12, 30)
print(n.utcoffset(), n.dst(), n.tzname(), n.timestamp(), n.utctimetuple().tm_isdst, n.timetuple().tm_isdst)
print(repr(d.replace(tzinfo=None)), repr(n.replace(tzinfo=timezone.utc)), repr(n.replace(hour=1, fold=1)), repr(d.replace(year=2000, tzinfo=d.tzinfo)))
print(d.astimezone(timezone.utc), d.astimezone(timezone(timedelta(hours=-5))), repr(n.astimezone()), repr(d.astimezone()), d.astimezone(d.tzinfo) is d)
print(repr(datetime.combine(date(2024, 5, 6), time(7, 8))), repr(datetime.combine(date(2024, 5, 6), time(7, tzinfo=timezone.utc))), repr(datetime.combine(date(2024, 5, 6), time(7), timezone.utc)))
print(repr(datetime.combine(datetime(2024, 1, 1, 5), time(1))), repr(datetime.combine(date(2024, 1, 1), time(1, tzinfo=timezone.utc), tzinfo=None)))
print(datetime.fromtimestamp(0, tz=timezone.utc), datetime.fromtimestamp(1700000000.25, timezone(timedelta(hours=9))), datetime.fromtimestamp(1e9), datetime.fromtimestamp(-1.5), date.fromtimestamp(86400 * 365))
print(datetime.fromtimestamp(-1e10), datetime(1970, 1, 1, tzinfo=timezone.utc).timestamp(), datetime(1, 1, 2).timestamp(), datetime.fromtimestamp(0.0000005), datetime.fromtimestamp(1.9999996))
for f in [lambda: datetime.combine(1, time(1)), lambda: datetime.combine(date(2024, 1, 1), 1), lambda: d.astimezone(5), lambda: datetime.fromtimestamp("1"), lambda: datetime.fromtimestamp(1e20),
          lambda: datetime.fromtimestamp(float("nan")), lambda: datetime.fromtimestamp(0, 5), lambda: d.replace(tzinfo=5), lambda: datetime(1, 1, 1).timestamp(), lambda: datetime.min.astimezone(timezone(timedelta(hours=1))),
          lambda: datetime.max.replace(tzinfo=timezone(timedelta(hours=-1))).astimezone(timezone.utc),
          lambda: datetime(9999, 12, 31, fold=1).timestamp(), lambda: datetime(9999, 12, 31, 23).astimezone(timezone.utc), lambda: datetime(1, 1, 1, 23).astimezone(timezone.utc),
          lambda: datetime(1, 1, 2).astimezone(timezone.utc), lambda: datetime(1, 1, 1, fold=1).timestamp()]:
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
# ---- utc_functions
from datetime import datetime, timezone
print(datetime.utcfromtimestamp(1e9), repr(datetime.utcfromtimestamp(0)))
# ---- time_methods
from datetime import time, timedelta, timezone
t = time(14, 30, 5, 250, tzinfo=timezone(timedelta(hours=-4)))
print(t, t.replace(hour=9), repr(t.replace(tzinfo=None)), t.utcoffset(), t.dst(), t.tzname(), time(1).utcoffset(), time(1).tzname(), bool(time(0)))
print(t.strftime("%H.%M %Z %z"), time(9) < time(10, 0, 1), sorted([time(5), time(1)]), time(1, 2).strftime("%H:%M %Y %j"))
for f in [lambda: t.replace(hour=24), lambda: t.replace(fold=3), lambda: time(1) + timedelta(1), lambda: t.isoformat(timespec="x")]:
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
# ---- timezones
from datetime import datetime, timezone, timedelta, tzinfo
import datetime as dtm
utc = timezone.utc
cet = timezone(timedelta(hours=1), "CET")
print(utc, cet, repr(cet), timezone(timedelta(0)) is utc, dtm.UTC is utc, timezone.min, timezone.max, timezone(-timedelta(hours=23, minutes=59)))
print(utc.utcoffset(None), cet.utcoffset(datetime(2024, 1, 1)), cet.dst(None), cet.tzname(None), timezone(timedelta(minutes=-90)).tzname(None), timezone(timedelta(seconds=1)).tzname(None))
print(utc.fromutc(datetime(2024, 1, 1, tzinfo=utc)), cet.fromutc(datetime(2024, 1, 1, tzinfo=cet)), isinstance(utc, tzinfo), issubclass(timezone, tzinfo), type(utc).__name__)
for f in [lambda: timezone(timedelta(hours=24)), lambda: timezone(-timedelta(hours=24)), lambda: timezone(5), lambda: timezone(timedelta(0), 5), lambda: utc.utcoffset(5),
          lambda: cet.fromutc(datetime(2024, 1, 1, tzinfo=utc)), lambda: cet.fromutc(5), lambda: tzinfo().utcoffset(None), lambda: timezone(timedelta(0), "a", 1)]:
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
print(dtm.MINYEAR, dtm.MAXYEAR, sorted(dtm.__all__))
# ---- subclasses
from datetime import date, datetime, timedelta, time, timezone
class D(date):
    def is_weekend(self):
        return self.weekday() >= 5
d = D(2024, 1, 31)
print(repr(d), d, d.is_weekend(), repr(d + timedelta(1)), repr(d - timedelta(1)), d - date(2024, 1, 1), repr(D.fromordinal(5)), repr(D.fromisoformat("2024-01-02")), repr(d.replace(day=1)))
print(isinstance(d, date), type(d + timedelta(3)).__name__, d == date(2024, 1, 31), hash(d) == hash(date(2024, 1, 31)), d.year, f"{d:%Y}", D(2024, 1, 6).is_weekend())
class DT(datetime):
    pass
x = DT(2024, 1, 1, 5)
print(repr(x), repr(x + timedelta(1)), repr(x.replace(hour=1)), repr(DT.combine(date(2024, 1, 1), time(1))), repr(DT.strptime("2024", "%Y")), repr(x.astimezone(timezone.utc)), repr(DT.fromtimestamp(0, timezone.utc)))
class TD(timedelta):
    def hours(self):
        return self.total_seconds() / 3600
print(repr(TD(1) + TD(2)), repr(TD(1)), repr(TD(1) * 2), TD(hours=3).hours(), str(TD(1)))
class T(time):
    pass
print(repr(T(1, 2)), repr(T(1).replace(minute=5)), repr(T.fromisoformat("01:02")))
class Named(date):
    def __new__(cls, y, m, d, label="x"):
        self = super().__new__(cls, y, m, d)
        self.label = label
        return self
n = Named(2024, 1, 1, "start")
print(repr(n), n.label, (n + timedelta(1)).label)
# ---- struct_time_fallback
from datetime import date
tt = date(2024, 3, 1).timetuple()
print(tt, tt.tm_mon, tt.tm_wday, tt.tm_isdst, list(tt))
# ---- refused_tzinfo_subclass
from datetime import datetime, tzinfo, timedelta
class MyTZ(tzinfo):
    def utcoffset(self, dt):
        return timedelta(hours=1)
print("tz")
datetime(2024, 1, 1, tzinfo=MyTZ())
# ---- refused_pickle
from datetime import date
print("p")
date(2024, 1, 1).__reduce__()
# ---- error_timezone_subclass
from datetime import timezone
class Z(timezone):
    pass
