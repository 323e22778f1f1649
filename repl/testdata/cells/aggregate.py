import re
from collections import Counter, defaultdict

# First look at the context
print(f"Context length: {len(context):,} chars")
lines = context.splitlines()
print(f"{len(lines)} lines; first: {lines[0]!r}")
# ---- cell
pattern = re.compile(r"user_(\d+) \((\w+)\)")
labels = Counter()
by_user = defaultdict(list)
for i, line in enumerate(lines):
    m = pattern.search(line)
    if m is None:
        continue
    uid, label = int(m.group(1)), m.group(2)
    labels[label] += 1
    by_user[uid].append(i)
for label, n in labels.most_common(3):
    print(f"{label:>8}: {n:4d} ({n / len(lines):.1%})")
print("users:", len(by_user), "max lines for one user:", max(len(v) for v in by_user.values()))
# ---- cell
def summarize(chunk: str) -> str:
    """Ask a sub-model about one chunk."""
    return llm_query(f"Summarize the labels in:\n{chunk[:200]}")

chunks = [context[i:i + 5000] for i in range(0, len(context), 5000)]
answers = llm_query_batched([f"Count alpha in: {c[:50]}" for c in chunks[:3]])
print(len(chunks), "chunks;", len(answers), "answers;", answers[0])
total = sum(labels.values())
assert total == len(lines), "every line has a label"
result = {"alpha": labels["alpha"], "total": total}
FINAL_VAR("result")
