# Cases for the base64 module; gen.py records CPython's output.
# ---- b64
import base64
for data in [b"", b"f", b"fo", b"foo", b"foob", b"fooba", b"foobar", bytes(range(256))[:40], "Zoë ✓".encode()]:
    enc = base64.b64encode(data)
    print(enc, base64.b64decode(enc) == data, base64.standard_b64encode(data) == enc, base64.b64decode(enc.decode()) == data)
print(base64.b64encode(bytearray(b"hi")), base64.b64encode(b"\xfb\xff", altchars=b"-_"), base64.b64decode("-_8=", altchars="-_"), base64.b64decode(b"+/8="))
# ---- b64_lenient_and_strict
import base64
for s in ["aGk=", "aGk", "a", "aG!k=", "aG k=\n", "aGk=aGk=", "aGk==", "=aGk", "aG=k=", "aGk=x", "", "====", "YQ", "YQ=", "YWJj", "YWJjZA=="]:
    for validate in (False, True):
        try:
            print(repr(s), validate, base64.b64decode(s, validate=validate))
        except ValueError as e:
            print(repr(s), validate, type(e).__name__, e)
# ---- b64_errors
import base64
for call in [lambda: base64.b64encode("x"), lambda: base64.b64decode("é"), lambda: base64.b64encode(1), lambda: base64.b64decode(1), lambda: base64.b64encode(b"x", altchars=b"-"), lambda: base64.b64decode(), lambda: base64.b64decode(b"x", None, False, 1)]:
    try:
        print(call())
    except (TypeError, ValueError, AssertionError) as e:
        print(type(e).__name__, e)
# ---- urlsafe
import base64
data = bytes([0xfb, 0xff, 0xbf, 0x3e])
print(base64.urlsafe_b64encode(data), base64.urlsafe_b64decode(base64.urlsafe_b64encode(data)) == data, base64.urlsafe_b64decode("-_-_"), base64.urlsafe_b64decode(b"+/+/"))
# ---- lines
import base64
enc = base64.encodebytes(b"x" * 60)
print(enc, base64.decodebytes(enc) == b"x" * 60, base64.encodebytes(b""), base64.encodebytes(b"a" * 57), base64.decodebytes(b"aGk=\naGk=\n"))
# ---- b32
import base64
for data in [b"", b"h", b"he", b"hel", b"hell", b"hello", b"hello world"]:
    e, h = base64.b32encode(data), base64.b32hexencode(data)
    print(e, h, base64.b32decode(e) == data, base64.b32hexdecode(h) == data)
print(base64.b32decode("nbswy3dp", casefold=True), base64.b32decode("NBSWY3DP"), base64.b32decode(b"ME======"), base64.b32decode("0E======", map01="L"), base64.b32decode("1E======".lower(), casefold=True, map01=b"I"))
for s in ["nbswy3dp", "NBSWY3D", "NBSWY3D!", "M=======", "MF======", "MFRGG===", "========", "ABCDEFG="]:
    try:
        print(repr(s), base64.b32decode(s))
    except ValueError as e:
        print(repr(s), type(e).__name__, e)
# ---- b16
import base64
print(base64.b16encode(b"\x01\xab\xff"), base64.b16decode("01AB"), base64.b16decode(b"01ab", casefold=True), base64.b16encode(b""))
for s in ["01ab", "01A", "0G", "01AB0"]:
    try:
        print(base64.b16decode(s))
    except ValueError as e:
        print(repr(s), type(e).__name__, e)
# ---- token_roundtrip
import base64, json
payload = {"user": "ann", "scopes": ["read", "write"]}
tok = base64.urlsafe_b64encode(json.dumps(payload).encode()).rstrip(b"=")
pad = b"=" * (-len(tok) % 4)
print(tok, json.loads(base64.urlsafe_b64decode(tok + pad)))
# ---- refused_a85
import base64
print(base64.b64encode(b"ok"))
base64.a85encode(b"hello")
