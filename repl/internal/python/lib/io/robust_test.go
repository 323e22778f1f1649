package io

import (
	"testing"

	"github.com/rlm-go/rlm/repl/internal/python/lib/libtest"
)

// TestOddCalls runs calls a program could make with the wrong receivers
// or arguments: each must end (with any exception), never panic.
func TestOddCalls(t *testing.T) {
	setup := "import io\ns = io.StringIO('ab\\ncd')\nb = io.BytesIO(b'ab\\ncd')\n"
	for _, src := range []string{
		"io.StringIO.write(b, 'x')", "io.BytesIO.write(s, b'x')", "io.StringIO.__init__(b)", "s.__exit__()", "io.StringIO.readlines(5)",
		"s.readlines('x')", "s.read('x')", "s.read(2**70)", "s.seek(2**70)", "s.seek(2**40)", "s.seek(10**12); s.write('x')",
		"b.seek(10**12); b.write(b'x')", "b.seek(-10**20, 1)", "s.truncate(2**70)", "b.truncate('x')", "s.writelines(5)",
		"b.writelines([1])", "b.readinto(b'xx')", "b.readinto(5)", "io.StringIO(newline=5)", "io.StringIO(5)", "io.BytesIO(5)",
		"list(io.StringIO('a\\r\\nb\\r', newline=''))", "io.StringIO('\\r', newline=None).readline()", "s.readline(-5)",
		"s.close(); list(s)", "b.close(); b.closed and b.getvalue()", "io.UnsupportedOperation('x')", "io.open()", "print('x', file=io.StringIO.__new__(io.StringIO))",
		"class X(io.BytesIO):\n    pass\nx = X(b'z'); x.read(); x.getvalue()",
	} {
		res := libtest.Run(setup+src, Register)
		if res.Err != nil {
			t.Errorf("%q: run stopped: %v", src, res.Err)
		}
	}
}
