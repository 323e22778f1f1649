// Package enum is code mode's enum module, as CPython 3.12 has it: Enum,
// IntEnum, StrEnum, Flag, IntFlag, auto, unique, verify, member and
// nonmember.
//
// The classes are built per interpreter. EnumType is a Go metaclass: an
// enum class's members are made by the TypeHooks.Created hook from its
// namespace, and lookups (Color(1), Color['RED'], iteration, len, in) are
// the other hooks. Enum, Flag and the other base classes are classes of
// the interpreter whose methods are Go functions, so that the protocols
// of the interpreter find them as they find a class statement's methods.
package enum

import (
	"context"
	"math/big"
	"sync"

	"github.com/rlm-go/rlm/repl/internal/python"
)

type (
	obj   = python.Object
	kwarg = python.Kwarg
)

// Register makes the enum module importable.
func Register() {
	python.Setup()
	python.RegisterModule("enum", load)
	// setup runs after RegisterModule, which makes sure the interpreter
	// core is set up.
	setupOnce.Do(setup)
}

var setupOnce sync.Once

// setup makes the module's Go types, which every interpreter shares. It
// runs on the first Register, not at package initialisation, so that
// importing the package touches nothing of the interpreter.
func setup() {
	setupAuto()
	dataclassRepr = python.NewBuiltin("_dataclass_repr", nil)
	builtinMax = newBuiltinMax()
	verifyType = python.NewBuiltinType("verify", "enum", nil, nil)
}

// state is one interpreter's enum module: its classes and the Go methods
// the class-creation rules copy from class to class.
type state struct {
	in    *python.Interp
	meta  *python.Type // EnumType
	hooks *python.TypeHooks

	enum, reprEnum, intEnum, strEnum, flag, intFlag *python.Type

	// Methods of Enum and Flag that enum classes get.
	flagOps map[string]obj

	strict, conform, eject, keep obj // the FlagBoundary members

	genType *python.Type // the type of the iterators the hooks return

	flagBoundary *python.Type
	building     string // the module class being made (its hooks are not set yet)

	enumNew      obj             // Enum.__new__ (a staticmethod)
	enumNewFn    *python.Builtin // its function
	dataStr      *python.Builtin // ReprEnum's __str__: the data type's
	dataFormat   *python.Builtin // ReprEnum's __format__: the data type's
	reprBuiltin  obj             // builtins.repr, Flag._numeric_repr_
	verifyChecks [3]obj          // UNIQUE, CONTINUOUS, NAMED_FLAGS
	iterByValue  obj             // Flag._iter_member_by_value_
	iterByDef    obj             // Flag._iter_member_by_def_
	flagProtocol map[string]obj  // Flag\'s __contains__, __iter__, __len__
}

// info is an enum class's data (its Type.Extra); the containers are also
// the class's _member_names_, _member_map_, _value2member_map_ and
// _unhashable_values_.
type info struct {
	names      *python.List
	members    *python.Dict
	proxy      obj // mappingproxy(members)
	byValue    *python.Dict
	unhashable *python.List
	memberType *python.Type
	firstEnum  *python.Type
	valueRepr  obj  // _value_repr_, nil for repr()
	useArgs    bool // pass the value to the __new__ that makes the members
	isFlag     bool
	iterByDef  bool // Flag: iterate members in definition order
	flagMask   *big.Int
	singles    *big.Int
	allBits    *big.Int
	boundary   obj
}

func infoOf(c *python.Type) *info {
	i, _ := c.Extra.(*info)
	return i
}

// enumInfo returns the info of an enum class, or a TypeError for a class
// the enum machinery has not processed.
func enumInfo(c *python.Type) (*info, error) {
	if c != nil {
		if i := infoOf(c); i != nil {
			return i, nil
		}
	}
	return nil, python.Errorf(python.TypeErrorType, "not an enum class")
}

// memberInfo returns the info of x's class, when x is an enum member.
func memberInfo(x obj) *info {
	return infoOf(x.Type())
}

func load(in *python.Interp) (*python.Module, error) {
	t := python.NewThread(context.Background(), in, 1<<30, func(string) {})
	st := &state{in: in}
	if err := st.build(t); err != nil {
		return nil, err
	}
	m := python.NewModule("enum")
	m.Set("EnumType", st.meta)
	m.Set("EnumMeta", st.meta)
	m.Set("Enum", st.enum)
	m.Set("ReprEnum", st.reprEnum)
	m.Set("IntEnum", st.intEnum)
	m.Set("StrEnum", st.strEnum)
	m.Set("Flag", st.flag)
	m.Set("IntFlag", st.intFlag)
	m.Set("auto", autoType)
	m.Set("member", memberType)
	m.Set("nonmember", nonmemberType)
	m.Func("unique", st.unique)
	m.Func("show_flag_values", showFlagValues)
	m.Func("bin", enumBin)
	for _, n := range []string{"FlagBoundary", "STRICT", "CONFORM", "EJECT", "KEEP"} {
		if n == "FlagBoundary" {
			m.Set(n, st.flagBoundary)
			continue
		}
		v, _ := infoOf(st.flagBoundary).members.GetStr(n)
		m.Set(n, v)
	}
	if err := st.buildVerify(t, m); err != nil {
		return nil, err
	}
	all := []string{"EnumType", "EnumMeta", "Enum", "IntEnum", "StrEnum", "Flag", "IntFlag", "ReprEnum", "auto", "unique",
		"property", "verify", "member", "nonmember", "FlagBoundary", "STRICT", "CONFORM", "EJECT", "KEEP",
		"global_flag_repr", "global_enum_repr", "global_str", "global_enum", "EnumCheck", "CONTINUOUS",
		"NAMED_FLAGS", "UNIQUE", "pickle_by_global_name", "pickle_by_enum_name"}
	items := make([]obj, len(all))
	for i, n := range all {
		items[i] = python.NewStr(n)
	}
	m.Set("__all__", python.NewList(items))
	m.SetGetattr(func(t *python.Thread, name string) (obj, error) {
		if hint, ok := refusedNames[name]; ok {
			return nil, python.NotSupported("enum."+name, hint)
		}
		return nil, nil
	})
	return m, nil
}

// refusedNames are enum's names code mode does not provide.
var refusedNames = map[string]string{
	"property":              "use the built-in property",
	"global_enum":           "refer to the members through their class",
	"global_enum_repr":      "refer to the members through their class",
	"global_flag_repr":      "refer to the members through their class",
	"global_str":            "refer to the members through their class",
	"pickle_by_global_name": "code mode has no pickle",
	"pickle_by_enum_name":   "code mode has no pickle",
	"EnumDict":              "EnumDict is new in Python 3.13",
}
