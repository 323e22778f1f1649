# Records CPython 3.12's (that is, the C library's) math.log, log2, exp, sin,
# cos, acos and pow for crmath's tests. Regenerate from this directory with:
#   /root/.pyenv/versions/3.12.1/bin/python3.12 testdata/gen.py > testdata/math.txt
# Each line: function name, argument(s), result, all as float.hex().
import math, random, sys
assert sys.version_info[:2] == (3, 12)
r = random.Random(20240601)
def emit(name, args, fn):
    try:
        v = fn(*args)
    except (ValueError, OverflowError):
        return
    print(name, *[a.hex() for a in args], v.hex())
edge = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 1e-300, 5e-324, 1e300, 1.7976931348623157e308, 0.1, 3.0, 10.0, 1e-5,
        math.pi, math.pi/2, math.pi/4, 700.0, 709.78, -708.0, -745.0, -744.5, 1e-10, 0.9999999999999999, 1.0000000000000002]
for x in edge:
    for name, fn in [("log", math.log), ("log2", math.log2), ("exp", math.exp), ("sin", math.sin), ("cos", math.cos), ("acos", math.acos)]:
        emit(name, [x], fn)
        emit(name, [-x], fn)
for x in edge[:12]:
    for y in [0.5, 2.0, -1.0, 3.0, 0.3, -2.5, 100.0, 1e-3]:
        emit("pow", [x, y], math.pow)
print("# random arguments below: one-ulp differences allowed")
for i in range(3000):
    u = r.random()
    emit("log", [u], math.log)
    emit("log", [r.uniform(0, 1e6)], math.log)
    emit("log2", [u], math.log2)
    emit("exp", [r.uniform(-745, 709)], math.exp)
    emit("exp", [r.uniform(-1, 1)], math.exp)
    emit("sin", [r.uniform(-10, 10)], math.sin)
    emit("cos", [r.uniform(-10, 10)], math.cos)
    emit("acos", [r.uniform(-1, 1)], math.acos)
    emit("pow", [r.uniform(0, 100), r.uniform(-20, 20)], math.pow)
    emit("pow", [1 - r.random(), -1 / r.uniform(0.1, 5)], math.pow)
