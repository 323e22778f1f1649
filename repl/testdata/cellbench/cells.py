# Model-style code cells over a ~256 KB log-like context, in the style RLM
# roots write: slicing, re, Counter, comprehensions, split loops, f-strings,
# dict building, sorted with a key. "setup" builds the context and is not
# timed; the others run in order in one namespace (state carries over).
# ---- setup
seed = 20261206
def rnd(n):
    global seed
    seed = (seed * 1103515245 + 12345) % 2147483648
    return (seed >> 8) % n
services = ["api-gateway", "auth", "billing", "search", "storage", "mailer", "scheduler", "cache"]
levels = ["INFO"] * 12 + ["DEBUG"] * 4 + ["WARN"] * 3 + ["ERROR"] * 2
users = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy", "josé", "zoë"]
msgs = ["request served", "cache miss for key {k}", "retrying upstream call to {s}", "timeout after {n} ms",
        "user {u} logged in", "payment {k} declined", "index rebuilt in {n} ms", "connection reset by peer",
        "disk usage at {n}%", "token expired for {u}", "queue depth {n}", "slow query on table orders"]
words = ("the system reported an unusual pattern of failures during the nightly batch and operators "
         "escalated the incident after several retries failed to restore service for customers in "
         "two regions while the billing team investigated duplicate charges").split()
out = []
size = 0
line_no = 0
while size < 256 * 1024:
    line_no += 1
    if rnd(12) == 0:
        n = 8 + rnd(14)
        line = " ".join(words[rnd(len(words))] for _ in range(n)).capitalize() + "."
    else:
        day, h, m, s = 1 + rnd(28), rnd(24), rnd(60), rnd(60)
        svc, lvl, u = services[rnd(len(services))], levels[rnd(len(levels))], users[rnd(len(users))]
        msg = msgs[rnd(len(msgs))].format(k=f"k{rnd(5000):04d}", s=services[rnd(len(services))], n=rnd(9000), u=u)
        line = (f"2026-03-{day:02d} {h:02d}:{m:02d}:{s:02d} {lvl} {svc} req={rnd(1 << 24):06x} "
                f"user={u} latency_ms={rnd(2000) + 1} msg={msg}")
    out.append(line)
    size += len(line) + 1
context = "\n".join(out)
del out, size, line_no, seed, rnd, services, levels, users, msgs, words, line
# ---- peek
print(len(context), context.count("\n") + 1)
print(context[:300])
print(context[-200:])
# ---- split_lines
lines = context.split("\n")
print(len(lines), max(len(l) for l in lines))
print(lines[1000])
# ---- level_counts
from collections import Counter
level_counts = Counter(line.split()[2] for line in lines if line.startswith("2026-"))
print(level_counts.most_common())
# ---- findall_users
import re
users = re.findall(r"user=(\w+)", context)
user_counts = Counter(users)
print(len(users), user_counts.most_common(5))
# ---- errors_filtered
errors = [l for l in lines if " ERROR " in l]
print(len(errors))
for e in errors[:3]:
    print(e)
# ---- errors_by_service
by_service = {}
for e in errors:
    parts = e.split()
    svc = parts[3]
    by_service.setdefault(svc, []).append(parts[5][5:])
for svc, us in sorted(by_service.items(), key=lambda kv: -len(kv[1])):
    print(f"{svc:<12} {len(us):>4} errors, {len(set(us))} users, top: {Counter(us).most_common(1)[0][0]}")
# ---- latency_stats
lat = {}
for line in lines:
    m = re.search(r" (\S+) req=\w+ user=\S+ latency_ms=(\d+)", line)
    if m:
        lat.setdefault(m.group(1), []).append(int(m.group(2)))
for svc in sorted(lat):
    v = sorted(lat[svc])
    print(f"{svc}: n={len(v)} mean={sum(v) / len(v):.1f} p50={v[len(v) // 2]} p95={v[int(len(v) * 0.95)]} max={v[-1]}")
# ---- templates
templates = Counter(re.sub(r"\d+", "N", l.split("msg=", 1)[1]) for l in lines if "msg=" in l)
for t, n in templates.most_common(8):
    print(f"{n:6d}  {t}")
# ---- timeouts
timeouts = re.findall(r"^(\S+ \S+) \w+ (\S+) .*timeout after (\d+) ms$", context, re.M)
print(len(timeouts), timeouts[:3])
worst = sorted(timeouts, key=lambda t: int(t[2]), reverse=True)[:5]
print(worst)
# ---- word_freq
prose = [l for l in lines if not l.startswith("2026-")]
wf = Counter(w.lower().strip(".,") for l in prose for w in l.split())
print(len(prose), wf.most_common(10))
# ---- finditer_groups
hours = Counter()
for m in re.finditer(r"^2026-03-(?P<day>\d\d) (?P<hour>\d\d):\d\d:\d\d (?P<level>WARN|ERROR)", context, re.MULTILINE):
    hours[(m.group("level"), int(m.group("hour")))] += 1
print(sorted(hours.items(), key=lambda kv: (-kv[1], kv[0]))[:6])
# ---- chunks
chunk_size = 20000
chunks = [context[i:i + chunk_size] for i in range(0, len(context), chunk_size)]
print(len(chunks), [len(c) for c in chunks][:4], sum(c.count("ERROR") for c in chunks))
# ---- keyword_windows
hits = [i for i, l in enumerate(lines) if "declined" in l and "josé" in l]
snips = ["\n".join(lines[max(0, i - 1):i + 2]) for i in hits[:3]]
print(len(hits))
print("\n---\n".join(snips))
# ---- find_positions
pos, found = 0, []
while len(found) < 50:
    pos = context.find("connection reset", pos + 1)
    if pos < 0:
        break
    found.append(pos)
print(len(found), found[:5], context[found[0] - 40:found[0] + 30] if found else "")
# ---- request_ids
reqs = {}
for line in lines:
    if " req=" in line:
        i = line.index(" req=") + 5
        rid = line[i:i + 6]
        reqs[rid] = reqs.get(rid, 0) + 1
dups = sorted((k for k, v in reqs.items() if v > 1))
print(len(reqs), len(dups), dups[:5])
# ---- per_user_report
stats = {}
for line in lines:
    if not line.startswith("2026-"):
        continue
    f = line.split(" ", 6)
    u = f[5][5:]
    lat_ms = int(f[6].split(" ", 1)[0][11:])
    s = stats.setdefault(u, {"n": 0, "err": 0, "lat": 0})
    s["n"] += 1
    s["lat"] += lat_ms
    if f[2] == "ERROR":
        s["err"] += 1
rows = sorted(stats.items(), key=lambda kv: (-kv[1]["err"] / kv[1]["n"], kv[0]))
for u, s in rows:
    print(f"{u:>6} | {s['n']:5d} | {s['err'] / s['n']:6.2%} | {s['lat'] / s['n']:8.1f}")
# ---- keys_cache
keys = re.findall(r"cache miss for key (k\d{4})", context)
kc = Counter(keys)
print(len(keys), len(kc), sorted(kc.items(), key=lambda kv: (-kv[1], kv[0]))[:5])
# ---- upper_lower
caps = [w for w in set(re.findall(r"\b[A-Z][a-z]+\b", context))]
print(sorted(caps)[:10], context.lower().count("failures"), context.upper().count("JOSÉ"))
# ---- day_summary
days = {}
for line in lines:
    if line[:8] == "2026-03-":
        d = int(line[8:10])
        days[d] = days.get(d, 0) + (1 if "ERROR" in line else 0)
busiest = max(days, key=days.get)
print(len(days), busiest, days[busiest], [days[d] for d in sorted(days)][:10])
# ---- join_summary
summary = "; ".join(f"{k}={v}" for k, v in sorted(level_counts.items()))
report = "\n".join([f"lines: {len(lines)}", f"levels: {summary}", f"users: {len(user_counts)}",
                    f"errors: {len(errors)}", f"templates: {len(templates)}"])
print(report)
print(report.replace(";", ",").title()[:120])
