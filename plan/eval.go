package plan

import (
	"context"
	"strings"

	"github.com/rlm-go/rlm/fault"
)

// eval evaluates e in scope sc. path names e for errors.
func (r *runner) eval(ctx context.Context, e *Expr, sc *scope, path string) (Value, error) {
	if e == nil {
		return nil, execErr(fault.KindMissingField, path, "expression is missing")
	}
	r.work.Add(1)
	switch e.Kind {
	case ExprLiteral:
		return copyValue(e.Literal), nil
	case ExprInput:
		v, ok := sc.session().Input(e.Name)
		if !ok {
			return nil, execErr(KindUnknownInput, path, "no such input").With("name", e.Name)
		}
		return v, nil
	case ExprVar:
		v, ok := sc.lookup(e.Name)
		if !ok {
			return nil, execErr(KindUnboundVariable, path, "variable is not bound").With("name", e.Name)
		}
		return v, nil
	case ExprField:
		base, err := r.eval(ctx, e.Operand, sc, join(path, "value"))
		if err != nil {
			return nil, err
		}
		obj, ok := base.(map[string]any)
		if !ok {
			return nil, execErr(KindTypeError, path, "field of a value that is not an object").With("type", typeName(base)).With("key", e.Key)
		}
		v, ok := obj[e.Key]
		if !ok {
			return nil, execErr(KindMissingKey, path, "object has no such key").With("key", e.Key)
		}
		return v, nil
	case ExprIndex:
		base, err := r.eval(ctx, e.Operand, sc, join(path, "value"))
		if err != nil {
			return nil, err
		}
		list, ok := base.([]any)
		if !ok {
			return nil, execErr(KindTypeError, path, "index of a value that is not a list").With("type", typeName(base)).With("index", e.Index)
		}
		i := e.Index
		if i < 0 {
			i += int64(len(list))
		}
		if i < 0 || i >= int64(len(list)) {
			return nil, execErr(KindIndexOutOfRange, path, "index is outside the list").With("index", e.Index).With("length", len(list))
		}
		return list[i], nil
	case ExprJoin:
		// Every part is evaluated (and bounded) first and the total is
		// checked before anything is copied.
		parts := make([]string, len(e.Items))
		total := 0
		for i, it := range e.Items {
			if err := ctx.Err(); err != nil {
				return nil, annotate(err, "path", path)
			}
			s, err := r.evalString(ctx, it, sc, join(path, "join")+idx(i))
			if err != nil {
				return nil, err
			}
			total += len(s)
			if total > r.maxValue {
				return nil, tooLarge(path, total, r.maxValue)
			}
			parts[i] = s
		}
		r.work.Add(int64(total))
		return strings.Join(parts, ""), nil
	case ExprJSON:
		v, err := r.eval(ctx, e.Operand, sc, join(path, "json"))
		if err != nil {
			return nil, err
		}
		return r.encode(v, path)
	case ExprText:
		v, err := r.eval(ctx, e.Operand, sc, join(path, "text"))
		if err != nil {
			return nil, err
		}
		if s, ok := v.(string); ok {
			return s, nil
		}
		if h, ok := asHandle(v); ok {
			s, err := r.env.Text(ctx, h)
			if err != nil {
				return nil, annotate(err, "path", path)
			}
			if len(s) > r.maxValue {
				return nil, tooLarge(path, len(s), r.maxValue)
			}
			return s, nil
		}
		return nil, execErr(KindTypeError, path, "text of a value that is not a handle or a string").With("type", typeName(v))
	case ExprList:
		out := make([]any, len(e.Items))
		for i, it := range e.Items {
			if err := ctx.Err(); err != nil {
				return nil, annotate(err, "path", path)
			}
			v, err := r.eval(ctx, it, sc, path+idx(i))
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		if err := r.checkSize(ctx, out, path); err != nil {
			return nil, err
		}
		return out, nil
	case ExprObject:
		out := make(map[string]any, len(e.Fields))
		for _, k := range sortedKeys(e.Fields) {
			if err := ctx.Err(); err != nil {
				return nil, annotate(err, "path", path)
			}
			v, err := r.eval(ctx, e.Fields[k], sc, join(path, k))
			if err != nil {
				return nil, err
			}
			out[k] = v
		}
		if err := r.checkSize(ctx, out, path); err != nil {
			return nil, err
		}
		return out, nil
	}
	return nil, execErr(KindInvalidArgument, path, "invalid expression kind").With("field", "kind")
}

// evalString evaluates e to a string: strings as they are, other values as
// their canonical JSON.
func (r *runner) evalString(ctx context.Context, e *Expr, sc *scope, path string) (string, error) {
	v, err := r.eval(ctx, e, sc, path)
	if err != nil {
		return "", err
	}
	if s, ok := v.(string); ok {
		return s, nil
	}
	return r.encode(v, path)
}

// encode returns the canonical JSON of v, failing with Kind
// value_too_large as soon as it grows beyond the runner's limit.
func (r *runner) encode(v Value, path string) (string, error) {
	var b strings.Builder
	err := encodeValue(&b, v, r.maxValue)
	r.work.Add(int64(b.Len()))
	if err == errTooLong {
		return "", tooLarge(path, b.Len(), r.maxValue)
	}
	if err != nil {
		return "", annotate(err, "path", path)
	}
	return b.String(), nil
}
