package repl

import "testing"

// TestCPythonCompat runs cells whose expected output is what CPython 3.12
// prints for them: places where code mode gave a different answer or a
// different exception type.
func TestCPythonCompat(t *testing.T) {
	cases := []cellCase{
		// re: Python 3.7+ keeps an empty match right after a non-empty one.
		{"re.sub empty match after a match", `print(re.sub('x*', '-', 'abxd'), re.subn(r'\s*', '|', 'a b'))`, "-a-b--d- ('|a||b|', 4)\n", ""},
		{"re.split empty matches", `print(re.split(r'x*', 'axbc'), re.split(r'\b', 'a b'), re.split(r'(x*)', 'axb'))`,
			"['', 'a', '', 'b', 'c', ''] ['', 'a', ' ', 'b', ''] ['', '', 'a', 'x', '', '', 'b', '', '']\n", ""},
		{"re.findall empty matches", `print(re.findall(r'\w*', 'ab cd'), re.findall(r'a|', 'baa'), re.findall(r'(x*)', 'axb'), re.compile(r'x*').findall('axxb', 1))`,
			"['ab', '', 'cd', ''] ['', 'a', 'a', ''] ['', 'x', '', ''] ['xx', '', '']\n", ""},
		{"re.finditer empty matches", `print([m.span() for m in re.finditer(r'x*', 'axxb')])`, "[(0, 0), (1, 3), (3, 3), (4, 4)]\n", ""},
		{"re.sub empty match keeps context", `print(re.sub(r'$', '!', 'a\nb', flags=re.M), re.sub(r'\B', '|', 'hi yo'), re.sub(r'é*', '-', 'aéb'))`,
			"a!\nb! h|i y|o -a--b-\n", ""},

		// math: domain and range errors
		{"math.sqrt(-1) is ValueError", `math.sqrt(-1)`, "", "ValueError"},
		{"math.log(0) is ValueError", `math.log(0)`, "", "ValueError"},
		{"math.log(-1) is ValueError", `math.log(-1)`, "", "ValueError"},
		{"math.acos(2) is ValueError", `math.acos(2)`, "", "ValueError"},
		{"math.exp(1000) is OverflowError", `math.exp(1000)`, "", "OverflowError"},
		{"math.pow overflow is OverflowError", `math.pow(10, 400)`, "", "OverflowError"},
		{"math.floor(inf) is OverflowError", `math.floor(float('inf'))`, "", "OverflowError"},
		{"int(nan) is ValueError", `int(float('nan'))`, "", "ValueError"},
		{"round(nan) is ValueError", `round(float('nan'))`, "", "ValueError"},
		{"except ValueError catches a domain error", "def f(x):\n    try:\n        return math.sqrt(x)\n    except ValueError:\n        return None\nprint(f(-4), f(4))", "None 2.0\n", ""},
		{"math functions", `print(math.factorial(20), math.comb(10, 3), math.perm(5, 2), math.prod([1, 2, 3, 4]), math.fsum([0.1] * 10), math.trunc(-2.7), math.isqrt(17), math.lcm(4, 6), math.log(10**400), math.log10(1000), math.gcd(2**70, 2**65))`,
			"2432902008176640000 120 20 24 1.0 -2 4 12 921.0340371976182 3.0 36893488147419103232\n", ""},
		{"math.factorial(-1) is ValueError", `math.factorial(-1)`, "", "ValueError"},
		{"a zero slice step is ValueError", `'abc'[::0]`, "", "ValueError"},

		// float ** overflow
		{"float power overflow", `2.0 ** 10000`, "", "OverflowError"},
		{"int to negative float power overflow", `pow(2.0, 1024)`, "", "OverflowError"},
		{"float power accuracy", `print(100 ** 1.5, 1.1 ** 20, 10.0 ** 308, 0.1 ** 20, 7.3 ** -3, 2 ** 12.5, math.pow(1.0001, 300))`,
			"1000.0 6.727499949325611 1e+308 1.0000000000000011e-20 0.0025705817483554706 5792.618751480198 1.0304529883759093\n", ""},
		{"exp and log accuracy", `print(math.exp(1/3*88.1), math.log10(50.7), math.log2(3), math.log(7.77))`,
			"5672588565809.726 1.705007959333336 1.584962500721156 2.050270164379556\n", ""},

		// augmented power assignment
		{"augmented power", "x = 2\nx **= 10\nl = [3]\nl[0] **= 2\nd = {'a': 2.0}\nd['a'] **= 0.5\nif True: x **= 2; l[0] **= 1\nprint(x, l, d)",
			"1048576 [9] {'a': 1.4142135623730951}\n", ""},
		{"augmented power in try", "q = 2\ntry:\n    q **= 3\nexcept ValueError:\n    pass\nprint(q)", "8\n", ""},

		// bools are ints in arithmetic
		{"sum of bools", `print(sum(x > 0 for x in [1, -2, 3]), sum([True, True, False]))`, "2 2\n", ""},
		{"bool operands of arithmetic", "n = 0\nn += 3 > 1\nn -= 'a' in 'xyz'\nprint(n, 2 * (1 == 1), (1 < 2) + (2 < 3), -(1 > 0), True * 3, 'ab' * (1 > 0))", "1 2 2 -1 3 ab\n", ""},
		{"format string of a comparison keeps the bool", "f = '%s|%s'\nprint(f % (1 > 0, 2 < 1))", "True|False\n", ""},
		{"sum compensated floats", `print(sum([0.1] * 10), sum([1e100, 1.0, -1e100]), sum([1, 0.1, 0.2]))`, "1.0 1.0 1.3\n", ""},

		// str, dict and friends
		{"splitlines on CRLF", `print("a\nb\r\nc\n".splitlines(), "x\r\n\ry".splitlines(True))`, "['a', 'b', 'c'] ['x\\r\\n', '\\r', 'y']\n", ""},
		{"unbound str methods", `print(list(map(str.strip, [' a ', 'b '])), sorted(['b', 'A', 'c'], key=str.lower), str.upper('x'), list(filter(str.isdigit, 'a1b2')))`,
			"['a', 'b'] ['A', 'b', 'c'] X ['1', '2']\n", ""},
		{"dict.fromkeys", `print(dict.fromkeys(['a', 'b'], 0), dict.fromkeys('xy'))`, "{'a': 0, 'b': 0} {'x': None, 'y': None}\n", ""},
		{"dict.popitem pops the last item", "d = {'a': 1, 'b': 2, 'c': 3}\nprint(d.popitem(), d)", "('c', 3) {'a': 1, 'b': 2}\n", ""},
		{"hex oct bin", `print(hex(255), hex(-255), oct(8), bin(5))`, "0xff -0xff 0o10 0b101\n", ""},
		{"format a bool with a spec", `print(f"{True:>6}|{False:d}|{True}")`, "     1|0|True\n", ""},

		// collections
		{"Counter equality", `print(collections.Counter('aab') == collections.Counter('aba'), collections.Counter(a=1) == collections.Counter(a=1, b=0), collections.Counter('a') != collections.Counter('b'))`,
			"True True True\n", ""},
		{"Counter arithmetic", "C = collections.Counter\nc = C('abracadabra')\nprint(c + C('aab'), c - C('aaaaaaab'), c & C('aab'), C('ab') | C('zzz'))",
			"Counter({'a': 7, 'b': 3, 'r': 2, 'c': 1, 'd': 1}) Counter({'r': 2, 'b': 1, 'c': 1, 'd': 1}) Counter({'a': 2, 'b': 1}) Counter({'z': 3, 'a': 1, 'b': 1})\n", ""},
		{"empty Counter repr", `print(collections.Counter(), str(collections.Counter()))`, "Counter() Counter()\n", ""},
		{"defaultdict repr", "d = collections.defaultdict(list)\nd['x'].append(1)\nprint(d, collections.defaultdict(int))", "defaultdict(<class 'list'>, {'x': [1]}) defaultdict(<class 'int'>, {})\n", ""},
		{"in deque", "q = collections.deque([1, 2, 3])\nprint(2 in q, 5 in q, 5 not in q)", "True False True\n", ""},
		{"deque maxlen", "q = collections.deque(maxlen=2)\nfor i in range(5):\n    q.append(i)\nz = collections.deque([1, 2], maxlen=0)\nprint(q, z, len(z))", "deque([3, 4], maxlen=2) deque([], maxlen=0) 0\n", ""},

		// str slices with a step go by character (len and plain slices count bytes)
		{"reverse a non-ASCII str", "s = 'héllo wörld'\nprint(s[::-1], s[::2], s[::-2], s[::3], s[1::2], s[::1] == s)", "dlröw olléh hlowrd drwolh hlwl él öl True\n", ""},
		{"reverse multi-byte scripts", "print('日本語テキスト'[::-1], 'a😀b€c'[::-1], 'a😀b€c'[::2], 'naïve café'[::-1][::-1])", "トスキテ語本日 c€b😀a abc naïve café\n", ""},
		{"reversed str idioms", "s = 'héllo wörld'\nw = 'racecar'\nprint(w == w[::-1], ''.join(reversed(s)) == s[::-1], isinstance(s[::-1], str), [x[::-1] for x in ['héllo', 'wörld']])", "True True True ['olléh', 'dlröw']\n", ""},
		{"list slices with a step", "print([1, 2, 3, 4, 5][::-1], [1, 2, 3, 4, 5][::2], [1, 2, 3, 4, 5][4:0:-2], [1, 2, 3][-1:-10:-1], [][::-1])", "[5, 4, 3, 2, 1] [1, 3, 5] [5, 3] [3, 2, 1] []\n", ""},
		{"tuple slices with a step", "print((1, 2, 3)[::-1], (1, 2, 3, 4)[1::2], ('a',)[::-1])", "(3, 2, 1) (2, 4) ('a',)\n", ""},
		{"ASCII str slices with a step", "print('hello world'[::-1], 'hello world'[5:0:-1], 'hello world'[::3], 'abcdef'[-2::-2], 'abc'[10:-10:-1], 'abc'[1:1:-1])", "dlrow olleh  olle hlwl eca cba \n", ""},
	}
	runCells(t, cases)
}
