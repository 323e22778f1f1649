# Cases for the hashlib module; gen.py records CPython's output.
# ---- digests
import hashlib
for n in ["md5", "sha1", "sha224", "sha256", "sha384", "sha512", "sha3_224", "sha3_256", "sha3_384", "sha3_512"]:
    f = getattr(hashlib, n)
    h = f(b"hello")
    print(n, h.hexdigest(), h.name, h.digest_size, h.block_size, len(h.digest()), f().hexdigest()[:16])
print(hashlib.sha256("Zoë ✓".encode()).hexdigest(), hashlib.md5(b"").digest())
# ---- new_and_names
import hashlib
for n in ["sha256", "SHA256", "md5", "sha512_224", "sha512_256", "sha3_256", "shake_128"]:
    h = hashlib.new(n, b"data")
    print(n, h.name, h.digest_size, h.block_size, h.hexdigest(8) if n == "shake_128" else h.hexdigest()[:20])
print(hashlib.new(name="sha1", data=b"x").hexdigest(), hashlib.new("md5", usedforsecurity=False).hexdigest())
print(sorted(hashlib.algorithms_guaranteed))
print(sorted(n for n in dir(hashlib) if not n.startswith("_")))
# ---- incremental_and_copy
import hashlib
h = hashlib.sha256()
for part in ["a", "b", "c"]:
    h.update(part.encode())
print(h.hexdigest() == hashlib.sha256(b"abc").hexdigest(), h.digest_size, h.name, len(h.digest()))
c = h.copy()
c.update(b"d")
print(h.hexdigest()[:16], c.hexdigest()[:16], hashlib.sha256(b"abcd").hexdigest()[:16], h.hexdigest() == h.hexdigest())
m = hashlib.md5(b"x"); m2 = m.copy(); m2.update(b"y")
print(m.hexdigest(), m2.hexdigest(), hashlib.md5(b"xy").hexdigest())
s = hashlib.shake_256(b"x"); s2 = s.copy(); s2.update(b"y")
print(s.hexdigest(4), s2.hexdigest(4), hashlib.shake_256(b"xy").hexdigest(4))
# ---- bytes_like
import hashlib
print(hashlib.sha1(bytearray(b"ab")).hexdigest(), hashlib.sha1(b"ab").hexdigest(), hashlib.sha1(string=b"ab").hexdigest())
h = hashlib.sha1(); h.update(bytearray(b"ab")); print(h.hexdigest())
# ---- shake
import hashlib
print(hashlib.shake_128(b"a").hexdigest(4), hashlib.shake_256(b"a").hexdigest(10), hashlib.shake_128(b"a").digest(3), hashlib.shake_128(b"a").hexdigest(0))
print(hashlib.shake_128(b"").hexdigest(length=16), hashlib.shake_128(b"a").digest_size, hashlib.shake_128().name)
for call in [lambda: hashlib.shake_128(b"a").hexdigest(), lambda: hashlib.shake_128(b"a").digest()]:
    try:
        call()
    except TypeError as e:
        print(e)
# ---- errors
import hashlib
for call in [lambda: hashlib.sha256("text"), lambda: hashlib.sha256(1), lambda: hashlib.sha256().update("x"), lambda: hashlib.sha256().update(1),
             lambda: hashlib.new("foo"), lambda: hashlib.sha256(data=b"a"), lambda: hashlib.sha256(b"a", b"b"), lambda: hashlib.new(),
             lambda: hashlib.sha256().hexdigest(1), lambda: hashlib.sha256().update(), lambda: hashlib.md5(b"", foo=1)]:
    try:
        print(call())
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
# ---- hash_str_requires_bytes
import hashlib
hashlib.sha256("text")
# ---- pbkdf2
import hashlib
print(hashlib.pbkdf2_hmac("sha256", b"pw", b"salt", 1000).hex())
print(hashlib.pbkdf2_hmac("sha1", b"password", b"salt", 2, 20).hex(), hashlib.pbkdf2_hmac("sha512", b"p", b"s", 3, 100).hex()[:40])
for call in [lambda: hashlib.pbkdf2_hmac("sha256", b"pw", b"salt", 0), lambda: hashlib.pbkdf2_hmac("sha256", b"pw", b"salt", 1, 0), lambda: hashlib.pbkdf2_hmac("nope", b"pw", b"salt", 1)]:
    try:
        call()
    except ValueError as e:
        print(e)
# ---- fingerprints
import hashlib
docs = ["alpha", "beta", "alpha", "gamma", "beta"]
seen = {}
for i, d in enumerate(docs):
    seen.setdefault(hashlib.sha1(d.encode()).hexdigest()[:10], []).append(i)
print(sorted(seen.values()))
h = hashlib.sha256(b"x")
print({h: 1}[h], hash(h) == hash(h), type(h).__name__, type(hashlib.shake_128()).__name__, repr(h).startswith("<sha256 _hashlib.HASH object @ 0x"))
# ---- big_input
import hashlib
data = b"0123456789" * 100000
print(hashlib.md5(data).hexdigest(), hashlib.sha256(data).hexdigest())
# ---- refused_blake2b
import hashlib
print(hashlib.sha256(b"").hexdigest()[:8])
hashlib.blake2b(b"x", digest_size=8)
# ---- refused_blake2s_new
import hashlib
hashlib.new("blake2s")
