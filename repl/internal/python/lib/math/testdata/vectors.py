# Records CPython 3.12's results of the math functions whose values depend
# on how they are computed, for random arguments, into vectors.txt.
#
# Regenerate from the package directory with
#
#	/root/.pyenv/versions/3.12.1/bin/python3.12 testdata/vectors.py
#
# Each line is: function name, the arguments and the result, as float.hex.
import math
import os
import random

here = os.path.dirname(os.path.abspath(__file__))
rng = random.Random(20240612)


def wide():
    k = rng.random()
    if k < 0.4:
        return rng.uniform(-10, 10)
    if k < 0.6:
        return rng.uniform(-1e6, 1e6)
    if k < 0.7:
        return rng.choice([-1, 1]) * 2.0 ** rng.uniform(-1074, 1023)
    if k < 0.8:
        return rng.randint(1, 100000) * math.pi / 2 + rng.uniform(-1e-9, 1e-9)
    return rng.choice([-1, 1]) * 2.0 ** rng.uniform(-60, 60)


def unit():
    return rng.uniform(-1, 1)


gens = {
    "sin": wide, "cos": wide, "tan": wide, "atan": wide,
    "asin": unit, "acos": unit,
    "sinh": lambda: rng.uniform(-30, 30), "cosh": lambda: rng.uniform(-30, 30),
    "tanh": lambda: rng.uniform(-5, 5), "asinh": wide, "acosh": lambda: 1 + abs(wide()),
    "atanh": unit, "expm1": lambda: rng.uniform(-40, 40), "log1p": lambda: rng.uniform(-0.99, 1e6),
    "exp": lambda: rng.uniform(-700, 700), "exp2": lambda: rng.uniform(-1000, 1000),
    "log": lambda: abs(wide()), "log2": lambda: abs(wide()), "log10": lambda: abs(wide()),
}
lines = []
for name, gen in gens.items():
    f = getattr(math, name)
    for _ in range(1500):
        x = gen()
        try:
            r = f(x)
        except (ValueError, OverflowError):
            continue
        lines.append(f"{name} {x.hex()} {r.hex()}")
for _ in range(1500):
    y, x = wide(), wide()
    lines.append(f"atan2 {y.hex()} {x.hex()} {math.atan2(y, x).hex()}")
for _ in range(1500):
    x, y = rng.uniform(0, 100), rng.uniform(-20, 20)
    lines.append(f"pow {x.hex()} {y.hex()} {math.pow(x, y).hex()}")
with open(os.path.join(here, "vectors.txt"), "w") as f:
    f.write("\n".join(lines) + "\n")
