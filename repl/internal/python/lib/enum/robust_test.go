package enum

import (
	"testing"

	"github.com/rlm-go/rlm/repl/internal/python/lib/libtest"
)

// TestOddCalls runs calls a program could make with the wrong receivers
// or arguments: each must end (with any exception), never panic.
func TestOddCalls(t *testing.T) {
	setup := "from enum import *\nimport enum\nclass C(Enum):\n    A = 1\nclass P(Flag):\n    R = 1\n    W = 2\nclass I(IntFlag):\n    X = 4\n"
	for _, src := range []string{
		"Flag.__or__(C.A, 1)", "Flag.__invert__(C.A)", "Flag.__len__(C.A)", "Flag.__iter__(C.A)", "list(Flag.__iter__(C.A))",
		"Flag.__contains__(C.A, C.A)", "P._missing_('x')", "P._missing_(2**100)", "P._iter_member_(7)", "list(P._iter_member_('x'))",
		"Enum.__new__(C, 1)", "Enum.__new__(int, 1)", "Enum.__new__(Enum, 1)", "Enum.__format__(C.A, 5)", "Enum.__repr__(C.A)",
		"C.__init_subclass__(boundary=1)", "type(C).__reversed__(5)", "type(C).__members__", "Enum.__members__", "len(Enum)",
		"list(Enum)", "Enum['x']", "1 in Enum", "reversed(Enum)", "object.__new__(C)", "repr(object.__new__(C))",
		"enum.show_flag_values(-1)", "enum.bin('x')", "enum.bin(-5, 2)", "enum.verify(enum.CONTINUOUS)(Enum('L', {'A': 1, 'B': 2**40}))",
		"enum.unique(5)", "enum.verify(1)(5)", "auto(1)", "auto().value", "member(1).value", "nonmember()",
		"Enum('X', 5)", "Enum('X', [('A',)])", "Enum('X', [1, 2])", "IntEnum('X', 'A B', type=str)", "Flag('F', 'A B C')(7)",
		"I(-1)", "~I(0)", "I(2**80) | 1", "P(0) | P.R", "P.R ^ 5", "~P(0)", "C.A.__reduce_ex__(4)", "dir(C.A)",
		"class D(Enum):\n    _ignore_ = 5", "class D(Enum):\n    _order_ = 5\n    A = 1", "class D(str, int, Enum):\n    A = 1",
		"class D(Enum):\n    __new__ = 5\n    A = 1", "class D(IntEnum):\n    A = 'x'", "class D(Flag):\n    A = 'x'",
		"class D(Enum):\n    def _generate_next_value_(*a): raise KeyError\n    A = auto()",
	} {
		res := libtest.Run(setup+src, Register)
		if res.Err != nil {
			t.Errorf("%q: run stopped: %v", src, res.Err)
		}
	}
}

// TestParallelInterpreters runs enum code in several interpreters at once
// (each has its own classes; run with -race). The names have more than
// one letter: the core shares its one-character strs between interpreters
// and caches their hash without synchronization (a core race).
func TestParallelInterpreters(t *testing.T) {
	src := "from enum import Enum, Flag, IntEnum, StrEnum, auto\nclass C(Enum):\n    AA = auto()\n    BB = auto()\nclass P(Flag):\n    RR = auto()\n    WW = auto()\nclass M(StrEnum):\n    XX = auto()\nprint(list(C), P.RR | P.WW, ~P.RR, M.XX, C(2), IntEnum('I', 'aa bb')(2))\n"
	want := "[<C.AA: 1>, <C.BB: 2>] P.RR|WW P.WW xx C.BB 2\n"
	done := make(chan string, 8)
	for i := 0; i < 8; i++ {
		go func() {
			res := libtest.Run(src, Register)
			if res.Exc != nil {
				done <- res.Exc.Error()
				return
			}
			done <- res.Stdout
		}()
	}
	for i := 0; i < 8; i++ {
		if got := <-done; got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
}
