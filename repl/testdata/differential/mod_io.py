# The io module: in-memory text streams.
# ---- stringio_write_read
import io
buf = io.StringIO()
buf.write("hello ")
n = buf.write("wörld\n")
print(n, repr(buf.getvalue()), buf.tell())
buf.seek(0)
print(repr(buf.read(5)), repr(buf.readline()), repr(buf.read()))
# ---- stringio_iterate_lines
import io
f = io.StringIO("one\ntwo\n\nthree")
print(f.readlines())
f.seek(0)
for i, line in enumerate(f, 1):
    print(i, repr(line.rstrip("\n")))
# ---- print_to_stringio
import io
buf = io.StringIO()
print("a", 1, sep="|", file=buf)
print("b", end="!", file=buf)
print(repr(buf.getvalue()))
# ---- stringio_initial_and_truncate
import io
f = io.StringIO("abcdef")
f.seek(3)
f.write("XY")
print(f.getvalue())
f.truncate(4)
print(f.getvalue(), f.tell())
f.seek(0, 2)
print(f.tell())
# ---- bytesio
import io
b = io.BytesIO()
b.write("Zoë".encode())
b.write(b"\x00\xff")
print(b.getvalue(), len(b.getvalue()), b.tell())
b.seek(0)
print(b.read(2), b.read())
# ---- closed_stringio
import io
f = io.StringIO("x")
f.close()
print(f.closed)
f.read()
# ---- stringio_as_log_buffer
import io
log = io.StringIO()
for lvl, msg in [("INFO", "start"), ("WARN", "slow"), ("INFO", "done")]:
    log.write(f"[{lvl}] {msg}\n")
text = log.getvalue()
print(text.count("\n"), [l for l in text.splitlines() if "WARN" in l])
