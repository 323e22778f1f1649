# CPython baseline of `rlm bench code-corpus`: reads {context, timeout,
# placeholder, trajectories: [[{id, code}, ...], ...]} on stdin, runs each
# trajectory's cells in order in one globals dict with the same stubs as code
# mode, and prints [{id, ok, type, message, stdout}, ...] as JSON.
import ast, builtins, contextlib, io, json, signal, sys

try:
    import resource
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
except Exception:
    pass


class _Final(BaseException):
    pass


class _Timeout(BaseException):
    pass


def _alarm(signum, frame):
    raise _Timeout()


class Stub:
    """Stands for a name of the trajectory's own scaffold (its tools and
    variables): calls, attributes and items give stubs, it iterates as empty."""

    def __call__(self, *args, **kwargs):
        return Stub()

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return Stub()

    def __getitem__(self, key):
        return Stub()

    def __iter__(self):
        return iter(())

    def __len__(self):
        return 0

    def __bool__(self):
        return False

    def __contains__(self, x):
        return False

    def __str__(self):
        return "<stub>"

    __repr__ = __str__

    def __format__(self, spec):
        return "<stub>"


Stub.__module__ = "builtins"  # printed as <class 'Stub'>, as code mode's stub type


MODULES = ["re", "json", "math", "collections", "string", "time"]  # predeclared in code mode
STUBS = set(MODULES) | {"context", "context_0", "history", "FINAL", "FINAL_VAR", "SHOW_VARS", "llm_query", "rlm_query",
         "llm_query_batched", "rlm_query_batched"}


def env_names(traj):
    """Names a trajectory reads but never binds: its scaffold's own names."""
    used, bound = set(), set()
    for cell in traj:
        try:
            tree = ast.parse(cell["code"])
        except SyntaxError:
            continue
        for n in ast.walk(tree):
            if isinstance(n, ast.Name):
                (used if isinstance(n.ctx, ast.Load) else bound).add(n.id)
            elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                bound.add(n.name)
            elif isinstance(n, ast.arg):
                bound.add(n.arg)
            elif isinstance(n, (ast.Import, ast.ImportFrom)):
                for a in n.names:
                    bound.add((a.asname or a.name).split(".")[0])
            elif isinstance(n, ast.ExceptHandler) and n.name:
                bound.add(n.name)
    return sorted(used - bound - set(dir(builtins)) - STUBS)


signal.signal(signal.SIGALRM, _alarm)
req = json.load(sys.stdin)
ctx, timeout, ph = req["context"], req["timeout"], req["placeholder"]
out = []
envs = []
real_stdout = sys.stdout

for traj in req["trajectories"]:
    g = {"__name__": "__main__"}

    def FINAL(value=None):
        raise _Final()

    def FINAL_VAR(name):
        if isinstance(name, str) and name.strip().strip("\"'") not in g:
            raise NameError("FINAL_VAR: no variable named %r" % name)
        raise _Final()

    def SHOW_VARS():
        print(sorted(k for k in g if not k.startswith("_")))

    def llm_query(prompt, model=None, **kw):
        return ph

    def rlm_query(query, context=None, **kw):
        return ph

    def llm_query_batched(prompts, model=None, concurrency=None, **kw):
        return [ph for _ in prompts]

    def rlm_query_batched(queries, context=None, **kw):
        return [ph for _ in queries]

    for m in MODULES:
        g[m] = __import__(m)
    g.update(context=ctx, context_0=ctx, history=[], FINAL=FINAL, FINAL_VAR=FINAL_VAR, SHOW_VARS=SHOW_VARS,
             llm_query=llm_query, rlm_query=rlm_query, llm_query_batched=llm_query_batched,
             rlm_query_batched=rlm_query_batched)
    env = env_names(traj)
    envs.append(env)
    for name in env:
        g[name] = Stub()
    for cell in traj:
        res = {"id": cell["id"], "ok": True, "type": "", "message": ""}
        buf = io.StringIO()
        try:
            code = compile(cell["code"], "<cell>", "exec")
            signal.setitimer(signal.ITIMER_REAL, timeout)
            try:
                with contextlib.redirect_stdout(buf):
                    exec(code, g)
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
        except _Final:
            pass
        except _Timeout:
            res.update(ok=False, type="TimeoutError", message="cell timeout")
        except BaseException as e:  # noqa: B902 - the model's code may raise anything
            res.update(ok=False, type=type(e).__name__, message=str(e)[:300])
        res["stdout"] = buf.getvalue()
        out.append(res)

json.dump({"results": out, "env": envs}, real_stdout)
