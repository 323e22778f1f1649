package dataclasses

import (
	"testing"

	"github.com/rlm-go/rlm/repl/internal/python/lib/libtest"
)

// TestOddCalls runs calls a program could make with the wrong receivers
// or arguments: each must end (with any exception), never panic.
func TestOddCalls(t *testing.T) {
	setup := "from dataclasses import *\nimport dataclasses\n@dataclass(frozen=True, order=True)\nclass P:\n    x: int = 0\n@dataclass\nclass Q:\n    y: list = field(default_factory=list)\n"
	for _, src := range []string{
		"P.__init__(5)", "P.__repr__(P)", "P.__eq__(P(), 5)", "P.__lt__(P(), P(), P())", "P.__hash__(5)", "P.__setattr__(P(), 5, 1)",
		"P.__delattr__(P(), 'x')", "object.__setattr__(P(), 'x', 2)", "fields(5)", "Field(1,2,3,4,5,6,7,8)", "repr(Field(1,2,3,4,5,6,7,8))",
		"Field()", "f = field(); f.name = 5; repr(f)", "f = field(); f._field_type = 5", "InitVar[1, 2]", "InitVar()", "repr(InitVar(5))",
		"asdict(Q([Q()]))", "astuple(Q({1: Q()}))", "asdict(Q(iter([])))", "asdict(Q([1]), dict_factory=5)", "replace(P(), x=1, y=2)",
		"make_dataclass(5, [])", "make_dataclass('X', 5)", "make_dataclass('X', [5])", "make_dataclass('X', [], bases=(5,))",
		"make_dataclass('X', [], namespace=5)", "make_dataclass('X', ['a'], module=5)", "dataclass(5)", "dataclass(lambda: 1)",
		"dataclass(int)", "dataclass(order=1)(int)", "q = Q(); q.y.append(q); repr(q)", "q = Q(); q.y.append(q); asdict(q)",
		"class A:\n    __annotations__ = 5\ndataclass(A)", "class A:\n    __annotations__ = {1: int}\ndataclass(A)",
		"class A:\n    __dataclass_fields__ = {'x': 1}\nfields(A)", "class A:\n    __dataclass_fields__ = 5\ndataclass(A)",
		"@dataclass(slots=True, weakref_slot=True)\nclass S:\n    x: int", "@dataclass(weakref_slot=True)\nclass S:\n    x: int",
		"P.__dataclass_params__.frozen", "repr(P.__dataclass_params__)", "P.__dataclass_fields__['x'].metadata['k']",
	} {
		res := libtest.Run(setup+src, Register)
		if res.Err != nil {
			t.Errorf("%q: run stopped: %v", src, res.Err)
		}
	}
}
