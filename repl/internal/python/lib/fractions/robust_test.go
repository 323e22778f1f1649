package fractions

import (
	"testing"

	"github.com/rlm-go/rlm/repl/internal/python/lib/libtest"
)

// TestOddCalls runs calls a program could make with the wrong receivers
// or arguments: each must end (with any exception), never panic.
func TestOddCalls(t *testing.T) {
	setup := "from fractions import Fraction as F\nx = F(3, 4)\n"
	for _, src := range []string{
		"F.__add__(1, 2)", "F.__repr__(5)", "F.numerator.__get__(5)", "F.limit_denominator(x, 'a')", "x.limit_denominator(2.5)",
		"x.limit_denominator(x)", "F.from_float(int, 1.5)", "F.from_float('x')", "F.from_decimal('x')", "x.__round__('a')",
		"round(x, 10**9)", "round(x, -10**9)", "x ** 10**20", "F(2, 3) ** -10**6", "F(0) ** F(-1, 2)", "2 ** F(10**8)",
		"x.__format__(5)", "format(x, '\\x00^30.3f')", "format(x, '.2147483648f')", "format(x, '9999999999f')", "divmod(x, 1j)",
		"x.__divmod__(1j)", "x.__rdivmod__(0.0)", "x.__rpow__(-8)", "(-8) ** F(1, 3)", "F('1' * 5000)", "F('1e' + '9' * 20)",
		"F(1, 10**5000)", "str(F(10**5000, 3))", "hash(F(2**61 - 1, 2**61 - 1))", "hash(F(1, 2**61 - 1))", "x < 1j",
		"x == float('nan')", "-x; +x; ~x", "F(x, 0)", "F('٣/٠')", "class M(F):\n    pass\nM(1, 2) + 1; repr(M(1, 2)); M.from_float(0.5)",
	} {
		res := libtest.Run(setup+src, Register)
		if res.Err != nil {
			t.Errorf("%q: run stopped: %v", src, res.Err)
		}
	}
}
