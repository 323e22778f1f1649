# The statistics module.
# ---- mean_median_mode
import statistics as st
data = [2, 3, 3, 5, 7, 10]
print(st.mean(data), st.median(data), st.mode(data), st.median_low(data), st.median_high(data))
print(st.mean([1.5, 2.5]), st.mean([1, 2]), type(st.mean([1, 2])).__name__, st.fmean([1, 2, 3, 4]))
# ---- variance_stdev
import statistics as st
data = [2, 4, 4, 4, 5, 5, 7, 9]
print(st.pvariance(data), st.pstdev(data), st.variance(data), st.stdev(data))
print(round(st.stdev([1.5, 2.5, 2.5, 2.75, 3.25, 4.75]), 10))
# ---- multimode_and_quantiles
import statistics as st
print(st.multimode("aabbbcccd"), st.multimode([1, 1, 2, 2]), st.mode(["red", "blue", "red"]))
print(st.quantiles([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], n=4))
print(st.quantiles(range(1, 101), n=10), st.quantiles([1, 5, 9], n=4, method="inclusive"))
# ---- empty_data_error
import statistics
statistics.mean([])
# ---- stdev_needs_two
import statistics
try:
    statistics.stdev([1])
except statistics.StatisticsError as e:
    print(type(e).__name__, e, issubclass(statistics.StatisticsError, ValueError))
# ---- geometric_harmonic
import statistics as st
print(round(st.geometric_mean([1, 2, 4, 8]), 10), st.harmonic_mean([40, 60]), st.harmonic_mean([1, 2, 4]))
# ---- median_grouped_and_floats
import statistics as st
print(st.median([1.5, 2.5, 3.5]), st.median([3, 1, 2, 10]), st.median_grouped([1, 2, 2, 3, 4, 4, 4, 4, 4, 5]))
print(st.mean([0.1, 0.2, 0.3]), st.fmean([0.1, 0.2, 0.3]))
# ---- correlation_regression
import statistics as st
x = [1, 2, 3, 4, 5]
y = [2, 4, 5, 4, 5]
print(round(st.correlation(x, y), 10), st.covariance(x, y))
lr = st.linear_regression(x, y)
print(lr.slope, lr.intercept)
# ---- fractions_and_decimals_mean
import statistics as st
from fractions import Fraction
print(st.mean([Fraction(1, 2), Fraction(1, 3)]), st.median([Fraction(1, 4), Fraction(3, 4)]))
# ---- latency_report
import statistics as st
lat = [120, 85, 90, 300, 95, 110, 2000, 105, 98, 101]
q = st.quantiles(lat, n=100)
print(st.mean(lat), st.median(lat), round(st.stdev(lat), 3), q[49], q[94], q[98])
