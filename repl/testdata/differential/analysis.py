# Analysis code as language models write it: parsing, grouping, sorting with keys, reports.
# ---- parse_log_lines_regex_groups
import re
log = """2024-01-05 10:00:01 INFO user=alice action=login ms=120
2024-01-05 10:00:05 ERROR user=bob action=pay ms=3400
2024-01-05 10:01:10 INFO user=alice action=view ms=80
2024-01-05 10:02:00 WARN user=carol action=pay ms=900
2024-01-05 10:03:30 ERROR user=alice action=pay ms=5000"""
pat = re.compile(r"(?P<date>\S+) (?P<time>\S+) (?P<level>\w+) user=(?P<user>\w+) action=(?P<action>\w+) ms=(?P<ms>\d+)")
rows = [m.groupdict() for m in pat.finditer(log)]
print(len(rows), rows[1])
by_level = {}
for r in rows:
    by_level.setdefault(r["level"], []).append(r["user"])
print(by_level)
slow = [(r["user"], int(r["ms"])) for r in rows if int(r["ms"]) > 500]
print(sorted(slow, key=lambda x: -x[1]))
# ---- group_and_aggregate_report
sales = [("north", "apples", 120.5), ("south", "pears", 80.0), ("north", "pears", 45.25),
         ("east", "apples", 99.99), ("south", "apples", 10.0), ("north", "apples", 30.0)]
totals = {}
for region, product, amount in sales:
    totals[region] = totals.get(region, 0) + amount
for region, amount in sorted(totals.items(), key=lambda kv: kv[1], reverse=True):
    share = amount / sum(totals.values())
    print(f"{region:<6} {amount:>8.2f} {share:>6.1%}")
print(f"{'TOTAL':<6} {sum(totals.values()):>8.2f}")
# ---- top_n_with_ties
scores = {"ann": 90, "bob": 85, "cy": 90, "di": 70, "ed": 85, "fay": 99}
ranked = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
for rank, (name, s) in enumerate(ranked[:4], 1):
    print(f"{rank}. {name} ({s})")
best = max(scores.values())
print([n for n, s in scores.items() if s == best])
# ---- histogram_text
data = [3, 7, 1, 9, 4, 7, 2, 8, 7, 3]
buckets = {}
for v in data:
    b = (v - 1) // 3
    buckets[b] = buckets.get(b, 0) + 1
for b in sorted(buckets):
    lo, hi = b * 3 + 1, b * 3 + 3
    print(f"{lo:>2}-{hi:<2} | {'#' * buckets[b]} {buckets[b]}")
# ---- csv_text_processing
text = """id,name,dept,salary
1,Ann Lee,eng,120000
2,Bo Chen,ops,85000
3,Cé Dupont,eng,132500
4,Dan O'Neil,sales,70000
5,Eve Ng,ops,91000"""
lines = text.strip().split("\n")
header = lines[0].split(",")
rows = [dict(zip(header, l.split(","))) for l in lines[1:]]
for r in rows:
    r["salary"] = int(r["salary"])
depts = sorted({r["dept"] for r in rows})
for d in depts:
    sal = [r["salary"] for r in rows if r["dept"] == d]
    print(f"{d:<6}{len(sal):>2}{sum(sal) / len(sal):>12,.2f}{max(sal):>10,}")
print(max(rows, key=lambda r: r["salary"])["name"])
# ---- date_string_bucketing
events = ["2024-03-01T09:15", "2024-03-01T17:40", "2024-03-02T08:05", "2024-03-04T23:59", "2024-03-02T12:00"]
per_day = {}
for e in events:
    day, time = e.split("T")
    per_day.setdefault(day, []).append(time)
for day in sorted(per_day):
    times = sorted(per_day[day])
    print(day, len(times), times[0], times[-1])
print(min(events), max(events)[:10])
# ---- dedupe_preserve_order
items = ["b", "a", "b", "c", "a", "d"]
seen = set()
out = []
for x in items:
    if x not in seen:
        seen.add(x)
        out.append(x)
print(out, list(dict.fromkeys(items)), len(set(items)))
# ---- nested_json_like_walk
doc = {"service": "api", "endpoints": [{"path": "/a", "methods": ["GET", "POST"], "auth": True},
       {"path": "/b", "methods": ["GET"], "auth": False}], "meta": {"version": "1.2", "tags": ["x", "y"]}}
def walk(o, prefix=""):
    if isinstance(o, dict):
        for k, v in o.items():
            yield from walk(v, f"{prefix}.{k}" if prefix else k)
    elif isinstance(o, list):
        for i, v in enumerate(o):
            yield from walk(v, f"{prefix}[{i}]")
    else:
        yield prefix, o
for path, v in walk(doc):
    print(path, "=", v)
# ---- text_statistics
text = """It was the best of times, it was the worst of times, it was the age of wisdom,
it was the age of foolishness, it was the epoch of belief, it was the epoch of incredulity."""
words = [w.strip(".,").lower() for w in text.split()]
freq = {}
for w in words:
    freq[w] = freq.get(w, 0) + 1
print(len(words), len(freq))
print(sorted(freq.items(), key=lambda kv: (-kv[1], kv[0]))[:5])
print(round(sum(len(w) for w in words) / len(words), 3), max(words, key=len))
sentences = [s.strip() for s in text.replace("\n", " ").split(",") if s.strip()]
print(len(sentences), sentences[-1])
# ---- sliding_average
values = [10, 12, 9, 15, 20, 18, 11]
k = 3
avgs = [round(sum(values[i:i + k]) / k, 2) for i in range(len(values) - k + 1)]
print(avgs)
deltas = [b - a for a, b in zip(values, values[1:])]
print(deltas, max(deltas), deltas.index(max(deltas)))
# ---- inventory_reconcile
expected = {"apple": 10, "pear": 5, "kiwi": 7}
counted = {"apple": 8, "pear": 5, "plum": 2}
for item in sorted(expected.keys() | counted.keys()):
    e, c = expected.get(item, 0), counted.get(item, 0)
    status = "ok" if e == c else f"{c - e:+d}"
    print(f"{item:<6} expected={e:<3} counted={c:<3} {status}")
# ---- matrix_report
grid = [[3, 8, 1], [9, 2, 7], [4, 6, 5]]
for row in grid:
    print(" ".join(f"{v:3d}" for v in row), "|", sum(row))
print("-" * 12)
print(" ".join(f"{sum(c):3d}" for c in zip(*grid)))
flat = [v for r in grid for v in r]
i = flat.index(max(flat))
print("max at", divmod(i, 3), "diag", sum(grid[i][i] for i in range(3)))
# ---- parse_durations
durs = ["1h30m", "45m", "2h", "10s", "1h5m30s"]
import re
def secs(s):
    total = 0
    for n, unit in re.findall(r"(\d+)([hms])", s):
        total += int(n) * {"h": 3600, "m": 60, "s": 1}[unit]
    return total
vals = {d: secs(d) for d in durs}
print(vals)
t = sum(vals.values())
print(f"{t // 3600}h {t % 3600 // 60}m {t % 60}s")
# ---- status_code_summary
codes = [200, 200, 404, 500, 200, 301, 404, 503, 200, 201]
classes = {}
for c in codes:
    key = f"{c // 100}xx"
    classes[key] = classes.get(key, 0) + 1
print(dict(sorted(classes.items())))
err_rate = sum(1 for c in codes if c >= 500) / len(codes)
print(f"error rate: {err_rate:.1%}", f"ok: {classes['2xx'] / len(codes):.0%}")
# ---- ip_address_tally
import re
log = "from 10.0.0.1 ok; from 10.0.0.2 fail; from 10.0.0.1 fail; from 192.168.1.10 ok; from 10.0.0.1 ok"
ips = re.findall(r"from (\d+\.\d+\.\d+\.\d+) (\w+)", log)
per = {}
for ip, status in ips:
    per.setdefault(ip, {"ok": 0, "fail": 0})[status] += 1
for ip in sorted(per, key=lambda ip: tuple(int(p) for p in ip.split("."))):
    print(ip, per[ip])
# ---- running_balance_ledger
tx = [("2024-01-01", "deposit", 1000), ("2024-01-03", "withdraw", 250.5), ("2024-01-04", "withdraw", 99.99), ("2024-01-09", "deposit", 20)]
bal = 0
for date, kind, amt in tx:
    bal += amt if kind == "deposit" else -amt
    print(f"{date} {kind:<8} {amt:>8.2f} {bal:>9.2f}")
print(round(bal, 2), bal)
# ---- string_table_alignment
rows = [("Name", "Qty", "Price"), ("Widget", 3, 4.5), ("Gadget Pro", 12, 19.99), ("Nut", 250, 0.05)]
widths = [max(len(str(r[i])) for r in rows) for i in range(3)]
for r in rows:
    print(" | ".join(str(v).ljust(w) if i == 0 else str(v).rjust(w) for i, (v, w) in enumerate(zip(r, widths))))
# ---- word_wrap_manual
text = "The quick brown fox jumps over the lazy dog and keeps running through the forest"
width = 20
line, lines = "", []
for w in text.split():
    if line and len(line) + 1 + len(w) > width:
        lines.append(line)
        line = w
    else:
        line = f"{line} {w}" if line else w
lines.append(line)
for l in lines:
    print(f"|{l:<{width}}|")
# ---- find_anomalies_zscore
vals = [10.1, 9.8, 10.3, 10.0, 25.7, 9.9, 10.2, -3.0]
mean = sum(vals) / len(vals)
sd = (sum((v - mean) ** 2 for v in vals) / (len(vals) - 1)) ** 0.5
print(round(mean, 4), round(sd, 4))
print([(i, v) for i, v in enumerate(vals) if abs(v - mean) / sd > 1.5])
# ---- json_records_filter_sort
import json
raw = '[{"name": "ann", "age": 31, "tags": ["a"]}, {"name": "bob", "age": 19, "tags": []}, {"name": "cy", "age": 45, "tags": ["a", "b"]}]'
people = json.loads(raw)
adults = sorted((p for p in people if p["age"] >= 21), key=lambda p: p["age"], reverse=True)
print([p["name"] for p in adults])
print(json.dumps({"count": len(adults), "names": [p["name"] for p in adults]}))
print(sum(len(p["tags"]) for p in people), max(people, key=lambda p: len(p["tags"]))["name"])
# ---- url_parsing_manual
urls = ["https://example.com/a/b?x=1&y=2", "http://test.org/?q=hello%20world", "https://example.com/c"]
for u in urls:
    scheme, rest = u.split("://", 1)
    host, _, path_q = rest.partition("/")
    path, _, query = path_q.partition("?")
    params = dict(p.split("=", 1) for p in query.split("&") if p)
    print(scheme, host, "/" + path, params)
# ---- pagination_math
total_items, per_page = 47, 10
pages = -(-total_items // per_page)
for p in range(1, pages + 1):
    start = (p - 1) * per_page
    end = min(start + per_page, total_items)
    print(f"page {p}/{pages}: items {start + 1}-{end}")
# ---- version_sorting
versions = ["1.10.0", "1.2.0", "1.2.10", "1.2.9", "2.0.0-rc1", "0.9"]
def key(v):
    main, _, pre = v.partition("-")
    return tuple(int(x) for x in main.split(".")), pre == "", pre
print(sorted(versions, key=key))
print(sorted(versions))
# ---- merge_intervals
iv = [(1, 3), (8, 10), (2, 6), (15, 18), (17, 20), (6, 7)]
iv.sort()
merged = [list(iv[0])]
for s, e in iv[1:]:
    if s <= merged[-1][1]:
        merged[-1][1] = max(merged[-1][1], e)
    else:
        merged.append([s, e])
print(merged, sum(e - s for s, e in merged))
# ---- two_pass_normalize
raw = {"a": 3, "b": 0, "c": 9, "d": 6}
lo, hi = min(raw.values()), max(raw.values())
norm = {k: round((v - lo) / (hi - lo), 3) for k, v in raw.items()}
print(norm)
print([k for k, v in sorted(norm.items(), key=lambda kv: kv[1])])
# ---- binary_search_manual
xs = [2, 5, 8, 12, 16, 23, 38, 56, 72, 91]
def bsearch(xs, t):
    lo, hi = 0, len(xs) - 1
    steps = 0
    while lo <= hi:
        steps += 1
        mid = (lo + hi) // 2
        if xs[mid] == t:
            return mid, steps
        if xs[mid] < t:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1, steps
print([bsearch(xs, t) for t in (23, 2, 91, 7)])
# ---- email_validation_loop
import re
emails = ["ann@example.com", "bad@", "x.y+z@sub.domain.org", "no-at-sign", "ünï@cödé.de", "a@b.c"]
rx = re.compile(r"^[\w.+-]+@[\w-]+(\.[\w-]+)+$")
for e in emails:
    print(f"{e:<24} {'valid' if rx.match(e) else 'invalid'}")
# ---- llm_style_chunk_summarize
doc = " ".join(f"Sentence number {i} talks about topic {'ABC'[i % 3]}." for i in range(12))
chunks = [doc[i:i + 120] for i in range(0, len(doc), 120)]
print(len(doc), len(chunks))
summaries = []
for i, ch in enumerate(chunks):
    topics = sorted(set(t for t in "ABC" if f"topic {t}" in ch))
    summaries.append(f"chunk {i}: {len(ch)} chars, topics {','.join(topics)}")
print("\n".join(summaries))
# ---- counting_with_defaults_and_sorting
orders = [("ann", "book", 2), ("bob", "pen", 10), ("ann", "pen", 3), ("cy", "book", 1), ("bob", "book", 1)]
per_user = {}
per_item = {}
for user, item, n in orders:
    per_user[user] = per_user.get(user, 0) + n
    per_item.setdefault(item, set()).add(user)
print(sorted(per_user.items(), key=lambda kv: kv[1], reverse=True))
print({k: sorted(v) for k, v in per_item.items()})
