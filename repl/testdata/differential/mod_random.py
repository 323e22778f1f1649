# The random module, seeded: CPython's exact Mersenne Twister sequences.
# ---- seed_random_floats
import random
random.seed(42)
print([random.random() for _ in range(5)])
# ---- seed_randint_randrange
import random
random.seed(42)
print([random.randint(1, 100) for _ in range(10)])
print([random.randrange(0, 50, 5) for _ in range(5)], random.randrange(10))
# ---- seed_choice_choices_sample
import random
random.seed(7)
items = ["red", "green", "blue", "yellow", "black"]
print(random.choice(items), random.choices(items, k=4), random.sample(items, 3))
print(random.choices(items, weights=[10, 1, 1, 1, 1], k=6), random.sample(range(100), 5))
# ---- seed_shuffle
import random
random.seed(123)
xs = list(range(10))
random.shuffle(xs)
print(xs)
deck = [f"{r}{s}" for s in "SH" for r in "A23"]
random.shuffle(deck)
print(deck)
# ---- seed_uniform_gauss
import random
random.seed(2024)
print(random.uniform(1, 10), random.gauss(0, 1), random.normalvariate(10, 2), random.triangular(0, 10, 3))
print(random.expovariate(1.5), random.betavariate(2, 3), random.getrandbits(32), random.getrandbits(70))
# ---- seed_string_and_reseed
import random
random.seed("hello")
a = [random.random() for _ in range(3)]
random.seed("hello")
b = [random.random() for _ in range(3)]
print(a == b, a)
random.seed(0)
print(random.random(), random.randint(0, 10 ** 30))
# ---- random_instance
import random
r1 = random.Random(5)
r2 = random.Random(5)
print(r1.random() == r2.random(), r1.randint(1, 6), r2.choice("abc"), r1.sample([1, 2, 3, 4], 2))
st = r1.getstate()
x = r1.random()
r1.setstate(st)
print(x == r1.random())
# ---- monte_carlo_pi
import random
random.seed(1)
n = 20000
inside = sum(1 for _ in range(n) if random.random() ** 2 + random.random() ** 2 <= 1)
print(inside, 4 * inside / n)
# ---- sample_errors
import random
random.seed(3)
try:
    random.sample([1, 2], 3)
except ValueError as e:
    print("ValueError:", e)
random.choice([])
# ---- seeded_simulation_report
import random
random.seed(99)
latencies = [round(random.lognormvariate(4, 0.5), 1) for _ in range(8)]
print(latencies)
print(max(latencies), min(latencies), sorted(latencies)[len(latencies) // 2])
# ---- randbytes_and_binomial
import random
random.seed(11)
print(random.randbytes(6), random.binomialvariate(10, 0.3), random.choices("ab", cum_weights=[1, 10], k=5))
