# The datetime module on fixed dates (no clock).
# ---- date_basics
from datetime import date
d = date(2024, 2, 29)
print(d, repr(d), d.year, d.month, d.day, d.weekday(), d.isoweekday(), d.isoformat())
print(d.toordinal(), date.fromordinal(738945), d.replace(year=2028), d.isocalendar())
# ---- date_arithmetic
from datetime import date, timedelta
d = date(2024, 1, 31)
print(d + timedelta(days=1), d - timedelta(weeks=5), d + timedelta(days=366))
print(date(2024, 12, 25) - date(2024, 1, 1), (date(2025, 1, 1) - date(2024, 1, 1)).days)
print(date(2024, 3, 1) > date(2024, 2, 29), max(date(2023, 5, 1), date(2023, 4, 30)))
# ---- invalid_date
from datetime import date
date(2023, 2, 29)
# ---- datetime_basics
from datetime import datetime
dt = datetime(2024, 3, 1, 8, 0, 19)
print(dt, repr(dt), dt.date(), dt.time(), dt.hour, dt.minute, dt.second, dt.microsecond)
print(dt.isoformat(), dt.isoformat(sep=" "), dt.isoformat(timespec="minutes"), datetime(2024, 1, 1, 0, 0, 0, 500).isoformat())
# ---- strftime_formats
from datetime import datetime
dt = datetime(2024, 7, 4, 15, 7, 9, 123456)
for fmt in ["%Y-%m-%d", "%d/%m/%y %H:%M", "%A %B %d", "%a %b %d", "%I:%M %p", "%j %U %W", "%Y%m%dT%H%M%S.%f", "%%Y literal", "%H:%M:%S", "%c", "%x %X"]:
    print(fmt, "->", dt.strftime(fmt))
# ---- strptime_parsing
from datetime import datetime
print(datetime.strptime("2024-03-01 08:00:19", "%Y-%m-%d %H:%M:%S"))
print(datetime.strptime("01/Mar/2024:10:05:00", "%d/%b/%Y:%H:%M:%S"))
print(datetime.strptime("July 4, 2024", "%B %d, %Y").date(), datetime.strptime("12:30 PM", "%I:%M %p").time())
# ---- strptime_mismatch
from datetime import datetime
datetime.strptime("2024-13-01", "%Y-%m-%d")
# ---- fromisoformat
from datetime import datetime, date
print(datetime.fromisoformat("2024-03-01T08:00:19"), datetime.fromisoformat("2024-03-01 08:00"), date.fromisoformat("2024-03-01"))
print(datetime.fromisoformat("2024-03-01T08:00:19.5+02:00"), datetime.fromisoformat("2024-03-01T08:00:19Z"))
# ---- timedelta_ops
from datetime import timedelta
td = timedelta(days=1, hours=3, minutes=25, seconds=7)
print(td, repr(td), td.days, td.seconds, td.total_seconds())
print(td * 2, td / 2, td // 3, -td, abs(-td), timedelta(hours=36), timedelta(milliseconds=1500))
print(timedelta(minutes=90) / timedelta(minutes=30), timedelta(seconds=10) % timedelta(seconds=3), timedelta(0) == timedelta())
# ---- datetime_differences
from datetime import datetime
a = datetime(2024, 3, 1, 8, 0, 19)
b = datetime(2024, 3, 1, 20, 10, 4)
d = b - a
print(d, d.total_seconds(), d.seconds // 3600, (d.seconds % 3600) // 60)
print(a < b, sorted([b, a])[0] == a, (a - b).days, a - b)
# ---- timezone_fixed_offsets
from datetime import datetime, timezone, timedelta
utc = timezone.utc
cet = timezone(timedelta(hours=1), "CET")
dt = datetime(2024, 3, 1, 12, 0, tzinfo=utc)
print(dt, dt.astimezone(cet), dt.astimezone(timezone(timedelta(hours=-5, minutes=-30))))
print(dt.tzname(), dt.utcoffset(), dt.astimezone(cet).tzname(), dt.timestamp())
print(datetime.fromtimestamp(0, tz=utc), datetime.fromtimestamp(1700000000, tz=utc).isoformat())
# ---- naive_aware_compare_error
from datetime import datetime, timezone
datetime(2024, 1, 1) < datetime(2024, 1, 1, tzinfo=timezone.utc)
# ---- week_and_month_bucketing
from datetime import date, timedelta
start = date(2024, 1, 29)
days = [start + timedelta(days=i) for i in range(0, 40, 3)]
by_month = {}
for d in days:
    by_month.setdefault(d.strftime("%Y-%m"), []).append(d.day)
print(by_month)
print({d.isocalendar().week for d in days})
# ---- month_end_calculation
from datetime import date, timedelta
def month_end(y, m):
    nxt = date(y + m // 12, m % 12 + 1, 1)
    return nxt - timedelta(days=1)
print([month_end(2024, m).day for m in range(1, 13)], month_end(2023, 2))
# ---- parse_log_timestamps_durations
from datetime import datetime
lines = [l for l in context.splitlines() if l[:4] == "2024"]
ts = [datetime.strptime(l[:19], "%Y-%m-%d %H:%M:%S") for l in lines[:200]]
gaps = [(b - a).total_seconds() for a, b in zip(ts, ts[1:])]
print(ts[0], ts[-1], ts[-1] - ts[0], max(gaps), min(gaps), sum(gaps) / len(gaps))
# ---- date_comparisons_and_ranges
from datetime import date, timedelta
holidays = {date(2024, 12, 25), date(2024, 12, 26), date(2025, 1, 1)}
d = date(2024, 12, 20)
workdays = []
while len(workdays) < 5:
    d += timedelta(days=1)
    if d.weekday() < 5 and d not in holidays:
        workdays.append(d.isoformat())
print(workdays)
# ---- time_objects
from datetime import time
t = time(14, 30, 5, 250)
print(t, t.isoformat(), t.replace(hour=9), time(9) < time(10, 0, 1), t.strftime("%H.%M"), time())
# ---- datetime_min_max_and_combine
from datetime import datetime, date, time
print(datetime.combine(date(2024, 5, 6), time(7, 8)), date.min, date.max, datetime(1, 1, 1) == datetime.min)
print(datetime(2024, 3, 1).weekday(), datetime(2024, 3, 1).strftime("%A"), date(2024, 3, 1).ctime())
# ---- timedelta_formatting_report
from datetime import timedelta
for secs in [59, 3600, 86399, 90061, 1000000]:
    td = timedelta(seconds=secs)
    h, rem = divmod(td.seconds, 3600)
    print(f"{str(td):>18} | {td.days}d {h:02d}h {rem // 60:02d}m {rem % 60:02d}s")
