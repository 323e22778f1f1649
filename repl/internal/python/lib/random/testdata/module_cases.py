# Cases for the random module wrapper; module_gen.py records CPython's output.
# ---- seeds
import random
for s in [0, 1, -1, 2**40, 2**100 + 7, 3.5, -0.25, 1e300, True, "abc", b"abc", bytearray(b"abc"), "héllo ✓"]:
    random.seed(s)
    print(repr(s), random.random(), random.getrandbits(40))
random.seed("abc", version=1)
print(random.random())
random.seed(b"abc", version=1)
print(random.random())
random.seed(12, version=1)
print(random.random())
# ---- seed_type_error
import random
random.seed([1, 2])
# ---- state_roundtrip
import random
r = random.Random(99)
s = r.getstate()
print(s[0], len(s[1]), s[1][-1], s[2], type(s[1]).__name__)
a = [r.random() for _ in range(3)]
r.gauss()
s2 = r.getstate()
print(type(s2[2]).__name__)
r.setstate(s)
print(a == [r.random() for _ in range(3)])
r.setstate(s2)
g1 = r.gauss()
r.setstate(s2)
print(g1 == r.gauss(), r.gauss_next)
r.setstate(list(s))
print(r.random() == a[0])
r.setstate((2, s[1], None))
print(r.random() == a[0])
# ---- setstate_errors
import random
r = random.Random()
s = r.getstate()
for bad in [(4, s[1], None), (3, s[1][:-1], None), (3, list(s[1]), None), (3, s[1][:-1] + (700,), None), (3, (-1,) + s[1][1:], None), (3, s[1])]:
    try:
        r.setstate(bad)
    except Exception as e:
        print(type(e).__name__, e)
# ---- integers
import random
random.seed(5)
print([random.randrange(10) for _ in range(8)], [random.randrange(-5, 5) for _ in range(8)])
print([random.randrange(100, 0, -7) for _ in range(8)], [random.randint(-3, 3) for _ in range(8)])
print(random.randrange(10**30), random.randint(0, 2**70), random.randrange(True, 10, True), random.randrange(0, 10, 1))
print(random.getrandbits(0), random.getrandbits(1), random.getrandbits(64), random.getrandbits(129))
print(random.randbytes(0), random.randbytes(9), random.randbytes(n=3))
# ---- randrange_errors
import random
for args in [(0,), (-3,), (5, 5), (5, 1), (1, 10, 0), (10, 1, 2), (1.5,), (1, 2.5), (True, False), (1, None, 2), ("a",)]:
    try:
        print(random.randrange(*args))
    except Exception as e:
        print(type(e).__name__, e)
for args in [(5, 3), (1.0, 2), (1, 2.0), ("a", "b")]:
    try:
        print(random.randint(*args))
    except Exception as e:
        print(type(e).__name__, e)
for k in [-1, 2.0, "3"]:
    try:
        print(random.getrandbits(k))
    except Exception as e:
        print(type(e).__name__, e)
for n in [-1, 1.5]:
    try:
        print(random.randbytes(n))
    except Exception as e:
        print(type(e).__name__, e)
# ---- choice_shuffle
import random
random.seed(8)
print(random.choice("hello"), random.choice(range(100, 200)), random.choice((1, 2, 3)), random.choice([None]))
xs = list(range(20))
random.shuffle(xs)
print(xs)
class Seq:
    def __init__(self, items): self.items = list(items)
    def __len__(self): return len(self.items)
    def __getitem__(self, i): return self.items[i]
    def __setitem__(self, i, v): self.items[i] = v
s = Seq("abcdefgh")
random.shuffle(s)
print(s.items, random.choice(s))
t = (1,)
random.shuffle(t)
print(t)
for bad in [[], "", {1, 2}, 5]:
    try:
        random.choice(bad)
    except Exception as e:
        print(type(e).__name__, e)
try:
    random.shuffle((1, 2, 3))
except Exception as e:
    print(type(e).__name__, e)
# ---- sample_cases
import random
random.seed(21)
print(random.sample(range(10), 4), random.sample("abcdefg", 3), random.sample((5, 6, 7), 3), random.sample([1, 2], 0))
print(random.sample(range(10**12), 5), random.sample(list(range(1000)), 8))
print(random.sample(["a", "b", "c"], 5, counts=[1, 2, 3]), random.sample("xy", k=3, counts=[2, 1]))
print(random.sample(population=range(30), k=29)[:5])
# ---- sample_errors
import random
for args, kw in [(({1, 2}, 1), {}), (({"a": 1}, 1), {}), (([1, 2], 3), {}), (([1, 2], -1), {}), (([1, 2], 1.0), {}), (([1, 2], 1), {"counts": [1]}),
                 (([1, 2], 1), {"counts": [1.0, 2]}), (([1, 2], 1), {"counts": [0, 0]}), (([], 0), {"counts": []}), (([1, 2], 9), {"counts": [1, 2]})]:
    try:
        print(random.sample(*args, **kw))
    except Exception as e:
        print(type(e).__name__, e)
# ---- choices_cases
import random
random.seed(33)
pop = ["a", "b", "c", "d"]
print(random.choices(pop), random.choices(pop, k=6), random.choices(pop, [1, 0, 0, 5], k=5))
print(random.choices(pop, cum_weights=[1, 1, 2, 10], k=5), random.choices(pop, weights=[0.5, 1, 2.5, 0], k=5))
print(random.choices(range(1000), k=4), random.choices("xyz", weights=(True, False, True), k=4), random.choices(pop, k=0), random.choices(pop, k=-3))
print(random.choices([], k=0), random.choices(pop, weights=[1, 2.5, 3, 4], k=3))
# ---- choices_errors
import random
for args, kw in [((["a"], 3), {}), ((["a", "b"],), {"weights": [1], "k": 2}), ((["a"],), {"weights": [1], "cum_weights": [1]}),
                 ((["a", "b"],), {"weights": [0, 0]}), ((["a", "b"],), {"weights": [1, float("inf")]}), (([],), {"k": 1}),
                 (([],), {"weights": []}), ((["a"],), {"k": 1.5})]:
    try:
        print(random.choices(*args, **kw))
    except Exception as e:
        print(type(e).__name__, e)
# ---- refused_choices_big_weights
import random
print(random.choices("ab", [1, 2]) is not None)
random.choices("ab", [2**60, 1])
# ---- distributions
import random
random.seed(2024)
print(random.uniform(1, 3), random.uniform(2.5, -1), random.uniform(0, 10**20), random.triangular(), random.triangular(1, 3), random.triangular(0, 10, 2))
print(random.triangular(5, 5, 5), random.triangular(2.0, 2.0, 1), random.normalvariate(), random.normalvariate(5, 0.5), random.gauss(), random.gauss(1, 2), random.gauss(mu=3))
print(random.lognormvariate(0, 1), random.expovariate(), random.expovariate(0.2), random.vonmisesvariate(1, 0), random.vonmisesvariate(1, 4))
print(random.gammavariate(0.5, 1), random.gammavariate(1, 2), random.gammavariate(3, 0.5), random.betavariate(0.5, 0.5), random.betavariate(2, 5))
print(random.paretovariate(3), random.weibullvariate(1, 1.5), random.binomialvariate(), random.binomialvariate(20, 0.3), random.binomialvariate(500, 0.4), random.binomialvariate(5, 1.0), random.binomialvariate(True, 1.0), random.binomialvariate(5, 0.0), random.binomialvariate(40, 0.9))
# ---- distribution_errors
import random
for f, args in [(random.gammavariate, (0, 1)), (random.gammavariate, (1, -1)), (random.binomialvariate, (-1, 0.5)), (random.binomialvariate, (5, 1.5)),
                (random.expovariate, (0,)), (random.paretovariate, (0,)), (random.triangular, (1, 1, 0.5)), (random.lognormvariate, (1,)), (random.uniform, ("a", 1))]:
    try:
        print(f(*args))
    except Exception as e:
        print(type(e).__name__, e)
# ---- random_class
import random
r = random.Random(7)
q = random.Random()
q.seed(7)
print(r.random() == q.random(), isinstance(r, random.Random), type(r).__name__, random.Random.__module__, random.Random.VERSION)
print(random.Random(x=3).random() == random.Random(3).random(), r.gauss_next)
class Dice(random.Random):
    def roll(self):
        return self.randint(1, 6)
d = Dice(1)
print([d.roll() for _ in range(10)], isinstance(d, random.Random))
class Seeded(random.Random):
    def __init__(self):
        super().__init__(42)
        self.name = "s"
print(Seeded().random() == random.Random(42).random(), Seeded().name)
# ---- random_class_errors
import random
for f in [lambda: random.Random(1, 2), lambda: random.random(1), lambda: random.getrandbits(), lambda: random.choice(), lambda: random.sample([1]), lambda: random.shuffle([], 1)]:
    try:
        f()
    except Exception as e:
        print(type(e).__name__, e)
# ---- module_attrs
import random
print(sorted(n for n in random.__all__ if not n.startswith("_")))
print(random.BPF, random.RECIP_BPF, random.TWOPI, random.LOG4, random.NV_MAGICCONST, random.SG_MAGICCONST)
print(callable(random.random), issubclass(random.SystemRandom, random.Random))
# ---- refused_system_random
import random
print("before")
random.SystemRandom().random()
# ---- refused_subclass_override
import random
class Fixed(random.Random):
    def random(self):
        return 0.5
f = Fixed(1)
print(f.random())
f.choice([1, 2, 3])
