package typing

import (
	"github.com/rlm-go/rlm/repl/internal/python"
	"github.com/rlm-go/rlm/repl/internal/python/syntax"
)

var paramSpecType *python.Type

// typeVar is TypeVar('T', ...) (and ParamSpec('P')).
type typeVar struct {
	name        string
	bound       python.Object
	constraints []python.Object
	co, contra  bool
	paramSpec   bool
	id          int64
}

// Type returns TypeVar.
func (v *typeVar) Type() *python.Type {
	if v.paramSpec {
		return paramSpecType
	}
	return typeVarType
}

// PyRepr renders ~T, +T (covariant) or -T (contravariant).
func (v *typeVar) PyRepr(*python.Thread) (string, error) {
	switch {
	case v.co:
		return "+" + v.name, nil
	case v.contra:
		return "-" + v.name, nil
	}
	return "~" + v.name, nil
}

// PyHash hashes by identity.
func (v *typeVar) PyHash(*python.Thread) (int64, error) {
	if v.id == 0 {
		v.id = newID()
	}
	return v.id, nil
}

// PyBinary is T | x (a Union).
func (v *typeVar) PyBinary(t *python.Thread, op syntax.Operator, other python.Object, reflected bool) (python.Object, error) {
	return unionOp(t, v, op, other, reflected)
}

// PyGetAttr gives the TypeVar's attributes.
func (v *typeVar) PyGetAttr(t *python.Thread, name string) (python.Object, error) {
	switch name {
	case "__name__":
		return python.NewStr(v.name), nil
	case "__bound__":
		return v.bound, nil
	case "__constraints__":
		return python.NewTuple(append([]python.Object(nil), v.constraints...)), nil
	case "__covariant__":
		return python.MakeBool(v.co), nil
	case "__contravariant__":
		return python.MakeBool(v.contra), nil
	case "__infer_variance__":
		return python.False, nil
	case "__module__":
		return python.NewStr("__main__"), nil
	}
	return nil, nil
}

// InstanceCheck refuses isinstance() with a TypeVar.
func (v *typeVar) InstanceCheck(*python.Thread, python.Object) (bool, error) {
	return false, python.Errorf(python.TypeErrorType, "isinstance() arg 2 must be a type, a tuple of types, or a union")
}

func initTypeVar() {
	typeVarType = python.NewBuiltinType("TypeVar", "typing", nil, func(t *python.Thread, cls *python.Type, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		return newTypeVar(t, "typevar", args, kwargs, false)
	})
	typeVarType.SetFinal()
	paramSpecType = python.NewBuiltinType("ParamSpec", "typing", nil, func(t *python.Thread, cls *python.Type, args []python.Object, kwargs []python.Kwarg) (python.Object, error) {
		return newTypeVar(t, "paramspec", args, kwargs, true)
	})
	paramSpecType.SetFinal()
}

// newTypeVar is TypeVar(name, *constraints, bound=None, covariant=False,
// contravariant=False, infer_variance=False).
func newTypeVar(t *python.Thread, fn string, args []python.Object, kwargs []python.Kwarg, ps bool) (python.Object, error) {
	var name python.Object
	var constraints []python.Object
	if len(args) > 0 {
		name = args[0]
		constraints = args[1:]
	}
	v := &typeVar{bound: python.None, paramSpec: ps}
	for _, kw := range kwargs {
		switch kw.Name {
		case "name":
			if name != nil {
				return nil, python.Errorf(python.TypeErrorType, "argument for %s() given by name ('name') and position (1)", fn)
			}
			name = kw.Value
		case "bound":
			if kw.Value != python.None {
				b, err := typeCheck(t, kw.Value, "Bound must be a type.")
				if err != nil {
					return nil, err
				}
				v.bound = b
			}
		case "covariant", "contravariant", "infer_variance":
			b, err := python.TruthE(t, kw.Value)
			if err != nil {
				return nil, err
			}
			switch kw.Name {
			case "covariant":
				v.co = b
			case "contravariant":
				v.contra = b
			}
		default:
			return nil, python.Errorf(python.TypeErrorType, "%s() got an unexpected keyword argument '%s'", fn, kw.Name)
		}
	}
	if name == nil {
		return nil, python.Errorf(python.TypeErrorType, "%s() missing required argument 'name' (pos 1)", fn)
	}
	s, ok := name.(*python.Str)
	if !ok {
		return nil, python.Errorf(python.TypeErrorType, "%s() argument 'name' must be str, not %s", fn, python.TypeName(name))
	}
	v.name = s.String()
	if v.co && v.contra {
		return nil, python.Errorf(python.ValueErrorType, "Bivariant types are not supported.")
	}
	if len(constraints) == 1 {
		return nil, python.Errorf(python.TypeErrorType, "A single constraint is not allowed")
	}
	if len(constraints) > 0 && v.bound != python.None {
		return nil, python.Errorf(python.TypeErrorType, "Constraints cannot be combined with bound=...")
	}
	for _, c := range constraints {
		r, err := typeCheck(t, c, "TypeVar(name, constraint, ...): constraints must be types.")
		if err != nil {
			return nil, err
		}
		v.constraints = append(v.constraints, r)
	}
	return v, nil
}
