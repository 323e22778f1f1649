# The code-mode prelude of rlm's Pyodide interpreter. It defines the
# finishing calls, SHOW_VARS, the bridge to host builtins, and the driver
# that runs one cell with bounded output. Names starting with _rlm_ are the
# runtime's; they are hidden from SHOW_VARS.
import sys as _rlm_sys
import json as _rlm_json
import builtins as _rlm_builtins_mod

_rlm_builtins = vars(_rlm_builtins_mod)
import traceback as _rlm_traceback
from js import _rlm_host as _rlm_host_js

# The runner replaced Pyodide's API module (pyodide_js: the emscripten
# module, its file system, the internal API) with an empty one: forget the
# copies Python imported while starting.
for _rlm_k in [k for k in _rlm_sys.modules if k == "pyodide_js" or k.startswith("pyodide_js.")]:
    del _rlm_sys.modules[_rlm_k]
del _rlm_k


def _rlm_refuse_processes():
    """Makes every way to start or replace a process raise OSError at once.

    Emscripten cannot run processes; some of these calls used to reach
    Node.js and leave the interpreter broken for the rest of the run.
    """
    import os
    import posix

    def refusal(name):
        def refused(*args, **kwargs):
            raise OSError("%s() is refused: rlm's interpreter cannot start, replace or fork processes" % name)

        refused.__name__ = name.rpartition(".")[2]
        return refused

    names = ["system", "popen", "fork", "forkpty", "posix_spawn", "posix_spawnp",
             "execv", "execve", "execl", "execle", "execlp", "execlpe", "execvp", "execvpe",
             "spawnv", "spawnve", "spawnl", "spawnle", "spawnlp", "spawnlpe", "spawnvp", "spawnvpe"]
    for mod in (os, posix):
        for n in names:
            if hasattr(mod, n):
                setattr(mod, n, refusal(mod.__name__ + "." + n))
    try:
        import _posixsubprocess

        _posixsubprocess.fork_exec = refusal("_posixsubprocess.fork_exec")
    except ImportError:
        pass
    import subprocess

    class Popen:
        def __init__(self, *args, **kwargs):
            raise OSError("subprocess.Popen() is refused: rlm's interpreter cannot start processes")

    subprocess.Popen = Popen
    for n in ("run", "call", "check_call", "check_output", "getoutput", "getstatusoutput"):
        setattr(subprocess, n, refusal("subprocess." + n))


_rlm_refuse_processes()


class _RlmFinal(BaseException):
    """Raised by FINAL and FINAL_VAR: ends the cell and the run."""

    def __init__(self, value):
        self.value = value


class _RlmFatal(BaseException):
    """Raised when a host builtin reports a run-ending error."""


class _RlmOut:
    """A bounded stdout: keeps at most limit bytes of UTF-8, never part of
    a character, and counts the bytes dropped; after the first cut
    everything is dropped, as the embedded interpreter does."""

    def __init__(self, limit):
        self.limit = limit
        self.parts = []
        self.kept = 0
        self.cut = 0

    def write(self, s):
        s = str(s)
        b = s.encode("utf-8", "surrogatepass")
        room = self.limit - self.kept
        if self.cut == 0 and len(b) <= room:
            self.parts.append(s)
            self.kept += len(b)
            return len(s)
        i = max(room, 0) if self.cut == 0 else 0
        while 0 < i < len(b) and b[i] & 0xC0 == 0x80:
            i -= 1
        if i > 0:
            self.parts.append(b[:i].decode("utf-8", "surrogatepass"))
            self.kept += i
        self.cut += len(b) - i
        return len(s)

    def flush(self):
        pass

    def text(self):
        return "".join(self.parts)


# Proxies alive per host object id; ids whose last proxy is gone, to tell
# the host (which then forgets the object).
_rlm_live = {}
_rlm_dead = []


class _RlmObj:
    """A host object (such as the context): every operation is a host call."""

    __slots__ = ("_id", "_type")

    def __init__(self, id, type):
        self._id = id
        self._type = type
        _rlm_live[id] = _rlm_live.get(id, 0) + 1

    def __del__(self):
        try:
            n = _rlm_live.get(self._id, 0) - 1
            if n > 0:
                _rlm_live[self._id] = n
            else:
                _rlm_live.pop(self._id, None)
                _rlm_dead.append(self._id)
        except Exception:
            pass

    def _op(self, op, *args, **kwargs):
        return _rlm_call("_rlm_obj", self._id, op, *args, **kwargs)

    def __len__(self):
        return self._op("len")

    def __bool__(self):
        return len(self) > 0

    def __getitem__(self, k):
        n = len(self)
        if isinstance(k, slice):
            start, stop, step = k.indices(n)
            return self._op("slice", start, stop, step)
        if not isinstance(k, int):
            raise TypeError("indices must be integers or slices, not %s" % type(k).__name__)
        if k < 0:
            k += n
        if k < 0 or k >= n:
            raise IndexError("index out of range")
        return self._op("index", k)

    def __contains__(self, x):
        return self._op("contains", x)

    def __iter__(self):
        return iter(self._op("list"))

    def __str__(self):
        return self._op("str")

    def __repr__(self):
        return "<%s>" % self._type

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)

        def method(*args, **kwargs):
            return self._op("call", name, *args, **kwargs)

        method.__name__ = name
        return method


def _rlm_encode(o):
    if isinstance(o, _RlmObj):
        return {"__rlm_obj__": o._id}
    if isinstance(o, (set, frozenset, tuple)):
        return list(o)
    return str(o)


class _RlmList(list):
    """A list with attributes (a search's hits: .truncated, .total)."""


def _rlm_decode(d):
    if "__rlm_obj__" in d:
        return _RlmObj(d["__rlm_obj__"], d.get("type", "object"))
    if "__rlm_list__" in d:
        out = _RlmList(d["__rlm_list__"])
        for k, v in d.get("attrs", {}).items():
            setattr(out, k, v)
        return out
    return d


def _rlm_release():
    """Tells the host which objects no proxy refers to any more."""
    if _rlm_dead and "_rlm_release" in _rlm_bound:
        ids = _rlm_dead[:]
        del _rlm_dead[:]
        _rlm_call("_rlm_release", ids)


def _rlm_call(fn, *args, **kwargs):
    if len(_rlm_dead) >= 256 and fn != "_rlm_release":
        _rlm_release()
    request = _rlm_json.dumps({"fn": fn, "args": list(args), "kwargs": kwargs}, default=_rlm_encode)
    reply = _rlm_json.loads(_rlm_host_js(request), object_hook=_rlm_decode)
    if "error" in reply:
        if reply.get("fatal"):
            raise _RlmFatal(reply["error"])
        cls = _rlm_builtins.get(reply.get("type", ""), RuntimeError)
        if not (isinstance(cls, type) and issubclass(cls, Exception)):
            cls = RuntimeError
        raise cls(reply["error"])
    return reply.get("value")


def FINAL(value):
    raise _RlmFinal(value)


def FINAL_VAR(name):
    g = _rlm_user
    if not isinstance(name, str) or name not in g:
        raise NameError("FINAL_VAR: no variable named %r" % (name,))
    raise _RlmFinal(g[name])


def _rlm_visible(name):
    return not name.startswith("_") and name not in _rlm_hidden


def SHOW_VARS():
    rows = []
    for name in sorted(_rlm_user):
        if _rlm_visible(name):
            v = _rlm_user[name]
            r = repr(v)
            if len(r) > 80:
                r = r[:77] + "..."
            rows.append("%s: %s = %s" % (name, type(v).__name__, r))
    print("\n".join(rows) if rows else "(no variables)")


def _rlm_jsonable(v, depth=0):
    if depth > 64:
        return str(v)
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, dict):
        return {str(k): _rlm_jsonable(x, depth + 1) for k, x in v.items()}
    if isinstance(v, (list, tuple, set, frozenset)):
        return [_rlm_jsonable(x, depth + 1) for x in v]
    return str(v)


def _rlm_exec(code, limits_json):
    limits = _rlm_json.loads(limits_json)
    out = _RlmOut(int(limits.get("output_bytes", 65536)))
    old_out, old_err = _rlm_sys.stdout, _rlm_sys.stderr
    _rlm_sys.stdout = _rlm_sys.stderr = out
    _rlm_sys.setrecursionlimit(int(limits.get("recursion", 200)) + 50)
    result = {}
    try:
        try:
            compiled = compile(code, "<cell>", "exec")
        except SyntaxError as e:
            result["exception"] = {"type": "SyntaxError", "message": str(e.msg), "line": e.lineno or 0}
        else:
            try:
                exec(compiled, _rlm_user)
                a = _rlm_user.get("answer")
                if isinstance(a, dict) and a.get("ready") is True and "content" in a:
                    result["final"] = {"value": _rlm_jsonable(a["content"])}
            except _RlmFinal as f:
                result["final"] = {"value": _rlm_jsonable(f.value)}
            except _RlmFatal as e:
                result["fatal"] = str(e)
            except BaseException as e:
                line = 0
                for fr in _rlm_traceback.extract_tb(e.__traceback__):
                    if fr.filename == "<cell>":
                        line = fr.lineno or 0
                result["exception"] = {"type": type(e).__name__, "message": str(e)[:2000], "line": line}
    finally:
        _rlm_sys.stdout, _rlm_sys.stderr = old_out, old_err
        try:
            _rlm_release()
        except BaseException:
            pass
    result["stdout"] = out.text()
    result["cut"] = out.cut
    return _rlm_json.dumps(result, default=str)


_rlm_user = {"__name__": "__main__", "__builtins__": __builtins__}
for _n in ("FINAL", "FINAL_VAR", "SHOW_VARS"):
    _rlm_user[_n] = globals()[_n]
_rlm_user["_RlmObj"] = _RlmObj
# Host code (_rlm_define) binds plain values with _rlm_value(json_text).
_rlm_user["_rlm_value"] = lambda text: _rlm_json.loads(text, object_hook=_rlm_decode)
_rlm_hidden = set(["FINAL", "FINAL_VAR", "SHOW_VARS"])


_rlm_bound = set()


def _rlm_bind(names):
    """Binds a stub for each host builtin in the user namespace."""
    _rlm_bound.update(names)
    for name in names:
        def stub(*args, _rlm_name=name, **kwargs):
            return _rlm_call(_rlm_name, *args, **kwargs)
        stub.__name__ = name
        _rlm_user[name] = stub
        _rlm_hidden.add(name)


def _rlm_define(code):
    """Runs host-supplied Python (such as the context class) in the user namespace; its names are hidden."""
    before = set(_rlm_user)
    exec(compile(code, "<rlm-host>", "exec"), _rlm_user)
    _rlm_hidden.update(set(_rlm_user) - before)
