# Cases for the io module; gen.py records CPython's outcome.
# ---- stringio_write_read
import io
buf = io.StringIO()
print(buf.write("hello "), buf.write("wörld\n"), repr(buf.getvalue()), buf.tell())
print(buf.seek(0), repr(buf.read(5)), repr(buf.readline()), repr(buf.read()), repr(buf.read()), buf.tell())
buf.seek(2)
print(repr(buf.read(0)), repr(buf.read(-1)), repr(buf.read(None)))
print(type(buf), repr(io.StringIO), buf.readable(), buf.writable(), buf.seekable(), buf.isatty(), buf.closed)
print(buf.encoding, buf.errors, buf.line_buffering, buf.newlines, buf.flush())
# ---- stringio_lines
import io
f = io.StringIO("one\ntwo\n\nthree")
print(f.readlines())
f.seek(0)
for i, line in enumerate(f, 1):
    print(i, repr(line))
f.seek(0)
print(f.readline(2), repr(f.readline(10)), f.readlines(1), f.readlines())
f.seek(0)
print(f.readlines(5), next(f), list(f))
print(iter(f) is f)
# ---- stringio_print_file
import io
buf = io.StringIO()
print("a", 1, sep="|", file=buf)
print("b", end="!", file=buf)
print(file=buf)
print(repr(buf.getvalue()))
# ---- stringio_initial_and_truncate
import io
f = io.StringIO("abcdef")
print(f.tell(), f.seek(3), f.write("XY"), f.getvalue(), f.tell())
print(f.truncate(4), f.getvalue(), f.tell())
print(f.seek(0, 2), f.tell(), f.truncate(), f.getvalue())
f.seek(1)
print(f.truncate(), f.getvalue(), f.tell(), f.truncate(10), f.getvalue())
# ---- stringio_seek_past_end
import io
f = io.StringIO("ab")
f.seek(5)
f.write("z")
print(repr(f.getvalue()), f.tell(), f.seek(0, 1), f.seek(0, 0))
# ---- stringio_seek_errors
import io
f = io.StringIO("ab")
for args in [(-1,), (1, 1), (1, 2), (0, 3)]:
    try:
        f.seek(*args)
    except (ValueError, OSError) as e:
        print(type(e).__name__, e)
# ---- stringio_truncate_negative
import io
io.StringIO("ab").truncate(-1)
# ---- stringio_write_type_error
import io
io.StringIO().write(5)
# ---- stringio_initial_type_error
import io
io.StringIO(b"x")
# ---- stringio_bad_newline
import io
io.StringIO(newline="x")
# ---- stringio_newline_modes
import io
for nl in [None, "", "\n", "\r", "\r\n"]:
    f = io.StringIO(newline=nl)
    f.write("a\r\nb\rc\nd")
    v = f.getvalue()
    f.seek(0)
    print(repr(nl), repr(v), f.readlines(), f.newlines)
f = io.StringIO("x\r\ny", newline=None)
print(repr(f.getvalue()), f.newlines)
f = io.StringIO("a\r\nb", newline="\r\n")
print(repr(f.getvalue()), f.readlines())
# ---- stringio_closed
import io
f = io.StringIO("x")
f.close()
print(f.closed)
for op in [lambda: f.read(), lambda: f.getvalue(), lambda: f.tell(), lambda: f.write("y"), lambda: f.seek(0),
           lambda: f.readable(), lambda: next(f), lambda: f.readline(), lambda: f.__enter__()]:
    try:
        op()
    except ValueError as e:
        print("ValueError:", e)
f.close()
print("closed twice")
# ---- stringio_with
import io
with io.StringIO("data") as f:
    print(f.read(), f.closed)
print(f.closed)
# ---- stringio_writelines
import io
f = io.StringIO()
f.writelines(["a\n", "b\n"])
f.writelines(x for x in "cd")
print(repr(f.getvalue()))
# ---- stringio_unsupported
import io
for name in ["fileno", "detach"]:
    try:
        getattr(io.StringIO(), name)()
    except io.UnsupportedOperation as e:
        print(type(e).__name__, e, isinstance(e, OSError), isinstance(e, ValueError))
# ---- stringio_subclass
import io
class Log(io.StringIO):
    def line(self, s):
        self.write(s + "\n")
        return self
l = Log("start\n")
l.seek(0, 2)
l.line("one").line("two")
print(repr(l.getvalue()), isinstance(l, io.StringIO), type(l).__name__)
# ---- stringio_isinstance
import io
print(isinstance(io.StringIO(), io.TextIOBase), isinstance(io.StringIO(), io.IOBase), isinstance(io.BytesIO(), io.BufferedIOBase))
print(isinstance(io.BytesIO(), io.TextIOBase), io.SEEK_SET, io.SEEK_CUR, io.SEEK_END, io.DEFAULT_BUFFER_SIZE)
# ---- stringio_unicode
import io
f = io.StringIO("héllo 🎉 wörld\n中文")
print(f.read(7), f.tell(), f.readline(), f.read(1), f.tell(), len(f.getvalue()))
f.seek(1)
f.write("E")
print(f.getvalue())
# ---- stringio_as_log_buffer
import io
log = io.StringIO()
for lvl, msg in [("INFO", "start"), ("WARN", "slow"), ("INFO", "done")]:
    log.write(f"[{lvl}] {msg}\n")
text = log.getvalue()
print(text.count("\n"), [l for l in text.splitlines() if "WARN" in l])
# ---- bytesio
import io
b = io.BytesIO()
print(b.write("Zoë".encode()), b.write(b"\x00\xff"), b.write(bytearray(b"!")))
print(b.getvalue(), len(b.getvalue()), b.tell())
print(b.seek(0), b.read(2), b.read(), b.read(), b.seek(-2, 2), b.read(), b.seek(-100, 1), b.tell())
print(type(b), b.readable(), b.closed, b.read1(2))
# ---- bytesio_lines
import io
b = io.BytesIO(b"one\ntwo\r\nthree")
print(b.readline(), b.readline(2), b.readlines(), b.seek(0), list(b))
b.seek(0)
print(b.readlines(4), next(b))
# ---- bytesio_seek_write_truncate
import io
b = io.BytesIO(b"abc")
b.seek(5)
b.write(b"z")
print(b.getvalue(), b.truncate(2), b.getvalue(), b.tell(), b.truncate(), b.getvalue())
buf = bytearray(4)
b.seek(0)
print(b.readinto(buf), buf)
# ---- bytesio_errors
import io
b = io.BytesIO()
for op in [lambda: b.write("s"), lambda: b.seek(-1), lambda: b.seek(0, 5), lambda: b.truncate(-1), lambda: io.BytesIO("x")]:
    try:
        op()
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
# ---- bytesio_closed
import io
b = io.BytesIO(b"x")
b.close()
b.read()
# ---- refused_open
import io
io.open("x.txt")
# ---- refused_textiowrapper
import io
io.TextIOWrapper(io.BytesIO(b"x"))
