# Cases for the time module; gen.py records CPython's output (TZ is UTC,
# as code mode's local time).
# ---- gmtime_localtime
import time
st = time.gmtime(1700000000.5)
print(st, st.tm_zone, st.tm_gmtoff, len(st), st[0], st[-1], type(st).__name__, st.tm_yday, st.tm_wday)
lt = time.localtime(1700000000)
print(lt, lt.tm_zone, lt == st, tuple(lt)[:6])
for secs in [0, -1, 86399, 951782400, 4102444800, -2208988800, 1e10, -1.5, True]:
    print(secs, tuple(time.gmtime(secs)))
y, m, d, *rest = time.gmtime(0)
print(y, m, d, rest)
# ---- gmtime_errors
import time
for v in [1e20, "x", float("nan"), float("inf"), [1]]:
    try:
        time.gmtime(v)
    except (OverflowError, TypeError, ValueError) as e:
        print(type(e).__name__, e)
# ---- strftime
import time
st = time.gmtime(1700000000)
for f in ["%a %A %b %B %c", "%d %H %I %j %m %M %p %S %U %w %W", "%x %X %y %Y %Z %z %%", "%e %G %V %u %C %D %F %T %R %h %k %l %s", "%P %r", "[%n|%t]", "%f %q %E %O", "%-d %_d %05d %^a %#b %10A %-j %3m", "%Y-%m-%dT%H:%M:%SZ", "", "no directives", "trailing %"]:
    print(repr(time.strftime(f, st)))
for secs in [0, 951782400, 1704067200, 1735603200, 1609459200]:
    print(time.strftime("%Y-%m-%d %a %j %U %W %G-W%V-%u", time.gmtime(secs)))
print(time.strftime("%Y %m %d %H", (2024, 2, 29, 13, 0, 0, 3, 60, 0)), time.strftime("%d %m %j", (2024, 0, 0, 0, 0, 0, 0, 0, 0)))
# ---- strftime_errors
import time
for args in [("%Y", (2024,)), ("%Y", (2024, 13, 1, 0, 0, 0, 0, 1, 0)), ("%Y", (2024, 1, 32, 0, 0, 0, 0, 1, 0)), ("%Y", (2024, 1, 1, 24, 0, 0, 0, 1, 0)), ("%Y", (2024, 1, 1, 0, 60, 0, 0, 1, 0)), ("%Y", (2024, 1, 1, 0, 0, 62, 0, 1, 0)), ("%Y", (2024, 1, 1, 0, 0, 0, -1, 1, 0)), ("%Y", (2024, 1, 1, 0, 0, 0, 0, 367, 0)), (5, (2024, 1, 1, 0, 0, 0, 0, 1, 0)), ("%Y", "x"), ("%Y", [2024, 1, 1, 0, 0, 0, 0, 1, 0])]:
    try:
        print(time.strftime(*args))
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
# ---- asctime_ctime_mktime
import time
print(time.asctime(time.gmtime(0)), time.ctime(0), time.ctime(1700000000.9), time.asctime((2024, 1, 2, 3, 4, 5, 6, 7, 0)))
print(time.mktime((2024, 1, 2, 3, 4, 5, 0, 0, 0)), time.mktime(time.gmtime(1700000000)), time.mktime((1970, 1, 1, 0, 0, 0, 0, 0, 0)))
for call in [lambda: time.mktime((2024,)), lambda: time.mktime(5), lambda: time.asctime((2024,)), lambda: time.ctime("x")]:
    try:
        call()
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
# ---- struct_time
import time
st = time.struct_time((2024, 1, 2, 3, 4, 5, 6, 7, 0))
print(st, st.tm_zone, st[:3], st.tm_mon, time.struct_time([2024, 1, 2, 3, 4, 5, 6, 7, 0, "XYZ", 3600]).tm_zone)
for v in [(1, 2, 3), tuple(range(12))]:
    try:
        time.struct_time(v)
    except TypeError as e:
        print(e)
try:
    st.tm_year = 5
except AttributeError as e:
    print(e)
# ---- constants_and_counters
import time
print(time.timezone, time.altzone, time.daylight, time.tzname, time.monotonic() >= 0, time.perf_counter_ns() >= 0, time.sleep(0), time.sleep(0.001))
for v in [-1, "1", float("nan")]:
    try:
        time.sleep(v)
    except (ValueError, TypeError) as e:
        print(type(e).__name__, e)
# ---- refused_strptime
import time
time.strptime("2024-01-02", "%Y-%m-%d")
