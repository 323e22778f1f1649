# The hashlib module (and its use for fingerprints).
# ---- sha256_md5_hexdigest
import hashlib
print(hashlib.sha256(b"hello").hexdigest())
print(hashlib.md5(b"hello").hexdigest(), hashlib.sha1(b"").hexdigest())
print(hashlib.sha256("Zoë ✓".encode()).hexdigest()[:16])
# ---- incremental_update
import hashlib
h = hashlib.sha256()
for part in ["a", "b", "c"]:
    h.update(part.encode())
print(h.hexdigest() == hashlib.sha256(b"abc").hexdigest(), h.digest_size, h.name, len(h.digest()))
# ---- other_algorithms
import hashlib
for name in ["sha224", "sha384", "sha512", "blake2b", "sha3_256"]:
    print(name, hashlib.new(name, b"data").hexdigest()[:20])
print(hashlib.blake2b(b"x", digest_size=8).hexdigest())
# ---- hash_str_requires_bytes
import hashlib
hashlib.sha256("text")
# ---- fingerprint_lines
import hashlib
lines = context.splitlines()[:5]
for l in lines:
    print(hashlib.md5(l.encode()).hexdigest()[:8], l[:30])
print(hashlib.sha256(context.encode()).hexdigest()[:12])
# ---- dedupe_by_hash
import hashlib
docs = ["alpha", "beta", "alpha", "gamma", "beta"]
seen = {}
for i, d in enumerate(docs):
    seen.setdefault(hashlib.sha1(d.encode()).hexdigest()[:10], []).append(i)
print(sorted(seen.values()))
