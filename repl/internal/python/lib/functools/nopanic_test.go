package functools

import (
	"context"
	"runtime/debug"
	"testing"
	"time"

	"github.com/rlm-go/rlm/repl/internal/python/lib/bisect"
	"github.com/rlm-go/rlm/repl/internal/python/lib/libtest"
)

// noPanicSrc calls every callable of the modules of this package and of
// collections, collections.abc, itertools, heapq, operator and bisect
// (module functions, classes, their methods bound and unbound, and the
// methods of instances made from them) with zero to three arguments drawn
// from a set of values, ignoring the Python exceptions: it checks that no
// argument makes the Go code panic.
const noPanicSrc = `
import collections, collections.abc, itertools, functools, operator, heapq, bisect
vals = [None, 2, -1, "ab", [3, 1], (1, 2), {"a": 1}, len, collections.Counter("ab")]
def calls(fn):
    try:
        yield fn()
    except BaseException:
        pass
    for a in vals:
        try:
            yield fn(a)
        except BaseException:
            pass
        for b in vals[:6]:
            try:
                yield fn(a, b)
            except BaseException:
                pass
    for kw in ["key", "n", "maxsize", "fillvalue", "initial", "repeat", "r", "last", "default", "x", "m"]:
        for a in (None, 1, [2, 1]):
            try:
                yield fn(**{kw: a})
            except BaseException:
                pass
            try:
                yield fn([3, 1], **{kw: a})
            except BaseException:
                pass
    for a in vals[::3]:
        for b in vals[1::3]:
            for c in vals[2::3]:
                try:
                    yield fn(a, b, c)
                except BaseException:
                    pass
def results(fn):
    for r in calls(fn):
        try:
            repr(r)
            str(r)
            len(r)
        except BaseException:
            pass
        try:
            for i, x in enumerate(r):
                if i > 20:
                    break
        except BaseException:
            pass
        yield r
seen = set()
count = 0
def attrs(x):
    for name in dir(x):
        if name in ("__class__", "__subclasshook__", "__init_subclass__", "__new__"):
            continue
        try:
            yield getattr(x, name)
        except BaseException:
            pass
for mod in [collections, collections.abc, itertools, functools, operator, heapq, bisect]:
    for obj in list(attrs(mod)):
        if not callable(obj) or id(obj) in seen:
            continue
        seen.add(id(obj))
        instances = []
        for r in results(obj):
            count += 1
            if isinstance(obj, type) and isinstance(r, obj) and len(instances) < 4:
                instances.append(r)
        if isinstance(obj, type):
            for m in list(attrs(obj)):
                if callable(m):
                    for r in results(m):
                        count += 1
            for inst in instances:
                for m in list(attrs(inst)):
                    if callable(m):
                        for r in results(m):
                            count += 1
print(count > 5000)
`

func TestNoPanics(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("panic: %v\n%s", r, debug.Stack())
		}
	}()
	res := libtest.RunContext(ctx, noPanicSrc, Register, bisect.Register)
	if res.Err != nil || res.Exc != nil {
		t.Fatalf("run ended: %v %v (stdout %q)", res.Err, res.Exc, res.Stdout)
	}
	if res.Stdout != "True\n" {
		t.Fatalf("stdout %q", res.Stdout)
	}
}
