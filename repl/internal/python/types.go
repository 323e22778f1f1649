package python

import "sync"

// Built-in types.
var (
	ObjectType, TypeType, NoneTypeType, NotImplementedTypeType, EllipsisTypeType,
	IntType, BoolType, FloatType, ComplexType, StrType, BytesType, ByteArrayType,
	ListType, TupleType, DictType, SetType, FrozenSetType, RangeType, SliceType,
	FunctionType, BuiltinFunctionType, MethodDescriptorType, MethodType,
	ModuleType, GeneratorType, CellType, PropertyType, StaticMethodType,
	ClassMethodType, SuperType, GetSetType, MappingProxyType, ABCMetaType,
	ListIterType, TupleIterType, StrIterType, RangeIterType, DictKeyIterType,
	DictValueIterType, DictItemIterType, SetIterType, BytesIterType, SeqIterType,
	CallableIterType, DictKeysType, DictValuesType, DictItemsType, MapType,
	FilterType, ZipType, EnumerateType, ReversedType, GenericAliasType,
	UnionTypeType, TracebackType, FrameType, ListRevIterType, StrUnicodeIterType,
	ByteArrayIterType, DictRevKeyIterType, DictRevValueIterType, DictRevItemIterType,
	LongRangeIterType, MemberDescriptorType *Type
)

var setupOnce sync.Once

// Setup makes the built-in types, exceptions and formatting hooks. New
// and NewBuiltinType call it; a library module that names a built-in type
// before either (as a base class) calls it first. It runs once; a
// program that links the interpreter but never makes one pays nothing at
// start-up and links less (package-level work would keep every built-in
// method reachable).
func Setup() {
	setupOnce.Do(func() {
		setupFormat()
		setupSlotWrappers()
		setupTypes()
	})
}

func setupTypes() {
	ObjectType = &Type{name: "object", qualname: "object", module: "builtins", dict: NewDict(16), builtin: true, new: objectNew}
	ObjectType.mro = []*Type{ObjectType}
	ObjectType.solid = ObjectType
	TypeType = newType("type", ObjectType, typeNew)
	simple := func(name string) *Type {
		t := newType(name, ObjectType, func(_ *Thread, cls *Type, _ []Object, _ []Kwarg) (Object, error) {
			return nil, Errorf(TypeErrorType, "cannot create '%s' instances", cls.name)
		})
		t.final = true
		return t
	}
	NoneTypeType = simple("NoneType")
	NoneTypeType.new = func(*Thread, *Type, []Object, []Kwarg) (Object, error) { return None, nil }
	NotImplementedTypeType = simple("NotImplementedType")
	EllipsisTypeType = simple("ellipsis")
	IntType = newType("int", ObjectType, intNew)
	BoolType = newType("bool", IntType, boolNew)
	BoolType.final = true
	FloatType = newType("float", ObjectType, floatNew)
	ComplexType = newType("complex", ObjectType, complexNew)
	StrType = newType("str", ObjectType, strNew)
	BytesType = newType("bytes", ObjectType, bytesNew)
	ByteArrayType = newType("bytearray", ObjectType, bytearrayNew)
	ListType = newType("list", ObjectType, listNew)
	initAfterNew[ListType] = true
	TupleType = newType("tuple", ObjectType, tupleNew)
	DictType = newType("dict", ObjectType, dictNew)
	initAfterNew[DictType] = true
	SetType = newType("set", ObjectType, setNew)
	initAfterNew[SetType] = true
	FrozenSetType = newType("frozenset", ObjectType, frozensetNew)
	RangeType = newType("range", ObjectType, rangeNew)
	RangeType.final = true
	SliceType = newType("slice", ObjectType, sliceNew)
	SliceType.final = true
	FunctionType = simple("function")
	BuiltinFunctionType = simple("builtin_function_or_method")
	MethodDescriptorType = simple("method_descriptor")
	MethodType = simple("method")
	ModuleType = newType("module", ObjectType, moduleNew)
	GeneratorType = simple("generator")
	CellType = simple("cell")
	PropertyType = newType("property", ObjectType, propertyNew)
	StaticMethodType = newType("staticmethod", ObjectType, staticmethodNew)
	ClassMethodType = newType("classmethod", ObjectType, classmethodNew)
	SuperType = newType("super", ObjectType, superNew)
	GetSetType = simple("getset_descriptor")
	MemberDescriptorType = simple("member_descriptor")
	MappingProxyType = simple("mappingproxy")
	ABCMetaType = newType("ABCMeta", TypeType, nil)
	ABCMetaType.module = "abc"
	ListIterType = simple("list_iterator")
	TupleIterType = simple("tuple_iterator")
	StrIterType = simple("str_ascii_iterator")
	RangeIterType = simple("range_iterator")
	LongRangeIterType = simple("longrange_iterator")
	DictKeyIterType = simple("dict_keyiterator")
	DictValueIterType = simple("dict_valueiterator")
	DictItemIterType = simple("dict_itemiterator")
	ListRevIterType = simple("list_reverseiterator")
	StrUnicodeIterType = simple("str_iterator")
	ByteArrayIterType = simple("bytearray_iterator")
	DictRevKeyIterType = simple("dict_reversekeyiterator")
	DictRevValueIterType = simple("dict_reversevalueiterator")
	DictRevItemIterType = simple("dict_reverseitemiterator")
	SetIterType = simple("set_iterator")
	BytesIterType = simple("bytes_iterator")
	SeqIterType = simple("iterator")
	CallableIterType = simple("callable_iterator")
	DictKeysType = simple("dict_keys")
	DictValuesType = simple("dict_values")
	DictItemsType = simple("dict_items")
	MapType = newType("map", ObjectType, mapNew)
	FilterType = newType("filter", ObjectType, filterNew)
	ZipType = newType("zip", ObjectType, zipNew)
	EnumerateType = newType("enumerate", ObjectType, enumerateNew)
	ReversedType = newType("reversed", ObjectType, reversedNew)
	GenericAliasType = simple("GenericAlias")
	GenericAliasType.module = "types"
	UnionTypeType = simple("UnionType")
	UnionTypeType.module = "types"
	TracebackType = simple("traceback")
	FrameType = simple("frame")

	initExceptions()
	initObjectMethods()
	initTypeMethods()
	initIterMethods()
	initNumberMethods()
	initStrMethods()
	initBytesMethods()
	initListMethods()
	initTupleMethods()
	initDictMethods()
	initSetMethods()
	initMiscMethods()
	initFrameTypes()
	initMoreDunders()
}

// method adds a Go method to a built-in type.
func method(c *Type, name string, fn BuiltinFunc) {
	c.dict.SetStr(name, NewMethod(c, name, fn))
}

// classMethod adds a Go class method to a built-in type.
func classMethod(c *Type, name string, fn BuiltinFunc) {
	c.dict.SetStr(name, NewClassMethod(c, name, fn))
}

// getset adds a read-only attribute to a built-in type.
func getset(c *Type, name string, get func(t *Thread, obj Object) (Object, error)) {
	g := NewGetSet(name, get, nil)
	g.owner = c
	c.dict.SetStr(name, g)
}
