# Cases for the statistics module wrapper; module_gen.py records CPython's output.
# ---- means
import statistics as st
print(st.mean([1, 2, 3, 4]), st.mean([1, 2]), st.mean([1.5, 2, 3]), st.mean([True, True]), st.mean([True, False]), st.mean(iter([10**30, 1])))
print(st.mean(range(1, 101)), st.mean([0.1] * 10), st.mean((1e308, 1e308)), st.mean([float("inf"), 1]))
print(st.fmean([1, 2, 3, 4]), st.fmean(x for x in [0.1, 0.2, 0.3]), st.fmean([1, 2, 3], weights=[0.25, 0.25, 0.5]), st.fmean([3.5, 4.0, 5.25], [1, 2, 3]))
print(st.geometric_mean([54, 24, 36]), st.geometric_mean([1.5, 2.5]), st.harmonic_mean([40, 60]), st.harmonic_mean([40, 60], weights=[5, 30]))
print(st.harmonic_mean([2.5]), st.harmonic_mean([3]), st.harmonic_mean([0, 5]), st.harmonic_mean([1, 2, 4]), st.harmonic_mean([True, 2]))
# ---- mean_errors
import statistics as st
for f, args in [(st.mean, ([],)), (st.mean, (["a"],)), (st.fmean, ([],)), (st.fmean, (["a"],)), (st.fmean, ([1, 2], [1])), (st.fmean, ([1, 2], [0, 0])),
                (st.geometric_mean, ([],)), (st.geometric_mean, ([1, -1],)), (st.geometric_mean, ([0, 4],)), (st.harmonic_mean, ([],)), (st.harmonic_mean, ([-1, 2],)),
                (st.harmonic_mean, (["x"],)), (st.harmonic_mean, ([1, 2], [1])), (st.mean, (5,))]:
    try:
        print(f(*args))
    except Exception as e:
        print(type(e).__name__, e)
# ---- medians
import statistics as st
print(st.median([3, 1, 2]), st.median([4, 1, 3, 2]), st.median([1, 2.5]), st.median([1, 3]), st.median(["b", "a", "c"]), st.median([True, False, True]))
print(st.median_low([5, 1, 3, 2]), st.median_high([5, 1, 3, 2]), st.median_low(["x", "y"]), st.median_high("hello"), st.median_low([1.5]))
print(st.median_grouped([1, 2, 2, 3, 4, 4, 4, 4, 4, 5]), st.median_grouped([52, 52, 53, 54]), st.median_grouped([1, 3, 3, 5, 7], interval=2), st.median_grouped(["1", "2", "3"]), st.median_grouped([2.5]))
# ---- median_errors
import statistics as st
for f, args in [(st.median, ([],)), (st.median_low, ([],)), (st.median_high, ([],)), (st.median_grouped, ([],)), 
                (st.median, (["a", "b"],)), (st.median_grouped, (["a"],)), (st.median_grouped, ([None],)), (st.median_grouped, ([1], "x"))]:
    try:
        print(f(*args))
    except Exception as e:
        print(type(e).__name__, e)
# ---- modes
import statistics as st
print(st.mode([1, 1, 2, 3, 3, 3]), st.mode(["red", "blue", "blue", "red"]), st.mode("abracadabra"), st.mode([(1, 2), (1, 2), 3]), st.mode([1, 1.0, True, 2]))
print(st.multimode("aabbbbccddddeeffffgg"), st.multimode([]), st.multimode([3, 1, 2]), st.multimode(iter([1, 1, 2, 2, 3])))
try:
    st.mode([])
except st.StatisticsError as e:
    print(type(e).__name__, e, isinstance(e, ValueError))
try:
    st.mode([[1], [1]])
except TypeError as e:
    print(type(e).__name__, e)
# ---- quantiles_cases
import statistics as st
data = [105, 129, 87, 86, 111, 111, 89, 81, 108, 92, 110, 100, 75, 105, 103, 109, 76, 119, 99, 91, 103, 129, 106, 101, 84, 111, 74, 87, 86, 103, 103, 106, 86, 111, 75, 87, 102, 121, 111, 88, 89, 101, 106, 95, 103, 107, 101, 81, 109, 104]
print([round(q, 1) for q in st.quantiles(data, n=10)])
print(st.quantiles(data), st.quantiles(data, n=4, method="inclusive"), st.quantiles([1, 2], n=1), st.quantiles([1.5, 2.5, 10], n=3))
print(st.quantiles([1, 2, 3, 4, 5], n=6), st.quantiles([1, 2, 3, 4, 5], n=6, method="inclusive"), st.quantiles(range(10), n=3))
for args, kw in [(([1, 2],), {"n": 0}), (([1],), {}), (([],), {}), (([1, 2],), {"method": "other"}), (([1, 2],), {"n": 2.0}), (([1, 2], 4), {})]:
    try:
        print(st.quantiles(*args, **kw))
    except Exception as e:
        print(type(e).__name__, e)
# ---- spread
import statistics as st
data = [2.75, 1.75, 1.25, 0.25, 0.5, 1.25, 3.5]
print(st.variance(data), st.pvariance(data), st.stdev(data), st.pstdev(data))
print(st.variance([1, 2, 3, 4]), st.pvariance([1, 2, 3, 4]), st.variance([1, 3, 5]), st.stdev([1, 3, 5]), st.pstdev([2, 4, 4, 4, 5, 5, 7, 9]))
print(st.variance([1, 2, 3], xbar=2), st.pvariance([1, 2, 3, 4], mu=2.5), st.stdev(range(10), 4.5), st.variance([True, False, True]), st.variance([10**20, 10**20 + 2]))
for f, args in [(st.variance, ([1],)), (st.pvariance, ([],)), (st.stdev, ([5],)), (st.pstdev, ([],)), (st.variance, (["a", "b"],))]:
    try:
        print(f(*args))
    except Exception as e:
        print(type(e).__name__, e)
# ---- bivariate
import statistics as st
x = [1, 2, 3, 4, 5, 6, 7, 8, 9]
y = [1, 2, 3, 1, 2, 3, 1, 2, 3]
print(st.covariance(x, y), st.correlation(x, y), st.correlation(x, x), st.correlation(x, [9 - i for i in x]))
print(st.correlation([1, 2, 3, 4, 5], [1, 4, 9, 16, 25], method="ranked"), st.correlation([3, 1, 2, 2], [1, 2, 3, 3], method="ranked"))
lr = st.linear_regression([1, 2, 3, 4, 5], [3, 5, 7, 9, 11])
print(lr, lr.slope, lr.intercept, type(lr).__name__, tuple(lr), lr == (2.0, 1.0))
print(st.linear_regression([1, 2, 3], [2, 4, 7], proportional=True))
for f, args, kw in [(st.covariance, ([1, 2], [1]), {}), (st.covariance, ([1], [1]), {}), (st.correlation, ([1, 1, 1], [1, 2, 3]), {}), (st.correlation, ([1, 2], [1, 2]), {"method": "x"}),
                    (st.linear_regression, ([1, 1], [1, 2]), {}), (st.linear_regression, ([1, 2], [1]), {}), (st.covariance, (iter([1, 2]), [1, 2]), {}), (st.covariance, (), {"x": [1, 2], "y": [1, 2]})]:
    try:
        print(f(*args, **kw))
    except Exception as e:
        print(type(e).__name__, e)
# ---- module_attrs
import statistics
print(issubclass(statistics.StatisticsError, ValueError), statistics.StatisticsError.__module__, statistics.StatisticsError.__name__)
print(sorted(statistics.__all__))
try:
    statistics.median()
except TypeError as e:
    print(e)
try:
    statistics.mean([1], 2)
except TypeError as e:
    print(e)
# ---- refused_normal_dist
import statistics
print("x")
statistics.NormalDist(0, 1)
# ---- error_median_mixed
import statistics as st
st.median([1, "a"])
# ---- fractions_exact
import statistics as st
from fractions import Fraction as F
print(st.mean([F(1, 2), F(1, 3)]), st.mean([F(1, 2), 1, True]), repr(st.mean([F(2), F(4)])), st.median([F(1, 4), F(3, 4)]), st.median_low([F(1, 3), F(1, 2)]))
print(st.mode([F(1, 2), F(1, 2), 3]), st.quantiles([F(1), F(2), F(5)], n=4), st.median_grouped([F(1), F(2), F(2)]), st.harmonic_mean([F(3, 4)]))
# ---- fractions_by_float
import statistics as st
from fractions import Fraction as F
data = [F(1, 3), F(2, 3), F(5, 7), 1]
print(st.fmean(data), st.geometric_mean(data), st.covariance(data, [1, 2, 3, 5]), st.correlation(data, [1, 2, 3, 5]), st.linear_regression(data, [1, 2, 3, 5]))
# ---- refused_fraction_variance
import statistics as st
from fractions import Fraction as F
print(st.mean([F(1, 3), F(2, 3)]))
st.variance([F(1, 3), F(2, 3)])
# ---- refused_fraction_float_mean
import statistics as st
from fractions import Fraction as F
st.mean([F(1, 3), 0.5])
