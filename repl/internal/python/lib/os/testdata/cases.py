# Cases for the os and os.path modules; gen.py records CPython's output.
# ---- constants
import os
print(os.sep, repr(os.linesep), os.pathsep, os.curdir, os.pardir, os.extsep, os.altsep, os.devnull, os.name)
print(os.path.sep, os.path.curdir, os.path.pardir, os.path.extsep, os.path.altsep, os.path.__name__)
# ---- join
import os.path as p
print(p.join("a", "b", "c"), p.join("/a", "b"), p.join("a", "/b", "c"), p.join("a/", "b"), p.join("", "b"), p.join("a", ""), p.join("a"), p.join("", ""))
print(p.join(b"a", b"b"), p.join("a", "b/", "c//d"))
for call in [lambda: p.join("a", 1), lambda: p.join(1), lambda: p.join("a", b"b"), lambda: p.join(b"a", "b"), lambda: p.join(), lambda: p.join(None, "a")]:
    try:
        print(call())
    except TypeError as e:
        print(e)
# ---- split_parts
import os.path as p
for s in ["/a/b/c.txt", "a/b/", "c.txt", "/", "//", "///x", "", "a//b", "/a", "a.b/c", "~/x.tar.gz"]:
    print(repr(s), p.split(s), p.basename(s), p.dirname(s), p.splitext(s), p.isabs(s), p.splitdrive(s), p.splitroot(s))
for s in [".bashrc", "a/.b.c", "...a", "a.", "a..b", "/x/y.z/", "file.TXT"]:
    print(repr(s), p.splitext(s))
print(p.split(b"/a/b"), p.basename(b"x/y"), p.splitext(b"f.gz"))
# ---- normpath
import os.path as p
for s in ["//a//b/../c/./", "///a", "../../a", "", ".", "a/..", "/..", "/a/../..", "a/./b/../../c", "//a", "a//b///c/", "./"]:
    print(repr(s), repr(p.normpath(s)))
print(p.normpath(b"/a/./b/.."), p.normcase("A/B"), p.abspath("/a/../b"), p.abspath("/"))
# ---- common
import os.path as p
print(repr(p.commonprefix([])), p.commonprefix(["abc", "abd", "ab"]), p.commonprefix(["/usr/lib", "/usr/local"]), p.commonprefix([[1, 2], [1, 3]]), p.commonprefix(["same"]))
print(p.commonpath(["/a/b/c", "/a/b/d", "/a/bc"]), p.commonpath(["a/./b", "a/b/c"]), p.commonpath(["/x"]), repr(p.commonpath(["a", "b"])), p.commonpath([b"/a/b", b"/a/c"]))
for call in [lambda: p.commonpath([]), lambda: p.commonpath(["/a", "b"]), lambda: p.commonpath(["/a", b"/a"])]:
    try:
        print(call())
    except (ValueError, TypeError) as e:
        print(type(e).__name__, e)
# ---- relpath
import os.path as p
print(p.relpath("/a/b/c", "/a/d"), p.relpath("/a/b", "/a/b"), p.relpath("/a", "/a/b/c"), p.relpath("/x/y", "/"), p.relpath(b"/a/b", b"/a"))
try:
    p.relpath("")
except ValueError as e:
    print(e)
# ---- fspath
import os
class P:
    def __fspath__(self):
        return "/from/fspath"
print(os.fspath("x"), os.fspath(b"y"), os.fspath(P()), os.path.join(P(), "z"), os.path.basename(P()))
for v in [1, None]:
    try:
        os.fspath(v)
    except TypeError as e:
        print(e)
# ---- refused_getcwd
import os
print(os.sep)
os.getcwd()
# ---- refused_listdir
import os
os.listdir(".")
# ---- refused_environ
import os
os.environ.get("HOME")
# ---- refused_exists
import os.path
os.path.exists("/tmp")
# ---- refused_abspath_relative
import os.path
os.path.abspath("a/b")
