import json

records = []
bad = 0
for line in context.splitlines()[:50]:
    try:
        cost = float(line.split("$")[1].split(";")[0])
        records.append({"cost": cost, "ok": cost > 100})
    except (IndexError, ValueError) as e:
        bad += 1
        print("skip:", e)
print(len(records), "records,", bad, "bad")
print(json.dumps(records[:2], indent=2))
# ---- cell
expensive = [r for r in records if r["ok"] and r["cost"] is not None]
cheap = list(filter(lambda r: not r["ok"], records))
print(f"{len(expensive)} expensive, {len(cheap)} cheap")
stats = {
    "min": min(r["cost"] for r in records),
    "max": max(r["cost"] for r in records),
    "mean": round(sum(r["cost"] for r in records) / len(records), 2),
}
print("stats:", stats)
if 0 < stats["min"] <= stats["mean"] < stats["max"]:
    print("ordered")
seen = {r["ok"] for r in records}
print(sorted(seen), "{} of {}".format(len(expensive), len(records)))
# ---- cell
try:
    data = json.loads("{not json")
except json.JSONDecodeError:
    data = {}
    print("not json, using empty")
finally:
    print("done parsing")
answer = {"content": f"{len(expensive)} of {len(records)} cost more than $100", "ready": True}
