def find_sections(text, n=3):
    out = []
    for m in re.finditer(r"see section (\d+)\.", text):
        sec = int(m.group(1))
        if sec not in out:
            out.append(sec)
        if len(out) >= n:
            break
    return out

def fib(k):
    if k < 2:
        return k
    return fib(k - 1) + fib(k - 2)

secs = find_sections(context, n=5)
print("sections:", secs, "fib:", [fib(i) for i in range(10)])
# ---- cell
words = context[:2000].lower().split()
freq = {}
for w in words:
    w = w.strip(".,;:()$")
    if w.isalpha() and len(w) > 3:
        freq[w] = freq.get(w, 0) + 1
top = sorted(freq.items(), key=lambda kv: (-kv[1], kv[0]))[:4]
for w, n in top:
    print(f"{w:<6}|{n:>3}")
print("quick" in freq, "zebra" not in freq, secs[0] if secs else None)
x = 7
print(f"{x=}", f"{x * 2:03d}", f"{'yes' if x > 5 else 'no'}", f"{3.14159:.3}")
# ---- cell
unused = [i for i in range(3)]
FINAL(f"top word: {top[0][0]}")
print("not reached")
