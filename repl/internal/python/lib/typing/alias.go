package typing

import (
	"strings"

	"github.com/rlm-go/rlm/repl/internal/python"
	"github.com/rlm-go/rlm/repl/internal/python/syntax"
)

// aliasKind says how an alias subscripts and renders.
type aliasKind uint8

const (
	kindGeneric aliasKind = iota
	kindTuple
	kindCallable
	kindUnion
	kindLiteral
	kindAnnotated
	kindForm // ClassVar[int], Final[int], TypeGuard[int], ...
	kindType // Type[int]
)

// origin names the class an alias stands for: a built-in type, or a class
// of another module resolved when first needed.
type origin struct {
	typ    python.Object // resolved
	module string        // "collections.abc", "collections", "re"
	name   string
}

// resolve returns the origin class, importing its module if needed.
func (o *origin) resolve(t *python.Thread) (python.Object, error) {
	if o.typ != nil {
		return o.typ, nil
	}
	m, err := t.Interp().Import(t, o.module)
	if err != nil {
		return nil, err
	}
	v, err := python.GetAttr(t, m, o.name)
	if err != nil {
		return nil, err
	}
	o.typ = v
	return v, nil
}

// alias is typing's generic alias: an unsubscripted special alias
// (typing.List), or a subscripted one (typing.List[int], Union[int, str],
// Callable[[int], str], a user generic class's Stack[int], ...).
type alias struct {
	kind    aliasKind
	name    string // "List"; "" for a user generic class
	orig    *origin
	args    []python.Object // nil for an unsubscripted special alias
	special bool            // unsubscripted: typing.List
	nparams int             // a special alias's arity (-1: variadic)
	inst    bool            // instances may be made (Deque, Counter, ...)
	form    *form           // the form of a kindForm alias (ClassVar...)
	meta    []python.Object // Annotated's metadata
}

// Type returns typing._GenericAlias (and its relatives).
func (a *alias) Type() *python.Type {
	switch {
	case a.special:
		return specialAliasType
	case a.kind == kindUnion:
		return unionAliasType
	case a.kind == kindCallable:
		return callableAliasType
	case a.kind == kindLiteral:
		return literalAliasType
	case a.kind == kindAnnotated:
		return annotatedAliasType
	}
	return genericAliasType
}

// typeRepr is typing._type_repr.
func typeRepr(t *python.Thread, x python.Object) (string, error) {
	switch v := x.(type) {
	case *python.Type:
		if v.Module() == "builtins" {
			return v.Qualname(), nil
		}
		return v.Module() + "." + v.Qualname(), nil
	case *python.Function:
		return v.Name(), nil
	}
	if x == python.Ellipsis {
		return "...", nil
	}
	return python.Repr(t, x)
}

func joinRepr(t *python.Thread, xs []python.Object, repr func(*python.Thread, python.Object) (string, error)) (string, error) {
	parts := make([]string, len(xs))
	for i, x := range xs {
		s, err := repr(t, x)
		if err != nil {
			return "", err
		}
		parts[i] = s
	}
	return strings.Join(parts, ", "), nil
}

// PyRepr renders typing.List[int] and the like.
func (a *alias) PyRepr(t *python.Thread) (string, error) {
	if a.special {
		return "typing." + a.name, nil
	}
	head := "typing." + a.name
	if a.name == "" {
		o, err := a.orig.resolve(t)
		if err != nil {
			return "", err
		}
		if head, err = typeRepr(t, o); err != nil {
			return "", err
		}
	}
	switch a.kind {
	case kindUnion:
		if len(a.args) == 2 && (a.args[0] == python.Object(python.NoneTypeType) || a.args[1] == python.Object(python.NoneTypeType)) {
			other := a.args[0]
			if other == python.Object(python.NoneTypeType) {
				other = a.args[1]
			}
			s, err := typeRepr(t, other)
			return "typing.Optional[" + s + "]", err
		}
		s, err := joinRepr(t, a.args, typeRepr)
		return "typing.Union[" + s + "]", err
	case kindCallable:
		res, err := typeRepr(t, a.args[len(a.args)-1])
		if err != nil {
			return "", err
		}
		if len(a.args) == 2 && a.args[0] == python.Ellipsis {
			return head + "[..., " + res + "]", nil
		}
		s, err := joinRepr(t, a.args[:len(a.args)-1], typeRepr)
		return head + "[[" + s + "], " + res + "]", err
	case kindLiteral:
		s, err := joinRepr(t, a.args, python.Repr)
		return "typing.Literal[" + s + "]", err
	case kindAnnotated:
		o, err := typeRepr(t, a.args[0])
		if err != nil {
			return "", err
		}
		s, err := joinRepr(t, a.meta, python.Repr)
		return "typing.Annotated[" + o + ", " + s + "]", err
	}
	if len(a.args) == 0 {
		return head + "[()]", nil
	}
	s, err := joinRepr(t, a.args, typeRepr)
	return head + "[" + s + "]", err
}

// parameters returns the type variables of the args, in order.
func parameters(args []python.Object) []python.Object {
	var out []python.Object
	seen := map[*typeVar]bool{}
	var walk func(x python.Object)
	walk = func(x python.Object) {
		switch v := x.(type) {
		case *typeVar:
			if !seen[v] {
				seen[v] = true
				out = append(out, v)
			}
		case *alias:
			if !v.special {
				for _, a := range v.args {
					walk(a)
				}
			}
		case *python.UnionType:
			for _, a := range unionArgs(v) {
				walk(a)
			}
		}
	}
	for _, a := range args {
		walk(a)
	}
	return out
}

func unionArgs(u *python.UnionType) []python.Object {
	v, err := python.GetAttr(nil, u, "__args__")
	if err != nil {
		return nil
	}
	return v.(*python.Tuple).Items()
}

// PyGetAttr gives __origin__, __args__, __parameters__, __metadata__,
// __name__ and _name.
func (a *alias) PyGetAttr(t *python.Thread, name string) (python.Object, error) {
	switch name {
	case "__origin__":
		if a.kind == kindUnion {
			return unionForm, nil
		}
		if a.kind == kindLiteral {
			return literalForm, nil
		}
		if a.kind == kindForm {
			return a.form, nil
		}
		if a.kind == kindAnnotated {
			return a.args[0], nil
		}
		return a.orig.resolve(t)
	case "__args__":
		if a.special {
			return nil, nil
		}
		return python.NewTuple(append([]python.Object(nil), a.args...)), nil
	case "__parameters__":
		if a.special {
			return python.NewTuple(nil), nil
		}
		return python.NewTuple(parameters(a.args)), nil
	case "__metadata__":
		if a.kind == kindAnnotated {
			return python.NewTuple(append([]python.Object(nil), a.meta...)), nil
		}
	case "__name__", "_name":
		if a.name != "" {
			return python.NewStr(a.name), nil
		}
	case "__module__":
		return python.NewStr("typing"), nil
	case "__mro_entries__":
		return python.NewBuiltin("__mro_entries__", func(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
			ts, err := a.MroEntries(t)
			if err != nil {
				return nil, err
			}
			out := make([]python.Object, len(ts))
			for i, c := range ts {
				out[i] = c
			}
			return python.NewTuple(out), nil
		}), nil
	}
	return nil, nil
}

// PyGetItem is alias[args]: a special alias's arguments, or a
// substitution of a generic alias's type variables.
func (a *alias) PyGetItem(t *python.Thread, key python.Object) (python.Object, error) {
	if a.special {
		return subscriptSpecial(t, a, key)
	}
	params := parameters(a.args)
	if len(params) == 0 {
		s, err := python.Repr(t, a)
		if err != nil {
			return nil, err
		}
		return nil, python.Errorf(python.TypeErrorType, "%s is not a generic class", s)
	}
	vals := tupleArgs(key)
	if len(vals) != len(params) {
		s, err := python.Repr(t, a)
		if err != nil {
			return nil, err
		}
		word := "many"
		if len(vals) < len(params) {
			word = "few"
		}
		return nil, python.Errorf(python.TypeErrorType, "Too %s arguments for %s; actual %d, expected %d", word, s, len(vals), len(params))
	}
	subst := map[*typeVar]python.Object{}
	for i, p := range params {
		v, err := typeCheck(t, vals[i], "Parameters to generic types must be types.")
		if err != nil {
			return nil, err
		}
		subst[p.(*typeVar)] = v
	}
	return substitute(t, a, subst)
}

// substitute replaces type variables in x.
func substitute(t *python.Thread, x python.Object, subst map[*typeVar]python.Object) (python.Object, error) {
	switch v := x.(type) {
	case *typeVar:
		if r, ok := subst[v]; ok {
			return r, nil
		}
		return v, nil
	case *alias:
		if v.special {
			return v, nil
		}
		args := make([]python.Object, len(v.args))
		for i, a := range v.args {
			r, err := substitute(t, a, subst)
			if err != nil {
				return nil, err
			}
			args[i] = r
		}
		if v.kind == kindUnion {
			return makeUnion(t, args)
		}
		c := *v
		c.args = args
		return &c, nil
	}
	return x, nil
}

func tupleArgs(key python.Object) []python.Object {
	if tu, ok := key.(*python.Tuple); ok {
		return tu.Items()
	}
	return []python.Object{key}
}

// PyCall makes an instance of the origin: refused for the aliases of
// built-in collections, as CPython refuses it.
func (a *alias) PyCall(t *python.Thread, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
	switch a.kind {
	case kindUnion, kindLiteral, kindForm:
		s, err := python.Repr(t, a)
		if err != nil {
			return nil, err
		}
		return nil, python.Errorf(python.TypeErrorType, "Cannot instantiate %s", s)
	}
	if !a.inst {
		o, err := a.orig.resolve(t)
		if err != nil {
			return nil, err
		}
		return nil, python.Errorf(python.TypeErrorType, "Type %s cannot be instantiated; use %s() instead", a.name, o.(*python.Type).Name())
	}
	o, err := a.orig.resolve(t)
	if err != nil {
		return nil, err
	}
	if a.kind == kindAnnotated {
		o = a.args[0]
	}
	r, err := python.Call(t, o, args, kwargs)
	if err != nil {
		return nil, err
	}
	if !a.special {
		if inst, ok := r.(*python.Instance); ok {
			inst.Attrs().SetStr("__orig_class__", a)
		}
	}
	return r, nil
}

// InstanceCheck is isinstance(x, alias): the origin's check for an
// unsubscripted alias; refused for a subscripted one.
func (a *alias) InstanceCheck(t *python.Thread, x python.Object) (bool, error) {
	if !a.special {
		if a.kind == kindUnion {
			for _, arg := range a.args {
				ok, err := python.IsInstanceOf(t, x, arg)
				if err != nil || ok {
					return ok, err
				}
			}
			return false, nil
		}
		return false, python.Errorf(python.TypeErrorType, "Subscripted generics cannot be used with class and instance checks")
	}
	o, err := a.orig.resolve(t)
	if err != nil {
		return false, err
	}
	return python.IsInstanceOf(t, x, o)
}

// MroEntries makes an alias usable as a base class: its origin (Generic
// for Generic[T], the class for a user generic).
func (a *alias) MroEntries(t *python.Thread) ([]*python.Type, error) {
	if a.kind == kindUnion || a.kind == kindLiteral || a.kind == kindForm {
		s, err := python.Repr(t, a)
		if err != nil {
			return nil, err
		}
		return nil, python.Errorf(python.TypeErrorType, "Cannot subclass %s", s)
	}
	o, err := a.orig.resolve(t)
	if err != nil {
		return nil, err
	}
	if a.kind == kindAnnotated {
		o = a.args[0]
	}
	c, ok := o.(*python.Type)
	if !ok {
		return nil, python.Errorf(python.TypeErrorType, "bases must be types")
	}
	return []*python.Type{c}, nil
}

// PyHash hashes an alias (aliases are dict keys in annotations work).
func (a *alias) PyHash(t *python.Thread) (int64, error) {
	if a.special {
		return int64(len(a.name))*1000003 + 17, nil
	}
	var key python.Object
	switch a.kind {
	case kindUnion, kindLiteral:
		s := python.NewSet(true)
		for _, x := range a.args {
			if err := s.Add(t, x); err != nil {
				return 0, err
			}
		}
		key = s
	default:
		o, err := a.orig.resolve(t)
		if err != nil {
			return 0, err
		}
		key = python.NewTuple(append([]python.Object{o}, append(a.args, a.meta...)...))
	}
	return python.Hash(t, key)
}

// PyCompare implements == and != (aliases have no order).
func (a *alias) PyCompare(t *python.Thread, op python.CmpOp, other python.Object) (python.Object, error) {
	if op != python.CmpEq && op != python.CmpNe {
		return python.NotImplemented, nil
	}
	eq, err := a.equal(t, other)
	if err != nil || eq == nil {
		return python.NotImplemented, err
	}
	return python.MakeBool(*eq == (op == python.CmpEq)), nil
}

func (a *alias) equal(t *python.Thread, other python.Object) (*bool, error) {
	res := func(b bool) (*bool, error) { return &b, nil }
	if u, ok := other.(*python.UnionType); ok {
		if a.kind != kindUnion || a.special {
			return nil, nil
		}
		return setEqual(t, a.args, unionArgs(u))
	}
	b, ok := other.(*alias)
	if !ok {
		return nil, nil
	}
	if a.special || b.special {
		return res(a == b || a.special && b.special && a.name == b.name)
	}
	if a.kind != b.kind {
		return res(false)
	}
	switch a.kind {
	case kindUnion:
		return setEqual(t, a.args, b.args)
	case kindLiteral:
		return setEqual(t, typedValues(a.args), typedValues(b.args))
	}
	if a.kind == kindForm && a.form != b.form {
		return res(false)
	}
	if a.kind != kindForm && a.kind != kindAnnotated {
		ao, err := a.orig.resolve(t)
		if err != nil {
			return nil, err
		}
		bo, err := b.orig.resolve(t)
		if err != nil {
			return nil, err
		}
		if eq, err := python.Equal(t, ao, bo); err != nil || !eq {
			return res(false)
		}
	}
	eq, err := python.Equal(t, python.NewTuple(append(a.args, a.meta...)), python.NewTuple(append(b.args, b.meta...)))
	if err != nil {
		return nil, err
	}
	return res(eq)
}

// typedValues pairs Literal values with their types (Literal[1] and
// Literal[True] differ).
func typedValues(xs []python.Object) []python.Object {
	out := make([]python.Object, len(xs))
	for i, x := range xs {
		out[i] = python.NewTuple([]python.Object{x, x.Type()})
	}
	return out
}

func setEqual(t *python.Thread, a, b []python.Object) (*bool, error) {
	sa, sb := python.NewSet(true), python.NewSet(true)
	for _, x := range a {
		if err := sa.Add(t, x); err != nil {
			return nil, err
		}
	}
	for _, x := range b {
		if err := sb.Add(t, x); err != nil {
			return nil, err
		}
	}
	eq, err := python.Equal(t, sa, sb)
	return &eq, err
}

// PyBinary implements | (a Union).
func (a *alias) PyBinary(t *python.Thread, op syntax.Operator, other python.Object, reflected bool) (python.Object, error) {
	return unionOp(t, a, op, other, reflected)
}

func unionOp(t *python.Thread, self python.Object, op syntax.Operator, other python.Object, reflected bool) (python.Object, error) {
	if op != syntax.BitOr {
		return python.NotImplemented, nil
	}
	if reflected {
		return makeUnion(t, []python.Object{other, self})
	}
	return makeUnion(t, []python.Object{self, other})
}

// makeUnion is Union[args]: checked, flattened, deduplicated; one type is
// itself.
func makeUnion(t *python.Thread, args []python.Object) (python.Object, error) {
	if len(args) == 0 {
		return nil, python.Errorf(python.TypeErrorType, "Cannot take a Union of no types.")
	}
	var flat []python.Object
	for _, x := range args {
		x, err := typeCheck(t, x, "Union[arg, ...]: each arg must be a type.")
		if err != nil {
			return nil, err
		}
		switch v := x.(type) {
		case *alias:
			if v.kind == kindUnion && !v.special {
				flat = append(flat, v.args...)
				continue
			}
		case *python.UnionType:
			flat = append(flat, unionArgs(v)...)
			continue
		}
		flat = append(flat, x)
	}
	var uniq []python.Object
	for _, x := range flat {
		dup := false
		for _, y := range uniq {
			eq, err := python.Equal(t, x, y)
			if err != nil {
				return nil, err
			}
			if eq {
				dup = true
				break
			}
		}
		if !dup {
			uniq = append(uniq, x)
		}
	}
	if len(uniq) == 1 {
		return uniq[0], nil
	}
	return &alias{kind: kindUnion, name: "Union", args: uniq}, nil
}

// typeCheck is typing._type_check: None is NoneType, a str a forward
// reference; tuples and plain special forms are refused.
func typeCheck(t *python.Thread, x python.Object, msg string) (python.Object, error) {
	switch v := x.(type) {
	case python.NoneType:
		return python.NoneTypeType, nil
	case *python.Str:
		return newForwardRef(v.String()), nil
	case *python.Tuple:
		s, err := python.Repr(t, v)
		if err != nil {
			return nil, err
		}
		return nil, python.Errorf(python.TypeErrorType, "%s Got %s.", msg, clip(s))
	case *form:
		if v.plainOK {
			return v, nil
		}
		return nil, python.Errorf(python.TypeErrorType, "Plain typing.%s is not valid as type argument", v.name)
	case *alias:
		if v.special && (v.kind == kindUnion) {
			return nil, python.Errorf(python.TypeErrorType, "Plain typing.%s is not valid as type argument", v.name)
		}
		if !v.special && v.kind == kindForm && v.form != nil && (v.form.name == "ClassVar" || v.form.name == "Final") {
			s, err := python.Repr(t, v)
			if err != nil {
				return nil, err
			}
			return nil, python.Errorf(python.TypeErrorType, "%s is not valid as type argument", s)
		}
	case *python.Type:
		if v == genericType || v == protocolType {
			return nil, python.Errorf(python.TypeErrorType, "Plain %s is not valid as type argument", "<class 'typing."+v.Name()+"'>")
		}
	}
	return x, nil
}

func clip(s string) string {
	r := []rune(s)
	if len(r) > 100 {
		return string(r[:100])
	}
	return s
}
