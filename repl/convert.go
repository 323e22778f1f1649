package repl

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"sort"

	"go.starlark.net/starlark"

	"github.com/rlm-go/rlm/fault"
	"github.com/rlm-go/rlm/repl/internal/pymod"
)

const maxConvertDepth = 100

// ToGo converts a JSON-like Starlark value to Go: nil, bool, int64 (a larger
// int becomes json.Number), float64, string, []any (lists, tuples, sets),
// map[string]any (dicts, Counter, defaultdict; non-string keys are rendered
// with str()). Other values are an error.
func ToGo(v starlark.Value) (any, error) { return toGo(v, 0) }

func toGo(v starlark.Value, depth int) (any, error) {
	if depth > maxConvertDepth {
		return nil, fault.New(fault.PhaseExecute, fault.KindInvalid, "value nests too deeply to convert")
	}
	switch v := v.(type) {
	case starlark.NoneType:
		return nil, nil
	case starlark.Bool:
		return bool(v), nil
	case starlark.Int:
		if i, ok := v.Int64(); ok {
			return i, nil
		}
		return json.Number(v.String()), nil
	case starlark.Float:
		f := float64(v)
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return v.String(), nil
		}
		return f, nil
	case starlark.String:
		return string(v), nil
	case starlark.Bytes:
		return string(v), nil
	case starlark.IterableMapping:
		items := v.Items()
		m := make(map[string]any, len(items))
		for _, kv := range items {
			k := str(kv[0])
			g, err := toGo(kv[1], depth+1)
			if err != nil {
				return nil, err
			}
			m[k] = g
		}
		return m, nil
	case starlark.Iterable:
		if _, ok := v.(starlark.Callable); ok {
			break
		}
		iter := v.Iterate()
		defer iter.Done()
		out := []any{}
		var x starlark.Value
		for iter.Next(&x) {
			g, err := toGo(x, depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, g)
		}
		return out, nil
	}
	return nil, fault.Newf(fault.PhaseExecute, fault.KindInvalid, "a %s value cannot be converted to data", v.Type()).
		With("type", v.Type())
}

// FromGo converts a Go value (JSON-like: nil, bool, ints, floats,
// json.Number, string, []any, []string, map[string]any, map[string]string)
// to a Starlark value. Map keys are sorted for determinism.
func FromGo(x any) (starlark.Value, error) { return fromGo(x, 0) }

func fromGo(x any, depth int) (starlark.Value, error) {
	if depth > maxConvertDepth {
		return nil, fault.New(fault.PhaseExecute, fault.KindInvalid, "value nests too deeply to convert")
	}
	switch x := x.(type) {
	case nil:
		return starlark.None, nil
	case starlark.Value:
		return x, nil
	case bool:
		return starlark.Bool(x), nil
	case int:
		return starlark.MakeInt(x), nil
	case int64:
		return starlark.MakeInt64(x), nil
	case int32:
		return starlark.MakeInt64(int64(x)), nil
	case uint64:
		return starlark.MakeUint64(x), nil
	case float64:
		return starlark.Float(x), nil
	case float32:
		return starlark.Float(x), nil
	case *big.Int:
		return starlark.MakeBigInt(x), nil
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return starlark.MakeInt64(i), nil
		}
		if b, ok := new(big.Int).SetString(string(x), 10); ok {
			return starlark.MakeBigInt(b), nil
		}
		f, err := x.Float64()
		if err != nil {
			return nil, fault.Wrap(err, fault.PhaseExecute, fault.KindInvalid, "bad number")
		}
		return starlark.Float(f), nil
	case string:
		return starlark.String(x), nil
	case []string:
		l := make([]starlark.Value, len(x))
		for i, s := range x {
			l[i] = starlark.String(s)
		}
		return starlark.NewList(l), nil
	case []any:
		l := make([]starlark.Value, len(x))
		for i, e := range x {
			v, err := fromGo(e, depth+1)
			if err != nil {
				return nil, err
			}
			l[i] = v
		}
		return starlark.NewList(l), nil
	case map[string]string:
		d := starlark.NewDict(len(x))
		for _, k := range sortedStrings(x) {
			_ = d.SetKey(starlark.String(k), starlark.String(x[k]))
		}
		return d, nil
	case map[string]any:
		d := starlark.NewDict(len(x))
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			v, err := fromGo(x[k], depth+1)
			if err != nil {
				return nil, err
			}
			_ = d.SetKey(starlark.String(k), v)
		}
		return d, nil
	}
	return nil, fault.Newf(fault.PhaseExecute, fault.KindInvalid, "a Go %T cannot be converted to a Starlark value", x)
}

func sortedStrings(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// str is Python's str(): strings unquoted, everything else as repr.
func str(v starlark.Value) string {
	if s, ok := v.(starlark.String); ok {
		return string(s)
	}
	return v.String()
}

// pyType names v's type the way Python would.
func pyType(v starlark.Value) string { return pymod.TypeName(v) }

// preview is a bounded one-line rendering of v, in Python's repr style.
func preview(v starlark.Value, n int) string {
	var s string
	switch v.(type) {
	case starlark.String:
	case starlark.Sequence:
		s = fmt.Sprintf("len %d: ", v.(starlark.Sequence).Len())
	}
	return s + cutRunes(pymod.ReprN(v, 4*n), n)
}

func cutRunes(s string, n int) string {
	r := []rune(s)
	if len(s) > 4*n && len(r) > n {
		r = []rune(s[:4*n])
	}
	if len(r) <= n {
		return string(r)
	}
	return string(r[:n]) + "…"
}
