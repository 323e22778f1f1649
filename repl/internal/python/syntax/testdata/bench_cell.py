import re
import json
import math
from collections import Counter, defaultdict

# Analysis cell, in the style a model writes: load, clean, summarize.
DOC = context["document"]
QUESTION = context.get("question", "")
MAX_CHUNK = 4000


def split_sections(text: str) -> list[str]:
    """Split a document on blank lines, keeping headings with their body."""
    parts = re.split(r"\n\s*\n", text)
    out, cur = [], []
    for part in parts:
        if part.lstrip().startswith("#") and cur:
            out.append("\n\n".join(cur))
            cur = []
        cur.append(part.strip())
    if cur:
        out.append("\n\n".join(cur))
    return [p for p in out if p]


def chunk(text, size=MAX_CHUNK, overlap=200):
    start = 0
    while start < len(text):
        end = min(len(text), start + size)
        yield text[start:end]
        if end == len(text):
            break
        start = end - overlap


class Stats:
    def __init__(self, values):
        self.values = [float(v) for v in values if v is not None]

    @property
    def n(self):
        return len(self.values)

    @property
    def mean(self):
        return sum(self.values) / self.n if self.n else float("nan")

    def stdev(self):
        if self.n < 2:
            return 0.0
        mu = self.mean
        return math.sqrt(sum((x - mu) ** 2 for x in self.values) / (self.n - 1))

    def __repr__(self):
        return f"Stats(n={self.n}, mean={self.mean:.3f}, sd={self.stdev():.3f})"


sections = split_sections(DOC)
print(f"{len(sections)} sections, {len(DOC):,} chars")

words = re.findall(r"[A-Za-z][A-Za-z'-]+", DOC.lower())
counts = Counter(words)
stop = {"the", "a", "an", "and", "or", "of", "to", "in", "is", "it", "that", "for", "on"}
top = [(w, n) for w, n in counts.most_common(50) if w not in stop][:15]
for word, n in top:
    print(f"  {word:<15} {n:>6}")

numbers = [float(m.replace(",", "")) for m in re.findall(r"\b\d[\d,]*\.?\d*\b", DOC)]
stats = Stats(numbers)
print(stats)

by_heading = defaultdict(list)
heading = "(none)"
for line in DOC.splitlines():
    if m := re.match(r"^(#+)\s+(.*)", line):
        heading = m.group(2).strip()
        continue
    if line.strip():
        by_heading[heading].append(line)

summary = {
    h: {"lines": len(ls), "chars": sum(map(len, ls))}
    for h, ls in sorted(by_heading.items(), key=lambda kv: -len(kv[1]))
}
print(json.dumps(dict(list(summary.items())[:5]), indent=2))

answers = []
for i, piece in enumerate(chunk(DOC)):
    prompt = (
        f"Question: {QUESTION}\n"
        f"Part {i + 1}:\n{piece}\n"
        "Answer briefly, or say NONE."
    )
    try:
        reply = llm_query(prompt, max_tokens=200)
    except Exception as exc:
        print(f"part {i} failed: {exc!r}")
        continue
    reply = reply.strip()
    if reply and reply.upper() != "NONE":
        answers.append((i, reply))

if not answers:
    print("no part answered")
else:
    best = max(answers, key=lambda ir: len(ir[1]))
    print(f"best from part {best[0]}: {best[1][:300]!r}")

matrix = [[counts.get(w, 0) * (j + 1) for j in range(3)] for w, _ in top[:5]]
transposed = list(map(list, zip(*matrix)))
flat = [x for row in matrix for x in row if x]
print(transposed, flat[::2], flat[-3:])

match answers:
    case []:
        verdict = "unknown"
    case [(i, text)] if len(text) < 80:
        verdict = text
    case [(_, first), *rest]:
        verdict = first + f" (+{len(rest)} more)"
    case _:
        verdict = "?"

result = {"verdict": verdict, "parts": len(answers), "words": len(words)}
assert isinstance(result["parts"], int), "parts must be an int"
lines = [f"{k}: {v}" for k, v in result.items()]
print("\n".join(lines))
with open("/tmp/out.json", "w") as fh:
    json.dump(result, fh)
total = 0
for k in range(10):
    if k % 2 == 0:
        continue
    elif k > 7:
        break
    total += k ** 2 // 3
else:
    total = -1
print(total, -total, total >> 1, total & 0xFF, total | 0b1010, ~total)
FINAL(verdict)
