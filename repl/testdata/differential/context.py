# The predeclared context: a ~2,000-line multi-service log with non-ASCII text.
# Operations must count code points, not bytes.
# ---- context_len_and_type
print(type(context).__name__, len(context), len(context) > 100000)
print(len(context.encode("utf-8")), len(context.encode()) - len(context))
# ---- context_first_lines
for line in context.splitlines()[:4]:
    print(line)
# ---- context_indexing
print(repr(context[0]), repr(context[-1]), repr(context[-2]), repr(context[100]))
print(repr(context[len(context) // 2]), repr(context[-len(context)]))
# ---- context_index_out_of_range
print(context[len(context)])
# ---- context_slicing
print(repr(context[:60]))
print(repr(context[-40:]))
print(repr(context[1000:1080]))
print(len(context[::2]), repr(context[5:50:5]), repr(context[30:10:-3]))
# ---- context_in_operator
print("ERROR" in context, "José" in context, "東京" in context, "🎉" in context, "nonexistent-token" in context)
print("✓" in context, "\n\n" in context, "" in context)
# ---- context_find_positions
for needle in ["José", "東京", "🎉", "✓", "ERROR", "Łukasz", "москва"]:
    i = context.find(needle)
    print(needle, i, context.rfind(needle), repr(context[i - 10:i + len(needle) + 5]))
# ---- context_find_with_bounds
i = context.find("[billing]")
j = context.find("[billing]", i + 1)
print(i, j, context.find("[billing]", i, i + 5), context.find("[billing]", -500))
print(context.index("\n"), context.index("[auth]"), context.count("\n", 0, 5000))
# ---- context_count
for needle in ["ERROR", "WARN", "INFO", "DEBUG", "✓", "€", "🎉", "Zoë", "\n", "job-"]:
    print(needle.strip() or repr(needle), context.count(needle))
# ---- context_split_lines
lines = context.split("\n")
print(len(lines), repr(lines[-1]), repr(lines[-2]))
print(len(context.splitlines()), len(context.splitlines(True)), context.splitlines(True)[1][-1] == "\n")
# ---- context_split_whitespace
words = context.split()
print(len(words), words[:6], words[-3:])
print(len(set(words)) > 1000, max(words, key=len)[:30])
# ---- context_iteration_chars
non_ascii = 0
kinds = {}
for ch in context:
    if ord(ch) > 127:
        non_ascii += 1
        kinds[ch] = kinds.get(ch, 0) + 1
print(non_ascii, len(kinds))
print(sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0]))[:8])
# ---- context_level_counts
levels = {}
for line in context.splitlines():
    parts = line.split()
    if len(parts) > 3 and parts[2] in ("INFO", "WARN", "ERROR", "DEBUG"):
        levels[parts[2]] = levels.get(parts[2], 0) + 1
print(dict(sorted(levels.items())), sum(levels.values()))
# ---- context_service_counts
import re
services = re.findall(r"\[(\w+)\]", context)
from collections import Counter
c = Counter(services)
print(len(services), c.most_common(3), sorted(c)[:4])
# ---- context_re_findall_users
import re
users = re.findall(r"user (\S+) logged in", context)
print(len(users), users[:5], sorted(set(users))[:3], sorted(set(users))[-3:])
# ---- context_re_finditer_positions
import re
hits = list(re.finditer(r"query=\"([^\"]*)\"", context))
print(len(hits))
for m in hits[:3]:
    print(m.start(), m.end(), m.group(1), repr(context[m.start():m.start() + 8]))
print(sorted({m.group(1) for m in hits})[:6])
# ---- context_re_search_first
import re
m = re.search(r"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d) ERROR \[(\w+)\] (.*)", context)
print(m.group(1), m.group(2), m.group(3), m.start(), m.span(2))
m2 = re.search(r"account locked: (\w+)", context)
print(m2.group(0), m2.group(1), m2.start())
# ---- context_re_unicode_words
import re
names = re.findall(r"for (\w+): invalid password", context)
print(len(names), sorted(set(names))[:6])
nonascii = sorted({n for n in names if not n.isascii()})
print(nonascii)
# ---- context_upper_prefix
print(context.upper()[:50])
print(context.lower()[:30], context.title()[:20])
# ---- context_comparisons
print(context == context, context != "x", context > "#", context < "$", context[:5] == "# ser")
print(context.startswith("# service"), context.endswith("entries\n"), context.startswith("log", 2), context.endswith(("x", "\n")))
# ---- context_concat_slice
s = context + "x"
print(len(s) - len(context), repr(s[-3:]), repr(("<" + context)[:5]))
print(str(context)[:10], repr(context[:10]), f"{context[:10]!r}")
# ---- context_error_lines_report
errors = [l for l in context.splitlines() if " ERROR " in l]
print(len(errors))
for l in errors[:5]:
    ts, rest = l[:19], l[20:]
    print(ts[11:], "|", rest[:60])
# ---- context_parse_gateway
import re
rx = re.compile(r"\[gateway\] (GET|POST|PUT|DELETE) (\S+) (\d{3}) (\d+)ms")
stats = {}
for m in rx.finditer(context):
    method, path, status, ms = m.group(1), m.group(2), int(m.group(3)), int(m.group(4))
    s = stats.setdefault(path, [0, 0, 0])
    s[0] += 1
    s[1] += ms
    s[2] += status >= 500
for path in sorted(stats):
    n, total, errs = stats[path]
    print(f"{path:<18} {n:>4} {total / n:>8.1f} {errs:>3}")
# ---- context_billing_totals
import re
total_cents = 0
by_user = {}
for m in re.finditer(r"charged (\S+) \$(\d+)\.(\d\d)", context):
    cents = int(m.group(2)) * 100 + int(m.group(3))
    total_cents += cents
    by_user[m.group(1)] = by_user.get(m.group(1), 0) + cents
print(f"${total_cents // 100:,}.{total_cents % 100:02d}", len(by_user))
top = sorted(by_user.items(), key=lambda kv: (-kv[1], kv[0]))[:5]
for user, cents in top:
    print(f"{user:<10}|{cents / 100:>10.2f}")
# ---- context_time_range
lines = [l for l in context.splitlines() if l[:4] == "2024"]
print(lines[0][:19], lines[-1][:19], len(lines))
hours = {}
for l in lines:
    hours[l[11:13]] = hours.get(l[11:13], 0) + 1
print(sorted(hours.items())[:4], max(hours.values()))
# ---- context_traceback_blocks
lines = context.splitlines()
idx = [i for i, l in enumerate(lines) if l.startswith("Traceback")]
print(len(idx))
for i in idx[:2]:
    print(lines[i - 1][20:])
    print("\n".join(lines[i:i + 3]))
# ---- context_chunking
n = 10
size = len(context) // n + 1
chunks = [context[i:i + size] for i in range(0, len(context), size)]
print(len(chunks), [len(c) for c in chunks][:3], sum(len(c) for c in chunks) == len(context))
print(repr(chunks[3][:25]))
# ---- context_partition_split_first
head, sep, tail = context.partition("\n")
print(head)
print(len(tail), repr(sep))
first, second = context.split("ERROR", 1)
print(len(first), repr(second[:30]))
print(len(context.rsplit("\n", 3)), repr(context.rsplit("\n", 3)[1][:40]))
# ---- context_strip_and_replace
print(repr(context.strip()[-30:]), len(context) - len(context.strip()))
r = context.replace("ERROR", "E")
print(len(context) - len(r), r.count("E ["))
print(repr(context.replace("✓", "[ok]")[:0]), context.replace("✓", "[ok]").count("[ok]"))
# ---- context_enumerate_lines_with_unicode_positions
for no, line in enumerate(context.splitlines()):
    if "山田太郎" in line:
        col = line.index("山田太郎")
        print(no, col, line[col:col + 4], len(line))
        break
# ---- context_word_frequency
import re
from collections import Counter
words = re.findall(r"[^\W\d_]+", context.lower())
c = Counter(words)
print(len(words), len(c))
print(c.most_common(8))
print([w for w, _ in c.most_common() if not w.isascii()][:8])
# ---- context_latency_stats
import re, statistics
lat = [int(x) for x in re.findall(r"latency=(\d+)ms", context)]
print(len(lat), min(lat), max(lat), round(statistics.mean(lat), 2), statistics.median(lat))
print(sorted(lat)[len(lat) * 9 // 10], sum(1 for v in lat if v > 500))
# ---- context_sequence_state
lines = context.splitlines()
print(len(lines))
# ---- context_sequence_state / 2
errors = [l for l in lines if "ERROR" in l]
print(len(errors), errors[-1][:19])
# ---- context_sequence_state / 3
by_service = {}
for l in errors:
    svc = l.split("[", 1)[1].split("]", 1)[0] if "[" in l else "?"
    by_service[svc] = by_service.get(svc, 0) + 1
print(sorted(by_service.items(), key=lambda kv: -kv[1]))
answer["content"] = max(by_service, key=by_service.get)
answer["ready"] = True
# ---- context_find_all_positions_loop
positions = []
start = 0
while True:
    i = context.find("€", start)
    if i < 0:
        break
    positions.append(i)
    start = i + 1
print(len(positions), positions[:5], all(context[p] == "€" for p in positions))
# ---- context_bytes_vs_chars
first_non_ascii = next(i for i, ch in enumerate(context) if ord(ch) > 127)
print(first_non_ascii, repr(context[first_non_ascii]))
prefix = context[:first_non_ascii + 1]
print(len(prefix), len(prefix.encode()))
print(len(context[:5000].encode()) - 5000)
