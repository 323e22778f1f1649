package repl

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/rlm-go/rlm/repl/internal/pymod"
)

// helpers returns the _rlm_ builtins that the AST rewrite (rewrite.go) and
// the translation layer (internal/translate, HELPERS.md) call.
func helpers() map[string]builtinFn {
	h := map[string]builtinFn{
		"_rlm_mul":    helperMul,
		"_rlm_num":    helperNum,
		"_rlm_mulrhs": helperMulOperand,
		"_rlm_enter":  helperEnter,
		"_rlm_import": helperImport,
		"_rlm_iter":   helperIter,
		"_rlm_percent": func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var f string
			var v starlark.Value
			if err := starlark.UnpackPositionalArgs("%", args, kwargs, 2, &f, &v); err != nil {
				return nil, err
			}
			out, err := pymod.Percent(thread, f, v)
			return starlark.String(out), err
		},
	}
	h["_rlm_method"] = helperMethod
	for name := range methods {
		if methods[name] {
			h["_rlm_m_"+name] = methodShim(name)
		}
	}
	for k, v := range translateHelpers() {
		h[k] = v
	}
	return h
}

// helperIter is the iterable of a for loop: strings iterate by character.
func helperIter(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 1 {
		return nil, pymod.Errorf("TypeError", "_rlm_iter takes 1 argument")
	}
	switch x := args[0].(type) {
	case starlark.String:
		if err := pymod.CheckSize(thread, "iterating a string", int64(len(x))*pymod.ElemBytes); err != nil {
			return nil, err
		}
		return chars(x), nil
	case starlark.Bytes:
		out := make([]starlark.Value, len(x))
		for i := range out {
			out[i] = starlark.MakeInt(int(x[i]))
		}
		return starlark.NewList(out), nil
	}
	return args[0], nil
}

func helperEnter(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	c := cellOf(thread)
	if c != nil && thread.CallStackDepth() > c.maxRec+2 {
		return nil, pymod.Errorf("RecursionError", "maximum recursion depth exceeded (limit %d)", c.maxRec)
	}
	return starlark.None, nil
}

// helperMul is x * y with the memory bound checked before a repetition allocates.
// boolInt is Python's view of a bool in arithmetic: the int 0 or 1.
func boolInt(v starlark.Value) starlark.Value {
	if b, ok := v.(starlark.Bool); ok {
		if b {
			return starlark.MakeInt(1)
		}
		return starlark.MakeInt(0)
	}
	return v
}

// helperNum is _rlm_num(x): a bool operand of arithmetic as an int (the
// rewrite wraps comparisons and other bool-valued operands in it).
func helperNum(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 1 || len(kwargs) != 0 {
		return nil, pymod.Errorf("TypeError", "_rlm_num takes 1 argument")
	}
	return boolInt(args[0]), nil
}

func helperMul(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 2 {
		return nil, pymod.Errorf("TypeError", "_rlm_mul takes 2 arguments")
	}
	args = starlark.Tuple{boolInt(args[0]), boolInt(args[1])}
	if err := checkMul(args[0], args[1], pymod.Limit(thread)); err != nil {
		return nil, err
	}
	return starlark.Binary(syntax.STAR, args[0], args[1])
}

// checkMul refuses a repetition x * y (either order) over limit bytes.
func checkMul(x, y starlark.Value, limit int64) error {
	if _, ok := x.(starlark.Int); ok {
		x, y = y, x
	}
	if n, ok := y.(starlark.Int); ok {
		var per int64
		switch x := x.(type) {
		case starlark.String:
			per = int64(len(x))
		case starlark.Bytes:
			per = int64(len(x))
		case *starlark.List:
			per = int64(x.Len()) * pymod.ElemBytes
		case starlark.Tuple:
			per = int64(len(x)) * pymod.ElemBytes
		}
		if per > 0 {
			k, ok := n.Int64()
			if !ok || (k > 0 && per > limit/k) {
				size := int64(1) << 62
				if ok && k > 0 && per < size/k {
					size = per * k
				}
				return memoryError("this repetition", size, limit)
			}
		}
	}
	return nil
}

// helperMulOperand is _rlm_mulrhs(y), the right operand of x[i] *= y or
// x.f *= y: Starlark evaluates x[i] (once, in Python's order) and, since no
// built-in * takes a mulOperand, hands it to mulOperand.Binary, which checks
// the repetition against the memory bound before it allocates.
func helperMulOperand(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 1 {
		return nil, pymod.Errorf("TypeError", "_rlm_mulrhs takes 1 argument")
	}
	return &mulOperand{v: args[0], limit: pymod.Limit(thread)}, nil
}

type mulOperand struct {
	v     starlark.Value
	limit int64
}

var _ starlark.HasBinary = (*mulOperand)(nil)

func (m *mulOperand) String() string        { return m.v.String() }
func (m *mulOperand) Type() string          { return m.v.Type() }
func (m *mulOperand) Freeze()               { m.v.Freeze() }
func (m *mulOperand) Truth() starlark.Bool  { return m.v.Truth() }
func (m *mulOperand) Hash() (uint32, error) { return m.v.Hash() }
func (m *mulOperand) Binary(op syntax.Token, y starlark.Value, side starlark.Side) (starlark.Value, error) {
	x, z := y, m.v // x * m
	if side == starlark.Left {
		x, z = m.v, y
	}
	if op != syntax.STAR {
		return starlark.Binary(op, x, z)
	}
	if err := checkMul(x, z, m.limit); err != nil {
		return nil, err
	}
	return starlark.Binary(syntax.STAR, x, z)
}

func helperImport(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var name string
	if err := starlark.UnpackPositionalArgs("_rlm_import", args, kwargs, 1, &name); err != nil {
		return nil, err
	}
	if m, ok := modules[name]; ok {
		return m, nil
	}
	if name == "random" {
		if c := cellOf(thread); c != nil {
			return c.it.random, nil
		}
	}
	return nil, pymod.Errorf("ModuleNotFoundError", "No module named '%s' (code mode offers only re, json, math, collections, random, string, time, typing)", name)
}

// methodShim is _rlm_m_NAME(x, ...): Python's method for the built-in types
// where Starlark lacks it or where it must be size-checked, else x.NAME(...).
func methodShim(name string) builtinFn {
	return func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if len(args) == 0 {
			return nil, pymod.Errorf("TypeError", "method %s needs a receiver", name)
		}
		recv, rest := args[0], args[1:]
		if v, handled, err := pyMethod(thread, name, recv, rest, kwargs); handled {
			return v, err
		}
		m, err := getMethod(recv, name)
		if err != nil {
			return nil, err
		}
		return starlark.Call(thread, m, rest, kwargs)
	}
}

// helperMethod is _rlm_method(recv, name, *args, **kwargs) (HELPERS.md §6):
// the translation layer's spelling of the method shims.
func helperMethod(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) < 2 {
		return nil, pymod.Errorf("TypeError", "_rlm_method needs a receiver and a method name")
	}
	name, ok := args[1].(starlark.String)
	if !ok {
		return nil, pymod.Errorf("TypeError", "_rlm_method: the method name must be a str")
	}
	rest := append(starlark.Tuple{args[0]}, args[2:]...)
	return methodShim(string(name))(thread, b, rest, kwargs)
}

func getMethod(recv starlark.Value, name string) (starlark.Value, error) {
	ha, ok := recv.(starlark.HasAttrs)
	if !ok {
		return nil, pymod.Errorf("AttributeError", "'%s' object has no attribute '%s'", pyType(recv), name)
	}
	m, err := ha.Attr(name)
	if err != nil {
		return nil, err
	}
	if m == nil {
		return nil, pymod.Errorf("AttributeError", "'%s' object has no attribute '%s'", pyType(recv), name)
	}
	return m, nil
}

// splitLines is Python's str.splitlines: lines end at \n, \r, \r\n, \v,
// \f, \x1c, \x1d, \x1e, \x85, U+2028 and U+2029.
func splitLines(s string, keepends bool) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		switch r {
		case '\n', '\r', '\v', '\f', 0x1c, 0x1d, 0x1e, 0x85, 0x2028, 0x2029:
		default:
			i += w
			continue
		}
		end := i + w
		if r == '\r' && end < len(s) && s[end] == '\n' {
			end++
		}
		if keepends {
			out = append(out, s[start:end])
		} else {
			out = append(out, s[start:i])
		}
		start, i = end, end
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

func pyMethod(thread *starlark.Thread, name string, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, bool, error) {
	lim := pymod.Limit(thread)
	switch r := recv.(type) {
	case starlark.String:
		s := string(r)
		switch name {
		case "join":
			var it starlark.Value
			if err := starlark.UnpackPositionalArgs("join", args, kwargs, 1, &it); err != nil {
				return nil, true, err
			}
			var sb strings.Builder
			n := 0
			err := pymod.Iterate(it, func(x starlark.Value) error {
				xs, ok := x.(starlark.String)
				if !ok {
					return pymod.Errorf("TypeError", "sequence item %d: expected str instance, %s found", n, pyType(x))
				}
				if n > 0 {
					sb.WriteString(s)
				}
				sb.WriteString(string(xs))
				n++
				if int64(sb.Len()) > lim {
					return memoryError("str.join's result", int64(sb.Len()), lim)
				}
				return nil
			})
			if err != nil {
				return nil, true, err
			}
			return starlark.String(sb.String()), true, nil
		case "replace":
			var old, new string
			count := -1
			if err := starlark.UnpackPositionalArgs("replace", args, kwargs, 2, &old, &new, &count); err != nil {
				return nil, true, err
			}
			k := strings.Count(s, old)
			if count >= 0 && count < k {
				k = count
			}
			if size := int64(len(s)) + int64(k)*(int64(len(new))-int64(len(old))); size > lim {
				return nil, true, memoryError("str.replace's result", size, lim)
			}
			return starlark.String(strings.Replace(s, old, new, count)), true, nil
		case "format":
			out, err := pymod.Format(thread, s, args, kwargs)
			return starlark.String(out), true, err
		case "split", "rsplit":
			// Python's keywords (sep=, maxsplit=) become Starlark's positionals.
			var sep starlark.Value = starlark.None
			maxsplit := -1
			if err := starlark.UnpackArgs(name, args, kwargs, "sep?", &sep, "maxsplit?", &maxsplit); err != nil {
				return nil, true, err
			}
			n := int64(len(s))/2 + 1
			if sv, ok := sep.(starlark.String); ok && len(sv) > 0 {
				n = int64(strings.Count(s, string(sv))) + 1
			}
			if maxsplit >= 0 && int64(maxsplit)+1 < n {
				n = int64(maxsplit) + 1
			}
			if n*pymod.ElemBytes > lim {
				return nil, true, memoryError("str."+name+"'s result", n*pymod.ElemBytes, lim)
			}
			m, err := getMethod(recv, name)
			if err != nil {
				return nil, true, err
			}
			v, err := starlark.Call(thread, m, starlark.Tuple{sep, starlark.MakeInt(maxsplit)}, nil)
			return v, true, err
		case "splitlines":
			var keep starlark.Value = starlark.False
			if err := starlark.UnpackArgs(name, args, kwargs, "keepends?", &keep); err != nil {
				return nil, true, err
			}
			lines := splitLines(s, bool(keep.Truth()))
			if n := int64(len(lines)) * pymod.ElemBytes; n > lim {
				return nil, true, memoryError("str.splitlines's result", n, lim)
			}
			out := make([]starlark.Value, len(lines))
			for i, l := range lines {
				out[i] = starlark.String(l)
			}
			return starlark.NewList(out), true, nil
		case "count":
			return nil, false, nil
		case "ljust", "rjust", "center":
			var width int
			fill := " "
			if err := starlark.UnpackPositionalArgs(name, args, kwargs, 1, &width, &fill); err != nil {
				return nil, true, err
			}
			if utf8.RuneCountInString(fill) != 1 {
				return nil, true, pymod.Errorf("TypeError", "The fill character must be exactly one character long")
			}
			if int64(width) > lim {
				return nil, true, memoryError("str."+name+"'s result", int64(width), lim)
			}
			n := utf8.RuneCountInString(s)
			if width <= n {
				return r, true, nil
			}
			pad := width - n
			switch name {
			case "ljust":
				return starlark.String(s + strings.Repeat(fill, pad)), true, nil
			case "rjust":
				return starlark.String(strings.Repeat(fill, pad) + s), true, nil
			}
			// CPython: the odd space goes left when the width is odd too.
			left := pad/2 + (pad & width & 1)
			return starlark.String(strings.Repeat(fill, left) + s + strings.Repeat(fill, pad-left)), true, nil
		case "zfill":
			var width int
			if err := starlark.UnpackPositionalArgs(name, args, kwargs, 1, &width); err != nil {
				return nil, true, err
			}
			if int64(width) > lim {
				return nil, true, memoryError("str.zfill's result", int64(width), lim)
			}
			n := utf8.RuneCountInString(s) // Python's width counts characters
			if width <= n {
				return r, true, nil
			}
			sign := ""
			body := s
			if len(s) > 0 && (s[0] == '-' || s[0] == '+') {
				sign, body = s[:1], s[1:]
			}
			return starlark.String(sign + strings.Repeat("0", width-n) + body), true, nil
		case "isnumeric", "isdecimal":
			if len(args) > 0 {
				return nil, true, pymod.Errorf("TypeError", "str.%s() takes no arguments", name)
			}
			ok := s != ""
			for _, c := range s {
				if !unicode.IsDigit(c) && !(name == "isnumeric" && unicode.IsNumber(c)) {
					ok = false
				}
			}
			return starlark.Bool(ok), true, nil
		case "casefold":
			return starlark.String(strings.ToLower(s)), true, nil
		case "swapcase":
			return starlark.String(strings.Map(func(c rune) rune {
				if unicode.IsUpper(c) {
					return unicode.ToLower(c)
				}
				return unicode.ToUpper(c)
			}, s)), true, nil
		case "encode":
			return starlark.Bytes(s), true, nil
		case "expandtabs":
			size := 8
			if err := starlark.UnpackPositionalArgs(name, args, kwargs, 0, &size); err != nil {
				return nil, true, err
			}
			if int64(strings.Count(s, "\t"))*int64(max(size, 0)) > lim {
				return nil, true, memoryError("str.expandtabs's result", int64(strings.Count(s, "\t"))*int64(size), lim)
			}
			var sb strings.Builder
			col := 0
			for _, c := range s {
				switch c {
				case '\t':
					if size > 0 {
						n := size - col%size
						sb.WriteString(strings.Repeat(" ", n))
						col += n
					}
				case '\n', '\r':
					sb.WriteRune(c)
					col = 0
				default:
					sb.WriteRune(c)
					col++
				}
			}
			return starlark.String(sb.String()), true, nil
		}
	case starlark.Bytes:
		if name == "decode" {
			return starlark.String(string(r)), true, nil
		}
	case *starlark.List:
		switch name {
		case "sort":
			var key, rev starlark.Value = starlark.None, starlark.False
			if err := starlark.UnpackArgs("sort", args, kwargs, "key?", &key, "reverse?", &rev); err != nil {
				return nil, true, err
			}
			var kw []starlark.Tuple
			if key != starlark.None {
				kw = append(kw, starlark.Tuple{starlark.String("key"), key})
			}
			kw = append(kw, starlark.Tuple{starlark.String("reverse"), rev})
			sorted, err := starlark.Call(thread, starlark.Universe["sorted"], starlark.Tuple{r}, kw)
			if err != nil {
				return nil, true, err
			}
			sl := sorted.(*starlark.List)
			for i := 0; i < sl.Len(); i++ {
				if err := r.SetIndex(i, sl.Index(i)); err != nil {
					return nil, true, err
				}
			}
			return starlark.None, true, nil
		case "copy":
			return listOf(r), true, nil
		case "reverse":
			n := r.Len()
			for i := 0; i < n/2; i++ {
				a, b := r.Index(i), r.Index(n-1-i)
				if err := r.SetIndex(i, b); err != nil {
					return nil, true, err
				}
				_ = r.SetIndex(n-1-i, a)
			}
			return starlark.None, true, nil
		case "count":
			return countIn(r, args, kwargs)
		}
	case starlark.Tuple:
		if name == "count" {
			return countIn(r, args, kwargs)
		}
	case *starlark.Dict:
		if name == "copy" {
			d := starlark.NewDict(r.Len())
			for _, kv := range r.Items() {
				_ = d.SetKey(kv[0], kv[1])
			}
			return d, true, nil
		}
		if name == "popitem" {
			// Python pops the last item (LIFO); Starlark's popitem the first.
			if err := starlark.UnpackPositionalArgs("popitem", args, kwargs, 0); err != nil {
				return nil, true, err
			}
			n := r.Len()
			if n == 0 {
				return nil, true, pymod.Errorf("KeyError", "'popitem(): dictionary is empty'")
			}
			kv := r.Items()[n-1]
			if _, _, err := r.Delete(kv[0]); err != nil {
				return nil, true, err
			}
			return kv, true, nil
		}
	case *starlark.Set:
		if name == "copy" {
			s := starlark.NewSet(r.Len())
			iter := r.Iterate()
			defer iter.Done()
			var x starlark.Value
			for iter.Next(&x) {
				_ = s.Insert(x)
			}
			return s, true, nil
		}
	}
	return nil, false, nil
}

func listOf(l *starlark.List) *starlark.List {
	out := make([]starlark.Value, l.Len())
	for i := range out {
		out[i] = l.Index(i)
	}
	return starlark.NewList(out)
}

func countIn(seq starlark.Indexable, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, bool, error) {
	var x starlark.Value
	if err := starlark.UnpackPositionalArgs("count", args, kwargs, 1, &x); err != nil {
		return nil, true, err
	}
	n := 0
	for i := 0; i < seq.Len(); i++ {
		eq, err := starlark.Equal(seq.Index(i), x)
		if err != nil {
			return nil, true, err
		}
		if eq {
			n++
		}
	}
	return starlark.MakeInt(n), true, nil
}
